"""Count features: all multinomial columns of a model form ONE multinomial.

Fitting keeps N_ac, the (weighted) total count of column a in class c. Then

    theta_ac = (N_ac + l) / (sum_b N_bc + l d)                [seed 000, Eq. 10]
    log P(x | c) = sum_a x_a log theta_ac  (+ the multinomial coefficient, Eq. 9)

The coefficient m! / prod x_a! does not depend on the class, so it cancels in the
posterior; like scikit-learn's MultinomialNB, nbapp leaves it out of the joint, and the
Explain page says so. Counts must be non-negative; a missing cell is left out (it counts
neither in fitting nor in the product).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.derived import derived, invalidate
from nbapp.errors import DataError
from nbapp.exact import exact_sum, to_fraction
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp.gaussian import numeric_column, scalar_number
from nbapp.smoothing import smoothed

__all__ = ["MultinomialBlock", "CountTable", "counts_matrix"]


class CountTable:
    """Feature counts N[a, c] of a multinomial and the smoothed theta derived from them."""

    def __init__(self, n_features: int, smoothing: Any) -> None:
        self.smoothing = smoothing
        self.counts = np.zeros((n_features, 0))

    def add(self, x: sparse.csr_matrix, y: np.ndarray, w: np.ndarray, n_classes: int) -> None:
        invalidate(self)
        onehot = sparse.csr_matrix((w, (np.arange(len(y)), y)), shape=(len(y), n_classes))
        self.counts = self.counts + np.asarray((x.T @ onehot).todense())

    def grow(self, n_features: int) -> None:
        extra = np.zeros((n_features - self.counts.shape[0], self.counts.shape[1]))
        self.counts = np.vstack([self.counts, extra])

    def expand_classes(self, take: np.ndarray) -> None:
        invalidate(self)
        out = np.zeros((self.counts.shape[0], len(take)))
        keep = take >= 0
        out[:, keep] = self.counts[:, take[keep]]
        self.counts = out

    @derived
    def probabilities(self) -> np.ndarray:
        return smoothed(self.counts, self.smoothing.pseudo_counts(self.counts.shape[0]))

    @derived
    def log_probabilities(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(self.probabilities())

    def defined(self) -> bool:
        """False when some class has no counts at all and l = 0 (theta = 0/0)."""
        return not np.isnan(self.probabilities()).any()

    def fraction(self, a: int, c: int) -> Fraction | None:
        pseudo = self.smoothing.pseudo_fractions(self.counts.shape[0])
        den = exact_sum(self.counts[:, c]) + sum(pseudo, Fraction(0))
        return None if den == 0 else (to_fraction(self.counts[a, c]) + pseudo[a]) / den

    def joint_log(self, x: sparse.csr_matrix) -> np.ndarray:
        """sum_a x_a log theta_ac; only stored (non-zero) counts multiply, so 0 * log 0 never occurs."""
        if not self.defined():
            return np.zeros((x.shape[0], self.counts.shape[1]))
        return np.asarray(x @ self.log_probabilities())


def counts_matrix(frame: pd.DataFrame, columns: list[str]) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Count columns as a sparse matrix (missing -> 0) and the missing mask; negative counts refused."""
    cols = [numeric_column(frame[c], c, "a count (multinomial)") if c in frame else np.full(len(frame), np.nan)
            for c in columns]
    x = np.column_stack(cols) if cols else np.zeros((len(frame), 0))
    missing = np.isnan(x)
    negative = np.nan_to_num(x) < 0
    if negative.any():
        r, a = np.argwhere(negative)[0]
        raise DataError(
            f"Column {columns[a]!r} is a count (multinomial) but row {frame.index[r]} holds {x[r, a]:g}; "
            "counts must be >= 0: fix the value or type the column Gaussian."
        )
    return sparse.csr_matrix(np.where(missing, 0.0, x)), missing


class MultinomialBlock:
    """The one multinomial over all count columns."""

    kind = "multinomial"

    def __init__(self, columns: list[str], smoothing: Any) -> None:
        self.columns = list(columns)
        self.table = CountTable(len(self.columns), smoothing)

    def accumulate(self, frame: pd.DataFrame, y: np.ndarray, w: np.ndarray, n_classes: int) -> None:
        x, _ = counts_matrix(frame, self.columns)
        self.table.add(x, y, w, n_classes)

    def expand_classes(self, take: np.ndarray) -> None:
        self.table.expand_classes(take)

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        return self.table.joint_log(counts_matrix(frame, self.columns)[0])

    def factors(self, row: Mapping[str, Any], n_classes: int) -> list[Factor]:
        x = np.array([scalar_number(row.get(col), col, "a count (multinomial)") for col in self.columns])
        if (x < 0).any():
            col = self.columns[int(np.flatnonzero(x < 0)[0])]
            raise DataError(f"Column {col!r} is a count (multinomial) but the value is {row.get(col)!r}; counts must be >= 0.")
        log_theta = self.table.log_probabilities()
        out = []
        for a, col in enumerate(self.columns):
            value = row.get(col)
            if np.isnan(x[a]):
                out.append(Factor.missing(col, self.kind, value, n_classes))
            elif not self.table.defined():
                out.append(Factor.skipped(col, self.kind, value, UNDEFINED, n_classes,
                                          "some class has no counts at all and l = 0 gives 0/0"))
            else:
                log = np.zeros(n_classes) if x[a] == 0 else x[a] * log_theta[a]
                out.append(Factor(col, self.kind, value, USED, log, self._fractions(a, x[a], n_classes),
                                  f"theta^{x[a]:g}"))
        return out

    def _fractions(self, a: int, count: float, n_classes: int) -> tuple[Fraction | None, ...] | None:
        if not float(count).is_integer() or count > 1000:
            return None
        thetas = [self.table.fraction(a, c) for c in range(n_classes)]
        return tuple(None if t is None else t ** int(count) for t in thetas)

    def count_table(self, column: str, classes: list[Any]) -> pd.Series:
        return pd.Series(self.table.counts[self.columns.index(column)], index=classes, name=column)

    def probability_table(self, classes: list[Any]) -> pd.DataFrame:
        return pd.DataFrame(self.table.probabilities(), index=pd.Index(self.columns, name="feature"), columns=classes)

    def sample(self, y: np.ndarray, rng: np.random.Generator, lengths: np.ndarray) -> dict[str, np.ndarray]:
        theta = np.nan_to_num(self.table.probabilities())
        draws = np.array([rng.multinomial(n, theta[:, c] / theta[:, c].sum()) for n, c in zip(lengths, y)])
        draws = draws.reshape(len(y), len(self.columns))
        return {col: draws[:, a] for a, col in enumerate(self.columns)}

    def mean_length(self, class_rows: np.ndarray) -> np.ndarray:
        """Average total count per row of each class (for sampling document lengths)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.nan_to_num(self.table.counts.sum(axis=0) / class_rows)

    def state(self) -> dict[str, Any]:
        return {"counts": self.table.counts.tolist()}

    def load_state(self, state: dict[str, Any], n_classes: int) -> None:
        m = np.asarray(state["counts"], dtype=float)
        if m.shape != (len(self.columns), n_classes) or not np.isfinite(m).all() or (m < 0).any():
            raise DataError("The model file's multinomial counts are malformed.")
        invalidate(self.table)
        self.table.counts = m
