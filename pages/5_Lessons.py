"""Lessons: ten ideas of the lectures made visible on the current data and model (issue 6).

Every number on this page comes from nbapp (smoothing_path, prior_evidence, linear_form,
covariance, calibration, curves, sample, underflow, partial_fit, worked_example); the page
only collects input and draws.
"""

from __future__ import annotations

import streamlit as st

import ui
from ui.lessons import calibration, export, generate, generative, incremental, linear, naive, prior, smoothing, underflow

ui.ensure_state()
ui.sidebar_summary()
ui.page_header("Lessons", "Ten ideas of the lectures, each shown live on the current data and model: pick one. "
               "Change the data or the settings on the other pages and come back.")

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
RENDER = {
    "smoothing": smoothing.render, "prior": prior.render, "linear": linear.render, "naive": naive.render,
    "calibration": calibration.render, "generative": generative.render, "generate": generate.render,
    "underflow": underflow.render, "incremental": incremental.render, "export": export.render,
}


LESSON = "lessons.view"     # the work's choice of lesson


def _view_ui() -> str:
    chosen = ui.work().choice(LESSON)
    shown = chosen if chosen in VIEWS else "smoothing"
    ui.synced(st.segmented_control, "Lesson", key="_lessons_view", value=shown, options=list(VIEWS),
              format_func=VIEWS.get, label_visibility="collapsed",
              on_set=lambda v: ui.set_choice(LESSON, v or shown))
    return shown


view = _view_ui()
model = ui.require_model()
RENDER[view](model)
