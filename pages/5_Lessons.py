"""Lessons: ten ideas of the lectures made visible on the current data and model (issue 6).

Every number on this page comes from nbapp (smoothing_path, prior_evidence, linear_form,
covariance, calibration, curves, sample, underflow, partial_fit, worked_example); the page
only collects input and draws.
"""

from __future__ import annotations

import copy
from typing import Any

import pandas as pd
import streamlit as st

import nbapp
import ui
from nbapp.lessons import covariance, prior_evidence
from nbapp.errors import DataError
from nbapp.lessons.smoothing_path import DEFAULT_STRENGTHS
from nbapp.lessons.underflow import underflow_trace
from nbapp.lessons.worked_example import worked_example_markdown, worked_example_snippet
from ui import lessons
from ui.formulas import feature_kinds, show_counts

ui.ensure_state()
ui.sidebar_summary()
ui.page_header("Lessons", "Ten ideas of the lectures, each shown live on the current data and model: pick one. "
               "Change the data or the settings on the other pages and come back.")

ss = st.session_state
VIEWS = {
    "smoothing": "1 MLE vs MAP",
    "prior": "2 Prior vs evidence",
    "linear": "3 Linear classifier",
    "naive": "4 Naive assumption",
    "calibration": "5 Calibration",
    "generative": "6 Generative vs discriminative",
    "generate": "7 Generate data",
    "underflow": "8 Underflow",
    "incremental": "9 Incremental learning",
    "export": "10 Export",
}
DISCRETE = ("categorical", "bernoulli", "multinomial", "text")
#: Refits per variant along the smoothing path: every 0.5 on small data, fewer on big data.
COARSE_STRENGTHS = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0)
BIG_DATA_ROWS = 1000


def _view_ui() -> str:
    ss.setdefault("lessons_view", "smoothing")
    ui.synced(st.segmented_control, "Lesson", key="_lessons_view", value=ss["lessons_view"], options=list(VIEWS),
              format_func=VIEWS.get, label_visibility="collapsed",
              on_set=lambda v: ss.update(lessons_view=v or ss["lessons_view"]))
    return ss["lessons_view"]


# --------------------------------------------------------------------------- 1 smoothing


def smoothing_view(model: Any) -> None:
    st.subheader("MLE vs MAP: how smoothing moves the probabilities")
    st.write("With l = 0 every CPT cell is a relative frequency, the maximum-likelihood estimate; a value never "
             "seen with a class gets probability 0 and rules that class out, whatever the other features say. "
             "Adding l pseudo-counts per value, (count + l) / (n_c + l K) (seed 000, Eq. 7), is a MAP estimate "
             "with a Dirichlet prior (seed 002); the m-estimate (n_y + m p) / (n + m) (seed 003) and the "
             "Beta(a, b) prior (N_cd + a) / (N_c + a + b) (seed 002) are the same idea. Move l and watch the "
             "cells of the test example and its posterior.")
    kinds = feature_kinds(model)
    if not any(k in DISCRETE for k in kinds.values()):
        lessons.offer_example("Smoothing acts on counted features; this model has only Gaussian ones.",
                              "tennis14", button_key="lessons.smoothing_load")
        return
    lessons.seed_example("tennis14", button_key="lessons.smoothing_load")
    data = ui.frame()
    strengths = DEFAULT_STRENGTHS if len(data) <= BIG_DATA_ROWS else COARSE_STRENGTHS
    row = lessons.example_row(model)
    try:
        path = lessons.cached_smoothing_path(ui.model_key(), lessons.frozen_row(row), tuple(strengths),
                                             _model=model, _frame=data, _row=row)
    except DataError as err:
        ui.show_error(err)
        return
    for note in path.notes:
        st.caption(ui.md(note))
    _smoothing_fragment(path)


@st.fragment
def _smoothing_fragment(path: Any) -> None:
    left, right = st.columns([2, 3])
    strength = left.select_slider("Smoothing strength (l, m, or the Beta prior's a = b)", options=list(path.strengths),
                                  value=path.strengths[0], key=lessons.wkey("l"), format_func=lambda s: f"{s:g}")
    variants = right.pills("Estimators", list(path.variants), default=list(path.variants), selection_mode="multi",
                           format_func=lessons.VARIANT_NAMES.get, key=lessons.wkey("variants")) or ["lidstone"]
    posterior = path.posterior_at(strength, "lidstone")
    cols = st.columns(min(len(posterior), 4))
    for col, (cls, p) in zip(cols, list(posterior.items())[:4]):
        col.metric(f"P({ui.md(cls)} | x) at l = {strength:g}", ui.fmt_number(p))
    left, right = st.columns(2)
    if len(path.cells):
        left.plotly_chart(lessons.smoothing_figure(path.cells, strength, variants), key="lessons.cells_chart")
    else:
        left.info("The test example has no categorical, Bernoulli or count value to follow; text features are "
                  "smoothed too, their words are on the Explain page.")
    right.plotly_chart(lessons.posterior_path_figure(path.posterior, strength, variants), key="lessons.post_chart")
    at_l = path.cells[(path.cells["variant"] == "lidstone") & (path.cells["strength"] == strength)]
    if len(at_l):
        table = pd.DataFrame({"column": at_l["column"].astype(str), "value": at_l["value"].astype(str),
                              "class": at_l["class"].astype(str), "count": show_counts(at_l[["count"]])["count"],
                              f"P(v | c) at l = {strength:g}": at_l["probability"].map(ui.fmt_number),
                              "zero count": at_l["zero_count"]})
        st.dataframe(table, hide_index=True, key="lessons.cells_table")
    zero = path.zero_cells
    if len(zero):
        listed = "; ".join(f"{ui.md(r.column)} = {ui.md(r.value)} given {ui.md(r['class'])}"
                           for _, r in zero.iterrows())
        message = (f"{len(zero)} cell(s) have count 0 and are 0 under the MLE (marked ✕ at l = 0): {listed}.")
        (st.warning if strength == 0 else st.caption)(message)


# --------------------------------------------------------------------------- 2 prior vs evidence


def prior_view(model: Any) -> None:
    st.subheader("Prior vs evidence")
    st.write("Bayes' rule is posterior = likelihood × prior / normalisation (seed 004). In log-odds the prior is "
             "one term, log P(a)/P(b), next to one log-likelihood ratio per feature; a new prior needs no refit. "
             "Seed 004's bikes: a teal bike is a Veoride when 20% of bikes are Veorides, but a private bike when "
             "only 2% are. If moving the prior \"does nothing\", the features' ratios simply outweigh it: the bar "
             "below compares the two.")
    lessons.seed_example("bikes", button_key="lessons.prior_load")
    row = lessons.example_row(model)
    try:
        e = model.explain(row)
    except DataError as err:
        ui.show_error(err)
        return
    _prior_fragment(model, row, e)


@st.fragment
def _prior_fragment(model: Any, row: dict[str, Any], e: Any) -> None:
    classes = list(e.classes)
    default = "veoride" if "veoride" in classes else (e.prediction if e.prediction is not None else classes[0])
    left, right = st.columns(2)
    cls = left.selectbox("Class whose prior moves", classes, index=classes.index(default), format_func=str,
                         key=lessons.wkey("prior_class"))
    current = float(model.priors_[cls])
    p = right.slider(f"P({ui.md(cls)})", 0.0, 1.0, value=current, step=0.01, format="%.3f",
                     key=lessons.wkey(f"prior_p::{classes.index(cls)}"))
    moved = lessons.model_with_priors(model, prior_evidence.moved_priors(e, cls, p)).explain(row)
    cols = st.columns(min(len(classes), 4) + 1)
    # prediction and posterior from the one explanation: undetermined shows no class, and its
    # posterior is the (moved) prior, which nbapp falls back to when every class has probability 0
    cols[0].metric("Prediction", "–" if moved.undetermined else str(moved.prediction))
    for col, c in zip(cols[1:], classes[:4]):
        col.metric(f"P({ui.md(c)} | x)", ui.fmt_number(moved.posterior[c]))
    if moved.undetermined:
        st.info("Every class has probability 0 for this example (a factor is 0 for each class), so there is no "
                "prediction and the posterior shown falls back to the prior.")
    if len(classes) < 2:
        return
    other = next(c for c in moved.joint_log.sort_values(ascending=False, kind="stable").index if c != cls)
    split = prior_evidence.prior_vs_evidence(moved, cls, other)
    left, right = st.columns(2)
    left.plotly_chart(lessons.prior_sweep_figure(prior_evidence.prior_sweep(e, cls), cls, p,
                                                 prior_evidence.prior_vs_evidence(e, cls, other).break_even_prior),
                      key="lessons.prior_sweep")
    right.plotly_chart(lessons.prior_evidence_bar(split.log_prior_ratio, split.log_likelihood_ratios,
                                                  split.evidence_weight), key="lessons.prior_bar")
    decides = "the prior" if split.prior_dominates else "the evidence"
    st.markdown(f"Against **{ui.md(other)}**: log prior ratio {split.log_prior_ratio:+.3f}, net evidence "
                f"{split.log_likelihood_ratio:+.3f}, so **{decides}** decides. {ui.md(cls)} wins above "
                f"P({ui.md(cls)}) / (P({ui.md(cls)}) + P({ui.md(other)})) = {ui.fmt_number(split.break_even_prior)}.")


# --------------------------------------------------------------------------- 3 linear classifier


def linear_view(model: Any) -> None:
    st.subheader("Naive Bayes is a linear classifier")
    st.write("For two classes the log-odds log P(c1 | x) / P(c0 | x) is a sum of one term per feature value, "
             "so it is w · x + b with b = log P(c1)/P(c0) and one weight per value: log θ(v | c1) / θ(v | c0) "
             "(seed 000, section 2.3, Eq. 17-19). sign(w · x + b) is the prediction. With Gaussian features the "
             "boundary is linear when both classes share each variance (Eq. 20) and quadratic otherwise.")
    if len(model.classes_) != 2:
        lessons.offer_example(f"The linear form is for two classes; this model has {len(model.classes_)}.",
                              "stolen_cars", button_key="lessons.linear_load")
    else:
        lessons.seed_example("stolen_cars", button_key="lessons.linear_load")
        try:
            form = model.linear_form()
        except DataError as err:
            ui.show_error(err)
            form = None
            if st.button("Smooth with l = 1", key="lessons.linear_smooth", icon=":material/tune:"):
                ui.set_settings(alpha=1.0)
                st.rerun()
        if form is not None:
            _linear_form_ui(model, form)
    _boundary_ui(model)


def _linear_form_ui(model: Any, form: Any) -> None:
    data = ui.frame()
    score = form.decision_function(data)
    positive_side = score > 0
    predicted = model.predict(data)
    agree = predicted.notna() & (positive_side == predicted.eq(form.positive))
    c1, c2, c3 = st.columns(3)
    c1.metric("Bias b = log P(c1)/P(c0)", f"{form.bias:+.4f}")
    c2.metric("Rows where sign(w·x + b) = prediction", f"{int(agree.sum())} / {len(data)}")
    c3.metric("Boundary", "quadratic (x² terms)" if form.quadratic else "linear")
    st.caption(f"Positive side: {ui.md(form.positive)} (w·x + b > 0); negative side: {ui.md(form.negative)}.")
    left, right = st.columns([3, 2])
    left.plotly_chart(lessons.weights_bar(form.weights), key="lessons.weights_chart")
    right.dataframe(pd.DataFrame({"w": form.weights.astype(float)}).rename(index=str), key="lessons.weights_table",
                    height=360)
    by_sign = positive_side.map({True: form.positive, False: form.negative})
    check = pd.DataFrame({"w·x + b": score.to_numpy(), "class by sign": by_sign.astype(str).to_numpy(),
                          "prediction": predicted.astype(str).to_numpy(), "agree": agree.to_numpy()},
                         index=data.index)
    st.markdown("**The check, row by row**")
    st.dataframe(check.head(2000), key="lessons.linear_check")


def _gaussian_columns(model: Any) -> list[str]:
    return [c for c, k in feature_kinds(model).items() if k == "gaussian"]


def _boundary_ui(model: Any) -> None:
    st.markdown("**Decision boundary of two Gaussian features**")
    gaussian = _gaussian_columns(model)
    if len(gaussian) < 2:
        lessons.offer_example("The boundary needs two Gaussian features; this model has "
                              f"{len(gaussian)}.", "gender", button_key="lessons.boundary_load")
        return
    _boundary_fragment(gaussian)


@st.fragment
def _boundary_fragment(gaussian: list[str]) -> None:
    data, target = lessons.training_data(), ss["target"]
    a, b, c = st.columns(3)
    x = a.selectbox("x axis", gaussian, index=0, format_func=str, key=lessons.wkey("bx"))
    y = b.selectbox("y axis", [g for g in gaussian if g != x], index=0, format_func=str, key=lessons.wkey("by"))
    variances = {"shared": "shared variances (Eq. 20): linear", "diagonal": "own variances per class: quadratic"}
    kind = c.radio("Variances", list(variances), format_func=variances.get, key=lessons.wkey("bkind"))
    try:
        fitted = covariance.fit_gaussian_classes(data, [x, y], target, covariance=kind)
        grid = covariance.density_grid(fitted, x, y, points=120)
    except DataError as err:
        ui.show_error(err)
        return
    st.plotly_chart(lessons.boundary_figure(grid, data, target, f"Gaussian Naive Bayes, {variances[kind]}"),
                    key="lessons.boundary_chart")


# --------------------------------------------------------------------------- 4 naive assumption


def naive_view(model: Any) -> None:
    st.subheader("The naive assumption")
    st.write("Naive Bayes treats the features as independent given the class: each Gaussian class has a diagonal "
             "covariance (seed 000, Eq. 13-14) instead of a full one (Eq. 15-16, Fig. 2). That costs far fewer "
             "parameters (exercise 2.4), but correlated features then \"say the same thing twice\" and the "
             "posterior becomes overconfident (seed 003): copy a feature and see.")
    _contours_ui(model)
    _parameter_count_ui(model)
    _duplicate_ui(model)


def _contours_ui(model: Any) -> None:
    gaussian = _gaussian_columns(model)
    if len(gaussian) < 2:
        lessons.offer_example("The contours need two Gaussian features; this model has "
                              f"{len(gaussian)}.", "gender", button_key="lessons.naive_load")
        return
    lessons.seed_example("gender", button_key="lessons.naive_load")
    _contours_fragment(gaussian)


@st.fragment
def _contours_fragment(gaussian: list[str]) -> None:
    data, target = lessons.training_data(), ss["target"]
    a, b = st.columns(2)
    x = a.selectbox("x axis", gaussian, index=0, format_func=str, key=lessons.wkey("cx"))
    y = b.selectbox("y axis", [g for g in gaussian if g != x], index=0, format_func=str, key=lessons.wkey("cy"))
    left, right = st.columns(2)
    for where, kind, title in ((left, "diagonal", "With the naive assumption (diagonal Σ_c)"),
                               (right, "full", "Without it (full Σ_c)")):
        try:
            fitted = covariance.fit_gaussian_classes(data, [x, y], target, covariance=kind)
            grid = covariance.density_grid(fitted, x, y, points=100)
        except DataError as err:
            with where:
                ui.show_error(err)
            continue
        where.plotly_chart(lessons.contour_figure(grid, fitted, data, title), key=f"lessons.contour::{kind}")


def _parameter_count_ui(model: Any) -> None:
    st.markdown("**Parameters of the Gaussian likelihood** (exercise 2.4; class priors not counted)")
    a, b, c, d = st.columns(4)
    dims = a.number_input("d features", min_value=1, max_value=10_000, step=1,
                          value=len(_gaussian_columns(model)) or 10, key=lessons.wkey("param_d"))
    k = b.number_input("K classes", min_value=1, max_value=1000, step=1, value=len(model.classes_),
                       key=lessons.wkey("param_k"))
    c.metric("Naive: 2dK", f"{covariance.parameter_count(int(dims), int(k), naive=True):,}")
    d.metric("Full: dK + K d(d+1)/2", f"{covariance.parameter_count(int(dims), int(k), naive=False):,}")


def _duplicate_ui(model: Any) -> None:
    st.markdown("**Duplicate a feature**")
    if not st.toggle("Duplicate a feature (refits with 1 to 5 extra copies)", key=lessons.wkey("dup_on")):
        return
    _duplicate_fragment(model)


@st.fragment
def _duplicate_fragment(model: Any) -> None:
    columns = list(model.features_)
    left, right = st.columns(2)
    column = left.selectbox("Feature to copy", columns, format_func=str, key=lessons.wkey("dup_col"))
    copies = right.slider("Extra copies", 0, 5, 2, key=lessons.wkey("dup_k"))
    row = lessons.example_row(model)
    try:
        effect = lessons.cached_duplicate_effect(ui.model_key(), lessons.frozen_row(row), column, _model=model,
                                                 _frame=lessons.training_data(), _row=row)
    except DataError as err:
        ui.show_error(err)
        return
    top = effect.posterior.loc[0].idxmax()
    cols = st.columns(3)
    cols[0].metric(f"P({ui.md(top)} | x), no copy", ui.fmt_number(effect.posterior.loc[0, top]))
    cols[1].metric(f"P({ui.md(top)} | x), {copies} extra", ui.fmt_number(effect.posterior.loc[copies, top]))
    cols[2].metric(f"Mean confidence, {copies} extra", ui.fmt_number(effect.mean_confidence.loc[copies]))
    st.plotly_chart(lessons.duplicate_figure(effect.posterior, effect.mean_confidence, effect.accuracy),
                    key="lessons.dup_chart")
    st.caption("The copies carry no new information, yet each enters the product again: the posterior moves "
               "towards 0 or 1. A full covariance would notice: the copy makes Σ_c singular.")


# --------------------------------------------------------------------------- 5 calibration


def calibration_view(model: Any) -> None:
    st.subheader("Calibration: are the posteriors too sure?")
    st.write("Because dependencies are ignored, Naive Bayes posteriors are often unrealistically close to 0 or 1 "
             "(seed 003). Every row gets a posterior from a model that did not see it (stratified k-fold "
             "cross-validation); rows are binned by that posterior and compared with how often the class was "
             "right. A calibrated model lies on the diagonal. The Brier score is the mean squared distance "
             "between the posteriors and the truth (0 is perfect).")
    _calibration_fragment(model)


@st.fragment
def _calibration_fragment(model: Any) -> None:
    classes = list(model.classes_)
    a, b, c = st.columns(3)
    k = a.number_input("Folds k", min_value=2, max_value=20, value=5, step=1, key=lessons.wkey("cal_k"))
    n_bins = b.slider("Bins", 3, 20, 10, key=lessons.wkey("cal_bins"))
    options = [None, *classes]
    positive = c.selectbox("Score", options, format_func=lambda v: "the predicted class (top label)" if v is None
                           else f"P({v} | x) one against the rest", key=lessons.wkey("cal_pos"))
    try:
        report = lessons.cached_calibration(ui.model_key(), ss["target"], ss.get("weight"), int(k), int(n_bins),
                                            positive, _make_model=lambda: nbapp.NaiveBayes(**model.params()),
                                            _frame=lessons.training_data())
    except DataError as err:
        ui.show_error(err)
        return
    m1, m2, m3 = st.columns(3)
    m1.metric("Brier score", f"{report.brier:.4f}")
    m2.metric("Expected calibration error", f"{report.reliability.expected_calibration_error:.4f}")
    m3.metric("Cross-validated rows", f"{len(report.truth):,}")
    for note in report.notes:
        st.caption(ui.md(note))
    left, right = st.columns([3, 2])
    left.plotly_chart(lessons.reliability_figure(report.reliability.bins, report.reliability.label),
                      key="lessons.reliability")
    right.dataframe(report.reliability.bins, hide_index=True, key="lessons.cal_bins_table")


# --------------------------------------------------------------------------- 6 generative vs discriminative


def generative_view(model: Any) -> None:
    st.subheader("Generative vs discriminative")
    st.write("Naive Bayes is generative: it estimates p(x | y) p(y) by counting. Logistic regression is "
             "discriminative: it fits p(y | x) directly. Both give a linear log-odds and tend to the same model "
             "(seed 000, section 3 and Eq. 20), but Naive Bayes reaches its asymptote with far fewer rows and "
             "trains faster; with plenty of data logistic regression is often more accurate. Both are trained "
             "here on the same growing subsets of the current data and scored on the same held-out rows.")
    _generative_fragment(model)


@st.fragment
def _generative_fragment(model: Any) -> None:
    repeats = st.slider("Repeats (each a new seeded split)", 1, 5, 3, key=lessons.wkey("lc_repeats"))
    try:
        curve = lessons.cached_learning_curve(ui.model_key(), ss["target"], ss.get("weight"), int(repeats),
                                              _make_model=lambda: nbapp.NaiveBayes(**model.params()),
                                              _frame=lessons.training_data(), _features=dict(model.features_))
    except ImportError:
        st.info("The comparison needs scikit-learn, which is not installed here.")
        return
    except DataError as err:
        ui.show_error(err)
        return
    summary = curve.summary
    largest = summary[summary["train_size"] == summary["train_size"].max()].set_index("model")
    cols = st.columns(len(largest))
    for col, (name, r) in zip(cols, largest.iterrows()):
        col.metric(f"{name}: accuracy at {int(r['train_size'])} rows", f"{r['accuracy_mean']:.3f}")
    st.caption(f"Scored on {curve.test_rows:,} held-out rows per repeat.")
    for note in curve.notes:
        st.caption(ui.md(note))
    left, right = st.columns(2)
    left.plotly_chart(lessons.learning_curve_figure(summary, "accuracy", "Accuracy on held-out rows"),
                      key="lessons.lc_accuracy")
    right.plotly_chart(lessons.learning_curve_figure(summary, "fit_seconds", "Training time", log_y=True),
                       key="lessons.lc_time")
    st.dataframe(summary, hide_index=True, key="lessons.lc_table")


# --------------------------------------------------------------------------- 7 generate data


def generate_view(model: Any) -> None:
    st.subheader("Generate data from the model")
    st.write("A generative model can write new data (seed 000, section 3, point 3): draw a class from P(c), then "
             "each feature from P(x_a | c), independently. The rows look plausible one feature at a time, yet "
             "miss every dependency between features: exactly what the naive assumption throws away.")
    _generate_fragment(model)


@st.fragment
def _generate_fragment(model: Any) -> None:
    a, b = st.columns(2)
    n = a.slider("Rows to generate", 5, 200, 10, key=lessons.wkey("gen_n"))
    seed = b.number_input("Random seed", min_value=0, value=0, step=1, key=lessons.wkey("gen_seed"))
    generated = model.sample(int(n), random_state=int(seed))
    columns = [c for c in generated.columns if c in ui.frame().columns]
    real = ui.frame()[columns]
    real = real.sample(min(int(n), len(real)), random_state=int(seed))
    left, right = st.columns(2)
    left.markdown("**Generated by the model**")
    left.dataframe(generated, hide_index=True, key="lessons.generated")
    right.markdown("**Real rows (a random sample)**")
    right.dataframe(real, hide_index=True, key="lessons.real_rows")
    kinds = feature_kinds(model)
    drawable = [c for c in model.features_ if kinds[c] != "text" and c in real.columns]
    if drawable:
        column = st.selectbox("Compare one column", [model.target_, *drawable], format_func=str, key=lessons.wkey("gen_col"))
        st.plotly_chart(lessons.compare_histogram(ui.frame()[column], generated[column], column),
                        key="lessons.gen_chart")


# --------------------------------------------------------------------------- 8 underflow


def underflow_view(model: Any) -> None:
    st.subheader("Underflow: why Naive Bayes adds logs")
    st.write("The joint P(c) ∏ P(x_a | c) multiplies one probability per word. A float64 cannot hold a positive "
             "number below about 4.9 × 10⁻³²⁴, so for a long document the running product becomes exactly 0.0 "
             "for every class and the posterior 0/0. The sum of logs stays an ordinary number however long the "
             "input (seeds 002 and 004). Here the test example's text is repeated to make it long.")
    kinds = feature_kinds(model)
    text = [c for c, k in kinds.items() if k == "text"]
    counts = [c for c, k in kinds.items() if k == "multinomial"]
    if not text and not counts:
        lessons.offer_example("Underflow needs many factors: a text or word-count feature; this model has "
                              "neither.", "sms_spam", button_key="lessons.underflow_load")
        return
    lessons.seed_example("sms_spam", button_key="lessons.underflow_load")
    _underflow_fragment(model, text, counts)


@st.fragment
def _underflow_fragment(model: Any, text: list[str], counts: list[str]) -> None:
    repeat = st.slider("Repeat the test example's text (and counts)", 1, 200, 40, key=lessons.wkey("uf_repeat"))
    row = lessons.example_row(model)
    for c in text:
        row[c] = " ".join([str(row[c])] * int(repeat)) if isinstance(row[c], str) else row[c]
    for c in counts:
        row[c] = row[c] * int(repeat) if not ui.state.is_missing(row[c]) else row[c]
    try:
        trace = underflow_trace(model.explain(row))
    except DataError as err:
        ui.show_error(err)
        return
    classes = trace.classes
    st.caption(f"{len(trace.product):,} factors: the prior and one per word occurrence.")
    table = pd.DataFrame({
        "raw product": [repr(float(trace.final_product[c])) for c in classes],
        "sum of logs": [f"{trace.final_log[c]:.4f}" for c in classes],
        "true joint": [f"10^{trace.final_log10[c]:.2f}" for c in classes],
        "product is 0.0 from factor": [("never" if pd.isna(trace.underflow_step[c]) else str(trace.underflow_step[c]))
                                       for c in classes],
        "posterior by products": [ui.fmt_number(trace.raw_posterior[c]) if not pd.isna(trace.raw_posterior[c])
                                  else "0/0 (undefined)" for c in classes],
        "posterior by logs": [ui.fmt_number(trace.log_posterior[c]) for c in classes],
    }, index=pd.Index([str(c) for c in classes], name="class"))
    st.dataframe(table, key="lessons.underflow_table")
    if trace.underflowed:
        st.warning("The raw product reached 0.0 while the sum of logs stayed finite.")
    else:
        st.info("No underflow yet: repeat the text more often.")
    st.plotly_chart(lessons.underflow_figure(trace.product, trace.log_sum), key="lessons.underflow_chart")


# --------------------------------------------------------------------------- 9 incremental learning


def incremental_view(model: Any) -> None:
    st.subheader("Incremental learning")
    st.write("Fitting Naive Bayes is counting, and counts add up: a new training row only increments the counts "
             "of its class and values, then the probabilities follow (seed 001: Naive Bayes supports incremental "
             "learning). Add a row by hand and watch the counts, the CPT and the test example's posterior change "
             "(partial_fit on a copy of the model; the model of the other pages stays as it is).")
    key = ui.model_key()
    if ss.get("lessons_inc_key") != key:
        ss["lessons_inc_key"] = key
        ss["lessons_inc_stack"] = [copy.deepcopy(model)]
        ss["lessons_inc_rows"] = []
    _incremental_fragment()


def _row_input(model: Any, column: str, kind: str, i: int) -> Any:
    label = ui.md(column)
    if kind in ("categorical", "bernoulli"):
        return st.selectbox(label, list(model.cpt(column).index), format_func=str, key=lessons.wkey(f"inc::{i}"))
    if kind == "text":
        return st.text_input(label, value="", key=lessons.wkey(f"inc::{i}"))
    return st.number_input(label, value=0.0, format="%g", key=lessons.wkey(f"inc::{i}"))


@st.fragment
def _incremental_fragment() -> None:
    stack = ss["lessons_inc_stack"]
    base, current = stack[0], stack[-1]
    kinds = feature_kinds(current)
    with st.form("lessons.inc_form", border=True):
        st.markdown("**A new training row**")
        items = list(kinds.items())
        row: dict[str, Any] = {}
        cells = st.columns(min(len(items), 4) + 1)
        for i, (column, kind) in enumerate(items):
            with cells[i % (len(cells) - 1)]:
                row[column] = _row_input(current, column, kind, i)
        with cells[-1]:
            row[current.target_] = st.selectbox(f"{ui.md(current.target_)} (class)", list(current.classes_),
                                                format_func=str, key=lessons.wkey("inc_class"))
        added = st.form_submit_button("Add this row (partial_fit)", icon=":material/add:")
    if added:
        if current.weight_ is not None:
            row[current.weight_] = 1
        updated = copy.deepcopy(current)
        try:
            updated.partial_fit(pd.DataFrame([row]))
        except DataError as err:
            ui.show_error(err)
        else:
            stack.append(updated)
            ss["lessons_inc_rows"].append({k: row[k] for k in row})
            current = updated
    undo, reset, info = st.columns([1, 1, 3])
    if undo.button("Undo the last row", key="lessons.inc_undo", disabled=len(stack) < 2, icon=":material/undo:"):
        stack.pop()
        ss["lessons_inc_rows"].pop()
        current = stack[-1]
    if reset.button("Start again", key="lessons.inc_reset", disabled=len(stack) < 2):
        del stack[1:]
        ss["lessons_inc_rows"].clear()
        current = stack[-1]
    info.metric("Rows added by hand", len(stack) - 1)
    if ss["lessons_inc_rows"]:
        st.dataframe(pd.DataFrame(ss["lessons_inc_rows"]).astype(str), hide_index=True, key="lessons.inc_rows")
    _incremental_tables(base, current)


def _incremental_tables(base: Any, current: Any) -> None:
    kinds = feature_kinds(current)
    counts_table = pd.DataFrame({"before": show_counts(pd.DataFrame({"n": base.class_counts_}))["n"].to_numpy(),
                                 "now": show_counts(pd.DataFrame({"n": current.class_counts_}))["n"].to_numpy()},
                                index=pd.Index([str(c) for c in current.classes_], name="class n_c"))
    row = lessons.example_row(current)
    posterior = pd.DataFrame({"before": base.predict_proba(pd.DataFrame([row])).iloc[0].map(ui.fmt_number),
                              "now": current.predict_proba(pd.DataFrame([row])).iloc[0].map(ui.fmt_number)})
    posterior.index = pd.Index([str(c) for c in posterior.index], name="P(c | test example)")
    left, right = st.columns(2)
    left.dataframe(counts_table, key="lessons.inc_class_counts")
    right.dataframe(posterior, key="lessons.inc_posterior")
    discrete = [c for c, k in kinds.items() if k in ("categorical", "bernoulli")]
    if not discrete:
        return
    column = st.selectbox("Counts and CPT of", discrete, format_func=str, key=lessons.wkey("inc_col"))
    left, right = st.columns(2)
    left.markdown("Counts N(v, c) now")
    left.dataframe(show_counts(current.counts(column)).rename(index=str, columns=str), key="lessons.inc_counts")
    right.markdown("P(v | c) now")
    right.dataframe(current.cpt(column).map(ui.fmt_number).rename(index=str, columns=str), key="lessons.inc_cpt")


# --------------------------------------------------------------------------- 10 export


def export_view(model: Any) -> None:
    st.subheader("Export a worked example")
    st.write("The test example of the Explain page, step by step as in seed 000, Eq. 5 and seed 004's "
             "posterior = likelihood × prior / normalisation: prior, each factor, joint (as a product and as a "
             "sum of logs), evidence, posterior. Download it as Markdown with LaTeX for a slide or a handout, "
             "or as a short Python program using nbapp that reproduces the same numbers.")
    row = lessons.example_row(model)
    source = ss["source"]
    try:
        e = model.explain(row)
        text = worked_example_markdown(e, model=model, title=f"Worked example: {source.name}")
        example_key = source.example if source.reader == "example" and ss.get("imported") is None else None
        snippet = worked_example_snippet(model, row, example=example_key)
    except DataError as err:
        ui.show_error(err)
        return
    left, right = st.columns(2)
    left.download_button("Download the worked example (Markdown)", text.encode("utf-8"),
                         file_name="worked_example.md", mime="text/markdown", key="lessons.md_download",
                         icon=":material/download:")
    right.download_button("Download the Python snippet", snippet.encode("utf-8"), file_name="worked_example.py",
                          mime="text/x-python", key="lessons.py_download", icon=":material/download:")
    if example_key is None:
        st.caption("The snippet embeds the fitted model as JSON, so it runs without the data file.")
    st.code(snippet, language="python")
    with st.expander("Preview of the Markdown", expanded=True):
        st.markdown(text)  # nbapp escapes every label and value of the data for Markdown and LaTeX


RENDER = {
    "smoothing": smoothing_view, "prior": prior_view, "linear": linear_view, "naive": naive_view,
    "calibration": calibration_view, "generative": generative_view, "generate": generate_view,
    "underflow": underflow_view, "incremental": incremental_view, "export": export_view,
}

view = _view_ui()
model = ui.require_model()
RENDER[view](model)
