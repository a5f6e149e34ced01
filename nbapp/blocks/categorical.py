"""Categorical features: counts N_cj, then the smoothed CPT.

Statistics: for each value j ever seen and each class c, the weighted count N_cj of rows of
class c with value j (missing values are not counted). Counts of any split of the rows add
up to the counts of one fit. The CPT is derived:

    P(x = j | c) = (N_cj + a_j) / (n_c + sum_j a_j)          [seed 000, Eq. 7]

where n_c counts the *observed* values of this feature in class c and a_j are the smoothing
pseudo-counts (:mod:`nbapp.smoothing`); K is the number of distinct values seen in training,
or, with declared categories (``nbapp.Categorical(categories=[...])``), the size of the
domain: a declared value never seen in class c gets l / (n_c + l K), as R's e1071 with factor
levels and scikit-learn's CategoricalNB(min_categories=K). A training value outside the
declared categories is refused by name.

A value never seen in training (and not declared), by the column's ``unseen`` policy:

* "skip" (the default): left out of the product like a missing value   [seed 000, Eq. 22],
  its factor flagged "unseen";
* "error": refused with a DataError naming the column and the value;
* "smooth": scored as one extra pseudo-category "(unseen)" of the CPT with no counts, so K + 1
  values share the smoothing: P(unseen | c) = a / (n_c + sum_j a_j) over K + 1 values; its
  factor is flagged "unseen → smoothed" and counts in the product.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.blocks.base import (CATEGORY, ONE_HOT, Block, NotesTerms, Spec, Stats, check_class_sums,
                               check_table_budget, frozen, state_matrix, subtract_counts, take_classes)
from nbapp.blocks.base import CardValues, category_card
from nbapp._derived import derived
from nbapp._encode import arrow_strings, factorize, pa_strings, remembered_codes, string_positions
from nbapp.errors import DataError
from nbapp.factor import UNDEFINED, UNSEEN, UNSEEN_SMOOTHED, USED, Factor
from nbapp.ordering import python_scalar, sort_key, sort_values
from nbapp.smoothing import check_alpha, exact_denominators, smoothed, smoothed_fraction
from nbapp.blocks.base import ParameterCount
from nbapp.smoothing import CellTerms, cell_terms

__all__ = ["Categorical", "CategoricalStats", "CategoricalBlock", "MISSING_CODE", "UNSEEN_CODE", "UNSEEN_POLICIES",
           "UNSEEN_LABEL"]

MISSING_CODE = -1
UNSEEN_CODE = -2
UNSEEN_POLICIES = ("skip", "error", "smooth")
UNSEEN_LABEL = "(unseen)"      # the CPT row of the pseudo-category of unseen="smooth"


@dataclass(frozen=True)
class Categorical(Spec):
    """A categorical CPT per class, (count + l) / (n_c + l K)   [seed 000, Eq. 6-8].

    ``alpha`` overrides the model's l for this column. ``categories`` declares the domain
    (K = its size, in this order); ``unseen`` says what a value never seen in training does:
    "skip" (left out, Eq. 22), "error" (refused) or "smooth" (one extra pseudo-category).
    """

    kind: ClassVar[str] = "categorical"
    alpha: float | None = None
    categories: tuple[Any, ...] | None = None
    unseen: str = "skip"

    def __post_init__(self) -> None:
        check_alpha(self.alpha)
        if self.unseen not in UNSEEN_POLICIES:
            raise DataError(f"Categorical unseen must be one of {', '.join(UNSEEN_POLICIES)}, not {self.unseen!r}.")
        if self.categories is not None:
            object.__setattr__(self, "categories", _declared(self.categories))


def _declared(categories: Any) -> tuple[Any, ...]:
    """Declared categories as a tuple of distinct strings / finite numbers (compared as the data is)."""
    if isinstance(categories, (str, bytes)) or not isinstance(categories, (list, tuple, pd.Index, np.ndarray)):
        raise DataError(f"Categorical categories must be a list of values, not {categories!r}.")
    values = [python_scalar(v) for v in categories]
    if not values:
        raise DataError("Categorical categories is empty; declare at least one category (or leave it out).")
    keys: set[Any] = set()        # a set: 100,000 declared categories are checked in linear time
    for v in values:
        if not isinstance(v, (str, int, float)) or isinstance(v, float) and not np.isfinite(v):
            raise DataError(f"The declared category {v!r} is not a string or a finite number.")
        if CategoricalStats.key(v) in keys:
            raise DataError(f"The category {v!r} is declared twice.")
        keys.add(CategoricalStats.key(v))
    return tuple(values)


@dataclass(frozen=True, eq=False)
class CategoricalStats(Stats):
    """values (sorted, one per key) and counts[j, c] = weighted rows of class c with value j."""

    values: tuple[Any, ...]
    counts: np.ndarray

    key: ClassVar[Callable[[Any], Any]] = staticmethod(python_scalar)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", frozen(self.counts))

    def keys(self) -> list[Any]:
        return [self.key(v) for v in self.values]

    def __add__(self, other: "CategoricalStats") -> "CategoricalStats":
        representatives = dict(zip(self.keys(), self.values))
        for k, v in zip(other.keys(), other.values):
            representatives.setdefault(k, v)
        values = sort_values(representatives.values())
        index = pd.Index([self.key(v) for v in values], dtype=object)
        counts = np.zeros((len(values), self.counts.shape[1]))
        for part in (self, other):
            counts[index.get_indexer(pd.Index(part.keys(), dtype=object))] += part.counts
        return type(self)(tuple(values), counts)

    def __sub__(self, other: "CategoricalStats") -> "CategoricalStats":
        position = pd.Index(self.keys(), dtype=object).get_indexer(pd.Index(other.keys(), dtype=object))
        if (position < 0).any():
            raise ValueError("subtracting statistics with values that are not in the total")
        taken = np.zeros_like(self.counts)
        taken[position] = other.counts
        counts = subtract_counts(self.counts, taken)
        gone = np.zeros(len(self.values), dtype=bool)
        gone[position] = ~counts[position].any(axis=1)
        kept = np.flatnonzero(~gone)
        return type(self)(tuple(self.values[i] for i in kept), counts[kept])

    def reindex_classes(self, take: np.ndarray) -> "CategoricalStats":
        return type(self)(self.values, take_classes(self.counts, take, axis=1))

    def to_state(self) -> dict[str, Any]:
        return {"categories": list(self.values), "counts": self.counts.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "CategoricalStats":
        values = state.get("categories")
        if not isinstance(values, list):
            raise DataError(f"{where}: 'categories' should be a list of values.")
        for i, v in enumerate(values):
            if not isinstance(v, (str, int, float)) or isinstance(v, float) and not np.isfinite(v):
                raise DataError(f"{where}: categories[{i}] is {v!r}; a category is a string or a finite number.")
        keys = [cls.key(v) for v in values]
        if len(set(keys)) != len(keys):
            seen: set[Any] = set()
            repeated = next(v for v, k in zip(values, keys) if k in seen or seen.add(k))
            raise DataError(f"{where}: the category {repeated!r} is listed twice.")
        counts = state_matrix(state.get("counts"), (len(values), n_classes), f"{where}: counts")
        check_class_sums(counts, f"{where}: counts")
        order = sorted(range(len(values)), key=lambda i: sort_key(values[i]))
        return cls(tuple(values[i] for i in order), counts[order])

    def rows_counted(self) -> tuple[str, np.ndarray]:
        """Rows with a value, per class: the counts summed over the values."""
        return "the sum of counts", self.counts.sum(axis=0)[:, None]

    @classmethod
    def count(cls, series: pd.Series, y: np.ndarray, w: np.ndarray, n_classes: int) -> "CategoricalStats":
        """One pass: factorize the column, then one bincount over (value, class) pairs."""
        codes, uniques = factorize(series)
        check_table_budget(len(uniques), n_classes, str(series.name))
        representatives: dict[Any, Any] = {}
        raw_keys = []
        for u in uniques:
            v = python_scalar(u)
            k = cls.key(v)
            raw_keys.append(k)
            representatives.setdefault(k, v)
        values = sort_values(representatives.values())
        index = pd.Index([cls.key(v) for v in values], dtype=object)
        lookup = index.get_indexer(pd.Index(raw_keys, dtype=object))
        k = len(values)
        # a missing value (code -1) counts in an extra last bin, dropped: no row masks to copy
        cat = (np.append(lookup, k) * n_classes)[codes]
        cat += y
        flat = np.bincount(cat, weights=w, minlength=(k + 1) * n_classes)[:k * n_classes]
        return cls(tuple(values), flat.reshape(k, n_classes))


class CategoricalBlock(Block):
    """The CPT of one categorical column."""

    kind = "categorical"
    title = "Categorical"
    description = "a probability table per class, (count + l) / (n_c + l K)"
    value_kind = CATEGORY
    baseline = ONE_HOT
    spec_type = Categorical
    stats_type: ClassVar[type] = CategoricalStats

    def __init__(self, columns: Sequence[str], specs: Sequence[Any], settings: Any, stats: Any) -> None:
        super().__init__(columns, specs, settings, stats)
        categories, counts = self._table(stats)
        self.unseen = getattr(self.specs[0], "unseen", "skip")
        self.n_values = len(categories)            # the real values; "smooth" adds one pseudo-row
        if self.unseen == "smooth":
            categories, counts = [*categories, UNSEEN_LABEL], np.vstack([counts, np.zeros((1, counts.shape[1]))])
        self.categories, self.counts_ = categories, counts

    def _table(self, stats: CategoricalStats) -> tuple[list[Any], np.ndarray]:
        """The categories and their counts as this block scores them: the values seen, or the
        declared categories in their order (a seen value outside them is refused)."""
        declared = getattr(self.specs[0], "categories", None)
        if declared is None:
            return list(stats.values), stats.counts
        position = {self._key(v): j for j, v in enumerate(declared)}
        counts = np.zeros((len(declared), stats.counts.shape[1]))
        for value, key, row in zip(stats.values, stats.keys(), stats.counts):
            if key not in position:
                shown = ", ".join(repr(v) for v in declared[:10])
                raise DataError(f"Column {self.column!r} holds {value!r}, which is not among its declared "
                                f"categories ({shown}{' ...' if len(declared) > 10 else ''}); add it to "
                                "categories=[...] or fix the value.")
            counts[position[key]] = row
        return list(declared), counts

    def _key(self, value: Any) -> Any:
        return self.stats_type.key(value)

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> CategoricalStats:
        declared = getattr(specs[0], "categories", None)
        if declared is not None:
            series = frame[columns[0]]
            keys = pd.Index([CategoricalStats.key(v) for v in declared], dtype=object)
            present = series.notna().to_numpy()
            found = keys.get_indexer(pd.Index([CategoricalStats.key(python_scalar(v)) for v in series[present]],
                                              dtype=object))
            if (found < 0).any():
                row = series.index[np.flatnonzero(present)[int(np.flatnonzero(found < 0)[0])]]
                raise DataError(f"Column {columns[0]!r} holds {python_scalar(series[row])!r} in row {row}, which "
                                "is not among its declared categories; add it to categories=[...] or fix the value.")
        return cls.stats_type.count(frame[columns[0]], y, w, n_classes)

    @classmethod
    def aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any) -> list[Any]:
        """N_cj: the weight of each (class, value), grouped by the engine; the values are read
        back in Python by the column's own rule (there are few of them)."""
        return [table.sums({"weight": table.sum(table.weight)}, key=table.value(columns[0]))]

    @classmethod
    def from_aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any, results: list[Any],
                        n_classes: int) -> CategoricalStats:
        """summarize over one row per (class, value) weighted by its rows' weight: the same counts,
        and the same refusals (an undeclared value, a third value of a binary column)."""
        answer = results[0]
        return cls.summarize(columns, specs, pd.DataFrame({columns[0]: answer.values}), answer.classes,
                             answer.column("weight"), n_classes)

    # -- parameters ------------------------------------------------------------------------
    @derived
    def _index(self) -> pd.Index:
        return pd.Index([self._key(v) for v in self.categories[:self.n_values]], dtype=object)

    def pseudo_counts(self) -> np.ndarray:
        return self.smoothing.pseudo_counts(len(self.categories))

    @derived
    def probabilities(self) -> np.ndarray:
        """theta[j, c] = P(x = j | c); NaN where undefined (0/0: a class never observed it, l = 0)."""
        return smoothed(self.counts_, self.pseudo_counts(), float(self._pseudo_total()))

    def _pseudo_total(self) -> Fraction:
        return self.smoothing.pseudo_total(len(self.categories))

    @derived
    def log_probabilities(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(self.probabilities())

    def fraction_row(self, j: int) -> list[Fraction | None]:
        """P(x = j | c) for every class as exact fractions: (N_cj + a_j) / (n_c + sum a)."""
        a = self.smoothing.pseudo_fractions(len(self.categories))
        return [smoothed_fraction(self.counts_[j, c], a[j], den) for c, den in enumerate(self._denominators())]

    @derived
    def _denominators(self) -> list[Fraction]:
        return exact_denominators(self.counts_, self.smoothing.pseudo_fractions(len(self.categories)),
                                  self._pseudo_total())

    # -- prediction ------------------------------------------------------------------------
    def _keyed_by_value(self) -> bool:
        """Are categories looked up by the values themselves? Then strings may take the Arrow
        paths. Not for blocks that key or bin values their own way (binary pairs, intervals)."""
        return getattr(self.stats_type, "key", None) is python_scalar

    def codes(self, series: pd.Series) -> np.ndarray:
        """Category index per row; MISSING_CODE for no value, UNSEEN_CODE for a new value."""
        strings = arrow_strings(series) if self._keyed_by_value() else None
        if strings is not None:           # Arrow text: pyarrow looks the strings up directly
            return self._unseen_policy(string_positions(strings, self.categories, MISSING_CODE, UNSEEN_CODE),
                                       series)
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
        lookup = self._index().get_indexer(pd.Index([self._key(python_scalar(u)) for u in uniques], dtype=object))
        lookup = np.where(lookup < 0, UNSEEN_CODE, lookup)
        return self._unseen_policy(np.append(lookup, MISSING_CODE)[codes], series)  # code -1 picks MISSING_CODE

    def _unseen_policy(self, codes: np.ndarray, series: pd.Series) -> np.ndarray:
        """Apply the column's unseen policy to category codes: "skip" leaves UNSEEN_CODE (the
        factor is left out, seed 000 Eq. 22), "error" refuses the first such row, "smooth" scores
        it as the extra pseudo-category n_values."""
        unseen = codes == UNSEEN_CODE
        if self.unseen == "skip" or not unseen.any():
            return codes
        if self.unseen == "error":
            first = int(np.flatnonzero(unseen)[0])
            self._refuse(series.iloc[first], f" in row {series.index[first]}")
        return np.where(unseen, self.n_values, codes)

    def _refuse(self, value: Any, where: str = "") -> None:
        raise DataError(f"Column {self.column!r} holds {python_scalar(value)!r}{where}, a value never seen in "
                        "training, and its unseen policy is 'error'; fix the value, declare it in "
                        "categories=[...], or choose unseen='skip' or 'smooth'.")

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        if self.column not in frame:
            return np.zeros((len(frame), n_classes))
        series = frame[self.column]
        known = self._remembered(series)
        if known is not None:
            return self._score_remembered(*known)
        return np.take(self._lookup_table(), self.codes(series), axis=0)

    def joint_log_rows(self, frame: pd.DataFrame, rows: slice | np.ndarray, n_classes: int) -> np.ndarray:
        known = self._remembered(frame[self.column]) if self.column in frame else None
        if known is None:
            return super().joint_log_rows(frame, rows, n_classes)
        codes, uniques = known
        return self._score_remembered(codes[rows], uniques)

    def _remembered(self, series: pd.Series) -> tuple[np.ndarray, list[Any]] | None:
        """Codes of this very array from the fit (today's "skip" policy only), else None."""
        return remembered_codes(series) if self._keyed_by_value() and self.unseen == "skip" else None

    def _score_remembered(self, codes: np.ndarray, uniques: list[Any]) -> np.ndarray:
        """Each distinct string looked up once, then one take per row."""
        rows = string_positions(pa_strings(uniques), self.categories, MISSING_CODE, UNSEEN_CODE)
        return np.take(self._lookup_table()[np.append(rows, MISSING_CODE)], codes, axis=0)

    @derived
    def _lookup_table(self) -> np.ndarray:
        """log theta with two zero rows appended, so codes -2 (unseen) and -1 (missing) add 0;
        a value undefined for some class (NaN) also adds 0 for every class: it is left out."""
        log = self.log_probabilities()
        log = np.where(np.isnan(log).any(axis=1, keepdims=True), 0.0, log)
        return np.vstack([log, np.zeros((2, log.shape[1]))])

    @derived
    def _positions(self) -> dict[Any, int]:
        return {key: j for j, key in enumerate(self._index())}

    def code_of(self, value: Any) -> int:
        """The category index of one value (the scalar path of :meth:`codes`)."""
        if value is None or (not isinstance(value, str) and not isinstance(value, (list, dict)) and pd.isna(value)):
            return MISSING_CODE
        try:
            code = self._positions().get(self._key(python_scalar(value)), UNSEEN_CODE)
        except TypeError:               # an unhashable value was never a category
            code = UNSEEN_CODE
        if code == UNSEEN_CODE and self.unseen == "error":
            self._refuse(value)
        return self.n_values if code == UNSEEN_CODE and self.unseen == "smooth" else code

    def cpt_row(self, column: str, value: Any) -> Any:
        """The category (or interval) of the value; None if missing or never seen."""
        try:
            code = self.code_of(value)
        except DataError:               # unseen under the policy "error", or not a number
            return None
        return self.categories[code] if code >= 0 else None

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        n_classes = len(classes)
        value = row.get(self.column)
        code = self.code_of(value)
        if code == MISSING_CODE:
            return [Factor.missing(self.column, self.kind, value, n_classes)]
        if code == UNSEEN_CODE:
            return [Factor.skipped(self.column, self.kind, value, UNSEEN, n_classes,
                                   "a value never seen in training: left out like a missing one (unseen='skip')")]
        log = self.log_probabilities()[code]
        if np.isnan(log).any():
            return [Factor.skipped(self.column, self.kind, value, UNDEFINED, n_classes,
                                   "some class never observed this feature and l = 0 gives 0/0")]
        if code == self.n_values:
            return [Factor(self.column, self.kind, value, UNSEEN_SMOOTHED, log, tuple(self.fraction_row(code)),
                           "a value never seen in training, scored as the pseudo-category (unseen) of "
                           "K + 1 values (unseen='smooth')")]
        return [Factor(self.column, self.kind, value, USED, log, tuple(self.fraction_row(code)))]

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The table's categories (not the pseudo-category of unseen='smooth'), then the rows'
        values never seen in training."""
        return category_card(seen, self.categories[:self.n_values], self._key)

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """One indicator per value, w = log theta_v,c1 / theta_v,c0   [seed 000, Eq. 18]."""
        n = len(frame)
        names = [f"{self.column} = {v}" for v in self.categories]
        codes = self.codes(frame[self.column]) if self.column in frame else np.full(n, MISSING_CODE)
        rows = np.flatnonzero(codes >= 0)
        x = sparse.csr_matrix((np.ones(len(rows)), (rows, codes[rows])), shape=(n, len(names)))
        return x, names, log_ratio(self.log_probabilities())

    def notes_terms(self, column: str, weights: pd.Series) -> NotesTerms:
        """An indicator per value, as the notes' CAT form keeps it (seed 000, Eq. 18 for K > 2)."""
        return dataclasses.replace(super().notes_terms(column, weights), label="CAT")

    def cell_terms(self, column: str, row: Any, c: int) -> CellTerms | None:
        """(N_cj + a_j) / (n_c + sum_j a_j) of the table's row ``row`` (a category, or the
        pseudo-category of unseen="smooth"), unreduced   [seed 000, Eq. 7]."""
        j = self._row_position(row)
        return None if j is None else cell_terms(self.counts_, j, c, self.smoothing)

    def _row_position(self, row: Any) -> int | None:
        """The position of a row of the table: a value seen or declared, or the pseudo-row."""
        try:
            j = self._positions().get(self._key(python_scalar(row)))
        except TypeError:               # an unhashable value is no row
            return None
        if j is None and self.n_values < len(self.categories) and row == self.categories[-1]:
            return self.n_values
        return j

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """C (K - 1): a probability per row of the table (K of them) and class, less one per
        class since each class's K probabilities sum to 1   [seed 000, Eq. 6-7; Ex. 2.4]."""
        k = len(self.categories)
        return [ParameterCount((self.column,), n_classes * (k - 1), "C (K − 1)", f"{n_classes} × ({k} − 1)",
                               f"P(value | class) for each of the K = {k} values and C = {n_classes} classes; "
                               "each class's K probabilities sum to 1")]

    # -- tables ----------------------------------------------------------------------------
    def cpt(self, column: str, classes: list[Any], exact: bool = False) -> pd.DataFrame:
        if exact:
            a = self.smoothing.pseudo_fractions(len(self.categories))
            dens = self._denominators()
            values: Any = [[smoothed_fraction(self.counts_[j, c], a[j], den) for c, den in enumerate(dens)]
                           for j in range(len(self.categories))]
            return pd.DataFrame(values, index=self._labels(), columns=classes, dtype=object)
        return pd.DataFrame(self.probabilities(), index=self._labels(), columns=classes)

    def counts(self, column: str, classes: list[Any]) -> pd.DataFrame:
        return pd.DataFrame(self.counts_, index=self._labels(), columns=classes)

    def _labels(self) -> pd.Index:
        return pd.Index(self.categories, name=self.column, dtype=object)

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        theta = np.nan_to_num(self.probabilities())[:self.n_values]     # the pseudo-row is no value
        cum = np.cumsum(theta, axis=0)
        draws = rng.random(len(y)) * cum[-1, y]
        picks = (cum[:, y] < draws[None, :]).sum(axis=0)
        values = np.array(self.categories[:self.n_values], dtype=object)[np.minimum(picks, self.n_values - 1)]
        return {self.column: values}


def log_ratio(log: np.ndarray) -> np.ndarray:
    """log theta_c1 - log theta_c0 per row of a (values x 2 classes) table."""
    with np.errstate(invalid="ignore"):
        return log[:, 1] - log[:, 0]
