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

from nbapp.smoothing import BetaPrior, Lidstone, MEstimate
from ui.text import fmt_fraction, fmt_log, fmt_number, latex_text

__all__ = [
    "feature_kinds", "word_blocks", "show_probabilities", "show_counts", "highlight", "prior_table",
    "prior_latex", "cpt_cell_latex", "gaussian_latex", "probability_label", "num",
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


def cpt_cell_latex(model: Any, column: str, value: Any, cls: Any, config: Any = None) -> str:
    """One CPT cell as its smoothing formula, then with the model's counts substituted."""
    counts = model.counts(column)
    probs = model.cpt(column, exact=True)
    j = list(counts.index).index(value)
    c = list(counts.columns).index(cls)
    k = len(counts.index)
    n_vc = counts.iloc[j, c]
    n_c = counts.iloc[:, c].sum()
    exact = probs.iloc[j, c]
    decimal = model.cpt(column).iloc[j, c]
    left = rf"P({latex_text(column)} = {latex_text(value)} \mid {latex_text(cls)})"
    result = (num(exact) if exact is not None else r"\text{undefined } (0/0)")
    tail = rf" = {result}" + (rf" \approx {num(decimal)}" if exact is not None and exact.denominator != 1
                               and np.isfinite(decimal) else "")
    smoothing = model.smoothing_of(column)
    if isinstance(smoothing, MEstimate):
        p = Fraction(1, k) if smoothing.p is None else smoothing.p
        p_sym = r"\tfrac{1}{K}" if smoothing.p is None else "p"
        return (rf"{left} = \frac{{N_{{v,c}} + m\,{p_sym}}}{{n_c + m}} = "
                rf"\frac{{{num(n_vc)} + {num(smoothing.m)} \cdot {num(p)}}}{{{num(n_c)} + {num(smoothing.m)}}}"
                + tail)
    if isinstance(smoothing, BetaPrior):
        positive = j == 1  # Bernoulli value order: negative, positive
        pseudo, sym = (smoothing.a, "a") if positive else (smoothing.b, "b")
        return (rf"{left} = \frac{{N_{{v,c}} + {sym}}}{{n_c + a + b}} = "
                rf"\frac{{{num(n_vc)} + {num(pseudo)}}}{{{num(n_c)} + {num(smoothing.a)} + {num(smoothing.b)}}}"
                + tail)
    l = smoothing.l if isinstance(smoothing, Lidstone) else model.alpha
    return (rf"{left} = \frac{{N_{{v,c}} + l}}{{n_c + l K}} = "
            rf"\frac{{{num(n_vc)} + {num(l)}}}{{{num(n_c)} + {num(l)} \cdot {k}}}" + tail)


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


def probability_label(model: Any, column: str) -> str:
    """What ``top_words``' probability column holds for this block: P(w present | c) for a
    Bernoulli text column (seed 002), else P(w | c) (seed 000, Eq. 10)."""
    bernoulli = getattr(model.features_[column], "event_model", "multinomial") == "bernoulli"
    return "P(w present | c)" if bernoulli else "P(w | c)"
