"""Count features: all multinomial columns of a model form ONE multinomial.

Statistics: N_ac, the (weighted) total count of column a in class c. Then

    theta_ac = (N_ac + l) / (sum_b N_bc + l d)                [seed 000, Eq. 10]
    log P(x | c) = sum_a x_a log theta_ac  (+ the multinomial coefficient, Eq. 9)

The coefficient m! / prod x_a! does not depend on the class, so it cancels in the
posterior; like scikit-learn's MultinomialNB, nbapp leaves it out of the joint, and the
Explain page says so. Counts must be non-negative; a missing cell is left out (it counts
neither in fitting nor in the product).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.blocks.base import (COUNT, COUNTS, Block, NotesTerms, Spec, Stats, check_class_sums, exact_power, frozen,
                               state_matrix, subtract_counts, take_classes)
from nbapp.blocks.base import CARD_SPREAD, CardValues, count_card
from nbapp.blocks.categorical import log_ratio
from nbapp._derived import derived
from nbapp.errors import DataError
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp._numbers import numeric_column, scalar_number
from nbapp.smoothing import check_alpha, exact_denominators, smoothed, smoothed_fraction
from nbapp.blocks.base import ParameterCount
from nbapp.smoothing import CellTerms, cell_terms

__all__ = ["Multinomial", "CountStats", "MultinomialBlock", "counts_matrix"]

_KIND = "a count (multinomial)"


@dataclass(frozen=True)
class Multinomial(Spec):
    """A count column; all multinomial columns form one multinomial   [seed 000, Eq. 9-11]."""

    kind: ClassVar[str] = "multinomial"
    alpha: float | None = None

    def __post_init__(self) -> None:
        check_alpha(self.alpha)


@dataclass(frozen=True, eq=False)
class CountStats(Stats):
    """counts[a, c]: the weighted total count of column a in class c."""

    counts: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", frozen(self.counts))

    def __add__(self, other: "CountStats") -> "CountStats":
        return CountStats(self.counts + other.counts)

    def __sub__(self, other: "CountStats") -> "CountStats":
        return CountStats(subtract_counts(self.counts, other.counts))

    def reindex_classes(self, take: np.ndarray) -> "CountStats":
        return CountStats(take_classes(self.counts, take, axis=1))

    def to_state(self) -> dict[str, Any]:
        return {"counts": self.counts.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "CountStats":
        counts = state_matrix(state.get("counts"), (columns, n_classes), f"{where}: counts")
        check_class_sums(counts, f"{where}: counts")
        return cls(counts)


def counts_matrix(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Count columns as a sparse matrix (missing -> 0) and the missing mask; negative counts refused."""
    x, missing = _dense_counts(frame, columns)
    return sparse.csr_matrix(x), missing


def _dense_counts(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Count columns as a dense rows x columns matrix (missing -> 0) and the missing mask."""
    cols = [numeric_column(frame[c], c, _KIND) if c in frame else np.full(len(frame), np.nan) for c in columns]
    x = np.column_stack(cols) if cols else np.zeros((len(frame), 0))
    missing = np.isnan(x)
    negative = np.nan_to_num(x) < 0
    if negative.any():
        r, a = np.argwhere(negative)[0]
        raise DataError(
            f"Column {columns[a]!r} is a count (multinomial) but row {frame.index[r]} holds {x[r, a]:g}; "
            "counts must be >= 0: fix the value or type the column Gaussian."
        )
    return np.where(missing, 0.0, x), missing


class MultinomialBlock(Block):
    """The one multinomial over all count columns."""

    kind = "multinomial"
    title = "Multinomial"
    description = "one multinomial over all count columns, theta_ac = (N_ac + l) / (N_c + l d)"
    value_kind = COUNT
    baseline = COUNTS
    count_exponent = True
    spec_type = Multinomial
    stats_type = CountStats
    grouped = True

    def __init__(self, columns: Sequence[str], specs: Sequence[Any], settings: Any, stats: CountStats) -> None:
        super().__init__(columns, specs, settings, stats)
        self.counts_ = stats.counts

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> CountStats:
        x, _ = _dense_counts(frame, columns)
        x = np.asfortranarray(x)         # N_ac = sum of w * x_a over class c's rows, a bincount per column
        counts = np.zeros((len(columns), n_classes))
        for a in range(len(columns)):
            counts[a] = np.bincount(y, weights=x[:, a] * w, minlength=n_classes)
        return CountStats(counts)

    @classmethod
    def aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any) -> list[Any]:
        """N_ac = sum of w x_a per class (a missing count adds nothing), and the negative counts (refused)."""
        aggregates = {}
        for a, column in enumerate(columns):
            x = table.number(column)
            aggregates.update({f"c{a}": table.sum(table.times(table.weight, x)),
                               f"bad{a}": table.count(table.less(x, table.zero()))})
        return [table.sums(aggregates)]

    @classmethod
    def from_aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any, results: list[Any],
                        n_classes: int) -> CountStats:
        answer = results[0]
        for a, column in enumerate(columns):
            bad = int(answer.per_class(f"bad{a}").sum())
            if bad:
                raise DataError(f"Column {column!r} is a count (multinomial) but {bad:,} row(s) hold a negative "
                                "count; counts must be >= 0: fix the values or type the column Gaussian.")
        return CountStats(np.array([answer.per_class(f"c{a}") for a in range(len(columns))]))

    # -- parameters ------------------------------------------------------------------------
    @derived
    def probabilities(self) -> np.ndarray:
        return smoothed(self.counts_, self.smoothing.pseudo_counts(len(self.columns)),
                        float(self.smoothing.pseudo_total(len(self.columns))))

    @derived
    def log_probabilities(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(self.probabilities())

    def defined(self) -> bool:
        """False when some class has no counts at all and l = 0 (theta = 0/0)."""
        return not np.isnan(self.probabilities()).any()

    @derived
    def _fractions(self) -> list[list[Fraction | None]]:
        """theta_ac as exact fractions."""
        pseudo = self.smoothing.pseudo_fractions(len(self.columns))
        dens = exact_denominators(self.counts_, pseudo, self.smoothing.pseudo_total(len(self.columns)))
        return [[smoothed_fraction(self.counts_[a, c], pseudo[a], den) for c, den in enumerate(dens)]
                for a in range(len(self.columns))]

    # -- prediction ------------------------------------------------------------------------
    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        """sum_a x_a log theta_ac; only stored (non-zero) counts multiply, so 0 * log 0 never occurs."""
        if not self.defined():
            return np.zeros((len(frame), n_classes))
        return np.asarray(counts_matrix(frame, self.columns)[0] @ self.log_probabilities())

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        n_classes = len(classes)
        x = np.array([scalar_number(row.get(col), col, _KIND) for col in self.columns])
        if (x < 0).any():
            col = self.columns[int(np.flatnonzero(x < 0)[0])]
            raise DataError(f"Column {col!r} is a count (multinomial) but the value is {row.get(col)!r}; "
                            "counts must be >= 0.")
        log_theta = self.log_probabilities()
        out = []
        for a, col in enumerate(self.columns):
            value = row.get(col)
            if np.isnan(x[a]):
                out.append(Factor.missing(col, self.kind, value, n_classes))
            elif not self.defined():
                out.append(Factor.skipped(col, self.kind, value, UNDEFINED, n_classes,
                                          "some class has no counts at all and l = 0 gives 0/0"))
            else:
                log = np.zeros(n_classes) if x[a] == 0 else x[a] * log_theta[a]
                fractions = tuple(exact_power(t, x[a]) for t in self._fractions()[a])
                out.append(Factor(col, self.kind, value, USED, log,
                                  None if None in fractions else fractions, f"theta^{x[a]:g}"))
        return out

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The whole numbers up to the class's mean count per row + CARD_SPREAD of its Poisson
        spread, the largest over the classes, and the rows' counts."""
        counts = self.counts_[self.columns.index(column)]
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(class_counts > 0, counts / class_counts, 0.0)
        high = float((mean + CARD_SPREAD * np.sqrt(mean)).max(initial=0.0))
        return count_card(numeric_column(seen, column, _KIND), high)

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """The counts themselves, w = log theta_c1 / theta_c0   [seed 000, Eq. 19]."""
        x = counts_matrix(frame, self.columns)[0] if len(frame) else sparse.csr_matrix((0, len(self.columns)))
        return x, list(self.columns), log_ratio(self.log_probabilities())

    def cpt_row(self, column: str, value: Any) -> Any:
        """A count column is one row of the multinomial's table, whatever its count."""
        return column

    def notes_terms(self, column: str, weights: pd.Series) -> NotesTerms:
        """The count itself, w_MULT = log theta+ / theta-   [seed 000, Eq. 19]."""
        def features(frame: pd.DataFrame) -> np.ndarray:
            return _dense_counts(frame, [column])[0]

        return NotesTerms({column: float(weights[column])}, 0.0, "MULT", features)

    def cell_terms(self, column: str, row: Any, c: int) -> CellTerms | None:
        """theta_ac = (N_ac + l) / (sum_b N_bc + l d) of the count column ``row``, unreduced
        [seed 000, Eq. 10]."""
        if row not in self.columns:
            return None
        return cell_terms(self.counts_, self.columns.index(row), c, self.smoothing)

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """C (d - 1) for the one multinomial over d count columns: theta_ac per column and class,
        and each class's d thetas sum to 1   [seed 000, Eq. 10]."""
        d = len(self.columns)
        return [ParameterCount(tuple(self.columns), n_classes * (d - 1), "C (d − 1)", f"{n_classes} × ({d} − 1)",
                               f"θ_ac for each of the d = {d} count columns and C = {n_classes} classes; "
                               "each class's d thetas sum to 1")]

    # -- tables ----------------------------------------------------------------------------
    def cpt(self, column: str, classes: list[Any], exact: bool = False) -> pd.DataFrame:
        a = self.columns.index(column)
        index = pd.Index([column], name="feature")
        if exact:
            return pd.DataFrame([self._fractions()[a]], index=index, columns=classes, dtype=object)
        return pd.DataFrame(self.probabilities()[[a]], index=index, columns=classes)

    def counts(self, column: str, classes: list[Any]) -> pd.DataFrame:
        a = self.columns.index(column)
        return pd.DataFrame(self.counts_[[a]], index=pd.Index([column]), columns=classes)

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        """The average count per training row."""
        return float(self.counts_[self.columns.index(column)].sum() / class_counts.sum())

    def top_words(self, column: str, classes: list[Any], n: int) -> pd.DataFrame:
        theta = self.probabilities()
        rows = []
        for c, label in enumerate(classes):
            order = sorted(range(len(self.columns)), key=lambda a: -theta[a, c])[:n]
            for rank, a in enumerate(order, start=1):
                rows.append({"class": label, "rank": rank, "term": self.columns[a], "count": self.counts_[a, c],
                             "probability": theta[a, c], "log_weight": np.log(theta[a, c])})
        return pd.DataFrame(rows)

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_length = np.nan_to_num(self.counts_.sum(axis=0) / class_counts)
        lengths = rng.poisson(mean_length[y])
        theta = np.nan_to_num(self.probabilities())
        draws = np.array([rng.multinomial(n, theta[:, c] / theta[:, c].sum()) for n, c in zip(lengths, y)])
        draws = draws.reshape(len(y), len(self.columns))
        return {col: draws[:, a] for a, col in enumerate(self.columns)}
