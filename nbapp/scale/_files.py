"""Fit and predict from CSV or Parquet files larger than memory, through DuckDB.

Fitting hands the statistics to DuckDB: every feature type's aggregates
(:mod:`nbapp.scale._aggregates`) run as one GROUP BY query over the files, scanned by DuckDB's
parallel CSV or Parquet reader, and only the statistics come back; the model built from them
equals ``fit`` on the whole table loaded in memory (counts exactly, probabilities to rounding).
A model with a type that states no aggregates (text: its tokens must be scikit-learn's) is
fitted by streaming instead: DuckDB hands back Arrow record batches of ``batch_rows`` rows,
each becomes a pandas frame, is summarised by the model (:meth:`nbapp.NaiveBayes.summarize`)
and dropped. So are the rows once more when the aggregates find a value a fit refuses, so
that the error names the file, the row and the column. Predicting always streams.

Memory is bounded by DuckDB's buffers (capped by ``memory_limit``) and the statistics
themselves; when streaming, also by one batch (``batch_rows`` rows of the used columns), never
by the number of rows.

How CSV cells become values (the rules of :func:`nbapp.load_table`, decided per column over
every file of the input, so that every row reads a column the same way: by DuckDB's SQL for the
numbers, built from load_table's constants (``_Cell``), and by load_table's own reader applied to
the distinct cells of the other columns, grouped by DuckDB (:func:`_csv_values`); the streamed
path decides them in one profiling pass before fitting), in the number form load_table decides
per FILE, from every cell of every column, used or not (:func:`_numbers_of`: decimal points and
thousands commas, or in a file not separated by commas whose cells say so, decimal commas and
thousands points):

* features whose type reads numbers (``nbapp.blocks.reads_numbers``) and the weight are numbers: the missing
  tokens of ``load_table`` ("", "N/A", "?", "-", "null", ...) and infinities are missing,
  thousands separators are removed, decimal commas read as points, anything else is a
  :class:`DataError` naming the file, the data row and the column;
* the target and the other features become whole numbers when every cell is one (so a class
  "1" is the number 1, as in ``load_table``), decimals when every present cell is a number,
  else text (leading zeros such as "007" and integers longer than 15 digits stay text), with
  "", "N/A", "NA", "#N/A", "null", "nan" read as missing text;
* rows whose cells are all blank are dropped; data rows are numbered from 0 within each file
  as in ``load_table``'s frame.

Not read as ``load_table`` reads them (refused or documented): in a file larger than
SAMPLE_BYTES, not separated by commas, whose form no number column confirms, a cell read
1000 times otherwise in the other form ('1.234') is refused with its row (the form is decided
on the head, the rows the path source's sample reads: the evidence of the rest is not read
ahead of the one pass); files of different forms read together are refused; encodings other than
UTF-8, and blank or duplicate column names (DuckDB's own names are used). Parquet files keep
their own column types, as ``pandas.read_parquet`` reads them.

Which files are read (:func:`resolve_sources`, the one place a path becomes files): a file, a folder, a
glob or a list of files; every file must be named like a table (.csv, .tsv, .txt, .parquet,
.pq), whatever yielded it; an existing file or folder is its own name even when that name holds
``[``, ``*`` or ``?``, and the files are handed to DuckDB so that it never globs them. The list
resolved is the list read: pass it (a tuple of files) to read exactly those files later. One
path names at most :data:`MAX_FILES` files, counted while listing.

With a ``root`` (a server's data folder), every file is opened once, walking down from the root
without following a link, before anything reads it, and is read through that open file
(``/proc/self/fd/N``, DuckDB and pyarrow included): a folder or file swapped for a link between
the check and the read is refused, never read outside the root. With a ``stop`` (a function
that says when the caller no longer waits), the reading stops between files and batches, and
DuckDB's query is interrupted, with :class:`Stopped`.

Messages name the file, the data row and the column, never a cell of the file (nor the first
line of a file that is not a table): the file may not be the caller's to read.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import glob
import itertools
import os
import re
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Sequence

import numpy as np
import pandas as pd

from nbapp.blocks import reads_numbers
from nbapp.errors import DataError
from nbapp.io._export import atomic_output, predictions_frame, safe_csv_bytes, writable_path
from nbapp._number_rule import (AMBIGUOUS, COMMA, DOT, INF_TOKENS, INTEGER, LEADING_ZERO, MAX_EXACT_DIGITS,
                                NA_TOKENS, SPACES, TEXT_NA_TOKENS, NumberForm)
from nbapp.io._common import TEXT_DTYPE, RowNumbers
from nbapp.io._nested import arrow_nested, nested_error
from nbapp.io._sniffing import CONTENT_BYTE
from nbapp.scale._aggregates import MissingClass, NotPushable, Refused, Source, model_statistics

__all__ = ["fit_file", "predict_file", "sample_rows", "DEFAULT_BATCH_ROWS", "MAX_FILES", "Stopped"]

# 100,000 rows of a few dozen columns is a few tens of MB as pandas: large enough that the
# per-batch overhead (one summarize call) is negligible, small enough to bound memory.
DEFAULT_BATCH_ROWS = 100_000
# DuckDB's own buffers for the scan; a streamed scan needs far less, this is a ceiling.
DUCKDB_MEMORY_LIMIT = "1GB"
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
PARQUET_SUFFIXES = (".parquet", ".pq")
PREDICTION_SUFFIXES = (".csv", *PARQUET_SUFFIXES)
# The head of a CSV read to propose types: thousands of rows of a typical export.
SAMPLE_BYTES = 4 << 20
Progress = Callable[[int, int], None]
# What the file functions read: a file, a folder, a glob, or a list of files (each literal).
DataPath = str | os.PathLike | Sequence[str | os.PathLike]
# What stands for a quoted value in a message about a file (see _unquoted).
ELIDED = "'…'"
#: The most files one path, folder, glob or list may name (issue 31, item 10). Each file costs
#: its own checks (its header, its delimiter) and, under a data root, one open descriptor while it
#: is read: 100,000 small CSVs held a core for 11 minutes. Counted while listing, so a folder of
#: a million files is refused after listing 10,001 of them.
MAX_FILES = 10_000
#: How often a read with a ``stop`` asks it while DuckDB's query runs.
STOP_POLL_SECONDS = 0.2


class Stopped(Exception):
    """The read was stopped because its ``stop`` said so (its caller no longer waits for it): not
    bad input, so not a DataError."""


# ------------------------------------------------------------------------------------------
# public entry points
# ------------------------------------------------------------------------------------------
def fit_file(model: Any, path: DataPath, target: str, weight: str | None = None,
             progress: Progress | None = None, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> Any:
    """Fit ``model`` (a NaiveBayes, fitted or not: it is refitted) on a CSV or Parquet file, a
    glob, a folder of such files or a list of files, in bounded memory; returns the model.

    Equal to ``model.fit(table, target, weight)`` on the whole table loaded in memory (see the
    module docstring for how cells are read). The statistics are computed by DuckDB in one
    query (streamed in batches of ``batch_rows`` rows when a type states no aggregates).
    ``progress(rows_done, rows_total)`` reports DuckDB's share done as rows; the total is exact
    for Parquet and for tables of at most 10,000 rows, else estimated from the files' sizes,
    and the last call gives the rows read (done == total).
    """
    _check_batch_rows(batch_rows)
    numeric, others = _reading(model, target, weight)
    with _opened(resolve_sources(path)) as sources:
        try:
            stats, _ = engine_statistics(model, sources, numeric, others, target, weight, progress=progress)
        except (NotPushable, Refused, _duckdb_error()):
            sources.check()  # an interrupted query is no reason to stream
            stats = None     # a type without aggregates, or rows to name (a refused value, a bad line): stream
        if stats is None:
            return _fit_streamed(model, sources, target, weight, progress, batch_rows)
        return model.fit_stats(stats, target, weight)


def _duckdb_error() -> type[Exception]:
    import duckdb

    return duckdb.Error


def _reading(model: Any, target: str, weight: str | None) -> tuple[list[str], list[str]]:
    """The columns read as numbers (features whose type reads numbers, and the weight) and the others."""
    numeric = [c for c, s in model.features_.items() if reads_numbers(s)] + ([weight] if weight else [])
    return numeric, [target, *(c for c in model.features_ if c not in numeric)]


def _fit_streamed(model: Any, sources: _Sources, target: str, weight: str | None, progress: Progress | None,
                  batch_rows: int) -> Any:
    """fit_file by streaming: each batch summarised by the model, the statistics added."""
    numeric, others = _reading(model, target, weight)
    stats = None
    for file, frame in _batches(sources, numeric, others, progress, batch_rows):
        with _cells_unquoted(sources, [*numeric, *others], f"In {file!r} (rows numbered from 0 after the header): "):
            part = model.summarize(frame, target, weight)
        stats = part if stats is None else stats + part
    return model.fit_stats(stats, target, weight)


def predict_file(model: Any, path: DataPath, out_path: str | os.PathLike,
                 progress: Progress | None = None, *, keep: list[str] | tuple[str, ...] = (),
                 batch_rows: int = DEFAULT_BATCH_ROWS) -> Path:
    """Predict every row of a CSV / Parquet file, glob, folder or list of files into ``out_path``
    (.csv or .parquet), batch by batch; returns the output path.

    Columns: ``file`` and ``row`` (the data row within its file, from 0), the ``keep``
    columns (e.g. an id), ``predicted`` and ``P(class)`` per class, numbered as
    :func:`nbapp.io.predictions_frame` numbers them. A CSV is safe to open in a spreadsheet
    (formula-like text is neutralised, :func:`nbapp.safe_csv_bytes`). The probabilities equal
    ``model.predict_proba`` on the table loaded in memory.
    """
    require_fitted(model)
    out_path = writable_path(out_path, inputs=[path], suffixes=PREDICTION_SUFFIXES, what="predictions")
    features = list(model.features_)
    numeric = [c for c, s in model.features_.items() if reads_numbers(s)]
    others = [c for c in [*features, *keep] if c not in numeric]
    with _opened(resolve_sources(path)) as sources, atomic_output(out_path) as temporary:
        # (a failed run leaves no file, never half of one)
        writer = _writer_for(temporary, out_path.suffix, model)
        rows = 0
        try:
            for file, frame in _batches(sources, numeric, others, progress, batch_rows):
                with _cells_unquoted(sources, [*numeric, *others], f"In {file!r}: "):
                    scored = predictions_frame(model, frame[features])
                added = list(scored.columns[len(features):])
                source = pd.DataFrame({"file": file, "row": frame.index.to_numpy()}, index=frame.index)
                writer.write(pd.concat([source, frame[list(keep)], scored[added]], axis=1), predicted=added[0])
                rows += len(frame)
        finally:
            writer.close()
        if not rows:             # else an empty file, which no CSV or Parquet reader takes
            raise _no_rows(", ".join(sources.files))
    return out_path


def sample_rows(path: DataPath, n: int) -> pd.DataFrame:
    """The first rows (at most n) of the first file, read by load_table (CSV) or pyarrow
    (Parquet): enough to propose feature types without reading a large file. A file that does
    not read as a table is refused without quoting it."""
    with _opened(resolve_sources(path), first_only=True) as sources:
        first = sources.files[0]
        if sources.kind == "parquet":
            return _parquet_head(first, sources.path(first), n)
        head, _ = _head(sources, first)
    from nbapp.io._delimited import file_numbers
    from nbapp.io._loading import load_head

    with _cells_unquoted(sources, [], ""):
        # the numbers in the form fit_file reads the file in (decided on the whole head), not in
        # the form of the first n rows alone: the sample shows each cell as the fit reads it
        return load_head(head, os.path.basename(first), n, file_numbers(head, os.path.basename(first)).form).frame


def _head(sources: _Sources, file: str) -> tuple[bytes, bool]:
    """The first SAMPLE_BYTES of a CSV, cut at a line end (the last line dropped, in case a quoted
    cell spans it), and whether the file has more: the rows the sample and the number form read."""
    with open(sources.path(file), "rb") as handle:
        head = handle.read(SAMPLE_BYTES)
        more = bool(handle.read(1))
    if more:
        head = head[:head.rfind(b"\n", 0, head.rfind(b"\n")) + 1] or head
    return head, more


def _parquet_head(file: str, path: str, n: int) -> pd.DataFrame:
    """The first n rows of the Parquet file ``file``, read from ``path`` (the file, or its open descriptor)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        batch = next(pq.ParquetFile(path).iter_batches(batch_size=n), None)
    except (pa.ArrowException, OSError) as exc:
        raise DataError(f"Could not read {file!r} as Parquet ({type(exc).__name__}); give a Parquet file written by "
                        "pandas, pyarrow, Spark or DuckDB.") from None
    if batch is None:
        raise _no_rows(file)
    return batch.to_pandas()


# ------------------------------------------------------------------------------------------
# the files
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Sources:
    files: tuple[str, ...]        # the files, as messages name them
    kind: str                     # "csv" or "parquet"
    root: str | None = None       # the folder the files must lie under when they are opened
    stop: Callable[[], bool] | None = None   # True: the caller no longer waits (see Stopped)
    read: tuple[str, ...] = ()    # while opened (:func:`_opened`): what each file is read through

    @property
    def paths(self) -> tuple[str, ...]:
        """What the files are read through: their open descriptors once opened under a root."""
        return self.read or self.files

    def path(self, file: str) -> str:
        """What ``file`` (one of ``files``) is read through."""
        return self._read_through[file] if self.read else file

    @functools.cached_property
    def _read_through(self) -> dict[str, str]:
        return dict(zip(self.files, self.read))

    def check(self) -> None:
        """Raise Stopped when the caller no longer waits."""
        if self.stop is not None and self.stop():
            raise Stopped(f"Reading {self.files[0]!r} was stopped: its caller no longer waits for it.")


TABLE_SUFFIXES = CSV_SUFFIXES + PARQUET_SUFFIXES


def resolve_sources(path: DataPath | _Sources, *, root: str | os.PathLike | None = None,
                    stop: Callable[[], bool] | None = None) -> _Sources:
    """The one place a path becomes files: a file, a folder, a glob, or a list of files (each
    taken as named, never as a pattern) -> the files read, sorted for a folder or glob, all
    CSV or all Parquet, and each named like one (a glob or folder yields only such files; a
    file named otherwise is refused). An existing file or folder is its own name even when it
    holds ``[``, ``*`` or ``?``: ``sales [2024].csv`` is that file, not ``sales 2.csv``.

    With ``root`` (the folder a server lets its visitors read), a relative path is under the
    root, and only files whose real path (symlinks resolved) lies under it exist: everything
    else, whether missing, named otherwise or outside, is answered with one sentence, so that
    the answer never tells which files exist outside the root. The files returned are then
    real paths, so that what was checked is what is read; each is opened again the same way
    (walking from the root, following no link) when it is read.

    At most :data:`MAX_FILES` files (a DataError beyond, found while listing). ``stop``: a
    function, cheap and safe to call from another thread, that turns True once the caller no
    longer waits for the reading (a closed session): the reading functions then raise
    :class:`Stopped` between files and batches and interrupt DuckDB's query.
    """
    if isinstance(path, _Sources):
        return path
    if root is not None:
        return dataclasses.replace(_sources_under(path, os.path.realpath(root)), root=os.path.realpath(root),
                                   stop=stop)
    return dataclasses.replace(_sources(path), stop=stop)


def _sources(path: DataPath) -> _Sources:
    if isinstance(path, (list, tuple)):
        files = [os.fspath(f) for f in path]
        _check_count(len(files), "the list of files given")
        for f in files:
            _existing_table_file(f)
        return _of_one_kind(files, "the files given")
    text = os.fspath(path)
    files, where = _expand(text)
    if not files:
        raise DataError(f"No CSV or Parquet files match {where}; name files *.csv, *.tsv or *.parquet.")
    return _of_one_kind(files, where)


def _expand(text: str) -> tuple[list[str], str]:
    """A folder's table files, a file, or a glob's table files (an existing name is never a glob),
    at most MAX_FILES of them (the listing stops at the first file beyond)."""
    if os.path.isdir(text):
        where = f"the folder {text!r}"
        with os.scandir(text) as entries:
            tables = (os.path.join(text, e.name) for e in entries if _named_like_a_table(e.name) and e.is_file())
            return sorted(_at_most(tables, where)), where
    if os.path.isfile(text):
        _existing_table_file(text)
        return [text], text
    if glob.has_magic(text):
        where = f"the pattern {text!r}"
        return sorted(_at_most((f for f in glob.iglob(text) if _named_like_a_table(f) and os.path.isfile(f)),
                               where)), where
    raise DataError(f"There is no file or folder {text!r}; check the path.")


def _at_most(files: Iterator[str], where: str) -> list[str]:
    """The files, refused once there are more than MAX_FILES (without listing the rest)."""
    listed = list(itertools.islice(files, MAX_FILES + 1))
    _check_count(len(listed), where)
    return listed


def _check_count(n: int, where: str) -> None:
    if n > MAX_FILES:
        many = f"more than {MAX_FILES:,}" if n == MAX_FILES + 1 else f"{n:,}"
        raise DataError(f"{where[0].upper() + where[1:]} names {many} table files; one path may name at most "
                        f"{MAX_FILES:,}: name a narrower glob (such as sales/2025-*.csv) or a folder that holds "
                        "fewer files.")


def _named_like_a_table(file: str) -> bool:
    return file.lower().endswith(TABLE_SUFFIXES)


def _existing_table_file(file: str) -> None:
    if not os.path.isfile(file):
        raise DataError(f"There is no file or folder {file!r}; check the path.")
    if not _named_like_a_table(file):
        raise DataError(f"{file!r} is not named like a CSV, TSV or Parquet file (.csv, .tsv, .txt, .parquet); "
                        "rename it or give a table file.")


def _of_one_kind(files: list[str], where: str) -> _Sources:
    kinds = {"parquet" if f.lower().endswith(PARQUET_SUFFIXES) else "csv" for f in files}
    if len(kinds) > 1:
        raise DataError(f"{where} holds both CSV and Parquet files; fit each kind separately (or convert one).")
    return _Sources(tuple(files), kinds.pop())


def _sources_under(path: DataPath, root: str) -> _Sources:
    """resolve_sources confined to ``root`` (a real path): the path is joined to the root and
    normalised once (that text is what is expanded and read), refused unless it is under the
    root as written, and then every file it yields is kept only if its real path is under the
    root too (a link out of the root leads nowhere)."""
    typed = [os.fspath(p) for p in path] if isinstance(path, (list, tuple)) else [os.fspath(path)]
    shown = typed[0] if len(typed) == 1 else ", ".join(typed)

    def nowhere() -> DataError:
        return DataError(f"There is no file or folder {shown!r} under this server's data folder ({root}); type "
                         "the path of a CSV or Parquet file, a folder of them or a glob under it.")

    def inside(p: str) -> bool:
        return os.path.commonpath([root, p]) == root

    texts = [os.path.normpath(os.path.join(root, t)) for t in typed]
    if not all(inside(t) for t in texts):
        raise nowhere()
    if isinstance(path, (list, tuple)):
        _check_count(len(texts), "the list of files given")
        if not all(os.path.isfile(t) and inside(os.path.realpath(t)) for t in texts):
            raise nowhere()
        for t in texts:
            _existing_table_file(t)
        return _of_one_kind([os.path.realpath(t) for t in texts], "the files given")
    text = texts[0]
    literal = os.path.isdir(text) or os.path.isfile(text)
    if not (literal or glob.has_magic(text)) or (literal and not inside(os.path.realpath(text))):
        raise nowhere()          # missing, or a name (a link) that leads out of the root
    files, where = _expand(text)
    files = list(dict.fromkeys(real for real in map(os.path.realpath, files) if inside(real)))
    if not files:
        raise DataError(f"No CSV or Parquet files match {where}; name files *.csv, *.tsv or *.parquet.")
    return _of_one_kind(files, where)


@contextmanager
def _opened(sources: _Sources, *, first_only: bool = False) -> Iterator[_Sources]:
    """``sources`` while being read. Under a root (issue 31, item 11), each file (the first only,
    with ``first_only``) is opened once, here, walking from the root one name at a time without
    following a link (its real path has none, so a link met is a swap since the check), and
    read through its descriptor (``/proc/self/fd/N``: DuckDB, pyarrow and open() all reopen
    the very file opened); the descriptors are closed when the reading ends. Without a root,
    or already opened, the files are read by name."""
    sources.check()
    if sources.root is None or sources.read:
        yield sources
        return
    files = sources.files[:1] if first_only else sources.files
    held: list[int] = []
    try:
        _room_for(len(files))
        with _DirectoryWalk(sources.root) as walk:
            for file in files:
                held.append(walk.open_file(file))
                if len(held) % 256 == 0:
                    sources.check()
        yield dataclasses.replace(sources, files=files, read=tuple(f"{_FD_DIR}/{fd}" for fd in held))
    finally:
        for fd in held:
            os.close(fd)


# Where a process's open descriptors are files (Linux); elsewhere /dev/fd.
_FD_DIR = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
# Descriptors kept free for the rest of the process (its sockets, its other reads) when a read
# holds many files open.
_SPARE_DESCRIPTORS = 256


def _room_for(n: int) -> None:
    """Raise this process's soft limit of open files (never past its hard limit) so that ``n``
    more fit beside :data:`_SPARE_DESCRIPTORS`; a limit too low for them is a DataError."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    open_now = len(os.listdir(_FD_DIR)) if os.path.isdir(_FD_DIR) else 0
    wanted = open_now + n + _SPARE_DESCRIPTORS
    if wanted <= soft or soft == resource.RLIM_INFINITY:
        return
    if hard != resource.RLIM_INFINITY and wanted > hard:
        raise DataError(f"This server can hold {max(hard - open_now - _SPARE_DESCRIPTORS, 0):,} more files open "
                        f"now, and the path names {n:,}; name a narrower glob or a folder that holds fewer files.")
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else hard, hard))


class _DirectoryWalk:
    """Opens files under a root (a real path) one name at a time from the root's descriptor, with
    O_NOFOLLOW at every step: a name that is a link, at any depth, is refused. The folders'
    descriptors are kept for the walk (the files of one folder share them) and closed after."""

    _FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    # O_NONBLOCK: a FIFO named like a table does not hang the open (it is refused below as not a file).
    _FILE = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)

    def __init__(self, root: str) -> None:
        self.root = root
        self.folders: dict[str, int] = {}

    def __enter__(self) -> "_DirectoryWalk":
        self.folders[""] = os.open(self.root, self._FOLDER)
        return self

    def __exit__(self, *exc: Any) -> None:
        for fd in self.folders.values():
            os.close(fd)

    def open_file(self, file: str) -> int:
        """The descriptor of ``file`` (a real path under the root), or a DataError that says the file
        is no longer what was checked."""
        folder, name = os.path.split(os.path.relpath(file, self.root))
        try:
            fd = os.open(name, self._FILE, dir_fd=self._folder(folder))
        except OSError:
            raise _moved(file) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise _moved(file)
        return fd

    def _folder(self, folder: str) -> int:
        if folder not in self.folders:
            parent, name = os.path.split(folder)
            try:
                self.folders[folder] = os.open(name, self._FOLDER, dir_fd=self._folder(parent))
            except OSError:
                raise _moved(os.path.join(self.root, folder)) from None
        return self.folders[folder]


def _moved(file: str) -> DataError:
    return DataError(f"{file!r} is no longer the file that was checked (it, or a folder above it, was removed, "
                     "renamed or replaced by a link since the path was opened); open the path again.")


def _check_batch_rows(batch_rows: Any) -> None:
    if isinstance(batch_rows, bool) or not isinstance(batch_rows, int) or batch_rows < 1:
        raise DataError(f"batch_rows must be a whole number of at least 1, not {batch_rows!r}.")


def require_fitted(model: Any) -> None:
    if getattr(model, "target_", None) is None:
        raise DataError("The model is not fitted yet: fit it (fit, fit_file, fit_dask, fit_spark) before predicting.")


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _file_literal(file: str) -> str:
    """A file as DuckDB must be given it to read that file and no other: an absolute path (so
    that no search path or ~ applies) whose glob characters * ? [ are each inside brackets
    (DuckDB globs any name holding one of them; [*] matches '*' alone)."""
    path = os.path.abspath(file)
    if "\\" in path and glob.has_magic(path):
        # DuckDB also splits a pattern at backslashes, so such a name cannot be escaped.
        raise DataError(f"Cannot read {file!r}: its path holds a backslash and one of * ? [, which DuckDB cannot "
                        "read as a plain name; rename the file or its folder.")
    return _literal(re.sub(r"([*?\[])", r"[\1]", path))


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _scan_sql(files: tuple[str, ...] | list[str], kind: str, doubles: Collection[str] = ()) -> str:
    listed = "[" + ", ".join(_file_literal(f) for f in files) + "]"
    if kind == "parquet":
        return f"read_parquet({listed})"
    # Every cell as text: the reading rules are ours (load_table's), not the sniffer's; ``doubles``
    # read by DuckDB's number parser (see _engine_source's ``fast``).
    types = ", types = {" + ", ".join(f"{_literal(c)}: 'DOUBLE'" for c in doubles) + "}" if doubles else ""
    return f"read_csv({listed}, all_varchar = true, header = true{types})"


def _connect() -> Any:
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET memory_limit = {_literal(DUCKDB_MEMORY_LIMIT)}")
    con.execute("SET preserve_insertion_order = true")   # batches in file order
    return con


@contextmanager
def _connected(sources: _Sources) -> Iterator[Any]:
    """A DuckDB connection for reading ``sources``, closed after; with a ``stop``, a watcher
    thread interrupts its queries from the moment stop says so (issue 31, item 10): a query
    runs in DuckDB's threads, which nothing else could stop."""
    con = _connect()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(STOP_POLL_SECONDS):
            if sources.stop():
                con.interrupt()      # again at each poll: a query started after the first one stops too

    watcher = threading.Thread(target=watch, name="nbapp-stop-watch", daemon=True) if sources.stop else None
    if watcher is not None:
        watcher.start()
    try:
        yield con
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
        con.close()


def _each(sources: _Sources) -> Iterator[str]:
    """The files, asking ``stop`` before each (checks of 10,000 files take a while)."""
    for file in sources.files:
        sources.check()
        yield file


def _rows(con: Any, sql: str, file: str) -> list[tuple[Any, ...]]:
    """A small query's rows; DuckDB's reading errors become one DataError naming the file (an
    interrupted query, :class:`Stopped`)."""
    import duckdb

    try:
        return con.sql(sql).fetchall()
    except duckdb.InterruptException:
        raise Stopped(f"Reading {file!r} was stopped: its caller no longer waits for it.") from None
    except duckdb.Error as exc:
        raise _read_error(exc, file) from None


def _read_error(exc: Exception, file: str) -> DataError:
    """DuckDB's first line (its later lines quote the file's line), with anything quoted elided
    (and the descriptor a file was read through, which means nothing to the reader)."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    first = _unquoted(re.sub(r'"[^"]*"', ELIDED, first), {file})
    first = re.sub(re.escape(_FD_DIR) + r"/\d+", "the file", first)
    return DataError(f"Could not read {file!r}: {first}. Fix the file (one header row, the same number of "
                     "cells on every line, UTF-8 text) and try again.")


@contextmanager
def _cells_unquoted(sources: _Sources, names: Collection[str], lead: str) -> Iterator[None]:
    """A DataError raised inside (by load_table, summarize, ...) comes out led by ``lead``
    with every quoted value elided but the files' names and the column ``names`` the caller
    gave: a message names the file, the row and the column, never a cell of the file."""
    try:
        yield
    except DataError as exc:
        keep = {*names, *sources.files, *map(os.path.basename, sources.files)}
        raise DataError(lead + _unquoted(str(exc), keep)) from None


def _unquoted(message: str, keep: Collection[str]) -> str:
    """``message`` with each quoted value (as repr writes it: '...' or "...", backslash
    escapes) replaced by '…' unless it is one of ``keep``. A quote right after a letter or
    digit is an apostrophe (the model's), not an opening; an unclosed quote elides the rest."""
    out, i = [], 0
    while i < len(message):
        quote = message[i]
        if quote not in "'\"" or (i > 0 and message[i - 1].isalnum()):
            out.append(quote)
            i += 1
            continue
        end = i + 1
        while end < len(message) and message[end] != quote:
            end += 2 if message[end] == "\\" else 1
        if end >= len(message):
            out.append(ELIDED[:-1])
            break
        out.append(message[i:end + 1] if _repr_value(message[i:end + 1]) in keep else ELIDED)
        i = end + 1
    return "".join(out)


def _repr_value(text: str) -> str | None:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _columns(con: Any, sources: _Sources, file: str) -> list[str]:
    return [row[0] for row in _rows(con, f"DESCRIBE SELECT * FROM {_scan_sql([sources.path(file)], sources.kind)}",
                                    file)]


def _check_columns(columns: list[str], wanted: list[str], file: str) -> None:
    """Every wanted column is in the file. Its header is listed only when it shares a column
    with the ones wanted: a file that shares none is not a table of this model (a stray file
    in a folder), and its first line is not shown."""
    missing = [c for c in wanted if c not in columns]
    if len(missing) == len(wanted):
        raise DataError(f"Column {missing[0]!r} is not in {file!r}, which has none of the {len(wanted)} columns "
                        "asked for; is it a table of this data? Leave it out of the folder or glob.")
    if missing:
        raise DataError(f"Column {missing[0]!r} is not in {file!r}; its columns are {columns[:10]}.")


# ------------------------------------------------------------------------------------------
# how a CSV column is read (load_table's rules, in SQL)
# ------------------------------------------------------------------------------------------
def _tokens(tokens: frozenset[str]) -> str:
    return "(" + ", ".join(_literal(t) for t in sorted(tokens)) + ")"


# What DuckDB's cast reads as a number and load_table's pattern does not: '1_000', '+-1'.
CAST_ONLY = ("_", "+-")


def _cast_only_marks(sources: _Sources, chunk: int = 8 << 20, stop: threading.Event | None = None
                     ) -> tuple[str, ...]:
    """Those of CAST_ONLY that a cell of the CSV files may hold: a mark whose first byte occurs
    nowhere after a file's header line is in no cell, and the numbers' guard leaves it out (it
    costs a fifth of the fit's query). A search at memchr speed, about 0.1 s for 400 MB. The
    header is the bytes up to the first line end, \n or \r (headers such as 'user_id'); one
    that does not end in the first chunk is searched, and searching more can only keep a mark.
    ``stop`` set: the caller no longer waits for the answer (it returns every mark)."""
    firsts = {mark: mark[0].encode() for mark in CAST_ONLY}
    found: set[str] = set()
    buffer = bytearray(chunk)
    for file in sources.paths:
        with open(file, "rb") as handle:
            n = handle.readinto(buffer)
            ends = [i for i in (buffer.find(b"\n", 0, n), buffer.find(b"\r", 0, n)) if i >= 0]
            start = min(ends) + 1 if ends else 0       # the header ends at the first \n or \r (old Macs' lines)
            while n and len(found) < len(firsts):
                if stop is not None and stop.is_set():
                    return CAST_ONLY
                sources.check()
                found.update(m for m, b in firsts.items() if m not in found and buffer.find(b, start, n) >= 0)
                n, start = handle.readinto(buffer), 0
    return tuple(m for m in CAST_ONLY if m in found)


# What the profiling pass learns of each cell of a target / non-numeric feature column.
ABSENT, TEXT, WHOLE, DECIMAL = range(4)
CODES = 4


@dataclass(frozen=True)
class _Numbers:
    """How the CSV files write their numbers, as load_table decides it per file
    (:func:`nbapp.io._numbers.file_form`, from every cell of every column: the columns fit_file
    does not read decide it too) and :func:`_numbers_of` finds it. ``unsure``: the decision was
    taken on the head of a file larger than it (the rows the path source's sample reads) and the
    columns read as numbers do not confirm it over the whole file (:func:`_settled`), so a cell whose value depends on it
    (:data:`~nbapp._number_rule.AMBIGUOUS`, '1.234': 1.234 or 1234) is refused, naming its row,
    rather than read 1000 times otherwise than load_table might."""

    form: NumberForm = DOT
    unsure: bool = False


def _numbers_of(sources: _Sources, numeric: Collection[str]) -> _Numbers:
    """The number form of the CSV files (DOT for Parquet): load_table's decision
    (:func:`nbapp.io._delimited.file_numbers`) on each file, whole when it is at most
    SAMPLE_BYTES, else on its head (:func:`_head`, the rows of the path source's sample): unsure
    (:class:`_Numbers`) unless :func:`_settled`. Files whose forms differ are refused: one query
    reads them all in one form."""
    if sources.kind != "csv":
        return _Numbers()
    from nbapp.io._delimited import file_numbers

    forms: dict[str, NumberForm] = {}
    unsure = False
    for file in _each(sources):
        head, more = _head(sources, file)
        with _cells_unquoted(sources, [], ""):
            found = file_numbers(head, os.path.basename(file))
        forms[file] = found.form
        unsure = unsure or (more and not _settled(found, set(numeric)))
    if len(set(forms.values())) > 1:
        point = next(f for f, form in forms.items() if form == DOT)
        comma = next(f for f, form in forms.items() if form == COMMA)
        raise DataError(f"{point!r} writes its numbers with decimal points and {comma!r} with decimal commas (as "
                        "load_table reads each); fit_file reads files of one form together: give the files of each "
                        "form separately, or save them alike.")
    return _Numbers(next(iter(forms.values()), DOT), unsure)


def _settled(found: Any, numeric: set[str]) -> bool:
    """Whether the form decided on a file's head (``found``: :func:`nbapp.io._delimited.file_numbers`)
    is the one load_table decides on the whole file, whatever the other rows hold.

    A comma-separated file is DOT whatever its cells. Otherwise: fit_file refuses a cell of a
    number column (``numeric``: the number-reading features, the weight) that is no number of the
    form it reads in, and reads an infinity as missing, which is no evidence: over the whole file
    such a column says what it said in the head, or nothing is read. A NEITHER column (a cell of
    neither form) stays so; a BOTH column ('12', '1.234', or blank) could turn DOT_ONLY or
    COMMA_ONLY further down, unless it is a number column. So DOT holds when a number column is
    DOT_ONLY; DOT and COMMA hold when every BOTH column is a number column and, for DOT, no column
    is COMMA_ONLY and the file is not semicolon-separated (else an unread DOT_ONLY column decided
    it), for COMMA, the file is semicolon-separated or a number column is COMMA_ONLY."""
    from nbapp.io._numbers import BOTH, COMMA_ONLY, DOT_ONLY

    said = found.evidence
    if found.delimiter == "," or (found.form == DOT and any(said.get(c) == DOT_ONLY for c in numeric)):
        return True
    if any(e == BOTH and c not in numeric for c, e in said.items()):
        return False
    if found.form == DOT:
        return COMMA_ONLY not in said.values() and found.delimiter != ";"
    return found.delimiter == ";" or any(said.get(c) == COMMA_ONLY for c in numeric)


class _Cell:
    """SQL expressions over one VARCHAR column, as load_table's number reader tests its cells in
    the files' number form (``numbers``, :func:`_numbers_of`)."""

    def __init__(self, column: str, marks: Collection[str] = CAST_ONLY, numbers: _Numbers = _Numbers()) -> None:
        """``marks``: those of CAST_ONLY the cells may hold (the others are in no cell of the files)."""
        c = _ident(column)
        form = numbers.form
        self.name = column
        self.form = form
        self.raw = c
        self.s = _trimmed(c)
        self.lower = f"lower({self.s})"
        self.absent = f"({c} IS NULL OR {self.lower} IN {_tokens(NA_TOKENS | INF_TOKENS)})"
        self.number = f"regexp_full_match({self.s}, {_literal(form.pattern.pattern)})"
        # as a float parser reads it: no thousands separators, a decimal point (NumberForm.plain)
        self.plain = f"replace({self.s}, {_literal(form.thousands)}, '')"
        if form.decimal != ".":
            self.plain = f"replace({self.plain}, {_literal(form.decimal)}, '.')"
        self.guarded = " AND ".join(f"NOT contains({c}, {_literal(mark)})" for mark in marks) or "true"
        self.ambiguous = (f"(regexp_full_match({self.s}, {_literal(AMBIGUOUS)}) AND NOT {self.absent})"
                          if numbers.unsure else "")

    def checked(self, expression: str) -> str:
        """``expression``, or an error naming the column where the cell is AMBIGUOUS and the form unsure."""
        if not self.ambiguous:
            return expression
        refused = f"error('nbapp-ambiguous:' || {_literal(self.name)})"
        return f"CASE WHEN {self.ambiguous} THEN {refused} ELSE {expression} END"

    def code(self) -> str:
        """One of the codes above per cell: leading zeros and long integers are TEXT (codes, as
        in load_table)."""
        integer = _literal(INTEGER)          # load_table's rule (nbapp._number_rule), as RE2 patterns
        # a whole number as load_table's int64: one that a 64-bit integer holds (else a decimal)
        whole = f"(regexp_full_match({self.plain}, {integer}) AND TRY_CAST({self.plain} AS BIGINT) IS NOT NULL)"
        number = (f"CASE WHEN regexp_matches({self.s}, {_literal('^' + LEADING_ZERO)}) "
                  f"OR (length({self.s}) > {MAX_EXACT_DIGITS} AND regexp_full_match({self.s}, {integer})) THEN {TEXT} "
                  f"WHEN {whole} THEN {WHOLE} ELSE {DECIMAL} END")
        return (f"CASE WHEN {self.raw} IS NULL THEN {ABSENT} WHEN {self.number} THEN ({number}) "
                f"WHEN {self.lower} IN {_tokens(NA_TOKENS | INF_TOKENS)} THEN {ABSENT} ELSE {TEXT} END")

    def as_double(self) -> str:
        """A number, NULL for missing and infinite cells; a cell that is no number raises (the
        marker is turned into a DataError naming the row). DuckDB's own cast is tried first (not
        for NaN, nor for a cell holding a mark: see _cast_only_marks; nor for a point in the
        COMMA form, where it separates thousands); load_table's number pattern decides the rest
        (it refuses '1_000', '+-1' and '-nan', which DuckDB reads)."""
        fast, fast_ok, slow, slow_ok = self._number_paths()
        return self.checked(f"CASE WHEN {fast_ok} THEN (CASE WHEN isinf({fast}) THEN NULL ELSE {fast} END) "
                            f"WHEN {self.absent} THEN NULL::DOUBLE "
                            f"WHEN {slow_ok} THEN (CASE WHEN isinf({slow}) THEN NULL ELSE {slow} END) "
                            f"ELSE error('nbapp-not-a-number:' || {_literal(self.name)}) END")

    def unreadable(self) -> str:
        """True for the cells as_double refuses as no number."""
        _, fast_ok, _, slow_ok = self._number_paths()
        return f"NOT ({fast_ok} OR {self.absent} OR {slow_ok})"

    def _number_paths(self) -> tuple[str, str, str, str]:
        if self.form.decimal == ".":
            fast = f"TRY_CAST({self.raw} AS DOUBLE)"
            # NaN is a number to the cast ('-nan', 'nan(1)' too); only load_table's tokens are missing.
            fast_ok = f"({fast} IS NOT NULL AND NOT isnan({fast}) AND {self.guarded})"
        else:   # a cell without a point ('3,5'), its comma a point, is a number of COMMA's form exactly
            # when it is one of DOT's; the cast would read '1.234' as 1.234: the pattern decides it
            fast = f"TRY_CAST(replace({self.raw}, {_literal(self.form.decimal)}, '.') AS DOUBLE)"
            fast_ok = (f"(NOT contains({self.raw}, {_literal(self.form.thousands)}) AND {fast} IS NOT NULL "
                       f"AND NOT isnan({fast}) AND {self.guarded})")
        return fast, fast_ok, f"TRY_CAST({self.plain} AS DOUBLE)", self.number

    def as_integer(self) -> str:
        return self.checked(f"CAST({self.plain} AS BIGINT)")

    def as_text(self) -> str:
        return self.checked(f"CASE WHEN {self.raw} IS NULL OR {self.lower} IN {_tokens(TEXT_NA_TOKENS)} THEN NULL "
                            f"ELSE {self.raw} END")


def _trimmed(column: str) -> str:
    """A VARCHAR column's cells stripped as load_table strips them (of SPACES, not only of spaces)."""
    return f"trim({column}, {_literal(SPACES)})"


def _decide(counts: dict[int, int]) -> str:
    """load_table's choice for a column from its cell codes: 'int', 'float', 'text' or 'empty'."""
    if sum(n for code, n in counts.items() if code != ABSENT) == 0:
        return "empty"
    if counts[TEXT]:
        return "text"
    if counts[ABSENT] == 0 and counts[DECIMAL] == 0:
        return "int"
    return "float"


@dataclass(frozen=True)
class _Plan:
    """How each used column of a CSV input is read, and how many rows it has."""

    select: str          # the SELECT list
    where: str           # drops rows with every cell blank
    total_rows: int
    numbers: _Numbers = _Numbers()   # the files' number form (:func:`_numbers_of`)


def _csv_plan(con: Any, sources: _Sources, columns: list[str], numeric: list[str], others: list[str],
              numbers: _Numbers) -> _Plan:
    """One pass over every file decides how each non-numeric column reads (its cell codes are
    computed once per cell, then counted); numeric features are numbers by their type."""
    blank = " AND ".join(f"coalesce({_trimmed(_ident(c))}, '') = ''" for c in columns)
    where = f"NOT ({blank})"
    profiled = [_Cell(c, numbers=numbers) for c in dict.fromkeys(others) if c not in numeric]
    codes = ", ".join(f"{cell.code()} AS k{i}" for i, cell in enumerate(profiled)) or "0 AS k0"
    counts = ", ".join(f"count(*) FILTER (WHERE k{i} = {code})"
                       for i in range(len(profiled)) for code in range(CODES)) or "0"
    scan = _scan_sql(sources.paths, "csv")
    row = _rows(con, f"SELECT count(*), {counts} FROM (SELECT {codes} FROM {scan} WHERE {where})",
                sources.files[0])[0]
    per_column = {cell.name: dict(enumerate(row[1 + CODES * i:1 + CODES * (i + 1)])) for i, cell in enumerate(profiled)}
    expressions = []
    for name in dict.fromkeys([*numeric, *others]):
        cell = _Cell(name, numbers=numbers)
        decision = "number" if name in numeric else _decide(per_column[name])
        expr = {"number": cell.as_double(), "int": cell.as_integer(), "float": cell.as_double(),
                "text": cell.as_text(), "empty": "NULL::DOUBLE"}[decision]
        expressions.append(f"{expr} AS {_ident(name)}")
    return _Plan(", ".join(expressions), where, int(row[0]), numbers)


# ------------------------------------------------------------------------------------------
# the files as a source of aggregates
# ------------------------------------------------------------------------------------------
def engine_statistics(model: Any, sources: _Sources, numeric: list[str], others: list[str], target: str,
                      weight: str | None, *, folds: int | None = None, progress: Progress | None = None
                      ) -> tuple[Any, int]:
    """The model's statistics of the files computed by DuckDB (:func:`model_statistics`; with
    ``folds``, one per fold) and the number of rows.

    A CSV is first read the fast way (``fast`` of :func:`_engine_source`). Where that cannot
    stand for load_table's reading (a cell DuckDB's reader cannot parse, such as 'N/A'; a row
    without a class, such as a row of spaces), the query runs again with load_table's rules in
    SQL; what that refuses, the caller streams to name the row. Either read tests numbers for
    the marks of :func:`_cast_only_marks` found in the files."""
    stop = threading.Event()      # a refusal before the search ends need not wait for it (a 5 GB file: 2 s)
    with ThreadPoolExecutor(1) as pool:     # the search runs beside DuckDB's start
        marks = pool.submit(_cast_only_marks, sources, stop=stop) if sources.kind == "csv" else None
        try:
            with _connected(sources) as con:
                columns = _check_files(con, sources, list(dict.fromkeys([*numeric, *others])))
                numbers = _numbers_of(sources, numeric)
                for fast in ((True, False) if marks is not None else (False,)):
                    source = _engine_source(con, sources, numeric, others, columns, numbers, folds=folds, fast=fast,
                                            marks=CAST_ONLY if marks is None else marks.result())
                    try:
                        return model_statistics(model, source, target, weight, part=None if folds is None else FOLD,
                                                parts=folds or 1, progress=progress,
                                                known_rows=_estimated_rows(sources))
                    except (MissingClass, _duckdb_error()):
                        sources.check()          # interrupted: no reason for the exact read
                        if not fast:
                            raise
        finally:
            stop.set()
    raise AssertionError("unreachable")


def _engine_source(con: Any, sources: _Sources, numeric: list[str], others: list[str], columns: list[str],
                   numbers: _Numbers, *, folds: int | None = None, marks: Collection[str] = CAST_ONLY,
                   fast: bool = False) -> Source:
    """The checked files (``columns``: the first file's, as :func:`_check_files` gives them;
    ``numbers``: :func:`_numbers_of`) as one DuckDB query for the aggregates: a CSV's
    numbers parsed by load_table's rule in SQL (``_Cell``; ``marks`` as :func:`_cast_only_marks`
    found them), its other columns as their text, read back in Python by the same rule once
    grouped (:func:`_csv_values`), rows whose every cell is blank dropped; a Parquet file's
    columns as they are typed. With ``folds``, a column ``__nbapp_fold``: the fold of each row
    by :func:`hash_folds` of (file, data row), computed in SQL.

    ``fast``: a sixth less time, and equal wherever it runs to the end with every row's class.
    Only rows whose every cell DuckDB reads as NULL (empty) are dropped, a test of validity
    bits (a row of spaces stays, and its blank class stops the fit). When the search found
    neither mark, numbers are DuckDB's reader's DOUBLEs, which are TRY_CAST's: a cell it cannot
    read ('N/A', '1,000') or reads as NaN stops the query; an infinity is missing, as in
    ``_Cell.as_double``."""
    from nbapp.scale._engines import duckdb_source

    wanted = list(dict.fromkeys([*numeric, *others]))
    where = repr(sources.files[0]) if len(sources.files) == 1 else f"the {len(sources.files)} files of {sources.files[0]!r}"
    if sources.kind == "csv":
        blank = " AND ".join(f"{_ident(c)} IS NULL" if fast else f"coalesce({_trimmed(_ident(c))}, '') = ''"
                             for c in columns)
        # DuckDB's reader parses decimal points only, and knows no AMBIGUOUS cell to refuse
        typed = list(dict.fromkeys(numeric)) if fast and not marks and numbers == _Numbers() else []
        select = [f"{_finite(c) if c in typed else _Cell(c, marks, numbers).as_double()} AS {_ident(c)}"
                  for c in dict.fromkeys(numeric)]
        select += [f"{_Cell(c, marks, numbers).checked(_ident(c))} AS {_ident(c)}"
                   for c in dict.fromkeys(others) if c not in numeric]
        kinds = {**{c: "text" for c in others}, **{c: "parsed" for c in numeric}}
        values = _csv_values(numbers, sources)
    else:
        blank, select, kinds, values, typed = "false", [_ident(c) for c in wanted], None, None, []

    def scan(files: list[str]) -> str:
        return f"SELECT {', '.join(select)} FROM {_scan_sql(files, sources.kind, typed)} WHERE NOT ({blank})"

    if folds is None:
        sql = scan(list(sources.paths))
    else:
        sql = " UNION ALL ".join(_with_folds(scan([f]), i, folds) for i, f in enumerate(sources.paths))
        if kinds is not None:
            kinds[FOLD] = "number"
    source = duckdb_source(con, sql, where, columns=kinds)
    return source if values is None else Source(source.sql, source.dialect, source.columns, source.run, values,
                                                source.where)


def _finite(column: str) -> str:
    """A DOUBLE column of DuckDB's reader with infinities missing, as load_table reads them; a NaN
    stops the fast read (was it 'nan', missing, or '-nan', which load_table refuses? the exact
    read tells)."""
    c = _ident(column)
    return f"CASE WHEN isnan({c}) THEN error('nbapp-nan-for-the-exact-read') WHEN isinf({c}) THEN NULL ELSE {c} END"


FOLD = "__nbapp_fold"
# splitmix64 (nbapp.scale._evaluate.hash_folds) in DuckDB: 64-bit products wrap by masking the
# 128-bit product (a mask, not a modulo: 128-bit division is slow).
_MASK = "18446744073709551615::UHUGEINT"


def _with_folds(scan: str, file: int, k: int) -> str:
    """The rows of one file with their fold: splitmix64 of (file << 40) + data row, modulo k,
    the row numbered in file order (DuckDB's streaming row_number keeps the insertion order)."""
    def mix(z: str, shift: int, factor: int) -> str:
        return f"((xor({z}, {z} >> {shift}))::UHUGEINT * {factor}::UHUGEINT & {_MASK})::UBIGINT"

    start = f"((nbapp_row::UHUGEINT + ({file}::UHUGEINT << 40) + 11400714819323198485::UHUGEINT) & {_MASK})::UBIGINT"
    return (f"SELECT * EXCLUDE (nbapp_z2), CAST(xor(nbapp_z2, nbapp_z2 >> 31) % {k} AS BIGINT) AS {FOLD} FROM ("
            f"SELECT * EXCLUDE (nbapp_z1), {mix('nbapp_z1', 27, 10723151780598845931)} AS nbapp_z2 FROM ("
            f"SELECT * EXCLUDE (nbapp_z0), {mix('nbapp_z0', 30, 13787848793156543929)} AS nbapp_z1 FROM ("
            f"SELECT * EXCLUDE (nbapp_row), {start} AS nbapp_z0 FROM ("
            f"SELECT *, row_number() OVER () - 1 AS nbapp_row FROM ({scan})))))")


def _csv_values(numbers: _Numbers, sources: _Sources) -> Any:
    """How the distinct cells of a CSV column that DuckDB grouped become values: load_table's
    own reader (:class:`nbapp.io._numbers.NumberReader`) applied to them, in the files' number
    form (:func:`_numbers_of`). Whether a column is whole numbers, decimals or text depends only
    on which cells occur, so reading the distinct cells decides as reading every cell does."""
    from nbapp.io._numbers import NumberReader

    def values(column: str, raw: list[Any]) -> pd.Series:
        # TEXT_DTYPE: the strings as load_table's parser holds its cells (Arrow-backed), whose
        # number parser decides "+4" as load_table's does (pandas 2.3's "str" would be objects)
        cells = pd.Series(["" if v is None else str(v) for v in raw], dtype=TEXT_DTYPE)
        reader = NumberReader(pd.DataFrame({0: cells}), RowNumbers("row", lambda: np.arange(len(cells))), None,
                              numbers.form)
        return reader.convert(0, column, [])

    return values


def _estimated_rows(sources: _Sources) -> int:
    """The rows of the files for progress: Parquet's own count; a CSV's from its size and the
    bytes per line of its first megabyte."""
    if sources.kind == "parquet":
        import pyarrow.parquet as pq

        return sum(pq.ParquetFile(f).metadata.num_rows for f in sources.paths)
    with open(sources.paths[0], "rb") as handle:
        head = handle.read(1 << 20)
    lines = max(head.count(b"\n") - 1, 1)
    per_line = len(head) / (lines + 1)
    return max(int(sum(os.path.getsize(f) for f in sources.paths) / per_line), 1)


# ------------------------------------------------------------------------------------------
# streaming batches
# ------------------------------------------------------------------------------------------
def _batches(path: str | os.PathLike, numeric: list[str], others: list[str], progress: Progress | None,
             batch_rows: int) -> Iterator[tuple[str, pd.DataFrame]]:
    """(file, frame) with the used columns of every file, ``batch_rows`` rows at a time, read as
    described in the module docstring; each frame's index is the data row within its file."""
    _check_batch_rows(batch_rows)
    with _opened(resolve_sources(path)) as sources, _connected(sources) as con:
        wanted = list(dict.fromkeys([*numeric, *others]))
        columns = _check_files(con, sources, wanted)
        if sources.kind == "csv":
            plan = _csv_plan(con, sources, columns, numeric, others, _numbers_of(sources, numeric))
        else:
            total = _rows(con, f"SELECT count(*) FROM {_scan_sql(sources.paths, 'parquet')}", sources.files[0])[0][0]
            plan = _Plan(", ".join(_ident(c) for c in wanted), "true", int(total))
        if plan.total_rows == 0:
            raise _no_rows(sources.files[0] if len(sources.files) == 1 else f"the {len(sources.files)} files")
        done = 0
        for file in sources.files:
            for frame in _file_batches(con, sources, file, plan, batch_rows):
                sources.check()
                done += len(frame)
                yield file, frame
                if progress is not None:
                    progress(done, plan.total_rows)


def _check_files(con: Any, sources: _Sources, wanted: list[str]) -> list[str]:
    """Every file holds a table with the wanted columns, one value per cell; the first file's columns."""
    first = []
    for file in _each(sources):
        _refuse_blank(file, sources)
        columns = _columns(con, sources, file)
        _check_columns(columns, wanted, file)
        _refuse_nested(file, sources, wanted)
        first = first or columns
    return first


def _refuse_blank(file: str, sources: _Sources) -> None:
    """A CSV with nothing in it (0 bytes, or blank lines only), which DuckDB reads as one column
    named 'column0'."""
    if sources.kind != "csv":
        return
    with open(sources.path(file), "rb") as handle:
        head = handle.read(SAMPLE_BYTES)
    if len(head) < SAMPLE_BYTES and not CONTENT_BYTE.search(head):
        raise DataError(f"The file {file!r} is empty (no header row, no data); give a CSV with a header row and "
                        "data rows, or leave this file out.")


def _refuse_nested(file: str, sources: _Sources, wanted: list[str]) -> None:
    """A Parquet column of lists, structs or maps among those used, found in the file's schema."""
    if sources.kind != "parquet":
        return
    import pyarrow.parquet as pq

    for field in pq.read_schema(sources.path(file)):
        what = arrow_nested(field.type) if field.name in wanted else None
        if what:
            raise nested_error(field.name, what, repr(file))


def _no_rows(where: str) -> DataError:
    return DataError(f"{where!r} has no data rows (only a header or column names, or blank lines); there is nothing "
                     "to fit or predict: give a file with rows of data.")


def _file_batches(con: Any, sources: _Sources, file: str, plan: _Plan, batch_rows: int) -> Iterator[pd.DataFrame]:
    import duckdb

    sql = f"SELECT {plan.select} FROM {_scan_sql([sources.path(file)], sources.kind)} WHERE {plan.where}"
    start = 0
    try:
        reader = con.sql(sql).to_arrow_reader(batch_rows)
        for batch in reader:
            if batch.num_rows == 0:
                continue
            frame = batch.to_pandas()
            frame.index = pd.RangeIndex(start, start + len(frame))
            start += len(frame)
            yield frame
    except (duckdb.Error, OSError) as exc:   # errors inside the stream reach us through pyarrow as OSError
        sources.check()                      # (an interrupted query is not the file's fault)
        for marker, error in (("nbapp-not-a-number:", _not_a_number), ("nbapp-ambiguous:", _ambiguous)):
            if marker in str(exc):
                column = str(exc).split(marker, 1)[1].strip().splitlines()[0]
                raise error(con, sources, file, column, plan) from None
        raise _read_error(exc, file) from None


def _first_row(con: Any, sources: _Sources, file: str, cell: _Cell, flag: str, plan: _Plan) -> tuple[int, str] | None:
    """The first data row of ``file`` where ``flag`` holds, and its cell (the error path only)."""
    sql = f"SELECT {cell.raw}, {flag} FROM {_scan_sql([sources.path(file)], sources.kind)} WHERE {plan.where}"
    row = 0
    for batch in con.sql(sql).to_arrow_reader(DEFAULT_BATCH_ROWS):
        bad = np.flatnonzero(batch.column(1).to_numpy(zero_copy_only=False))
        if len(bad):
            return row + int(bad[0]), str(batch.column(0)[int(bad[0])].as_py())
        row += batch.num_rows
    return None


def _not_a_number(con: Any, sources: _Sources, file: str, column: str, plan: _Plan) -> DataError:
    """Find the first cell of a numeric column that is not a number (the error path only)."""
    cell = _Cell(column, numbers=plan.numbers)
    found = _first_row(con, sources, file, cell, cell.unreadable(), plan)
    if found is None:
        return DataError(f"Column {column!r} of {file!r} holds a cell that is not a number; correct it.")
    where, value = found
    other = plan.numbers.form != DOT and DOT.pattern.fullmatch(value.strip(SPACES))
    held = ("a number with a decimal point in a file that writes decimal commas (as load_table reads it)"
            if other else "a cell that is not a number")
    fix = ("write it as the file's other numbers are written (3,5 for three and a half)" if other else
           "blank that cell or correct it, or give the column a text type such as categorical")
    return DataError(f"Column {column!r} is numeric but data row {where} of {file!r} (line {where + 2} if no "
                     f"cell spans lines) holds {held}; {fix}.")


def _ambiguous(con: Any, sources: _Sources, file: str, column: str, plan: _Plan) -> DataError:
    """Find the first AMBIGUOUS cell of a column of an unsure file (the error path only)."""
    cell = _Cell(column, numbers=plan.numbers)
    found = _first_row(con, sources, file, cell, cell.ambiguous, plan)
    where = f"data row {found[0]} of {file!r} (line {found[0] + 2} if no cell spans lines)" if found else repr(file)
    form = "decimal commas" if plan.numbers.form == COMMA else "decimal points"
    return DataError(
        f"Column {column!r}: {where} holds a number such as 1.234, which is 1.234 with a decimal point and 1234 "
        f"with a decimal comma. The file is not separated by commas, and its first {SAMPLE_BYTES >> 20} MiB read "
        f"with {form}; load_table decides from every cell of the file, which fit_file does not read ahead. Write "
        "the number so that it reads one way (1.2340, or 1234 without a separator), or save the file "
        "comma-separated with decimal points.")


# ------------------------------------------------------------------------------------------
# writing predictions
# ------------------------------------------------------------------------------------------
class _CsvWriter:
    """One header (with the byte-order mark), then each batch's rows, formula-safe."""

    def __init__(self, path: Path) -> None:
        self.handle = open(path, "wb")
        self.header: bytes | None = None

    def write(self, frame: pd.DataFrame, predicted: str) -> None:
        data = safe_csv_bytes(frame)
        header = safe_csv_bytes(frame.iloc[:0])
        if self.header is None:
            self.header = header
            self.handle.write(data)
        else:
            self.handle.write(data[len(header):])

    def close(self) -> None:
        self.handle.close()


class _ParquetWriter:
    """A Parquet file written batch by batch with one schema (the predicted column typed by the
    model's classes, so a batch of undetermined rows does not change it)."""

    def __init__(self, path: Path, model: Any) -> None:
        self.path, self.model, self.writer, self.schema = path, model, None, None

    def write(self, frame: pd.DataFrame, predicted: str) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.writer is None:
            schema = pa.Table.from_pandas(frame, preserve_index=False).schema
            where = schema.get_field_index(predicted)
            self.schema = schema.set(where, pa.field(predicted, self._class_type()))
            self.writer = pq.ParquetWriter(self.path, self.schema)
        self.writer.write_table(pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False))

    def _class_type(self) -> Any:
        import pyarrow as pa

        try:
            return pa.array(self.model.classes_).type
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return pa.string()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _writer_for(path: Path, suffix: str, model: Any) -> Any:
    """The writer for a predictions file named with ``suffix`` (checked by writable_path)."""
    return _ParquetWriter(path, model) if suffix.lower() in PARQUET_SUFFIXES else _CsvWriter(path)
