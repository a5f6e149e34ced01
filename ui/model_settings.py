"""The Model page's settings, before the fit: the smoothing (when a feature is smoothed), the
class prior, each type's settings of the whole model (the Gaussian's variance), then each type's
own section and the per-column options."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ui.class_prior import class_prior_control
from ui.smoothing_control import smoothing_control
from ui.state import offer_change, refused, work
from ui.text import md
from ui.views import grouped

__all__ = ["settings_ui", "column_options_ui", "OPTIONS_SECTION"]

#: The column options' expander: open (True) or closed, as the person left it.
OPTIONS_SECTION = "model.column_options"


def settings_ui() -> None:
    """Smoothing, class prior and the types' model-wide settings in three columns."""
    current = work()
    types = grouped(current.specs)
    left, middle, right = st.columns(3)
    if any(view.block.smoothed for view, _ in types):
        with left:
            smoothing_control("model")
    with middle:
        class_prior_control(current.settings)
    with right:
        for view, _columns in types:      # settings of the whole model that concern one type (Gaussian)
            view.settings_ui(current)


def column_options_ui(current: Any, frame: pd.DataFrame) -> None:
    """Each type's own settings section (text preprocessing) and the per-column options in one
    folded expander (KDE bandwidth, intervals, declared categories and unseen values), before the
    fit: a declared list missing a value in the data stops the fit, and the picker must stay
    reachable to fix it."""
    types = grouped(current.specs)
    for view, columns in types:
        view.options_section(columns, current, frame)
    with_options = [(view, columns) for view, columns in types if view.has_options]
    if not with_options:
        return
    titles = ", ".join(view.title for view, _ in with_options)
    if any(refused(column) is not None for _, columns in with_options for column in columns):
        st.session_state[OPTIONS_SECTION] = True      # a refused change stays in sight, beside its picker
    section = st.expander(f"Column options ({titles})", key=OPTIONS_SECTION, on_change="rerun")
    if not section.open:      # drawn once opened: closed, a click of the page redraws none of its pickers
        return
    with section:
        for view, columns in with_options:
            for column in columns:
                values = frame[column] if column in frame.columns else pd.Series(dtype=object)
                view.options_ui(column, current.specs[column], values,
                                lambda column=column, **changes: offer_change(column, changes))
                error = refused(column)
                if error is not None:
                    st.error(md(error[1]))
