"""Additive statistics of a numeric column that keep its shape: a fine per-class histogram.

The KDE (:mod:`nbapp.blocks.kde`) and discretised (:mod:`nbapp.blocks.discretized`) features
need more of a column than its moments, yet their statistics must still add exactly over any
split of the rows (merge, partial_fit, files, clusters, k-fold). Both use :class:`GridStats`:

* a **sparse dyadic grid**: bin k of level e is [k 2^e, (k + 1) 2^e), and only the bins that
  hold a value are stored (their indices k in ``keys``), so a value far from the others costs
  one bin, not the empty bins between. The lattice is fixed before any data is seen; only its
  level e depends on the data: the smallest e at which the values fill at most ``MAX_BINS``
  bins (and at least 2^-52 of the largest |x|, so bin indices stay exact integers). The level
  is set by where the values are, not by their range: 10,000 normal values and one 999999
  share the level of the 10,000 alone. Up to ``MAX_BINS`` distinct values each keep a bin of
  their own (the statistics are then the values themselves). Bins of level e + 1 are unions of
  two bins of level e, so a histogram is coarsened *exactly* by adding pairs of bins;
* per bin and class: the weighted count (``mass``) and the weighted first and second moments
  of the values about the bin's left edge L (``first`` = sum w (x - L), ``second`` = sum
  w (x - L)^2; about L, not 0, so no digits cancel), so a bin stands for its values by their
  centroid and spread (exact when the bin holds one distinct value, the rule for small data);
* per class: n, mean and M2 (Chan's merge, :mod:`nbapp._moments`) and the sum of squared
  weights w2, which the bandwidth rules need (the effective sample size n^2 / w2).

Adding two statistics coarsens both to the larger level, unites their bins and coarsens
further while the union fills more than ``MAX_BINS`` bins. The result is the histogram one
pass over all the rows would have made: the bins a part fills at a level are among those the
union fills, so no level below a part's own can hold the union either, and the first level at
or above both parts' at which the union fits is the one a single pass finds (see
``tests/test_kde.py`` for the property test). Merging in any order gives the same statistics.

Only rows with a value and a weight > 0 are counted, and only bins that hold weight are
stored (a zero-weight row must not add a bin, or the level of a fit would depend on rows that
do not count).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd

from nbapp.blocks.base import (CardValues, Stats, check_table_budget, frozen, number_card, state_matrix, state_vector,
                               take_classes)
from nbapp.errors import DataError
from nbapp._moments import merge_moments, shifted_moments, unmerge_moments
from nbapp._numbers import numeric_column

__all__ = ["cut_points", "mdl_cuts", "interval_codes", "HistogramBins", "GridStats", "MAX_BINS", "precision_level", "steps_to_fit", "coarsen_bins", "check_finite", "grid_aggregates",
           "grid_from_aggregates"]

# Non-empty bins of a column at most. 2048 distinct values keep a bin each; beyond, the grid
# is coarsened until they fill at most 2048 bins (width 1/256 of the standard deviation for
# 10,000 normal values: a KDE within 1e-8 of the exact one, quantile cuts within 0.004 sd). At
# most 3 x 2048 x classes numbers per column: a 3-class KDE column of 100,000 rows is about 170 kB
# of JSON, of 1,000 rows about 100 kB (the dense grid of range / 4096 took about 180 kB for either).
MAX_BINS = 2048
# Format 2's dense grids listed up to 4096 bins, the empty ones too.
_DENSE_BINS = 4096
# The finest level: below 2^(exponent of max|x| - 52) bin indices would exceed 2^53 and stop
# being exact in float64 (and the last bits of x carry no information anyway).
_MANTISSA_BITS = 52
_LOWEST_LEVEL = -1074            # 2^-1074, the smallest float64; the level of an all-zero column
_HIGHEST_LEVEL = 1024
_MAX_KEY = 2**53
# Coarsening more than 62 steps gives the same bins as 62 (keys are below 2^53 in size, so they
# all fall into bin 0 or -1), and int64 shifts stop at 63.
_MAX_SHIFT = 62
# After a subtraction, a cell left with at most this share of its weight holds only the rounding
# of float sums taken in another order (the part's rows were all of it): it is emptied, or its
# centroid (first / mass) would be rounding divided by rounding.
_RESIDUE = 1e-12


def precision_level(top: float) -> int:
    """The finest level for values up to |top|: 52 binary digits below top's leading digit."""
    return max(int(np.frexp(top)[1]) - _MANTISSA_BITS, _LOWEST_LEVEL) if top > 0 else _LOWEST_LEVEL


def _filled(keys: np.ndarray, steps: int) -> int:
    """Bins of level e + steps that the sorted distinct bins ``keys`` of level e fall into."""
    coarse = keys >> min(steps, _MAX_SHIFT)
    return 1 + int(np.count_nonzero(coarse[1:] != coarse[:-1])) if len(keys) else 0


def steps_to_fit(keys: np.ndarray) -> int:
    """The fewest coarsening steps after which the sorted distinct bin indices ``keys`` fill at
    most MAX_BINS bins (the bins filled only shrink as the grid coarsens: a binary search)."""
    low, high = 0, _MAX_SHIFT
    while low < high:
        middle = (low + high) // 2
        if _filled(keys, middle) <= MAX_BINS:
            high = middle
        else:
            low = middle + 1
    return low


def _distinct(ordered: np.ndarray) -> np.ndarray:
    """The distinct values of a sorted array."""
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]]


def _sum_by_key(keys: np.ndarray, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows of each array summed over equal keys: (distinct keys sorted, summed arrays...)."""
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    starts = np.r_[0, np.flatnonzero(keys[1:] != keys[:-1]) + 1]
    return (keys[starts], *(np.add.reduceat(a[order], starts, axis=0) for a in arrays))


def coarsen_bins(keys: np.ndarray, level: int, mass: np.ndarray, first: np.ndarray, second: np.ndarray,
                 to_level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bins ``keys`` of level ``level`` with per-bin moments about each bin's left edge, summed
    into the bins of ``to_level``: a fine bin's left edge lies delta >= 0 right of its coarse
    bin's, so first' = sum (first + delta mass), second' = sum (second + 2 delta first + delta^2 mass)."""
    steps = to_level - level
    if steps <= 0 or len(keys) == 0:
        return keys, mass, first, second
    shift = min(steps, _MAX_SHIFT)
    coarse = keys >> shift
    # delta = (k - K 2^steps) 2^level; beyond 62 steps K is 0 or -1 (see _MAX_SHIFT)
    delta = np.ldexp((keys - (coarse << shift)).astype(float), level) if steps <= _MAX_SHIFT \
        else np.ldexp(keys.astype(float), level) - np.ldexp(coarse.astype(float), to_level)
    delta = delta[:, None]
    return _sum_by_key(coarse, mass, first + delta * mass, second + 2 * delta * first + delta**2 * mass)


def check_finite(stats: "GridStats", column: str) -> None:
    """Refuse a column whose squared deviations overflow float64 (values beyond about 1e154)."""
    if not (np.isfinite(stats.m2).all() and np.isfinite(stats.second).all()):
        raise DataError(f"Column {column!r} holds values so large (beyond about 1e154), or weights so large, "
                        "that their variance overflows; rescale the column (e.g. divide by a power of ten).")


@dataclass(frozen=True, eq=False)
class GridStats(Stats):
    """Per class: a histogram on the sparse dyadic grid of level ``exponent`` (the non-empty bins
    ``keys``, sorted; bins x classes: ``mass`` = sum w, ``first`` = sum w (x - left edge),
    ``second`` = sum w (x - left edge)^2) and the moments n, mean, M2 and w2 (classes)."""

    exponent: int
    keys: np.ndarray
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
        keys = np.array(self.keys, dtype=np.int64)
        keys.setflags(write=False)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "exponent", int(self.exponent))

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
            return cls(_LOWEST_LEVEL, np.zeros(0, dtype=np.int64), empty, empty, empty, n, mean, m2, w2)
        finest = precision_level(float(np.abs(x).max()))
        fine = np.floor(np.ldexp(x, -finest)).astype(np.int64)       # |fine| <= 2^53
        distinct = _distinct(np.sort(fine))
        steps = steps_to_fit(distinct)
        level, shift = finest + steps, min(steps, _MAX_SHIFT)
        keys = _distinct(distinct >> shift)
        k = fine >> shift                                            # = floor(x / 2^level)
        inside = x - np.ldexp(k.astype(float), level)   # exact: the remainder of a power-of-two grid
        cell = pd.Index(keys).get_indexer(k) * n_classes + y        # a hash lookup: keys may be far apart

        def per_bin(weights: np.ndarray) -> np.ndarray:
            return np.bincount(cell, weights=weights, minlength=len(keys) * n_classes).reshape(len(keys), n_classes)

        with np.errstate(over="ignore", invalid="ignore"):     # refused by name in check_finite
            return cls(level, keys, per_bin(w), per_bin(w * inside), per_bin(w * inside**2), n, mean, m2, w2)

    @property
    def bins(self) -> int:
        """Non-empty bins."""
        return len(self.keys)

    @property
    def width(self) -> float:
        return float(np.ldexp(1.0, self.exponent))

    def left_edges(self) -> np.ndarray:
        """Left edges of the non-empty bins (their right edges are one width further)."""
        return np.ldexp(self.keys.astype(float), self.exponent)

    def at_level(self, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(keys, mass, first, second) coarsened to a level >= self.exponent."""
        return coarsen_bins(self.keys, self.exponent, self.mass, self.first, self.second, level)

    def bin_moments(self, level: int, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class c's non-empty bins at ``level``, in order: mass, centroid and the variance of the
        values in the bin (0 when the bin holds one distinct value)."""
        keys, mass, first, second = self.at_level(level)
        used = mass[:, c] > 0
        m = mass[used, c]
        inside = first[used, c] / m
        left = np.ldexp(keys[used].astype(float), level)
        return m, left + inside, np.maximum(second[used, c] / m - inside**2, 0.0)

    def _with_bins(self, exponent: int, keys: np.ndarray, arrays: list[np.ndarray], n: np.ndarray,
                   mean: np.ndarray, m2: np.ndarray, w2: np.ndarray) -> "GridStats":
        """Statistics of these bins, the empty ones left out (a bin is stored only if it holds weight)."""
        kept = arrays[0].sum(axis=1) > 0
        return GridStats(exponent, keys[kept], *(a[kept] for a in arrays), n, mean, m2, w2)

    # -- the Stats protocol ----------------------------------------------------------------
    def __add__(self, other: "GridStats") -> "GridStats":
        n, mean, m2 = merge_moments(self.n, self.mean, self.m2, other.n, other.mean, other.m2)
        w2 = self.w2 + other.w2
        if not other.bins or not self.bins:
            grid = self if self.bins else other
            return GridStats(grid.exponent, grid.keys, grid.mass, grid.first, grid.second, n, mean, m2, w2)
        common = max(self.exponent, other.exponent)
        parts = [self.at_level(common), other.at_level(common)]
        level = common + steps_to_fit(np.union1d(parts[0][0], parts[1][0]))   # the union's bins decide, as one pass
        parts = [coarsen_bins(keys, common, *arrays, level) for keys, *arrays in parts]
        keys, *arrays = _sum_by_key(*(np.concatenate(a) for a in zip(*parts)))
        return GridStats(level, keys, *arrays, n, mean, m2, w2)

    def __sub__(self, other: "GridStats") -> "GridStats":
        """The statistics of self's rows without other's (other's rows must be among self's): the
        histogram at self's level (a level never refines back), the moments by Chan's formula
        solved for one part."""
        outside = DataError("These statistics cannot be subtracted: the part has rows outside the whole.")
        if other.bins and (other.exponent > self.exponent or not self.bins):
            raise outside
        n, mean, m2 = unmerge_moments(self.n, self.mean, self.m2, other.n, other.mean, other.m2)
        arrays = [self.mass.copy(), self.first.copy(), self.second.copy()]
        if other.bins:
            keys, *values = other.at_level(self.exponent)
            at = np.searchsorted(self.keys, keys)
            if (at >= self.bins).any() or (self.keys[np.minimum(at, self.bins - 1)] != keys).any():
                raise outside
            for target, v in zip(arrays, values):
                target[at] -= v
            residue = arrays[0] <= _RESIDUE * self.mass      # all of the cell's weight was taken
            for a in arrays:
                a[residue] = 0.0
        return self._with_bins(self.exponent, self.keys, [np.maximum(a, 0.0) for a in arrays], n, mean, m2,
                               np.maximum(self.w2 - other.w2, 0.0))

    def reindex_classes(self, take: np.ndarray) -> "GridStats":
        return self._with_bins(self.exponent, self.keys,
                               [take_classes(v, take, axis=1) for v in (self.mass, self.first, self.second)],
                               *(take_classes(v, take, axis=0) for v in (self.n, self.mean, self.m2, self.w2)))

    def to_state(self) -> dict[str, Any]:
        """The bins as ``offset`` (the first bin's index) and ``keys`` (each bin's index minus
        offset): small numbers in the file."""
        offset = int(self.keys[0]) if self.bins else 0
        return {"exponent": self.exponent, "offset": offset, "keys": (self.keys - offset).tolist(),
                "mass": self.mass.tolist(), "first": self.first.tolist(), "second": self.second.tolist(),
                "n": self.n.tolist(), "mean": self.mean.tolist(), "m2": self.m2.tolist(), "w2": self.w2.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "GridStats":
        """The state of :meth:`to_state`. A state without ``keys`` is the dense layout of model
        files version 2 (bins offset, offset + 1, ... each listed, empty ones too); its empty
        bins are left out."""
        exponent, offset = state.get("exponent"), state.get("offset")
        if isinstance(exponent, bool) or not isinstance(exponent, int) \
                or not _LOWEST_LEVEL <= exponent <= _HIGHEST_LEVEL:
            raise DataError(f"{where}: exponent is {exponent!r}; it should be a whole number between "
                            f"{_LOWEST_LEVEL} and {_HIGHEST_LEVEL}.")
        if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) > _MAX_KEY:
            raise DataError(f"{where}: offset is {offset!r}; it should be a whole number of at most 2^53.")
        mass = state.get("mass")
        bins = len(mass) if isinstance(mass, list) else -1
        most = MAX_BINS if "keys" in state else _DENSE_BINS
        if not 0 <= bins <= most:
            raise DataError(f"{where}: mass should be a table of at most {most} bins x {n_classes} numbers.")
        keys = offset + _state_keys(state.get("keys", list(range(bins))), bins, where)
        if bins and (abs(int(keys[-1])) > _MAX_KEY
                     or not np.isfinite(np.ldexp(float(max(abs(int(keys[0])), abs(int(keys[-1]))) + 1), exponent))):
            raise DataError(f"{where}: the grid (exponent {exponent}, offset {offset}) lies beyond float64's range.")
        shape = (bins, n_classes)
        arrays = [state_matrix(mass, shape, f"{where}: mass"), state_matrix(state.get("first"), shape, f"{where}: first"),
                  state_matrix(state.get("second"), shape, f"{where}: second")]
        stats = cls(exponent, keys, *arrays,
                    state_vector(state.get("n"), n_classes, f"{where}: n"),
                    state_vector(state.get("mean"), n_classes, f"{where}: mean", non_negative=False),
                    state_vector(state.get("m2"), n_classes, f"{where}: m2"),
                    state_vector(state.get("w2"), n_classes, f"{where}: w2"))
        if not np.allclose(stats.mass.sum(axis=0), stats.n, rtol=1e-9, atol=1e-9):
            raise DataError(f"{where}: the bins' mass per class does not add up to n.")
        width = stats.width
        if (stats.first > stats.mass * width * (1 + 1e-9)).any() or (stats.second > stats.first * width * (1 + 1e-9)).any():
            raise DataError(f"{where}: a bin's first or second moment lies outside the bin.")
        return stats._with_bins(exponent, stats.keys, [stats.mass, stats.first, stats.second],
                                stats.n, stats.mean, stats.m2, stats.w2)


def _state_keys(value: Any, bins: int, where: str) -> np.ndarray:
    """A model file's bin indices (after the offset): one whole number >= 0 per bin, increasing."""
    if not isinstance(value, list) or len(value) != bins \
            or not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 2 * _MAX_KEY for k in value):
        raise DataError(f"{where}: keys should list {bins} whole numbers from 0 to 2^54, one per bin.")
    keys = np.array(value, dtype=np.int64)
    if (np.diff(keys) <= 0).any():
        raise DataError(f"{where}: keys should increase from bin to bin (each bin listed once).")
    return keys


# -- the statistics as aggregates (nbapp.scale._aggregates) ----------------------------------------------
# A first histogram pass groups at this many levels below the pooled standard deviation (bins of
# sd / 4096, 16 times finer than the 2048 bins normal values end at), so that continuous values
# fill more than MAX_BINS bins and their level follows from the keys at once.
_FIRST_LEVEL_BELOW_SD = 12
# When the values fit into MAX_BINS bins at a level and some bin holds two values, the next pass
# groups 2^11 times finer: at most MAX_BINS x 2048 bins come back.
_REFINE_STEPS = 11
# 2^-level must be a finite double in the engine's x * 2^-level.
_LOWEST_QUERY_LEVEL = -1000


def grid_aggregates(column: str, table: Any) -> list[Any]:
    """GridStats as aggregates over the rows with a value and a weight > 0, in passes:

    1. per class: n, the sums of w (x - k) and w (x - k)^2 about a shift k (the moments, as for
       a Gaussian), the sum of w^2, and the largest |x| (which sets the finest level);
    2. per class and bin floor(x / 2^e) at a level e chosen from the pooled standard deviation:
       the bin's weight, the sums of w (x - L) and w (x - L)^2 about its left edge L, and its
       smallest and largest value. If the values fill more than MAX_BINS bins, their level
       follows from the keys (:func:`steps_to_fit`) and the bins are coarsened to it
       (:func:`coarsen_bins`), as one pass over the rows would; if every bin holds one value,
       the values themselves are the statistics (:meth:`GridStats.count` of them); else a
       pass 2^11 times finer.
    """
    x, w = table.number(column), table.weight
    kept = table.both(table.present(x), table.greater(w, table.zero()))
    d = table.deviation(column)
    requests = [table.sums({"n": table.sum(table.where(kept, w)), "s": table.sum(table.where(kept, table.times(w, d))),
                            "q": table.sum(table.where(kept, table.times(w, d, d))),
                            "w2": table.sum(table.where(kept, table.times(w, w))),
                            "top": table.most(table.where(kept, table.absolute(x)))})]
    level = table.memo.get("level")
    if level is not None:
        scale, width = table.literal(2.0 ** -level), table.literal(2.0 ** level)
        key = table.key(f"{column}_{level}", table.floor(table.times(x, scale)))
        inside = table.computed(f"{column}_{level}", table.minus(x, table.times(table.floor(table.times(x, scale)),
                                                                             width)))
        counted = table.greater(w, table.zero())
        requests.append(table.sums({
            "mass": table.sum(table.where(counted, w)), "first": table.sum(table.where(counted, table.times(w, inside))),
            "second": table.sum(table.where(counted, table.times(w, inside, inside))),
            "lo": table.least(table.where(counted, x)), "hi": table.most(table.where(counted, x))}, key=key))
    return requests


def grid_from_aggregates(column: str, table: Any, results: list[Any], n_classes: int) -> "GridStats":
    """The GridStats of :func:`grid_aggregates`' passes (asking for the next pass while the level
    is not settled); equal to :meth:`GridStats.count` of the rows to rounding."""
    moments = results[0]
    n, w2 = moments.per_class("n"), moments.per_class("w2")
    mean, m2, far = shifted_moments(n, moments.per_class("s"), moments.per_class("q"), table.shifts(column))
    if far.any() and "shift" not in table.memo:
        table.memo["shift"] = {column: mean}
    if not n.any():
        empty = np.zeros((0, n_classes))
        return GridStats(_LOWEST_LEVEL, np.zeros(0, dtype=np.int64), empty, empty, empty, n, mean, m2, w2)
    finest = precision_level(float(np.nanmax(moments.per_class("top"))))
    level = table.memo.get("level")
    if level is None:
        sd = _pooled_sd(n, mean, m2)
        first = int(np.floor(np.log2(sd))) - _FIRST_LEVEL_BELOW_SD if sd > 0 else finest
        table.memo["level"] = max(finest, first, _LOWEST_QUERY_LEVEL)
        table.again()
    bins = results[1]
    mass = bins.column("mass")
    keep = bins.values.notna().to_numpy() & (np.nan_to_num(mass) > 0)
    keys = bins.values.to_numpy()[keep].astype(np.float64).astype(np.int64)
    classes = bins.classes[keep]
    distinct = np.unique(keys)
    if len(distinct) > MAX_BINS or level <= max(finest, _LOWEST_QUERY_LEVEL):
        at = np.searchsorted(distinct, keys)

        def per_bin(name: str) -> np.ndarray:
            out = np.zeros((len(distinct), n_classes))
            np.add.at(out, (at, classes), bins.column(name)[keep])
            return out

        final = level + steps_to_fit(distinct)
        keys_final, *arrays = coarsen_bins(distinct, level, per_bin("mass"), per_bin("first"), per_bin("second"), final)
        return GridStats(final, keys_final, *arrays, n, mean, m2, w2)
    lo, hi = bins.column("lo")[keep], bins.column("hi")[keep]
    order = np.lexsort((lo, keys))
    same_bin = keys[order][1:] == keys[order][:-1]
    if (lo == hi).all() and not (same_bin & (lo[order][1:] != lo[order][:-1])).any():
        values = GridStats.count(lo, classes, mass[keep], n_classes)      # every bin holds one value
        return GridStats(values.exponent, values.keys, values.mass, values.first, values.second, n, mean, m2, w2)
    table.memo["level"] = max(finest, level - _REFINE_STEPS, _LOWEST_QUERY_LEVEL)
    table.again()
    raise AssertionError("unreachable")


def _pooled_sd(n: np.ndarray, mean: np.ndarray, m2: np.ndarray) -> float:
    """The standard deviation of the whole column, merged from the class moments."""
    from nbapp._moments import pooled_moments

    total, _, spread = (float(v[0]) for v in pooled_moments(n[:, None], mean[:, None], m2[:, None]))
    return float(np.sqrt(spread / total)) if total > 0 and spread > 0 else 0.0


class GridCounted:
    """The statistics of a type kept as a histogram on the dyadic grid (:class:`GridStats`):
    counted from a frame, or computed by an engine as aggregates in passes over the rows
    (:func:`grid_aggregates`). A block class names its values in messages with ``value_words``."""

    value_words: ClassVar[str] = "a number"

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> GridStats:
        check_table_budget(MAX_BINS, n_classes, columns[0], "histogram bins")
        return GridStats.count(numeric_column(frame[columns[0]], columns[0], cls.value_words), y, w, n_classes)

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The rows' values, the mean of each histogram bin's values (the value itself while
        each keeps its own bin) and a grid over the bins' range."""
        s = self.stats
        mass = s.mass.sum(axis=1)
        left = s.left_edges()
        centroids = left + np.divide(s.first.sum(axis=1), mass, out=np.zeros(len(mass)), where=mass > 0)
        return number_card(numeric_column(seen, column, self.value_words), float(left.min(initial=np.inf)),
                           float((left + s.width).max(initial=-np.inf)), centroids)

    @classmethod
    def aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any) -> list[Any]:
        """The histogram in passes over the rows (:func:`grid_aggregates`)."""
        return grid_aggregates(columns[0], table)

    @classmethod
    def from_aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any, results: list[Any],
                        n_classes: int) -> GridStats:
        check_table_budget(MAX_BINS, n_classes, columns[0], "histogram bins")
        return grid_from_aggregates(columns[0], table, results, n_classes)


# -- cut points from a histogram -------------------------------------------------------------

@dataclass(frozen=True)
class HistogramBins:
    """The non-empty bins of a histogram in order: edges, centroids, class masses."""

    left: np.ndarray
    right: np.ndarray
    centroid: np.ndarray
    counts: np.ndarray        # bins x classes

    @classmethod
    def of(cls, stats: GridStats) -> "HistogramBins":
        total = stats.mass.sum(axis=1)      # > 0: only bins that hold weight are stored
        left = stats.left_edges()
        return cls(left, left + stats.width, left + stats.first.sum(axis=1) / total, stats.mass)

    def cut_after(self, i: int) -> float:
        """The cut between non-empty bins i and i + 1: the centroids' midpoint, kept in the gap."""
        middle = (self.centroid[i] + self.centroid[i + 1]) / 2
        return float(min(max(middle, self.right[i]), self.left[i + 1]))


def cut_points(stats: GridStats, bins: int, strategy: str) -> np.ndarray:
    """The sorted cut points t_1 < ... < t_(J-1) of a strategy (see the module docstring)."""
    b = HistogramBins.of(stats)
    if len(b.centroid) < 2:
        return np.zeros(0)
    if strategy == "mdl":
        return np.array([b.cut_after(i) for i in mdl_cuts(b.counts)])
    if strategy == "quantile":
        cum = np.cumsum(b.counts.sum(axis=1))
        targets = cum[-1] * np.arange(1, bins) / bins
        after = np.searchsorted(cum, targets * (1 - 1e-12))       # the first bin reaching each share
        return np.array([b.cut_after(int(i)) for i in np.unique(after) if i < len(cum) - 1])
    lo, hi = b.centroid[0], b.centroid[-1]
    cuts = []
    for t in lo + (hi - lo) * np.arange(1, bins) / bins:
        j = int(np.searchsorted(b.left, t, side="right")) - 1     # the non-empty bin at or left of t
        if j >= 0 and t < b.right[j] and t != b.left[j]:          # inside it: to its nearer edge
            t = b.left[j] if t - b.left[j] <= b.right[j] - t else b.right[j]
        cuts.append(float(t))
    return np.unique(cuts)


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Class entropy in bits of each row of counts (rows x classes)."""
    total = counts.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(total > 0, counts / np.where(total > 0, total, 1.0), 0.0)
        return -np.sum(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0), axis=-1)


def mdl_cuts(counts: np.ndarray) -> list[int]:
    """Fayyad & Irani's recursive MDL discretisation of ordered class counts (values x classes):
    the indices i after which a cut is placed."""
    out: list[int] = []
    stack = [(0, len(counts))]
    while stack:
        start, stop = stack.pop()
        segment = counts[start:stop]
        if len(segment) < 2:
            continue
        left = np.cumsum(segment, axis=0)[:-1]
        total = segment.sum(axis=0)
        right = total - left
        n_left, n_right, n = left.sum(axis=1), right.sum(axis=1), total.sum()
        ent_left, ent_right = _entropy(left), _entropy(right)
        e = (n_left * ent_left + n_right * ent_right) / n
        best = int(np.argmin(e))
        ent = float(_entropy(total[None])[0])
        gain = ent - e[best]
        k, k1, k2 = (int((v > 0).sum()) for v in (total, left[best], right[best]))
        delta = np.log2(3.0**k - 2) - (k * ent - k1 * ent_left[best] - k2 * ent_right[best])
        if n > 1 and gain > (np.log2(n - 1) + delta) / n:
            out.append(start + best)
            stack += [(start, start + best + 1), (start + best + 1, stop)]
    return sorted(out)


def interval_codes(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int, bins: int,
                   strategy: str) -> np.ndarray:
    """The interval 0, 1, ... of each value (-1 where missing) under the cut points the strategy
    learns from these rows (classes y, weights w)."""
    cuts = cut_points(GridStats.count(x, y, w, n_classes), bins, strategy)
    return np.where(np.isnan(x), -1, np.searchsorted(cuts, x, side="right"))
