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
from nbapp.blocks.grid import GridCounted, GridStats, HistogramBins, check_finite, cut_points, interval_codes
from nbapp.errors import DataError
from nbapp.factor import Factor
from nbapp._numbers import numeric_column, scalar_number
from nbapp.smoothing import check_alpha
from nbapp.blocks.base import ParameterCount

__all__ = ["Discretized", "DiscretizedBlock", "interval_labels", "STRATEGIES", "MAX_INTERVALS"]

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
        b = HistogramBins.of(self.stats)
        where = np.searchsorted(self.cuts, b.left, side="right")
        out = np.full(len(y), np.nan)
        for c, j in set(zip(y.tolist(), code.tolist())):
            rows = np.flatnonzero((y == c) & (code == j))
            weight = b.counts[:, c] * (where == j)
            if weight.sum() <= 0:
                weight = b.counts.sum(axis=1) * (where == j)
            out[rows] = b.centroid[rng.choice(len(weight), size=len(rows), p=weight / weight.sum())]
        return {self.column: out}
