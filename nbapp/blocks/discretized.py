"""Discretised numeric features: cut points learned at fit time, then a categorical CPT over
the intervals (Weka's ``-D``, Orange's equal-frequency bins).

    P(x in I_j | c) = (N_cj + a_j) / (n_c + sum_j a_j)          [seed 000, Eq. 7]

with the intervals I_j = [t_j, t_(j+1)) between the cut points (t_0 = -inf, t_J = inf) as the
CPT's rows, labelled "[2.5, 4.1)". Strategies:

* "quantile": about equal weighted counts per interval (``bins`` of them); cut j is placed
  after the first value where the cumulative weight reaches j / bins of the total;
* "uniform": ``bins`` intervals of equal width between the smallest and the largest value;
* "mdl": Fayyad & Irani's supervised method with the MDL stopping rule (Weka's ``-D``;
  ``bins`` is not used): the cut T minimising the class entropy
  E(T; S) = |S1| / |S| Ent(S1) + |S2| / |S| Ent(S2) is kept if
  Gain(T; S) = Ent(S) - E(T; S) > log2(N - 1) / N + Delta / N,
  Delta = log2(3^k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)]  (k_i: classes present in S_i,
  Ent in bits, N the weight of S), and both halves are split again the same way.

Statistics stay additive: they are the KDE's fine per-class histogram on a sparse dyadic grid
(:class:`nbapp.blocks.grid.GridStats`), and the cut points are computed from it, so a merge
or a partial fit gives the cut points of one fit on all the rows. The grid's level follows
where the values are, not their range, so one far value (a 999999 sentinel among 10,000
values) moves the "quantile" and "mdl" cut points no more than one more row would; "uniform"
cuts the range into equal widths by definition, so such a value stretches it. A cut point is the midpoint
of the centroids of the two neighbouring non-empty bins (the midpoint of the two values, as
Weka, when each bin holds one distinct value, the rule for small data), kept inside the gap
between them; a "uniform" cut that falls inside a non-empty bin moves to the nearer edge of
that bin. So every bin lies inside one interval and the interval counts are exact.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd

from nbapp.blocks.base import NUMBER, STANDARDISED, Spec
from nbapp.blocks.categorical import MISSING_CODE, CategoricalBlock
from nbapp.blocks.grid import GridCounted, GridStats, check_finite
from nbapp.errors import DataError
from nbapp.factor import Factor
from nbapp._numbers import numeric_column, scalar_number
from nbapp.smoothing import check_alpha
from nbapp.blocks.base import ParameterCount

__all__ = ["Discretized", "DiscretizedBlock", "cut_points", "interval_codes", "mdl_cuts", "interval_labels", "STRATEGIES"]

_KIND = "discretized"
STRATEGIES = ("quantile", "uniform", "mdl")
MAX_INTERVALS = 1000


@dataclass(frozen=True)
class Discretized(Spec):
    """A numeric column cut into intervals at fit time, then a CPT over them   [seed 000, Eq. 7].

    ``bins``: intervals for "quantile" and "uniform" (fewer when values repeat); ``strategy``
    "quantile", "uniform" or "mdl" (Fayyad & Irani); ``alpha`` overrides the model's l.
    """

    kind: ClassVar[str] = "discretized"
    bins: int = 4
    strategy: str = "quantile"
    alpha: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.bins, bool) or not isinstance(self.bins, int) or not 2 <= self.bins <= MAX_INTERVALS:
            raise DataError(f"Discretized bins must be a whole number from 2 to {MAX_INTERVALS}, not {self.bins!r}.")
        if self.strategy not in STRATEGIES:
            raise DataError(f"Discretized strategy must be one of {', '.join(STRATEGIES)}, not {self.strategy!r}.")
        check_alpha(self.alpha)


# -- cut points from a histogram -------------------------------------------------------------

@dataclass(frozen=True)
class _Bins:
    """The non-empty bins of a histogram in order: edges, centroids, class masses."""

    left: np.ndarray
    right: np.ndarray
    centroid: np.ndarray
    counts: np.ndarray        # bins x classes

    @classmethod
    def of(cls, stats: GridStats) -> "_Bins":
        total = stats.mass.sum(axis=1)      # > 0: only bins that hold weight are stored
        left = stats.left_edges()
        return cls(left, left + stats.width, left + stats.first.sum(axis=1) / total, stats.mass)

    def cut_after(self, i: int) -> float:
        """The cut between non-empty bins i and i + 1: the centroids' midpoint, kept in the gap."""
        middle = (self.centroid[i] + self.centroid[i + 1]) / 2
        return float(min(max(middle, self.right[i]), self.left[i + 1]))


def cut_points(stats: GridStats, bins: int, strategy: str) -> np.ndarray:
    """The sorted cut points t_1 < ... < t_(J-1) of a strategy (see the module docstring)."""
    b = _Bins.of(stats)
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


def interval_labels(cuts: np.ndarray) -> list[str]:
    """"(-inf, 2.5)", "[2.5, 4.1)", ..., "[7, inf)": the intervals between the cut points."""
    bounds = [-np.inf, *cuts, np.inf]
    return [f"{'(' if a == -np.inf else '['}{a:.6g}, {b:.6g})" for a, b in zip(bounds[:-1], bounds[1:])]


class DiscretizedBlock(GridCounted, CategoricalBlock):
    """One numeric column as a CPT over intervals learned at fit time."""

    kind = "discretized"
    value_words = _KIND
    title = "Discretized"
    description = "a probability table per class over intervals of the number, cut at fit time"
    value_kind = NUMBER
    baseline = STANDARDISED
    spec_type = Discretized
    stats_type = GridStats

    @classmethod
    def dependence_codes(cls, column: str, spec: Any, frame: pd.DataFrame, y: np.ndarray, w: np.ndarray,
                         n_classes: int, bins: int) -> np.ndarray:
        """The column's own intervals (its strategy's cut points on these rows)."""
        x = numeric_column(frame[column], column, _KIND)
        return interval_codes(x, y, w, n_classes, spec.bins, spec.strategy)

    def _table(self, stats: GridStats) -> tuple[list[Any], np.ndarray]:
        spec = self.specs[0]
        self.cuts = cut_points(stats, spec.bins, spec.strategy)
        self.cuts.setflags(write=False)
        interval = np.searchsorted(self.cuts, stats.left_edges(), side="right")
        counts = np.zeros((len(self.cuts) + 1, stats.mass.shape[1]))
        np.add.at(counts, interval, stats.mass)
        return interval_labels(self.cuts), counts

    def _key(self, value: Any) -> Any:
        return value

    def check(self) -> None:
        check_finite(self.stats, self.column)


    def _interval(self, x: np.ndarray) -> np.ndarray:
        return np.where(np.isnan(x), MISSING_CODE, np.searchsorted(self.cuts, x, side="right"))

    def codes(self, series: pd.Series) -> np.ndarray:
        return self._interval(numeric_column(series, self.column, _KIND))

    def code_of(self, value: Any) -> int:
        return int(self._interval(np.array([scalar_number(value, self.column, _KIND)]))[0])

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        out = super().factors(row, classes)
        code = self.code_of(row.get(self.column))
        if code >= 0:
            out = [dataclasses.replace(f, detail=f"in the interval {self.categories[code]}") for f in out]
        return out

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """C (B - 1) + (B - 1): the table over B intervals (each class's B probabilities sum to 1)
        and the B - 1 cut points, which are learned from the training values too."""
        b = len(self.categories)
        return [ParameterCount((self.column,), n_classes * (b - 1) + (b - 1), "C (B − 1) + (B − 1)",
                               f"{n_classes} × ({b} − 1) + ({b} − 1)",
                               f"P(interval | class) for each of the B = {b} intervals and C = {n_classes} classes "
                               "(each class's B sum to 1), and the B − 1 cut points learned from the data")]

    def parameters(self, column: str, classes: list[Any]) -> pd.DataFrame:
        """The intervals: lower and upper cut point and the weighted count of training values."""
        bounds = np.r_[-np.inf, self.cuts, np.inf]
        return pd.DataFrame({"from": bounds[:-1], "to": bounds[1:], "n": self.counts_.sum(axis=1)},
                            index=pd.Index(self.categories, name=column, dtype=object))

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        weights = prior * (self.stats.n > 0)
        return float(np.dot(weights, self.stats.mean) / weights.sum()) if weights.sum() > 0 else 0.0

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        """An interval drawn from P(I | c), then a training bin of that interval by its weight
        (the class's own bins where it has any), returned as the bin's centroid."""
        intervals = super().sample(y, rng, class_counts)[self.column]
        code = pd.Index(self.categories).get_indexer(intervals)
        b = _Bins.of(self.stats)
        where = np.searchsorted(self.cuts, b.left, side="right")
        out = np.full(len(y), np.nan)
        for c, j in set(zip(y.tolist(), code.tolist())):
            rows = np.flatnonzero((y == c) & (code == j))
            weight = b.counts[:, c] * (where == j)
            if weight.sum() <= 0:
                weight = b.counts.sum(axis=1) * (where == j)
            out[rows] = b.centroid[rng.choice(len(weight), size=len(rows), p=weight / weight.sum())]
        return {self.column: out}
