"""Workbooks: Excel .xlsx (openpyxl), old Excel .xls (xlrd) and OpenDocument .ods (odfpy):
the archive checks, the sheet, the header row.

Any sheet can be read (``sheet``: a name or a 0-based position; the first by default);
:func:`workbook_sheets` lists them so the app can offer a choice. .xls and .ods need the
optional readers ``xlrd`` and ``odfpy`` (in nbapp's dependencies); without them the file
is refused with the fix.
"""

from __future__ import annotations

import io
import itertools
import warnings
import zipfile
import zlib
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.io._common import MAX_COLUMNS, TEXT_DTYPE, Table, XLSX_LIMITS, _Raw, _RowNumbers, _shape

__all__ = ["workbook_sheets", "OLE_MAGIC"]

#: The first bytes of an OLE2 compound file: an old Excel .xls (or another old Office file).
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
# What each reader needs, and the sentence that says how to get it.
_ENGINES = {"xls": ("xlrd", "old Excel .xls"), "ods": ("odf", "OpenDocument .ods")}
_PACKAGES = {"xlrd": "xlrd", "odf": "odfpy"}
from nbapp.io._sniffing import _check_archive
from nbapp.io._tidy import _tidy


def _read_workbook(data: bytes, filename: str, max_rows: int | None, sheet: str | int | None = None) -> Table:
    """An .xlsx or .ods (both ZIP archives) or an .xls (``OLE_MAGIC``) workbook as a Table."""
    kind = _workbook_kind(data, filename)
    notes = []
    expected = {"xlsx": (".xlsx", ".xlsm"), "ods": (".ods",), "xls": (".xls",)}[kind]
    what = {"xlsx": "an Excel workbook", "ods": "an OpenDocument spreadsheet", "xls": "an old Excel .xls workbook"}[kind]
    if not filename.lower().endswith(expected):
        notes.append(f"The file {filename!r} is {what} despite its name; read it as such.")
    raw = _read_sheet(data, filename, max_rows, notes, kind, sheet)
    try:
        table = _tidy(raw, filename)
    except DataError as err:
        others = [n for n in notes if n.startswith("Read the sheet ")]
        if not others:
            raise
        raise DataError(f"{err} {others[0]}") from None
    lead = f"Read {filename!r} as {what}: {_shape(table.frame)}."
    return Table(table.frame, (lead, *table.notes))


def workbook_sheets(data: bytes, filename: str) -> list[str]:
    """The sheet names of a workbook (.xlsx, .xls, .ods) in their order; [] for any other
    file, and for a damaged or refused one (:func:`nbapp.io.load_table` then says why)."""
    if not data.startswith((OLE_MAGIC, b"PK\x03\x04", b"PK\x05\x06")):
        return []
    try:
        return _sheet_names(data, filename)
    except Exception:  # noqa: BLE001 - a listing offers choices only; reading the file reports the problem
        return []


def _sheet_names(data: bytes, filename: str) -> list[str]:
    kind = _workbook_kind(data, filename)
    if kind != "xlsx":
        with _excel_file(data, kind, filename) as book:
            return [str(name) for name in book.sheet_names]
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        return list(workbook.sheetnames)
    finally:
        workbook.close()


def _workbook_kind(data: bytes, filename: str) -> str:
    """ "xlsx", "ods" or "xls"; any other ZIP archive is refused by what it is."""
    if data.startswith(OLE_MAGIC):
        return "xls"
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        ods = "mimetype" in names and archive.read("mimetype")[:100].strip() == _ODS_MIMETYPE
    except (zipfile.BadZipFile, ValueError, OSError, NotImplementedError, EOFError, zlib.error,
            RuntimeError):      # zipfile's RuntimeError: an encrypted member
        raise DataError(
            f"The file {filename!r} starts like a ZIP/Excel file but is damaged (or password-protected); "
            "re-export it and upload again."
        ) from None
    if ods:
        _check_archive(archive, filename, **XLSX_LIMITS)
        return "ods"
    if "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
        raise DataError(_not_a_workbook(archive, names, filename))
    _check_archive(archive, filename, **XLSX_LIMITS)
    return "xlsx"


def _excel_file(data: bytes, kind: str, filename: str) -> pd.ExcelFile:
    """pandas' reader of an .xls or .ods file. pandas 3 marks its xlrd engine deprecated in
    favour of calamine; xlrd still reads every .xls, so the warning is not passed on."""
    engine = _engine(kind, filename)
    quiet = {"logfile": io.StringIO()} if engine == "xlrd" else {}     # xlrd prints its warnings
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The xlrd engine is deprecated")
        return pd.ExcelFile(io.BytesIO(data), engine=engine, engine_kwargs=quiet)


def _engine(kind: str, filename: str) -> str:
    """The pandas engine of an .xls / .ods file, refused with the install line when absent."""
    module, what = _ENGINES[kind]
    try:
        __import__(module)
    except ImportError:
        package = _PACKAGES[module]
        raise DataError(
            f"The file {filename!r} is an {what} file, and reading it needs the Python package "
            f"{package!r}, which is not installed here: install it (pip install {package}), or save "
            "the file as Excel .xlsx or CSV and upload that."
        ) from None
    return "xlrd" if kind == "xls" else "odf"


def _not_a_workbook(archive: zipfile.ZipFile, names: set[str], filename: str) -> str:
    if "mimetype" in names and b"opendocument" in archive.read("mimetype")[:100]:
        return (
            f"The file {filename!r} is an OpenDocument file but not a spreadsheet (a text document "
            "or a presentation); export the table as CSV, .xlsx or .ods and upload that."
        )
    if any(n.startswith("word/") for n in names):
        return f"The file {filename!r} is a Word document, not a table; export the table as CSV or .xlsx."
    return (
        f"The file {filename!r} is a ZIP archive, not a table; unzip it and upload the CSV or "
        "Excel file inside (a zip of class folders of .txt files is read as a text corpus)."
    )


def _read_sheet(data: bytes, filename: str, max_rows: int | None, notes: list[str], kind: str = "xlsx",
                sheet: str | int | None = None) -> _Raw:
    try:
        if kind == "xlsx":
            header_row, header, body, more = _sheet_rows(data, filename, max_rows, notes, sheet)
        else:
            header_row, header, body, more = _other_sheet_rows(data, filename, max_rows, notes, kind, sheet)
    except DataError:
        raise
    except (*_workbook_errors(), *_other_errors()) as exc:
        raise DataError(
            f"The workbook {filename!r} is damaged (the reader stopped with "
            f"{type(exc).__name__}: {exc}); open it in Excel or LibreOffice, save it again as "
            ".xlsx (or export it as CSV) and upload that."
        ) from exc
    if header_row > 1:
        notes.append(f"The header is on sheet row {header_row}; the empty rows above it were skipped.")
    if more:
        notes.append(f"Read only the first {len(body):,} data rows (max_rows); the sheet has more.")
    width = max([len(header), *map(len, body)])
    if width > MAX_COLUMNS:
        header, body, width = _within_columns(header, body, width, filename, notes)
    cells = pd.DataFrame(body, columns=list(range(width)), dtype=object) if body else pd.DataFrame(
        columns=list(range(width)), dtype=object
    )
    frame = pd.DataFrame({c: cells[c].map(_cell_text).astype(TEXT_DTYPE) for c in cells.columns}, index=cells.index)
    names = [_cell_text(v).strip() for v in header] + [""] * (width - len(header))
    first = header_row + 1
    return _Raw(names, frame, _RowNumbers("row", lambda: np.arange(first, first + len(body))), notes)


def _within_columns(header: tuple[Any, ...], body: list[tuple[Any, ...]], width: int, filename: str,
                    notes: list[str]) -> tuple[tuple[Any, ...], list[tuple[Any, ...]], int]:
    """A sheet wider than MAX_COLUMNS: refused when a value lies beyond the limit, else cut after its
    last column with a value (a sheet's stated size can run far past its values), before any
    per-column work."""
    used = max(_last_value(row) for row in (header, *body))
    if used > MAX_COLUMNS:
        raise DataError(
            f"The workbook {filename!r} has values in {used:,} columns; nbapp reads tables of up to "
            f"{MAX_COLUMNS:,} columns. Keep the columns you need (or transpose the table so that rows are "
            "examples) and upload again."
        )
    notes.append(f"Ignored {width - used:,} empty columns after the last column with a value.")
    return header[:used], [row[:used] for row in body], used


def _last_value(row: tuple[Any, ...]) -> int:
    """1 + the position of the row's last cell with a value (0 for an empty row)."""
    return next((i + 1 for i in range(len(row) - 1, -1, -1) if _cell_text(row[i]).strip()), 0)


def _workbook_errors() -> tuple[type[BaseException], ...]:
    """What openpyxl raises on a damaged .xlsx: a missing part (KeyError), no sheet
    (IndexError), broken XML (ElementTree's ParseError is a SyntaxError), bad values."""
    from openpyxl.utils.exceptions import InvalidFileException

    return (InvalidFileException, zipfile.BadZipFile, LookupError, SyntaxError, ValueError,
            TypeError, AttributeError)


def _other_errors() -> tuple[type[BaseException], ...]:
    """What xlrd and odfpy raise on a damaged file besides _workbook_errors: xlrd's own
    errors and bare assertions on a broken compound document, the XML parsers' errors."""
    from struct import error as StructError
    from xml.parsers.expat import ExpatError
    from xml.sax import SAXException

    errors: list[type[BaseException]] = [AssertionError, ExpatError, SAXException, EOFError, OSError,
                                         StructError, zlib.error, NotImplementedError,
                                         RuntimeError,      # zipfile's: an encrypted member
                                         ArithmeticError]   # xlrd on a corrupt sector table
    try:
        from xlrd import XLRDError
        from xlrd.compdoc import CompDocError
    except ImportError:
        pass
    else:
        errors += [XLRDError, CompDocError]
    return tuple(errors)


def _sheet_index(names: list[str], sheet: str | int | None, filename: str) -> int:
    """The position of the chosen sheet (the first when none is chosen); refused by name."""
    if sheet is None:
        return 0
    if isinstance(sheet, (int, np.integer)) and not isinstance(sheet, bool) and 0 <= sheet < len(names):
        return int(sheet)
    if isinstance(sheet, str) and sheet in names:
        return names.index(sheet)
    raise DataError(f"The workbook {filename!r} has no sheet {sheet!r}; its sheets are "
                    f"{', '.join(repr(n) for n in names)}.")


def _sheet_note(names: list[str], index: int, notes: list[str]) -> None:
    if len(names) > 1:
        others = ", ".join(repr(n) for i, n in enumerate(names) if i != index)
        notes.append(f"Read the sheet {names[index]!r}; the workbook also has {others} (choose another sheet "
                     "to read it instead).")


def _sheet_rows(
    data: bytes, filename: str, max_rows: int | None, notes: list[str], sheet: str | int | None = None
) -> tuple[int, tuple[Any, ...], list[tuple[Any, ...]], bool]:
    """The chosen sheet's header row number, header cells, data rows and whether more exist.

    openpyxl's read-only mode parses the sheet lazily, so errors of a damaged file surface
    while iterating too; the caller turns them into one DataError.
    """
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        index = _sheet_index(list(workbook.sheetnames), sheet, filename)
        _sheet_note(list(workbook.sheetnames), index, notes)
        return _header_and_body(workbook.worksheets[index].iter_rows(values_only=True), workbook.sheetnames[index],
                                filename, max_rows)
    finally:
        workbook.close()


def _other_sheet_rows(
    data: bytes, filename: str, max_rows: int | None, notes: list[str], kind: str, sheet: str | int | None
) -> tuple[int, tuple[Any, ...], list[tuple[Any, ...]], bool]:
    """As :func:`_sheet_rows`, for .xls and .ods through pandas (xlrd / odfpy)."""
    with _excel_file(data, kind, filename) as book:
        names = [str(n) for n in book.sheet_names]
        index = _sheet_index(names, sheet, filename)
        _sheet_note(names, index, notes)
        cells = pd.read_excel(book, sheet_name=book.sheet_names[index], header=None, dtype=object, na_filter=False)
    rows = (tuple(None if v == "" else v for v in row) for row in cells.itertuples(index=False, name=None))
    return _header_and_body(rows, names[index], filename, max_rows)


def _header_and_body(rows: Any, title: str, filename: str, max_rows: int | None
                     ) -> tuple[int, tuple[Any, ...], list[tuple[Any, ...]], bool]:
    header_row = 0
    for header_row, header in enumerate(rows, start=1):
        if any(v is not None and str(v).strip() for v in header):
            break
    else:
        raise DataError(
            f"The sheet {title!r} of {filename!r} has no cells with values; choose the sheet that "
            "holds the table."
        )
    body = list(itertools.islice(rows, max_rows))
    more = max_rows is not None and next(rows, None) is not None
    return header_row, header, body, more


def _cell_text(value: Any) -> str:
    """An Excel cell as the text a CSV export would hold."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if hasattr(value, "isoformat"):
        text = value.isoformat(sep=" ") if hasattr(value, "hour") else value.isoformat()
        return text[:-9] if text.endswith(" 00:00:00") else text
    return str(value)
