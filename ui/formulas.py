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

from nbapp.exact import exact_sum, to_fraction
from nbapp.smoothing import BetaPrior, CellTerms, MEstimate, cell_terms
from ui.lecture import plain
from ui.text import fmt_fraction, fmt_log, fmt_number, latex_text

__all__ = [
    "feature_kinds", "word_blocks", "show_probabilities", "show_counts", "highlight", "prior_table",
    "prior_latex", "cpt_cell_latex", "gaussian_latex", "probability_label", "num", "count_table", "cell_terms_of",
    "unreduced", "beta_mean_and_mode", "smoothing_formula", "density_latex", "cpt_unreduced", "factor_counts", "factor_rows",
    "evidence_fraction", "joint_fractions", "totals_rows", "word_rows", "explain_equations", "fraction_text",
    "MAX_FRACTION_DIGITS",
]

ZERO_STYLE = "background-color: #fde2e1; color: #9b1c1c; font-weight: 600"
#: Fractions longer than this many digits are shown as decimals only: nobody reads them, and the
#: exact products of long documents or wide count blocks reach thousands of digits.
MAX_FRACTION_DIGITS = 40


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
    if model.features_[column].kind == "multinomial":
        block = model.block_of(column)     # its fitted counts_: one row per column of the block
        return pd.DataFrame(block.counts_, index=pd.Index(block.columns, dtype=object),
                            columns=model.counts(column).columns)
    return model.counts(column)


def cell_terms_of(model: Any, column: str, value: Any, cls: Any, counts: pd.DataFrame | None = None) -> CellTerms:
    """The numbers of one smoothed cell, from the model's counts and smoothing (nbapp.cell_terms);
    ``counts`` is :func:`count_table`'s result when the caller already has it."""
    counts = count_table(model, column) if counts is None else counts
    j = counts.index.get_loc(value) if counts.index.is_unique else list(counts.index).index(value)
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


def cpt_unreduced(model: Any, column: str) -> pd.DataFrame:
    """A discrete CPT as counted: every cell '(N + a)/(n_c + A)' unreduced, then reduced ('3/9 = 1/3')."""
    counts = count_table(model, column)
    table = counts.to_numpy(dtype=float)
    smoothing = model.smoothing_of(column)
    k = table.shape[0]
    pseudo, extra = smoothing.pseudo_fractions(k), smoothing.pseudo_total(k)
    totals = [exact_sum(table[:, c]) + extra for c in range(table.shape[1])]     # once per class, not per cell
    cells = [[unreduced(CellTerms(to_fraction(table[j, c]), pseudo[j], totals[c] - extra, extra))
              for c in range(table.shape[1])] for j in range(k)]
    return pd.DataFrame(cells, index=model.cpt(column).index, columns=counts.columns)


def beta_mean_and_mode(model: Any, column: str) -> pd.DataFrame:
    """Per class, θ = P(x = 1 | c) of a Bernoulli feature under its Beta(a, b) prior: the posterior
    mean (N + a)/(N + a + b) that the model uses (seed 002's boxed formula) beside the posterior's
    mode (N + a − 1)/(N + a + b − 2), the MAP estimate in the strict sense."""
    prior = model.smoothing_of(column)
    positive = model.cpt(column).index[-1]
    rows = {}
    for c in model.cpt(column).columns:
        terms = cell_terms_of(model, column, positive, c)
        mode = prior.mode(float(terms.count), float(terms.n))
        rows[c] = {"N (x = 1)": num(terms.count), "n_c": num(terms.n),
                   "mean (N + a)/(n_c + a + b), used": unreduced(terms),
                   "mode (N + a − 1)/(n_c + a + b − 2)": "–" if mode is None else fmt_fraction(mode)}
    return pd.DataFrame.from_dict(rows, orient="index")


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
    r"""The density of a Gaussian (a KDE, or the pmf of a Poisson) feature at x, computed with its numbers:
    N(6; 5.855, 0.0263) = \frac{1}{\sqrt{2\pi \cdot 0.0263}} \exp(...) = 1.65   [seed 000, Eq. 12]."""
    value = float(model.gaussian_density(column, np.array([float(x)]))[cls].iloc[0])
    c = latex_text(cls)
    xs = num(float(x), digits=digits)
    if model.features_[column].kind == "kde":    # the kernel density, floored at eps_c (nbapp.blocks.kde)
        fit = model.parameters(column).loc[cls]
        h = num(float(fit["h"]), digits=digits)
        log_kernel = float(pd.DataFrame(model.block_of(column).kernel_log_density(np.array([float(x)])),
                                        columns=pd.Index(model.classes_, dtype=object))[cls].iloc[0])
        kernel = num(np.exp(log_kernel), digits=digits) if np.exp(log_kernel) > 0 else rf"e^{{{log_kernel:.1f}}}"
        return (rf"p({latex_text(column)} = {xs} \mid {c}) = \max\!\left(\frac{{1}}{{W_c \cdot {h}}}"
                rf"\sum_{{i: y_i = {c}}} w_i\, \varphi\!\left(\frac{{{xs} - x_i}}{{{h}}}\right),\ \varepsilon_c\right) = "
                rf"\max\!\left({kernel},\ {num(float(fit['floor']), digits=3)}\right) = {num(value, digits=digits)}")
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


# ----------------------------------------------------------------------------- Explain, exact end to end


def _prior_counts(model: Any, cls: Any) -> str:
    """P(c) as counted: n_c/n (or (n_c + a)/(n + K a) with a Dirichlet pseudo-count)."""
    if model.priors == "uniform":
        return f"1/{len(model.classes_)}"
    if isinstance(model.priors, dict):
        return "given"
    i = list(model.classes_).index(cls)
    n_c, n = Fraction(model.class_counts_[i]).limit_denominator(), Fraction(model.class_counts_.sum()).limit_denominator()
    a = to_fraction(model.prior_alpha) if model.prior_alpha else Fraction(0)
    return f"{_plain(n_c + a)}/{_plain(n + len(model.classes_) * a)}"


def factor_counts(model: Any, name: str, value: Any, kind: str, cls: Any,
                  counts: pd.DataFrame | None = None) -> str:
    """One used factor for one class as counted or as its density with numbers: '3/9',
    '(7/18)^2', 'N(6; 5.855, 0.02628)', 'λ = 2.5'; '' where the factor has no such form."""
    if name == "prior":
        return _prior_counts(model, cls)
    if kind in ("categorical", "bernoulli"):
        return unreduced(cell_terms_of(model, name, value, cls, counts)).split(" = ")[0]
    if kind == "multinomial":
        raw = unreduced(cell_terms_of(model, name, name, cls, counts)).split(" = ")[0]
        return f"({raw})^{fmt_number(float(value))}"
    if kind == "gaussian":
        row = model.gaussian(name).loc[cls]
        return f"N({fmt_number(float(value))}; {fmt_number(row['mean'])}, {fmt_number(row['var'])})"
    if kind == "poisson":
        return f"Poisson({fmt_number(float(value))}; λ = {fmt_number(model.parameters(name).loc[cls, 'lambda'])})"
    if kind == "text":
        return "∏ words (below)"
    return ""


def factor_rows(model: Any, e: Any, classes: list[Any]) -> pd.DataFrame:
    """The factor table, wide: per class the factor as counted (3/9), reduced (1/3), as a decimal
    and as a natural log, side by side   [seed 000, Eq. 5, 22]."""
    probs, logs, fracs = e.probabilities, e.logs, e.fractions
    kinds = e.factors["kind"]
    out: dict[str, list[str]] = {"value": [], "status": []}
    for c in classes:
        for part in ("counts", "fraction", "decimal", "log"):
            out[f"{c} {part}"] = []
    tables: dict[int, pd.DataFrame] = {}   # one count table per block: a multinomial block's is shared
    for name, row in e.factors.iterrows():
        used = row["status"] == "used"
        counts = None
        if used and kinds[name] in ("categorical", "bernoulli", "multinomial"):
            block = id(model.block_of(name))
            if kinds[name] != "multinomial" or block not in tables:
                tables[block] = count_table(model, name)
            counts = tables[block]
        value = row["value"]
        shown = "" if value is None or (not isinstance(value, str) and pd.isna(value)) else _short(value)
        if kinds[name] == "bernoulli" and used:
            shown += " (= 1)" if str(model.cpt(name).index[-1]) == str(value) else " (= 0)"
        out["value"].append(shown)
        out["status"].append(plain(row["status"]))        # a library status citing the notes obeys the toggle
        for c in classes:
            f = fracs.loc[name, c]
            out[f"{c} counts"].append(factor_counts(model, name, value, kinds[name], c, counts) if used else "")
            out[f"{c} fraction"].append(fraction_text(f) if used else "")
            out[f"{c} decimal"].append(fmt_number(probs.loc[name, c]) if used else "")
            out[f"{c} log"].append(fmt_log(logs.loc[name, c]) if used else "")
    return pd.DataFrame(out, index=pd.Index([str(i) for i in e.factors.index], name="factor"))


def _short(v: Any, limit: int = 40) -> str:
    s = str(v)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def evidence_fraction(e: Any, joint: pd.Series | None = None) -> Fraction | None:
    """P(x) = sum_c P(c) prod_a P(x_a | c) as a fraction (None if some factor is not rational);
    ``joint`` is ``e.joint_fractions`` when the caller already has it (a product of exact fractions)."""
    joint = list(e.joint_fractions if joint is None else joint)
    return None if any(j is None for j in joint) else sum(joint, Fraction(0))


def joint_fractions(e: Any) -> pd.Series:
    """e.joint_fractions, or None per class when the exact products would be too long to show (their
    denominators' digits add up past a few hundred): a 500-word product is not read, only computed."""
    fracs = e.fractions.loc[e.used]
    digits = sum(_digits(f.denominator) for col in fracs.columns for f in fracs[col] if f is not None)
    if digits > 4 * MAX_FRACTION_DIGITS * max(1, len(fracs.columns)):
        return pd.Series([None] * len(e.classes), index=pd.Index(e.classes, dtype=object), dtype=object)
    return e.joint_fractions


def _posterior_fractions(joint: pd.Series, evidence: Fraction | None) -> dict[Any, Fraction | None]:
    return {c: None if evidence in (None, 0) else j / evidence for c, j in joint.items()}


def totals_rows(e: Any, classes: list[Any]) -> pd.DataFrame:
    """The joint P(c) prod P(x_a | c), P(x) and the posterior per class, as fraction, decimal and
    log side by side. With P(x) = 0 (every class impossible) the posterior is 0/0: the prior is
    shown in its place and the row says so."""
    joint_f = joint_fractions(e)
    evidence = evidence_fraction(e, joint_f)
    post_f = _posterior_fractions(joint_f, evidence)
    posterior_label = "prior in place of 0/0" if e.undetermined else "posterior P(c | x)"
    rows = {"joint P(c)·∏P(x_a | c)": [], "evidence P(x)": [], posterior_label: []}
    columns = []
    for c in classes:
        columns += [f"{c} fraction", f"{c} decimal", f"{c} log"]
        rows["joint P(c)·∏P(x_a | c)"] += [fraction_text(joint_f[c]),
                                            fmt_number(e.joint[c]), fmt_log(e.joint_log[c])]
        rows["evidence P(x)"] += [fraction_text(evidence), fmt_number(e.evidence),
                                  fmt_log(e.log_evidence)]
        post = post_f[c] if not e.undetermined else None
        rows[posterior_label] += [fraction_text(post), fmt_number(e.posterior[c]),
                                  fmt_log(np.log(e.posterior[c]) if e.posterior[c] > 0 else -np.inf)]
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


def word_rows(model: Any, column: str, words: pd.DataFrame, classes: list[Any]) -> pd.DataFrame:
    """One row per distinct word of a document: its count in the document, then per class its
    training count, status (used, UNK or unseen, per class: seed 004's UNK is per class),
    P(w | c) as counted and reduced, and the contribution count × log P(w | c)."""
    spec = model.features_[column]
    per_class_unk = getattr(spec, "vocabulary", "global") == "per_class_unk"
    multinomial = getattr(spec, "event_model", "multinomial") == "multinomial" and not getattr(spec, "complement", False)
    counts = model.counts(column)
    exact = multinomial and not per_class_unk      # P(w | c) as counted: the plain multinomial only
    labels = [str(c) for c in classes]
    out: dict[str, list[Any]] = {"word": [], "× in doc": []}
    for c in labels:
        for part in ("training count", "status", "P(w | c)", "decimal", "contribution"):
            out[f"{c} {part}"] = []
    for _, w in words.iterrows():
        term = w["term"]
        known = term in counts.index
        out["word"].append(term)
        out["× in doc"].append(int(w["count"]))
        for c, label in zip(classes, labels):
            n = float(counts.loc[term, c]) if known else 0.0
            if not known:
                status = w["status"]
            elif per_class_unk and n == 0:
                status = "UNK"
            else:
                status = "used"
            log = w.get(f"log[{label}]", np.nan)
            out[f"{label} training count"].append(num(n) if known else "–")
            out[f"{label} status"].append(status)
            if exact and known:
                out[f"{label} P(w | c)"].append(unreduced(cell_terms_of(model, column, term, c, counts)))
            else:
                out[f"{label} P(w | c)"].append("")
            out[f"{label} decimal"].append(fmt_number(np.exp(log)) if np.isfinite(log) else "")
            out[f"{label} contribution"].append(fmt_log(w.get(f"contribution[{label}]", np.nan)))
    return pd.DataFrame(out)


def _exact_or_decimal(f: Fraction | None, decimal: float, *, max_digits: int = 10) -> str:
    """A fraction with its decimal beside it (\\frac{8}{9} \\approx 0.8889), or the decimal alone."""
    if f is None:
        return num(decimal)
    shown = num(f, max_digits=max_digits)
    if not shown.startswith(r"\frac") and not shown.lstrip("-").isdigit():
        return num(decimal)
    return shown if f.denominator == 1 else rf"{shown} \approx {num(decimal)}"


def explain_equations(model: Any, e: Any, classes: list[Any], *, max_terms: int = 12,
                      densities: bool = True) -> list[str]:
    """The posterior of one example as equations, one string each, every number the explanation's:
    the joint of each class as a product of its factors, the density of each Gaussian factor with
    its numbers, the evidence P(x) and the posterior of each class, as fractions where rational
    [seed 000, Eq. 3-5, 12; seed 004: posterior = likelihood × prior / normalisation]."""
    equations = []
    used = e.used
    joint_f = joint_fractions(e)                     # exact products: computed once
    evidence = evidence_fraction(e, joint_f)
    post_f = _posterior_fractions(joint_f, evidence)
    fracs, probs = e.fractions, e.probabilities      # properties that build a table on each access
    for c in classes:
        terms = [num(fracs.loc[n, c] if fracs.loc[n, c] is not None else probs.loc[n, c], max_digits=6)
                 for n in used[:max_terms]]
        product = r" \cdot ".join(terms) + (r" \cdots" if len(used) > max_terms else "")
        cl = latex_text(c)
        equations.append(rf"P({cl})\prod_a P(x_a \mid {cl}) = {product} = "
                         + _exact_or_decimal(joint_f[c], float(e.joint[c])))
    kinds = e.factors["kind"]
    for n in used if densities else []:
        if kinds[n] in ("gaussian", "poisson", "kde"):
            for c in classes:
                equations.append(density_latex(model, n, float(e.factors.loc[n, "value"]), c))
    joints = " + ".join(num(joint_f[c], max_digits=10) if joint_f[c] is not None
                        else num(float(e.joint[c])) for c in classes)
    equations.append(rf"P(x) = \sum_c P(c)\prod_a P(x_a \mid c) = {joints} = "
                     + _exact_or_decimal(evidence, e.evidence))
    if e.undetermined:
        equations.append(r"P(x) = 0:\ P(c \mid x) = \tfrac{0}{0} \text{ is undefined; the prior } P(c) "
                         r"\text{ stands in for it}")
        return equations
    for c in classes:
        cl = latex_text(c)
        equations.append(rf"P({cl} \mid x) = \frac{{P({cl})\prod_a P(x_a \mid {cl})}}{{P(x)}} = "
                         + _exact_or_decimal(post_f[c], float(e.posterior[c])))
    return equations
