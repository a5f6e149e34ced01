"""A far value on Explain (issue 33, item 1): a typo such as bill length 1000 mm makes every
product P(c) prod P(x_a | c) smaller than a double holds. Before, the page wrote each joint
"= 0", "P(x) = 0 + 0 + 0 = 0" and then "P(c | x) = 1" without a word; now it says the products
underflow and shows the step in logs (log P(x) by log-sum-exp, the posterior from it), with each
number a power of ten read off its log   [seed 004, "Problem 1: underflow"]."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

import nbapp
from apptest_helpers import clear_caches, open_page, start  # noqa: F401 (autouse fixture)
from ui import explained, formulas

PENGUINS = nbapp.examples.load_example("penguins")
NUMERIC = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]


@pytest.fixture(scope="module")
def far():
    model = nbapp.NaiveBayes({c: "gaussian" for c in NUMERIC}).fit(PENGUINS, "species")
    row = PENGUINS.iloc[0].copy()
    row["bill_length_mm"] = 1000.0
    return model, model.explain(row)


def _powers(text: str) -> list[float]:
    """log10 of every 'm \\times 10^{k}' in a formula."""
    return [np.log10(float(m)) + int(k) for m, k in re.findall(r"([\d.]+) \\times 10\^\{(-?\d+)\}", text)]


def test_a_far_value_underflows_every_product_but_not_its_log(far):
    _, e = far
    assert (e.joint == 0).all() and np.isfinite(e.joint_log).all() and e.evidence == 0
    assert formulas.underflows(e) and not e.undetermined


def test_no_formula_shows_a_product_of_zero_where_its_log_is_finite(far):
    model, e = far
    equations = explained.explain_equations(model, e, e.classes, densities=False)
    text = "\n".join(equations)
    assert not re.search(r"= 0(?![.\d])", text.split(r"\log P(x) =")[0]), text      # no joint, no P(x) "= 0"
    joints = [eq for eq in equations if r"\prod_a P(x_a \mid \text{" in eq and not eq.startswith("P(x)")]
    for c, eq in zip(e.classes, joints):
        assert _powers(eq.split(r"\approx")[-1]) == pytest.approx([e.joint_log[c] / np.log(10)], abs=1e-3)
    evidence = next(eq for eq in equations if eq.startswith("P(x) ="))
    assert _powers(evidence.split(r"\approx")[-1]) == pytest.approx([e.log_evidence / np.log(10)], abs=1e-3)
    lse = next(eq for eq in equations if eq.startswith(r"\log P(x) =") and "m +" not in eq)
    assert float(lse.rsplit("=", 1)[1]) == pytest.approx(logsumexp(e.joint_log.to_numpy()), abs=1e-4)
    posteriors = [eq for eq in equations if re.match(r"P\(\\text\{\w+\} \\mid x\)", eq)]
    assert len(posteriors) == len(e.classes)
    for c, eq in zip(e.classes, posteriors):
        if e.posterior[c] == 0:       # exp(L_c - log P(x)) far below a double: its power of ten
            assert _powers(eq)[-1] == pytest.approx((e.joint_log[c] - e.log_evidence) / np.log(10), abs=1e-3)
        else:
            assert float(eq.rsplit("=", 1)[1]) == pytest.approx(e.posterior[c], abs=1e-4)


def test_the_totals_table_reads_each_underflowed_number_off_its_log(far):
    _, e = far
    table = formulas.totals_rows(e, e.classes)
    for c in e.classes:
        shown = table.loc["joint P(c)·∏P(x_a | c)", f"{c} decimal"]
        assert shown != "0" and np.log10(float(shown.split("e")[0])) + int(shown.split("e")[1]) == pytest.approx(
            e.joint_log[c] / np.log(10), abs=1e-3)
        assert table.loc["posterior P(c | x)", f"{c} log"] != "−∞"      # log P(c | x) is finite
    assert table.loc["evidence P(x)", f"{e.classes[0]} decimal"] != "0"


def test_an_ordinary_row_gets_no_underflow_note_and_no_log_steps(far):
    model, _ = far
    e = model.explain(PENGUINS.iloc[0])
    assert explained.underflow_note(e) is None
    assert not any(eq.startswith(r"\log P(x)") for eq in explained.explain_equations(model, e, e.classes))


def test_the_explain_page_says_the_products_underflow_and_shows_the_logs():
    at = start("penguins")
    at = open_page(at, "Explain")
    bill = next(n for n in at.number_input if n.label.replace("\\", "") == "bill_length_mm")
    bill.set_value(1000.0).run()
    assert not at.exception
    notes = " ".join(i.value for i in at.info)
    assert "smaller than the smallest number" in notes and "log-sum-exp" in notes
    latex = [l.value.strip("$\n") for l in at.latex]
    assert any(l.startswith(r"\log P(x) = m + \log \sum_c") for l in latex), latex
    assert not any(l.endswith("= 0") for l in latex), latex


@pytest.mark.parametrize("f, shown", [
    (1 - Fraction(2, 10**8), r"\frac{49999999}{50000000} \approx 1 - 2 \times 10^{-8}"),
    (Fraction(3 * 10**12 + 1, 3 * 10**12), r"1 + 3.333 \times 10^{-13}"),
    (Fraction(8, 9), r"\frac{8}{9} \approx 0.8889"),
])
def test_a_fraction_whose_decimal_rounds_to_a_whole_number_says_how_far_from_it(f, shown):
    """Issue 33, item 5: 1 - 2e-8 was written "= 1 \\approx 1"."""
    assert formulas.exact_or_decimal(f, float(f)) == shown
