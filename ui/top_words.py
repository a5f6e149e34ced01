"""The top words per class of a text or multinomial block, as a chart and a table (a panel)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.errors import DataError
from ui import charts
from ui.classes import labelled_column
from ui.text import md
from ui.views import view_of

__all__ = ["top_words_ui"]


@st.fragment
def top_words_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Top words per class")
    col = st.selectbox("Text or multinomial block", columns, format_func=str, key="model.words_feature")
    n = st.slider("Words per class", 5, 30, 10, key="model.words_n")
    try:
        words = model.top_words(col, n)
    except (AttributeError, NotImplementedError, DataError) as err:
        st.info(f"Top words are not available for this block: {md(err)}")
        return
    left, right = st.columns([3, 2])
    shown = labelled_column(words, "class", model.classes_)
    charts.show(left, charts.top_words_bars(shown, value_label=view_of(model.features_[col].kind).words_label(
        model.features_[col])), key="model.words_chart")
    right.dataframe(shown, key="model.words_table")
