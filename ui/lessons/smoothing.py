"""Lesson 1: smoothing (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons.smoothing_path import DEFAULT_STRENGTHS
from ui import charts, lessons
from ui.classes import label_format
from ui.formulas import show_counts
from ui.presentation import frame_ui, projected
from ui.views import views_of

ss = st.session_state

#: Refits per variant along the smoothing path: every 0.5 on small data, fewer on big data.
COARSE_STRENGTHS = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0)
BIG_DATA_ROWS = 1000


def render(model: Any) -> None:
    st.subheader("MLE vs MAP: how smoothing moves the probabilities")
    st.write("With l = 0 every CPT cell is a relative frequency, the maximum-likelihood estimate; a value never "
             "seen with a class gets probability 0 and rules that class out, whatever the other features say. "
             f"Adding l pseudo-counts per value, (count + l) / (n_c + l K){ui.ref('seed 000, Eq. 7')}, is a MAP "
             f"estimate with a Dirichlet prior{ui.ref('seed 002')}; the m-estimate (n_y + m p) / (n + m)"
             f"{ui.ref('seed 003')} and the Beta(a, b) prior (N_cd + a) / (N_c + a + b){ui.ref('seed 002')} are the "
             "same idea. Move l and watch the "
             "cells of the test example and its posterior.")
    if not any(view.block.smoothed for view in views_of(model.features_).values()):
        lessons.offer_example("Smoothing acts on counted features; this model has only Gaussian ones.",
                              "tennis14", button_key="lessons.smoothing_load")
        return
    lessons.seed_example("tennis14", button_key="lessons.smoothing_load")
    if ui.work().source.example_key != "stolen_cars":   # the Beta prior acts on Bernoulli features (seed 002)
        st.caption(f"The Beta(a, b) curve{ui.ref('seed 002')} is drawn on the stolen cars example: Bernoulli "
                   "with Red, SUV and Domestic as 1.")
        lessons.seed_example("stolen_cars", button_key="lessons.smoothing_load_beta")
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
    name = label_format(list(posterior.index))
    cols = st.columns(min(len(posterior), 4))
    for col, (cls, p) in zip(cols, list(posterior.items())[:4]):
        col.metric(f"P({ui.md(name(cls))} | x) at l = {strength:g}", ui.fmt_number(p))
    left, right = st.columns(2)
    if len(path.cells):
        charts.show(left, projected(lessons.smoothing_figure(path.cells, strength, variants)), key="lessons.cells_chart")
    else:
        left.info("The test example has no categorical, Bernoulli or count value to follow; text features are "
                  "smoothed too, their words are on the Explain page.")
    charts.show(right, projected(lessons.posterior_path_figure(path.posterior, strength, variants)), key="lessons.post_chart")
    at_l = path.cells[(path.cells["variant"] == "lidstone") & (path.cells["strength"] == strength)]
    if len(at_l):
        table = pd.DataFrame({"column": at_l["column"].astype(str), "value": at_l["value"].astype(str),
                              "class": at_l["class"].map(name),
                              "count": show_counts(at_l[["count"]])["count"],
                              f"P(v | c) at l = {strength:g}": at_l["probability"].map(ui.fmt_number),
                              "zero count": at_l["zero_count"]})
        frame_ui(st, table, hide_index=True, key="lessons.cells_table")
    zero = path.zero_cells
    if len(zero):
        listed = "; ".join(f"{ui.md(r.column)} = {ui.md(r.value)} given {ui.md(r['class'])}"
                           for _, r in zero.iterrows())
        message = (f"{len(zero)} cell(s) have count 0 and are 0 under the MLE (marked ✕ at l = 0): {listed}.")
        (st.warning if strength == 0 else st.caption)(message)
