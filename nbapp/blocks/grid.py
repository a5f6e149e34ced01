"""Additive statistics of a numeric column that keep its shape: a fine per-class histogram.

The KDE (:mod:`nbapp.blocks.kde`) and discretised (:mod:`nbapp.blocks.discretized`) features
need more of a column than its moments, yet their statistics must still add exactly over any
split of the rows (merge, partial_fit, files, clusters, k-fold). Both use :class:`GridStats`:

* a **dyadic grid**: bin k of level e is [k 2^e, (k + 1) 2^e). The lattice is fixed before any
  data is seen; only its level e depends on the data: the smallest e at which the observed
  range [min, max] spans at most ``MAX_BINS`` bins (and at least 2^-52 of the largest |x|, so
  bin indices stay exact integers). Bins of level e + 1 are unions of two bins of level e,
  so a histogram is coarsened *exactly* by adding pairs of bins;
* per bin and class: the weighted count (``mass``) and the weighted first and second moments
  of the values about the bin's left edge L (``first`` = sum w (x - L), ``second`` = sum
  w (x - L)^2; about L, not 0, so no digits cancel), so a bin stands for its values by their
  centroid and spread (exact when the bin holds one distinct value, the rule for small data);
* per class: n, mean and M2 (Chan's merge, :mod:`nbapp.moments`) and the sum of squared
  weights w2, which the bandwidth rules need (the effective sample size n^2 / w2).

Adding two statistics coarsens both to the larger level, unites their bin ranges and
coarsens further while the union spans more than ``MAX_BINS`` bins. The result is the
histogram one pass over all the rows would have made: the level of the union is the larger
of the parts' levels or the first level at which the union's range fits, and a part's range
is never wider than the union's (see ``tests/test_kde.py`` for the property test).

Only rows with a value and a weight > 0 are counted (a zero-weight row must not widen the
range, or the level of a fit would depend on rows that do not count).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from nbapp.blocks.base import Stats, frozen, state_matrix, state_vector, take_classes
from nbapp.errors import DataError
from nbapp.moments import merge_moments, unmerge_moments

__all__ = ["GridStats", "MAX_BINS", "grid_level", "coarsen", "coarsen_bins", "check_finite"]

# Bins of the finest grid a column gets: its range / 4096 <= bin width < range / 2047.
# 3 x 4096 bins x classes numbers per column: a 3-class KDE column of 100,000 rows is 172 kB of JSON.
MAX_BINS = 4096
# The finest level: below 2^(exponent of max|x| - 52) bin indices would exceed 2^53 and stop
# being exact in float64 (and the last bits of x carry no information anyway).
_MANTISSA_BITS = 52
_LOWEST_LEVEL = -1074            # 2^-1074, the smallest float64; the level of an all-zero column
_HIGHEST_LEVEL = 1024


def _span(start: int, stop: int, steps: int) -> int:
    """Bins of a coarser level (steps up) that bins start .. stop - 1 fall into."""
    shift = min(steps, 62)
    return ((stop - 1) >> shift) - (start >> shift) + 1


def _bin_count(lo: float, hi: float, level: int) -> int:
    return int(np.floor(np.ldexp(hi, -level)) - np.floor(np.ldexp(lo, -level))) + 1


def grid_level(lo: float, hi: float) -> int:
    """The level e of the values' range [lo, hi]: the smallest e >= the precision floor at which
    [lo, hi] spans at most MAX_BINS bins of width 2^e."""
    top = max(abs(lo), abs(hi))
    floor = max(int(np.frexp(top)[1]) - _MANTISSA_BITS, _LOWEST_LEVEL) if top > 0 else _LOWEST_LEVEL
    span = hi / 2 - lo / 2                 # halves: hi - lo may overflow
    if span <= 0:
        return floor
    level = int(np.ceil(np.log2(span) + 1 - np.log2(MAX_BINS - 2)))
    if _bin_count(lo, hi, level - 1) <= MAX_BINS:
        level -= 1
    while _bin_count(lo, hi, level) > MAX_BINS:   # float rounding of log2 only
        level += 1
    return max(level, floor)


def coarsen(offset: int, arrays: tuple[np.ndarray, ...], steps: int) -> tuple[int, tuple[np.ndarray, ...]]:
    """Bins offset, offset + 1, ... of level e summed into the bins of level e + steps."""
    if steps <= 0 or len(arrays[0]) == 0:
        return offset, arrays
    index = _coarse_index(offset, len(arrays[0]), steps)
    start = int(index[0])
    out = []
    for a in arrays:
        target = np.zeros((int(index[-1]) - start + 1,) + a.shape[1:])
        np.add.at(target, index - start, a)
        out.append(target)
    return start, tuple(out)


def _coarse_index(offset: int, size: int, steps: int) -> np.ndarray:
    shift = min(steps, 62)        # indices are below 2^53: any larger shift gives the same floor
    return (offset + np.arange(size, dtype=np.int64)) >> shift


def coarsen_bins(offset: int, level: int, mass: np.ndarray, first: np.ndarray, second: np.ndarray,
                 to_level: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """A histogram with per-bin moments about each bin's left edge, coarsened to ``to_level``: a fine
    bin's left edge lies delta >= 0 right of its coarse bin's, so
    first' = sum (first + delta mass), second' = sum (second + 2 delta first + delta^2 mass)."""
    steps = to_level - level
    if steps <= 0 or len(mass) == 0:
        return offset, mass, first, second
    index = _coarse_index(offset, len(mass), steps)
    fine = np.arange(offset, offset + len(mass), dtype=np.int64)
    # delta = (k - K 2^steps) 2^level; for steps beyond 62 the coarse index is 0 or -1 (see above)
    delta = np.ldexp((fine - index * 2 ** min(steps, 62)).astype(float), level) if steps <= 62 \
        else np.ldexp(fine.astype(float), level) - np.ldexp(index.astype(float), to_level)
    delta = delta[:, None]
    start, (mass2, first2, second2) = coarsen(offset, (mass, first + delta * mass,
                                                       second + 2 * delta * first + delta**2 * mass), steps)
    return start, mass2, first2, second2


def check_finite(stats: "GridStats", column: str) -> None:
    """Refuse a column whose squared deviations overflow float64 (values beyond about 1e154)."""
    if not (np.isfinite(stats.m2).all() and np.isfinite(stats.second).all()):
        raise DataError(f"Column {column!r} holds values so large (beyond about 1e154), or weights so large, "
                        "that their variance overflows; rescale the column (e.g. divide by a power of ten).")


@dataclass(frozen=True, eq=False)
class GridStats(Stats):
    """Per class: a histogram on the dyadic grid of level ``exponent`` (bins ``offset`` ...; bins x
    classes: ``mass`` = sum w, ``first`` = sum w (x - left edge), ``second`` = sum w (x - left edge)^2)
    and the moments n, mean, M2 and w2 (classes)."""

    exponent: int
    offset: int
    mass: np.ndarray
    first: np.ndarray
    second: np.ndarray
    n: np.ndarray
    mean: np.ndarray
    m2: np.ndarray
    w2: np.ndarray

    def __post_init__(self) -> None:
        for name in ("mass", "first", "second", "n", "mean", "m2", "w2"):
            object.__setattr__(self, name, frozen(getattr(self, name)))
        object.__setattr__(self, "exponent", int(self.exponent))
        object.__setattr__(self, "offset", int(self.offset))

    # -- counting --------------------------------------------------------------------------
    @classmethod
    def count(cls, x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int) -> "GridStats":
        """One pass over a column (NaN = missing) with class indices y and weights w."""
        keep = ~np.isnan(x) & (w > 0)
        x, y, w = x[keep], y[keep], w[keep]
        n = np.bincount(y, weights=w, minlength=n_classes)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(n > 0, np.bincount(y, weights=w * x, minlength=n_classes) / np.where(n > 0, n, 1.0), 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            m2 = np.bincount(y, weights=w * (x - mean[y]) ** 2, minlength=n_classes)
            w2 = np.bincount(y, weights=w * w, minlength=n_classes)
        if not len(x):
            empty = np.zeros((0, n_classes))
            return cls(_LOWEST_LEVEL, 0, empty, empty, empty, n, mean, m2, w2)
        level = grid_level(float(x.min()), float(x.max()))
        k = np.floor(np.ldexp(x, -level))
        inside = x - np.ldexp(k, level)            # exact: the remainder of a power-of-two grid
        k = k.astype(np.int64)
        offset = int(k.min())
        size = int(k.max()) - offset + 1
        cell = (k - offset) * n_classes + y

        def per_bin(weights: np.ndarray) -> np.ndarray:
            return np.bincount(cell, weights=weights, minlength=size * n_classes).reshape(size, n_classes)

        with np.errstate(over="ignore", invalid="ignore"):     # refused by name in check_finite
            return cls(level, offset, per_bin(w), per_bin(w * inside), per_bin(w * inside**2), n, mean, m2, w2)

    @property
    def bins(self) -> int:
        return len(self.mass)

    @property
    def width(self) -> float:
        return float(np.ldexp(1.0, self.exponent))

    def edges(self) -> np.ndarray:
        """Left edges of the bins, then the right edge of the last one."""
        return np.ldexp(np.arange(self.offset, self.offset + self.bins + 1, dtype=float), self.exponent)

    def at_level(self, level: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """(offset, mass, first, second) coarsened to a level >= self.exponent."""
        return coarsen_bins(self.offset, self.exponent, self.mass, self.first, self.second, level)

    def bin_moments(self, level: int, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class c's non-empty bins at ``level``: mass, centroid and the variance of the values in
        the bin (0 when the bin holds one distinct value)."""
        offset, mass, first, second = self.at_level(level)
        used = mass[:, c] > 0
        m = mass[used, c]
        inside = first[used, c] / m
        left = np.ldexp((offset + np.flatnonzero(used)).astype(float), level)
        return m, left + inside, np.maximum(second[used, c] / m - inside**2, 0.0)

    # -- the Stats protocol ----------------------------------------------------------------
    def __add__(self, other: "GridStats") -> "GridStats":
        n, mean, m2 = merge_moments(self.n, self.mean, self.m2, other.n, other.mean, other.m2)
        w2 = self.w2 + other.w2
        if not other.bins or not self.bins:
            grid = self if self.bins else other
            return GridStats(grid.exponent, grid.offset, grid.mass, grid.first, grid.second, n, mean, m2, w2)
        level = max(self.exponent, other.exponent)
        ends = [(g.offset >> min(level - g.exponent, 62), (g.offset + g.bins - 1) >> min(level - g.exponent, 62))
                for g in (self, other)]
        start, stop = min(a for a, _ in ends), max(b for _, b in ends) + 1
        while _span(start, stop, 0) > MAX_BINS:      # the union's range decides the level, as in one pass
            start, stop, level = start >> 1, ((stop - 1) >> 1) + 1, level + 1
        parts = [self.at_level(level), other.at_level(level)]
        arrays = [np.zeros((stop - start, len(n))) for _ in range(3)]
        for first, *values in parts:
            for target, v in zip(arrays, values):
                target[first - start:first - start + len(v)] += v
        return GridStats(level, start, *arrays, n, mean, m2, w2)

    def __sub__(self, other: "GridStats") -> "GridStats":
        """The statistics of self's rows without other's (other's rows must be among self's): the
        histogram at self's level (a level never refines back), the moments by Chan's formula
        solved for one part."""
        if other.bins and (other.exponent > self.exponent or not self.bins):
            raise DataError("These statistics cannot be subtracted: the part has rows outside the whole.")
        n, mean, m2 = unmerge_moments(self.n, self.mean, self.m2, other.n, other.mean, other.m2)
        arrays = [self.mass.copy(), self.first.copy(), self.second.copy()]
        if other.bins:
            first, *values = other.at_level(self.exponent)
            start = first - self.offset
            if start < 0 or start + len(values[0]) > self.bins:
                raise DataError("These statistics cannot be subtracted: the part has rows outside the whole.")
            for target, v in zip(arrays, values):
                target[start:start + len(v)] -= v
        return GridStats(self.exponent, self.offset, *(np.maximum(a, 0.0) for a in arrays), n,
                         mean, m2, np.maximum(self.w2 - other.w2, 0.0))

    def reindex_classes(self, take: np.ndarray) -> "GridStats":
        return GridStats(self.exponent, self.offset,
                         *(take_classes(v, take, axis=1) for v in (self.mass, self.first, self.second)),
                         *(take_classes(v, take, axis=0) for v in (self.n, self.mean, self.m2, self.w2)))

    def to_state(self) -> dict[str, Any]:
        return {"exponent": self.exponent, "offset": self.offset, "mass": self.mass.tolist(),
                "first": self.first.tolist(), "second": self.second.tolist(), "n": self.n.tolist(),
                "mean": self.mean.tolist(), "m2": self.m2.tolist(), "w2": self.w2.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "GridStats":
        exponent, offset = state.get("exponent"), state.get("offset")
        if isinstance(exponent, bool) or not isinstance(exponent, int) \
                or not _LOWEST_LEVEL <= exponent <= _HIGHEST_LEVEL:
            raise DataError(f"{where}: exponent is {exponent!r}; it should be a whole number between "
                            f"{_LOWEST_LEVEL} and {_HIGHEST_LEVEL}.")
        if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) > 2**53:
            raise DataError(f"{where}: offset is {offset!r}; it should be a whole number of at most 2^53.")
        mass = state.get("mass")
        bins = len(mass) if isinstance(mass, list) else -1
        if not 0 <= bins <= MAX_BINS:
            raise DataError(f"{where}: mass should be a table of at most {MAX_BINS} bins x {n_classes} numbers.")
        if not np.isfinite(np.ldexp(float(abs(offset) + bins), exponent)):
            raise DataError(f"{where}: the grid (exponent {exponent}, offset {offset}) lies beyond float64's range.")
        shape = (bins, n_classes)
        stats = cls(exponent, offset, state_matrix(mass, shape, f"{where}: mass"),
                    state_matrix(state.get("first"), shape, f"{where}: first"),
                    state_matrix(state.get("second"), shape, f"{where}: second"),
                    state_vector(state.get("n"), n_classes, f"{where}: n"),
                    state_vector(state.get("mean"), n_classes, f"{where}: mean", non_negative=False),
                    state_vector(state.get("m2"), n_classes, f"{where}: m2"),
                    state_vector(state.get("w2"), n_classes, f"{where}: w2"))
        if not np.allclose(stats.mass.sum(axis=0), stats.n, rtol=1e-9, atol=1e-9):
            raise DataError(f"{where}: the bins' mass per class does not add up to n.")
        width = stats.width
        if (stats.first > stats.mass * width * (1 + 1e-9)).any() or (stats.second > stats.first * width * (1 + 1e-9)).any():
            raise DataError(f"{where}: a bin's first or second moment lies outside the bin.")
        return stats
