"""The Data page (issue 34, item 5): the source chosen among the registered kinds (``ui.sources``:
each draws its own controls), the rows, the target and weight, a type per column."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.blocks import feature_types
from nbapp.errors import DataError
from ui.held_patterns import held_patterns_ui
from ui.sources.base import modes, picker_of
from ui.sources.upload import read_pending_upload
from ui.text import counted, fmt_count
from ui.views import grouped

#: The mode of a source that has none on the Data page (a model file opened alone).
UPLOAD_MODE = "Upload a file"
NO_WEIGHT = "(none)"


def data_page_ui() -> None:
    """Everything below the Data page's title."""
    ss = st.session_state
    read_pending_upload()
    ui.sidebar_summary()
    _source_ui()
    source = ui.work().source
    if not source.has_rows:
        source.without_rows_ui()
        st.stop()
    df = ss["frame"]
    summary_slot = _overview_ui(df)
    _trim_spaces_ui(df)
    _target_ui(df, summary_slot)
    _types_ui()
    held_patterns_ui("data")
    try:
        model = ui.current_model()
    except DataError as err:
        st.error(f"The model cannot be fitted with these types: {ui.md(err)}")
    else:
        st.success(f"Model fitted{ui.work().source.fitted_words(ui.work())}: "
                   f"{counted(len(model.classes_), 'class', 'classes')}, {counted(len(ui.specs()), 'feature')}. "
                   "Go on to the Model or Explain page.")
        for view, columns in grouped(ui.specs()):
            note = view.data_note(columns)
            if note:
                st.caption(note)
    _summary_ui(summary_slot, df)


def _source_ui() -> None:
    """The registered kinds of source as a radio; the chosen kind draws its controls."""
    ss = st.session_state
    offered, off = modes()
    ss.setdefault("data_mode", ui.work().source.mode or UPLOAD_MODE)
    if ss["data_mode"] not in offered:
        ss["data_mode"] = UPLOAD_MODE
    mode = ui.synced(st.radio, "Source", key="_data_mode", value=ss["data_mode"], options=offered,
                     horizontal=True, on_set=_mode_changed)
    for note in off:
        st.caption(note)
    picker_of(mode).picker_ui()


def _mode_changed(mode: str) -> None:
    """The source radio's callback: switch the data before the page (and its sidebar) is drawn
    (back to the examples loads the last example used; back to uploads restores the last upload,
    kept while an example is in use)."""
    ss = st.session_state
    ss["data_mode"] = mode
    source = ui.work().source
    if source.example_key is not None:
        ss["last_example"] = source.example_key
    picker_of(mode).chosen(source)


@st.cache_data(show_spinner=False, max_entries=8)
def _column_summary(digest: str, _df: pd.DataFrame) -> pd.DataFrame:
    """Missing and distinct values per column, once per data (0.6 s on a million rows)."""
    from nbapp.io import distinct_counts

    return pd.DataFrame({
        "column": _df.columns.astype(str),
        "dtype": _df.dtypes.astype(str).to_numpy(),
        "missing": _df.isna().sum().to_numpy(),
        "distinct": distinct_counts(_df).to_numpy(),
    })


def _overview_ui(df: pd.DataFrame) -> Any:
    """The notes, the size and the first rows; returns the place of the per-column summary,
    which is filled last (counting distinct values must not delay the model on big tables)."""
    notes = st.session_state.get("load_notes", ())
    if notes:
        st.info("\n".join(f"- {ui.md(note)}" for note in notes))
    c1, c2, c3 = st.columns(3)
    c1.metric("Rows", f"{len(df):,}")
    c2.metric("Columns", df.shape[1])
    c3.metric("Missing cells", f"{int(df.isna().to_numpy().sum()):,}")
    st.dataframe(df.head(500), height=260)
    if len(df) > 500:
        st.caption(f"The first 500 of {len(df):,} rows.")
    return st.expander("Missing and distinct values per column").empty()


def _trim_spaces_ui(df: pd.DataFrame) -> None:
    """A button per column whose values differ only by spaces at their ends (the loader notes them
    and keeps them apart): the user chooses to trim. Only where the page's rows are the data the
    model reads (an upload), not a sample of files read again for the fit."""
    from nbapp.io import space_variants

    if not ui.work().source.edits_rows:
        return
    for column, groups in space_variants(df).items():
        alike = " and ".join(repr(v) for v in groups[0])
        st.button(f"Trim spaces in {ui.md(column)}", key=f"data.trim_spaces::{column}", on_click=_trim_spaces,
                  args=(column,), help=ui.md(f"{alike} become one value, and so one category."))


def _trim_spaces(column: str) -> None:
    from nbapp.io import trim_spaces

    ss = st.session_state
    work = ui.work()
    ss["frame"] = trim_spaces(ss["frame"], [column])
    trimmed = ui.sha256(f"{work.source.sha256}\0trim\0{column}".encode())     # other data: another fit
    value = work.query.get(column)
    ui.update_work(source=dataclasses.replace(work.source, sha256=trimmed),
                   query=work.query.set(column, value.strip()) if isinstance(value, str) else work.query)
    ss["load_notes"] = (*ss.get("load_notes", ()),
                        f"Trimmed the spaces at the start and end of the values of {column!r}, as you asked.")


def _summary_ui(slot: Any, df: pd.DataFrame) -> None:
    slot.dataframe(_column_summary(ui.work().source.sha256, df), hide_index=True)


def _target_ui(df: pd.DataFrame, summary_slot: Any) -> None:
    from nbapp.propose import check_target

    columns = list(df.columns)
    work = ui.work()
    target = ui.synced(st.selectbox, "Target (the column to predict)", key="_data_target", value=work.target,
                       options=columns, format_func=str, on_set=ui.set_target)
    try:
        _checked, notes = check_target(df, target)
    except DataError as err:
        ui.show_error(err)
        _summary_ui(summary_slot, df)
        st.stop()
    for note in notes:
        st.warning(ui.md(note))
    weight = work.weight if work.weight in df.columns and work.weight != target else None
    counts = (df.groupby(target, dropna=True, sort=False)[weight].sum() if weight else
              df[target].value_counts(dropna=True)).sort_values(ascending=False, kind="stable")
    st.caption(("Classes, rows weighted by " + ui.md(weight) + ": " if weight else "Classes: ")
               + ", ".join(f"{ui.md(c)} ({fmt_count(n)})" for c, n in counts.head(20).items())
               + (" …" if len(counts) > 20 else ""))

    numeric = [c for c in columns if c != target and pd.api.types.is_numeric_dtype(df[c])]
    options = [NO_WEIGHT, *numeric]
    current = work.weight if work.weight in numeric else NO_WEIGHT
    ui.synced(st.selectbox, "Frequency weight column (optional: each row counts this many times)",
              key="_data_weight", value=current, options=options, format_func=str,
              on_set=lambda c: ui.set_weight(None if c is NO_WEIGHT or c == NO_WEIGHT else c))


def _types_ui() -> None:
    st.subheader("Feature types")
    st.caption("Proposed from the data, with the reason; change any. 'ignore' leaves a column out.")
    work = ui.work()
    reasons = st.session_state.get("type_reasons", {})
    choices = feature_types()
    _batch_types_ui(choices)
    head = st.columns([3, 2, 5])
    head[0].markdown("**Column**")
    head[1].markdown("**Type**")
    head[2].markdown("**Why**")
    for i, (col, kind) in enumerate(work.kinds.items()):
        if col == work.weight:
            continue
        row = st.columns([3, 2, 5], vertical_alignment="center")
        row[0].text(str(col))
        with row[1]:
            ui.synced(st.selectbox, f"Type of {ui.md(col)}", key=f"_type::{i}",
                      value=kind if kind in choices else ui.IGNORE,
                      options=choices, label_visibility="collapsed",
                      on_set=lambda v, col=col: _types_changed([col], v))
        row[2].text(reasons.get(col, ""))


def _types_changed(columns: list[str], kind: str) -> None:
    ui.set_kinds({c: kind for c in columns})
    ss = st.session_state
    ss["type_reasons"] = {**ss.get("type_reasons", {}), **{c: "chosen by you" for c in columns}}


def _batch_types_ui(choices: tuple[str, ...]) -> None:
    """Several columns, one type: a form, so the model is refitted once."""
    work = ui.work()
    columns = [c for c in work.features if c != work.weight]
    with st.form("data.batch_types", border=False):
        left, middle, right = st.columns([5, 2, 2], vertical_alignment="bottom")
        chosen = left.multiselect("Set the type of several columns at once", columns, format_func=str,
                                  key="data.batch_columns")
        kind = middle.selectbox("Type", choices, key="data.batch_type")
        if right.form_submit_button("Set", key="data.batch_set") and chosen:
            _types_changed(chosen, kind)
            st.rerun()
