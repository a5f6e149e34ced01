"""Smoothing as pseudo-counts: every estimator of a discrete distribution here is

    theta_j = (N_j + a_j) / (N + A)

with a pseudo-count a_j per value j and a pseudo-total A in the denominator (A = sum_j a_j
except for seed 003's m-estimate with a given p, where A = m). The three smoothings of the seeds differ only
in the pseudo-counts they add:

* Lidstone l (seed 000, Eq. 7 and 10; seed 001): a_j = l.  l = 0 is MLE, l = 1 Laplace.
* m-estimate (seed 003): (n_y + m p) / (n + m), so a_j = m p and the denominator adds m
  (the seed's form; with p = 1/K the same as sum_j a_j). ``normalised=True`` adds
  sum_j a_j = K m p instead, so every CPT column sums to 1 whatever p.
* Beta(a, b) prior for a binary feature (seed 002): (N_cd + a) / (N_c + a + b), so the
  positive value gets a and the negative value gets b. This is the posterior mean of
  the Beta prior as the seed writes it; a = b = l gives Lidstone again.

Pseudo-counts are also returned as exact fractions, so a CPT cell can be shown as 3/12.

Each smoothing also says what the edges need of it, so no caller switches on its class: its
formula for one cell in LaTeX with that cell's numbers (:meth:`cell_formula`), its parameters,
the inputs of its control (:class:`Knob`, drawn by ``ui/smoothing_control.py``), the blocks it
applies to (:meth:`applies_to`) and how a model's settings hold it (:meth:`settings_fields`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar

import numpy as np

from nbapp.errors import DataError
from nbapp.exact import exact_sum, to_fraction

__all__ = ["Lidstone", "MEstimate", "BetaPrior", "Smoothing", "CellTerms", "cell_terms", "smoothed", "smoothed_share",
           "CellFormula", "Knob",
           "smoothed_fraction",
           "exact_denominators",
           "check_alpha"]


def plain_number(x: Any) -> str:
    """A number as a formula shows it by default: whole numbers without decimals, others %g."""
    f = to_fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


@dataclass(frozen=True)
class CellFormula:
    r"""One smoothed estimate as its seed writes it, in LaTeX: the symbols (``N_{v,c} + l`` over
    ``n_c + l K``) and the same with the cell's numbers (``3 + 1`` over ``9 + 1 \cdot 3``).

    >>> f = Lidstone(1).cell_formula(CellTerms(Fraction(0), Fraction(1), Fraction(5), Fraction(3)), k=3, count="N")
    >>> f.latex()
    '\\frac{N + l}{n_c + l K} = \\frac{0 + 1}{5 + 1 \\cdot 3}'
    >>> f.text()
    '(N + l) / (n_c + l K) = (0 + 1) / (5 + 1 × 3)'
    """

    top: str
    bottom: str
    top_numbers: str
    bottom_numbers: str

    def latex(self) -> str:
        return rf"\frac{{{self.top}}}{{{self.bottom}}} = \frac{{{self.top_numbers}}}{{{self.bottom_numbers}}}"

    def text(self) -> str:
        """The same in plain text: (N + l) / (n_c + l K) = (0 + 1) / (5 + 1 × 3)."""
        top, bottom, top_n, bottom_n = (_plain_text(part) for part in
                                        (self.top, self.bottom, self.top_numbers, self.bottom_numbers))
        return f"({top}) / ({bottom}) = ({top_n}) / ({bottom_n})"


def _plain_text(latex: str) -> str:
    r"""The few LaTeX commands these formulas use, as plain text: m\,\tfrac{1}{K} -> m/K, \cdot -> ×."""
    text = latex.replace(r"\,\tfrac{1}{K}", "/K").replace(r"\cdot", "×").replace(r"\,", " ")
    return re.sub(r"\\t?frac\{([^{}]*)\}\{([^{}]*)\}", r"\1/\2", text)


@dataclass(frozen=True)
class Knob:
    """One input of a smoothing's control, as the smoothing states it (the app draws it): a number
    of one field, or (``switch``) a check box that sets the field to ``switch[0]`` off or
    ``switch[1]`` on. ``name`` is stable (the app keys its widget by it); a label reads
    ``"{symbol} ({meaning})"``: "m (equivalent sample size)"."""

    name: str
    field: str
    symbol: str
    meaning: str
    value: float | bool
    high: float | None = None
    step: float = 0.5
    switch: tuple[Any, Any] | None = None

    def set(self, smoothing: Any, value: Any) -> Any:
        """``smoothing`` with this input set to ``value`` (refused as the smoothing refuses it)."""
        new = float(value) if self.switch is None else self.switch[bool(value)]
        return dataclasses.replace(smoothing, **{self.field: new})


class _Stated:
    """What every smoothing says of itself besides its pseudo-counts (see the module's docstring)."""

    #: the control's name for it and its title there
    choice: ClassVar[str]
    title: ClassVar[str]
    #: the features it smooths when not all (a Beta prior: binary ones); None: every smoothed block
    scope: ClassVar[str | None] = None
    #: seed 002 calls its posterior mean the MAP estimate: show the posterior's mode beside it
    mode_beside_mean: ClassVar[bool] = False

    @classmethod
    def starting(cls, alpha: float) -> Any:
        """The smoothing a switch to this kind starts from; ``alpha``: the model's l."""
        return cls()

    @classmethod
    def from_json(cls, options: dict[str, Any]) -> Any:
        """The smoothing of its JSON form's options (the model file's, the address's)."""
        return cls(**options)

    def parameters(self) -> dict[str, Any]:
        """Its parameters by name, as the seeds name them: {"l": 1.0}, {"m": 2.0, "p": 0.5, ...}."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def applies_to(self, block: Any) -> bool:
        """Does it smooth ``block`` (a block class)? Else the block keeps the model's Lidstone l."""
        return True

    def settings_fields(self) -> dict[str, Any]:
        """The fields of :class:`nbapp.Settings` that make it the model's smoothing."""
        return {"smoothing": self}

    def note(self, symbol: str = "l") -> str:
        """A sentence the control shows under it ("" for none); ``symbol``: the notes' name of l."""
        return ""

    def rate_pseudo_count(self) -> float:
        """A count's Gamma(a, b) prior where its spec names none: a = b = this (the posterior
        mean of the Poisson rate, blocks/poisson.py); 1 unless the smoothing is a Lidstone l."""
        return 1.0


@dataclass(frozen=True)
class Lidstone(_Stated):
    """Add l to every count: (count + l) / (n_c + l K)   [seed 000, Eq. 7].

    >>> l = Lidstone(1)                  # tennis: 3 of the 5 No days sunny, K = 3 outlooks
    >>> (3 + l.pseudo_fractions(3)[0]) / (5 + l.pseudo_total(3))
    Fraction(1, 2)
    """

    l: float = 1.0

    def __post_init__(self) -> None:
        _check_non_negative("l", self.l)

    def pseudo_counts(self, k: int) -> np.ndarray:
        return np.full(k, float(self.l))

    def pseudo_fractions(self, k: int) -> list[Fraction]:
        return [to_fraction(self.l)] * k

    def pseudo_total(self, k: int) -> Fraction:
        """What the denominator adds: l K."""
        return to_fraction(self.l) * k

    def describe(self) -> str:
        return "MLE (l = 0)" if self.l == 0 else f"Lidstone l = {self.l:g}"

    choice, title = "lidstone", "Lidstone / Laplace (l)"

    @classmethod
    def starting(cls, alpha: float) -> "Lidstone":
        return cls(alpha)

    def settings_fields(self) -> dict[str, Any]:
        """A model's Lidstone l is its ``alpha`` (one way to write it)."""
        return {"alpha": float(self.l), "smoothing": None}

    def rate_pseudo_count(self) -> float:
        """A Poisson rate's prior is Gamma(l, l): l pseudo-counts over l pseudo-rows."""
        return float(self.l)

    def knobs(self) -> tuple[Knob, ...]:
        return (Knob("alpha", "l", "l", "pseudo-count per value; 0 = MLE, 1 = Laplace", float(self.l)),)

    def note(self, symbol: str = "l") -> str:
        return (f"{symbol} = 0 is the maximum-likelihood estimate (MLE): a value never seen with a class "
                "gets probability 0 and rules that class out.") if self.l == 0 else ""

    def cell_formula(self, terms: "CellTerms", k: int | None = None, j: int = 0, *,
                     number: Callable[[Any], str] = plain_number, count: str = "N_{v,c}") -> CellFormula:
        """(N + l) / (n_c + l K) with the cell's numbers   [seed 000, Eq. 7 and 10]; ``k`` the
        number of values (by default the pseudo-total over the pseudo-count), ``j`` the value's
        position, ``number`` how a number is written, ``count`` the symbol of the count."""
        l = number(terms.pseudo)
        return CellFormula(f"{count} + l", "n_c + l K", f"{number(terms.count)} + {l}",
                           rf"{number(terms.n)} + {l} \cdot {_shown_k(terms, k, number)}")


@dataclass(frozen=True)
class MEstimate(_Stated):
    """m-estimate (n_y + m p) / (n + m)   [seed 003]; p = 1/K unless given.

    The default is the seed's formula exactly: each value gets the pseudo-count m p and the
    denominator gets m. With a given p != 1/K a CPT column then sums to (n + K m p) / (n + m),
    not to 1 (the seed estimates each value on its own). ``normalised=True`` divides by n + K m p (the
    sum of the pseudo-counts) instead, so every column is a distribution; with p = 1/K both
    forms are the same number.

    >>> est = MEstimate(m=2, p=0.5)      # tennis, Overcast | No: 0 of the 5 No days   [seed 003]
    >>> (0 + est.pseudo_fractions(3)[0]) / (5 + est.pseudo_total(3))
    Fraction(1, 7)
    """

    m: float = 1.0
    p: float | None = None
    normalised: bool = False

    choice, title = "m", "m-estimate"

    def __post_init__(self) -> None:
        _check_non_negative("m", self.m)
        if self.p is not None and not 0 <= self.p <= 1:
            raise DataError(f"The m-estimate prior p must lie in [0, 1], not {self.p}.")
        if not isinstance(self.normalised, bool):
            raise DataError(f"MEstimate normalised must be True or False, not {self.normalised!r}.")

    def pseudo_counts(self, k: int) -> np.ndarray:
        p = 1.0 / k if self.p is None else float(self.p)
        return np.full(k, float(self.m) * p)

    def pseudo_fractions(self, k: int) -> list[Fraction]:
        p = Fraction(1, k) if self.p is None else to_fraction(self.p)
        return [to_fraction(self.m) * p] * k

    def pseudo_total(self, k: int) -> Fraction:
        """What the denominator adds: m (seed 003), or K m p when normalised."""
        if self.normalised or self.p is None:
            return sum(self.pseudo_fractions(k), Fraction(0))
        return to_fraction(self.m)

    def describe(self) -> str:
        p = "1/K" if self.p is None else f"{self.p:g}"
        form = ", normalised (n + K m p)" if self._normalises else ""
        return f"m-estimate m = {self.m:g}, p = {p}{form}"

    @property
    def _normalises(self) -> bool:
        """Is the denominator n + K m p rather than the seed's n + m? (The same with p = 1/K.)"""
        return self.normalised and self.p is not None

    @classmethod
    def from_json(cls, options: dict[str, Any]) -> "MEstimate":
        """Forms written before seed 003's exact form existed divided by n + K m p."""
        return cls(**{"normalised": True, **options})

    def knobs(self) -> tuple[Knob, ...]:
        """m, whether p = 1/K, and for a given p its value and whether to normalise."""
        knobs = (Knob("m", "m", "m", "equivalent sample size", float(self.m)),
                 Knob("p_uniform", "p", "p = 1/K", "uniform prior estimate", self.p is None, switch=(0.5, None)))
        if self.p is None:
            return knobs
        return (*knobs, Knob("p", "p", "p", "prior estimate of each value", float(self.p), high=1.0, step=0.05),
                Knob("m_normalised", "normalised", "normalise", "divide by n + K m p: every column sums to 1",
                     bool(self.normalised), switch=(False, True)))

    def note(self, symbol: str = "l") -> str:
        if self._normalises:
            return "(n_y + m p) / (n + K m p), normalised so each column sums to 1."
        return "(n_y + m p) / (n + m) (seed 003 exactly), for every discrete feature, text and count blocks included."

    def cell_formula(self, terms: "CellTerms", k: int | None = None, j: int = 0, *,
                     number: Callable[[Any], str] = plain_number, count: str = "N_{v,c}") -> CellFormula:
        """(N + m p) / (n_c + m) with the cell's numbers, p = 1/K unless given   [seed 003]; or
        normalised, / (n_c + K m p). Arguments as :meth:`Lidstone.cell_formula`'s."""
        k_shown = _shown_k(terms, k, number)
        m = number(to_fraction(self.m))
        p = rf"\frac{{1}}{{{k_shown}}}" if self.p is None else number(float(self.p))
        top = (f"{count} + m\\,\\tfrac{{1}}{{K}}" if self.p is None else f"{count} + m\\,p",
               rf"{number(terms.count)} + {m} \cdot {p}")
        if self._normalises:
            return CellFormula(top[0], r"n_c + K\,m\,p", top[1],
                               rf"{number(terms.n)} + {k_shown} \cdot {m} \cdot {p}")
        return CellFormula(top[0], "n_c + m", top[1], f"{number(terms.n)} + {m}")


@dataclass(frozen=True)
class BetaPrior(_Stated):
    """Beta(a, b) prior on a binary feature: (N_cd + a) / (N_c + a + b)   [seed 002].

    Used for Bernoulli features only (value order: negative, positive); other
    discrete features of the same model keep the model's Lidstone l.

    >>> beta = BetaPrior(a=2, b=1)       # stolen cars: 3 of the 5 stolen cars red   [seed 002]
    >>> (3 + beta.pseudo_fractions(2)[1]) / (5 + beta.pseudo_total(2))
    Fraction(5, 8)
    """

    a: float = 1.0
    b: float = 1.0

    choice, title = "beta", "Beta prior (binary features)"
    scope = "binary features"
    mode_beside_mean = True

    def __post_init__(self) -> None:
        _check_non_negative("a", self.a)
        _check_non_negative("b", self.b)

    def pseudo_counts(self, k: int) -> np.ndarray:
        _check_binary(k)
        return np.array([float(self.b), float(self.a)])

    def pseudo_fractions(self, k: int) -> list[Fraction]:
        _check_binary(k)
        return [to_fraction(self.b), to_fraction(self.a)]

    def pseudo_total(self, k: int) -> Fraction:
        """What the denominator adds: a + b."""
        _check_binary(k)
        return to_fraction(self.a) + to_fraction(self.b)

    def mode(self, count: float, n: float) -> Fraction | None:
        """The MAP estimate proper, the mode of the Beta(N + a, n - N + b) posterior:
        (N + a - 1) / (n + a + b - 2)   [seed 002]; None where the posterior has no single mode
        inside [0, 1] (a shape below 1). The seed's boxed (N + a) / (N + a + b), which the model
        uses, is the posterior *mean*: the two agree only as N grows."""
        top = to_fraction(count) + to_fraction(self.a) - 1
        den = to_fraction(n) + to_fraction(self.a) + to_fraction(self.b) - 2
        if top < 0 or den - top < 0 or den <= 0:
            return None
        return top / den

    def describe(self) -> str:
        return f"Beta(a = {self.a:g}, b = {self.b:g}) prior"

    def applies_to(self, block: Any) -> bool:
        """Binary blocks only (the block says: ``accepts_beta``)."""
        return bool(getattr(block, "accepts_beta", False))

    def knobs(self) -> tuple[Knob, ...]:
        return (Knob("beta_a", "a", "a", "pseudo-count of the positive value", float(self.a)),
                Knob("beta_b", "b", "b", "pseudo-count of the negative value", float(self.b)))

    def note(self, symbol: str = "l") -> str:
        return f"(N_cd + a) / (N_c + a + b) for Bernoulli features (seed 002); other features keep {symbol}."

    def cell_formula(self, terms: "CellTerms", k: int | None = None, j: int = 0, *,
                     number: Callable[[Any], str] = plain_number, count: str = "N_{v,c}") -> CellFormula:
        """(N + a) / (n_c + a + b) for the positive value (j = 1), (N + b) / (n_c + a + b) for the
        negative one (j = 0)   [seed 002]. Arguments as :meth:`Lidstone.cell_formula`'s."""
        return CellFormula(f"{count} + {'a' if j == 1 else 'b'}", "n_c + a + b",
                           f"{number(terms.count)} + {number(terms.pseudo)}",
                           f"{number(terms.n)} + {number(float(self.a))} + {number(float(self.b))}")


Smoothing = Lidstone | MEstimate | BetaPrior


def smoothed_share(count: np.ndarray, n: np.ndarray, pseudo: float | np.ndarray, pseudo_total: float) -> np.ndarray:
    """(count + a) / (n + A) elementwise, the one smoothed fraction (Lidstone: a = l, A = l K;
    seed 003's m-estimate: a = m p, A = m; a Beta prior: a and A = a + b); NaN where 0/0.

    >>> float(smoothed_share(np.array(3.0), np.array(5.0), 0.0, 0.0))      # P(Sunny | No), l = 0 [seed 000]
    0.6
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        return (count + pseudo) / (n + pseudo_total)


def smoothed(counts: np.ndarray, pseudo: np.ndarray, total: float | None = None) -> np.ndarray:
    """theta[j, c] = (N_jc + a_j) / (sum_j N_jc + A), A = ``total`` or sum_j a_j; NaN where 0/0."""
    extra = pseudo.sum() if total is None else float(total)
    return smoothed_share(counts, counts.sum(axis=0), pseudo[:, None], extra)


# Pseudo-counts beyond this swamp any count a float64 can hold exactly (2**53 ~ 9e15) and
# make every estimate the uniform one; larger values are a typo, not a choice.
MAX_PSEUDO_COUNT = 1e12


def _check_non_negative(name: str, value: float) -> None:
    # The range test refuses NaN and infinities too, and, unlike np.isfinite, any int (10**30)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not 0 <= value <= MAX_PSEUDO_COUNT:
        raise DataError(f"Smoothing {name} must be a number between 0 and {MAX_PSEUDO_COUNT:g}, not {value!r}.")


def check_alpha(alpha: object) -> None:
    """A feature's own Lidstone l: None (the model's) or a number as Lidstone accepts it."""
    if alpha is not None:
        _check_non_negative("alpha", alpha)  # type: ignore[arg-type]


def _shown_k(terms: "CellTerms", k: int | None, number: Callable[[Any], str]) -> str:
    """K, the number of values that share the pseudo-total: ``k`` when given, else pseudo-total /
    pseudo-count (l K / l, m / (m / K), 2 l / l for a word's presence); the symbol K where both are 0."""
    if k is None and not terms.pseudo:
        return "K"
    return number(k if k is not None else terms.pseudo_total / terms.pseudo)


def _check_binary(k: int) -> None:
    if k != 2:
        raise DataError("A Beta(a, b) prior smooths binary (Bernoulli) features only.")


def exact_denominators(counts: np.ndarray, pseudo: list[Fraction], total: Fraction | None = None) -> list[Fraction]:
    """n_c + A per class (column of counts), exactly, A = ``total`` or sum_j a_j: the denominator
    of every smoothed estimate (seed 000, Eq. 7 and 10; seed 003; seed 002; the Dirichlet prior of §2.4)."""
    total = sum(pseudo, Fraction(0)) if total is None else total
    counts = np.asarray(counts, dtype=float)
    if np.all(counts == np.round(counts)) and np.abs(counts).sum() < 2**53:     # exact_sum's test, once
        return [Fraction(int(n)) + total for n in counts.sum(axis=0)]          # (not once per class)
    return [exact_sum(counts[:, c]) + total for c in range(counts.shape[1])]


def smoothed_fraction(count: float, pseudo: Fraction, denominator: Fraction) -> Fraction | None:
    """(N_j + a_j) / (N + sum a) as an exact fraction; None for 0/0 (no counts, no smoothing)."""
    if denominator == 0:
        return None
    # one normalisation (a gcd) instead of one per operator: a table of 100,000 classes makes
    # this once per cell (issue 31, item 6); the value is the same reduced fraction
    n = to_fraction(count)
    numerator = (n.numerator * pseudo.denominator + pseudo.numerator * n.denominator) * denominator.denominator
    return Fraction(numerator, n.denominator * pseudo.denominator * denominator.numerator)


@dataclass(frozen=True)
class CellTerms:
    """One smoothed estimate with the numbers it is made of, unreduced:
    (count + pseudo) / (n + pseudo_total), e.g. (3 + 0) / (9 + 0) = 3/9 before it reduces to 1/3."""

    count: Fraction
    pseudo: Fraction
    n: Fraction
    pseudo_total: Fraction

    @property
    def numerator(self) -> Fraction:
        return self.count + self.pseudo

    @property
    def denominator(self) -> Fraction:
        return self.n + self.pseudo_total

    @property
    def value(self) -> Fraction | None:
        """The estimate as a (reduced) fraction; None for 0/0."""
        return None if self.denominator == 0 else self.numerator / self.denominator


def cell_terms(counts: np.ndarray, j: int, c: int, smoothing: Smoothing) -> CellTerms:
    """The terms of theta[j, c] = (N_jc + a_j) / (n_c + A) for a count table (values x classes)
    under ``smoothing``   [seed 000, Eq. 7 and 10; seed 003; seed 002]."""
    counts = np.asarray(counts, dtype=float)
    k = counts.shape[0]
    return CellTerms(to_fraction(counts[j, c]), smoothing.pseudo_fractions(k)[j], exact_sum(counts[:, c]),
                     smoothing.pseudo_total(k))
