"""Lesson 3: linear classifier (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons import covariance
from ui import charts, lessons
from ui.presentation import frame_ui, projected

ss = st.session_state


def render(model: Any) -> None:
    st.subheader("Naive Bayes is a linear classifier")
    st.write("For two classes the log-odds log P(c1 | x) / P(c0 | x) is a sum of one term per feature value, "
             "so it is w · x + b with b = log P(c1)/P(c0) and one weight per value: log θ(v | c1) / θ(v | c0)"
             f"{ui.ref('seed 000, section 2.3, Eq. 17-19')}. sign(w · x + b) is the prediction. With Gaussian "
             f"features the boundary is linear when both classes share each variance{ui.ref('Eq. 20')} and quadratic "
             "otherwise.")
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


def _shared_variance_form(model: Any) -> Any:
    """The notes' Eq. 20 needs one variance per feature shared by the classes: the same model
    refitted with pooled variances (its w_GNB, b_GNB), or the model itself if it has them."""
    if model.variance == "pooled" or not lessons.gaussian_columns(model):
        return model.linear_form().notes_form()
    import dataclasses

    import nbapp

    pooled = nbapp.NaiveBayes.from_settings(model.features_, dataclasses.replace(model.settings, variance="pooled"))
    pooled.fit_stats(model.stats_, model.target_, model.weight_)   # the same statistics: no data needed
    return pooled.linear_form().notes_form()


def _notes_form_ui(model: Any, form: Any) -> None:
    """w and b as seed 000 writes them: w_BER, b_BER (Eq. 18), w_GNB, b_GNB (Eq. 20), w_MULT (Eq. 19)."""
    notes = _shared_variance_form(model) if lessons.gaussian_columns(model) else form.notes_form()
    suffix = "/".join(k for k in notes.kinds if k != "CAT") or "CAT"
    ones = ", ".join(f"{ui.md(c)} = {ui.md(v)}" for c, v in notes.ones.items())
    st.markdown(f"**In the notes' form** h(x) = sign(w_{suffix}ᵀ x + b_{suffix}){ui.ref('seed 000, Eq. 17-20')}"
                + (f"; x = 1 for {ones}" if ones else ""))
    c1, c2 = st.columns([1, 2])
    c1.metric(f"b_{suffix}", f"{notes.bias:+.4f}")
    frame_ui(c2, pd.DataFrame({f"w_{suffix}": notes.weights.astype(float)}).rename(index=str),
                 key="lessons.notes_weights")
    if "GNB" in notes.kinds and model.variance != "pooled":
        st.caption("w_GNB = (μ₊ − μ₋) / σ², b_GNB = log P(+)/P(−) + Σ (μ₋² − μ₊²) / (2σ²), with each σ² shared by "
                   f"the classes (pooled): the notes' form{ui.ref('Eq. 20')} assumes it; the model on the Model "
                   "page keeps its own variances.")


def _linear_form_ui(model: Any, form: Any) -> None:
    data = ui.frame()
    score = form.decision_function(data)
    positive_side = score > 0
    predicted = model.predict(data)
    agree = predicted.notna() & (positive_side == predicted.eq(form.positive))
    _notes_form_ui(model, form)
    c2, c3 = st.columns(2)
    c2.metric("Rows where sign(w·x + b) = prediction", f"{int(agree.sum())} / {len(data)}")
    c3.metric("Boundary", "quadratic (x² terms)" if form.quadratic else "linear")
    st.caption(f"Positive side: {ui.md(form.positive)} (w·x + b > 0); negative side: {ui.md(form.negative)}.")
    with st.expander("One indicator per value (missing values allowed): w and b = log P(c1)/P(c0)"):
        st.metric("b = log P(c1)/P(c0) (constants stay on the indicators)", f"{form.bias:+.4f}")
        left, right = st.columns([3, 2])
        charts.show(left, projected(lessons.weights_bar(form.weights)), key="lessons.weights_chart")
        frame_ui(right, pd.DataFrame({"w": form.weights.astype(float)}).rename(index=str),
                        key="lessons.weights_table", height=360)
    by_sign = positive_side.map({True: form.positive, False: form.negative})
    check = pd.DataFrame({"w·x + b": score.to_numpy(), "class by sign": by_sign.astype(str).to_numpy(),
                          "prediction": predicted.astype(str).to_numpy(), "agree": agree.to_numpy()},
                         index=data.index)
    st.markdown("**The check, row by row**")
    frame_ui(st, check.head(2000), key="lessons.linear_check")


def _boundary_ui(model: Any) -> None:
    st.markdown("**Decision boundary of two Gaussian features**")
    gaussian = lessons.gaussian_columns(model)
    if len(gaussian) < 2:
        lessons.offer_example("The boundary needs two Gaussian features; this model has "
                              f"{len(gaussian)}.", "gender", button_key="lessons.boundary_load")
        return
    _boundary_fragment(gaussian)


@st.fragment
def _boundary_fragment(gaussian: list[str]) -> None:
    data, target = lessons.training_data(), ui.work().target
    a, b, c = st.columns(3)
    x = a.selectbox("x axis", gaussian, index=0, format_func=str, key=lessons.wkey("bx"))
    y = b.selectbox("y axis", [g for g in gaussian if g != x], index=0, format_func=str, key=lessons.wkey("by"))
    variances = {"shared": f"shared variances{ui.ref('Eq. 20')}: linear",
                 "diagonal": "own variances per class: quadratic"}
    kind = c.radio("Variances", list(variances), format_func=variances.get, key=lessons.wkey("bkind"))
    try:
        fitted = covariance.fit_gaussian_classes(data, [x, y], target, covariance=kind)
        grid = covariance.density_grid(fitted, x, y, points=120)
    except DataError as err:
        ui.show_error(err)
        return
    charts.show(st, projected(lessons.boundary_figure(grid, data, target, f"Gaussian Naive Bayes, {variances[kind]}")),
                key="lessons.boundary_chart")
