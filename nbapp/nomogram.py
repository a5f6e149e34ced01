"""The nomogram of a Naive Bayes model: every feature's values as points on one log-odds axis.

Možina, Demšar, Kattan and Zupan, "Nomograms for visualization of naive Bayesian classifier"
(PKDD 2004). Against one class c' the log-odds of Naive Bayes is a sum   [seed 000, Eq. 17-20]

    log P(c | x) / P(c' | x) = log P(c) / P(c') + sum_{a in OBS} log P(x_a | c) / P(x_a | c')

so each feature gets a scale on which each value sits at its term (its *log-odds ratio*),
a person adds the terms of a row and reads the probability off an axis of totals:
P = 1 / (1 + exp(-total)). A missing value is left out of the sum (Eq. 22): it adds no point.

Points are Možina's: log-odds times one factor chosen so that the feature whose values span
the most log-odds spans 100 points (a number's span measured over the middle 98% of its
values, so that one extreme value cannot squeeze every other scale into a few points; its
scale runs on beyond 100 points over its tails); 0 points is "leaves the odds as they are",
so a missing value adds nothing and the prior's points start the sum. The log-odds stay in
the result.

* A feature whose cells are categories (``value_kind`` CATEGORY) is a point per value (the
  values the model knows, read off its score card, :meth:`nbapp.NaiveBayes.score_card`, with
  their log factors: the numbers the Explain page's explorer adds); one whose cells are
  numbers or counts (NUMBER, COUNT) is a curve of the log-density ratio over its observed
  range (the values of ``frame``, or of 2,000 rows drawn from the model when there is no
  data), not bins; a count curve is drawn at whole numbers. A text column (TEXT) has no scale of values: its point is the row's document.
* Against one class (every two-class model; or a class against one other of a multiclass
  model, whose axis then reads P(c | x, the class is c or c')) the scales hold for every row:
  the row's points are read off them and the total gives ``predict_proba`` exactly.
* Against several classes together (one against the rest of a multiclass model) the log-odds
  is no sum of per-value terms. A scale then shows what each value says alone, the prior
  aside: log P(x_a | c) / P(x_a | rest) with the rest's classes weighted by their prior
  (Možina et al.'s one-against-the-rest ratio); a row's points are the exact decomposition
  of :meth:`nbapp.Explanation.contributions` (Shapley values), which differ from the value's
  point where the row's other values change the balance among the rest's classes. The
  row's total, from its own points, gives ``predict_proba`` exactly; reading another row off
  the scales is an approximation.

The work is split as the app needs it: :func:`nomogram_scales` once per model (and data),
:func:`nomogram_row` per row (one explanation); :func:`nomogram` does both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import pandas as pd
from scipy.special import expit, logit

from nbapp.blocks.base import CATEGORY, COUNT, NUMBER, TEXT
from nbapp.errors import DataError, shown
from nbapp.explain import REST, RUNNER_UP, class_position, rival_positions, same_value
from nbapp._logspace import logsumexp_rows
from nbapp._numbers import numeric_column, scalar_number
from nbapp.ordering import python_scalar, sort_values

if TYPE_CHECKING:
    from nbapp.model import NaiveBayes

__all__ = ["FeatureScale", "NomogramScales", "NomogramRow", "Nomogram", "nomogram", "nomogram_scales",
           "nomogram_row", "PROBABILITY_TICKS"]

# The probabilities printed on the axis of totals: every 5 points in the middle, closer in the
# tails, so that reading a total between two ticks is within half a percentage point of the
# exact probability (test_nomogram checks it over the whole axis).
PROBABILITY_TICKS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
                     0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.925, 0.95, 0.97, 0.98, 0.99, 0.995,
                     0.998, 0.999)
# Rows drawn from the model for the range of a number when the nomogram is made without data.
_SAMPLE_ROWS = 2000
# A numeric curve is refined where it moves more than this many points between neighbours,
# at most this many times (each halving the interval): jumps (a discretised feature's cut
# points) are then located to 2^-40 of the range, and the curve is read by linear
# interpolation to a fraction of a point.
_REFINE_POINTS, _REFINE_DEPTH = 0.25, 40
# A curve stops being refined beyond this many points (a very steep density ratio).
_MAX_CURVE_POINTS = 10_000
# A number's span of log-odds, which sets the points, is measured between these quantiles of
# its values: a few extreme values (a KDE's tail, where one class has almost no density) would
# otherwise squeeze every other scale and the axis of totals into a few points. Its scale is
# drawn over the whole observed range and runs beyond 100 points there.
_CENTRAL = (0.01, 0.99)


@dataclass(frozen=True)
class FeatureScale:
    """One feature's scale: its values, their log-odds terms (nats) and points.

    ``curve``: the values are a grid over a range (a number or count), read by linear
    interpolation; else each value is a point (a category). A text column's scale is empty.
    ±inf: a zero factor (l = 0) rules the class or its rivals out at that value; NaN: both.
    """

    feature: str
    title: str
    value_kind: str
    curve: bool
    values: np.ndarray
    log_odds: np.ndarray
    points: np.ndarray

    def points_at(self, value: Any) -> float:
        """The points a person reads off the scale for ``value`` (NaN if it is not on it)."""
        if self.curve:
            x = scalar_number(value, self.feature, self.title)
            if not self.values.size or not self.values[0] <= x <= self.values[-1]:
                return float("nan")
            return float(np.interp(x, self.values, self.points))
        for i, v in enumerate(self.values):
            if same_value(v, value):
                return float(self.points[i])
        return float("nan")


@dataclass(frozen=True)
class NomogramScales:
    """The per-model part of a nomogram: the scales, the prior and the axis of totals."""

    cls: Any
    against: tuple[Any, ...]
    exact_for_every_row: bool          # against one class: the scales give every row's points
    points_per_nat: float
    prior_log_odds: float
    scales: tuple[FeatureScale, ...]
    probability_axis: pd.DataFrame     # ticks: probability, log_odds, points
    notes: tuple[str, ...] = ()

    @property
    def prior_points(self) -> float:
        return self.prior_log_odds * self.points_per_nat

    def scale(self, feature: str) -> FeatureScale:
        for s in self.scales:
            if s.feature == feature:
                return s
        raise DataError(f"{feature!r} has no scale in this nomogram; its features are "
                        f"{[s.feature for s in self.scales]}.")

    def probability(self, total_points: Any) -> Any:
        """P read off the axis of totals, exactly: 1 / (1 + exp(-total / points_per_nat))."""
        return expit(np.asarray(total_points, dtype=float) / self.points_per_nat)

    def total_range(self) -> tuple[float, float]:
        """The least and the most total points the scales allow (text aside; infinities aside)."""
        low = high = self.prior_points
        for s in self.scales:
            finite = s.points[np.isfinite(s.points)]
            if finite.size:
                low, high = low + min(finite.min(), 0.0), high + max(finite.max(), 0.0)
        return float(low), float(high)


@dataclass(frozen=True)
class NomogramRow:
    """One row on the nomogram: its points per factor ("prior" first), their sum and P.

    ``points`` sum to ``total_points`` and ``probability`` is the model's own (predict_proba,
    or P(c | x, c or c') against one class of several) to rounding. ``on_scale``: where the
    row's value sits on its scale (equal to ``points`` against one class). Missing values have
    no point (0, status "missing").
    """

    cls: Any
    against: tuple[Any, ...]
    values: pd.Series
    status: pd.Series
    log_odds: pd.Series
    points: pd.Series
    on_scale: pd.Series
    total_log_odds: float
    total_points: float
    probability: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Nomogram:
    scales: NomogramScales
    row: NomogramRow | None = None


def nomogram(model: NaiveBayes, cls: Any, *, against: Any = REST, frame: pd.DataFrame | None = None,
             row: Any = None, points: int = 200) -> Nomogram:
    """The nomogram of ``model`` for class ``cls`` against ``against`` ("rest" or a class), with
    ``row`` marked when given (see :func:`nomogram_scales` and :func:`nomogram_row`).

    Seed 000's tennis day at l = 1: the prior starts at log 9/5 nats, Overcast adds
    log (5/12) / (1/8), and the row's total reads the posterior 784/1389:

    >>> from nbapp.examples import example, load_example
    >>> from nbapp.model import NaiveBayes
    >>> tennis = example("tennis14")
    >>> m = NaiveBayes(tennis.features, alpha=1).fit(load_example("tennis14"), target="Play")
    >>> n = nomogram(m, "Yes", row=tennis.query)
    >>> round(n.scales.prior_log_odds, 4), round(float(n.row.log_odds["Outlook"]), 4)
    (0.5878, 1.204)
    >>> round(n.row.probability, 6), round(784 / 1389, 6)
    (0.564435, 0.564435)
    """
    scales = nomogram_scales(model, cls, against=against, frame=frame, points=points)
    return Nomogram(scales, None if row is None else nomogram_row(scales, model, row))


def nomogram_scales(model: NaiveBayes, cls: Any, *, against: Any = REST, frame: pd.DataFrame | None = None,
                    points: int = 200) -> NomogramScales:
    """The scales of every feature, the prior's log-odds and the axis of totals: the part of a
    nomogram that depends on the model (and ``frame``, whose values set the numeric ranges)
    only, computed once. ``points``: grid points of a numeric curve before refinement."""
    if model.target_ is None:
        raise DataError("The model is not fitted yet: fit it before drawing its nomogram.")
    if isinstance(against, str) and against == RUNNER_UP:
        raise DataError("A nomogram's scales hold for every row, and the runner-up changes from row to row: "
                        "choose 'rest' or one class to weigh against.")
    if isinstance(points, bool) or not isinstance(points, (int, np.integer)) or not 2 <= points <= 10_000:
        raise DataError(f"points must be a whole number from 2 to 10,000, not {points!r}.")
    classes = list(model.classes_)
    side = class_position(classes, cls)
    others = rival_positions(classes, side, against)
    log_prior = np.asarray(model.log_prior_, dtype=float)
    odds = _value_odds(log_prior, side, others)
    prior_log_odds = float(odds(np.zeros((1, len(classes))), prior_only=True)[0])
    ranges = _Ranges(model, frame)
    card = model.score_card()
    raw = [_raw_scale(model, card.feature(column), odds, ranges, int(points)) for column in model.features_]
    tolerance = _REFINE_POINTS / _points_per_nat(raw)
    raw = [_refined(model, r, odds, tolerance) for r in raw]
    per_nat = _points_per_nat(raw)
    scales = tuple(FeatureScale(r.column, model.block_of(r.column).title, model.block_of(r.column).value_kind,
                                r.curve, r.values, r.log_odds, r.log_odds * per_nat) for r in raw)
    axis = pd.DataFrame({"probability": PROBABILITY_TICKS})
    axis["log_odds"] = logit(axis["probability"])
    axis["points"] = axis["log_odds"] * per_nat
    exact = len(others) == 1
    return NomogramScales(classes[side], tuple(classes[i] for i in others), exact, per_nat, prior_log_odds,
                          scales, axis, tuple(_scale_notes(classes, side, others, scales)))


def nomogram_row(scales: NomogramScales, model: NaiveBayes, row: Any) -> NomogramRow:
    """One row on the nomogram: the per-click part (one explanation of the row). Its points are
    :meth:`nbapp.Explanation.contributions` times ``scales.points_per_nat``, so they add up to
    the model's log-odds and the total reads ``predict_proba`` exactly."""
    e = model.explain(row)
    contributions = e.contributions(scales.cls, list(scales.against))
    classes = list(model.classes_)
    side = class_position(classes, scales.cls)
    others = [class_position(classes, c) for c in scales.against]
    odds = _value_odds(np.asarray(model.log_prior_, dtype=float), side, others)
    logs = e.logs.to_numpy(dtype=float)
    alone = pd.Series(odds(np.where(np.isnan(logs), 0.0, logs)), index=e.logs.index)
    alone.iloc[0] = scales.prior_log_odds
    alone[~alone.index.isin(e.used)] = 0.0
    total = float(contributions.sum(skipna=False))
    with np.errstate(over="ignore"):
        probability = float(expit(total))
    return NomogramRow(scales.cls, scales.against, e.factors["value"], e.factors["status"], contributions,
                       contributions * scales.points_per_nat, alone * scales.points_per_nat, total,
                       total * scales.points_per_nat, probability, tuple(contributions.attrs.get("notes", ())))


# -- the scales ------------------------------------------------------------------------------
def _value_odds(log_prior: np.ndarray, side: int, others: list[int]) -> Callable[..., np.ndarray]:
    """Per value, from its log P(x_a = v | c) (values x classes): against one class its
    log-ratio; against several what it says alone, log P(v | c) / P(v | rest) with the rest's
    classes weighted by their prior (the one-feature game of :mod:`nbapp._logodds`)."""
    prior_rest = float(logsumexp_rows(log_prior[None, others])[0])

    def odds(logs: np.ndarray, prior_only: bool = False) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            if prior_only:
                return np.array([log_prior[side] - prior_rest])
            if len(others) == 1:
                return logs[:, side] - logs[:, others[0]]
            rest = logsumexp_rows(log_prior[others][None, :] + logs[:, others]) - prior_rest
            return logs[:, side] - rest

    return odds


class _Ranges:
    """Where a numeric feature is drawn: the finite values of ``frame``'s column, else of rows
    drawn from the model (drawn once, when first needed)."""

    def __init__(self, model: Any, frame: pd.DataFrame | None) -> None:
        self.model, self.frame, self._sample = model, frame, None

    def values(self, column: str, title: str) -> np.ndarray:
        if self.frame is not None and column in self.frame.columns:
            x = numeric_column(self.frame[column], column, title)
            if np.isfinite(x).any():
                return x[np.isfinite(x)]
        x = numeric_column(self._drawn()[column], column, title)
        return x[np.isfinite(x)]

    def categories(self, column: str) -> list[Any]:
        source = self.frame if self.frame is not None and column in self.frame.columns else self._drawn()
        return sort_values([python_scalar(v) for v in pd.unique(source[column].dropna())])

    def _drawn(self) -> pd.DataFrame:
        if self._sample is None:
            self._sample = self.model.sample(_SAMPLE_ROWS, random_state=0)
        return self._sample


@dataclass(frozen=True)
class _Raw:
    """A scale before it is put into points; ``central``: the middle of a number's values."""

    column: str
    values: np.ndarray
    curve: bool
    log_odds: np.ndarray
    central: tuple[float, float] | None = None

    def span(self) -> np.ndarray:
        """The log-odds that set the points: a number's over the middle of its values."""
        keep = np.isfinite(self.log_odds)
        if self.central is not None:
            middle = keep & (self.values >= self.central[0]) & (self.values <= self.central[1])
            keep = middle if middle.any() else keep
        return self.log_odds[keep]


def _raw_scale(model: Any, card: Any, odds: Callable, ranges: _Ranges, points: int) -> _Raw:
    """A feature's scale: a category's values and log factors are the model's score card's
    (:meth:`nbapp.NaiveBayes.score_card`, what the Explain page's explorer adds); a number's
    curve runs over its observed range, scored by its block as the card is."""
    column = card.column
    block = model.block_of(column)
    k = len(model.classes_)
    if block.value_kind == TEXT:
        return _Raw(column, np.array([], dtype=object), False, np.array([]))
    if block.value_kind in (NUMBER, COUNT):
        x = ranges.values(column, block.title)
        values = _grid(x, points, whole=block.value_kind == COUNT)
        central = tuple(np.quantile(x, _CENTRAL)) if x.size else None
        return _Raw(column, values, True, odds(block.joint_log(pd.DataFrame({column: values}), k)), central)
    if block.value_kind != CATEGORY:
        raise DataError(f"Column {column!r} holds {block.value_kind} values, which a nomogram cannot draw.")
    if not len(card.values):        # a type whose card offers only a row's values: the data's, or drawn ones
        card = model.score_card(pd.DataFrame({column: _objects(ranges.categories(column))})).feature(column)
    return _Raw(column, _objects(list(card.values)), False, odds(card.log_factors))


def _grid(x: np.ndarray, points: int, *, whole: bool) -> np.ndarray:
    if not x.size:
        return np.array([0.0])
    low, high = float(x.min()), float(x.max())
    if whole:
        low, high = max(0.0, np.ceil(low)), max(0.0, np.floor(high))
        n = int(high - low) + 1
        return np.arange(low, high + 1) if n <= points else np.unique(np.round(np.linspace(low, high, points)))
    return np.array([low]) if low == high else np.linspace(low, high, points)


def _refined(model: Any, raw: _Raw, odds: Callable, tolerance: float) -> _Raw:
    """A number's curve with points added where it moves more than ``tolerance`` (nats)
    between neighbours: steep parts are drawn finely, jumps are located, a linear reading is
    close. Counts are read at whole numbers, where their curve is exact (and linear)."""
    column, values, log_odds = raw.column, raw.values, raw.log_odds
    block = model.block_of(column)
    if not raw.curve or block.value_kind != NUMBER or len(values) < 2:
        return raw
    smallest = (values[-1] - values[0]) * 2.0 ** -_REFINE_DEPTH
    k = len(model.classes_)
    for _ in range(_REFINE_DEPTH):
        with np.errstate(invalid="ignore"):
            step = np.abs(np.diff(log_odds))
        split = ~(step <= tolerance) & (np.diff(values) > smallest)
        split &= ~(np.isnan(log_odds[:-1]) & np.isnan(log_odds[1:]))
        split &= ~((log_odds[:-1] == log_odds[1:]) & np.isinf(log_odds[:-1]))
        if not split.any() or len(values) > _MAX_CURVE_POINTS:
            break
        middle = (values[:-1][split] + values[1:][split]) / 2
        middle_odds = odds(block.joint_log(pd.DataFrame({column: middle}), k))
        order = np.argsort(np.concatenate([values, middle]), kind="stable")
        values = np.concatenate([values, middle])[order]
        log_odds = np.concatenate([log_odds, middle_odds])[order]
    return _Raw(column, values, True, log_odds, raw.central)


def _points_per_nat(raw: list[_Raw]) -> float:
    """Možina's scaling: the feature whose values span the most log-odds spans 100 points
    (1 nat = 100 points when no feature spans any); a number's span is measured over the
    middle of its values (:data:`_CENTRAL`)."""
    spans = [r.span() for r in raw]
    widths = [np.ptp(v) for v in spans if v.size]
    widest = max(widths, default=0.0)
    return 100.0 / widest if widest > 0 else 100.0


def _scale_notes(classes: list[Any], side: int, others: list[int], scales: tuple[FeatureScale, ...]) -> list[str]:
    cls, rivals = shown(classes[side]), " and ".join(shown(classes[i]) for i in others)
    notes = [f"Points are log-odds of {cls} against {rivals} (log P(x_a | {cls}) / P(x_a | {rivals}), seed 000, "
             "Eq. 17-20) scaled so that the widest feature spans 100 points over the middle 98% of its values; 0 "
             "leaves the odds as they are, "
             "so a missing value adds no point. The total (the prior's points plus the row's) reads the "
             "probability on the last axis."]
    if len(others) == 1 and len(classes) > 2:
        notes.append(f"Against {rivals} alone the last axis reads P({cls} | x, the class is {cls} or {rivals}).")
    if len(others) > 1:
        notes.append(f"Against {rivals} together a value's point is what it says alone (the rest weighted by "
                     "their prior); a row's own points, marked on the scales, are its exact contributions, "
                     "which differ where its other values shift the balance among the rest. The total of "
                     "the row's points reads its probability exactly; another row read off the scales is "
                     "an approximation.")
    for s in scales:
        if s.value_kind == TEXT:
            notes.append(f"{s.feature} is text: it has no scale of values; its point is the row's document.")
        if np.isinf(s.log_odds).any() or np.isnan(s.log_odds).any():
            notes.append(f"Some values of {s.feature} have a zero factor (no smoothing, l = 0): they rule a side "
                         "out alone and sit at ±∞, beyond the scale.")
    return notes


def _objects(values: list[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out
