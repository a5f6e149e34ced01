"""Poisson count features: one rate per class   [seed 000, §1: count data; R naivebayes' usepoisson].

A column of whole counts (visits, errors, words of one kind) can be modelled on its own,
unlike the multinomial, where all count columns share one total:

    lambda_c = (sum_{rows of c} x + a) / (n_c + b)
    log P(x | c) = x log lambda_c - lambda_c - log x!

n_c counts the rows of class c where the column is observed. Statistics are n_c and the sum
of x per class: they add over any split of the rows. ``a`` and ``b`` are a Gamma(a, b)
prior's pseudo-counts (the posterior mean of lambda); by default a = b = the model's Lidstone
l, as R naivebayes adds its ``laplace`` to Poisson counts, so a class that never saw a count
keeps lambda > 0; a = b = 0 is the maximum-likelihood mean. Counts must be whole numbers >= 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.special import gammaln

from nbapp.blocks.base import (COUNT, COUNTS, Block, Spec, Stats, check_class_sums, frozen, state_vector,
                               subtract_counts, take_classes)
from nbapp._derived import derived
from nbapp.errors import DataError
from nbapp.exact import to_fraction
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp._numbers import numeric_column, scalar_number
from nbapp.blocks.base import CARD_SPREAD, CardValues, ParameterCount, count_card

__all__ = ["Poisson", "PoissonStats", "PoissonBlock"]

_KIND = "a Poisson count"
_MAX_PSEUDO = 1e12


@dataclass(frozen=True)
class Poisson(Spec):
    """A count column with its own rate per class: lambda_c = (sum x + a) / (n_c + b).

    ``a`` and ``b`` default to the model's Lidstone l (R naivebayes' ``laplace``); 0 and 0 is
    the maximum-likelihood mean count.
    """

    kind: ClassVar[str] = "poisson"
    a: float | None = None
    b: float | None = None

    def __post_init__(self) -> None:
        for name in ("a", "b"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not 0 <= value <= _MAX_PSEUDO):     # NaN and inf fail it too
                raise DataError(f"Poisson {name} must be a number between 0 and {_MAX_PSEUDO:g}, not {value!r}.")


@dataclass(frozen=True, eq=False)
class PoissonStats(Stats):
    """n[c] observed rows and total[c] = sum of the counts, per class."""

    n: np.ndarray
    total: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", frozen(self.n))
        object.__setattr__(self, "total", frozen(self.total))

    def __add__(self, other: "PoissonStats") -> "PoissonStats":
        return PoissonStats(self.n + other.n, self.total + other.total)

    def __sub__(self, other: "PoissonStats") -> "PoissonStats":
        return PoissonStats(subtract_counts(self.n, other.n), subtract_counts(self.total, other.total))

    def reindex_classes(self, take: np.ndarray) -> "PoissonStats":
        return PoissonStats(take_classes(self.n, take, axis=0), take_classes(self.total, take, axis=0))

    def to_state(self) -> dict[str, Any]:
        return {"n": self.n.tolist(), "total": self.total.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "PoissonStats":
        n = state_vector(state.get("n"), n_classes, f"{where}: n")
        total = state_vector(state.get("total"), n_classes, f"{where}: total")
        check_class_sums(total, f"{where}: total")
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            bad = np.flatnonzero((total > 0) & ~np.isfinite(total / n))
        if len(bad):
            c = int(bad[0])
            raise DataError(f"{where}: total[{c}] is {total[c]:g} over n[{c}] = {n[c]:g} rows, a rate beyond any "
                            "number; a total of counts needs the rows that hold them.")
        return cls(n, total)

    def rows_counted(self) -> tuple[str, np.ndarray]:
        return "n", self.n[:, None]


def _counts(values: np.ndarray, column: str, rows: Any) -> np.ndarray:
    """Refuse negative or fractional counts, naming the first row."""
    bad = ~np.isnan(values) & ((values < 0) | (values != np.round(values)))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"Column {column!r} is a Poisson count but row {rows[i]} holds {values[i]:g}; "
                        "Poisson counts are whole numbers >= 0: fix the value or type the column Gaussian.")
    return values


class PoissonBlock(Block):
    """One Poisson count column."""

    kind = "poisson"
    title = "Poisson"
    description = "a count with its own rate per class, P(x | c) = lambda_c^x e^-lambda_c / x!"
    value_kind = COUNT
    baseline = COUNTS
    density_choice = True
    spec_type = Poisson
    stats_type = PoissonStats
    smoothed = False

    @classmethod
    def suits(cls, x: np.ndarray) -> bool:
        """Whole counts >= 0 (and at least one)."""
        return len(x) > 0 and bool(np.all(x >= 0) and np.all(x == np.round(x)))

    @classmethod
    def density_points(cls, grid: np.ndarray) -> np.ndarray:
        """The whole numbers >= 0 of the grid: a count's probabilities live there."""
        return np.unique(np.round(grid[grid >= 0]))

    def __init__(self, columns: Sequence[str], specs: Sequence[Any], settings: Any, stats: PoissonStats) -> None:
        super().__init__(columns, specs, settings, stats)
        spec = self.specs[0]
        default = settings.smoothing.rate_pseudo_count()
        self.a = default if spec.a is None else float(spec.a)
        self.b = default if spec.b is None else float(spec.b)

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> PoissonStats:
        x = _counts(numeric_column(frame[columns[0]], columns[0], _KIND), columns[0], frame.index)
        observed = ~np.isnan(x)
        n = np.bincount(y[observed], weights=w[observed], minlength=n_classes)
        total = np.bincount(y[observed], weights=(w * np.where(observed, x, 0.0))[observed], minlength=n_classes)
        return PoissonStats(n, total)

    @classmethod
    def aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any) -> list[Any]:
        """Per class: n = sum of w over the present counts, the sum of w x, and the rows whose
        count is not a whole number >= 0 (refused)."""
        x, w = table.number(columns[0]), table.weight
        bad = table.either(table.less(x, table.zero()), table.differs(x, table.floor(x)))
        return [table.sums({"n": table.sum(table.where(table.present(x), w)), "total": table.sum(table.times(w, x)),
                            "bad": table.count(bad)})]

    @classmethod
    def from_aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any, results: list[Any],
                        n_classes: int) -> PoissonStats:
        answer = results[0]
        bad = int(answer.per_class("bad").sum())
        if bad:
            raise DataError(f"Column {columns[0]!r} is a Poisson count but {bad:,} row(s) hold a value that is not a "
                            "whole number >= 0; fix the values or type the column Gaussian.")
        return PoissonStats(answer.per_class("n"), answer.per_class("total"))

    # -- parameters ------------------------------------------------------------------------
    @derived
    def rate(self) -> np.ndarray:
        """lambda_c = (sum x + a) / (n_c + b); NaN where 0/0 (a class with no rows and a = b = 0)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self.stats.total + self.a) / (self.stats.n + self.b)

    def defined(self) -> bool:
        return bool(np.isfinite(self.rate()).all())

    def rate_fractions(self) -> list[Fraction | None]:
        a, b = to_fraction(self.a), to_fraction(self.b)
        return [None if to_fraction(n) + b == 0 else (to_fraction(t) + a) / (to_fraction(n) + b)
                for n, t in zip(self.stats.n, self.stats.total)]

    def log_pmf(self, x: np.ndarray) -> np.ndarray:
        """log P(x | c) = x log lambda_c - lambda_c - log x!   (rows x classes; 0 where x is missing)."""
        lam = self.rate()
        observed = ~np.isnan(x)
        x0 = np.where(observed, x, 0.0)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(x0 > 0, x0 * np.log(lam)[None], 0.0)   # 0 log 0 = 0: x = 0 has P = e^-lambda
        return np.where(observed[:, None], term - lam[None] - gammaln(x0 + 1), 0.0)

    # -- prediction ------------------------------------------------------------------------
    def _values(self, frame: pd.DataFrame) -> np.ndarray:
        if self.column not in frame:
            return np.full(len(frame), np.nan)
        return _counts(numeric_column(frame[self.column], self.column, _KIND), self.column, frame.index)

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        if not self.defined():
            return np.zeros((len(frame), n_classes))
        return self.log_pmf(self._values(frame))

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        value = row.get(self.column)
        x = scalar_number(value, self.column, _KIND)
        if np.isnan(x):
            return [Factor.missing(self.column, self.kind, value, len(classes))]
        _counts(np.array([x]), self.column, ["(this example)"])
        if not self.defined():
            return [Factor.skipped(self.column, self.kind, value, UNDEFINED, len(classes),
                                   "some class has no rows and a = b = 0 gives lambda = 0/0")]
        log = self.log_pmf(np.array([x]))[0]
        return [Factor(self.column, self.kind, value, USED, log, None,
                       f"lambda^{x:g} e^-lambda / {x:g}!")]

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The whole numbers up to the largest lambda_c + CARD_SPREAD sqrt(lambda_c), and the rows' counts."""
        rate = self.rate()
        rate = rate[np.isfinite(rate)]
        high = float((rate + CARD_SPREAD * np.sqrt(rate)).max(initial=0.0))
        return count_card(numeric_column(seen, column, _KIND), high)

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """log P(x | c1) / P(x | c0) = x log(lambda_1 / lambda_0) - (lambda_1 - lambda_0) when observed."""
        lam = self.rate()
        x = self._values(frame) if len(frame) else np.zeros(0)
        observed = ~np.isnan(x)
        matrix = np.column_stack([observed.astype(float), np.where(observed, x, 0.0)])
        with np.errstate(divide="ignore", invalid="ignore"):
            weights = np.array([-(lam[1] - lam[0]), np.log(lam[1]) - np.log(lam[0])])
        return sparse.csr_matrix(matrix), [f"{self.column} observed", self.column], weights

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """C: one rate lambda_c per class (the Gamma prior's a and b are settings)."""
        return [ParameterCount((self.column,), n_classes, "C", f"{n_classes}",
                               f"a rate λ_c for each of the C = {n_classes} classes")]

    # -- tables ----------------------------------------------------------------------------
    def parameters(self, column: str, classes: list[Any]) -> pd.DataFrame:
        """Per class: n, the sum of the counts, a, b, lambda (and as a fraction)."""
        return pd.DataFrame(
            {"n": self.stats.n, "sum": self.stats.total, "a": self.a, "b": self.b, "lambda": self.rate(),
             "lambda_fraction": pd.Series(self.rate_fractions(), dtype=object).to_numpy()},
            index=pd.Index(classes, name="class", dtype=object),
        )

    def counts(self, column: str, classes: list[Any]) -> pd.DataFrame:
        return pd.DataFrame({"n": self.stats.n, "sum": self.stats.total}, index=pd.Index(classes, dtype=object)).T

    def density(self, column: str, x: np.ndarray, classes: list[Any]) -> pd.DataFrame:
        """P(x | c) at whole counts x, one column per class."""
        with np.errstate(under="ignore"):
            pmf = np.exp(self.log_pmf(np.asarray(x, dtype=float)))
        return pd.DataFrame(pmf, columns=pd.Index(classes, dtype=object))

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        """The mean count of the fitted mixture, rounded to a whole count."""
        lam = np.nan_to_num(self.rate())
        return float(np.round(np.dot(prior, lam) / prior.sum()))

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        return {self.column: rng.poisson(np.nan_to_num(self.rate())[y])}
