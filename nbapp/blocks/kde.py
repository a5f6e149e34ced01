"""Kernel density features: per class a Gaussian kernel density of the training values
(R naivebayes' ``usekernel``, Weka's ``-K``).

    p(x | c) = max(1 / (W_c h_c) sum_{rows i of c} w_i phi((x - x_i) / h_c), eps_c),   W_c = sum_i w_i,
    phi(z) = exp(-z^2 / 2) / sqrt(2 pi),   eps_c = var_smoothing phi(0) / (n_eff h_c)

The floor eps_c (:meth:`KDEBlock.floors`, the Model page's "floor") is the Gaussian's epsilon in
spirit: var_smoothing (1e-9 by default) times the peak of one training value's kernel, so at
most var_smoothing times the class's peak density. It only takes over where no value of the
class lies within a few h, where the density would round to 0 and rule the class out with no
note; the explanation notes each factor at the floor. var_smoothing = 0 sets no floor, and then
a value far from every class is ranked by each class's nearest values.

Bandwidth h_c, per class, from its weighted moments (the rules of ``scipy.stats.gaussian_kde``,
which for one dimension are Scott's and Silverman's rules of thumb):

    s_c^2   = (M2_c / W_c) / (1 - w2_c / W_c^2)    the weighted variance (n - 1 for unit weights)
    n_eff   = W_c^2 / w2_c                         Kish's effective sample size (= n_c unweighted)
    "scott"      h_c = s_c n_eff^(-1/5)
    "silverman"  h_c = s_c (3 n_eff / 4)^(-1/5)
    a number     h_c = that number, in the column's units, for every class

A class whose own s_c is 0 or undefined (one row, or all values equal) takes s from the whole
column (all classes pooled); if the whole column is constant, s = max(|mean|, 1), as R's
``bw.nrd0`` falls back. The table on the Model page says when that happened.

Statistics (:class:`nbapp.blocks.grid.GridStats`): a per-class histogram on a sparse dyadic
grid (at most 2048 non-empty bins, at the finest level that holds the values in as many; up to
2048 distinct values each keep a bin, so small data is kept exactly), each bin with its mass,
centroid and spread (first and second moments), plus n, mean, M2 and w2 per class. They add
exactly over any split of the rows, so KDE columns merge, fit out of core and on clusters like
every other type. A bin of mass m, centroid c and spread s^2 stands for its values as
m N(x; c, h^2 + s^2): exact for a bin holding one distinct value, and right to second order in
s / h otherwise. The level follows where the values are, not their range: one far value (a
999999 sentinel) costs one bin and leaves the bins of the others as they were.

Scoring (``bench/kde_predict.py`` times 1,000,000 rows against the Gaussian block): per class,
log p(x | c) and its slope are computed once at nodes spaced <= h/64, in runs that cover 20 h
either side of every bin (runs whose nodes meet are one run, so the gap to a far value gets no
nodes): exactly, summed over the bins, when the nodes within 10 h of a bin x bins <= 2e7 (small
data); else by FFT convolution of the bins split linearly onto the nodes (Wand's linear binning,
the spread the split adds taken out again) with the kernel and its derivatives (cut at 10 h,
where phi is 2e-22 of its peak). Nodes where the density is below 1e-10 of its peak (far tails,
gaps between clusters), where a sum has lost its digits, are summed again as a log-sum-exp.
Between nodes log p(x | c) is a cubic Hermite interpolation. Beyond the runs, log p(x | c) is
summed directly over the bins (a log-sum-exp), so without a floor a value far from the data
still ranks the classes.

Approximation error against the exact KDE (``scipy.stats.gaussian_kde`` with the same
bandwidth), largest relative error over a grid where scipy's density is above 1e-6 of its
peak: 1.3e-10 on 300 values per class (weighted too), 7e-9 on 5,000 normal values per class
with and without a 1e6 sentinel, 6e-8 on 20,000 skewed values per class (w / h = 0.03), all
tested in ``tests/test_kde.py``; 1e-6 on 33,000 values per class (``bench/kde_predict.py``).
The error grows with w / h, the stored bin width against the bandwidth (a tiny number
bandwidth, or data that fill more than 2048 bins at a fine level): the Model page shows w / h.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.signal import fftconvolve

from nbapp.blocks.base import NUMBER, STANDARDISED, Block, Spec
from nbapp.blocks.grid import GridCounted, GridStats, check_finite, precision_level
from nbapp._derived import derived
from nbapp.errors import DataError, shown
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp._moments import pooled_moments
from nbapp._numbers import numeric_column, scalar_number
from nbapp.blocks.base import ParameterCount

__all__ = ["KDE", "KDEBlock", "bandwidths", "scott_bandwidth"]

_KIND = "a KDE"
BANDWIDTH_RULES = ("scott", "silverman")
KERNELS = ("gaussian",)
_LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)
_NODES_PER_BANDWIDTH = 64      # grid nodes per h (at least, unless the grid would exceed _MAX_NODES)
_KERNEL_REACH = 10.0           # the FFT's kernel is cut at 10 h: phi(10) / phi(0) = 2e-22
_GRID_REACH = 20.0             # nodes cover 20 h either side of every bin; values beyond are summed directly
_LOW_DENSITY = 1e-10           # below this share of the peak, a node's sum is taken again in log space
_EXACT_CELLS = 4_000_000       # rows x bins per chunk of the direct evaluation
_MAX_NODES = 2**17             # evaluation nodes per class (1 MB); a wider range gets a coarser grid
_DIRECT_NODE_CELLS = 20_000_000   # nodes x bins up to which the node values are exact sums (small data)


@dataclass(frozen=True)
class KDE(Spec):
    """A Gaussian kernel density per class; ``bandwidth`` "scott", "silverman" or a number h > 0
    (in the column's units). Only the Gaussian kernel is offered."""

    kind: ClassVar[str] = "kde"
    bandwidth: str | float = "scott"
    kernel: str = "gaussian"

    def __post_init__(self) -> None:
        b = self.bandwidth
        if isinstance(b, str):
            if b not in BANDWIDTH_RULES:
                raise DataError(f"KDE bandwidth must be 'scott', 'silverman' or a number > 0, not {b!r}.")
        elif isinstance(b, bool) or not isinstance(b, (int, float)) or not _finite(b) or not b > 0:
            raise DataError(f"KDE bandwidth must be 'scott', 'silverman' or a number > 0, not {b!r}.")
        else:
            _check_square(float(b))
        if self.kernel not in KERNELS:
            raise DataError(f"KDE kernel must be 'gaussian', not {self.kernel!r}.")


def _finite(number: int | float) -> bool:
    try:
        return bool(np.isfinite(float(number)))
    except OverflowError:             # an int beyond any float
        return False


def _check_square(h: float) -> None:
    """The kernel's variance is h^2: a bandwidth whose square is no normal float64 (h below about
    1.5e-154 squares to 0 or a denormal, above about 1.3e154 to infinity) would leave the column
    out of every prediction; refused, as a Gaussian variance that underflows is."""
    square = h * h
    if not np.finfo(float).tiny <= square < np.inf:
        size, fate = ("small", "underflows") if square < 1 else ("large", "overflows")
        raise DataError(f"KDE bandwidth {h:g} is so {size} that its square h^2 {fate} in floating point, and "
                        "the column would be left out; rescale the column (e.g. by a power of ten) and give h "
                        "in its new units, or use 'scott'.")


def bandwidths(stats: GridStats, bandwidth: str | float) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """h_c per class by the rule (see the module docstring), n_eff per class and a note per class."""
    n, w2 = stats.n, stats.w2
    with np.errstate(invalid="ignore", divide="ignore"):
        n_eff = np.where(w2 > 0, n**2 / np.where(w2 > 0, w2, 1.0), 0.0)
        variance = np.where(n_eff > 1, (stats.m2 / np.where(n > 0, n, 1.0)) / (1 - 1 / np.where(n_eff > 1, n_eff, 2.0)),
                            0.0)
    notes = [""] * len(n)
    if not isinstance(bandwidth, str):
        return np.full(len(n), float(bandwidth)), n_eff, notes
    spread = np.sqrt(variance)
    fallback = ~(spread > 0) & (n > 0)
    if fallback.any():
        total_n, total_mean, total_m2 = pooled_moments(n[:, None], stats.mean[:, None], stats.m2[:, None])
        total_eff = float(n.sum() ** 2 / w2.sum()) if w2.sum() > 0 else 0.0
        pooled = float(np.sqrt(total_m2[0] / total_n[0] / (1 - 1 / total_eff))) if total_eff > 1 else 0.0
        if pooled > 0:
            note = "one value or all values equal: the spread of the whole column is used"
        else:
            pooled, note = max(abs(float(total_mean[0])), 1.0), "the whole column is constant: s = max(|mean|, 1)"
        spread = np.where(fallback, pooled, spread)
        notes = [note if f else "" for f in fallback]
    factor = np.where(n_eff > 0, np.maximum(n_eff, 1.0), 1.0)
    factor = factor ** -0.2 if bandwidth == "scott" else (factor * 0.75) ** -0.2
    return spread * factor, n_eff, notes


def scott_bandwidth(x: np.ndarray, weights: np.ndarray | None = None) -> float:
    """h of one sample by Scott's rule, as a KDE column's class gets it (:func:`bandwidths`):
    s n_eff^(-1/5), s the weighted standard deviation (n - 1 for unit weights), n_eff Kish's
    effective sample size; missing values are left out.

    >>> round(scott_bandwidth(np.array([1.0, 2.0, 3.0, 4.0])), 4)      # s = 1.291, n = 4
    0.9784
    """
    x = np.asarray(x, dtype=float)
    w = np.ones(len(x)) if weights is None else np.asarray(weights, dtype=float)
    keep = np.isfinite(x) & (w > 0)
    x, w = x[keep], w[keep]
    n = w.sum()
    mean = float(np.dot(w, x) / n) if n > 0 else 0.0
    one = SimpleNamespace(n=np.array([n]), w2=np.array([np.dot(w, w)]), mean=np.array([mean]),
                          m2=np.array([np.dot(w, (x - mean) ** 2)]))    # all that bandwidths reads
    return float(bandwidths(one, "scott")[0][0])


@dataclass(frozen=True)
class _ClassDensity:
    """log p(x | c) of one class: a log-density on runs of a regular grid, and the bins for the
    direct path. Node j sits at j 2^level; run r holds the nodes first[r] .. first[r] + cells[r]
    and its cells are cubic[:, base[r]:base[r] + cells[r]]."""

    level: int               # node spacing 2^level
    first: np.ndarray        # per run: the index of its first node (whole numbers as floats, sorted)
    cells: np.ndarray        # per run: its cells between nodes
    base: np.ndarray         # per run: the position of its first cell in cubic and direct
    cubic: np.ndarray        # per cell between nodes: the Hermite cubic's 4 coefficients in t
    direct: np.ndarray       # per cell: True where a node is below the interpolation threshold
    centroids: np.ndarray    # the stored bins' centroids (sorted), log (mass / width) and width^2
    log_mass: np.ndarray
    width2: np.ndarray       # h^2 + the bin's spread
    tail: int                # bins within reach of either end: all a value beyond the grid needs
    log_norm: float          # log (W_c sqrt(2 pi))

    def log_density(self, x: np.ndarray) -> np.ndarray:
        t = np.ldexp(x, -self.level)                # x in node spacings, then its place in a cell
        if len(self.first) == 1:                    # one run (most columns): no search
            t -= self.first[0]
            cells, base = self.cells[0], None
        else:
            run = np.searchsorted(self.first, t, side="right") - 1
            np.maximum(run, 0, out=run)
            t -= self.first[run]
            cells, base = self.cells[run], self.base[run]
        with np.errstate(invalid="ignore"):         # NaN and values off the grid: clipped, then replaced
            inside = (t >= 0) & (t < cells)
            j = t.astype(np.int64)
        np.clip(j, 0, cells - 1, out=j)
        cell = j if base is None else j + base
        if self.direct.any():
            inside &= ~self.direct[cell]
        t -= j
        a = self.cubic[:, cell]
        out = a[3]                                  # a0 + t (a1 + t (a2 + t a3)), in place
        for k in (2, 1, 0):
            out *= t
            out += a[k]
        if not inside.all():
            self._off_grid(x, inside, out)
        return out

    def _off_grid(self, x: np.ndarray, inside: np.ndarray, out: np.ndarray) -> None:
        """Values beyond the grid or in cells left out of it: summed directly (NaN stays NaN)."""
        out[~inside] = np.nan
        idx = np.flatnonzero(~inside & ~np.isnan(x))
        below, above = x[idx] < self.centroids[0], x[idx] > self.centroids[-1]
        out[idx[below]] = self.exact(x[idx[below]], slice(0, self.tail))
        out[idx[above]] = self.exact(x[idx[above]], slice(len(self.centroids) - self.tail, None))
        middle = idx[~below & ~above]
        out[middle] = self.exact(x[middle], slice(None))

    def exact(self, x: np.ndarray, bins: slice) -> np.ndarray:
        """log p(x) summed over the bins."""
        return _log_sums(x, self.centroids[bins], self.log_mass[bins], self.width2[bins])[0] - self.log_norm


def _log_sums(x: np.ndarray, centroids: np.ndarray, log_mass: np.ndarray, width2: np.ndarray, *,
              slope: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """log sum_i exp(log_mass_i - (x - c_i)^2 / (2 width2_i)) as a log-sum-exp (no underflow however
    far x is), and its derivative in x if ``slope``; in chunks, so memory stays bounded."""
    out, d_out = np.empty(len(x)), np.empty(len(x)) if slope else None
    scale = -0.5 / width2
    chunk = max(1, _EXACT_CELLS // max(1, len(centroids)))
    for s in range(0, len(x), chunk):
        d = x[s:s + chunk, None] - centroids[None, :]
        a = d * d
        a *= scale[None, :]
        a += log_mass[None, :]
        top = a.max(axis=1)                     # the largest term factored out
        a -= top[:, None]
        np.exp(a, out=a)
        total = a.sum(axis=1)
        out[s:s + chunk] = top + np.log(total)
        if slope:
            d_out[s:s + chunk] = -(a * d / width2[None, :]).sum(axis=1) / total
    return out, d_out


def _runs(node: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The runs of nodes that cover each bin's node +- reach, ranges that meet made one:
    (first node, node count) of each run."""
    start, stop = node - reach, node + 2 + reach           # each bin needs nodes start .. stop - 1
    breaks = np.flatnonzero(start[1:] > stop[:-1]) + 1
    first, last = start[np.r_[0, breaks]], stop[np.r_[breaks - 1, len(node) - 1]]
    return first, (last - first).astype(np.int64)


def _evaluation_grid(centroids: np.ndarray, h: float) -> tuple[int, np.ndarray, np.ndarray, int]:
    """The nodes at which class densities are computed: (level, first node and node count of each
    run, the nodes within 10 h of a bin). Spacing 2^level at most h / 64 and no finer than the
    values' own precision; each bin's cell and 20 h either side of it get nodes, and runs whose
    nodes would meet are one run, so a far value costs 40 h of nodes, not the gap to it. The
    spacing doubles until all runs hold at most MAX_NODES nodes."""
    top = float(np.abs(centroids).max())
    level = max(int(np.floor(np.log2(h / _NODES_PER_BANDWIDTH))), precision_level(top))
    while True:
        step = np.ldexp(1.0, level)
        node = np.floor(np.ldexp(centroids, -level))          # whole numbers below 2^53: exact
        first, counts = _runs(node, np.ceil(_GRID_REACH * h / step))
        if counts.sum() <= _MAX_NODES:
            return level, first, counts, int(_runs(node, np.ceil(_KERNEL_REACH * h / step))[1].sum())
        level += 1


def _hermite(y: np.ndarray, d: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """Per cell [k, k + 1] of the nodes: the coefficients a0..a3 (in t = 0..1) of the cubic through
    y_k and y_k+1 with slopes d_k and d_k+1 (per unit of t); zeros in the cells to ``skip``."""
    y0, y1, d0, d1 = y[:-1], y[1:], d[:-1], d[1:]
    with np.errstate(invalid="ignore"):
        dy = y1 - y0
        cubic = np.array([y0, d0, 3 * dy - 2 * d0 - d1, d0 + d1 - 2 * dy])
    cubic[:, skip] = 0.0
    return cubic


def _direct_sums(nodes: np.ndarray, centroids: np.ndarray, mass: np.ndarray, width2: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """sum_i m_i exp(-(node - c_i)^2 / (2 width2_i)) / sqrt(width2_i) and its derivative in x."""
    density, derivative = np.empty(len(nodes)), np.empty(len(nodes))
    chunk = max(1, _EXACT_CELLS // max(1, len(centroids)))
    scale = mass / np.sqrt(width2)
    for s in range(0, len(nodes), chunk):
        d = nodes[s:s + chunk, None] - centroids[None, :]
        e = scale[None, :] * np.exp(-0.5 * d * d / width2[None, :])
        density[s:s + chunk] = e.sum(axis=1)
        derivative[s:s + chunk] = -(e * d / width2[None, :]).sum(axis=1)
    return density, derivative


def _binned_sums(centroid: np.ndarray, mass: np.ndarray, spread: np.ndarray, first: float, count: int, level: int,
                 reach: int, h: float) -> tuple[np.ndarray, np.ndarray]:
    """The same sums from the bins split linearly onto the nodes, by FFT convolution (large data).
    A bin's spread s^2 enters by the second-order term of its Taylor expansion, (s^2 / 2) phi'',
    less the spread the split itself adds (t (1 - t) step^2 for a bin t of the way between two
    nodes), so the sums are right to second order in step / h and s / h."""
    step = float(np.ldexp(1.0, level))
    u = np.ldexp(centroid, -level) - first          # node positions: exact for powers of two
    j = np.clip(np.floor(u).astype(np.int64), 0, count - 2)
    t = np.clip(u - j, 0.0, 1.0)
    nodes, spread_nodes = np.zeros(count), np.zeros(count)
    for target, weight in ((nodes, mass), (spread_nodes, mass * (spread - t * (1 - t) * step**2) / 2)):
        np.add.at(target, j, weight * (1 - t))
        np.add.at(target, j + 1, weight * t)
    z = np.arange(-reach, reach + 1) * step / h
    phi = np.exp(-0.5 * z * z)
    # the kernel and its second derivative (density); its first and third derivative (slope)
    kernels = [(phi, phi * (z * z - 1) / h**2), (-phi * z / h, -phi * (z**3 - 3 * z) / h**3)]
    density, derivative = (fftconvolve(nodes, k0, mode="same") + fftconvolve(spread_nodes, k2, mode="same")
                           for k0, k2 in kernels)
    return np.maximum(density, 0.0) / h, derivative / h


def class_density(stats: GridStats, c: int, h: float) -> _ClassDensity:
    """The grid evaluation of class c's KDE with bandwidth h (see the module docstring)."""
    fine_mass, centroids, spread = stats.bin_moments(stats.exponent, c)
    width2 = h * h + spread                          # a bin of spread s^2 smooths like a kernel of h^2 + s^2
    log_mass = np.log(fine_mass) - 0.5 * np.log(width2)
    level, first, counts, near = _evaluation_grid(centroids, h)
    step = float(np.ldexp(1.0, level))
    nodes = np.ldexp(np.concatenate([np.arange(f, f + k) for f, k in zip(first, counts)]), level)
    if near * len(centroids) <= _DIRECT_NODE_CELLS:     # exact sums at the nodes (at most twice this)
        density, derivative = _direct_sums(nodes, centroids, fine_mass, width2)
    else:                   # by run: the kernel is cut at 10 h, so no bin of another run reaches its nodes
        reach = int(np.ceil(_KERNEL_REACH * h / step))
        mass, centroid, coarse_spread = stats.bin_moments(max(level, stats.exponent), c)
        node = np.floor(np.ldexp(centroid, -level))
        sums = []
        for f, k in zip(first, counts):
            run = (node >= f) & (node < f + k)
            sums.append(_binned_sums(centroid[run], mass[run], coarse_spread[run], f, k, level, reach, h))
        density, derivative = (np.concatenate(part) for part in zip(*sums))
    log_norm = float(np.log(stats.n[c]) + _LOG_SQRT_2PI)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_grid = np.log(density) - log_norm
        slope = derivative / density * step
    # Far from the peak a sum loses its digits (to the FFT's rounding, or to underflow): there
    # the nodes are summed again as a log-sum-exp, or, past a budget, their cells are left to
    # the direct evaluation of each value.
    low = np.flatnonzero(density < _LOW_DENSITY * density.max())
    direct = np.zeros(len(nodes), dtype=bool)
    if len(low) * len(centroids) <= _DIRECT_NODE_CELLS:
        log_low, slope_low = _log_sums(nodes[low], centroids, log_mass, width2, slope=True)
        log_grid[low], slope[low] = log_low - log_norm, slope_low * step
    else:
        direct[low] = True
        slope[low] = 0.0
    ends = np.cumsum(counts)
    skip = [direct[e - k:e - 1] | direct[e - k + 1:e] for e, k in zip(ends, counts)]
    cubic = np.concatenate([_hermite(log_grid[e - k:e], slope[e - k:e], cut) for e, k, cut in zip(ends, counts, skip)],
                           axis=1)
    # Beyond the grid only the bins within sqrt(2 (log(W / m_min) + 50) max width^2) of the end
    # count: the others add less than e^-50 of the nearest bin's term.
    reach_tail = np.sqrt(2 * (np.log(stats.n[c]) - np.log(fine_mass.min()) + 50) * width2.max())
    tail = int(max(np.searchsorted(centroids, centroids[0] + reach_tail, side="right"),
                   len(centroids) - np.searchsorted(centroids, centroids[-1] - reach_tail, side="left")))
    return _ClassDensity(level, first, counts - 1, np.r_[0, np.cumsum(counts - 1)[:-1]], cubic,
                         np.concatenate(skip), centroids, log_mass, width2, tail, log_norm)


class KDEBlock(GridCounted, Block):
    """One KDE column."""

    kind = "kde"
    value_words = _KIND
    title = "KDE"
    description = "a Gaussian kernel density per class over the training values"
    value_kind = NUMBER
    baseline = STANDARDISED
    density_choice = True
    spec_type = KDE
    stats_type = GridStats
    smoothed = False


    def check(self) -> None:
        check_finite(self.stats, self.column)
        s = self.stats
        distinct = int((s.mass.sum(axis=1) > 0).sum()) > 1 or bool((s.second > 0).any())
        if distinct and pooled_moments(s.n[:, None], s.mean[:, None], s.m2[:, None])[2][0] == 0:
            raise DataError(f"Column {self.column!r} holds values so small that their variance underflows to 0, "
                            "so no bandwidth can be set; rescale the column (e.g. multiply by a power of ten).")

    # -- parameters ------------------------------------------------------------------------
    @derived
    def _bandwidths(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        return bandwidths(self.stats, self.specs[0].bandwidth)

    def bandwidth(self) -> np.ndarray:
        """h_c per class."""
        return self._bandwidths()[0]

    def defined(self) -> bool:
        """Every class observed the column (else it is left out for every class, as a Gaussian)."""
        return bool((self.stats.n > 0).all())

    @derived
    def _densities(self) -> list[_ClassDensity | None]:
        return [class_density(self.stats, c, h) if n > 0 else None
                for c, (n, h) in enumerate(zip(self.stats.n, self.bandwidth()))]

    def floors(self) -> np.ndarray:
        """The density floor eps_c per class: var_smoothing phi(0) / (n_eff,c h_c), var_smoothing
        times the peak of one training value's kernel (a value of weight sum w^2 / W_c, the mean
        weight of a value drawn by its weight; 1 unweighted). The density's peak is at least its
        largest-weight value's kernel peak, so eps_c is at most var_smoothing times the class's
        peak density (exactly while each value keeps its own bin, to within w^2 / 8 h^2 when values
        share bins of width w). It only takes over where no value of the class lies within a few
        h, where p(x | c) would round to 0 and rule the class out: the KDE's counterpart of the
        Gaussian's epsilon (0 when var_smoothing is 0)."""
        h, n_eff, _ = self._bandwidths()
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(n_eff > 0, self.settings.var_smoothing * np.exp(-_LOG_SQRT_2PI) / (n_eff * h), 0.0)

    def kernel_log_density(self, x: np.ndarray) -> np.ndarray:
        """log of the kernel density itself, before the floor: rows x classes (NaN where x is
        missing or the class has no values)."""
        x = np.asarray(x, dtype=float)
        out = np.full((len(x), len(self.stats.n)), np.nan)
        for c, d in enumerate(self._densities()):
            if d is not None and len(x):
                out[:, c] = d.log_density(x)
        return out

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """log p(x | c) = log max(kernel density, eps_c): rows x classes (NaN where x is missing
        or the class has no values)."""
        with np.errstate(divide="ignore"):
            return np.maximum(self.kernel_log_density(x), np.log(self.floors()))

    # -- prediction ------------------------------------------------------------------------
    def _values(self, frame: pd.DataFrame) -> np.ndarray:
        if self.column not in frame:
            return np.full(len(frame), np.nan)
        return numeric_column(frame[self.column], self.column, _KIND)

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        if not self.defined():
            return np.zeros((len(frame), n_classes))
        log = self.log_density(self._values(frame))
        log[np.isnan(log)] = 0.0              # a missing value adds nothing   [seed 000, Eq. 22]
        return log

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        value = row.get(self.column)
        x = scalar_number(value, self.column, _KIND)
        if np.isnan(x):
            return [Factor.missing(self.column, self.kind, value, len(classes))]
        if not self.defined():
            return [Factor.skipped(self.column, self.kind, value, UNDEFINED, len(classes),
                                   "some class has no observed value of this column, so no density")]
        h = ", ".join(f"{v:.4g}" for v in self.bandwidth())
        kernel = self.kernel_log_density(np.array([x]))[0]
        with np.errstate(divide="ignore"):
            floor = np.log(self.floors())
        return [Factor(self.column, self.kind, x, USED, np.maximum(kernel, floor), None, f"kernel density (h = {h})",
                       note=self._floor_note(x, [c for c, low in zip(classes, kernel < floor) if low]))]

    def _floor_note(self, x: float, floored: list[Any]) -> str:
        """The note of a factor at the density floor (as a categorical zero gets one)."""
        if not floored:
            return ""
        listed = ", ".join(shown(c) for c in floored)
        return (f"p({self.column} = {shown(x)} | class) is the density floor ε_c for class {listed}: no training "
                f"value of that class lies near {shown(x)}, so its kernel density is below ε_c = var_smoothing · "
                "φ(0) / (n_eff h_c) and would round to 0, ruling the class out; the floor keeps it possible but "
                "unlikely (var_smoothing = 0 sets no floor).")

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        raise DataError(f"Column {self.column!r} is a KDE: its log-density ratio is not linear in x, so the "
                        "model has no linear form; type it gaussian or discretized to get one.")

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """None to count: a kernel density keeps the training values (their histogram) itself."""
        raise DataError(f"Column {self.column!r} is KDE: a kernel density keeps the training values themselves "
                        "(it is non-parametric), so it has no fixed number of parameters to count.")

    # -- tables ----------------------------------------------------------------------------
    def parameters(self, column: str, classes: list[Any]) -> pd.DataFrame:
        """Per class: n, n_eff, mean, std, the bandwidth rule, h, the grid's bin width w, w / h and
        the density floor eps_c."""
        h, n_eff, notes = self._bandwidths()
        s = self.stats
        with np.errstate(invalid="ignore", divide="ignore"):
            std = np.sqrt(np.where(s.n > 0, s.m2 / np.where(s.n > 0, s.n, 1.0), np.nan))
        rule = self.specs[0].bandwidth
        return pd.DataFrame(
            {"n": s.n, "n_eff": n_eff, "mean": s.mean, "std": std,
             "rule": rule if isinstance(rule, str) else "given", "h": h, "bin_width": s.width,
             "w/h": s.width / h, "floor": self.floors(), "note": notes},
            index=pd.Index(classes, name="class", dtype=object),
        )

    def density(self, column: str, x: np.ndarray, classes: list[Any]) -> pd.DataFrame:
        """p(x | c) at the points x, one column per class."""
        with np.errstate(under="ignore"):
            return pd.DataFrame(np.exp(self.log_density(np.asarray(x, dtype=float))),
                                columns=pd.Index(classes, dtype=object))

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        weights = prior * (self.stats.n > 0)
        return float(np.dot(weights, self.stats.mean) / weights.sum()) if weights.sum() > 0 else 0.0

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        """x = the centroid of a bin drawn by its mass in class c, plus N(0, h_c^2 + the bin's spread)."""
        out = np.full(len(y), np.nan)
        h = self.bandwidth()
        for c in np.unique(y):
            rows = np.flatnonzero(y == c)
            if self.stats.n[c] <= 0:
                continue
            mass, centroid, spread = self.stats.bin_moments(self.stats.exponent, c)
            picks = rng.choice(len(mass), size=len(rows), p=mass / mass.sum())
            out[rows] = centroid[picks] + rng.normal(0.0, 1.0, len(rows)) * np.sqrt(h[c] ** 2 + spread[picks])
        return {self.column: out}
