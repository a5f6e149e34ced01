"""AppTest of the Lessons page (issue 6): each view shows a number that nbapp computes the same way.

The page is run on its own (as Streamlit does for a cold deep link), so it must set up its own
state: the default dataset is tennis14 at l = 0. Other built-in examples are loaded through the
page's own "Load the built-in example" buttons.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

import nbapp
from nbapp.lessons import covariance, prior_evidence
from nbapp.lessons.calibration import calibration_report
from nbapp.lessons.curves import NAIVE_BAYES, learning_curve
from nbapp.examples import example, load_example
from nbapp.lessons.smoothing_path import smoothing_path
from nbapp.lessons.underflow import underflow_trace
from nbapp.lessons.worked_example import worked_example_snippet
from ui.text import fmt_number
from apptest_helpers import PAGES, ROOT, choose_lesson, metric, open_page, start, unescape
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)

PAGE = ROOT / PAGES["Lessons"]


def fitted(key: str, **changes) -> tuple[nbapp.NaiveBayes, pd.DataFrame, dict]:
    """The built-in example fitted as the page fits it (the example's types and l)."""
    ex = example(key)
    df = load_example(key)
    model = nbapp.NaiveBayes(features=ex.feature_specs(), alpha=changes.get("alpha", ex.alpha))
    model.fit(df, target=ex.target, weight=ex.weight)
    return model, df, dict(ex.query)


def lesson(view: str) -> AppTest:
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    at.run()
    ok(at)
    return choose_lesson(at, view)


def ok(at: AppTest) -> AppTest:
    """No traceback and no error message on screen."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def load(at: AppTest, button: str, key: str) -> AppTest:
    at.button(key=button).click().run()
    ok(at)
    assert at.session_state["work"].source.example == key
    return at


def table(at: AppTest, column: str) -> pd.DataFrame:
    """The last table on screen with this column."""
    found = [d.value for d in at.dataframe if column in d.value.columns]
    assert found, f"no table with column {column!r}"
    return found[-1]


def widget(elements, label: str):
    """The one widget with this label (the page's widget keys carry a digest of the model)."""
    found = [w for w in elements if unescape(w.label) == label]
    assert len(found) == 1, f"{len(found)} widgets labelled {label!r}: {[unescape(w.label) for w in elements]}"
    return found[0]


def test_page_opens_on_the_first_view_with_ten_lessons():
    at = AppTest.from_file(str(PAGE), default_timeout=60).run()
    ok(at)
    assert at.title[0].value == "Lessons"
    assert len(at.segmented_control(key="_lessons_view").options) == 10


# -- 1 MLE vs MAP --------------------------------------------------------------------------------


def test_smoothing_view_marks_zero_cells_at_l_zero_and_follows_the_slider():
    at = lesson("smoothing")
    model, df, query = fitted("tennis14")
    path = smoothing_path(model, df, query)
    cells = table(at, "zero count")
    assert cells["zero count"].sum() == len(path.zero_cells) == 1
    marked = cells[cells["zero count"]].iloc[0]
    assert (marked["column"], marked["value"], marked["class"]) == ("Outlook", "Overcast", "No")
    assert any("Overcast" in unescape(w.value) for w in at.warning)
    assert metric(at, "P(Yes | x) at l = 0") == fmt_number(path.posterior_at(0.0)["Yes"]) == "1"
    widget(at.select_slider, "Smoothing strength (l, m, or the Beta prior's a = b)").set_value(1.0).run()
    ok(at)
    assert metric(at, "P(No | x) at l = 1") == fmt_number(path.posterior_at(1.0)["No"])
    assert len(at.get("plotly_chart")) == 2


# -- 2 prior vs evidence -------------------------------------------------------------------------


def test_prior_view_bikes_flip_to_private_at_prior_two_percent():
    at = load(lesson("prior"), "lessons.prior_load", "bikes")
    model, _, query = fitted("bikes")
    e = model.explain(query)
    assert metric(at, "Prediction") == "veoride"
    assert metric(at, "P(veoride | x)") == fmt_number(e.posterior["veoride"])
    widget(at.slider, "P(veoride)").set_value(0.02).run()
    ok(at)
    expected = prior_evidence.posterior_with_priors(e, prior_evidence.moved_priors(e, "veoride", 0.02))
    assert metric(at, "Prediction") == "private" == expected.idxmax()
    assert metric(at, "P(private | x)") == fmt_number(expected["private"])


# -- 3 linear classifier -------------------------------------------------------------------------


def test_linear_view_asks_for_smoothing_when_l_zero_leaves_a_zero_probability():
    at = lesson("linear")
    assert any("Set l > 0" in e.value.replace("\\", "") for e in at.error)   # st.error text is markdown-escaped
    at.button(key="lessons.linear_smooth").click().run()
    ok(at)
    assert at.session_state["work"].settings.alpha == 1.0
    assert metric(at, "Rows where sign(w·x + b) = prediction") == "14 / 14"


def test_linear_view_sign_of_wx_plus_b_is_the_prediction_for_every_stolen_car():
    at = load(lesson("linear"), "lessons.linear_load", "stolen_cars")
    model, df, _ = fitted("stolen_cars")
    form = model.linear_form()
    check = table(at, "w·x + b")
    assert len(check) == len(df) == 10
    np.testing.assert_allclose(check["w·x + b"].to_numpy(dtype=float), form.decision_function(df).to_numpy())
    assert check["agree"].all()
    assert list(check["prediction"]) == list(model.predict(df).astype(str))
    assert metric(at, "Rows where sign(w·x + b) = prediction") == "10 / 10"
    assert metric(at, "b = log P(c1)/P(c0) (constants stay on the indicators)") == f"{form.bias:+.4f}"
    assert metric(at, "b_BER") == f"{form.notes_form().bias:+.4f}"     # seed 000, Eq. 18 (issue 14)


# -- 4 naive assumption --------------------------------------------------------------------------


def test_naive_view_counts_parameters_for_d_10_k_3_as_exercise_2_4():
    at = lesson("naive")
    widget(at.number_input, "d features").set_value(10).run()
    widget(at.number_input, "K classes").set_value(3).run()
    ok(at)
    assert metric(at, "Naive: 2dK") == f"{covariance.parameter_count(10, 3, naive=True):,}" == "60"
    assert metric(at, "Full: dK + K d(d+1)/2") == f"{covariance.parameter_count(10, 3, naive=False):,}" == "195"


def test_naive_view_on_gender_draws_both_contours_and_shows_duplication_overconfidence():
    at = load(lesson("naive"), "lessons.naive_load", "gender")
    assert len(at.get("plotly_chart")) == 2, "naive and full contours side by side"
    widget(at.toggle, "Duplicate a feature (refits with 1 to 5 extra copies)").set_value(True).run()
    ok(at)
    model, df, query = fitted("gender")
    effect = covariance.duplicate_feature_effect(model, df, query, "Height", copies=(0, 1, 2, 3, 4, 5))
    side = covariance.favoured_class(model, query, "Height")   # Height favours male for x* (issue 14)
    assert side == "male"
    assert metric(at, "P(male | x), 2 extra") == fmt_number(effect.posterior.loc[2, side])
    assert metric(at, "Mean confidence, 2 extra") == fmt_number(effect.mean_confidence.loc[2])


# -- 5 calibration -------------------------------------------------------------------------------


def test_calibration_view_shows_the_cross_validated_brier_score():
    at = lesson("calibration")
    ex = example("tennis14")
    report = calibration_report(lambda: nbapp.NaiveBayes(features=ex.features, alpha=ex.alpha),
                                load_example("tennis14"), ex.target, k=5, n_bins=10)
    assert metric(at, "Brier score") == f"{report.brier:.4f}"
    assert metric(at, "Cross-validated rows") == "14"
    bins = table(at, "mean_predicted")
    assert bins["count"].sum() == 14


# -- 6 generative vs discriminative --------------------------------------------------------------


def test_generative_view_reports_naive_bayes_accuracy_of_the_learning_curve():
    at = lesson("generative")
    ex = example("tennis14")
    curve = learning_curve(load_example("tennis14"), ex.target, ex.features, repeats=3,
                           make_model=lambda: nbapp.NaiveBayes(features=ex.features, alpha=ex.alpha))
    summary = curve.summary
    last = summary[(summary["model"] == NAIVE_BAYES) & (summary["train_size"] == summary["train_size"].max())]
    size = int(last["train_size"].iloc[0])
    assert metric(at, f"{NAIVE_BAYES}: accuracy at {size} rows") == f"{last['accuracy_mean'].iloc[0]:.3f}"
    assert len(at.get("plotly_chart")) == 2


# -- 7 generate data -----------------------------------------------------------------------------


def test_generate_view_shows_the_models_own_sample():
    at = lesson("generate")
    model, _, _ = fitted("tennis14")
    generated, real = [d.value for d in at.dataframe if "Play" in d.value.columns]
    assert len(real) == 10
    expected = model.sample(10, random_state=0)
    pd.testing.assert_frame_equal(generated.reset_index(drop=True).astype(str),
                                  expected.reset_index(drop=True).astype(str))


# -- 8 underflow ---------------------------------------------------------------------------------


def test_underflow_view_shows_a_zero_product_and_a_finite_log_sum_for_a_long_sms():
    at = load(lesson("underflow"), "lessons.underflow_load", "sms_spam")
    model, _, query = fitted("sms_spam")
    trace = underflow_trace(model.explain({"text": " ".join([query["text"]] * 40)}))
    shown = table(at, "raw product")
    assert list(shown["raw product"]) == ["0.0", "0.0"]
    assert list(shown["sum of logs"]) == [f"{trace.final_log[c]:.4f}" for c in trace.classes]
    assert np.isfinite(trace.final_log).all()
    assert list(shown["posterior by products"]) == ["0/0 (undefined)"] * 2
    assert any("reached 0.0" in w.value for w in at.warning)


# -- 9 incremental learning ----------------------------------------------------------------------


def test_incremental_view_adds_a_row_with_partial_fit_and_undo_restores_the_counts():
    at = lesson("incremental")
    counts_before = table(at, "No")  # the counts table of the first discrete feature (Outlook)
    assert counts_before.loc["Overcast", "No"] == "0"
    for column, value in {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong",
                          "Play (class)": "No"}.items():
        widget(at.selectbox, column).set_value(value)
    at.button[0].click().run()  # the form's submit button comes first
    ok(at)
    model, _, query = fitted("tennis14")
    model.partial_fit(pd.DataFrame([{"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High",
                                     "Wind": "Strong", "Play": "No"}]))
    assert metric(at, "Rows added by hand") == "1"
    counts = [d.value for d in at.dataframe if "No" in d.value.columns and "Overcast" in d.value.index]
    assert counts[0].loc["Overcast", "No"] == "1" == str(int(model.counts("Outlook").loc["Overcast", "No"]))
    posterior = table(at, "now")
    assert posterior.loc["No", "now"] == fmt_number(model.predict_proba(pd.DataFrame([query])).iloc[0]["No"])
    at.button(key="lessons.inc_undo").click().run()
    ok(at)
    assert metric(at, "Rows added by hand") == "0"
    counts = [d.value for d in at.dataframe if "No" in d.value.columns and "Overcast" in d.value.index]
    assert counts[0].loc["Overcast", "No"] == "0"


# -- 10 export -----------------------------------------------------------------------------------


def test_export_view_shows_a_snippet_that_reproduces_the_explanation():
    at = lesson("export")
    model, _, query = fitted("tennis14")
    shown = at.code[0].value
    assert shown == worked_example_snippet(model, query, example="tennis14").rstrip("\n")
    namespace: dict = {}
    exec(compile(shown, "worked_example.py", "exec"), namespace)  # the program a user downloads
    assert namespace["e"].prediction == model.explain(query).prediction == "Yes"
    assert any("Prediction: Yes" in m.value for m in at.markdown)


# -- through the whole app: data and models from the other pages ---------------------------------

def app_with(example_key: str) -> AppTest:
    return ok(start(example_key))


def view(at: AppTest, name: str) -> AppTest:
    return choose_lesson(open_page(at, "Lessons", check_title=False), name)


def test_prior_view_of_an_undetermined_example_shows_no_prediction_and_the_prior_as_posterior():
    at = app_with("sentiment")
    open_page(at, "Model", check_title=False)
    at.number_input(key="_model_alpha").set_value(0.0).run()
    at = view(at, "prior")
    model = at.session_state["model"]
    assert model.explain(at.session_state["work"].query).undetermined
    assert metric(at, "Prediction") == "–"
    for c in model.classes_:
        assert metric(at, f"P({c} | x)") == fmt_number(model.priors_[c])
    assert any("falls back to the prior" in i.value for i in at.info)


def test_two_imported_models_of_the_same_file_name_do_not_share_cached_results():
    at = app_with("tennis14")
    at.session_state["work"] = at.session_state["work"].replace(
        query={"Outlook": "Sunny", "Temperature": "Hot", "Humidity": "High", "Wind": "Weak"})
    expected = []
    for priors in ("empirical", "uniform"):
        model, df, _ = fitted("tennis14")
        model = nbapp.NaiveBayes(**{**model.params(), "priors": priors}).fit(df, target="Play")
        open_page(at, "Model", check_title=False)
        at.file_uploader(key="model.json_upload").set_value(("m.json", model.to_json().encode(), "application/json"))
        at.run()
        ok(at)
        at = view(at, "smoothing")
        expected.append(fmt_number(model.explain(at.session_state["work"].query).posterior["No"]))
        assert metric(at, "P(No | x) at l = 0") == expected[-1]
    assert expected[0] != expected[1], "the two priors give the example different posteriors"


def test_a_refused_contour_fit_is_shown_as_text():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    rows = "".join(f"{i}.5,{i if i < 5 else ''},{'a' if i < 5 else 'b'}\n" for i in range(10))
    at.radio(key="_data_mode").set_value("Upload a file").run()
    at.file_uploader(key="data.uploader").set_value(("odd.csv", ("x*,y_*,c\n" + rows).encode(), "text/csv")).run()
    at.selectbox(key="_data_target").set_value("c").run()
    for i in range(2):
        at.selectbox(key=f"_type::{i}").set_value("gaussian").run()
    ok(at)
    at = view(at, "naive")
    shown = [e.value for e in at.error]
    assert len(shown) == 2 and all(r"x\*" in e and "needs at least two classes" in e for e in shown), shown


def test_incremental_view_keeps_rows_in_the_session_not_copies_of_the_model():
    at = lesson("incremental")
    model = at.session_state["model"]
    before = model.to_json()
    for _ in range(3):
        for column, value in {"Outlook": "Sunny", "Play (class)": "Yes"}.items():
            widget(at.selectbox, column).set_value(value)
        at.button[0].click().run()
        ok(at)
    assert metric(at, "Rows added by hand") == "3"
    def models_in(value):
        if isinstance(value, nbapp.NaiveBayes):
            return 1
        return sum(map(models_in, value)) if isinstance(value, (list, tuple)) else 0

    held = [k for k in at.session_state.keys() if k != "model" and models_in(at.session_state[k])]
    assert held == []                               # issue 10: no model copy per click
    assert len(at.session_state["kept"]["lessons.inc_rows"][1]) == 3
    assert at.session_state["model"].to_json() == before   # the other pages' model is untouched
