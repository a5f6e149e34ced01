"""Each smoothing states what the edges need (issue 34, item 3): its cell formula with the cell's
numbers (checked against the seeds' worked numbers and the library's own value), its parameters,
its control's inputs, the blocks it applies to and how the settings hold it; and one control
draws it on the Model page and in presentation mode."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from apptest_helpers import no_exception, open_page, start
from nbapp import BetaPrior, Lidstone, MEstimate, Settings
from nbapp.blocks.bernoulli import BernoulliBlock
from nbapp.blocks.categorical import CategoricalBlock
from nbapp.smoothing import CellTerms

# tennis, Overcast | No: 0 of the 5 No days, K = 3 outlooks   [seed 000; seed 003]
OVERCAST_NO = (F(0), F(5), 3)
# stolen cars, Red | Yes: 3 of the 5 stolen cars red; value order (negative, positive)   [seed 002]
RED_YES = (F(3), F(5), 2)


def _terms(smoothing, count, n, k, j):
    return CellTerms(count, smoothing.pseudo_fractions(k)[j], n, smoothing.pseudo_total(k))


@pytest.mark.parametrize("smoothing, cell, j, latex, value", [
    (Lidstone(1), OVERCAST_NO, 0, r"\frac{N + l}{n_c + l K} = \frac{0 + 1}{5 + 1 \cdot 3}", F(1, 8)),
    (Lidstone(0), OVERCAST_NO, 0, r"\frac{N + l}{n_c + l K} = \frac{0 + 0}{5 + 0 \cdot 3}", F(0)),
    (MEstimate(2, p=0.5), OVERCAST_NO, 0, r"\frac{N + m\,p}{n_c + m} = \frac{0 + 2 \cdot 0.5}{5 + 2}", F(1, 7)),
    (MEstimate(2, p=0.5, normalised=True), OVERCAST_NO, 0,
     r"\frac{N + m\,p}{n_c + K\,m\,p} = \frac{0 + 2 \cdot 0.5}{5 + 3 \cdot 2 \cdot 0.5}", F(1, 8)),
    (MEstimate(3), OVERCAST_NO, 0, r"\frac{N + m\,\tfrac{1}{K}}{n_c + m} = \frac{0 + 3 \cdot \frac{1}{3}}{5 + 3}",
     F(1, 8)),
    (BetaPrior(2, 1), RED_YES, 1, r"\frac{N + a}{n_c + a + b} = \frac{3 + 2}{5 + 2 + 1}", F(5, 8)),
    (BetaPrior(2, 1), (F(2), F(5), 2), 0, r"\frac{N + b}{n_c + a + b} = \frac{2 + 1}{5 + 2 + 1}", F(3, 8)),
])
def test_each_smoothing_writes_its_cell_formula_with_the_numbers_it_divides(smoothing, cell, j, latex, value):
    count, n, k = cell
    terms = _terms(smoothing, count, n, k, j)
    formula = smoothing.cell_formula(terms, k, j, count="N")
    assert formula.latex() == latex
    assert terms.value == value                    # the numbers written are the ones the estimate is made of
    shown = formula.text().split(" = ")[1].replace("×", "*")
    assert eval(shown) == pytest.approx(float(value))      # noqa: S307 - digits and operators we wrote


def test_the_plain_text_form_reads_without_latex():
    terms = _terms(MEstimate(3), F(0), F(5), 3, 0)
    assert MEstimate(3).cell_formula(terms, 3, count="N").text() == "(N + m/K) / (n_c + m) = (0 + 3 × 1/3) / (5 + 3)"


def test_k_defaults_to_the_pseudo_total_over_the_pseudo_count():
    """A text block's word: l V over l is V (the exercises do not know K otherwise)."""
    terms = CellTerms(F(2), F(1), F(10), F(7))
    assert Lidstone(1).cell_formula(terms).bottom_numbers == r"10 + 1 \cdot 7"
    nothing_added = CellTerms(F(3), F(0), F(9), F(0))              # l = 0 and no K given: the symbol stays
    assert Lidstone(0).cell_formula(nothing_added).bottom_numbers == r"9 + 0 \cdot K"


def test_parameters_and_knobs_name_the_seeds_symbols():
    assert Lidstone(0.5).parameters() == {"l": 0.5}
    assert MEstimate(2, p=0.5).parameters() == {"m": 2, "p": 0.5, "normalised": False}
    assert BetaPrior(2, 1).parameters() == {"a": 2, "b": 1}
    assert [k.name for k in MEstimate(2).knobs()] == ["m", "p_uniform"]          # p = 1/K: no p to type
    assert [k.name for k in MEstimate(2, p=0.5).knobs()] == ["m", "p_uniform", "p", "m_normalised"]
    assert [k.name for k in BetaPrior().knobs()] == ["beta_a", "beta_b"]


def test_a_knob_sets_its_field_and_a_switch_sets_its_two_values():
    m, uniform = MEstimate(2).knobs()
    assert m.set(MEstimate(2), 4.0) == MEstimate(4.0)
    assert uniform.set(MEstimate(2), False) == MEstimate(2, p=0.5)
    given = MEstimate(2, p=0.3)
    assert given.knobs()[1].set(given, True) == MEstimate(2)
    assert given.knobs()[3].set(given, True) == MEstimate(2, p=0.3, normalised=True)
    with pytest.raises(Exception, match="must lie in"):
        given.knobs()[2].set(given, 1.5)


def test_a_beta_prior_applies_to_binary_blocks_only_the_others_everywhere():
    assert BetaPrior().applies_to(BernoulliBlock) and not BetaPrior().applies_to(CategoricalBlock)
    assert Lidstone().applies_to(CategoricalBlock) and MEstimate().applies_to(BernoulliBlock)
    assert BetaPrior.scope == "binary features" and Lidstone.scope is None


def test_settings_hold_a_lidstone_as_alpha_and_the_others_as_smoothing():
    assert Settings(**Lidstone(2).settings_fields()) == Settings(alpha=2)
    assert Settings(**BetaPrior(2, 1).settings_fields()).smoothing == BetaPrior(2, 1)
    assert Settings(alpha=3).model_smoothing == Lidstone(3)
    assert Settings(smoothing=MEstimate(2)).model_smoothing == MEstimate(2)


def test_a_kind_starts_from_the_model_s_l_or_its_own_default():
    assert Lidstone.starting(0.5) == Lidstone(0.5)
    assert MEstimate.starting(0.5) == MEstimate(1.0) and BetaPrior.starting(0.5) == BetaPrior(1.0, 1.0)


def test_an_m_estimate_written_before_the_seed_form_reads_as_normalised():
    assert MEstimate.from_json({"m": 2, "p": 0.5}) == MEstimate(2, p=0.5, normalised=True)
    assert MEstimate.from_json({"m": 2, "p": 0.5, "normalised": False}).normalised is False


# --------------------------------------------------------------------------- one control, two places


def test_the_mode_draws_the_model_page_s_smoothing_with_short_labels_and_the_same_effect():
    at = open_page(start(), "Model")
    at.radio(key="_model_smoothing").set_value("m").run()
    at.checkbox(key="_model_p_uniform").uncheck().run()
    assert at.number_input(key="_model_m").label == "m (equivalent sample size)"
    at.toggle(key="_presentation").set_value(True).run()
    no_exception(at)
    assert [w.label for w in at.number_input if w.key.startswith("_present_model_")] == ["m", "p"]
    assert not [w for w in at.checkbox if w.key.startswith("_present_model_")]     # the numbers only
    at.number_input(key="_present_model_p").set_value(0.25).run()
    assert at.session_state["work"].settings.smoothing == MEstimate(1.0, p=0.25)
    at.toggle(key="_presentation").set_value(False).run()
    assert at.number_input(key="_model_p").value == 0.25                          # the same setting
