"""The column limit of load_table (issue 21): a header of more than MAX_COLUMNS fields is refused
before any record is counted or cell parsed, whatever comes before it or hides in its quotes, for
every delimiter, on the fast path as on the careful one, and in workbooks; and quotes are found
in encodings where the quote is not the byte '"'."""

from __future__ import annotations

import io

import openpyxl
import pytest

import nbapp.io.delimited as delimited
from nbapp.errors import DataError
from nbapp.io import load_table
from nbapp.io.common import MAX_COLUMNS
from nbapp.io.fast import FAST_MIN_BYTES

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
    from nbapp.io.sniffing import _Encoding

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
    import nbapp.io.workbook as workbook

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
