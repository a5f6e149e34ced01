"""Choosing a numeric type on the Model page: one column's densities fitted by each numeric type
over its data, and on request each choice cross-validated (5 folds, the whole model's log-loss)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.blocks.base import COUNT
from nbapp import choices      # through the module: a test may count its calls
from nbapp.errors import DataError
from ui import charts
from ui.kept import keep, kept, kept_or_build
from ui.sampled import sample_caption, shown_rows
from ui.state import frame, model_key
from ui.text import md
from ui.views import registered
from ui.widgets import show_error

__all__ = ["numeric_choice_ui"]


@st.fragment
def numeric_choice_ui(model: Any, columns: list[str]) -> None:
    styles = {view.kind: charts.CurveStyle(view.title, view.line_dash, view.value_kind == COUNT)
              for view in registered() if view.block.density_choice}
    st.subheader("Choosing a numeric type: " + ", ".join(style.name for style in styles.values()))
    # One fit per type for the column: computed only while the section is open (issue 25: a
    # smoothing click does not pay for it unless the comparison is on screen).
    section = st.expander("Compare the fitted densities of one column, each type over its data",
                          key="model.choice_open", on_change="rerun")
    if section.open:
        with section:
            _numeric_choice_body(model, columns, styles)


def _numeric_choice_body(model: Any, columns: list[str], styles: dict[str, Any]) -> None:
    col = st.selectbox("Numeric feature", columns, format_func=str, key="model.choice_feature")
    df = frame()
    key = (model_key(), col)
    try:
        plot = kept_or_build("model.choice_plot", key,      # a one-column fit per type: once per model
                             lambda: choices.fit_comparison_plot(model, col, shown_rows(df)))
    except (DataError, KeyError) as err:
        st.info(f"No comparison for this column: {md(err)}")
        return
    charts.show(st, charts.fit_comparison(plot, col, styles), key="model.choice_chart")
    sample_caption(df)
    if st.button("Cross-validate each choice (5 folds)", key="model.choice_cv"):
        try:
            keep("model.choice_cv", key, choices.compare_feature_types(model, df, col))
        except DataError as err:
            show_error(err)
    stored = kept("model.choice_cv", key)
    if stored is not None:
        st.dataframe(stored, key="model.choice_cv_table")
        st.caption("Log-loss −(1/n) Σ ln P(y_i | x_i) of the whole model, out of sample, with this column "
                   "typed each way (same folds); lower is better.")
