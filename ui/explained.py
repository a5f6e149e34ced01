"""The Explain page's tables and equations: each factor as counted, reduced, as a decimal and as a
log, and the posterior of one example as equations   [seed 000, Eq. 3-5, 12, 22; seed 004].

What is the same for every feature type (prior, joint, evidence, posterior) comes from
``ui.formulas``; what a factor looks like "as counted" and its density with its numbers are
its type's view's (``ui.views``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ui import formulas
from ui.classes import labels_of
from ui.lecture import plain
from ui.text import fmt_log, fmt_number, latex_text, md
from ui.views import view_of
from ui.views.base import short

__all__ = ["underflow_note", "factor_rows", "explain_equations", "factor_equations", "adds_up"]


def factor_rows(model: Any, e: Any, classes: list[Any]) -> pd.DataFrame:
    """The factor table, wide: per class the factor as counted (3/9), reduced (1/3), as a decimal
    and as a natural log, side by side   [seed 000, Eq. 5, 22]."""
    probs, logs, fracs = e.probabilities, e.logs, e.fractions
    labels = labels_of(classes)
    out: dict[str, list[str]] = {"value": [], "status": []}
    for label in labels:
        for part in ("counts", "fraction", "decimal", "log"):
            out[f"{label} {part}"] = []
    tables: dict[Any, pd.DataFrame | None] = {}   # each count table once (a multinomial block's is shared)
    for name, row in e.factors.iterrows():
        used = row["status"] == "used"
        value = row["value"]
        if name == "prior":
            shown, as_counted = "", lambda c: formulas.prior_counts(model, c)
        else:
            view = view_of(model.features_[name].kind)
            counts = None
            if used:
                key = view.counts_key(model, name)
                if key not in tables:
                    tables[key] = view.counts_table(model, name)
                counts = tables[key]
            shown = view.shown_value(model, name, value) if used else short(value)
            as_counted = lambda c, v=view, n=name, x=value, t=counts: v.factor_counts(model, n, x, c, t)  # noqa: E731
        out["value"].append(shown)
        out["status"].append(plain(row["status"]))        # a library status citing the notes obeys the toggle
        for c, label in zip(classes, labels):
            f = fracs.loc[name, c]
            out[f"{label} counts"].append(as_counted(c) if used else "")
            out[f"{label} fraction"].append(formulas.fraction_text(f) if used else "")
            out[f"{label} decimal"].append(fmt_number(probs.loc[name, c]) if used else "")
            out[f"{label} log"].append(fmt_log(logs.loc[name, c]) if used else "")
    return pd.DataFrame(out, index=pd.Index([str(i) for i in e.factors.index], name="factor"))


def explain_equations(model: Any, e: Any, classes: list[Any], *, max_terms: int = 12,
                      densities: bool = True) -> list[str]:
    """The posterior of one example as equations, one string each, every number the explanation's:
    the joint of each class as a product of its factors, each factor's own equations (a density
    with its numbers), the evidence P(x) and the posterior of each class, as fractions where
    rational   [seed 000, Eq. 3-5, 12; seed 004: posterior = likelihood × prior / normalisation]."""
    equations = []
    used = e.used
    joint_f = formulas.joint_fractions(e)                     # exact products: computed once
    evidence = formulas.evidence_fraction(e, joint_f)
    post_f = formulas.posterior_fractions(joint_f, evidence)
    fracs, probs, logs = e.fractions, e.probabilities, e.logs      # properties that build a table on each access
    num, exact_or_decimal = formulas.num, formulas.exact_or_decimal
    for c in classes:
        terms = [num(fracs.loc[n, c], max_digits=6) if fracs.loc[n, c] is not None
                 else formulas.power_latex(logs.loc[n, c]) if probs.loc[n, c] == 0 and np.isfinite(logs.loc[n, c])
                 else num(probs.loc[n, c], max_digits=6) for n in used[:max_terms]]
        product = r" \cdot ".join(terms) + (r" \cdots" if len(used) > max_terms else "")
        cl = latex_text(c)
        equations.append(rf"P({cl})\prod_a P(x_a \mid {cl}) = {product} = "
                         + exact_or_decimal(joint_f[c], float(e.joint[c]), log=float(e.joint_log[c])))
    if densities:
        equations += factor_equations(model, e, classes)
    underflow = formulas.underflows(e)
    joints = " + ".join(num(joint_f[c], max_digits=10) if joint_f[c] is not None
                        else formulas.power_latex(e.joint_log[c]) if underflow and np.isfinite(e.joint_log[c])
                        else num(float(e.joint[c])) for c in classes)
    if len(classes) < len(e.classes):     # a page showing the most probable classes: the sum has them all
        joints += rf" + \cdots \text{{ ({len(e.classes) - len(classes):,} more classes)}}"
    equations.append(rf"P(x) = \sum_c P(c)\prod_a P(x_a \mid c) = {joints} = "
                     + exact_or_decimal(evidence, e.evidence, log=e.log_evidence))
    if underflow and not e.undetermined:
        return equations + _in_logs(e, classes)
    if e.undetermined:
        equations.append(r"P(x) = 0:\ P(c \mid x) = \tfrac{0}{0} \text{ is undefined; the prior } P(c) "
                         r"\text{ stands in for it}")
        return equations
    for c in classes:
        cl = latex_text(c)
        equations.append(rf"P({cl} \mid x) = \frac{{P({cl})\prod_a P(x_a \mid {cl})}}{{P(x)}} = "
                         + exact_or_decimal(post_f[c], float(e.posterior[c])))
    return equations


def factor_equations(model: Any, e: Any, classes: list[Any]) -> list[str]:
    """Each used factor's own equation with its numbers, where its type writes one (a density or
    a pmf: p(x1 = 10.9 | no) = N(10.9; 9.72, 8.809) = ...), per class."""
    probs, logs = e.probabilities, e.logs
    equations = []
    for n in e.used:
        if n == "prior":
            continue
        view = view_of(model.features_[n].kind)
        for c in classes:
            equations += [_off_its_log(eq, probs.loc[n, c], logs.loc[n, c])
                          for eq in view.equations(model, n, e.factors.loc[n, "value"], c)]
    return equations


def _off_its_log(equation: str, value: float, log: float) -> str:
    """A factor's equation that ends "= 0" where the density underflowed but its log is finite
    (a value far out in a Gaussian's tail) ends with the density read off its log instead."""
    if value == 0 and np.isfinite(log) and equation.endswith(" = 0"):
        return equation[: -len("0")] + formulas.exact_or_decimal(None, 0.0, log=float(log))
    return equation


def _in_logs(e: Any, classes: list[Any]) -> list[str]:
    """The evidence and the posterior where the products underflow, as the model computes them:
    log P(x) by log-sum-exp over the joints' logs L_c, then P(c | x) = exp(L_c - log P(x))
    [seed 004, "Problem 1: underflow"; seed 002, log space]."""
    logs = e.joint_log[classes]
    top = float(logs.max())
    shifted = " + ".join(rf"e^{{{float(v) - top:.4f}}}" for v in logs)
    terms = " + ".join(formulas.power_latex(v - top) if np.exp(v - top) == 0 else formulas.num(float(np.exp(v - top)))
                       for v in logs)
    equations = [rf"\log P(x) = m + \log \sum_c e^{{L_c - m}},\ L_c = \log P(c) + \sum_a \log P(x_a \mid c),\ "
                 rf"m = \max_c L_c = {top:.4f}",
                 rf"\log P(x) = {top:.4f} + \log({shifted}) = {top:.4f} + \log({terms}) = {e.log_evidence:.4f}"]
    exact_or_decimal = formulas.exact_or_decimal
    for c in classes:
        cl = latex_text(c)
        log_post = float(e.joint_log[c] - e.log_evidence)
        equations.append(rf"P({cl} \mid x) = e^{{L_{{{cl}}} - \log P(x)}} = e^{{{e.joint_log[c]:.4f} - "
                         rf"({e.log_evidence:.4f})}} = "
                         + exact_or_decimal(None, float(e.posterior[c]), log=log_post))
    return equations


def underflow_note(e: Any) -> str | None:
    """The sentence that says the products underflowed and how the page goes on, or None."""
    if not formulas.underflows(e) or e.undetermined:
        return None
    return ("The products P(c) · ∏ P(x_a | c) are smaller than the smallest number a computer's double holds "
            "(about 1e-308), so as decimals they read 0 and P(x) would read 0 + … + 0 = 0. No class is "
            "impossible: the model adds logs instead of multiplying, so each product is shown as a power of ten "
            "from its log, log P(x) is computed by log-sum-exp and the posterior from it (seed 004, underflow).")


def adds_up(contrib: pd.Series, name: Any = str) -> str:
    """The sentence under the contributions: prior + the features' contributions = the model's
    log-odds, with the numbers   [issue 25, item 4; seed 000, Eq. 17-20]."""
    cls, rivals = contrib.attrs["cls"], contrib.attrs["against"]
    against = md(name(rivals[0])) if len(rivals) == 1 else f"not {md(name(cls))}"
    features = contrib.drop("prior")
    total = float(contrib.attrs["log_odds"])
    summed = float(features.sum(skipna=False))
    return (f"prior {_nats(contrib['prior'])} + contributions {_nats(summed)} = **{_nats(total)}** "
            f"= log P({md(name(cls))} | x) / P({against} | x), the model's log-odds")


def _nats(x: float) -> str:
    """Four decimals, so that the sum can be checked by hand to the last digit (±∞ as fmt_log)."""
    return f"{x:.4f}" if math.isfinite(x) else fmt_log(x)
