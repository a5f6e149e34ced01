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
import math
import warnings
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.io._common import (MAX_COLUMNS, MAX_SHEET_CELLS, SHOWN, TEXT_DTYPE, Table, XLSX_LIMITS, ZIP_ERRORS, _Raw, RowNumbers, _clipped, _quoted,
                              _shape)

__all__ = ["workbook_sheets", "OLE_MAGIC"]

#: The first bytes of an OLE2 compound file: an old Excel .xls (or another old Office file).
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The last row of a sheet in Excel (since 2007) and LibreOffice Calc.
SHEET_MAX_ROWS = 1_048_576
_ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
# What each reader needs, and the sentence that says how to get it.
_ENGINES = {"xls": ("xlrd", "old Excel .xls"), "ods": ("odf", "OpenDocument .ods")}
_PACKAGES = {"xlrd": "xlrd", "odf": "odfpy"}
from nbapp.io._sniffing import _check_archive
from nbapp.io._tidy import _ghost_columns_note, _tidy


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
    except ZIP_ERRORS:
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
    favour of calamine; xlrd still reads every .xls, so the warning is not passed on.

    xlrd lists the sheets without reading them (``on_demand``)."""
    engine = _engine(kind, filename)
    options = {"logfile": io.StringIO(), "on_demand": True} if engine == "xlrd" else {}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The xlrd engine is deprecated")
        return pd.ExcelFile(io.BytesIO(data), engine=engine, engine_kwargs=options)


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


@dataclass
class _SheetRows:
    """A sheet as read: the header's row number and cells, the data rows with their sheet row
    numbers, the numbers of the rows absent from the file, and whether max_rows left rows unread."""

    header_row: int
    header: tuple[Any, ...]
    body: list[tuple[Any, ...]] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    absent: list[int] = field(default_factory=list)
    more: bool = False


def _read_sheet(data: bytes, filename: str, max_rows: int | None, notes: list[str], kind: str = "xlsx",
                sheet: str | int | None = None) -> _Raw:
    try:
        reader = {"xlsx": _sheet_rows, "xls": _xls_sheet_rows, "ods": _ods_sheet_rows}[kind]
        read = reader(data, filename, max_rows, notes, sheet)
    except DataError:
        raise
    except (*_workbook_errors(), *_other_errors()) as exc:
        raise DataError(
            f"The workbook {filename!r} is damaged (the reader stopped with "
            f"{type(exc).__name__}: {_clipped(str(exc))}); open it in Excel or LibreOffice, save it again as "
            ".xlsx (or export it as CSV) and upload that."
        ) from exc
    header, body = read.header, read.body
    if read.header_row > 1:
        notes.append(f"The header is on sheet row {read.header_row}; the empty rows above it were skipped.")
    if read.more:
        notes.append(f"Read only the first {len(body) + len(read.absent):,} data rows (max_rows); the sheet has more.")
    width = max([len(header), *map(len, body)])
    texts = _within_columns(_texts(_padded([header, *body], width)), filename, notes)
    frame = pd.DataFrame(texts[1:], columns=list(range(texts.shape[1]))).astype(TEXT_DTYPE)
    names = [name.strip() for name in texts[0]]
    numbers = np.asarray(read.numbers, dtype=np.int64)
    return _Raw(names, frame, RowNumbers("row", lambda: numbers), notes,
                absent_rows=np.asarray(read.absent, dtype=np.int64))


def _padded(body: list[tuple[Any, ...]], width: int) -> np.ndarray:
    """The rows as one rows x width array, short rows padded with empty cells (a row of an
    .xlsx is as long as its own last cell, a missing row is empty)."""
    cells = np.full((len(body), width), None, dtype=object)
    for i, row in enumerate(body):
        if row:
            cells[i, : len(row)] = row
    return cells


def _texts(cells: np.ndarray) -> np.ndarray:
    """Each cell as text, converted one by one only where it holds a value (empty cells, most
    of a sparse sheet, are "" at once)."""
    texts = np.full(cells.shape, "", dtype=object)
    present = np.not_equal(cells, None)
    texts[present] = np.array([_cell_text(v) for v in cells[present]] + [""], dtype=object)[:-1]
    return texts


def _within_columns(texts: np.ndarray, filename: str, notes: list[str]) -> np.ndarray:
    """The cells (the header first) of the columns with a name or a value. A sheet's stated size,
    or one cell far away, can make thousands of columns without either, and each would cost
    pandas work: they are dropped here, with the note the table reader gives them. Refused when a
    value lies beyond MAX_COLUMNS."""
    written = texts != ""
    kept = written.any(axis=0)
    for column in np.flatnonzero(kept):         # a cell of spaces is no value
        kept[column] = any(text.strip() for text in texts[written[:, column], column])
    used = int(np.flatnonzero(kept)[-1]) + 1 if kept.any() else 0
    if used > MAX_COLUMNS:
        raise DataError(
            f"The workbook {filename!r} has values in {used:,} columns; nbapp reads tables of up to "
            f"{MAX_COLUMNS:,} columns. Keep the columns you need (or transpose the table so that rows are "
            "examples) and upload again."
        )
    if kept.all():
        return texts
    notes.append(_ghost_columns_note(np.flatnonzero(~kept).tolist()))
    return texts[:, kept]


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
    raise DataError(f"The workbook {filename!r} has no sheet {_quoted(sheet)}; its sheets are {_sheets(names)}.")


def _sheet_note(names: list[str], index: int, notes: list[str]) -> None:
    if len(names) > 1:
        others = _sheets([n for i, n in enumerate(names) if i != index])
        notes.append(f"Read the sheet {_quoted(names[index])}; the workbook also has {others} (choose another sheet "
                     "to read it instead).")


def _sheets(names: list[str]) -> str:
    """The first few sheet names, quoted (a workbook may have thousands, each named at length)."""
    more = f" and {len(names) - SHOWN:,} more" if len(names) > SHOWN else ""
    return ", ".join(_quoted(n) for n in names[:SHOWN]) + more


def _sheet_rows(
    data: bytes, filename: str, max_rows: int | None, notes: list[str], sheet: str | int | None = None
) -> _SheetRows:
    """The chosen sheet's header row number, header cells, data rows and whether more exist.

    openpyxl's read-only mode parses the sheet lazily, so errors of a damaged file surface
    while iterating too; the caller turns them into one DataError.
    """
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        index = _sheet_index(list(workbook.sheetnames), sheet, filename)
        _sheet_note(list(workbook.sheetnames), index, notes)
        worksheet = workbook.worksheets[index]
        # Without its declared <dimension> openpyxl builds each row as long as its own last cell
        # and no rows past the last one; with it, every declared cell (issue 31, item 2).
        worksheet.reset_dimensions()
        return _header_and_body(worksheet.iter_rows(values_only=True), workbook.sheetnames[index], filename,
                                max_rows)
    finally:
        workbook.close()


def _xls_sheet_rows(data: bytes, filename: str, max_rows: int | None, notes: list[str],
                    sheet: str | int | None) -> _SheetRows:
    """As :func:`_sheet_rows`, for .xls: xlrd reads only the chosen sheet (``on_demand``), each
    row only as long as its own last cell (``ragged_rows``). pandas' reader cannot take ragged
    rows, and by default xlrd reads every sheet, each a rectangle to its farthest cell: one far
    cell of a few bytes made 16 million (issue 31, item 2)."""
    _engine("xls", filename)
    import xlrd

    book = xlrd.open_workbook(file_contents=data, on_demand=True, ragged_rows=True, logfile=io.StringIO())
    try:
        names = [str(n) for n in book.sheet_names()]
        index = _sheet_index(names, sheet, filename)
        _sheet_note(names, index, notes)
        cells = book.sheet_by_index(index)
        rows = (tuple(_xls_value(v, t, book.datemode) for v, t in zip(cells.row_values(i), cells.row_types(i)))
                for i in range(cells.nrows))
        return _header_and_body(rows, names[index], filename, max_rows)
    finally:
        book.release_resources()


def _xls_value(value: Any, kind: int, datemode: int) -> Any:
    """An .xls cell as pandas' xlrd reader gives it: dates as datetimes (a time alone on the
    epoch's day), errors as NaN, whole numbers as int; an empty cell as None."""
    from xlrd import XL_CELL_BOOLEAN, XL_CELL_DATE, XL_CELL_ERROR, XL_CELL_NUMBER, xldate

    if kind == XL_CELL_DATE:
        try:
            moment = xldate.xldate_as_datetime(value, datemode)
        except OverflowError:
            return value
        return moment.time() if moment.timetuple()[:3] == ((1904, 1, 1) if datemode else (1899, 12, 31)) else moment
    if kind == XL_CELL_ERROR:
        return float("nan")
    if kind == XL_CELL_BOOLEAN:
        return bool(value)
    if kind == XL_CELL_NUMBER and math.isfinite(value) and int(value) == value:
        return int(value)
    return None if value == "" else value


def _ods_sheet_rows(data: bytes, filename: str, max_rows: int | None, notes: list[str],
                    sheet: str | int | None) -> _SheetRows:
    """As :func:`_sheet_rows`, for .ods: odfpy parses the file, and the cells are read here as
    pandas' reader reads them, but sized by what is written: pandas builds every copy a
    ``number-columns-repeated`` or ``number-rows-repeated`` of a few bytes names, and the
    rectangle to the farthest cell (issue 31, item 2)."""
    with _excel_file(data, "ods", filename) as book:     # refuses the file when odfpy is missing
        from odf.table import Table

        names = [str(n) for n in book.sheet_names]
        index = _sheet_index(names, sheet, filename)
        _sheet_note(names, index, notes)
        table = book.book.getElementsByType(Table)[index]
        return _header_and_body(_ods_rows(table, names[index], filename), names[index], filename, max_rows)


# ODF's names (odfpy's qualified names) of the parts of a table read here.
_TABLE_NS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE_NS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT_NS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_COVERED_CELL = (_TABLE_NS, "covered-table-cell")
_ODS_CELLS = {(_TABLE_NS, "table-cell"), _COVERED_CELL}
# A run of spaces is written <text:s text:c="N"/>; a cell holds at most this many characters
# in LibreOffice's and Excel's help alike (Excel: 32,767), so a larger N is no spreadsheet's.
_MAX_SPACES = 32_767


def _ods_rows(table: Any, title: str, filename: str) -> Any:
    """The table's rows, each as long as its last cell with a value; a row written once with
    ``number-rows-repeated`` is given that many times (the same tuple), empty rows only when a
    row with a value follows them (the trailing empty rows LibreOffice writes are no rows)."""
    from odf.table import TableRow

    waiting = 0
    for row in table.getElementsByType(TableRow):
        cells = _ods_cells(row, title, filename)
        repeat = _repeat(row, "number-rows-repeated", title, filename)
        if not cells:
            waiting += repeat
            continue
        yield from itertools.repeat((), waiting)
        yield from itertools.repeat(cells, repeat)
        waiting = 0


def _ods_cells(row: Any, title: str, filename: str) -> tuple[Any, ...]:
    cells: list[Any] = []
    waiting = 0
    for cell in row.childNodes:
        if getattr(cell, "qname", None) not in _ODS_CELLS:
            continue
        repeat = _repeat(cell, "number-columns-repeated", title, filename)
        covered = cell.qname == _COVERED_CELL and (_OFFICE_NS, "value") not in cell.attributes
        value = None if covered else _ods_value(cell, title, filename)
        if value is None:
            waiting += repeat         # empty cells count only when a cell with a value follows
            continue
        if len(cells) + waiting + repeat > MAX_SHEET_CELLS:
            raise _too_many_cells(title, filename, f"a row reaches column {len(cells) + waiting + repeat:,}")
        cells += [None] * waiting + [value] * repeat
        waiting = 0
    return tuple(cells)


def _repeat(element: Any, name: str, title: str, filename: str) -> int:
    text = element.attributes.get((_TABLE_NS, name), "1")
    try:
        return max(int(text), 1)
    except ValueError:
        raise _damaged_sheet(title, filename, f"a {name} of {_quoted(text)}") from None


def _ods_value(cell: Any, title: str, filename: str) -> Any:
    """An .ods cell as pandas' reader gives it (numbers, percentages and currencies as numbers,
    whole ones as int; dates, times, booleans; '#N/A' as NaN); an empty one as None."""
    text = str(cell)
    if text == "#N/A":
        return float("nan")
    kind = cell.attributes.get((_OFFICE_NS, "value-type"))
    if kind is None:
        return None
    if kind == "boolean":
        return text == "TRUE"
    if kind == "float":
        number = float(cell.attributes.get((_OFFICE_NS, "value")))
        return int(number) if math.isfinite(number) and int(number) == number else number
    if kind in ("percentage", "currency"):
        return float(cell.attributes.get((_OFFICE_NS, "value")))
    if kind == "string":
        return _ods_text(cell, title, filename) or None
    if kind == "date":
        return pd.Timestamp(cell.attributes.get((_OFFICE_NS, "date-value")))
    if kind == "time":
        return pd.Timestamp(text).time()
    raise _damaged_sheet(title, filename, f"a cell of the unknown type {_quoted(kind)}")


def _ods_text(element: Any, title: str, filename: str) -> str:
    """A string cell's text as pandas reads it: paragraphs on lines of their own, runs of spaces
    spelled out (a run is a count: bounded here), notes left out."""
    from odf.element import Element

    parts, paragraphs = [], 0
    for part in element.childNodes:
        if not isinstance(part, Element):
            parts.append(str(part).strip("\n"))
        elif part.qname == (_TEXT_NS, "s"):
            parts.append(" " * _spaces(part, title, filename))
        elif part.qname == (_TEXT_NS, "line-break"):
            parts.append("\n")
        elif part.qname != (_OFFICE_NS, "annotation"):
            if part.qname == (_TEXT_NS, "p"):
                parts.append("\n" * (paragraphs > 0))
                paragraphs += 1
            parts.append(_ods_text(part, title, filename))
    return "".join(parts)


def _spaces(element: Any, title: str, filename: str) -> int:
    text = element.attributes.get((_TEXT_NS, "c"), "1")
    try:
        count = int(text)
    except ValueError:
        count = -1
    if not 0 <= count <= _MAX_SPACES:
        raise _damaged_sheet(title, filename, f"a run of {_quoted(text)} spaces")
    return count


def _damaged_sheet(title: str, filename: str, what: str) -> DataError:
    return DataError(f"The sheet {_quoted(title)} of {filename!r} is damaged ({what}); open it in LibreOffice, save it "
                     "again (or export it as CSV) and upload that.")


def _header_and_body(rows: Any, title: str, filename: str, max_rows: int | None) -> _SheetRows:
    """The header (the first row with a value) and the data rows under it. A row missing from
    the file (an empty row from the reader) is not built, only its number kept."""
    rows = _within_budget(rows, title, filename)
    header_row = 0
    for header_row, header in enumerate(rows, start=1):
        if any(v is not None and str(v).strip() for v in header):
            break
    else:
        raise DataError(
            f"The sheet {_quoted(title)} of {filename!r} has no cells with values; choose the sheet that "
            "holds the table."
        )
    read = _SheetRows(header_row, header)
    for number, row in enumerate(itertools.islice(rows, max_rows), start=header_row + 1):
        if row:
            read.body.append(row)
            read.numbers.append(number)
        else:
            read.absent.append(number)
    read.more = max_rows is not None and next(rows, None) is not None
    return read


def _within_budget(rows: Any, title: str, filename: str) -> Any:
    """The rows, refused as soon as the cells the read builds (the rows present times the widest
    of them) pass MAX_SHEET_CELLS: counted while reading, so a few bytes placing one cell far away
    cost no more than the budget. A row the file leaves out costs nothing but its turn, and no
    spreadsheet has more than SHEET_MAX_ROWS of them."""
    width, present = 1, 0
    for count, row in enumerate(rows, start=1):
        if count > SHEET_MAX_ROWS:      # a row number no spreadsheet program writes
            raise _past_last_row(title, filename)
        if row:
            present += 1
            width = max(width, len(row))
            if present * width > MAX_SHEET_CELLS:
                raise _too_many_cells(title, filename, f"{present:,} rows reach column {width:,}")
        yield row


def _past_last_row(title: str, filename: str) -> DataError:
    return DataError(
        f"The sheet {_quoted(title)} of {filename!r} has a row past row {SHEET_MAX_ROWS:,}, the last row a "
        "spreadsheet holds, so the file is damaged; open it in Excel or LibreOffice, save it again "
        "(or export it as CSV) and upload that."
    )


def _too_many_cells(title: str, filename: str, extent: str) -> DataError:
    return DataError(
        f"The sheet {_quoted(title)} of {filename!r} spans more than {MAX_SHEET_CELLS:,} cells ({extent}, empty "
        f"cells included); nbapp reads sheets of up to {MAX_SHEET_CELLS:,} cells. Delete the rows and "
        "columns you do not need (and any stray cell far from the table), or save the sheet as CSV and "
        "upload that."
    )


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
