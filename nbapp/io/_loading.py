"""Reading uploaded files into tables, with a note for every interpretation.

Analysts upload what their tools export: semicolons and decimal commas, Windows-1252,
UTF-16 from Excel, ragged rows, "N/A" in number columns, IDs with leading zeros. pandas
accepts many of these silently and gives wrong answers (a short row is padded, a trailing
delimiter shifts every column). Here every file either loads with plain sentences saying what
was detected or changed (:attr:`Table.notes`), or is refused with one :class:`DataError`
that names the file, line, column or value and says what to do.

How a delimited file is read:

1. the container is checked (gzip, PDF, ZIP and other binaries are refused; an Excel
   workbook is read as Excel whatever its name);
2. the encoding is found (byte-order mark, else strict UTF-8, else Windows-1252 / a guess);
3. the delimiter is the one of ``, ; TAB |`` that splits a sample most consistently;
4. the fields of every record are counted with the :mod:`csv` module (pandas pads short
   rows silently), and unclosed quotes or ragged rows are refused with line numbers;
5. pandas' C parser reads every cell as text, and columns that are cleanly numeric are
   converted afterwards (so "007" stays an ID and "N/A" is reported, never guessed).

Steps 4-5 and the per-column checks are the careful path, the specification. A clean
comma-separated file (UTF-8, no quotes, at least 1 MiB) first tries the fast path of
:mod:`nbapp.io._fast`: Arrow reads the cells, each column is proved cheaply to read as the
careful path reads it, and only columns (or files) without such a proof take the careful path;
the frame and the notes are the same either way.

This module holds the entry points; the steps live by concern in :mod:`nbapp.io._sniffing`
(container and encoding), :mod:`nbapp.io._delimited`, :mod:`nbapp.io._workbook`,
:mod:`nbapp.io._tidy` (names, empty rows and columns), :mod:`nbapp.io._numbers` (which columns
are numbers) and :mod:`nbapp.io._corpus`; :mod:`nbapp.io._common` has what they share.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nbapp.errors import DataError, report_internal_error
from nbapp.io._common import Table, _ZIP_MAGIC, _file_name
from nbapp.io._corpus import _load_corpus
from nbapp._number_rule import NumberForm
from nbapp.io._delimited import _read_delimited
from nbapp.io._sniffing import _refuse_empty, _refuse_known_binary
from nbapp.io._workbook import OLE_MAGIC, _read_workbook, workbook_sheets

__all__ = ["Table", "load_table", "load_corpus", "workbook_sheets"]


def load_table(data: bytes, filename: str, *, max_rows: int | None = None, sheet: str | int | None = None) -> Table:
    """Read a CSV / TSV / semicolon / pipe file or a workbook (Excel .xlsx, old Excel .xls,
    OpenDocument .ods) into a Table.

    ``sheet``: which sheet of a workbook to read, by name or 0-based position (the first by
    default; :func:`workbook_sheets` lists them); ignored for other files.

    Every cell is read as text first; a column becomes numeric only when each value is a
    number (after NA tokens such as "N/A", "?" or "-" are read as missing, which is noted
    with the lines). ``max_rows`` reads only the first data rows (noted when more exist).
    Raises :class:`DataError`, and nothing else, on a file that cannot be read faithfully.
    """
    if max_rows is not None:
        if isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)) or max_rows < 1:
            raise DataError(
                f"max_rows must be a whole number of rows of at least 1 (or None for all rows), "
                f"not {max_rows!r}."
            )
        max_rows = int(max_rows)
    name = _file_name(str(filename))
    return _guarded(name, lambda: _load_table(bytes(data), name, max_rows, sheet))


def load_corpus(
    data: bytes,
    filename: str,
    *,
    max_entries: int = 60_000,
    max_total_bytes: int = 300 << 20,
    max_ratio: float = 100.0,
) -> Table:
    """Read a labelled text corpus into a Table with columns ``text`` and ``label``.

    Accepted: a CSV / Excel table with a text column and a label column; a ``.zip`` with
    one folder per class holding ``.txt`` files (limits on entries, unpacked size and
    compression ratio are checked before anything is decompressed; nothing touches the
    disk); a ``label<TAB>text`` lines file. Text is NFC-normalised (noted when that
    changes anything); empty documents are kept and counted in the notes.
    """
    limits = {"max_entries": max_entries, "max_total_bytes": max_total_bytes, "max_ratio": max_ratio}
    name = _file_name(str(filename))
    return _guarded(name, lambda: _load_corpus(bytes(data), name, limits, _load_table))   # a corpus given as a table


def _guarded(filename: str, read: Callable[[], Table]) -> Table:
    """Bad files raise DataError where they are found. Anything else is a bug, and is not
    disguised as the user's mistake: it becomes an InternalError ("internal error — please
    report", with an id under which the traceback is logged). The fuzz tests assert that no
    input reaches it."""
    try:
        return read()
    except DataError:
        raise
    except MemoryError:
        raise DataError(
            f"The file {filename!r} is too large to read in memory here; upload a smaller "
            "sample of its rows."
        ) from None
    except Exception as exc:  # noqa: BLE001 - the last line of defence, see the docstring
        raise report_internal_error(exc) from exc


def load_head(data: bytes, filename: str, max_rows: int, form: NumberForm) -> Table:
    """load_table of the first rows of a larger file, whose numbers are read in ``form``: the
    form load_table decides on the whole head (:func:`nbapp.io._delimited.file_numbers`), which
    fit_file reads the file in, so that the path source's sample reads each cell as the fit
    does (not in the form of its first ``max_rows`` rows alone)."""
    name = _file_name(str(filename))
    return _guarded(name, lambda: _load_table(bytes(data), name, max_rows, None, form))


def _load_table(data: bytes, filename: str, max_rows: int | None, sheet: str | int | None = None,
                form: NumberForm | None = None) -> Table:
    _refuse_empty(data, filename)
    if data.startswith((*_ZIP_MAGIC, OLE_MAGIC)):
        return _read_workbook(data, filename, max_rows, sheet)
    _refuse_known_binary(data, filename)
    return _read_delimited(data, filename, max_rows, form=form)
