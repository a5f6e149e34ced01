"""An uploaded file, read as a table (CSV, TSV, a workbook's sheet) or as a text corpus (a CSV of
label and text, a .zip of one folder per class, ``label<TAB>text`` lines). The file's bytes travel
with the source: the address keeps them in the server's file store (``ui.remember``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, ClassVar

import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from ui.sources.base import PARSE_CACHE_SIZE, CACHE_TTL, Opened, Source, proposed_work, two_columns
from ui.text import counted, md

CORPUS_SUFFIXES = {".zip", ".txt"}
# Larger uploads are read without the shared cache: storing one there pickles the whole frame
# (about twice the file's size: 0.7 s and 160 MB for a million rows) and keeps it after the
# session has ended, to spare a re-read (0.3 s for 11 MB) that only the same file uploaded again
# would need; the session keeps its frame anyway. Under PARSE_CACHE_SIZE, several files fit.
CACHE_MAX_BYTES = 4 << 20


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Upload(Source):
    """An uploaded file: ``data`` its bytes (not compared: ``sha256`` says which file), ``sheet``
    the workbook sheet chosen on the Data page (None: the first)."""

    data: bytes = field(default=b"", compare=False, repr=False)
    sheet: str | None = None

    mode: ClassVar[str] = "Upload a file"
    edits_rows: ClassVar[bool] = True
    #: How the file is read: the address's reader= and the Data page's "Read the file as".
    tag: ClassVar[str] = ""
    label: ClassVar[str] = ""

    @classmethod
    def of(cls, data: bytes, name: str, sheet: str | None = None) -> "Upload":
        digest = _sha256(data)
        if sheet is not None:            # two sheets of one file are two datasets (fit cache keys)
            digest = _sha256(data + b"\0sheet\0" + sheet.encode("utf-8"))
        return cls(name=name, sha256=digest, data=data, sheet=sheet)

    def read(self) -> tuple[pd.DataFrame, tuple[str, ...]]:
        raise NotImplementedError

    def open(self) -> Opened:
        df, notes = parse_upload(self)
        two_columns(self.name, df)
        work, reasons = proposed_work(self, df)
        return Opened(df, notes, work, reasons)

    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        if not self.data:
            return {}, "this data is not kept on the server"
        if not store.keep(self.sha256, self.data):
            return {}, "the file is too big to keep on the server"
        params = {"data": self.sha256, "name": self.name, "reader": self.tag}
        if self.sheet is not None:
            params["sheet"] = str(self.sheet)
        return params, None

    @classmethod
    def from_address(cls, query: dict[str, str]) -> "Upload | None":
        """data=<sha256>&name=<file>&reader=table|corpus (another reader: a table)."""
        if not query.get("data"):
            return None
        kind = UPLOADS.get(query.get("reader") or "", Table)
        if kind is not cls:
            return None
        from ui.remember import kept_file

        data, name = kept_file(query["data"], query.get("name"), what="file")
        return cls.of(data, name, query.get("sheet") if cls.sheets else None)

    sheets: ClassVar[bool] = False

    def opened(self) -> None:
        """Kept while an example is in use ("Use ... again"), and the Data page on its mode."""
        st.session_state.update(data_upload=self, upload_reader=self.tag, data_mode=self.mode)

    @classmethod
    def picker_ui(cls) -> None:
        _upload_ui()

    @classmethod
    def chosen(cls, current: Source) -> None:
        """Back to uploads: the last upload again (a model file opened alone stays)."""
        if not isinstance(current, Upload) and current.has_rows:
            _restore_upload()


@dataclass(frozen=True)
class Table(Upload):
    tag: ClassVar[str] = "table"
    label: ClassVar[str] = "Table (CSV, TSV, Excel)"
    sheets: ClassVar[bool] = True

    def read(self) -> tuple[pd.DataFrame, tuple[str, ...]]:
        from nbapp.io import load_table

        table = load_table(self.data, self.name, sheet=self.sheet)
        return table.frame, tuple(table.notes)


@dataclass(frozen=True)
class Corpus(Upload):
    tag: ClassVar[str] = "corpus"
    label: ClassVar[str] = "Text corpus (label + text)"

    def read(self) -> tuple[pd.DataFrame, tuple[str, ...]]:
        from nbapp.io import load_corpus

        table = load_corpus(self.data, self.name)
        return table.frame, tuple(table.notes)


#: reader= of the address and the Data page's "Read the file as" -> the kind of upload.
UPLOADS: dict[str, type[Upload]] = {Table.tag: Table, Corpus.tag: Corpus}
#: The choices of "Read the file as".
READERS = {tag: kind.label for tag, kind in UPLOADS.items()}


@st.cache_data(show_spinner="Reading the file…", max_entries=8, max_size=PARSE_CACHE_SIZE, ttl=CACHE_TTL)
def _parse(digest: str, name: str, tag: str, sheet: str | None, _source: Upload) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Parse uploaded bytes; keyed by their sha256, the reader and the sheet (``_source`` is not hashed)."""
    return _read(_source)


def _read(source: Upload) -> tuple[pd.DataFrame, tuple[str, ...]]:
    return source.read()


def parse_upload(source: Upload) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The uploaded file (the chosen sheet of a workbook) as a DataFrame and the loader's notes
    (cached by content when small)."""
    if len(source.data) > CACHE_MAX_BYTES:
        return _read(source)
    return _parse(source.sha256, source.name, source.tag, source.sheet, _source=source)


# --------------------------------------------------------------------------- the Data page's uploader


def _upload_ui() -> None:
    import ui

    ss = st.session_state
    st.file_uploader("Upload a file", type=["csv", "tsv", "txt", "xlsx", "xls", "ods", "zip"], key="data.uploader",
                     on_change=_uploaded)
    st.caption("Tables: CSV or TSV (delimiter and encoding detected), Excel .xlsx / .xls, OpenDocument .ods "
               "(choose the sheet once loaded). Text corpora: a CSV "
               "with a text and a label column, a .zip with one folder of .txt files per class, or "
               "`label<TAB>text` lines.")
    ss.setdefault("upload_reader", Table.tag)
    ui.synced(st.radio, "Read the file as", key="_data_reader", value=ss["upload_reader"],
              options=list(READERS), format_func=READERS.get, horizontal=True, on_set=_reader_changed)
    if ss.get("upload_error"):
        _failed_upload_ui()
        failed = ss.get("data.uploader")
        if failed is not None and UPLOADS.get(ss.get("upload_reader"), Table).sheets:
            _sheet_ui(failed.getvalue(), failed.name, None)     # the table may be on another sheet
        st.stop()  # the data of before stays out of view until the user says to keep it
    source = ui.work().source
    kept = ss.get("data_upload")
    if isinstance(source, Upload):
        df = ss["frame"]
        st.success(f"Loaded {md(source.name)}: {counted(len(df), 'row')} × {counted(df.shape[1], 'column')}. "
                   "It is the data in use: the uploader above starts empty on every visit, the file stays until "
                   "you upload another or choose an example.")
        if source.sheets and source.data:
            _sheet_ui(source.data, source.name, source.sheet)
    elif source.example_key is None:
        st.info(f"{source.in_use()} is in use; upload a file to use that instead.")
    elif kept is not None:
        st.info(f"The built-in example {md(source.name)} is in use; your last upload, {md(kept.name)}, is kept.")
        st.button(f"Use {md(kept.name)} again", key="data.restore_upload", on_click=_restore_upload)
    else:
        st.info("No file uploaded yet; the example below stays in use until you upload one.")


def _failed_upload_ui() -> None:
    import ui

    ss = st.session_state
    source = ui.work().source
    failed = ss.get("upload_failed_name") or "the file"
    st.error(md(ss["upload_error"]))
    kind = "built-in example" if source.example_key else "earlier upload"
    st.warning(f"Nothing of {md(failed)} was loaded. The data in use is still {md(source.name)} (the {kind}); "
               "it is hidden here until you upload another file or choose to keep it.")
    st.button(f"Keep working with {md(source.name)}", key="data.keep_after_error",
              on_click=lambda: ss.update(upload_error=None))


def _sheet_ui(data: bytes, name: str, current: str | None) -> None:
    """A workbook with several sheets: choose the one to read."""
    import ui
    from nbapp.io import workbook_sheets

    sheets = workbook_sheets(data, name)
    if len(sheets) > 1:
        ui.synced(st.selectbox, "Sheet", key="_data_sheet", value=current if current in sheets else sheets[0],
                  options=sheets, on_set=lambda sheet: load(Table.of(data, name, sheet)))


def _uploaded() -> None:
    """The uploader's callback: keep the new file; the page reads it first thing, with a progress bar."""
    ss = st.session_state
    uploaded = ss.get("data.uploader")
    if uploaded is None:
        return
    if PurePath(uploaded.name).suffix.lower() in CORPUS_SUFFIXES:
        ss["upload_reader"] = Corpus.tag
    kind = UPLOADS.get(ss.get("upload_reader"), Table)
    ss["pending_upload"] = kind.of(uploaded.getvalue(), uploaded.name)


def read_pending_upload() -> None:
    """Read a new upload and fit its model under a progress bar, before anything else is drawn
    (so the sidebar and the page show the new data). A click later reads and fits nothing again:
    both are cached by the file's content and the settings."""
    import ui

    ss = st.session_state
    pending = ss.pop("pending_upload", None)
    if pending is None:
        return
    name = pending.name
    with st.status(f"Reading {md(name)} ({len(pending.data) / 1e6:,.1f} MB)…", expanded=True) as status:
        bar = st.progress(0.05, text="Reading the file and proposing types…")
        load(pending)
        if ss.get("upload_error"):
            status.update(label=f"Could not read {md(name)}", state="error", expanded=False)
            return
        rows = len(ss["frame"])
        bar.progress(0.5, text=f"Read {counted(rows, 'row')}; fitting the model…")
        try:
            ui.current_model()
        except DataError:
            status.update(label=f"Read {md(name)}; the model cannot be fitted yet (see below)",
                          state="complete", expanded=False)
            return
        bar.progress(1.0, text="Fitted.")
        status.update(label=f"Read {md(name)} ({counted(rows, 'row')}) and fitted the model", state="complete",
                      expanded=False)


def _reader_changed(tag: str) -> None:
    import ui

    st.session_state["upload_reader"] = tag
    source = ui.work().source
    if isinstance(source, Upload) and source.tag != tag and source.data:
        load(UPLOADS[tag].of(source.data, source.name))


def _restore_upload() -> None:
    kept = st.session_state.get("data_upload")
    if kept is not None:
        load(kept)


def load(source: Upload) -> None:
    """Open an upload; its error, if any, kept for the page (``upload_error``)."""
    import ui

    ss = st.session_state
    try:
        ui.state.open_source(source)
    except DataError as err:
        ss["upload_error"] = str(err)
        ss["upload_failed_name"] = source.name
    else:
        ss["upload_error"] = None
