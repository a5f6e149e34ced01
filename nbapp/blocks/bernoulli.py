"""Bernoulli features: a binary column, P(x = 1 | c) = (N_c1 + l) / (N_c + 2 l)   [seed 002].

The statistics are a categorical count table whose values compare by a *binary key*
(0 / 1, False / True, "yes" / "Yes " are one key each), so partitions that spell a value
differently still merge. Which value is the positive one is decided from the merged
statistics, never from the order rows arrived in:

* ``nbapp.Bernoulli(positive=v)`` says so;
* else a known pair (0/1, false/true, no/yes, n/y, f/t, off/on, absent/present,
  negative/positive) — one of the pair suffices;
* else two values seen, in the model's value order (the second is positive).

K = 2 even if only one value was seen, and an absent feature contributes log(1 - theta),
as scikit-learn's BernoulliNB does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import numpy as np
import pandas as pd

from nbapp.blocks.base import CATEGORY, ONE_HOT, NotesTerms, Spec
from nbapp.blocks.categorical import CategoricalBlock, CategoricalStats
from nbapp.errors import DataError
from nbapp.ordering import python_scalar, sort_values
from nbapp.smoothing import check_alpha

__all__ = ["Bernoulli", "BernoulliStats", "BernoulliBlock", "binary_key", "BINARY_PAIRS"]

# Pairs read as (negative, positive) when a Bernoulli column does not say which value is 1.
BINARY_PAIRS = (
    ("0", "1"), ("false", "true"), ("no", "yes"), ("n", "y"), ("f", "t"),
    ("off", "on"), ("absent", "present"), ("negative", "positive"),
)


@dataclass(frozen=True)
class Bernoulli(Spec):
    """A binary feature, P(x = 1 | c) = (N_c1 + l) / (N_c + 2 l)   [seed 002].

    ``positive`` is the value that counts as 1. Left out, it is read off the two values
    (0/1, false/true, no/yes, n/y, f/t, off/on, absent/present, negative/positive).
    """

    kind: ClassVar[str] = "bernoulli"
    positive: Any = None
    alpha: float | None = None

    def __post_init__(self) -> None:
        check_alpha(self.alpha)
        if self.positive is not None and not isinstance(self.positive, (str, int, float, bool)):
            raise DataError(f"Bernoulli positive must be one value (a string or a number), not {self.positive!r}.")


def binary_key(value: Any) -> Any:
    """0/1, False/True, "yes"/"Yes " all compare by one key."""
    value = python_scalar(value)
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip().lower()


class BernoulliStats(CategoricalStats):
    """Counts per binary key (with the first spelling of each value seen)."""

    key = staticmethod(binary_key)


class BernoulliBlock(CategoricalBlock):
    """A binary column: categories fixed to [negative, positive]."""

    kind = "bernoulli"
    title = "Bernoulli"
    description = "a binary value per class, P(x = 1 | c) = (N_c1 + l) / (N_c + 2 l)"
    value_kind = CATEGORY
    baseline = ONE_HOT
    spec_type = Bernoulli
    stats_type = BernoulliStats
    accepts_beta: ClassVar[bool] = True

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: Any,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> BernoulliStats:
        stats = super().summarize(columns, specs, frame, y, w, n_classes)
        _check_two(columns[0], list(stats.values))       # fail at the pass that found a third value
        return stats

    def _table(self, stats: BernoulliStats) -> tuple[list[Any], np.ndarray]:
        pair = binary_pair(self.column, list(stats.values), self.specs[0].positive)
        counts = np.zeros((len(pair), stats.counts.shape[1]))
        keys = stats.keys()
        for j, value in enumerate(pair):
            if binary_key(value) in keys:
                counts[j] = stats.counts[keys.index(binary_key(value))]
        return pair, counts

    def positive(self) -> Any:
        return self.categories[1]

    def notes_terms(self, column: str, weights: pd.Series) -> NotesTerms:
        """x in {0, 1} (1 = the positive value): w_BER = log theta+ (1 - theta-) / (theta- (1 - theta+)),
        and the x = 0 term log (1 - theta+) / (1 - theta-) goes into b_BER   [seed 000, Eq. 18]."""
        negative, positive = self.categories[:2]
        w_negative, w_positive = float(weights[f"{column} = {negative}"]), float(weights[f"{column} = {positive}"])

        def features(frame: pd.DataFrame) -> np.ndarray:
            return (self.codes(frame[column]) == 1).astype(float)[:, None]

        return NotesTerms({column: w_positive - w_negative}, w_negative, "BER", features, one=positive)


def _check_two(column: str, values: list[Any]) -> None:
    if len(values) > 2:
        shown = ", ".join(repr(v) for v in values[:5])
        raise DataError(
            f"Column {column!r} is Bernoulli but has {len(values)} distinct values ({shown}); "
            "a Bernoulli feature has two: type it categorical instead."
        )


def binary_pair(column: str, values: list[Any], positive: Any = None) -> list[Any]:
    """[negative, positive] of a binary column from the values seen (the one rule for pairs);
    [] when the column never held a value."""
    _check_two(column, values)
    if positive is not None:
        positive = python_scalar(positive)
        others = [v for v in values if binary_key(v) != binary_key(positive)]
        if len(others) == 2:
            raise DataError(f"Column {column!r} is Bernoulli with positive value {positive!r}, "
                            f"but it holds {others[0]!r} and {others[1]!r}; fix the positive value.")
        return [others[0] if others else f"not {positive}", positive]
    keys = {binary_key(v): v for v in values}
    for neg, pos in BINARY_PAIRS:
        if keys and set(keys) <= {neg, pos}:
            return [keys.get(neg, _typed_like(neg, values)), keys.get(pos, _typed_like(pos, values))]
    if len(values) == 2:
        return sort_values(values)
    if not values:
        return []       # never observed: the feature is left out of every product
    raise DataError(
        f"Column {column!r} is Bernoulli but only ever holds {values[0]!r}; "
        f"say which value is 1 with nbapp.Bernoulli(positive=...)."
    )


def _typed_like(key: str, values: list[Any]) -> Any:
    """The unseen half of a known pair, in the type of the seen half (0 for 1, "no" for "yes")."""
    if values and isinstance(values[0], (bool, int, float)) and key in ("0", "1"):
        return type(values[0])(int(key))
    return key
