"""Tables and LaTeX formulas with the model's own numbers substituted (for teaching).

No estimate is computed here: counts, pseudo-counts and probabilities come from the fitted
nbapp model; these helpers only lay them out, e.g.

    P(Outlook = Overcast | No) = (N + l) / (n_c + l K) = (0 + 1) / (5 + 1 * 3) = 1/8
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from nbapp.exact import to_fraction
from nbapp.smoothing import BetaPrior, CellTerms, MEstimate, cell_terms
from ui.text import fmt_fraction, fmt_log, fmt_number, latex_text

__all__ = [
    "feature_kinds", "word_blocks", "show_probabilities", "show_counts", "highlight", "prior_table",
    "prior_latex", "cpt_cell_latex", "gaussian_latex", "probability_label", "num", "count_table", "cell_terms_of",
    "unreduced", "smoothing_formula", "density_latex",
]

ZERO_STYLE = "background-color: #fde2e1; color: #9b1c1c; font-weight: 600"


def feature_kinds(model: Any) -> dict[str, str]:
    """Feature column -> kind, in model order."""
    return {c: spec.kind for c, spec in model.features_.items()}


def word_blocks(kinds: dict[str, str]) -> list[str]:
    """Text columns, and the first column of the multinomial block (it names the whole block)."""
    text = [c for c, k in kinds.items() if k == "text"]
    counts = [c for c, k in kinds.items() if k == "multinomial"]
    return text + counts[:1]


def num(x: Any, *, digits: int = 4, max_digits: int | None = None) -> str:
    r"""A number for LaTeX: Fractions as \frac (as a decimal when longer than ``max_digits``),
    whole numbers without decimals, others with ``digits`` significant digits, 1.5 \times 10^{-7}."""
    if isinstance(x, Fraction):
        if x.denominator == 1 and (max_digits is None or len(str(abs(x.numerator))) <= max_digits):
            return str(x.numerator)
        if max_digits is None or max(len(str(abs(x.numerator))), len(str(x.denominator))) <= max_digits:
            sign = "-" if x < 0 else ""
            return rf"{sign}\frac{{{abs(x.numerator)}}}{{{x.denominator}}}"
    v = float(x)
    if not np.isfinite(v):
        return r"\infty" if v > 0 else (r"-\infty" if v < 0 else r"\text{undefined}")
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    mantissa, _, exponent = f"{v:.{digits}g}".partition("e")
    return mantissa if not exponent else rf"{mantissa} \times 10^{{{int(exponent)}}}"


def show_probabilities(table: pd.DataFrame, view: str) -> pd.DataFrame:
    """A CPT as text: 'exact fractions' (1/8), 'decimals' (0.125) or 'logs' (-2.0794)."""
    if view == "exact fractions":
        return table.map(lambda v: fmt_fraction(v) if v is None or isinstance(v, Fraction) else fmt_number(v))
    if view == "logs":          # the table is already model.cpt(col, log=True)
        return table.astype(float).map(fmt_log)
    return table.astype(float).map(fmt_number)


def show_counts(counts: pd.DataFrame) -> pd.DataFrame:
    """Counts as text: whole numbers without decimals (weights may make them fractional)."""
    return counts.map(lambda v: num(v) if np.isfinite(float(v)) else "–")


def highlight(table: pd.DataFrame, mask: np.ndarray) -> Any:
    """A Styler marking the cells where ``mask`` is True (zero counts or probabilities)."""
    styles = pd.DataFrame(np.where(mask, ZERO_STYLE, ""), index=table.index, columns=table.columns)
    return table.style.apply(lambda _: styles, axis=None)


def prior_table(model: Any) -> pd.DataFrame:
    """Per class: training count n_c, P(c) as a fraction and as a decimal."""
    return pd.DataFrame({
        "n_c": [num(v) for v in model.class_counts_],
        "P(c)": [fmt_fraction(f) for f in model.prior_fractions()],
        "decimal": [fmt_number(p) for p in model.priors_],
    }, index=pd.Index([str(c) for c in model.classes_], name="class"))


def prior_latex(model: Any, cls: Any, config: Any) -> str:
    """P(c) with its numbers: n_c / n, (n_c + a) / (n + K a), 1/K or the given value."""
    i = list(model.classes_).index(cls)
    value = model.prior_fractions().iloc[i]
    shown = num(value, max_digits=8) if value is not None else num(model.priors_.iloc[i])
    left = rf"P({latex_text(cls)})"
    if model.priors == "uniform":
        return rf"{left} = \frac{{1}}{{K}} = \frac{{1}}{{{len(model.classes_)}}} = {shown}"
    if isinstance(model.priors, dict):
        return rf"{left} = {shown} \quad \text{{(given)}}"
    n_c, n = model.class_counts_[i], model.class_counts_.sum()
    if model.prior_alpha:
        a, k = model.prior_alpha, len(model.classes_)
        return (rf"{left} = \frac{{n_c + a}}{{n + K a}} = \frac{{{num(n_c)} + {num(a)}}}"
                rf"{{{num(n)} + {k} \cdot {num(a)}}} = {shown}")
    substituted = rf"\frac{{{num(n_c)}}}{{{num(n)}}}"
    tail = "" if substituted == shown else rf" = {shown}"
    return rf"{left} = \frac{{n_c}}{{n}} = {substituted}{tail}"


def count_table(model: Any, column: str) -> pd.DataFrame:
    """The counts a discrete estimate of ``column`` is smoothed over: its own value x class table
    (categorical, Bernoulli), or the whole block's (a multinomial θ_ac divides by every count of c)."""
    block = model.block_of(column)
    if model.features_[column].kind == "multinomial":
        return pd.concat([model.counts(c) for c in block.columns])
    return model.counts(column)


def cell_terms_of(model: Any, column: str, value: Any, cls: Any) -> CellTerms:
    """The numbers of one smoothed cell, from the model's counts and smoothing (nbapp.cell_terms)."""
    counts = count_table(model, column)
    j = list(counts.index).index(value)
    c = list(counts.columns).index(cls)
    return cell_terms(counts.to_numpy(dtype=float), j, c, model.smoothing_of(column))


def unreduced(terms: CellTerms) -> str:
    """'3/9' as counted, with the reduced form beside it when it differs: '3/9 = 1/3'."""
    if terms.denominator == 0:
        return "0/0 (undefined)"
    raw = f"{_plain(terms.numerator)}/{_plain(terms.denominator)}"
    reduced = fmt_fraction(terms.value)
    return raw if reduced == raw else f"{raw} = {reduced}"


def _plain(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def smoothing_formula(smoothing: Any, k: int, positive: bool | None = None) -> tuple[str, str, str]:
    """(numerator symbol, denominator symbol, name) of the estimate under ``smoothing``, as the
    notes write it: l in seed 000, m and p in seed 003, a and b in seed 002."""
    if isinstance(smoothing, MEstimate):
        p_sym = r"\tfrac{1}{K}" if smoothing.p is None else "p"
        den = r"n_c + K\,m\,p" if smoothing.normalised and smoothing.p is not None else "n_c + m"
        return rf"N_{{v,c}} + m\,{p_sym}", den, "m-estimate (seed 003)"
    if isinstance(smoothing, BetaPrior):
        return (r"N_{v,c} + a" if positive else r"N_{v,c} + b"), "n_c + a + b", "Beta(a, b) prior (seed 002)"
    return r"N_{v,c} + l", "n_c + l K", "Lidstone l (seed 000, Eq. 7)"


def _substituted(smoothing: Any, terms: CellTerms, k: int, positive: bool | None) -> tuple[str, str]:
    """The same formula with the model's numbers: every number here is one the library returned."""
    n_vc, n_c = num(terms.count), num(terms.n)
    if isinstance(smoothing, MEstimate):
        m = to_fraction(smoothing.m)
        p = Fraction(1, k) if smoothing.p is None else to_fraction(smoothing.p)
        shown_p = num(p) if smoothing.p is None else num(float(smoothing.p), digits=12)
        top = rf"{n_vc} + {num(m)} \cdot {shown_p}"
        if smoothing.normalised and smoothing.p is not None:
            return top, rf"{n_c} + {k} \cdot {num(m)} \cdot {shown_p}"
        return top, rf"{n_c} + {num(m)}"
    if isinstance(smoothing, BetaPrior):
        return rf"{n_vc} + {num(terms.pseudo)}", rf"{n_c} + {num(smoothing.a)} + {num(smoothing.b)}"
    return rf"{n_vc} + {num(terms.pseudo)}", rf"{n_c} + {num(terms.pseudo)} \cdot {k}"


def cpt_cell_latex(model: Any, column: str, value: Any, cls: Any, config: Any = None) -> str:
    """One CPT cell (categorical, Bernoulli or a multinomial θ_ac) as its smoothing formula, then
    with the model's counts substituted, then unreduced (3/9) and reduced (1/3) and as a decimal."""
    counts = count_table(model, column)
    k = len(counts.index)
    j = list(counts.index).index(value)
    terms = cell_terms_of(model, column, value, cls)
    smoothing = model.smoothing_of(column)
    positive = j == 1 if model.features_[column].kind == "bernoulli" else None  # value order: negative, positive
    top_sym, den_sym, _ = smoothing_formula(smoothing, k, positive)
    top, den = _substituted(smoothing, terms, k, positive)
    decimal = model.cpt(column).loc[value, cls] if model.features_[column].kind != "multinomial" \
        else model.cpt(column).iloc[0][cls]
    if model.features_[column].kind == "multinomial":
        left = rf"\theta_{{{latex_text(column)}, {latex_text(cls)}}}"
    else:
        left = rf"P({latex_text(column)} = {latex_text(value)} \mid {latex_text(cls)})"
    if terms.value is None:
        return rf"{left} = \frac{{{top_sym}}}{{{den_sym}}} = \frac{{{top}}}{{{den}}} = \text{{undefined }} (0/0)"
    raw = rf"\frac{{{num(terms.numerator)}}}{{{num(terms.denominator)}}}"
    reduced = num(terms.value)
    tail = raw if raw == reduced else rf"{raw} = {reduced}"
    if terms.value.denominator != 1 and np.isfinite(decimal):
        tail += rf" \approx {num(decimal)}"
    return rf"{left} = \frac{{{top_sym}}}{{{den_sym}}} = \frac{{{top}}}{{{den}}} = {tail}"


def gaussian_latex(model: Any, column: str, cls: Any, config: Any = None) -> str:
    """The class mean and variance of one Gaussian feature with its numbers   [seed 000, Eq. 13-14]."""
    row = model.gaussian(column).loc[cls]
    variance = model.features_[column].variance or model.variance
    divisor = {"mle": r"n_c", "unbiased": r"(n_c - 1)", "pooled": r"n \text{ (pooled over classes)}"}.get(variance, "n_c")
    x = latex_text(column)
    c = latex_text(cls)
    mean = (rf"\mu_{{{c}}} = \frac{{1}}{{n_c}} \sum_{{i: y_i = {c}}} {x}_i "
            rf"= {num(row['mean'], digits=6)} \quad (n_c = {num(row['n'])})")
    var = (rf"\sigma^2_{{{c}}} = \frac{{1}}{{{divisor}}} \sum (x_i - \mu_{{{c}}})^2 + \varepsilon "
           rf"= {num(row['var_raw'], digits=6)} + {num(row['epsilon'], digits=3)} = {num(row['var'], digits=6)}")
    density = (r"p(x \mid c) = \frac{1}{\sqrt{2\pi\sigma_c^2}}"
               r"\exp\!\left(-\frac{(x-\mu_c)^2}{2\sigma_c^2}\right)")
    return rf"\begin{{aligned}} &{mean} \\ &{var} \\ &{density} \end{{aligned}}"


def density_latex(model: Any, column: str, x: float, cls: Any, *, digits: int = 4) -> str:
    r"""The density of a Gaussian (or the pmf of a Poisson) feature at x, computed with its numbers:
    N(6; 5.855, 0.0263) = \frac{1}{\sqrt{2\pi \cdot 0.0263}} \exp(...) = 1.65   [seed 000, Eq. 12]."""
    value = float(model.gaussian_density(column, np.array([float(x)]))[cls].iloc[0])
    c = latex_text(cls)
    xs = num(float(x), digits=digits)
    if model.features_[column].kind == "poisson":
        lam = num(float(model.parameters(column).loc[cls, "lambda"]), digits=digits)
        return (rf"P({latex_text(column)} = {xs} \mid {c}) = \frac{{\lambda_c^{{x}} e^{{-\lambda_c}}}}{{x!}} = "
                rf"\frac{{{lam}^{{{xs}}} \cdot e^{{-{lam}}}}}{{{xs}!}} = {num(value, digits=digits)}")
    row = model.gaussian(column).loc[cls]
    mu, var = num(float(row["mean"]), digits=digits), num(float(row["var"]), digits=digits)
    return (rf"p({latex_text(column)} = {xs} \mid {c}) = \mathcal{{N}}({xs};\, {mu},\, {var}) = "
            rf"\frac{{1}}{{\sqrt{{2\pi \cdot {var}}}}}\exp\!\left(-\frac{{({xs} - {mu})^2}}{{2 \cdot {var}}}\right)"
            rf" = {num(value, digits=digits)}")


def probability_label(model: Any, column: str) -> str:
    """What ``top_words``' probability column holds for this block: P(w present | c) for a
    Bernoulli text column (seed 002), else P(w | c) (seed 000, Eq. 10)."""
    bernoulli = getattr(model.features_[column], "event_model", "multinomial") == "bernoulli"
    return "P(w present | c)" if bernoulli else "P(w | c)"
