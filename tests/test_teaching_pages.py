"""AppTest: the lecture on one screen (issue 14) — the notes' terms, order, positives and exact numbers."""

from __future__ import annotations

import functools
import re

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import PAGES, ROOT, choose_lesson, open_page, start, table
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)

# The pages' titles are not checked here.
open_page = functools.partial(open_page, check_title=False)


def positives(at: AppTest) -> dict:
    """The value that counts as 1 of each Bernoulli column of the work."""
    return {c: s.positive for c, s in at.session_state["work"].specs.items() if s.kind == "bernoulli"}


def latex(at: AppTest) -> list[str]:
    return [el.value.strip().removeprefix("$$").removesuffix("$$").strip() for el in at.latex]


def test_stolen_cars_loads_as_bernoulli_with_the_notes_positives_and_beta_2_1_gives_5_8():
    at = open_page(start("stolen_cars"), "Model")
    assert positives(at) == {"Color": "Red", "Type": "SUV", "Origin": "Domestic"}
    assert at.session_state["work"].kinds["Color"] == "bernoulli"
    assert at.selectbox(key="_positive::0").value == "Red"
    at.radio(key="_model_smoothing").set_value("beta").run()
    at.number_input(key="_model_beta_a").set_value(2.0).run()
    at.number_input(key="_model_beta_b").set_value(1.0).run()
    cpt = table(at, lambda df: df.index.name == "Color")
    assert cpt.loc["Red", "Yes"] == "5/8"
    assert cpt.loc["Red", "No"] == "4/8 = 1/2"
    assert list(cpt.columns) == ["Yes", "No"] and list(cpt.index) == ["Red", "Yellow"]


def test_choosing_another_positive_value_refits_with_it():
    at = open_page(start("stolen_cars"), "Model")
    at.selectbox(key="_positive::0").set_value("Yellow").run()
    assert not at.exception
    assert positives(at)["Color"] == "Yellow"
    assert list(at.session_state["model"].cpt("Color").index) == ["Red", "Yellow"]   # (negative, positive)


def test_m_estimate_shows_seed_003_form_and_the_normalised_one_as_an_option():
    at = open_page(start(), "Model")
    at.radio(key="_model_smoothing").set_value("m").run()
    at.number_input(key="_model_m").set_value(2.0).run()
    at.checkbox(key="_model_p_uniform").uncheck().run()
    at.number_input(key="_model_p").set_value(0.5).run()
    at.selectbox(key="model.cell_value").set_value("Overcast")
    at.selectbox(key="model.cell_class").set_value("No").run()
    assert any(r"\frac{0 + 2 \cdot 0.5}{5 + 2} = \frac{1}{7}" in s for s in latex(at))
    at.checkbox(key="_model_m_normalised").check().run()
    assert any(r"\frac{0 + 2 \cdot 0.5}{5 + 3 \cdot 2 \cdot 0.5} = \frac{1}{8}" in s for s in latex(at))


def test_tennis6_names_the_smoothing_alpha_as_seed_001_does():
    at = open_page(start("tennis6"), "Model")
    assert at.number_input(key="_model_alpha").label.startswith("α")
    at = open_page(start(), "Model")
    assert at.number_input(key="_model_alpha").label.startswith("l ")


def test_explain_shows_the_posterior_and_evidence_as_fractions():
    at = open_page(start(), "Model")
    at.number_input(key="_model_alpha").set_value(1.0).run()
    open_page(at, "Explain")
    eqs = latex(at)
    assert any(r"P(\text{Yes} \mid x)" in s and r"\frac{784}{1389}" in s for s in eqs)
    assert any(s.startswith("P(x) =") and r"\frac{20835}{1328096}" in s for s in eqs)
    totals = table(at, lambda df: "posterior P(c | x)" in df.index)
    assert totals.loc["posterior P(c | x)", "Yes fraction"] == "784/1389"


def test_explain_counts_training_rows_equal_to_x_star_seed_000_eq_1_2():
    at = open_page(start(), "Explain")
    assert "Rows equal to x" not in " ".join(m.value for m in at.markdown)   # counted when opened (issue 25)
    at.session_state["explain.direct"] = True
    at.run()
    shown = " ".join(m.value for m in at.markdown)
    assert "Rows equal to x on every given feature (|B|): **0**" in shown
    assert "0/0 is undefined" in shown


def test_explain_gaussian_factor_is_the_density_with_its_numbers():
    at = open_page(start("gender"), "Explain")
    assert any(r"\mathcal{N}(6;\, 5.855,\, 0.02628)" in s and s.endswith("= 1.65") for s in latex(at))
    factors = table(at, lambda df: "status" in df.columns)
    assert factors.loc["Height", "male counts"] == "N(6; 5.855, 0.02628)"
    assert list(factors.columns)[2] == "male counts"     # male before female, as the notes list them


def test_explain_words_are_one_factor_per_word_with_a_status_per_class():
    at = open_page(start("sentiment"), "Explain")
    words = table(at, lambda df: "word" in df.columns)
    awesome = words[words["word"] == "awesome"].iloc[0]
    assert awesome["positive training count"] == "1" and awesome["negative training count"] == "0"
    assert awesome["positive P(w | c)"] == "2/38 = 1/19" and awesome["negative P(w | c)"] == "1/50"
    assert {"positive status", "negative status"} <= set(words.columns)
    assert any(e.proto.expanded for e in at.expander if "one factor per word" in e.label)


def test_undetermined_posterior_is_worded_as_the_prior_standing_in():
    at = open_page(start("sentiment"), "Model")
    at.number_input(key="_model_alpha").set_value(0.0).run()
    open_page(at, "Explain")
    totals = table(at, lambda df: any("prior in place of 0/0" in str(i) for i in df.index))
    assert totals.loc["prior in place of 0/0", "negative decimal"] == "0.6667"
    assert any("prior" in s and "stands in" in s for s in latex(at))


def test_word_counts_example_is_multinomial_with_powers_of_theta():
    at = open_page(start("word_counts"), "Explain")
    factors = table(at, lambda df: "status" in df.columns)
    assert factors.loc["vote", "sport counts"] == "(2/18)^2"
    assert factors.loc["vote", "politics fraction"] == "49/289"
    assert re.search(r"P\(\\text\{sport\} \\mid x\).*\\frac\{83521\}\{136009\}", " ".join(latex(at)))


def test_model_gaussian_fit_marks_x_star_and_computes_its_density():
    import json

    at = open_page(start("gender"), "Model")
    chart = [json.loads(c.proto.spec) for c in at.get("plotly_chart") if "x*" in c.proto.spec][0]
    names = [t.get("name", "") for t in chart["data"]]
    assert any(n.endswith("at x*") for n in names)
    at.selectbox(key="model.gauss_class").set_value("male").run()
    assert any(r"\mathcal{N}(6;\, 5.855,\, 0.02628)" in s and s.endswith("= 1.65") for s in latex(at))


def test_beta_prior_shows_the_posterior_mode_beside_the_mean():
    at = open_page(start("stolen_cars"), "Model")
    at.radio(key="_model_smoothing").set_value("beta").run()
    at.number_input(key="_model_beta_a").set_value(2.0).run()
    at.number_input(key="_model_beta_b").set_value(1.0).run()
    modes = table(at, lambda df: "mode (N + a − 1)/(n_c + a + b − 2)" in df.columns)
    assert modes.loc["Yes", "mode (N + a − 1)/(n_c + a + b − 2)"] == "2/3"
    assert modes.loc["Yes", "mean (N + a)/(n_c + a + b), used"] == "5/8"
    assert list(modes.index) == ["Yes", "No"]


def test_evaluate_tunes_l_on_development_data_and_scores_the_test_once():
    from nbapp.examples import example, load_example
    from nbapp.lessons.three_way import tune_on_development
    import nbapp

    at = open_page(start("sms_spam"), "Evaluate")
    at.button(key="eval.three_run").click().run()
    assert not at.exception
    ex = example("sms_spam")
    expected = tune_on_development(lambda l: nbapp.NaiveBayes(ex.features, alpha=l), load_example("sms_spam"),
                                   "label")
    chosen = [m.value for m in at.metric if m.label.startswith("Chosen")]
    assert chosen == [f"{expected.chosen:g}"]
    assert [m.value for m in at.metric if m.label.startswith("Test accuracy")] == [f"{expected.test_accuracy:.3f}"]
    assert any(m.label.startswith("Chosen α") for m in at.metric)     # seed 004 names it α


def test_presentation_mode_shows_the_inputs_the_prediction_the_tables_and_the_equations():
    at = open_page(start(), "Explain")
    at.toggle(key="_presentation").set_value(True).run()
    assert not at.exception
    assert at.session_state["work"].choices["app.presentation"] is True
    assert len(at.dataframe) == 0 and len(at.table) == 2           # no row picker; factors and totals
    assert len(at.selectbox) == 4 and at.number_input(key="_present_alpha").value == 0.0   # x and l in view
    assert any(m.value.startswith("Prediction: ") for m in at.markdown)
    assert any(r"P(\text{Yes} \mid x)" in s for s in latex(at))
    assert not at.sidebar.markdown                                  # the sidebar summary is not drawn
    css = [el for el in at.get("html")]
    assert css and all("{user" not in el.proto.body for el in css)
    at.toggle(key="_presentation").set_value(False).run()
    assert len(at.selectbox) >= 4 and len(at.dataframe) == 1 and len(at.table) >= 3   # the row picker, the tables


def test_an_upload_is_shown_in_the_model_s_class_order():
    at = start()
    at.radio(key="_data_mode").set_value("Upload a file").run()
    data = b"colour,label\nred,yes\nblue,no\nred,yes\nblue,yes\nred,no\n"
    at.file_uploader(key="data.uploader").set_value(("up.csv", data, "text/csv")).run()
    open_page(at, "Explain")
    factors = table(at, lambda df: "status" in df.columns)
    assert list(factors.columns)[2:4] == ["no counts", "no fraction"]            # sorted: no before yes


def _lesson(view: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / PAGES["Lessons"]), default_timeout=60)
    at.run()
    return choose_lesson(at, view)


def test_prior_lesson_at_l_0_says_the_evidence_decides_alone_instead_of_inf():
    at = _lesson("prior")                                  # tennis at l = 0: Overcast | No = 0
    shown = " ".join(m.value for m in at.markdown)
    assert "the evidence alone decides" in shown and "inf" not in shown
    assert not any("total evidence" in str(c.proto.spec) for c in at.get("plotly_chart"))


def test_smoothing_lesson_offers_stolen_cars_for_the_beta_curve_and_it_moves():
    at = _lesson("smoothing")
    at.button(key="lessons.smoothing_load_beta").click().run()
    assert at.session_state["work"].source.example == "stolen_cars" and not at.exception
    assert positives(at)["Color"] == "Red"


def test_duplicate_lesson_offers_tennis_with_l_1_and_moves_the_posterior_towards_one():
    at = _lesson("naive")
    at.button(key="lessons.dup_load").click().run()
    assert at.session_state["work"].settings.alpha == 1.0
    dup = [t for t in at.toggle if t.label.startswith("Duplicate a feature")][0]
    dup.set_value(True).run()
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "favours" in captions and "towards 1" in captions


def test_model_page_lists_the_prior_in_the_notes_order():
    at = open_page(start(), "Model")
    priors = table(at, lambda df: "n_c" in df.columns)
    assert list(priors.index) == ["Yes", "No"]


def test_explain_inputs_list_values_in_the_notes_order():
    at = open_page(start(), "Explain")
    assert at.selectbox(key="_q::0").options == ["Sunny", "Overcast", "Rain"]
    assert at.selectbox(key="_q::0").value == "Overcast"


def test_linear_lesson_on_gender_shows_b_gnb_as_a_number():
    import nbapp
    from nbapp.examples import example, load_example

    at = _lesson("linear")
    at.button(key="lessons.boundary_load").click().run()
    assert at.session_state["work"].source.example == "gender" and not at.exception
    ex = example("gender")
    pooled = nbapp.NaiveBayes(ex.features, alpha=ex.alpha, variance="pooled").fit(load_example("gender"),
                                                                                  target="Gender")
    notes = pooled.linear_form().notes_form()
    shown = [m.value for m in at.metric if m.label == "b_GNB"]
    assert shown == [f"{notes.bias:+.4f}"] and shown[0] != "+0.0000"
    weights = [d.value for d in at.dataframe if "w_GNB" in d.value.columns][0]
    assert weights.loc["Height", "w_GNB"] == pytest.approx(notes.weights["Height"])
