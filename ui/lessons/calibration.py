"""Lesson 5: calibration (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import streamlit as st

import nbapp
import ui
from nbapp.errors import DataError
from ui import charts, lessons
from ui.classes import label_format
from ui.presentation import frame_ui, projected

ss = st.session_state


def render(model: Any) -> None:
    st.subheader("Calibration: are the posteriors too sure?")
    st.write("Because dependencies are ignored, Naive Bayes posteriors are often unrealistically close to 0 or 1"
             f"{ui.ref('seed 003')}. Every row gets a posterior from a model that did not see it (stratified k-fold "
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
    name = label_format(classes)
    positive = c.selectbox("Score", options, format_func=lambda v: "the predicted class (top label)" if v is None
                           else f"P({name(v)} | x) one against the rest", key=lessons.wkey("cal_pos"))
    try:
        report = lessons.cached_calibration(ui.model_key(), model.target_, model.weight_, int(k), int(n_bins),
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
    charts.show(left, projected(lessons.reliability_figure(report.reliability.bins, report.reliability.label)),
                key="lessons.reliability")
    frame_ui(right, report.reliability.bins, hide_index=True, key="lessons.cal_bins_table")
