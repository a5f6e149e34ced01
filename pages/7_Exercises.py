"""Exercises: questions drawn from the current model and data, answered here and graded exactly,
and the sheet to hand out (issue 23, item 3)."""

from __future__ import annotations

import streamlit as st

import ui
from ui import exercises as sheet
from ui.presentation import presentation_ui

ui.ensure_state()
presenting = presentation_ui()
if not presenting:
    ui.sidebar_summary()
ui.page_header("Exercises", "Questions a lecture asks, drawn from the current example or data and its settings: "
               "type a fraction, a decimal or a percentage; the answer is judged against the model's exact "
               "value and the worked line is shown. The same seed gives the same sheet.")

model = ui.require_model()
available, unavailable = sheet.available_kinds(model)
config = sheet.sheet_config_ui(available)
if unavailable:
    st.caption("Not asked of this model: " + "; ".join(f"{sheet.KIND_LABELS[k]}: {ui.md(why)}"
                                                       for k, why in unavailable.items()))
exercise = sheet.exercise_set(model, config)
if exercise is None:
    st.stop()
sheet.downloads_ui(exercise)
sheet.questions_ui(exercise)
