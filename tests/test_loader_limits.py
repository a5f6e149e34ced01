"""The column limit of load_table (issue 21): a header of more than MAX_COLUMNS fields is refused
before any record is counted or cell parsed, whatever comes before it or hides in its quotes, for
every delimiter, on the fast path as on the careful one, and in workbooks; and quotes are found
in encodings where the quote is not the byte '"'."""

from __future__ import annotations

import io
import re
import tracemalloc

import openpyxl
import pytest

import nbapp.io._delimited as delimited
from nbapp.errors import DataError
from nbapp.io import load_table
from nbapp.io._common import MAX_COLUMNS, MAX_SHEET_CELLS
from nbapp.io._fast import FAST_MIN_BYTES
from workbook_files import ods_cell, ods_row, ods_sheet, xls_with_far_cell, xlsx_sheet

WIDE = MAX_COLUMNS + 2_000          # 12,000 names: wide, and (one letter each) a header within the first 64 KiB


def header(delimiter: str = ",", n: int = WIDE) -> str:
    return delimiter.join(["x"] * n)


@pytest.fixture
def no_parsing(monkeypatch):
    """Counting records, the fast reader or the cell parser reached: the refusal came too late."""
    def parsed(*_args, **_kwargs):
        raise AssertionError("the file was parsed before its width was checked")

    for step in ("_count_fields", "_parse_cells", "read_fast", "_first_record"):
        monkeypatch.setattr(delimited, step, parsed)


BYPASSES = {
    "a leading blank line": "\n" + header() + "\n",
    "leading blank lines, CRLF": "\r\n\r\n" + header() + "\r\n",
    "a line of spaces": "   \n" + header() + "\n",
    "a line of spaces, then a blank line": "  \n\n" + header() + "\n",
    "a quoted line break in the first name": '"first\nname",' + header() + "\n",
    "old Mac line endings": "\r" + header() + "\r",
}


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
@pytest.mark.parametrize("case", list(BYPASSES))
def test_a_wide_header_is_refused_before_parsing_whatever_comes_first(case, delimiter, no_parsing):
    text = BYPASSES[case].replace(",", delimiter)
    fields = WIDE + (case == "a quoted line break in the first name")
    with pytest.raises(DataError, match=rf"has {fields:,} columns; nbapp reads tables of up to 10,000 columns"):
        load_table(text.encode(), "wide.csv")


def test_the_uploads_of_the_issue_are_refused_before_parsing(no_parsing):
    # "\n" + "a," * 80000: 160 KB that used 103 s of CPU and 370 MB; its header runs past the
    # first 64 KiB, so the count is a lower bound
    for data in (b"\n" + b"a," * 80_000, b"   \n" + b"a;" * 80_000, b'"x\ny",' + b"a," * 80_000,
                 b"\n\n" + b"a\t" * 80_000):
        with pytest.raises(DataError, match=r"has at least [\d,]+ columns; nbapp reads tables of up to 10,000"):
            load_table(data, "wide.csv")


def test_a_wide_header_after_a_long_quoted_first_name_is_refused(no_parsing):
    # the first name alone is larger than the first 64 KiB read: the head grows until it is counted
    data = ('"' + "x" * 100_000 + '\n",' + "a," * 80_000 + "\n").encode()
    with pytest.raises(DataError, match=r"has at least [\d,]+ columns"):
        load_table(data, "wide.csv")


def test_utf16_files_are_counted_as_their_text(no_parsing):
    with pytest.raises(DataError, match=rf"has {WIDE:,} columns"):
        load_table(("\n" + header("\t") + "\n").encode("utf-16"), "wide.tsv")


def test_a_wide_clean_file_of_fast_path_size_is_refused_before_parsing(no_parsing):
    rows = "\n".join(",".join(["1"] * (MAX_COLUMNS + 1)) for _ in range(60))
    data = (header(n=MAX_COLUMNS + 1) + "\n" + rows + "\n").encode()
    assert len(data) >= FAST_MIN_BYTES and b'"' not in data     # the fast path would take it
    with pytest.raises(DataError, match=r"has 10,001 columns"):
        load_table(data, "wide.csv")


def test_delimiters_inside_quoted_names_are_not_columns():
    # quote-aware counting: a name holding 20,000 commas is one column (was refused as 20,002)
    table = load_table(('"' + "," * 20_000 + '",b\n1,2\n3,4\n').encode(), "quoted.csv")
    assert table.frame.shape == (2, 2) and table.frame.columns[1] == "b"


def test_a_header_at_the_limit_passes_the_check_and_one_more_does_not():
    from nbapp.io._sniffing import _Encoding

    utf8 = _Encoding("utf-8", "UTF-8")
    for n, refused in ((MAX_COLUMNS, False), (MAX_COLUMNS + 1, True)):
        data = ("\n" + ",".join(f"c{i}" for i in range(n)) + "\n1\n").encode()
        if refused:
            with pytest.raises(DataError, match=r"has 10,001 columns"):
                delimited._refuse_wide(data, utf8, ",", "limit.csv")
        else:
            delimited._refuse_wide(data, utf8, ",", "limit.csv")


def test_a_tab_separated_file_after_a_line_of_spaces_is_read_with_its_delimiter():
    # the delimiter is found in the first part of a long header (the sample is not cut to the blank line)
    names = [f"{i:03d}" + "n" * 250 for i in range(300)]      # ~76 KB: longer than the sample
    data = ("   \n" + "\t".join(names) + "\n" + "\t".join(["1"] * 300) + "\n" + "\t".join(["2"] * 300)
            + "\n").encode()
    table = load_table(data, "long.tsv")
    assert list(table.frame.columns) == names and "tab-separated" in table.notes[0]


def xlsx(rows: list[list[object]]) -> bytes:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_a_wide_workbook_is_refused_before_its_columns_are_read(monkeypatch):
    import nbapp.io._workbook as workbook

    def tidied(*_args):
        raise AssertionError("the sheet's columns were read before its width was checked")

    monkeypatch.setattr(workbook, "_tidy", tidied)
    data = xlsx([["a", "b", *([None] * (WIDE - 3)), "far"], [1, 2]])
    with pytest.raises(DataError, match=rf"The workbook 'wide.xlsx' has values in {WIDE:,} columns; .*up to 10,000"):
        load_table(data, "wide.xlsx")


def test_a_never_closed_quote_in_a_file_read_as_ebcdic_is_a_data_error():
    # found by the corpus fuzz test: in cp037 (a guess for these bytes) the quote is the byte 0x7F,
    # so "no byte '\"' in the file" did not mean "no quotes" (an internal error before)
    with pytest.raises(DataError, match=r"has a quoted value that is never closed"):
        load_table(b"\x7f@@@@@\x81", "corpus.txt")


# --- Declared sizes (issue 31, item 2) -----------------------------------------------------------
# A workbook names sizes in a few bytes: an .xlsx its <dimension> and each cell's reference, an
# .ods its repeat counts, an .xls its farthest cell. The reads build the cells that are there.

MIB = 1 << 20


def traced(read):
    """read()'s result (or DataError) and the peak of Python memory it allocated."""
    tracemalloc.start()
    try:
        try:
            result = read()
        except DataError as err:
            result = err
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


TABLE = {1: {"A1": "x", "B1": "y"}, 2: {"A2": 1, "B2": 2}, 3: {"A3": 3, "B3": 4}}


def test_a_declared_xlsx_dimension_is_not_built():
    # the issue's 1.5 KB file declared A1:NTP20000 (200 million cells: 3.4 GB, 32 s); a tenth of it
    # is enough to fail on a read that builds declared cells (20 million cells, some 200 MB)
    data = xlsx_sheet(TABLE, dimension="A1:NTP2000")
    assert len(data) < 2_000
    table, peak = traced(lambda: load_table(data, "declared.xlsx"))
    assert table.frame.to_dict("list") == {"x": [1, 3], "y": [2, 4]}
    assert peak < 5 * MIB, f"{peak / MIB:.0f} MiB"


def test_rows_a_sheet_leaves_out_are_counted_not_built():
    rows = {1: {"A1": "x", "B1": "y"}, 2: {"A2": 1, "B2": 2}, 1_000_000: {"I1000000": 3}}
    table, peak = traced(lambda: load_table(xlsx_sheet(rows), "far.xlsx"))
    assert table.frame.shape == (2, 3)
    assert "Dropped 999,997 row(s) with every cell empty (rows 3, 4, 5, 6, 7 and 999,992 more)" in " ".join(table.notes)
    assert peak < 60 * MIB, f"{peak / MIB:.0f} MiB"      # the numbers of the rows left out, not their cells


def test_columns_with_neither_name_nor_value_are_dropped_before_the_table_is_built(monkeypatch):
    import nbapp.io._workbook as workbook

    widths = []
    real_tidy = workbook._tidy
    monkeypatch.setattr(workbook, "_tidy", lambda raw, name: widths.append(raw.frame.shape[1]) or real_tidy(raw, name))
    rows = {1: {"A1": "x", "NTP1": "far"}, 2: {"A2": 1}, 3: {"A3": 2, "NTO3": " "}}
    table = load_table(xlsx_sheet(rows), "far.xlsx")
    assert widths == [2] and list(table.frame.columns) == ["x", "far"]
    assert "Dropped 9998 column(s) with neither a name nor any value (position 2, 3, 4, 5, 6)." in table.notes


def test_cells_placed_far_apart_are_refused_at_the_cell_budget_while_reading():
    rows = {r: {f"XFD{r}": 1} for r in range(1, 2_001)}       # 2,000 cells, 33 million with the gaps
    error, peak = traced(lambda: load_table(xlsx_sheet(rows), "apart.xlsx"))
    assert isinstance(error, DataError)
    assert re.search(rf"The sheet 'Sheet1' of 'apart.xlsx' spans more than {MAX_SHEET_CELLS:,} cells \(611 rows "
                     r"reach column 16,384, empty cells included\).* save the sheet as CSV", str(error))
    assert peak < 100 * MIB, f"{peak / MIB:.0f} MiB"         # the budget's 80 MB of pointers, not 260


def test_a_row_past_the_last_row_of_any_spreadsheet_is_refused():
    rows = {1: {"A1": "x", "B1": "y"}, 2: {"A2": 1, "B2": 2}, 2_000_000: {"A2000000": 3}}
    with pytest.raises(DataError, match=r"has a row past row 1,048,576, the last row a spreadsheet holds"):
        load_table(xlsx_sheet(rows), "long.xlsx")


@pytest.mark.parametrize("sheet", ["days", "notes"])
def test_an_xls_cell_far_away_builds_no_rectangle_of_any_sheet(sheet):
    data = xls_with_far_cell(65_535, 255)                 # a 65,536 x 256 rectangle: 16.8 million cells
    result, peak = traced(lambda: load_table(data, "far.xls", sheet=sheet))
    if sheet == "days":
        assert result.frame.shape == (4, 5) and list(result.frame.columns)[:4] == ["Outlook", "Temp", "Day", "Play"]
    else:                                               # the other sheet is not read at all
        assert "has a header row" in str(result)
    assert peak < 20 * MIB, f"{peak / MIB:.0f} MiB"


def test_ods_repeat_counts_are_not_built():
    header = ods_row(ods_cell("x") + ods_cell("y") + ods_cell(None, 1022))
    data = ods_sheet(header + ods_row(ods_cell(1) + ods_cell(2) + ods_cell(None, 50_000), 2)
                     + ods_row(ods_cell(None, 1024), 1_000_000) + ods_row(ods_cell(3) + ods_cell(4)))
    table, peak = traced(lambda: load_table(data, "repeats.ods"))
    assert table.frame.to_dict("list") == {"x": [1, 1, 3], "y": [2, 2, 4]}
    assert peak < 80 * MIB, f"{peak / MIB:.0f} MiB"


@pytest.mark.parametrize("rows, message", [
    (ods_row(ods_cell("x")) + ods_row(ods_cell(1, 16_000), 100_000),
     r"spans more than 10,000,000 cells \(626 rows reach column 16,000"),
    (ods_row(ods_cell("x", 100_000_000)), r"spans more than 10,000,000 cells \(a row reaches column 100,000,000"),
    (ods_row(ods_cell("x") + ods_cell("y", inner='<text:p>y<text:s text:c="1000000000"/></text:p>')),
     r"is damaged \(a run of '1000000000' spaces\)"),
])
def test_ods_repeat_counts_beyond_the_budget_are_refused_before_they_are_built(rows, message):
    error, peak = traced(lambda: load_table(ods_sheet(rows), "repeats.ods"))
    assert isinstance(error, DataError) and re.search(message, str(error)), error
    assert peak < 100 * MIB, f"{peak / MIB:.0f} MiB"


# --- Messages quote a few dozen characters (issue 31, item 14) -----------------------------------
BIG = 10_000_000
LONG = "a" * BIG


def test_a_refused_one_line_50_mb_file_quotes_a_few_dozen_characters_of_its_header():
    with pytest.raises(DataError) as refused:
        load_table(b"a" * 50_000_000 + b"\n", "one_line.csv")
    message = str(refused.value)
    assert len(message) < 500, message[:600]
    assert message.startswith("The file 'one_line.csv' has a header row ('" + "a" * 30 + "…' (50,000,000 characters)) "
                              "but no data rows")


def long_sheet_names() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["x"])
    book.active.append([1])
    for i in range(40):
        book.create_sheet(f"{i:02d}" + "s" * 29)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("read, problem", [
    (lambda: load_table(f"{LONG},{LONG}\n".encode(), "names.csv"), "has a header row"),
    (lambda: load_table(f"x,y\n1,{LONG}\n2,3\n4,5\n".encode(), "cells.csv"), None),
    (lambda: load_table(f"x\n1\n{LONG}\n2\n3\n".encode(), "mixed.csv"), None),
    (lambda: load_table(long_sheet_names(), "book.xlsx", sheet="none"), "has no sheet 'none'"),
    (lambda: load_table(b"x\n" + b"\n".join([b"1"] * 5 + [LONG.encode()]) + b"\n", "one_column.csv"), None),
])
def test_messages_and_notes_quote_a_few_dozen_characters_of_a_cell_or_name(read, problem):
    try:
        said = read().notes
    except DataError as err:
        said = (str(err),)
        assert problem is not None and problem in said[0]
    assert all(len(sentence) < 500 for sentence in said), [s[:600] for s in said]


def test_a_long_file_name_is_quoted_by_its_start_and_end():
    with pytest.raises(DataError) as refused:
        load_table(b"x\n", "n" * 1_000_000 + ".csv")
    message = str(refused.value)
    assert len(message) < 500 and "'" + "n" * 30 + "…" + "n" * 26 + ".csv' has a header row" in message


def test_the_width_check_of_a_long_one_line_file_does_not_hold_its_head_as_4_byte_characters():
    # io.StringIO held the head at 4 bytes a character: 590 MB of a 50 MB one-line file's 860 (13.7
    # bytes a byte; 8.7 now, most of it the csv module's own buffer of the one long field)
    from nbapp.io._sniffing import _Encoding

    data = b"a" * 10_000_000 + b"\n"
    tracemalloc.start()
    try:
        delimited._refuse_wide(data, _Encoding("utf-8", "UTF-8"), ",", "one_line.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 11 * len(data), f"{peak / len(data):.1f} bytes a byte"
