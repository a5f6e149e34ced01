"""Smoothing as pseudo-counts: every estimator of a discrete distribution here is

    theta_j = (N_j + a_j) / (N + sum_j a_j)

with a pseudo-count a_j per value j. The three smoothings of the seeds differ only
in the pseudo-counts they add:

* Lidstone l (seed 000, Eq. 7 and 10; seed 001): a_j = l.  l = 0 is MLE, l = 1 Laplace.
* m-estimate (seed 003): (n_y + m p) / (n + m), so a_j = m p_j with p_j = 1/K by default.
* Beta(a, b) prior for a binary feature (seed 002): (N_cd + a) / (N_c + a + b), so the
  positive value gets a and the negative value gets b. This is the posterior mean of
  the Beta prior as the seed writes it; a = b = l gives Lidstone again.

Pseudo-counts are also returned as exact fractions, so a CPT cell can be shown as 3/12.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from nbapp.errors import DataError
from nbapp.exact import exact_sum, to_fraction

__all__ = ["Lidstone", "MEstimate", "BetaPrior", "Smoothing", "smoothed", "smoothed_fraction", "exact_denominators",
           "check_alpha"]


@dataclass(frozen=True)
class Lidstone:
    """Add l to every count: (count + l) / (n_c + l K)   [seed 000, Eq. 7]."""

    l: float = 1.0

    def __post_init__(self) -> None:
        _check_non_negative("l", self.l)

    def pseudo_counts(self, k: int) -> np.ndarray:
        return np.full(k, float(self.l))

    def pseudo_fractions(self, k: int) -> list[Fraction]:
        return [to_fraction(self.l)] * k

    def describe(self) -> str:
        return "MLE (l = 0)" if self.l == 0 else f"Lidstone l = {self.l:g}"


@dataclass(frozen=True)
class MEstimate:
    """m-estimate (n_y + m p) / (n + m)   [seed 003]; p = 1/K unless given.

    With the default p = 1/K this is the seed's formula exactly. A given p is the same
    prior estimate for every value; the denominator is then n + K m p (the sum of the
    pseudo-counts), which keeps every CPT column a distribution and equals n + m when p = 1/K.
    """

    m: float
    p: float | None = None

    def __post_init__(self) -> None:
        _check_non_negative("m", self.m)
        if self.p is not None and not 0 <= self.p <= 1:
            raise DataError(f"The m-estimate prior p must lie in [0, 1], not {self.p}.")

    def pseudo_counts(self, k: int) -> np.ndarray:
        p = 1.0 / k if self.p is None else float(self.p)
        return np.full(k, float(self.m) * p)

    def pseudo_fractions(self, k: int) -> list[Fraction]:
        p = Fraction(1, k) if self.p is None else to_fraction(self.p)
        return [to_fraction(self.m) * p] * k

    def describe(self) -> str:
        p = "1/K" if self.p is None else f"{self.p:g}"
        return f"m-estimate m = {self.m:g}, p = {p}"


@dataclass(frozen=True)
class BetaPrior:
    """Beta(a, b) prior on a binary feature: (N_cd + a) / (N_c + a + b)   [seed 002].

    Used for Bernoulli features only (value order: negative, positive); other
    discrete features of the same model keep the model's Lidstone l.
    """

    a: float = 1.0
    b: float = 1.0

    def __post_init__(self) -> None:
        _check_non_negative("a", self.a)
        _check_non_negative("b", self.b)

    def pseudo_counts(self, k: int) -> np.ndarray:
        _check_binary(k)
        return np.array([float(self.b), float(self.a)])

    def pseudo_fractions(self, k: int) -> list[Fraction]:
        _check_binary(k)
        return [to_fraction(self.b), to_fraction(self.a)]

    def describe(self) -> str:
        return f"Beta(a = {self.a:g}, b = {self.b:g}) prior"


Smoothing = Lidstone | MEstimate | BetaPrior


def smoothed(counts: np.ndarray, pseudo: np.ndarray) -> np.ndarray:
    """theta[j, c] = (N_jc + a_j) / (sum_j N_jc + sum_j a_j); NaN where 0/0 (no counts, no smoothing)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (counts + pseudo[:, None]) / (counts.sum(axis=0) + pseudo.sum())


# Pseudo-counts beyond this swamp any count a float64 can hold exactly (2**53 ~ 9e15) and
# make every estimate the uniform one; larger values are a typo, not a choice.
MAX_PSEUDO_COUNT = 1e12


def _check_non_negative(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value) or not 0 <= value <= MAX_PSEUDO_COUNT:
        raise DataError(f"Smoothing {name} must be a number between 0 and {MAX_PSEUDO_COUNT:g}, not {value!r}.")


def check_alpha(alpha: object) -> None:
    """A feature's own Lidstone l: None (the model's) or a number as Lidstone accepts it."""
    if alpha is not None:
        _check_non_negative("alpha", alpha)  # type: ignore[arg-type]


def _check_binary(k: int) -> None:
    if k != 2:
        raise DataError("A Beta(a, b) prior smooths binary (Bernoulli) features only.")


def exact_denominators(counts: np.ndarray, pseudo: list[Fraction]) -> list[Fraction]:
    """n_c + sum_j a_j per class (column of counts), exactly: the denominator of every
    smoothed estimate (seed 000, Eq. 7 and 10; seed 003; seed 002; the Dirichlet prior of §2.4)."""
    total = sum(pseudo, Fraction(0))
    return [exact_sum(counts[:, c]) + total for c in range(counts.shape[1])]


def smoothed_fraction(count: float, pseudo: Fraction, denominator: Fraction) -> Fraction | None:
    """(N_j + a_j) / (N + sum a) as an exact fraction; None for 0/0 (no counts, no smoothing)."""
    return None if denominator == 0 else (to_fraction(count) + pseudo) / denominator
