"""Tables and LaTeX formulas with the model's own numbers substituted (for teaching), for what
every feature type shares: numbers and fractions, the class prior, a smoothed cell of a count
table, and the joint, evidence and posterior of an explanation.

No estimate is computed here: counts, pseudo-counts and probabilities come from the fitted
nbapp model; these helpers only lay them out, e.g.

    P(Outlook = Overcast | No) = (N + l) / (n_c + l K) = (0 + 1) / (5 + 1 * 3) = 1/8

What one feature type shows (a Gaussian's density with its numbers, a text column's words) is
its view's, in ``ui/views/``; ``ui.explained`` puts the two together for the Explain page.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np
import pandas as pd

from nbapp.exact import exact_sum, to_fraction
from nbapp.smoothing import BetaPrior, CellTerms, Lidstone, cell_terms
from ui.classes import MAX_SHOWN_CLASSES, labels_of
from ui.text import fmt_fraction, fmt_log, fmt_number, latex_text

__all__ = [
    "show_probabilities", "show_counts", "highlight", "prior_table", "prior_latex", "prior_counts", "num",
    "cell_terms_of", "unreduced", "cell_latex", "cpt_unreduced", "beta_mean_and_mode",
    "evidence_fraction", "joint_fractions", "posterior_fractions", "totals_rows", "exact_or_decimal",
    "fraction_text", "MAX_FRACTION_DIGITS", "underflows", "power_latex", "power_text", "decimal_text",
]

ZERO_STYLE = "background-color: #fde2e1; color: #9b1c1c; font-weight: 600"
#: Fractions longer than this many digits are shown as decimals only: nobody reads them, and the
#: exact products of long documents or wide count blocks reach thousands of digits.
MAX_FRACTION_DIGITS = 40


def num(x: Any, *, digits: int = 4, max_digits: int | None = None) -> str:
    r"""A number for LaTeX: Fractions as \frac (as a decimal when longer than ``max_digits``),
    whole numbers without decimals, others with ``digits`` significant digits, 1.5 \times 10^{-7}."""
    if isinstance(x, Fraction):
        limit = MAX_FRACTION_DIGITS if max_digits is None else max_digits
        if x.denominator == 1 and _digits(x.numerator) <= limit:
            return str(x.numerator)
        if max(_digits(x.numerator), _digits(x.denominator)) <= limit:
            sign = "-" if x < 0 else ""
            return rf"{sign}\frac{{{abs(x.numerator)}}}{{{x.denominator}}}"
    try:
        v = float(x)
    except OverflowError:                 # a Fraction beyond float range: its decimal exponent exactly
        return _huge(x, digits)
    if v == 0 and isinstance(x, Fraction) and x != 0:      # below a double's range: not 0
        return _huge(x, digits)
    if not np.isfinite(v):
        return r"\infty" if v > 0 else (r"-\infty" if v < 0 else r"\text{undefined}")
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    mantissa, _, exponent = f"{v:.{digits}g}".partition("e")
    return mantissa if not exponent else rf"{mantissa} \times 10^{{{int(exponent)}}}"


def _huge(x: Fraction, digits: int) -> str:
    exponent = _digits(x.numerator) - _digits(x.denominator)
    mantissa = float(abs(x) / Fraction(10) ** exponent)
    while mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    while 0 < mantissa < 1:
        mantissa, exponent = mantissa * 10, exponent - 1
    sign = "-" if x < 0 else ""
    return rf"{sign}{mantissa:.{digits}g} \times 10^{{{exponent}}}"


def underflows(e: Any) -> bool:
    """Does a product of the explanation fall below the smallest double (about 1e-308, 4.9e-324
    subnormal) while its log is finite? Then P(c) prod P(x_a | c) and P(x) read 0 as decimals
    although no class is impossible: the step is shown in logs   [seed 004, "Problem 1:
    underflow"; seed 002, log space]."""
    joint, logs = e.joint.to_numpy(), e.joint_log.to_numpy()
    return bool(np.any((joint == 0) & np.isfinite(logs))) or (e.evidence == 0 and np.isfinite(e.log_evidence))


_LN10 = float(np.log(10))


def _power_of_ten(log_value: float, digits: int) -> tuple[str, int]:
    """exp(log_value) as (mantissa, exponent of ten), for numbers a double cannot hold."""
    exponent = int(np.floor(log_value / _LN10))
    mantissa = float(np.exp(log_value - exponent * _LN10))
    text = f"{mantissa:.{digits}g}"
    if float(text) >= 10:                # 9.99996 rounds up to 10
        exponent, text = exponent + 1, f"{mantissa / 10:.{digits}g}"
    return text, exponent


def power_latex(log_value: float, digits: int = 4) -> str:
    r"""e^{log_value} as 1.234 \times 10^{-412}, however small (the decimal would read 0)."""
    mantissa, exponent = _power_of_ten(log_value, digits)
    return rf"{mantissa} \times 10^{{{exponent}}}"


def power_text(log_value: float, digits: int = 4) -> str:
    """e^{log_value} as 1.234e-412 for a table cell, however small."""
    mantissa, exponent = _power_of_ten(log_value, digits)
    return f"{mantissa}e{exponent:+d}"


def decimal_text(value: float, log_value: float) -> str:
    """A probability for a table cell: its decimal, or where it underflows to 0 with a finite log,
    its power of ten from the log."""
    return power_text(log_value) if value == 0 and np.isfinite(log_value) else fmt_number(value)


def _digits(n: int) -> int:
    """Decimal digits of |n|; beyond ~4000 digits (where str() raises in Python 3.11+) from its bit length."""
    n = abs(n)
    return len(str(n)) if n.bit_length() < 13_000 else int(n.bit_length() * 0.30103) + 1


def fraction_text(f: Fraction | None) -> str:
    """A fraction as 'p/q' (the decimal stands beside it); '' when unknown or too long to read."""
    if f is None or max(_digits(f.numerator), _digits(f.denominator)) > MAX_FRACTION_DIGITS:
        return ""
    return fmt_fraction(f)


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


def prior_table(model: Any, classes: list[Any] | None = None) -> pd.DataFrame:
    """Per class (of ``classes``, in that order; all by default): training count n_c, P(c) as a
    fraction and as a decimal."""
    index = pd.Index(model.classes_, dtype=object)
    rows = np.arange(len(index)) if classes is None else index.get_indexer(pd.Index(classes, dtype=object))
    fractions = model.prior_fractions().to_numpy()[rows]
    labels = np.array(labels_of(model.classes_), dtype=object)[rows]     # labels among all the classes
    return pd.DataFrame({
        "n_c": [num(v) for v in model.class_counts_[rows]],
        "P(c)": [fmt_fraction(f) for f in fractions],
        "decimal": [fmt_number(p) for p in model.priors_.to_numpy()[rows]],
    }, index=pd.Index(list(labels), name="class"))


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


def prior_counts(model: Any, cls: Any) -> str:
    """P(c) as counted: n_c/n (or (n_c + a)/(n + K a) with a Dirichlet pseudo-count: Lidstone
    smoothing of the class counts, the library's own terms), 1/K, or "given"."""
    if model.priors == "uniform":
        return f"1/{len(model.classes_)}"
    if isinstance(model.priors, dict):
        return "given"
    i = list(model.classes_).index(cls)
    terms = cell_terms(np.asarray(model.class_counts_, dtype=float)[:, None], i, 0, Lidstone(model.prior_alpha))
    return unreduced(terms).split(" = ")[0]


def cell_terms_of(counts: pd.DataFrame, value: Any, cls: Any, smoothing: Any) -> CellTerms:
    """The numbers of one smoothed cell of a count table (values x classes) under ``smoothing``
    (nbapp.cell_terms)."""
    c = list(counts.columns).index(cls)
    return cell_terms(counts.to_numpy(dtype=float), _position(counts, value), c, smoothing)


def _position(counts: pd.DataFrame, value: Any) -> int:
    """The row of ``value`` in a count table (the library's value order, which pseudo-counts follow)."""
    return counts.index.get_loc(value) if counts.index.is_unique else list(counts.index).index(value)


def unreduced(terms: CellTerms) -> str:
    """'3/9' as counted, with the reduced form beside it when it differs: '3/9 = 1/3'."""
    if terms.denominator == 0:
        return "0/0 (undefined)"
    raw = f"{_plain(terms.numerator)}/{_plain(terms.denominator)}"
    reduced = fmt_fraction(terms.value)
    return raw if reduced == raw else f"{raw} = {reduced}"


def _plain(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def beta_mean_and_mode(counts: pd.DataFrame, prior: BetaPrior) -> pd.DataFrame:
    """Per class, θ = P(x = 1 | c) of a binary feature (its count table: negative, positive) under
    its Beta(a, b) prior: the posterior mean (N + a)/(N + a + b) that the model uses (seed 002's
    boxed formula) beside the posterior's mode (N + a − 1)/(N + a + b − 2), the MAP estimate in the
    strict sense."""
    positive = counts.index[-1]
    rows = {}
    for c, label in zip(counts.columns, labels_of(counts.columns)):
        terms = cell_terms_of(counts, positive, c, prior)
        mode = prior.mode(float(terms.count), float(terms.n))
        rows[label] = {"N (x = 1)": num(terms.count), "n_c": num(terms.n),
                   "mean (N + a)/(n_c + a + b), used": unreduced(terms),
                   "mode (N + a − 1)/(n_c + a + b − 2)": "–" if mode is None else fmt_fraction(mode)}
    return pd.DataFrame.from_dict(rows, orient="index")


def cell_latex(counts: pd.DataFrame, value: Any, cls: Any, smoothing: Any, *, left: str, decimal: float) -> str:
    """One smoothed cell as its smoothing formula, then with the counts substituted (both as the
    smoothing writes them, nbapp.smoothing), then unreduced (3/9) and reduced (1/3) and as a
    decimal; ``left`` is the cell's name in LaTeX."""
    terms = cell_terms_of(counts, value, cls, smoothing)
    formula = smoothing.cell_formula(terms, len(counts.index), _position(counts, value), number=_formula_number)
    if terms.value is None:
        return rf"{left} = {formula.latex()} = \text{{undefined }} (0/0)"
    raw = rf"\frac{{{num(terms.numerator)}}}{{{num(terms.denominator)}}}"
    reduced = num(terms.value)
    tail = raw if raw == reduced else rf"{raw} = {reduced}"
    if terms.value.denominator != 1 and np.isfinite(decimal):
        tail += rf" \approx {num(decimal)}"
    return rf"{left} = {formula.latex()} = {tail}"


def _formula_number(x: Any) -> str:
    """A number inside a smoothing formula: a typed p or a as typed (up to 12 digits), counts exactly."""
    return num(x, digits=12)


def cpt_unreduced(counts: pd.DataFrame, smoothing: Any) -> pd.DataFrame:
    """A count table's estimates as counted: every cell '(N + a)/(n_c + A)' unreduced, then
    reduced ('3/9 = 1/3')."""
    table = counts.to_numpy(dtype=float)
    k = table.shape[0]
    pseudo, extra = smoothing.pseudo_fractions(k), smoothing.pseudo_total(k)
    totals = [exact_sum(table[:, c]) for c in range(table.shape[1])]     # once per class, not per cell
    cells = [[unreduced(CellTerms(to_fraction(table[j, c]), pseudo[j], totals[c], extra))
              for c in range(table.shape[1])] for j in range(k)]
    return pd.DataFrame(cells, index=counts.index, columns=counts.columns)


# ----------------------------------------------------------------------------- Explain, exact end to end


def evidence_fraction(e: Any, joint: pd.Series | None = None) -> Fraction | None:
    """P(x) = sum_c P(c) prod_a P(x_a | c) as a fraction (None if some factor is not rational);
    ``joint`` is ``e.joint_fractions`` when the caller already has it (a product of exact fractions)."""
    joint = list(e.joint_fractions if joint is None else joint)
    return None if any(j is None for j in joint) else sum(joint, Fraction(0))


def joint_fractions(e: Any) -> pd.Series:
    """e.joint_fractions, or None per class when the exact products would be too long to show (their
    denominators' digits add up past a few hundred): a 500-word product is not read, only computed."""
    counted = set(e.used)
    used = [i for i, name in enumerate(e.factors.index) if name in counted]
    denominators = (f.denominator for i in used if e.factor_fractions[i] is not None
                    for f in e.factor_fractions[i] if f is not None)
    # a budget per class shown, not per class: the evidence adds every class's fraction, and a sum
    # of 100,000 fractions of unlike denominators grows with each term; counted until it is spent
    # (issue 31, item 6)
    budget = 4 * MAX_FRACTION_DIGITS * min(max(1, len(e.classes)), MAX_SHOWN_CLASSES)
    if next((True for total in accumulate(map(_digits, denominators)) if total > budget), False):
        return pd.Series([None] * len(e.classes), index=pd.Index(e.classes, dtype=object), dtype=object)
    return e.joint_fractions


def posterior_fractions(joint: pd.Series, evidence: Fraction | None) -> dict[Any, Fraction | None]:
    return {c: None if evidence in (None, 0) else j / evidence for c, j in joint.items()}


def totals_rows(e: Any, classes: list[Any]) -> pd.DataFrame:
    """The joint P(c) prod P(x_a | c), P(x) and the posterior per class, as fraction, decimal and
    log side by side. With P(x) = 0 (every class impossible) the posterior is 0/0: the prior is
    shown in its place and the row says so."""
    joint_f = joint_fractions(e)
    evidence = evidence_fraction(e, joint_f)
    post_f = posterior_fractions(joint_f, evidence)
    posterior_label = "prior in place of 0/0" if e.undetermined else "posterior P(c | x)"
    rows = {"joint P(c)·∏P(x_a | c)": [], "evidence P(x)": [], posterior_label: []}
    columns = []
    for c, label in zip(classes, labels_of(classes)):
        columns += [f"{label} fraction", f"{label} decimal", f"{label} log"]
        rows["joint P(c)·∏P(x_a | c)"] += [fraction_text(joint_f[c]), decimal_text(e.joint[c], e.joint_log[c]),
                                            fmt_log(e.joint_log[c])]
        rows["evidence P(x)"] += [fraction_text(evidence), decimal_text(e.evidence, e.log_evidence),
                                  fmt_log(e.log_evidence)]
        post = post_f[c] if not e.undetermined else None
        log_post = float(e.posterior_logs[e.classes.index(c)]) if not e.undetermined else (
            np.log(e.posterior[c]) if e.posterior[c] > 0 else -np.inf)
        rows[posterior_label] += [fraction_text(post), decimal_text(e.posterior[c], log_post), fmt_log(log_post)]
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


def exact_or_decimal(f: Fraction | None, decimal: float, *, max_digits: int = 10,
                     log: float | None = None) -> str:
    """A fraction with its decimal beside it (\\frac{8}{9} \\approx 0.8889), or the decimal alone;
    a decimal that underflows to 0 while its ``log`` is finite is written from the log,
    e^{-921.4} \\approx 1.2 \\times 10^{-401}."""
    if f is None and decimal == 0 and log is not None and np.isfinite(log):
        return rf"e^{{{log:.4f}}} \approx {power_latex(log)}"
    if f is None:
        return num(decimal)
    shown = num(f, max_digits=max_digits)
    if f.denominator == 1:
        return shown
    near = _near(f, decimal)
    return rf"{shown} \approx {near}" if shown.startswith(r"\frac") else near


def _near(f: Fraction, decimal: float) -> str:
    """The decimal of a fraction that is not whole; where its 4 digits round it to a whole number
    k (1 - 2e-8 reads "1"), k and how far from it: 1 - 2 \\times 10^{-8}, never "1 \\approx 1"
    (issue 33, item 5)."""
    rounded = num(decimal)
    if not rounded.lstrip("-").isdigit():
        return rounded
    k = round(f)
    return rf"{k} {'-' if f < k else '+'} {num(float(abs(f - k)))}"


