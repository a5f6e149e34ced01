"""A feature type that nbapp does not ship: a log-normal density, written here the way the
README's "Adding a feature type" says, and registered with one line.

It is the proof of issue 22's promise, "one module plus one line": this module is the one
module (its spec, statistics and block), ``register(LogNormalBlock)`` in the fixture below
is the one line, and no file of nbapp, ui/ or pages/ names it. The tests that walk it
through the library are in ``tests/test_new_feature_type.py``; the app's pages (Model,
Explain, Evaluate) are walked by a test module of the app that imports the fixture::

    from new_type import lognormal_type  # noqa: F401  (a pytest fixture: registers the type)

    def test_the_pages_show_a_new_type(lognormal_type): ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from nbapp.blocks import register, unregister
from nbapp.blocks.base import (CARD_SPREAD, NUMBER, OWN, Block, CardValues, Spec, Stats, frozen, number_card,
                               state_vector, subtract_counts, take_classes)
from nbapp.errors import DataError
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp._numbers import numeric_column, scalar_number

KIND = "lognormal"
_LOG_2PI = np.log(2 * np.pi)


# -- 1. the spec: the type's options, with defaults, checked where they are made -------------
@dataclass(frozen=True)
class LogNormal(Spec):
    """log x ~ N(mu_c, sigma_c^2) per class, for x > 0; ``min_variance`` floors sigma_c^2."""

    kind: ClassVar[str] = KIND
    min_variance: float = 1e-9

    def __post_init__(self) -> None:
        v = self.min_variance
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or not v > 0:
            raise DataError(f"LogNormal min_variance must be a number > 0, not {v!r}.")


# -- 2. the statistics: additive, subtractable, in class order, with a JSON state -------------
@dataclass(frozen=True, eq=False)
class LogSums(Stats):
    """Per class: the weighted count n of observed values and the weighted sums of log x and of
    (log x)^2. Sums add and subtract as they are (the Gaussian's moments merge by Chan's formula
    instead, which loses fewer digits; sums keep this module short)."""

    n: np.ndarray
    s1: np.ndarray
    s2: np.ndarray

    def __post_init__(self) -> None:
        for name in ("n", "s1", "s2"):
            object.__setattr__(self, name, frozen(getattr(self, name)))

    def __add__(self, other: "LogSums") -> "LogSums":
        return LogSums(self.n + other.n, self.s1 + other.s1, self.s2 + other.s2)

    def __sub__(self, other: "LogSums") -> "LogSums":
        return LogSums(subtract_counts(self.n, other.n), self.s1 - other.s1, self.s2 - other.s2)

    def reindex_classes(self, take: np.ndarray) -> "LogSums":
        return LogSums(*(take_classes(a, take, axis=0) for a in (self.n, self.s1, self.s2)))

    def to_state(self) -> dict[str, Any]:
        return {"n": self.n.tolist(), "s1": self.s1.tolist(), "s2": self.s2.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "LogSums":
        return cls(state_vector(state.get("n"), n_classes, f"{where}: n"),
                   state_vector(state.get("s1"), n_classes, f"{where}: s1", non_negative=False),
                   state_vector(state.get("s2"), n_classes, f"{where}: s2"))

    def mean(self) -> np.ndarray:
        return np.divide(self.s1, self.n, out=np.zeros(len(self.n)), where=self.n > 0)

    def variance(self) -> np.ndarray:
        """s2 / n - mean^2, the 1/n variance of log x (0 where a class has no value)."""
        raw = np.divide(self.s2, self.n, out=np.zeros(len(self.n)), where=self.n > 0) - self.mean() ** 2
        return np.maximum(raw, 0.0)


def log_values(values: pd.Series | np.ndarray, column: str, rows: Any) -> np.ndarray:
    """log x of a column (NaN where missing); a value <= 0 is refused by row."""
    x = numeric_column(pd.Series(values), column, "log-normal")
    bad = x <= 0
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"Column {column!r} is log-normal but row {rows[i]} holds {x[i]:g}; "
                        "log-normal values are > 0: fix the value or type the column Gaussian.")
    with np.errstate(invalid="ignore"):
        return np.log(x)


# -- 3. the block: what the model and the edges ask of the type -------------------------------
class LogNormalBlock(Block):
    """One log-normal column."""

    kind = KIND
    title = "Log-normal"
    description = "a log-normal density per class (mean and variance of log x)"
    value_kind = NUMBER              # a file's cells are read as numbers; inputs ask for a number
    baseline = OWN                   # logistic regression takes log x (baseline_transform)
    density_choice = True            # offered beside Gaussian and KDE for a positive column
    smoothed = False
    spec_type = LogNormal
    stats_type = LogSums

    @classmethod
    def suits(cls, x: np.ndarray) -> bool:
        return len(x) > 0 and bool((x > 0).all())

    @classmethod
    def baseline_transform(cls, values: pd.Series, spec: Any) -> np.ndarray:
        return log_values(values, str(values.name), values.index)

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> LogSums:
        u = log_values(frame[columns[0]], columns[0], frame.index)
        seen = ~np.isnan(u)
        y, w, u = y[seen], w[seen], u[seen]
        return LogSums(*(np.bincount(y, weights=w * u**p, minlength=n_classes) for p in (0, 1, 2)))

    # parameters, derived from the statistics
    def mean(self) -> np.ndarray:
        return self.stats.mean()

    def variance(self) -> np.ndarray:
        return np.maximum(self.stats.variance(), self.specs[0].min_variance)

    def defined(self) -> bool:
        return bool((self.stats.n > 0).all())

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """log p(x | c) = -log x - log(2 pi sigma^2) / 2 - (log x - mu)^2 / (2 sigma^2), rows x classes."""
        return self._density_of_logs(log_values(np.asarray(x, dtype=float), self.column, range(len(x))))

    def _density_of_logs(self, u: np.ndarray) -> np.ndarray:
        u, var = u[:, None], self.variance()[None]
        return -u - 0.5 * (_LOG_2PI + np.log(var)) - (u - self.mean()[None]) ** 2 / (2 * var)

    # scoring
    def _logs(self, frame: pd.DataFrame) -> np.ndarray:
        if self.column not in frame:
            return np.full(len(frame), np.nan)
        return log_values(frame[self.column], self.column, frame.index)

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        if not self.defined():
            return np.zeros((len(frame), n_classes))
        log = self._density_of_logs(self._logs(frame))
        return np.where(np.isnan(log), 0.0, log)          # a missing value adds nothing [seed 000, Eq. 22]

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        value = row.get(self.column)
        x = scalar_number(value, self.column, "log-normal")
        if np.isnan(x):
            return [Factor.missing(self.column, self.kind, value, len(classes))]
        if not self.defined():
            return [Factor.skipped(self.column, self.kind, value, UNDEFINED, len(classes),
                                   "some class has no value of this column")]
        return [Factor(self.column, self.kind, x, USED, self.log_density(np.array([x]))[0], None,
                       "log-normal density")]

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The rows' values and a grid over exp(mu_c +- CARD_SPREAD sigma_c) of the classes with values."""
        observed = self.stats.n > 0
        mean, sd = self.mean()[observed], np.sqrt(self.variance()[observed])
        low = float(np.exp(mean - CARD_SPREAD * sd).min(initial=np.inf))
        return number_card(numeric_column(seen, column, "log-normal"), low,
                           float(np.exp(mean + CARD_SPREAD * sd).max(initial=-np.inf)))

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """log p(x | c1) / p(x | c0) is linear in (observed, log x, (log x)^2): the -log x cancels."""
        m0, m1 = self.mean()
        v0, v1 = self.variance()
        u = self._logs(frame) if len(frame) else np.zeros(0)
        seen = ~np.isnan(u)
        u0 = np.where(seen, u, 0.0)
        x = np.column_stack([seen.astype(float), u0, u0**2])
        weights = np.array([-0.5 * np.log(v1 / v0) - m1**2 / (2 * v1) + m0**2 / (2 * v0),
                            m1 / v1 - m0 / v0, 1 / (2 * v0) - 1 / (2 * v1)])
        c = self.column
        return sparse.csr_matrix(x), [f"{c} observed", f"log {c}", f"(log {c})^2"], weights

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        return {self.column: np.exp(rng.normal(self.mean()[y], np.sqrt(self.variance()[y])))}

    # what the pages show
    def parameters(self, column: str, classes: list[Any]) -> pd.DataFrame:
        return pd.DataFrame({"n": self.stats.n, "meanlog": self.mean(), "varlog": self.variance()},
                            index=pd.Index(classes, name="class", dtype=object))

    def density(self, column: str, x: np.ndarray, classes: list[Any]) -> pd.DataFrame:
        x = np.asarray(x, dtype=float)
        log = np.full((len(x), len(classes)), -np.inf)
        positive = x > 0
        log[positive] = self.log_density(x[positive])
        with np.errstate(under="ignore"):
            return pd.DataFrame(np.exp(log), columns=pd.Index(classes, dtype=object))

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        """The geometric mean of the fitted mixture's classes, weighted by P(c)."""
        weights = prior * (self.stats.n > 0)
        return float(np.exp(np.dot(weights, self.mean()) / weights.sum())) if weights.sum() > 0 else 1.0


@pytest.fixture
def lognormal_type():
    """The one line: register the type for a test, and forget it afterwards."""
    register(LogNormalBlock)
    yield LogNormalBlock
    unregister(KIND)
