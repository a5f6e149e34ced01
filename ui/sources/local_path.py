"""A CSV / Parquet file, folder or glob under the server's data folder, of any size: the pages
show a sample of its first rows; the model is fitted on every row where the files are
(``nbapp.fit_file``, DuckDB, bounded memory) and Evaluate cross-validates there too
(``nbapp.scale.cross_validate_file``). Never written into the address (it names a path)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from ui.sources.base import Opened, proposed_work, two_columns
from ui.sources.stored import CountedWhereStored
from ui.text import md
from ui.work import Work

# Rows of a local path read to propose types and to show on the pages; the model sees every row.
PATH_SAMPLE_ROWS = 20_000
# The environment variable naming the folder "Open a local path" may read (unset: the mode is off).
DATA_ROOT_VARIABLE = "NBAPP_DATA_ROOT"


def data_root() -> str | None:
    """The folder visitors may open files under: the environment variable NBAPP_DATA_ROOT, set
    by the person running the server (its real path). None (the default) turns "Open a local
    path" off: a visitor then reaches only their own uploads and the built-in examples."""
    root = os.environ.get(DATA_ROOT_VARIABLE, "").strip()
    return os.path.realpath(root) if root and os.path.isdir(root) else None


def path_sources(path: str | tuple[str, ...]) -> Any:
    """The files a typed path (or the files it resolved to before) names under the data root,
    checked now (nbapp.scale's resolve_sources: table files only, real paths under the root, one
    sentence for anything outside, at most nbapp.scale.MAX_FILES); the reading functions open
    them again from the root when they read them, and stop once this session is closed."""
    from nbapp.scale import resolve_sources
    from ui.session_end import session_stop

    root = data_root()
    if root is None:
        raise DataError(f"Opening files on the server is off; the person running it can turn it on by setting "
                        f"{DATA_ROOT_VARIABLE} to a folder.")
    if isinstance(path, str) and not path.strip():
        raise DataError("Type the path of a CSV or Parquet file, a folder of them, or a glob such as data/*.csv.")
    return resolve_sources(path.strip() if isinstance(path, str) else list(path), root=root, stop=session_stop())


@dataclass(frozen=True)
class LocalPath(CountedWhereStored):
    """``path`` as the user typed it; ``files`` the files it resolved to when opened, the files
    fitted (``sha256``: of the files' names, sizes and times)."""

    path: str = ""
    files: tuple[str, ...] = ()

    mode: ClassVar[str] = "Open a local path"
    described: ClassVar[str] = "local path, fitted out of core"

    @classmethod
    def of(cls, path: str) -> "LocalPath":
        """The files ``path`` names now (DataError for a path that cannot be read)."""
        path = str(path).strip()
        files = path_sources(path).files
        signature = "\n".join(f"{f}|{os.path.getsize(f)}|{os.path.getmtime(f)}" for f in files)
        return cls(name=path, sha256=hashlib.sha256(signature.encode()).hexdigest(), path=path, files=files)

    def open(self) -> Opened:
        from nbapp.scale import sample_rows

        df = sample_rows(path_sources(self.files), PATH_SAMPLE_ROWS)
        two_columns(self.path, df)
        notes = (f"A sample: the first {len(df):,} rows of {os.path.basename(self.files[0])!r} ({len(self.files)} "
                 "file(s) in all). The model is fitted on every row of every file, out of core.",)
        work, reasons = proposed_work(self, df)
        return Opened(df, notes, work, reasons)

    # -- statistics: counted where the files are (CountedWhereStored keeps them) -----------------
    def count(self, model: Any, work: Work) -> tuple[Any, int]:
        """fit_file with a progress bar: DuckDB computes the statistics where the file is (its share
        done shown as rows; the last report is the rows read); the model and the rows it saw."""
        from nbapp.scale import Stopped, fit_file

        bar = st.progress(0.0, text=f"Fitting on every row of {self.path} (DuckDB computes the statistics)…")
        seen = [0]

        def progress(done: int, total: int) -> None:
            seen[0] = total
            bar.progress(min(done / max(total, 1), 1.0), text=f"Fitting: {done:,} of {total:,} rows")

        try:
            fit_file(model, path_sources(self.files), work.target, work.weight, progress=progress)
        except Stopped:
            st.stop()           # the session was closed: nobody waits for the model
        finally:
            bar.empty()
        return model, seen[0]

    def cross_validate(self, model: Any, work: Work, *, k: int, progress: Callable[[int, int], None]) -> Any:
        """k-fold on every row in two streamed passes (folds by a hash of each row's place; each
        fold's model is the total statistics minus the fold's)."""
        from nbapp.scale import cross_validate_file

        return cross_validate_file(model, path_sources(self.files), work.target, k=k, weight=work.weight,
                                   progress=progress)

    # -- the address and the pages -----------------------------------------------------------------
    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        return {}, "a local path is never written into the page's address; open it again on the Data page"

    def in_use(self) -> str:
        return f"The local path {md(self.path)}"

    def big_data_note(self, work: Work, frame: pd.DataFrame) -> str | None:
        seen = self.rows_seen(work)
        return (f"The model was fitted on {seen} of '{md(self.path)}', out of core. Tables of the model are exact; "
                f"rows and plots of data on this page come from a sample of {len(frame):,} rows.")

    @classmethod
    def available(cls) -> bool:
        return data_root() is not None

    @classmethod
    def unavailable_note(cls) -> str:
        return (f"Opening files on the server is off; whoever runs it can turn it on by setting "
                f"`{DATA_ROOT_VARIABLE}` to the folder visitors may open (see the README).")

    @classmethod
    def picker_ui(cls) -> None:
        """A file, folder or glob of any size under the server's data folder: a sample is shown, the
        model sees every row."""
        import ui

        ss = st.session_state
        ui.synced(st.text_input, "Path in the data folder (a CSV or Parquet file, a folder of them, or a glob)",
                  key="_data_path", value=ss.get("data_path", ""), on_set=lambda v: ss.update(data_path=v),
                  placeholder="exports/sales_2025.csv")
        st.button("Open the path", key="data.open_path", on_click=_open_path)
        st.caption(f"The data folder of this server is {md(data_root() or '')}: paths are read under it, "
                   "and nothing outside it can be opened. For files beyond the uploader's limit (or beyond memory): "
                   f"types are proposed from the first {PATH_SAMPLE_ROWS:,} rows, and the model is fitted on "
                   "every row with DuckDB, in bounded memory. Numbers are read as an upload reads them (decimal "
                   "commas included); encodings other than UTF-8 are not read here.")
        if ss.get("path_error"):
            st.error(md(ss["path_error"]))
        work = ui.work()
        if isinstance(work.source, cls):
            seen = work.source.rows_seen(work)
            st.success(f"Opened {md(work.source.path)}: the model is fitted on {seen}; the tables below show a "
                       f"sample of the first {len(ss['frame']):,} rows.")


def _open_path() -> None:
    import ui

    ss = st.session_state
    try:
        ui.state.open_source(LocalPath.of(ss.get("data_path", "")))
    except DataError as err:
        ss["path_error"] = str(err)
    else:
        ss["path_error"] = None
