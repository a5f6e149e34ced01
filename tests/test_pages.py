"""AppTest: every page on every built-in example, uploads, and the key numbers on screen.

AppTest runs each page without app.py's navigation (shared/notes/streamlit-1.67.md, 1.1), so
these tests also check that every page sets up its own state.
"""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import nbapp
from nbapp.examples import EXAMPLES, load_example
from apptest_helpers import ROOT, import_model, metric, open_page, start, table, texts, upload
from apptest_helpers import clear_caches, downloads  # noqa: F401 (fixtures)
import drawn_svg
from ui.sources import Example, ModelFile

WEATHER = b"outlook,temp,humidity,windy,play\nsunny,85,85,false,no\nsunny,80,90,true,no\n" \
          b"overcast,83,86,false,yes\nrainy,70,96,false,yes\nrainy,68,80,false,yes\n" \
          b"rainy,65,70,true,no\novercast,64,65,true,yes\nsunny,72,95,false,no\n"


# -- every page on every example -------------------------------------------------------------------


@pytest.mark.parametrize("key", [ex.key for ex in EXAMPLES])
def test_every_page_runs_on_every_example(key):
    at = start()
    at.selectbox(key="_data_example").set_value(key).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["work"].source.example == key
    assert any("Model fitted" in s for s in texts(at, "success"))
    open_page(at, "Model")
    assert at.get("plotly_chart"), "the class prior chart is drawn"
    open_page(at, "Explain")
    assert metric(at, "Prediction (argmax)") != ""
    assert at.latex, "the posterior formulas are shown"
    open_page(at, "Evaluate")
    assert 0.0 <= float(metric(at, "Accuracy")) <= 1.0
    open_page(at, "Data")


# -- the tennis example of seed 000 ------------------------------------------------------------------


def test_first_load_explains_tennis_x_star_as_yes_with_posterior_one():
    at = open_page(start(), "Explain")
    assert [at.selectbox(key=f"_q::{i}").value for i in range(4)] == ["Overcast", "Hot", "High", "Strong"]
    assert metric(at, "Prediction (argmax)") == "Yes"
    assert metric(at, "P(Yes | x)") == "1"
    assert metric(at, "P(No | x)") == "0"
    assert any("Overcast" in s and "= 0 for class 'No'" in s for s in texts(at, "info"))


def test_exact_fractions_view_shows_the_seed_numbers():
    # counted, reduced, decimal and log side by side (issue 14), Yes before No as in the notes
    at = open_page(start(), "Explain")
    factors = table(at, lambda df: "status" in df.columns)
    assert list(factors.columns)[2:6] == ["Yes counts", "Yes fraction", "Yes decimal", "Yes log"]
    assert factors.loc["prior", "Yes counts"] == "9/14"
    assert factors.loc["Outlook", "Yes fraction"] == "4/9" and factors.loc["Outlook", "No counts"] == "0/5"
    assert factors.loc["Humidity", "Yes counts"] == "3/9" and factors.loc["Humidity", "Yes fraction"] == "1/3"
    assert factors.loc["Outlook", "No fraction"] == "0" and factors.loc["Outlook", "No log"] == "−∞"


def test_setting_l_to_one_makes_overcast_given_no_one_eighth():
    at = open_page(start(), "Model")
    cpt = table(at, lambda df: df.index.name == "Outlook")
    assert cpt.loc["Overcast", "No"] == "0/5 = 0"     # as counted, then reduced (issue 14)
    assert list(cpt.index) == ["Sunny", "Overcast", "Rain"] and list(cpt.columns) == ["Yes", "No"]
    at.number_input(key="_model_alpha").set_value(1.0).run()
    assert not at.exception
    cpt = table(at, lambda df: df.index.name == "Outlook")
    assert cpt.loc["Overcast", "No"] == "1/8"
    at.selectbox(key="model.cell_value").set_value("Overcast")
    at.selectbox(key="model.cell_class").set_value("No").run()
    assert any(r"\frac{0 + 1}{5 + 1 \cdot 3} = \frac{1}{8}" in s for s in texts(at, "latex"))
    # the setting outlives the page: Explain now gives No a chance
    open_page(at, "Explain")
    assert metric(at, "P(Yes | x)") != "1"


def test_clicking_a_row_makes_it_the_test_example():
    at = open_page(start(), "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert [at.selectbox(key=f"_q::{i}").value for i in range(4)] == ["Sunny", "Hot", "High", "Weak"]
    assert metric(at, "Prediction (argmax)") == "No"


def test_marking_a_feature_missing_skips_it():
    at = open_page(start(), "Explain")
    at.checkbox(key="_qm::0").check().run()
    factors = table(at, lambda df: "status" in df.columns)
    assert factors.loc["Outlook", "status"] == "missing"
    assert metric(at, "P(Yes | x)") not in ("1", "0")


def test_a_custom_prior_flips_the_bikes_answer():
    at = start()
    at.selectbox(key="_data_example").set_value("bikes").run()
    open_page(at, "Explain")
    assert metric(at, "Prediction (argmax)") == "veoride"
    open_page(at, "Model")
    at.radio(key="_model_priors").set_value("custom").run()
    assert at.session_state["work"].settings.priors == tuple(
        (c, float(p)) for c, p in at.session_state["model"].priors_.items()), "custom priors start at the model's"
    at.number_input(key="_model_prior::0").set_value(0.98)  # private
    at.number_input(key="_model_prior::1").set_value(0.02)  # veoride
    at.button(key="model.priors_use").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    open_page(at, "Explain")
    assert metric(at, "Prediction (argmax)") == "private"


def test_custom_priors_that_do_not_sum_to_one_are_refused_in_place_or_normalised():
    at = start()
    at.selectbox(key="_data_example").set_value("bikes").run()
    open_page(at, "Model")
    at.radio(key="_model_priors").set_value("custom").run()
    before = at.session_state["work"].settings.priors
    at.number_input(key="_model_prior::0").set_value(0.9)
    at.number_input(key="_model_prior::1").set_value(0.6)
    at.button(key="model.priors_use").click().run()
    assert not at.exception
    assert any("sum to 1.5, not 1" in e for e in texts(at, "error")), texts(at, "error")
    assert at.session_state["work"].settings.priors == before, "a refused set leaves the model as it was"
    assert at.get("plotly_chart"), "the rest of the page is still drawn"
    assert at.number_input(key="_model_prior::0").value == 0.9, "the typed values stay for correcting"
    at.button(key="model.priors_normalise").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert dict(at.session_state["work"].settings.priors) == pytest.approx({"private": 0.6, "veoride": 0.4})
    assert at.session_state["model"].priors_["private"] == pytest.approx(0.6)


def test_an_example_no_class_can_explain_is_shown_as_undetermined():
    at = start()
    at.selectbox(key="_data_example").set_value("sentiment").run()
    open_page(at, "Model")
    at.number_input(key="_model_alpha").set_value(0.0).run()
    open_page(at, "Explain")
    assert metric(at, "Prediction (argmax)") == "none: P(x) = 0"
    assert any("Every class has probability 0" in s for s in texts(at, "info"))
    assert any("cannot tell" in s for s in texts(at, "warning"))


@pytest.mark.parametrize("smoothing", ["m", "beta"])
def test_other_smoothings_fit_and_show_their_formula(smoothing):
    at = start()
    at.selectbox(key="_data_example").set_value("stolen_cars").run()
    open_page(at, "Model")
    at.radio(key="_model_smoothing").set_value(smoothing).run()
    assert not at.exception and not at.error
    assert any(r"\frac{N_{v,c}" in s for s in texts(at, "latex"))


# -- uploads ---------------------------------------------------------------------------------------


def test_uploading_a_csv_proposes_a_target_and_types():
    at = upload(start(), "weather.csv", WEATHER, check=False)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["work"].source.name == "weather.csv"
    assert at.session_state["work"].target == "play"
    assert at.session_state["work"].kinds["temp"] == "gaussian"
    assert any("Loaded weather.csv: 8 rows × 5 columns" in s for s in texts(at, "success"))
    open_page(at, "Explain")
    assert metric(at, "Prediction (argmax)") in ("yes", "no")


def test_changing_a_type_in_the_data_page_refits_without_that_column():
    at = upload(start(), "weather.csv", WEATHER, check=False)
    columns = list(at.session_state["work"].kinds)
    at.selectbox(key=f"_type::{columns.index('temp')}").set_value("ignore").run()
    assert not at.exception
    assert "temp" not in at.session_state["model"].features_


def test_uploading_an_excel_file_works():
    buffer = io.BytesIO()
    load_example("tennis14").to_excel(buffer, index=False)
    at = upload(start(), "tennis.xlsx", buffer.getvalue(),
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", check=False)
    assert not at.exception and not at.error
    assert at.session_state["frame"].shape == (14, 6)


def test_a_bad_upload_shows_an_error_not_a_traceback():
    at = upload(start(), "broken.xlsx", b"this is not a spreadsheet",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", check=False)
    assert not at.exception
    assert at.error, "the problem is shown with st.error"
    assert at.session_state["work"].source.example == "tennis14", "the previous data stays in use"


def test_a_pickle_model_upload_is_refused():
    at = open_page(start(), "Model")
    at.file_uploader(key="model.json_upload").set_value(("model.pkl", b"\x80\x04K\x01.", "application/octet-stream"))
    at.run()
    assert not at.exception
    assert any("Pickle files are refused" in e.value for e in at.error)


def test_a_model_json_upload_is_used():
    at = open_page(start(), "Model")
    text = at.session_state["model"].to_json()
    at.file_uploader(key="model.json_upload").set_value(("tennis.json", text.encode(), "application/json"))
    at.run()
    assert not at.exception and not at.error
    assert at.session_state["work"].imported.name == "tennis.json"
    assert json.loads(text)  # the download is valid JSON


# -- evaluation and batch prediction -----------------------------------------------------------------


def test_holdout_evaluation_shows_scores():
    at = open_page(start(), "Evaluate")
    at.radio(key="_eval_method").set_value("holdout").run()
    assert not at.exception
    assert at.session_state["kept"]["evaluate.result"][1].method == "holdout"
    assert metric(at, "Log-loss") == "∞"  # tennis at l = 0: some true class gets probability 0


def test_batch_prediction_adds_a_probability_column_per_class():
    at = open_page(start(), "Evaluate")
    at.file_uploader(key="eval.batch").set_value(("days.csv", (ROOT / "sample_data" / "tennis14.csv").read_bytes(),
                                                  "text/csv"))
    at.run()
    assert not at.exception and not at.error
    predictions = table(at, lambda df: "predicted" in df.columns)
    assert {"P(No)", "P(Yes)"} <= set(predictions.columns)
    assert len(predictions) == 14
    assert any("Predicted 14 rows" in s for s in texts(at, "success"))


@pytest.mark.parametrize("key", [ex.key for ex in EXAMPLES])
def test_text_page_runs_on_every_example(key):
    at = start()
    at.selectbox(key="_data_example").set_value(key).run()
    at.switch_page("pages/6_Text.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Text"
    has_text = "text" in {ex.key: ex for ex in EXAMPLES}[key].features.values()
    offers_corpora = any("no text feature" in i.value for i in at.info)
    assert offers_corpora != has_text


# -- imported models ---------------------------------------------------------------------------------


def fitted(key: str, **changes) -> "nbapp.NaiveBayes":
    """A built-in example fitted as the app fits it; ``frame`` replaces the example's data."""
    ex = next(e for e in EXAMPLES if e.key == key)
    frame = changes.pop("frame", None)
    model = nbapp.NaiveBayes(features=ex.features, alpha=ex.alpha, **changes)
    return model.fit(load_example(key) if frame is None else frame, target=ex.target, weight=ex.weight)


def test_a_model_of_other_columns_opens_alone_and_the_data_comes_back_on_request():
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    open_page(at, "Model")
    import_model(at, "tennis.json", fitted("tennis14"))
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert isinstance(at.session_state["work"].source, ModelFile)
    assert at.session_state["work"].source.name == "tennis.json"
    assert at.session_state["work"].imported is None             # one route to the model: the source
    for name in ("Explain", "Evaluate", "Model"):
        open_page(at, name)
    open_page(at, "Data")
    at.button(key="data.leave_model").click().run()
    assert isinstance(at.session_state["work"].source, Example)
    at.selectbox(key="_data_example").set_value("gender").run()
    open_page(at, "Model")
    assert at.get("plotly_chart"), "the Gaussian histograms are drawn from the data's columns"


def test_a_model_of_another_target_of_the_same_data_makes_that_column_the_target():
    at = upload(start(), "weather.csv", WEATHER, check=False)
    df = at.session_state["frame"]
    model = nbapp.NaiveBayes(features={"outlook": "categorical", "play": "categorical"}, alpha=1.0)
    model.fit(df, target="windy")
    open_page(at, "Model")
    import_model(at, "windy.json", model)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["work"].target == "windy"
    assert at.session_state["work"].imported.model.target_ == "windy"
    open_page(at, "Explain")
    assert metric(at, "Prediction (argmax)") in ("true", "false")


def test_an_imported_gaussian_model_gives_the_explain_inputs_its_own_means():
    at = start()
    at.selectbox(key="_data_example").set_value("gender").run()
    shifted = load_example("gender").assign(Height=lambda d: d["Height"] + 10)
    model = fitted("gender", frame=shifted)
    open_page(at, "Model")
    import_model(at, "tall.json", model)
    at.session_state["work"] = at.session_state["work"].replace(query={})  # no value typed: the inputs start at the model's means
    open_page(at, "Explain")
    means = model.gaussian("Height")["mean"]
    expected = float((means * model.priors_[means.index]).sum())
    assert at.number_input(key="_q::0").value == pytest.approx(expected)
    assert expected > load_example("gender")["Height"].max(), "the data's own mean would be far below"


def test_a_model_json_upload_is_keyed_by_its_content_not_its_name():
    at = open_page(start(), "Model")
    import_model(at, "m.json", fitted("tennis14"))
    first = at.session_state["work"].imported
    import_model(at, "m.json", fitted("tennis14", priors="uniform"))
    second = at.session_state["work"].imported
    assert first.name == second.name and first.sha256 != second.sha256
    assert second.model.priors == "uniform"


# -- the Data page's source --------------------------------------------------------------------------


def sidebar_text(at: AppTest) -> str:
    return " ".join(m.value for m in at.sidebar.markdown)


def test_switching_the_source_keeps_the_upload_and_the_sidebar_current():
    at = upload(start(), "weather.csv", WEATHER, check=False)
    assert "weather" in sidebar_text(at)
    at.radio(key="_data_mode").set_value("Built-in example").run()
    assert not at.exception
    assert at.session_state["work"].source.example == "tennis14"
    assert "weather" not in sidebar_text(at) and "tennis14" in sidebar_text(at), "the sidebar is drawn after the switch"
    at.radio(key="_data_mode").set_value("Upload a file").run()
    assert not at.exception
    assert at.session_state["work"].source.name == "weather.csv"
    assert any("Loaded weather.csv: 8 rows × 5 columns" in s for s in texts(at, "success"))
    assert "weather" in sidebar_text(at)


def test_a_failed_fit_leaves_no_model_of_earlier_settings_behind():
    at = start()
    assert "model" in at.session_state
    for i in range(len(at.session_state["work"].kinds)):
        at.selectbox(key=f"_type::{i}").set_value("ignore").run()
    assert not at.exception
    assert any("Every column is ignored" in e for e in texts(at, "error"))
    assert "model" not in at.session_state


# -- numbers from nbapp ------------------------------------------------------------------------------


def plotted(values) -> list[float]:
    """A plotly array from a figure's JSON (plotly sends numbers as base64 typed arrays)."""
    if isinstance(values, dict):
        return list(np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]))
    return list(values)


def test_the_exact_joint_and_the_waterfall_total_are_the_explanation_s():
    at = open_page(start(), "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    model = fitted("tennis14")
    e = model.explain(load_example("tennis14").drop(columns="Play").iloc[0])
    totals = table(at, lambda df: "posterior P(c | x)" in df.index)
    assert [totals.iloc[0][f"{c} fraction"] for c in e.classes] == [str(e.joint_fractions[c]) for c in e.classes]
    assert [totals.iloc[2][f"{c} fraction"] for c in e.classes] == [str(e.posterior_fractions[c]) for c in e.classes]
    svg = drawn_svg.drawn(at)[0]
    drawn = {"steps": drawn_svg.steps(svg), "words": drawn_svg.words(svg)}
    a, b = e.prediction, next(c for c in e.classes if c != e.prediction)
    assert drawn["steps"][-1]["total"] and drawn["steps"][-1]["label"] == "log-odds"
    assert drawn["steps"][-1]["value"] == pytest.approx(e.joint_log[a] - e.joint_log[b], abs=1e-12)
    steps = e.contributions(a, b)
    assert [s["label"] for s in drawn["steps"][:-1]] == list(steps.index)
    np.testing.assert_allclose([s["value"] for s in drawn["steps"][:-1]], steps.to_numpy(dtype=float), atol=1e-12)
    assert drawn["words"].startswith(f"Contributions to log P({a} | x) / P({b} | x). Steps: prior ")


def test_the_top_words_chart_draws_the_model_s_probabilities():
    at = start()
    at.selectbox(key="_data_example").set_value("sms_spam").run()
    open_page(at, "Model")
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    chart = next(s for s in specs if s["layout"].get("xaxis", {}).get("title", {}).get("text") == "P(w | c)")
    words = at.session_state["model"].top_words("text", 10)
    first = words[words["class"] == words["class"].iloc[0]]
    assert plotted(chart["data"][0]["x"]) == pytest.approx(list(first["probability"].iloc[::-1]))


# -- downloads ---------------------------------------------------------------------------------------


def test_downloads_are_built_once_per_model_with_safe_file_names(downloads):
    from nbapp.io import safe_csv_bytes

    hostile = b"../x y:z,temp,play\n" + b"".join(b"%s,%d,%s\n" % (b"ab"[i % 2:i % 2 + 1], i, [b"no", b"yes"][i % 3 == 0])
                                               for i in range(20))

    def model_page():
        at = upload(start(), "odd.csv", hostile, check=False)
        at.selectbox(key="_type::0").set_value("categorical").run()
        return open_page(at, "Model")

    at = model_page()
    data, file_name = downloads["Download this CPT (CSV)"]
    assert file_name == "cpt_x_y_z.csv"
    built, _ = downloads["Download the model (JSON)"]
    assert built == at.session_state["model"].to_json().encode("utf-8")
    at.run()                                              # a rerun reuses the bytes, it does not rebuild them
    assert downloads["Download the model (JSON)"][0] is built
    model_page()                                          # another session on the same model: the same bytes
    assert downloads["Download the model (JSON)"][0] is built
    open_page(at, "Evaluate")
    data, _ = downloads["Download the out-of-sample predictions (CSV)"]
    from nbapp.diagnostics import predictions_with_inputs

    assert data == safe_csv_bytes(predictions_with_inputs(at.session_state["kept"]["evaluate.result"][1],
                                                          at.session_state["frame"]))


def test_file_stem_keeps_letters_and_digits_only():
    from ui.text import file_stem

    assert file_stem("Outlook") == "Outlook"
    assert file_stem("../../etc/passwd") == "etc_passwd"
    assert file_stem("a b\\c:d*?.csv") == "a_b_c_d_csv"
    assert file_stem("...") == "column"
