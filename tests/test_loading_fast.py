"""The fast path of load_table (nbapp/io/_fast.py) gives the careful path's frame and notes.

The careful path (nbapp/io/_delimited.py with fast=False) is the specification: on every input
below, clean or messy, load_table with the fast path switched on for any size must return an
equal frame (values, dtypes, names) and the same notes, or the same DataError.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nbapp.errors import DataError
from nbapp.io import _fast as fast, load_table
from nbapp.io._delimited import _read_delimited

from number_cells import ARROW_ALPHABET, CODE_ALPHABET, FAST_PATH_CELLS


@pytest.fixture(autouse=True)
def fast_for_any_size(monkeypatch):
    monkeypatch.setattr(fast, "FAST_MIN_BYTES", 0)
    monkeypatch.setattr(fast, "BLOCK_BYTES", 1 << 10)   # many Arrow chunks even in small files


def careful(data: bytes, name: str = "t.csv"):
    return _read_delimited(data, name, None, fast=False)


def assert_same(data: bytes, name: str = "t.csv") -> None:
    try:
        expected = careful(data, name)
    except DataError as exc:
        with pytest.raises(DataError) as raised:
            load_table(data, name)
        assert str(raised.value) == str(exc)
        return
    got = load_table(data, name)
    pd.testing.assert_frame_equal(got.frame, expected.frame)
    assert got.notes == expected.notes


def rows(header: str, *lines: str, n: int = 1, end: str = "\n") -> bytes:
    return (end.join([header, *(list(lines) * n)]) + end).encode()


CLEAN = {
    "mixed": rows("city,age,income,score,plan", "Paris,31,52000.5,-1.25e-3,gold", "Rome,45,38000,2.5,silver",
                  "Oslo,29,61000.25,.5,bronze", n=300),
    "signs and exponents": rows("a,b,c", "+5,1E+05,5.", "-0,-3e2,.25", n=200),
    "yes/no column": rows("answer,x", "Yes,1", "No,2", "yes,3", n=100),
    "unicode text": rows("name,x", "café,1", "naïve,2", "東京,3", n=100),
    "crlf": rows("a,b", "x,1", "y,2", n=200, end="\r\n"),
    "old mac": rows("a,b", "x,1", "y,2", n=200, end="\r"),
    "blank lines": rows("a,b", "x,1", "", "y,2.5", n=150),
    "long floats": rows("p,q", "0.8444218515250481,x", "0.7579544029403025,y", n=100),
    "ids with many digits": rows("id,q", "1234567890123456,x", "99,y", n=50),
    "negative 15 digits": rows("id,q", "-123456789012345,x", n=50),
    "one distinct text": rows("k,v", "same,1", n=200),
    "header with spaces": rows(" a , b ", "x,1", n=100),
    "one column of numbers": rows("amount", "12.5", "-3.25", "7", n=200),
    "one column of whole numbers": rows("id", *(str(i) for i in range(1, 400))),
    "one column of text": rows("city", "Paris", "Rome", "Oslo", n=200),
    "one column of yes/no": rows("answer", "yes", "no", n=200),
    "one column with blank lines": rows("x", "1.5", "", "2", n=150),
    "one column, crlf": rows("x", "a", "b", n=200, end="\r\n"),
    "duplicate names": rows("a,a,A ", "x,1,2", n=100),
}

MESSY = {
    "leading zeros": rows("id,x", "007,1", "012,2", n=100),
    "signed leading zero float": rows("x,y", "-01.5,a", "2,b", n=100),
    "missing tokens in numbers": rows("x,y", "1,a", "N/A,b", ",c", "?,d", n=80),
    "missing tokens after blank lines": rows("x,y", "1,a", "", "N/A,b", n=80),
    "missing tokens in text": rows("x,y", "1,a", "2,-", "3,none", "4,n/a", "5,", n=80),
    "infinity and nan words": rows("x,y", "1,inf", "2,nan", "3,-Infinity", n=80),
    "overflowing number": rows("x,y", "1,1e309", "2,3", n=80),
    "huge numbers": rows("x,y", "1,1e200", "2,3", n=80),
    "spaces around cells": rows("x,y", " 5 ,a ", "6, b", n=80),
    "hexadecimal": rows("x,y", "0x1F,a", "12,b", n=80),
    "signed hexadecimal": rows("x,y", "-0X1f,a", "12,b", n=80),
    "numbers mixed with text": rows("x,y", "12,a", "13,b", "abc,c", n=80),
    "mostly text with some numbers": rows("x,y", "12,a", "foo,b", "bar,c", n=80),
    "ragged row": rows("a,b", "1,2", "3", "4,5", n=50),
    "trailing delimiter on data lines": rows("a,b", "1,2,", n=50),
    "trailing delimiter on every line": rows("a,b,", "1,2,", n=50),
    "blank name": rows("a,,c", "1,2,3", n=50),
    "row of empty cells": rows("a,b", "1,x", ",", "2,y", n=50),
    "whitespace-only line": rows("a,b", "1,x", "   ", "2,y", n=50),
    "index column": rows(",a,b", *(f"{i},{i % 3},x" for i in range(200))),
    "unnamed index": rows("Unnamed: 0,a", *(f"{i},y" for i in range(200))),
    "empty column": rows("a,b", "1,", "2,", n=100),
    "first line blank": b"\n" + rows("a,b", "1,x", n=100),
    "quotes": rows("a,b", '"x, y",1', "z,2", n=100),
    "semicolons": rows("a;b", "1,5;x", "2,25;y", n=100),
    "header only": b"a,b\n",
    "single column": rows("a", "1", "2", "x", n=100),
    "single column with a missing token": rows("a", "1", "N/A", "2.5", n=100),
    "single column with leading zeros": rows("a", "007", "12", n=100),
    "single column with whitespace-only lines": rows("a", "1", "   ", "2", n=100),
    "single column with blank text cells": rows("a", "x", " ", "y", n=100),
    "single column with trailing commas": rows("a", "1,", "2,", n=100),
    "single column named index": rows("index", *(str(i) for i in range(300))),
    "single column of infinities": rows("a", "1.5", "inf", n=100),
    "dots in text": rows("x,y", ".,a", "-.,b", "e,c", n=50),
    "plus sign alone": rows("x,y", "+,a", "1,b", n=50),
    "plus sign alone at the end": rows("y,x", *(["a,1"] * 50), "b,+"),
    "minus sign alone at the end": rows("y,x", *(["a,1.5"] * 50), "b,-"),
    "exponent without digits": rows("x,y", "1e,a", "2,b", n=50),
    "dashes as ranges": rows("x,y", "1-2,a", "3,b", n=50),
    "two points": rows("x,y", "1.2.3,a", "4,b", n=50),
    "boolean words among others": rows("x,y", "yes,1", "no,2", "maybe,3", n=50),
}


@pytest.mark.parametrize("name", list(CLEAN))
def test_clean_files_read_alike_on_both_paths(name):
    assert_same(CLEAN[name])


@pytest.mark.parametrize("name", list(MESSY))
def test_messy_files_read_alike_on_both_paths(name):
    assert_same(MESSY[name])


def test_a_clean_file_takes_the_fast_path(monkeypatch):
    """The careful cell parser is never called for a clean file (else this test proves nothing)."""
    import nbapp.io._delimited as delimited

    def refuse(*args, **kwargs):
        raise AssertionError("the careful path was taken")

    monkeypatch.setattr(delimited, "_read_records", refuse)
    table = load_table(CLEAN["mixed"], "t.csv")
    assert table.frame.dtypes.astype(str).tolist() == ["str", "int64", "float64", "float64", "str"]
    assert table.frame.shape == (900, 5)


def test_a_clean_one_column_file_takes_the_fast_path(monkeypatch):
    """Issue 24: a one-column file went the careful way whole (1.1 s for 1,000,000 numbers,
    pandas 0.03 s); fails before the fast path took one-column files."""
    import nbapp.io._delimited as delimited

    def refuse(*args, **kwargs):
        raise AssertionError("the careful path was taken")

    data = CLEAN["one column of numbers"]
    expected = careful(data)
    monkeypatch.setattr(delimited, "_read_records", refuse)
    table = load_table(data, "t.csv")
    assert table.frame["amount"].dtype == "float64" and table.frame.shape == (600, 1)
    pd.testing.assert_frame_equal(table.frame, expected.frame)
    assert table.notes == expected.notes


def test_whole_numbers_then_decimals_make_a_decimal_column():
    """The first cells are whole numbers and later ones decimals: the column is float64, each
    cell parsed as the careful path's float cast parses it (-0 stays -0.0)."""
    data = rows("x,y", *(["-0,a", "7,b"] * 100), *(["2.5,a", "1e3,b"] * 100))
    table = load_table(data, "t.csv")
    assert table.frame["x"].dtype == "float64"
    assert np.signbit(table.frame["x"].to_numpy()[0])
    assert_same(data)


@pytest.mark.parametrize("tail", ["abc", "N/A", "007", "inf", ""])
def test_a_column_whose_last_cells_are_no_numbers_reads_as_the_careful_path_reads_it(tail):
    data = rows("x,y", *([f"{i},a" for i in range(300)]), *([f"{tail},b"] * 3))
    assert_same(data)


def test_text_notes_see_the_distinct_values_of_every_chunk_in_order():
    data = rows("answer,x", *(["No,1"] * 200 + ["Yes,2"] * 200 + ["no,3"] * 2 + ["yes,4"]))
    table = load_table(data, "t.csv")
    assert "Column 'answer' looks yes/no ('No' / 'Yes' / 'no' / 'yes'); kept as its text values." in table.notes
    assert_same(data)


@pytest.mark.parametrize("name", ["mixed", "yes/no column", "blank lines", "one column of text"])
def test_one_thread_or_several_read_alike(monkeypatch, name):
    """The reading threads are chosen by the machine's load (fast._threads_pay); both ways give
    the careful path's frame and notes."""
    for threads in (True, False):
        monkeypatch.setattr(fast, "_threads_pay", lambda: threads)
        assert_same(CLEAN[name])


def test_threads_are_used_only_while_a_core_is_idle(monkeypatch):
    monkeypatch.setattr(fast.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(fast.os, "getloadavg", lambda: (0.9, 0.5, 0.5))
    assert fast._threads_pay()
    monkeypatch.setattr(fast.os, "getloadavg", lambda: (8.0, 8.0, 8.0))
    assert not fast._threads_pay()
    monkeypatch.setattr(fast.os, "cpu_count", lambda: 1)
    monkeypatch.setattr(fast.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not fast._threads_pay()


def test_only_the_columns_that_need_it_go_the_careful_way(monkeypatch):
    """A column with 'N/A' is read carefully (its note names the lines); the others fast."""
    from nbapp.io import _numbers as numbers

    seen = []
    convert = numbers.NumberReader.convert

    def spy(self, position, name, notes):
        seen.append((name, len(self.frame)))
        return convert(self, position, name, notes)

    monkeypatch.setattr(numbers.NumberReader, "convert", spy)
    data = rows("a,b,c", "1,x,2.5", "N/A,y,3.5", n=50)
    table = load_table(data, "t.csv")
    assert [name for name, n in seen if n == 100] == ["a"]         # full columns read carefully
    assert "Column 'a': 50 cell(s) read as missing ('N/A' x50; lines 3, 5, 7, 9, 11 and 45 more)." in table.notes
    assert_same(data)


CELLS = st.sampled_from(FAST_PATH_CELLS)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(columns=st.integers(1, 4), cells=st.lists(st.lists(CELLS, min_size=4, max_size=4), min_size=1, max_size=40),
       base=st.sampled_from(["1", "2.5", "word"]))
def test_random_tables_read_alike_on_both_paths(columns, cells, base):
    """Columns of one base value with random tricky cells mixed in."""
    header = ",".join(f"c{i}" for i in range(columns))
    lines = [",".join(row[:columns]) for row in cells] + [",".join([base] * columns)] * 30
    assert_same(("\n".join([header, *lines]) + "\n").encode())


def test_what_arrow_parses_as_a_number_the_loader_reads_as_one():
    """The fast path's premise (nbapp/io/_fast.py, _numbers): a cell Arrow's cast accepts,
    finite, without a leading zero or "0x", matches the loader's number pattern. Every string of
    up to three characters over the characters that matter (so a pyarrow upgrade that accepts
    more fails here, not in a user's table)."""
    import itertools
    import re

    import pyarrow as pa
    import pyarrow.compute as pc

    from nbapp._number_rule import DOT_NUMBER

    code = re.compile(r"[+-]?0[0-9xX]")
    alphabet = ARROW_ALPHABET
    for length in (1, 2, 3):
        cells = ["".join(p) for p in itertools.product(alphabet, repeat=length)]
        for kind in (pa.int64(), pa.float64()):
            for cell in cells:
                try:
                    value = pc.cast(pa.array([cell]), kind)[0].as_py()
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    continue
                if np.isfinite(float(value)) and not code.match(cell):
                    assert DOT_NUMBER.fullmatch(cell.strip()), (cell, kind)


def test_order_of_distinct_values_is_order_of_appearance_across_chunks():
    """The yes/no note shows values in order of first appearance, also when Arrow reads the
    column in many blocks (the fixture makes blocks of 1 KiB)."""
    data = rows("answer,x", *(["No,1"] * 300 + ["Yes,2"] * 300 + ["no,3"]))
    table = load_table(data, "t.csv")
    assert "Column 'answer' looks yes/no ('No' / 'Yes' / 'no'); kept as its text values." in table.notes
    assert_same(data)


def test_numbers_equal_pandas_on_a_generated_clean_file():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"g": np.round(rng.normal(size=2000), 6), "k": rng.integers(-50, 50, 2000),
                          "s": np.array(["a", "b", "c"])[rng.integers(0, 3, 2000)]})
    data = frame.to_csv(index=False).encode()
    got = load_table(data, "g.csv").frame
    np.testing.assert_array_equal(got["g"].to_numpy(), frame["g"].to_numpy())
    np.testing.assert_array_equal(got["k"].to_numpy(), frame["k"].to_numpy())
    assert_same(data)


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(st.text(alphabet=CODE_ALPHABET, min_size=1, max_size=18), min_size=1, max_size=30),
       skip=st.integers(0, 3), whole=st.booleans(), large=st.booleans())
def test_written_as_code_finds_what_the_careful_rules_find(cells, skip, whole, large):
    """fast._written_as_code on an Arrow chunk (sliced, so its offsets do not start at 0)
    against the rules written out per cell: a leading zero or "0x" after an optional sign;
    an integer of more than 15 characters. (Cells are never empty there: each parsed as a number.)"""
    import re

    import pyarrow as pa

    chunk = pa.array(["9"] * skip + cells, type=pa.large_string() if large else pa.string()).slice(skip)
    leading = any(re.match(r"[+-]?0[0-9xX]", cell) for cell in cells)
    long = any(len(cell) > 15 and (whole or not re.search("[.eE]", cell)) for cell in cells)
    assert fast._written_as_code(chunk, whole) == (leading or long)


def test_a_one_column_sample_does_not_ask_the_sniffer(monkeypatch):
    """Every delimiter ties on one column; csv.Sniffer took seconds on such a sample (most of
    the 1.1 s of issue 24's one-column file) and can only answer with a delimiter it sees."""
    import csv

    from nbapp.io._delimited import _detect_delimiter

    def refuse(*args, **kwargs):
        raise AssertionError("the Sniffer was asked")

    monkeypatch.setattr(csv.Sniffer, "sniff", refuse)
    assert _detect_delimiter("amount\n" + "12.5\n-3.25\n" * 2000, True) == ","
    assert _detect_delimiter("city\nParis\nRome\n", False) == ","


@settings(max_examples=300, deadline=None)
@given(sample=st.text(alphabet='ab1 .,;\t|"\n', max_size=60))
def test_the_sniffer_answers_only_with_a_delimiter_in_the_sample(sample):
    """The premise of asking the Sniffer only when a tied delimiter is in the sample."""
    import csv

    from nbapp.io._common import DELIMITER_NAMES

    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITER_NAMES)).delimiter
    except csv.Error:
        return
    assert sniffed in sample


def test_the_fast_path_frame_can_be_changed_like_the_careful_one():
    """Its number columns are writable numpy arrays of their own (not views of Arrow's
    read-only buffers), so a frame read fast takes assignments as one read carefully does."""
    data = rows("a,b,c", "1,2.5,x", "3,4.5,y", n=200)
    for table in (load_table(data, "t.csv"), careful(data)):
        frame = table.frame
        frame.loc[0, "a"] = 7
        frame.loc[1, "b"] = 0.25
        assert frame["a"].iloc[0] == 7 and frame["b"].iloc[1] == 0.25
