"""The Model page's sections after the fit, in order: the CPTs of every counted column, each
type's own section (in the registry's order), the choice of a numeric type, the naive
assumption's check and the top words; each asks the types' views which columns it shows."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ui.dependence_check import dependence_ui
from ui.fitted_tables import cpt_ui
from ui.top_words import top_words_ui
from ui.type_choice import numeric_choice_ui
from ui.views import columns_where, grouped, registered

__all__ = ["fitted_options_ui", "sections_ui"]


def fitted_options_ui(model: Any, frame: pd.DataFrame) -> None:
    """The options a type offers once fitted (the Bernoulli "1")."""
    for view, columns in grouped(model.features_):
        view.fitted_options_ui(model, columns, frame)


def sections_ui(model: Any, frame: pd.DataFrame) -> None:
    cpt = columns_where(model.features_, lambda v: v.in_cpt_section)
    if cpt:
        cpt_ui(model, cpt)
    types = {view.kind: columns for view, columns in grouped(model.features_)}
    for view in registered():
        if view.kind in types:
            _type_section_ui(view, model, types[view.kind], frame)
    numeric = columns_where(model.features_, lambda v: v.in_numeric_choice)
    if numeric:
        numeric_choice_ui(model, numeric)
    dependence_ui(model)
    words = [c for view, columns in grouped(model.features_) for c in view.word_columns(columns)]
    if words:
        top_words_ui(model, words)


@st.fragment
def _type_section_ui(view: Any, model: Any, columns: list[str], frame: pd.DataFrame) -> None:
    """A type's own section (its plots and tables) as a panel: its widgets rerun it alone."""
    view.model_section(model, columns, frame)
