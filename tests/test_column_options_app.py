"""Per-column options of the issue-12 feature types on the Model page (KDE bandwidth, discretized
bins and strategy, declared categories and the unseen policy): each one reaches the fitted model,
outlives a page switch, survives the address's work state and comes back from a model file.
The options live in the work as the library's own spec objects."""

from __future__ import annotations

import json

import numpy as np
import pytest

import nbapp
from nbapp.examples import load_example
from apptest_helpers import import_model, open_page, start, table, tables
from ui.remember import decode_work, encode_work
from ui.model_settings import OPTIONS_SECTION
from ui.sources import ModelFile, Table
from ui.work import Work

GENDER = {"Height": "kde", "Weight": "discretized", "Foot_Size": "gaussian"}


def _gender(at):
    at.selectbox(key="_data_example").set_value("gender").run()
    at.session_state["work"] = at.session_state["work"].replace(
        features={**at.session_state["work"].features, **GENDER})
    return _options(open_page(at, "Model"))


def _options(at):
    """The Model page's column options, opened: the section draws its pickers only once opened."""
    at.session_state[OPTIONS_SECTION] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(e.label.startswith("Column options") for e in at.expander)
    return at


def test_the_column_options_are_drawn_only_once_opened():
    at = open_page(start(), "Model")
    assert any(e.label.startswith("Column options") for e in at.expander)
    assert not [w for w in at.multiselect if w.key.startswith("_colopt::")]     # closed: no picker sent
    _options(at)
    assert at.multiselect(key="_colopt::Outlook::categories").value == []          # open: the pickers are there


def test_a_refused_option_opens_the_section_with_its_sentence_beside_the_picker():
    at = open_page(start(), "Model")
    at.session_state["option_errors"] = {"Outlook": ({"categories": ("Sunny",)}, "Outlook: a refused change.")}
    at.run()
    assert at.session_state[OPTIONS_SECTION] is True
    assert at.multiselect(key="_colopt::Outlook::categories")                       # the picker to fix it
    assert any("a refused change" in e.value for e in at.error)


def test_declared_categories_set_k_and_survive_a_page_switch():
    at = _options(open_page(start(), "Model"))             # tennis: Outlook is categorical
    at.number_input(key="_model_alpha").set_value(1.0).run()
    at.text_input(key="_colopt::Outlook::extra").set_value("Foggy").run()
    assert not at.exception, [e.value for e in at.exception]
    model = at.session_state["model"]
    # K = 4 declared (Sunny, Overcast, Rain seen + Foggy): Overcast | No = (0 + 1) / (5 + 1·4) = 1/9
    assert model.features_["Outlook"].categories[-1] == "Foggy"
    assert model.cpt("Outlook").loc["Overcast", "No"] == pytest.approx(1 / 9)
    assert model.cpt("Outlook").loc["Foggy", "Yes"] == pytest.approx(1 / 13)
    at = _options(open_page(open_page(at, "Explain"), "Model"))      # the options outlive a page switch
    assert at.session_state["model"].cpt("Outlook").loc["Overcast", "No"] == pytest.approx(1 / 9)
    assert "Foggy" in at.multiselect(key="_colopt::Outlook::categories").value
    at.multiselect(key="_colopt::Outlook::categories").set_value([]).run()
    assert at.session_state["model"].cpt("Outlook").loc["Overcast", "No"] == pytest.approx(1 / 8)  # K = 3 again


def test_unseen_error_policy_is_a_clear_message_on_explain_and_smooth_is_flagged():
    at = _options(open_page(start(), "Model"))
    at.selectbox(key="_colopt::Outlook::unseen").set_value("error").run()
    assert at.session_state["model"].features_["Outlook"].unseen == "error"
    at = open_page(at, "Explain")
    at.session_state["work"] = at.session_state["work"].replace(
        query={**at.session_state["work"].query, "Outlook": "Foggy"})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Outlook" in e.value and "Foggy" in e.value for e in at.error), [e.value for e in at.error]
    at = _options(open_page(at, "Model"))
    at.selectbox(key="_colopt::Outlook::unseen").set_value("smooth").run()
    at = open_page(at, "Explain")
    assert not at.error
    factors = table(at, lambda t: "status" in t.columns and "Outlook" in t.index)
    assert factors.loc["Outlook", "status"] == "unseen → smoothed"


def test_bins_strategy_and_bandwidth_reach_the_model():
    at = _gender(start())
    assert at.session_state["model"].features_["Height"].kind == "kde"
    at.number_input(key="_colopt::Weight::bins").set_value(3).run()
    intervals = table(at, lambda t: {"from", "to"} <= set(t.columns))
    assert len(intervals) == 3
    assert len(at.session_state["model"].cpt("Weight")) == 3
    at.selectbox(key="_colopt::Weight::strategy").set_value("uniform").run()
    assert at.session_state["model"].features_["Weight"].strategy == "uniform"
    at.selectbox(key="_colopt::Height::bandwidth_rule").set_value("number").run()
    at.number_input(key="_colopt::Height::bandwidth").set_value(0.25).run()
    assert not at.exception, [e.value for e in at.exception]
    kde = table(at, lambda t: "h" in t.columns and "n_eff" in t.columns)
    np.testing.assert_allclose(kde["h"].to_numpy(dtype=float), 0.25)
    at.selectbox(key="_colopt::Height::bandwidth_rule").set_value("silverman").run()
    assert at.session_state["model"].features_["Height"].bandwidth == "silverman"


def test_an_imported_model_file_restores_the_options():
    at = _gender(start())
    df = load_example("gender")
    model = nbapp.NaiveBayes({"Height": nbapp.KDE(bandwidth=0.3),
                              "Weight": nbapp.Discretized(bins=3, strategy="uniform"),
                              "Foot_Size": "gaussian"}).fit(df, "Gender")
    import_model(at, "gender.json", model)
    assert not at.exception, [e.value for e in at.exception]
    specs = at.session_state["work"].specs
    assert specs["Height"] == nbapp.KDE(bandwidth=0.3)
    _options(at)
    assert specs["Weight"] == nbapp.Discretized(bins=3, strategy="uniform")
    assert at.selectbox(key="_colopt::Height::bandwidth_rule").value == "number"
    assert at.number_input(key="_colopt::Height::bandwidth").value == 0.3
    assert at.number_input(key="_colopt::Weight::bins").value == 3
    tennis = nbapp.NaiveBayes({"Outlook": nbapp.Categorical(categories=["Sunny", "Overcast", "Rain", "Foggy"],
                                                            unseen="smooth"), "Wind": "categorical"}
                              ).fit(load_example("tennis14"), "Play")
    at = start()
    at = open_page(at, "Model")
    import_model(at, "tennis.json", tennis)
    _options(at)
    assert at.multiselect(key="_colopt::Outlook::categories").value == ["Sunny", "Overcast", "Rain", "Foggy"]
    assert at.selectbox(key="_colopt::Outlook::unseen").value == "smooth"
    assert at.session_state["work"].specs["Outlook"] == nbapp.Categorical(
        categories=("Sunny", "Overcast", "Rain", "Foggy"), unseen="smooth")


def test_the_options_round_trip_through_the_address_state():
    features = {"Outlook": nbapp.Categorical(categories=("Sunny", "Foggy"), unseen="error"),
                "Height": nbapp.KDE(bandwidth=0.5), "Weight": nbapp.Discretized(bins=3), "Wind": "ignore"}
    work = Work(source=Table(name="x.csv", sha256="0" * 64), target="Play", features=features)
    blank = work.replace(features={c: "ignore" for c in features})
    back, notes = decode_work(json.loads(json.dumps(encode_work(work))), blank)
    assert not notes
    assert back.features == work.features
    assert back.specs["Outlook"] == nbapp.Categorical(categories=["Sunny", "Foggy"], unseen="error")
    assert back.specs["Weight"] == nbapp.Discretized(bins=3)


def test_undetermined_headline_names_the_prior_standing_in_in_the_notes_order():
    at = start()
    at.selectbox(key="_data_example").set_value("sentiment").run()
    at = open_page(at, "Model")
    at.number_input(key="_model_alpha").set_value(0.0).run()
    at = open_page(at, "Explain")
    labels = [m.label for m in at.metric]
    values = [m.value for m in at.metric]
    # no class is predicted: P(x) = 0; the numbers are the prior P(c), in the notes' order (positive first)
    assert labels[:3] == ["Prediction (argmax)", "prior P(positive) (stands in for 0/0)",
                          "prior P(negative) (stands in for 0/0)"]
    assert values[:3] == ["none: P(x) = 0", "0.3333", "0.6667"]
    posterior = table(at, lambda t: "rank" in t.columns)
    assert list(posterior["class"]) == ["positive", "negative"]
    np.testing.assert_allclose(posterior["log P(c)"].to_numpy(dtype=float), np.log([1 / 3, 2 / 3]))
    assert not any("| x)" in label for label in labels)


def test_a_prediction_stays_first_in_the_headline_and_the_table():
    at = open_page(start(), "Explain")                       # tennis 14, l = 0: x is Sunny, Hot, High, Weak
    e = at.session_state["model"].explain(at.session_state["work"].query)
    labels = [m.label for m in at.metric]
    assert labels[0] == "Prediction (argmax)" and at.metric[0].value == str(e.prediction)
    assert labels[1] == f"P({e.prediction} | x)"
    posterior = table(at, lambda t: "rank" in t.columns)
    assert posterior["class"].iloc[0] == str(e.prediction)
    np.testing.assert_allclose(posterior["P(c | x)"].sum(), 1.0)


def _all_text(at) -> str:
    """Every element's text on screen (protos for text and widgets, tables as strings)."""
    parts = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            walk(child)
        proto = getattr(node, "proto", None)
        if proto is not None and getattr(node, "type", "") not in ("arrow_data_frame", "dataframe"):
            parts.append(str(proto))
    walk(at.main)
    walk(at.sidebar)
    parts += [t.to_string() + " " + " ".join(map(str, t.index)) for t in tables(at)]      # grids and static tables
    return "\n".join(parts)


@pytest.mark.parametrize("page", ["Explain", "Lessons"])
def test_lecture_references_obey_the_toggle_on_explain_and_the_lessons(page):
    at = start()
    at.selectbox(key="_data_example").set_value("sentiment").run()   # a text example: UNK and unseen words
    at = open_page(at, page) if page == "Explain" else at.switch_page("pages/5_Lessons.py").run()
    lessons = (["smoothing", "linear", "naive", "prior", "underflow", "generate", "incremental", "export"]
               if page == "Lessons" else [None])
    for refs in (True, False):
        at.toggle(key="_lecture_refs").set_value(refs).run()
        for view in lessons:
            if view is not None:
                at.session_state["work"] = at.session_state["work"].with_choice("lessons.view", view)
                at.run()
            assert not at.exception, [e.value for e in at.exception]
            text = _all_text(at)
            if refs:
                assert "seed 0" in text or view not in (None, "smoothing", "prior"), view
            else:
                leaks = [ln for ln in text.splitlines() if "seed 0" in ln.lower()]
                assert not leaks, (view, leaks[:3])


def test_a_model_file_open_alone_takes_the_options_of_the_page():
    at = open_page(start(), "Model")                                  # tennis data: a gender model opens alone
    model = nbapp.NaiveBayes({"Height": nbapp.KDE(bandwidth=0.3), "Weight": nbapp.Discretized(bins=3),
                              "Foot_Size": "gaussian"}).fit(load_example("gender"), "Gender")
    import_model(at, "gender.json", model)
    assert isinstance(at.session_state["work"].source, ModelFile)
    at = _options(open_page(at, "Model"))
    assert at.number_input(key="_colopt::Weight::bins").value == 3
    assert len(at.session_state["work"].source.model.cpt("Weight")) == 3      # the file's own model
    assert len(at.session_state["model"].cpt("Weight")) == 3
    at.number_input(key="_colopt::Weight::bins").set_value(2).run()
    at.number_input(key="_colopt::Height::bandwidth").set_value(0.5).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["model"] is not at.session_state["work"].source.model   # refitted from its statistics
    assert len(at.session_state["model"].cpt("Weight")) == 2
    np.testing.assert_allclose(at.session_state["model"].parameters("Height")["h"].to_numpy(dtype=float), 0.5)
