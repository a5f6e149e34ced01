"""The board, step by step (issue 23, item 2): seed 000's Eq. 4-8 one line at a time, every
number the library's exact value.

The tennis lines are written out from the notes (seed 003: 9/14 x 2/9 x 3/9 x 3/9 x 3/9 = .005
for yes, 5/14 x 3/5 x 1/5 x 4/5 x 3/5 = .021 for no; seed 000's x* at l = 0: 4/567 and 0), the
rest is checked against the explanation of the same row for every built-in example at l = 0
and l = 1.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.errors import DataError
from nbapp.examples import example, load_example
from nbapp.lessons.board import (DECISION, EVIDENCE, FACTOR, POSTERIOR, PRIOR, SKIPPED, board_steps,
                                 decimal_text)
from mixed_data import TYPES, mixed_frame

SEED_003_X = {"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High", "Wind": "Strong"}
SEED_000_X = {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"}


def fitted(key: str, alpha: float) -> nbapp.NaiveBayes:
    ex = example(key)
    model = nbapp.NaiveBayes(ex.feature_specs(), alpha=alpha)
    return model.fit(load_example(key), target=ex.target, weight=ex.weight)


@pytest.fixture(scope="module")
def models() -> dict:
    return {(ex.key, alpha): fitted(ex.key, alpha) for ex in nbapp.EXAMPLES for alpha in (0, 1)}


def rows_of(key: str) -> list:
    """The example's own query and its first three training rows (penguins' hold missing values)."""
    frame = load_example(key)
    return [example(key).query, *(frame.iloc[i] for i in range(3))]


def product(values) -> F | None:
    total = F(1)
    for v in values:
        if v is None:
            return None
        total *= v
    return total


def line(steps, cls) -> list:
    return [s for s in steps if s.cls == cls and s.kind in (PRIOR, FACTOR, SKIPPED)]


# -- seed 000 / 003: the notes' own lines ---------------------------------------------------------
def test_tennis_at_l_0_writes_seed_003s_products_unreduced_as_the_notes_do(models):
    steps = board_steps(models["tennis14", 0], SEED_003_X, classes=["Yes", "No"])
    yes, no = line(steps, "Yes"), line(steps, "No")
    assert yes[-1].unreduced == "9/14 × 2/9 × 3/9 × 3/9 × 3/9"
    assert yes[-1].reduced == "9/14 × 2/9 × 1/3 × 1/3 × 1/3"
    assert yes[-1].fraction == F(9, 14) * F(2, 9) * F(3, 9) ** 3 == F(1, 189)      # .005
    assert no[-1].unreduced == "5/14 × 3/5 × 1/5 × 4/5 × 3/5"
    assert no[-1].fraction == F(5, 14) * F(3, 5) * F(1, 5) * F(4, 5) * F(3, 5)     # .021
    assert round(yes[-1].decimal, 3) == 0.005 and round(no[-1].decimal, 3) == 0.021
    assert yes[-1].text.endswith("9/14 × 2/9 × 3/9 × 3/9 × 3/9 = 1/189 ≈ 0.005291")
    assert steps[-1].kind == DECISION and steps[-1].cls == "No"


def test_tennis_at_l_0_steps_through_seed_000s_x_star_one_factor_at_a_time(models):
    steps = board_steps(models["tennis14", 0], SEED_000_X, classes=["Yes", "No"])
    yes = line(steps, "Yes")
    assert [s.kind for s in yes] == [PRIOR, FACTOR, FACTOR, FACTOR, FACTOR]
    assert [s.name for s in yes] == ["prior", "Outlook", "Temperature", "Humidity", "Wind"]
    assert [s.factor for s in yes] == [F(9, 14), F(4, 9), F(2, 9), F(1, 3), F(1, 3)]
    assert [s.fraction for s in yes] == [F(9, 14), F(2, 7), F(4, 63), F(4, 189), F(4, 567)]
    assert [s.unreduced.split(" × ")[-1] for s in yes] == ["9/14", "4/9", "2/9", "3/9", "3/9"]
    assert yes[0].text == "P(Yes) = 9/14 ≈ 0.6429"
    no = line(steps, "No")
    assert no[1].unreduced == "5/14 × 0/5" and no[1].fraction == 0 and no[-1].fraction == 0
    evidence, = [s for s in steps if s.kind == EVIDENCE]
    assert evidence.fraction == F(4, 567) and evidence.text == "P(x) = 4/567 + 0 = 4/567 ≈ 0.007055"
    posterior = {s.cls: s.fraction for s in steps if s.kind == POSTERIOR}
    assert posterior == {"Yes": 1, "No": 0}
    assert steps[-1].text == "argmax_c P(c | x) = Yes"


def test_tennis_at_l_1_reaches_784_over_1389(models):
    steps = board_steps(models["tennis14", 1], SEED_000_X, classes=["Yes", "No"], unreduced=False)
    posterior = {s.cls: s.fraction for s in steps if s.kind == POSTERIOR}
    assert posterior == {"Yes": F(784, 1389), "No": F(605, 1389)}
    overcast_no = next(s for s in steps if s.cls == "No" and s.name == "Outlook")
    assert overcast_no.factor == F(1, 8)
    assert overcast_no.terms[0][0].numerator == 1 and overcast_no.terms[0][0].denominator == 8   # (0 + 1) / (5 + 3)


def test_the_unreduced_option_chooses_how_the_lines_are_written(models):
    counted = board_steps(models["tennis14", 0], SEED_003_X, classes=["Yes"])
    reduced = board_steps(models["tennis14", 0], SEED_003_X, classes=["Yes"], unreduced=False)
    humidity = [next(s for s in steps if s.name == "Humidity") for steps in (counted, reduced)]
    assert "× 3/9 = " in humidity[0].text and r"\frac{3}{9}" in humidity[0].latex
    assert "× 1/3 = " in humidity[1].text and r"\frac{1}{3}" in humidity[1].latex
    assert humidity[0].fraction == humidity[1].fraction
    assert humidity[0].unreduced == humidity[1].unreduced and humidity[0].reduced == humidity[1].reduced


def test_by_factor_writes_each_factor_for_every_class_before_the_next(models):
    by_class = board_steps(models["tennis14", 1], SEED_000_X, classes=["Yes", "No"])
    by_factor = board_steps(models["tennis14", 1], SEED_000_X, classes=["Yes", "No"], by="factor")
    assert [(s.name, s.cls) for s in by_factor[:4]] == [("prior", "Yes"), ("prior", "No"),
                                                       ("Outlook", "Yes"), ("Outlook", "No")]
    assert sorted((s.name, str(s.cls), s.text) for s in by_class) == \
        sorted((s.name, str(s.cls), s.text) for s in by_factor)


# -- every built-in example at l = 0 and l = 1: the library's own numbers -------------------------
@pytest.mark.parametrize("alpha", [0, 1])
@pytest.mark.parametrize("key", [ex.key for ex in nbapp.EXAMPLES])
def test_every_step_is_the_explanations_exact_number(models, key, alpha):
    model = models[key, alpha]
    for row in rows_of(key):
        e = model.explain(row)
        steps = board_steps(model, row)
        used = e.used
        for j, cls in enumerate(e.classes):
            mine = line(steps, cls)
            assert mine[0].kind == PRIOR and mine[0].factor == model.prior_fractions().iloc[j]
            assert [s.name for s in mine] == list(e.factors.index)
            for i, step in enumerate(mine):
                so_far = [n for n in e.factors.index[:i + 1] if n in used]
                assert step.fraction == product(e.fractions.loc[so_far].iloc[:, j])
                assert step.log == pytest.approx(float(e.logs.loc[so_far].iloc[:, j].sum()), rel=1e-12, abs=1e-12)
                if step.kind == FACTOR:
                    assert step.factor == e.fractions.loc[step.name].iloc[j]
                if step.kind == SKIPPED:
                    assert step.name not in used and step.factor is None
                if step.fraction is not None:
                    assert step.decimal == float(step.fraction)
            assert mine[-1].fraction == e.joint_fractions.iloc[j]
        evidence, = [s for s in steps if s.kind == EVIDENCE]
        joints = list(e.joint_fractions)
        assert evidence.fraction == (None if None in joints else sum(joints, F(0)))
        assert evidence.log == e.log_evidence
        posterior = [s for s in steps if s.kind == POSTERIOR]
        assert [s.cls for s in posterior] == e.classes
        assert [s.fraction for s in posterior] == list(e.posterior_fractions)
        if not e.undetermined:
            assert [s.decimal for s in posterior] == pytest.approx(list(e.posterior), rel=1e-9, abs=1e-300)
        assert steps[-1].kind == DECISION and steps[-1].cls == e.prediction


@pytest.mark.parametrize("alpha", [0, 1])
@pytest.mark.parametrize("key", [ex.key for ex in nbapp.EXAMPLES])
def test_the_counts_written_for_a_factor_multiply_to_its_fraction(models, key, alpha):
    """Each factor's terms are its type's cell_terms; (count + pseudo) / (n + pseudo_total) to their
    powers give the explanation's fraction exactly, and every rational count factor has them."""
    model = models[key, alpha]
    for row in rows_of(key):
        for step in board_steps(model, row):
            if step.kind not in (PRIOR, FACTOR) or step.factor is None:
                continue
            if step.kind == PRIOR and model.priors != "empirical":
                continue
            assert step.terms, (key, step.name)
            assert product(t.value ** p for t, p in step.terms) == step.factor
            raw = [f"{t.numerator}/{t.denominator}" for t, _ in step.terms]
            assert all(r in step.unreduced for r in raw)


def test_a_missing_value_is_a_skipped_line_that_keeps_the_product(models):
    steps = board_steps(models["penguins", 1], example("penguins").query)
    skipped = [s for s in steps if s.kind == SKIPPED]
    assert [s.name for s in skipped] == ["sex"] * 3
    for s in skipped:
        before = line(steps, s.cls)[-2]
        assert s.fraction == before.fraction and s.log == before.log
        assert "left out of the product (seed 000, Eq. 22)" in s.text


def test_a_density_is_no_fraction_and_its_decimal_is_the_explanations(models):
    model = models["gender", 0]
    e = model.explain({"Height": 6, "Weight": 130, "Foot_Size": 8})
    steps = board_steps(model, {"Height": 6, "Weight": 130, "Foot_Size": 8})
    height = next(s for s in steps if s.name == "Height" and s.cls == "female")
    assert height.factor is None and height.fraction is None and height.terms == ()
    assert math.exp(height.log) == pytest.approx(0.5 * float(e.probabilities.loc["Height", "female"]), rel=1e-12)
    assert f"× {decimal_text(float(e.logs.loc['Height', 'female']))} ≈" in height.text


def test_when_every_class_is_impossible_the_posterior_is_undefined_and_no_class_wins(models):
    model = models["sentiment", 0]
    steps = board_steps(model, example("sentiment").query)
    assert model.explain(example("sentiment").query).undetermined
    assert all(s.fraction is None and "undefined" in s.text for s in steps if s.kind == POSTERIOR)
    assert steps[-1].cls is None and "none" in steps[-1].text


def test_smoothing_other_than_l_writes_its_own_counts(models):
    tennis = fitted("tennis14", 0).with_smoothing(smoothing=nbapp.MEstimate(m=2, p=0.5))
    steps = board_steps(tennis, SEED_000_X, classes=["No"])
    overcast = next(s for s in steps if s.name == "Outlook")
    assert overcast.factor == F(1, 7) and overcast.unreduced.endswith("× 1/7")       # seed 003: (0 + 1) / (5 + 2)
    cars = fitted("stolen_cars", 0).with_smoothing(smoothing=nbapp.BetaPrior(a=2, b=1))
    red = next(s for s in board_steps(cars, example("stolen_cars").query, classes=["Yes"]) if s.name == "Color")
    assert red.factor == F(5, 8) and red.unreduced.endswith("× 5/8")                 # seed 002: (3 + 2) / (5 + 3)


def test_count_and_word_factors_are_written_as_powers_and_products(models):
    steps = board_steps(models["word_counts", 1], example("word_counts").query, classes=["sport"])
    vote = next(s for s in steps if s.name == "vote")
    assert vote.unreduced.endswith("× (2/18)^2") and vote.factor == F(2, 18) ** 2
    words = next(s for s in board_steps(models["sentiment", 1], example("sentiment").query) if s.name == "text")
    assert len(words.terms) > 1 and words.unreduced.endswith(")")


def test_every_feature_type_steps_through_and_adds_up_to_the_joint():
    frame = mixed_frame(3, 300)
    model = nbapp.NaiveBayes(TYPES, alpha=1).fit(frame, target="y", weight="w")
    for i in range(4):
        e = model.explain(frame.iloc[i])
        steps = board_steps(model, frame.iloc[i])
        for j, cls in enumerate(e.classes):
            assert line(steps, cls)[-1].log == pytest.approx(float(e.joint_log.iloc[j]), rel=1e-12)


def test_the_latex_lines_are_balanced(models):
    for key in ("tennis14", "word_counts", "gender", "sentiment"):
        for step in board_steps(models[key, 1], example(key).query):
            depth = 0
            for ch in re.sub(r"\\[{}]", "", step.latex):
                depth += {"{": 1, "}": -1}.get(ch, 0)
                assert depth >= 0, step.latex
            assert depth == 0, step.latex
            assert step.latex.count(r"\left(") == step.latex.count(r"\right)")


def test_the_board_refuses_an_unknown_order_or_class(models):
    with pytest.raises(DataError, match="by 'class' or by 'factor'"):
        board_steps(models["tennis14", 0], SEED_000_X, by="row")
    with pytest.raises(DataError, match="'Maybe' is not a class of this model"):
        board_steps(models["tennis14", 0], SEED_000_X, classes=["Maybe"])


def test_a_long_documents_product_is_written_from_its_log():
    assert decimal_text(-1000.0) == "5.076e-435"
    assert decimal_text(math.log(0.005291005)) == "0.005291"
    assert decimal_text(-np.inf) == "0"
