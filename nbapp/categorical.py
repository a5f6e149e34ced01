"""Categorical and Bernoulli features: counting, then smoothing.

Fitting keeps the counts N_cj of value j in class c (the sufficient statistics), so
counts from any split of the rows add up to the counts of one fit. The CPT is derived:

    P(x = j | c) = (N_cj + a_j) / (n_c + sum_j a_j)          [seed 000, Eq. 7]

where n_c counts the *observed* values of this feature in class c (missing values are
not counted) and a_j are the smoothing pseudo-counts (:mod:`nbapp.smoothing`).
K is the number of distinct non-missing values in the training data.

A Bernoulli feature (seed 002) is the same table with exactly two values, negative and
positive, so K = 2 even if only one was seen: (N_c1 + l) / (N_c + 2 l), and an absent
feature contributes log(1 - theta), as scikit-learn's BernoulliNB does.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from nbapp.derived import derived, invalidate
from nbapp.errors import DataError
from nbapp.exact import exact_sum, to_fraction
from nbapp.factor import UNDEFINED, UNSEEN, USED, Factor
from nbapp.ordering import merge_sorted, python_scalar
from nbapp.smoothing import smoothed

__all__ = ["CategoricalBlock", "BernoulliBlock"]

MISSING_CODE = -1
UNSEEN_CODE = -2

# Pairs read as (negative, positive) when a Bernoulli column does not say which value is 1.
_BINARY_PAIRS = [
    ("0", "1"), ("false", "true"), ("no", "yes"), ("n", "y"), ("f", "t"),
    ("off", "on"), ("absent", "present"), ("negative", "positive"),
]


class CategoricalBlock:
    """The CPT of one categorical column."""

    kind = "categorical"

    def __init__(self, column: str, smoothing: Any) -> None:
        self.column = column
        self.columns = [column]
        self.smoothing = smoothing
        self.categories: list[Any] = []
        self.counts = np.zeros((0, 0))

    # -- fitting ---------------------------------------------------------------------------
    def accumulate(self, frame: pd.DataFrame, y: np.ndarray, w: np.ndarray, n_classes: int) -> None:
        invalidate(self)
        codes, uniques = pd.factorize(frame[self.column], use_na_sentinel=True)
        self._add_categories(self._learnable(uniques))
        lookup = self._index().get_indexer(self._keys(uniques))
        rows = codes >= 0
        cat = lookup[codes[rows]]
        k = len(self.categories)
        flat = np.bincount(cat * n_classes + y[rows], weights=w[rows], minlength=k * n_classes)
        self.counts = self.counts + flat.reshape(k, n_classes)

    def expand_classes(self, take: np.ndarray) -> None:
        invalidate(self)
        self.counts = _take_columns(self.counts, take)

    def _learnable(self, uniques: Sequence[Any]) -> list[Any]:
        return [python_scalar(v) for v in uniques]

    def _keys(self, values: Sequence[Any]) -> list[Any]:
        return [python_scalar(v) for v in values]

    def _add_categories(self, new: list[Any]) -> None:
        merged, take = merge_sorted(self.categories, new)
        if len(merged) != len(self.categories):
            n_classes = self.counts.shape[1]
            grown = np.zeros((len(merged), n_classes))
            grown[take] = self.counts
            self.counts = grown
            self.categories = merged

    @derived
    def _index(self) -> pd.Index:
        return pd.Index(self._keys(self.categories), dtype=object)

    # -- parameters ------------------------------------------------------------------------
    def pseudo_counts(self) -> np.ndarray:
        return self.smoothing.pseudo_counts(len(self.categories))

    @derived
    def probabilities(self) -> np.ndarray:
        """theta[j, c] = P(x = j | c); NaN where undefined (0/0: a class never observed it, l = 0)."""
        return smoothed(self.counts, self.pseudo_counts())

    @derived
    def log_probabilities(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(self.probabilities())

    def fractions(self) -> list[list[Fraction | None]]:
        """The CPT as exact fractions (None where 0/0)."""
        return [self.fraction_row(j) for j in range(len(self.categories))]

    def fraction_row(self, j: int) -> list[Fraction | None]:
        """P(x = j | c) for every class as exact fractions: (N_cj + a_j) / (n_c + sum a)."""
        a = self.smoothing.pseudo_fractions(len(self.categories))
        return [None if den == 0 else (to_fraction(self.counts[j, c]) + a[j]) / den
                for c, den in enumerate(self._denominators())]

    @derived
    def _denominators(self) -> list[Fraction]:
        """n_c + sum_j a_j per class, exactly."""
        total_a = sum(self.smoothing.pseudo_fractions(len(self.categories)), Fraction(0))
        return [exact_sum(self.counts[:, c]) + total_a for c in range(self.counts.shape[1])]

    # -- prediction ------------------------------------------------------------------------
    def codes(self, series: pd.Series) -> np.ndarray:
        """Category index per row; MISSING_CODE for no value, UNSEEN_CODE for a new value."""
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
        lookup = self._index().get_indexer(self._keys(uniques))
        lookup = np.where(lookup < 0, UNSEEN_CODE, lookup)
        # code -1 (missing) picks the appended MISSING_CODE
        return np.append(lookup, MISSING_CODE)[codes]

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        out = np.zeros((len(frame), n_classes))
        if self.column not in frame:
            return out
        return self._lookup_table()[self.codes(frame[self.column])]

    @derived
    def _lookup_table(self) -> np.ndarray:
        """log theta with two zero rows appended, so codes -2 (unseen) and -1 (missing) add 0;
        a value undefined for some class (NaN) also adds 0 for every class: it is left out."""
        log = self.log_probabilities()
        log = np.where(np.isnan(log).any(axis=1, keepdims=True), 0.0, log)
        return np.vstack([log, np.zeros((2, log.shape[1]))])

    @derived
    def _positions(self) -> dict[Any, int]:
        return {key: j for j, key in enumerate(self._keys(self.categories))}

    def code_of(self, value: Any) -> int:
        """The category index of one value (the scalar path of :meth:`codes`)."""
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            return MISSING_CODE
        return self._positions().get(self._keys([value])[0], UNSEEN_CODE)

    def factors(self, row: Mapping[str, Any], n_classes: int) -> list[Factor]:
        value = row.get(self.column)
        code = self.code_of(value)
        if code == MISSING_CODE:
            return [Factor.missing(self.column, self.kind, value, n_classes)]
        if code == UNSEEN_CODE:
            return [Factor.skipped(self.column, self.kind, value, UNSEEN, n_classes,
                                   "a value never seen in training: left out like a missing one")]
        log = self.log_probabilities()[code]
        if np.isnan(log).any():
            return [Factor.skipped(self.column, self.kind, value, UNDEFINED, n_classes,
                                   "some class never observed this feature and l = 0 gives 0/0")]
        return [Factor(self.column, self.kind, value, USED, log, tuple(self.fraction_row(code)))]

    # -- tables ----------------------------------------------------------------------------
    def cpt(self, classes: list[Any], exact: bool = False) -> pd.DataFrame:
        values = self.fractions() if exact else self.probabilities()
        return pd.DataFrame(values, index=self._labels(), columns=classes, dtype=object if exact else float)

    def count_table(self, classes: list[Any]) -> pd.DataFrame:
        return pd.DataFrame(self.counts, index=self._labels(), columns=classes)

    def _labels(self) -> pd.Index:
        return pd.Index(self.categories, name=self.column, dtype=object)

    # -- sampling and persistence ----------------------------------------------------------
    def sample(self, y: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
        theta = np.nan_to_num(self.probabilities())
        cum = np.cumsum(theta, axis=0)
        draws = rng.random(len(y)) * cum[-1, y]
        picks = (cum[:, y] < draws[None, :]).sum(axis=0)
        values = np.array(self.categories, dtype=object)[np.minimum(picks, len(self.categories) - 1)]
        return {self.column: values}

    def state(self) -> dict[str, Any]:
        return {"categories": self.categories, "counts": self.counts.tolist()}

    def load_state(self, state: dict[str, Any], n_classes: int) -> None:
        invalidate(self)
        self.categories = list(state["categories"])
        self.counts = _matrix(state["counts"], len(self.categories), n_classes, self.column)


class BernoulliBlock(CategoricalBlock):
    """A binary column: categories fixed to [negative, positive]."""

    kind = "bernoulli"

    def __init__(self, column: str, smoothing: Any, positive: Any = None) -> None:
        super().__init__(column, smoothing)
        self.positive = python_scalar(positive) if positive is not None else None

    def _learnable(self, uniques: Sequence[Any]) -> list[Any]:
        values = [python_scalar(v) for v in uniques]
        if not self.categories and values:    # the pair is decided by the first values seen
            self.categories = self._pair(values)
            self.counts = np.zeros((2, self.counts.shape[1]))
        unknown = [v for v in values if _binary_key(v) not in map(_binary_key, self.categories)]
        if unknown:
            raise DataError(
                f"Column {self.column!r} is Bernoulli (two values: {self.categories[0]!r} / "
                f"{self.categories[1]!r}) but also holds {unknown[0]!r}; type it categorical instead."
            )
        return []

    def _pair(self, values: list[Any]) -> list[Any]:
        values = list({_binary_key(v): v for v in reversed(values)}.values())[::-1]
        if len(values) > 2:
            shown = ", ".join(repr(v) for v in values[:5])
            raise DataError(
                f"Column {self.column!r} is Bernoulli but has {len(values)} distinct values ({shown}); "
                "a Bernoulli feature has two: type it categorical instead."
            )
        if self.positive is not None:
            others = [v for v in values if _binary_key(v) != _binary_key(self.positive)]
            negative = others[0] if others else f"not {self.positive}"
            return [negative, self.positive]
        keys = {_binary_key(v): v for v in values}
        for neg, pos in _BINARY_PAIRS:
            if set(keys) <= {neg, pos}:
                return [keys.get(neg, _typed_like(neg, values)), keys.get(pos, _typed_like(pos, values))]
        if len(values) == 2:
            first, second = merge_sorted([], values)[0]
            return [first, second]
        raise DataError(
            f"Column {self.column!r} is Bernoulli but only ever holds {values[0]!r}; "
            f"say which value is 1 with nbapp.Bernoulli(positive=...)."
        )

    def _keys(self, values: Sequence[Any]) -> list[Any]:
        return [_binary_key(v) for v in values]

    def state(self) -> dict[str, Any]:
        return {**super().state(), "positive": self.categories[1] if self.categories else self.positive}


def _binary_key(value: Any) -> Any:
    """0/1, False/True, "yes"/"Yes " all compare by one key."""
    value = python_scalar(value)
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip().lower()


def _typed_like(key: str, values: list[Any]) -> Any:
    """The unseen half of a known pair, in the type of the seen half (0 for 1, "no" for "yes")."""
    if values and isinstance(values[0], (bool, int, float)) and key in ("0", "1"):
        return type(values[0])(int(key))
    return key


def _take_columns(matrix: np.ndarray, take: np.ndarray) -> np.ndarray:
    """Re-index the class axis: column i of the result is column take[i] of matrix, or zeros if -1."""
    out = np.zeros((matrix.shape[0], len(take)))
    keep = take >= 0
    out[:, keep] = matrix[:, take[keep]]
    return out


def _matrix(rows: Any, n_rows: int, n_cols: int, column: str) -> np.ndarray:
    m = np.asarray(rows, dtype=float).reshape(-1, n_cols) if n_rows else np.zeros((0, n_cols))
    if m.shape != (n_rows, n_cols) or not np.isfinite(m).all() or (m < 0).any():
        raise DataError(f"The model file's counts for {column!r} are malformed.")
    return m
