"""Data: pick a built-in example or upload a file, choose the target and a type per column."""

import dataclasses
from pathlib import PurePath
from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.blocks import feature_types
from nbapp.errors import DataError
from nbapp.examples import EXAMPLES, example
from ui.held_patterns import held_patterns_ui
from ui.text import counted, fmt_count
from ui.views import grouped

ui.ensure_state()
ui.page_header("Data", "Pick a built-in example or upload your own table or text corpus; then say which "
               "column to predict and how to read every other column.")

ss = st.session_state
MODES = ("Built-in example", "Upload a file", "Open a local path")
CORPUS_SUFFIXES = {".zip", ".txt"}
NO_WEIGHT = "(none)"


def _modes() -> tuple[str, ...]:
    """"Open a local path" only where the person running the server named a data folder."""
    return MODES if ui.state.data_root() is not None else MODES[:2]


def _source_ui() -> None:
    source = ui.work().source
    modes = _modes()
    ss.setdefault("data_mode", {"example": MODES[0], "path": MODES[2]}.get(source.reader, MODES[1]))
    if ss["data_mode"] not in modes:
        ss["data_mode"] = MODES[1]
    mode = ui.synced(st.radio, "Source", key="_data_mode", value=ss["data_mode"], options=modes,
                     horizontal=True, on_set=_mode_changed)
    if len(modes) < len(MODES):
        st.caption(f"Opening files on the server is off; whoever runs it can turn it on by setting "
                   f"`{ui.state.DATA_ROOT_VARIABLE}` to the folder visitors may open (see the README).")
    if mode == MODES[0]:
        _example_ui()
    elif mode == MODES[1]:
        _upload_ui()
    else:
        _path_ui()


def _mode_changed(mode: str) -> None:
    """The source radio's callback: switch the data before the page (and its sidebar) is drawn.

    Back to the examples loads the last example used; back to uploads restores the last upload,
    which is kept (bytes, name, reader) while an example is in use.
    """
    ss["data_mode"] = mode
    source = ui.work().source
    if source.reader == "example":
        ss["last_example"] = source.example
    if mode == MODES[0] and source.reader != "example":
        ui.load_example_into_state(ss.get("last_example") or ui.DEFAULT_EXAMPLE)
    elif mode == MODES[1] and source.reader in ("example", "path"):
        _restore_upload()


def _restore_upload() -> None:
    if ss.get("data_upload") is not None:
        _load(*ss["data_upload"])


def _example_ui() -> None:
    source = ui.work().source
    key = ui.synced(st.selectbox, "Example", key="_data_example", value=source.example or ui.DEFAULT_EXAMPLE,
                    options=[ex.key for ex in EXAMPLES], format_func=lambda k: example(k).title,
                    on_set=ui.load_example_into_state)
    ex = example(key)
    st.markdown(f"*{ex.story}*  \n{ui.cite(ex.seed + '. ')}{ex.notes}")


def _upload_ui() -> None:
    st.file_uploader("Upload a file", type=["csv", "tsv", "txt", "xlsx", "xls", "ods", "zip"], key="data.uploader",
                     on_change=_uploaded)
    st.caption("Tables: CSV or TSV (delimiter and encoding detected), Excel .xlsx / .xls, OpenDocument .ods "
               "(choose the sheet once loaded). Text corpora: a CSV "
               "with a text and a label column, a .zip with one folder of .txt files per class, or "
               "`label<TAB>text` lines.")
    ss.setdefault("upload_reader", "table")
    ui.synced(st.radio, "Read the file as", key="_data_reader", value=ss["upload_reader"],
              options=list(ui.READERS), format_func=ui.READERS.get, horizontal=True, on_set=_reader_changed)
    if ss.get("upload_error"):
        _failed_upload_ui()
        failed = ss.get("data.uploader")
        if failed is not None and ss.get("upload_reader", "table") == "table":
            _sheet_ui(failed.getvalue(), failed.name, None)     # the table may be on another sheet
        st.stop()  # the data of before stays out of view until the user says to keep it
    source = ui.work().source
    kept = ss.get("data_upload")
    if source.reader == "path":
        st.info(f"The local path {ui.md(source.path)} is in use; upload a file to use that instead.")
    elif source.reader != "example":
        df = ss["frame"]
        st.success(f"Loaded {ui.md(source.name)}: {counted(len(df), 'row')} × {counted(df.shape[1], 'column')}. "
                   "It is the data in use: the uploader above starts empty on every visit, the file stays until "
                   "you upload another or choose an example.")
        if source.reader == "table" and ss.get("data_bytes") is not None:
            _sheet_ui(ss["data_bytes"], source.name, source.sheet)
    elif kept is not None:
        st.info(f"The built-in example {ui.md(source.name)} is in use; your last upload, {ui.md(kept[1])}, is kept.")
        st.button(f"Use {ui.md(kept[1])} again", key="data.restore_upload", on_click=_restore_upload)
    elif not ss.get("upload_error"):
        st.info("No file uploaded yet; the example below stays in use until you upload one.")


def _failed_upload_ui() -> None:
    source = ui.work().source
    failed = ss.get("upload_failed_name") or "the file"
    st.error(ui.md(ss["upload_error"]))
    kind = "built-in example" if source.reader == "example" else "earlier upload"
    st.warning(f"Nothing of {ui.md(failed)} was loaded. The data in use is still {ui.md(source.name)} (the {kind}); "
               "it is hidden here until you upload another file or choose to keep it.")
    st.button(f"Keep working with {ui.md(source.name)}", key="data.keep_after_error",
              on_click=lambda: ss.update(upload_error=None))


def _sheet_ui(data: bytes, name: str, current: str | None) -> None:
    """A workbook with several sheets: choose the one to read."""
    from nbapp.io import workbook_sheets

    sheets = workbook_sheets(data, name)
    if len(sheets) > 1:
        ui.synced(st.selectbox, "Sheet", key="_data_sheet", value=current if current in sheets else sheets[0],
                  options=sheets, on_set=lambda sheet: _load(data, name, "table", sheet))


def _uploaded() -> None:
    """The uploader's callback: keep the new file; the page reads it first thing, with a progress bar."""
    uploaded = ss.get("data.uploader")
    if uploaded is None:
        return
    if PurePath(uploaded.name).suffix.lower() in CORPUS_SUFFIXES:
        ss["upload_reader"] = "corpus"
    ss["pending_upload"] = (uploaded.getvalue(), uploaded.name, ss.get("upload_reader", "table"))


def _read_pending_upload() -> None:
    """Read a new upload and fit its model under a progress bar, before anything else is drawn
    (so the sidebar and the page show the new data). A click later reads and fits nothing again:
    both are cached by the file's content and the settings."""
    pending = ss.pop("pending_upload", None)
    if pending is None:
        return
    data, name, reader = pending
    with st.status(f"Reading {ui.md(name)} ({len(data) / 1e6:,.1f} MB)…", expanded=True) as status:
        bar = st.progress(0.05, text="Reading the file and proposing types…")
        _load(data, name, reader)
        if ss.get("upload_error"):
            status.update(label=f"Could not read {ui.md(name)}", state="error", expanded=False)
            return
        rows = len(ss["frame"])
        bar.progress(0.5, text=f"Read {counted(rows, 'row')}; fitting the model…")
        try:
            ui.current_model()
        except DataError:
            status.update(label=f"Read {ui.md(name)}; the model cannot be fitted yet (see below)",
                          state="complete", expanded=False)
            return
        bar.progress(1.0, text="Fitted.")
        status.update(label=f"Read {ui.md(name)} ({counted(rows, 'row')}) and fitted the model", state="complete",
                      expanded=False)


def _path_ui() -> None:
    """A file, folder or glob of any size under the server's data folder: a sample is shown, the
    model sees every row."""
    ui.synced(st.text_input, "Path in the data folder (a CSV or Parquet file, a folder of them, or a glob)",
              key="_data_path", value=ss.get("data_path", ""), on_set=lambda v: ss.update(data_path=v),
              placeholder="exports/sales_2025.csv")
    st.button("Open the path", key="data.open_path", on_click=_open_path)
    st.caption(f"The data folder of this server is {ui.md(ui.state.data_root() or '')}: paths are read under it, "
               "and nothing outside it can be opened. For files beyond the uploader's limit (or beyond memory): "
               f"types are proposed from the first {ui.state.PATH_SAMPLE_ROWS:,} rows, and the model is fitted on "
               "every row with DuckDB, in bounded memory. Decimal commas and encodings other than UTF-8 are not "
               "read here.")
    if ss.get("path_error"):
        st.error(ui.md(ss["path_error"]))
    source = ui.work().source
    if source.reader == "path":
        rows = ui.path_rows()
        seen = f"all {rows:,} rows" if rows is not None else "every row"
        st.success(f"Opened {ui.md(source.path)}: the model is fitted on {seen}; the tables below show a "
                   f"sample of the first {len(ss['frame']):,} rows.")


def _open_path() -> None:
    path = ss.get("data_path", "")
    try:
        ui.load_path_into_state(path)
    except DataError as err:
        ss["path_error"] = str(err)
    else:
        ss["path_error"] = None


def _reader_changed(reader: str) -> None:
    ss["upload_reader"] = reader
    source = ui.work().source
    if source.reader not in ("example", reader) and ss.get("data_bytes") is not None:
        _load(ss["data_bytes"], source.name, reader)


def _load(data: bytes, name: str, reader: str, sheet: str | None = None) -> None:
    try:
        ui.load_upload_into_state(data, name, reader, sheet)
    except DataError as err:
        ss["upload_error"] = str(err)
        ss["upload_failed_name"] = name
    else:
        ss["upload_error"] = None


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
    notes = ss.get("load_notes", ())
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
    and keeps them apart): the user chooses to trim. Not for a local path, whose every row the
    model reads from the files as they are."""
    from nbapp.io import space_variants

    if ui.work().source.reader not in ("table", "corpus"):
        return
    for column, groups in space_variants(df).items():
        alike = " and ".join(repr(v) for v in groups[0])
        st.button(f"Trim spaces in {ui.md(column)}", key=f"data.trim_spaces::{column}", on_click=_trim_spaces,
                  args=(column,), help=ui.md(f"{alike} become one value, and so one category."))


def _trim_spaces(column: str) -> None:
    from nbapp.io import trim_spaces

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


def _target_ui(df: pd.DataFrame) -> None:
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
    reasons = ss.get("type_reasons", {})
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


def _model_alone_ui() -> None:
    """A model file open without data: say so, and how to get back to data."""
    model = ss["model_file"].model
    st.info(f"No data is in use: the model file {ui.md(ui.work().source.name)} is open alone (target "
            f"{ui.md(model.target_)}, {counted(len(model.classes_), 'class', 'classes')}, "
            f"{counted(len(model.features_), 'feature')}). The Model "
            "and Explain pages work from the file; Evaluate predicts a new file with the model's columns. "
            "Pick an example or upload a file above to work with data again.")
    st.button("Back to the built-in example", key="data.leave_model",
              on_click=lambda: ui.load_example_into_state(ss.get("last_example") or ui.DEFAULT_EXAMPLE))


_read_pending_upload()
ui.sidebar_summary()
_source_ui()
if ui.work().source.reader == "model":
    _model_alone_ui()
    st.stop()
df = ss["frame"]
summary_slot = _overview_ui(df)
_trim_spaces_ui(df)
_target_ui(df)
_types_ui()
held_patterns_ui("data")
try:
    model = ui.current_model()
except DataError as err:
    st.error(f"The model cannot be fitted with these types: {ui.md(err)}")
else:
    seen = f" on all {ui.path_rows():,} rows" if ui.work().source.reader == "path" and ui.path_rows() else ""
    st.success(f"Model fitted{seen}: {counted(len(model.classes_), 'class', 'classes')}, "
               f"{counted(len(ui.specs()), 'feature')}. "
               "Go on to the Model or Explain page.")
    for view, columns in grouped(ui.specs()):
        note = view.data_note(columns)
        if note:
            st.caption(note)
_summary_ui(summary_slot, df)
