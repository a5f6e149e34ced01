"""Excel workbooks (.xlsx): the archive checks, the sheet, the header row."""

from __future__ import annotations

import io
import itertools
import zipfile
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.io.common import Table, XLSX_LIMITS, _Raw, _RowNumbers, _shape
from nbapp.io.sniffing import _check_archive
from nbapp.io.tidy import _tidy


def _read_workbook(data: bytes, filename: str, max_rows: int | None) -> Table:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise DataError(
            f"The file {filename!r} starts like a ZIP/Excel file but is damaged; re-export it "
            "and upload again."
        ) from None
    names = set(archive.namelist())
    if "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
        raise DataError(_not_a_workbook(archive, names, filename))
    _check_archive(archive, filename, **XLSX_LIMITS)
    notes = []
    if not filename.lower().endswith((".xlsx", ".xlsm")):
        notes.append(
            f"The file {filename!r} is an Excel workbook despite its name; read it as Excel."
        )
    raw = _read_sheet(data, filename, max_rows, notes)
    table = _tidy(raw, filename)
    lead = f"Read {filename!r} as an Excel workbook: {_shape(table.frame)}."
    return Table(table.frame, (lead, *table.notes))


def _not_a_workbook(archive: zipfile.ZipFile, names: set[str], filename: str) -> str:
    if "mimetype" in names and b"opendocument" in archive.read("mimetype")[:100]:
        return (
            f"The file {filename!r} is an OpenDocument file (LibreOffice .ods/.odt); save it "
            "as Excel .xlsx or CSV and upload that."
        )
    if any(n.startswith("word/") for n in names):
        return f"The file {filename!r} is a Word document, not a table; export the table as CSV or .xlsx."
    return (
        f"The file {filename!r} is a ZIP archive, not a table; unzip it and upload the CSV or "
        "Excel file inside (a zip of class folders of .txt files is read as a text corpus)."
    )


def _read_sheet(data: bytes, filename: str, max_rows: int | None, notes: list[str]) -> _Raw:
    try:
        header_row, header, body, more = _sheet_rows(data, filename, max_rows, notes)
    except DataError:
        raise
    except _workbook_errors() as exc:
        raise DataError(
            f"The workbook {filename!r} is damaged (the Excel reader stopped with "
            f"{type(exc).__name__}: {exc}); open it in Excel or LibreOffice, save it again as "
            ".xlsx (or export it as CSV) and upload that."
        ) from exc
    if header_row > 1:
        notes.append(f"The header is on sheet row {header_row}; the empty rows above it were skipped.")
    if more:
        notes.append(f"Read only the first {len(body):,} data rows (max_rows); the sheet has more.")
    width = max([len(header), *map(len, body)])
    cells = pd.DataFrame(body, columns=list(range(width)), dtype=object) if body else pd.DataFrame(
        columns=list(range(width)), dtype=object
    )
    frame = pd.DataFrame({c: cells[c].map(_cell_text).astype(str) for c in cells.columns}, index=cells.index)
    names = [_cell_text(v).strip() for v in header] + [""] * (width - len(header))
    first = header_row + 1
    return _Raw(names, frame, _RowNumbers("row", lambda: np.arange(first, first + len(body))), notes)


def _workbook_errors() -> tuple[type[BaseException], ...]:
    """What openpyxl raises on a damaged .xlsx: a missing part (KeyError), no sheet
    (IndexError), broken XML (ElementTree's ParseError is a SyntaxError), bad values."""
    from openpyxl.utils.exceptions import InvalidFileException

    return (InvalidFileException, zipfile.BadZipFile, LookupError, SyntaxError, ValueError,
            TypeError, AttributeError)


def _sheet_rows(
    data: bytes, filename: str, max_rows: int | None, notes: list[str]
) -> tuple[int, tuple[Any, ...], list[tuple[Any, ...]], bool]:
    """The first sheet's header row number, header cells, data rows and whether more exist.

    openpyxl's read-only mode parses the sheet lazily, so errors of a damaged file surface
    while iterating too; the caller turns them into one DataError.
    """
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        sheet = workbook.worksheets[0]
        if len(workbook.sheetnames) > 1:
            others = ", ".join(repr(s) for s in workbook.sheetnames[1:])
            notes.append(f"Read the first sheet {sheet.title!r}; the workbook also has {others}.")
        rows = sheet.iter_rows(values_only=True)
        header_row = 0
        for header_row, header in enumerate(rows, start=1):
            if any(v is not None and str(v).strip() for v in header):
                break
        else:
            raise DataError(
                f"The workbook {filename!r} has no cells with values in its first sheet; put the "
                "table on the first sheet and upload again."
            )
        body = list(itertools.islice(rows, max_rows))
        more = max_rows is not None and next(rows, None) is not None
    finally:
        workbook.close()
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
