"""Model: smoothing, class prior and the settings of each feature type; every fitted table with its formula.

Each section of tables is a fragment (a panel): choosing a feature, a class or a view reruns that
section only; a change of the settings reruns the page (the model, and so every table, changes)."""

from __future__ import annotations

import streamlit as st

import ui
from ui import presentation
from ui.fitted_tables import prior_table_ui
from ui.model_file import model_file_ui
from ui.model_sections import fitted_options_ui, sections_ui
from ui.model_settings import column_options_ui, settings_ui

ui.ensure_state()
if presentation.presentation_ui():
    presentation.model_presentation_ui(ui.require_model())
    st.stop()
ui.sidebar_summary()
ui.page_header("Model", "Choose how the probabilities are estimated, then read every table the model "
               "learned, with the formula behind one cell of it.")

settings_ui()
column_options_ui(ui.work(), ui.frame())
model = ui.require_model()
ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
fitted_options_ui(model, ui.frame())
prior_table_ui(model)
sections_ui(model, ui.frame())
model_file_ui(model)
