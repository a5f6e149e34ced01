"""Lesson 4: naive assumption (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons import covariance
from ui import charts, lessons
from ui.presentation import projected

ss = st.session_state


def render(model: Any) -> None:
    st.subheader("The naive assumption")
    st.write("Naive Bayes treats the features as independent given the class: each Gaussian class has a diagonal "
             f"covariance{ui.ref('seed 000, Eq. 13-14')} instead of a full one{ui.ref('Eq. 15-16, Fig. 2')}. That "
             f"costs far fewer parameters{ui.ref('exercise 2.4')}, but correlated features then \"say the same thing "
             f"twice\" and the posterior becomes overconfident{ui.ref('seed 003')}: copy a feature and see.")
    _contours_ui(model)
    _parameter_count_ui(model)
    _duplicate_ui(model)


def _contours_ui(model: Any) -> None:
    gaussian = lessons.gaussian_columns(model)
    if len(gaussian) < 2:
        lessons.offer_example("The contours need two Gaussian features; this model has "
                              f"{len(gaussian)}.", "gender", button_key="lessons.naive_load")
        return
    lessons.seed_example("gender", button_key="lessons.naive_load")
    _contours_fragment(gaussian)


@st.fragment
def _contours_fragment(gaussian: list[str]) -> None:
    data, target = lessons.training_data(), ui.work().target
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
        charts.show(where, projected(lessons.contour_figure(grid, fitted, data, title)), key=f"lessons.contour::{kind}")


def _parameter_count_ui(model: Any) -> None:
    st.markdown("**Parameters of the Gaussian likelihood** (exercise 2.4; class priors not counted)")
    a, b, c, d = st.columns(4)
    dims = a.number_input("d features", min_value=1, max_value=10_000, step=1,
                          value=len(lessons.gaussian_columns(model)) or 10, key=lessons.wkey("param_d"))
    k = b.number_input("K classes", min_value=1, max_value=1000, step=1, value=len(model.classes_),
                       key=lessons.wkey("param_k"))
    c.metric("Naive: 2dK", f"{covariance.parameter_count(int(dims), int(k), naive=True):,}")
    d.metric("Full: dK + K d(d+1)/2", f"{covariance.parameter_count(int(dims), int(k), naive=False):,}")


def _duplicate_ui(model: Any) -> None:
    st.markdown("**Duplicate a feature**")
    if ui.work().source.example_key != "tennis14" or ui.settings().alpha != 1.0:
        left, right = st.columns([3, 2], vertical_alignment="center")
        left.caption(f"The lecture's example for this idea: tennis with l = 1{ui.ref('seed 000 and 003')}, where the "
                     "posterior of x* is 0.56 and copies visibly push it towards 0 or 1.")
        if right.button("Load tennis with l = 1", key="lessons.dup_load", icon=":material/upload:"):
            ui.load_example_into_state("tennis14")
            ui.set_settings(alpha=1.0)
            st.rerun()
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
    side = covariance.favoured_class(model, row, column)
    top = side if side is not None else effect.posterior.loc[0].idxmax()
    before, after = effect.posterior.loc[0, top], effect.posterior.loc[copies, top]
    cols = st.columns(3)
    cols[0].metric(f"P({ui.md(top)} | x), no copy", ui.fmt_number(before))
    cols[1].metric(f"P({ui.md(top)} | x), {copies} extra", ui.fmt_number(after))
    cols[2].metric(f"Mean confidence, {copies} extra", ui.fmt_number(effect.mean_confidence.loc[copies]))
    charts.show(st, projected(lessons.duplicate_figure(effect.posterior, effect.mean_confidence, effect.accuracy)),
                key="lessons.dup_chart")
    if side is None:
        st.caption(f"{ui.md(column)} favours no class for this example (missing, unseen or equal factors), so its "
                   "copies change nothing here; pick another feature.")
    else:
        st.caption(f"{ui.md(column)} favours {ui.md(side)} for this example. The copies carry no new information, "
                   f"yet each enters the product again: P({ui.md(side)} | x) goes from {ui.fmt_number(before)} to "
                   f"{ui.fmt_number(after)}, towards 1 (overconfidence{ui.ref('seed 003')}). A full covariance "
                   "would notice: the copy makes Σ_c singular.")
