"""The score card of a fitted model: a what-if as a sum of numbers known in advance
(issue 32, item 1).

Naive Bayes scores a row as a sum   [seed 000, Eq. 5 and 22]

    log P(c) + sum_{a in OBS} log P(x_a = v_a | c),   then P(c | x) by a stable softmax,

so a person who changes one value changes one term. The card holds, per class, the log prior
and, per feature, the values a person can choose and each value's log factor per class, as
the model computes them: each block says which values it offers
(:meth:`nbapp.blocks.base.Block.card_values`) and scores them through its own
:meth:`~nbapp.blocks.base.Block.joint_log`, the very function ``predict_proba`` adds. A
missing value is on no position of the card and adds nothing; a text column carries the
row's document as one fixed term. The browser's explorer adds the card's numbers
(:meth:`ScoreCard.to_data`); the library stays the one source of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np
import pandas as pd

from nbapp.blocks.base import frozen
from nbapp.ordering import python_scalar

if TYPE_CHECKING:
    from nbapp.model import NaiveBayes

__all__ = ["CardFeature", "ScoreCard", "score_card"]


@dataclass(frozen=True)
class CardFeature:
    """One feature's part of the card: ``values`` (sorted numbers, or a table's categories in its
    order, or the rows' documents), ``log_factors[i, c]`` = log P(x_a = values[i] | c) as the
    model scores it (0 for every class where the model leaves the value out: a value never seen
    under unseen='skip', a factor undefined at l = 0), ``current[r]`` the position of row r of
    the frame the card was made for (-1: missing, adds nothing), ``value_kind`` how an input
    asks for it (:data:`nbapp.blocks.base.VALUE_KINDS`) and ``fixed``: given, not chosen."""

    column: str
    title: str
    value_kind: str
    values: tuple[Any, ...] | np.ndarray
    log_factors: np.ndarray
    current: np.ndarray
    fixed: bool = False

    def row_log_factors(self) -> np.ndarray:
        """log P(x_a | c) of each row of the card's frame (rows x classes), 0 where missing."""
        if not len(self.values):
            return np.zeros((len(self.current), self.log_factors.shape[1]))
        picked = self.log_factors[np.maximum(self.current, 0)]
        return np.where((self.current >= 0)[:, None], picked, 0.0)

    def position(self, value: Any) -> int:
        """The position of ``value`` on the card (-1 if it is not there)."""
        matches = [i for i, v in enumerate(self.values) if v == value]
        return matches[0] if matches else -1


@dataclass(frozen=True)
class ScoreCard:
    """``classes`` in the model's order, ``log_prior`` per class (log P(c), -inf for a class of
    prior 0) and a :class:`CardFeature` per feature, in the model's feature order."""

    classes: tuple[Any, ...]
    log_prior: np.ndarray
    features: tuple[CardFeature, ...]

    def feature(self, column: str) -> CardFeature:
        for f in self.features:
            if f.column == column:
                return f
        raise KeyError(f"{column!r} is not on the score card; its features are {[f.column for f in self.features]}.")

    def joint_log(self) -> np.ndarray:
        """log P(c) + the log factors of each row's values (rows of the card's frame x classes)."""
        rows = len(self.features[0].current) if self.features else 0
        total = np.repeat(self.log_prior[None, :], rows, axis=0)
        for f in self.features:
            total = total + f.row_log_factors()
        return total

    def to_data(self, row: int | None = 0) -> dict[str, Any]:
        """The card as JSON values for the browser: -inf (an impossible class) is null, a value
        that is no JSON number, string or boolean is its text; ``current`` is row ``row``'s
        position per feature (null: missing, or no row)."""
        def current(f: CardFeature) -> int | None:
            if row is None or row >= len(f.current) or f.current[row] < 0:
                return None
            return int(f.current[row])

        return {
            "classes": [_json_value(c) for c in self.classes],
            "log_prior": _json_logs(self.log_prior),
            "features": [{"column": f.column, "title": f.title, "value_kind": f.value_kind, "fixed": f.fixed,
                          "values": [_json_value(v) for v in f.values],
                          "log_factors": [_json_logs(line) for line in f.log_factors],
                          "current": current(f)} for f in self.features],
        }


def score_card(model: NaiveBayes, frame: pd.DataFrame | Mapping[str, Any] | None = None) -> ScoreCard:
    """The model's score card; every value of ``frame``'s rows is on it (the row being
    explored), with each row's positions in ``CardFeature.current``. Each column's values are
    scored in one call of its block's ``joint_log`` on a frame of that column alone (the other
    columns of a grouped block are missing there, and add nothing)."""
    from nbapp.model import _as_frame

    model._check_fitted()
    frame = pd.DataFrame() if frame is None else _as_frame(frame)
    k = len(model.classes_)
    cards = {}
    for block in model.blocks_:
        if len(frame):
            block.joint_log(frame, k)     # the model's refusal of a bad value, naming the frame's row
        for column in block.columns:
            seen = frame[column] if column in frame.columns else pd.Series([None] * len(frame), dtype=object)
            offered = block.card_values(column, seen, model.class_counts_)
            values = offered.values
            one = pd.DataFrame({column: values if isinstance(values, np.ndarray)
                                else pd.Series(list(values), dtype=object)})
            log = frozen(block.joint_log(one, k)) if len(values) else frozen(np.zeros((0, k)))
            current = np.array(offered.current, dtype=np.intp)
            current.setflags(write=False)
            cards[column] = CardFeature(column, block.title, block.value_kind,
                                        _read_only(values), log, current, offered.fixed)
    return ScoreCard(tuple(model.classes_), frozen(model.log_prior_),
                     tuple(cards[c] for c in model.features_))


def _read_only(values: tuple[Any, ...] | np.ndarray) -> tuple[Any, ...] | np.ndarray:
    if isinstance(values, np.ndarray):
        values = values.copy()
        values.setflags(write=False)
    return values


def _json_logs(logs: np.ndarray) -> list[float | None]:
    return [None if v == -math.inf else v for v in np.asarray(logs, dtype=float).tolist()]


def _json_value(value: Any) -> Any:
    value = python_scalar(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value if value is None or isinstance(value, (str, bool, int, float)) else str(value)
