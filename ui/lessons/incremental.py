"""Lesson 9: incremental learning (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

import copy
from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from ui import lessons
from ui.classes import label_format, labels_of
from ui.formulas import show_counts
from ui.kept import kept_or_build
from ui.presentation import frame_ui
from ui.teaching import display_classes
from ui.views import views_of



def render(model: Any) -> None:
    st.subheader("Incremental learning")
    st.write("Fitting Naive Bayes is counting, and counts add up: a new training row only increments the counts "
             "of its class and values, then the probabilities follow"
             f"{ui.ref('seed 001: Naive Bayes supports incremental learning')}. Add a row by hand and watch "
             "the counts, the CPT and the test example's posterior change "
             "(partial_fit on a copy of the model; the model of the other pages stays as it is).")
    _incremental_fragment(model)


def with_rows(model: Any, rows: list[dict[str, Any]]) -> Any:
    """The model plus the rows typed in, without changing it: a shallow copy shares its
    statistics, which are immutable values, and partial_fit gives the copy new ones."""
    if not rows:
        return model
    return copy.copy(model).partial_fit(pd.DataFrame(rows))


@st.fragment
def _incremental_fragment(base: Any) -> None:
    rows = kept_or_build("lessons.inc_rows", ui.model_key(), list)   # only the rows typed in, for one model
    current = with_rows(base, rows)
    with st.form("lessons.inc_form", border=True):
        st.markdown("**A new training row**")
        items = list(views_of(current.features_).items())
        row: dict[str, Any] = {}
        cells = st.columns(min(len(items), 4) + 1)
        for i, (column, view) in enumerate(items):
            with cells[i % (len(cells) - 1)]:
                row[column] = view.form_input(current, column, lessons.wkey(f"inc::{i}"))
        with cells[-1]:
            row[current.target_] = st.selectbox(f"{ui.md(current.target_)} (class)",
                                                display_classes(list(current.classes_)),
                                                format_func=label_format(current.classes_),
                                                key=lessons.wkey("inc_class"))
        added = st.form_submit_button("Add this row (partial_fit)", icon=":material/add:")
    if added:
        if current.weight_ is not None:
            row[current.weight_] = 1
        try:
            current = with_rows(base, [*rows, row])
        except DataError as err:
            ui.show_error(err)
        else:
            rows.append(row)
    undo, reset, info = st.columns([1, 1, 3])
    if undo.button("Undo the last row", key="lessons.inc_undo", disabled=not rows, icon=":material/undo:"):
        rows.pop()
        current = with_rows(base, rows)
    if reset.button("Start again", key="lessons.inc_reset", disabled=not rows):
        rows.clear()
        current = base
    info.metric("Rows added by hand", len(rows))
    if rows:
        frame_ui(st, pd.DataFrame(rows).astype(str), hide_index=True, key="lessons.inc_rows")
    _incremental_tables(base, current)


def _incremental_tables(base: Any, current: Any) -> None:
    order = [list(current.classes_).index(c) for c in display_classes(list(current.classes_))]  # Yes before No
    counts_table = pd.DataFrame({"before": show_counts(pd.DataFrame({"n": base.class_counts_}))["n"].to_numpy(),
                                 "now": show_counts(pd.DataFrame({"n": current.class_counts_}))["n"].to_numpy()},
                                index=pd.Index(labels_of(current.classes_), name="class n_c")).iloc[order]
    row = lessons.example_row(current)
    posterior = pd.DataFrame({"before": base.predict_proba(pd.DataFrame([row])).iloc[0].map(ui.fmt_number),
                              "now": current.predict_proba(pd.DataFrame([row])).iloc[0].map(ui.fmt_number)})
    posterior.index = pd.Index(labels_of(posterior.index), name="P(c | test example)")
    posterior = posterior.iloc[order]
    left, right = st.columns(2)
    frame_ui(left, counts_table, key="lessons.inc_class_counts")
    frame_ui(right, posterior, key="lessons.inc_posterior")
    discrete = [c for c, view in views_of(current.features_).items() if view.in_cpt_section]
    if not discrete:
        return
    column = st.selectbox("Counts and CPT of", discrete, format_func=str, key=lessons.wkey("inc_col"))
    left, right = st.columns(2)
    left.markdown("Counts N(v, c) now")
    name = label_format(current.classes_)
    frame_ui(left, show_counts(current.counts(column)).iloc[:, order].rename(index=str, columns=name),
             key="lessons.inc_counts")
    right.markdown("P(v | c) now")
    frame_ui(right, current.cpt(column).iloc[:, order].map(ui.fmt_number).rename(index=str, columns=name),
             key="lessons.inc_cpt")
