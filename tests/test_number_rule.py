"""One number rule (issue 34, item 4): load_table's careful path, its fast path (Arrow) and
fit_file's read of a CSV in DuckDB's SQL read every cell of one shared corpus
(tests/number_cells.py: the fuzzers' cells and ~270,000 systematic ones) the same: each column
the same type (whole numbers, decimals, text), each cell the same value (NaN where missing).
The score-time rule (nbapp._numbers) reads what load_table leaves as text as DuckDB's numeric
read does.

The cells are grouped into columns of a few thousand by what the declared grammar
(nbapp._number_rule) makes of them (whole numbers, decimals with missing and infinite cells,
codes, text), so that one cell read otherwise by one reader changes its column's type there.
A column that differs is narrowed down to the cells that make it differ, named in the failure.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nbapp._number_rule import DOT, INF_TOKENS, INTEGER, LEADING_ZERO, MAX_EXACT_DIGITS, NA_TOKENS, TEXT_NA_TOKENS
from nbapp.io import _fast as fast, load_table
from nbapp.io._delimited import _read_delimited
from nbapp.scale import _files as files

from number_cells import corpus

ROWS = 5_000
FILLER = {"whole": "1", "whole or missing": "1", "decimal": "1.5", "code": "007", "text": "x"}


def grammar_class(cell: str) -> str:
    """What the declared grammar makes of a cell of a comma-separated file."""
    s = cell.strip()
    if s.lower() in NA_TOKENS:
        return "missing"
    if s.lower() in INF_TOKENS:
        return "infinite"
    if not DOT.pattern.fullmatch(s):
        return "text"
    if re.match(LEADING_ZERO, s) or (len(s) > MAX_EXACT_DIGITS and re.fullmatch(INTEGER, s)):
        return "code"
    return "whole" if re.fullmatch(INTEGER, s.replace(DOT.thousands, "")) else "decimal"


def columns_of(cells: list[str]) -> dict[str, list[str]]:
    """The cells as columns of ROWS cells, each of one family; missing and infinite cells go
    among the decimals, the text, and a family of whole numbers."""
    by = {"whole": [], "decimal": [], "code": [], "text": [], "missing": [], "infinite": []}
    for cell in cells:
        by[grammar_class(cell)].append(cell)
    absent = by["missing"] + by["infinite"]
    families = {"whole": by["whole"], "whole or missing": [v for pair in zip(by["whole"], absent) for v in pair],
                "decimal": by["decimal"] + absent, "code": by["code"] + absent, "text": by["text"] + absent}
    columns = {}
    for family, values in families.items():
        for start in range(0, len(values), ROWS):
            chunk = values[start:start + ROWS]
            columns[f"{family} {start // ROWS}"] = chunk + [FILLER[family]] * (ROWS - len(chunk))
    return columns


def csv_bytes(columns: dict[str, list[str]]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["row", *columns])
    n = len(next(iter(columns.values())))
    writer.writerows([str(i), *row] for i, row in zip(range(n), zip(*columns.values())))
    return buffer.getvalue().encode()


def careful(data: bytes) -> pd.DataFrame:
    return _read_delimited(data, "cells.csv", None, fast=False).frame


def fast_path(data: bytes) -> pd.DataFrame:
    source_applies = fast.fast_path_applies
    taken = []

    def spy(source, max_rows):
        taken.append(source_applies(source, max_rows))
        return taken[-1]

    original, fast_min = fast.fast_path_applies, fast.FAST_MIN_BYTES
    fast.FAST_MIN_BYTES = 0
    import nbapp.io._delimited as delimited

    delimited.fast_path_applies = spy
    try:
        frame = _read_delimited(data, "cells.csv", None, fast=True).frame
    finally:
        delimited.fast_path_applies, fast.FAST_MIN_BYTES = original, fast_min
    assert taken == [b'"' not in data]
    return frame


def duckdb_read(path: Path, numeric: list[str] = ()) -> pd.DataFrame:
    """fit_file's read of the CSV in DuckDB (the streamed read of every column): ``numeric`` as a
    number-reading feature's column (``_Cell.as_double``), the others as load_table would type them."""
    first = path.read_text().split("\n", 1)[0]
    header = next(csv.reader(io.StringIO(first), delimiter=";" if "," not in first else ","))
    others = [c for c in header if c not in numeric]
    frames = [frame for _, frame in files._batches(path, list(numeric), others, None, 1_000_000)]
    return pd.concat(frames)[header].reset_index(drop=True)


def kind(series: pd.Series) -> str:
    return {"i": "whole", "f": "decimal"}.get(series.dtype.kind, "text")


def values(series: pd.Series) -> np.ndarray:
    """The cells as an object array, None where missing (NaN, None, pd.NA)."""
    cells = series.to_numpy(dtype=object)
    return np.where(pd.isna(series).to_numpy(), None, cells)


def differences(frames: dict[str, pd.DataFrame]) -> list[str]:
    """Per column: the readers whose type or cells differ from the first reader's."""
    (first, expected), *others = frames.items()
    found = []
    for column in expected.columns:
        want_kind, want = kind(expected[column]), values(expected[column])
        for name, frame in others:
            got_kind, got = kind(frame[column]), values(frame[column])
            if got_kind != want_kind:
                found.append((column, f"{column}: {first} reads {want_kind}, {name} {got_kind}"))
                continue
            unequal = np.flatnonzero(got != want)
            if len(unequal):
                shown = [(want[i], got[i]) for i in unequal[:5]]
                found.append((column, f"{column}: {len(unequal)} cells differ ({first}, {name}): {shown}"))
    return found


def culprits(cells: list[str], read: dict, tmp_path: Path, depth: int = 0) -> list[str]:
    """The cells of a column that make the readers differ, found by halving it."""
    if len(cells) == 1 or depth > 14:
        return cells
    half = len(cells) // 2
    found = []
    for part in (cells[:half], cells[half:]):
        if differences(read_all({"c": part + ["1"]}, read, tmp_path)):
            found += culprits(part, read, tmp_path, depth + 1)
    return found or cells[:10]


def read_all(columns: dict[str, list[str]], read: dict, tmp_path: Path) -> dict[str, pd.DataFrame]:
    data = csv_bytes(columns)
    path = tmp_path / "cells.csv"
    path.write_bytes(data)
    return {name: reader(data, path) for name, reader in read.items()}


READERS = {"careful": lambda data, path: careful(data), "fast": lambda data, path: fast_path(data),
           "duckdb": lambda data, path: duckdb_read(path)}


@pytest.fixture(scope="module")
def cells() -> list[str]:
    return corpus()


def split(cells: list[str]) -> tuple[list[str], list[str]]:
    """The cells a CSV writes as they are, and those it quotes (a comma or a quote inside): the
    fast path takes only files without quotes."""
    quoted = [c for c in cells if re.search('[,"]', c)]
    return [c for c in cells if not re.search('[,"]', c)], quoted


@pytest.mark.parametrize("part", ["plain", "quoted"])
def test_every_reader_reads_every_cell_of_the_corpus_alike(cells, part, tmp_path):
    chosen = split(cells)[0 if part == "plain" else 1]
    assert len(chosen) > (150_000 if part == "plain" else 100_000)
    columns = columns_of(chosen)
    frames = read_all(columns, READERS, tmp_path)
    found = differences(frames)
    named = []
    for column, message in found[:3]:
        named.append(f"{message}\n    cells: {culprits(columns[column], READERS, tmp_path)[:12]!r}")
    assert not found, f"{len(found)} column(s) read otherwise:\n" + "\n".join(named)
    kinds = {kind(frames["careful"][c]) for c in columns}
    # (the quoted whole numbers hold '99,999,999,999,999,999,999', beyond int64: decimals)
    assert kinds == ({"whole", "decimal", "text"} if part == "plain" else {"decimal", "text"})


def test_numbers_read_by_a_numeric_feature_equal_load_tables_and_the_score_time_rule(cells, tmp_path):
    """A column a Gaussian reads: DuckDB's number read (_Cell.as_double) of the cells equals
    load_table's numbers; where load_table keeps a column as text (finite codes such as '007',
    with the missing tokens of text), it equals the score-time rule's reading of that text
    (nbapp._numbers.numeric_column, what fit applies to it)."""
    from nbapp._numbers import numeric_column

    plain = split(cells)[0]
    columns = columns_of(plain)
    data = csv_bytes(columns)
    path = tmp_path / "cells.csv"
    path.write_bytes(data)
    loaded = careful(data)
    numeric = [c for c in columns if kind(loaded[c]) != "text"]
    assert len(numeric) >= 4
    got = duckdb_read(path, numeric)
    for column in numeric:
        np.testing.assert_array_equal(got[column].to_numpy(dtype=float), loaded[column].to_numpy(dtype=float),
                                      err_msg=column)
    # (not the codes beyond a float's range such as '00.5e309': fit refuses the text as infinite,
    # where DuckDB's number read and load_table's numbers read an infinity as missing)
    codes = [c for c in plain if grammar_class(c) == "code" and np.isfinite(float(DOT.plain(c.strip())))]
    missing = [c for c in plain if c.strip().lower() in TEXT_NA_TOKENS]
    assert len(codes) > 1_000 and missing
    column = [v for pair in zip(codes, itertools.cycle(missing)) for v in pair]
    path.write_bytes(csv_bytes({"code": column}))
    text = careful(path.read_bytes())["code"]
    assert kind(text) == "text"
    np.testing.assert_array_equal(duckdb_read(path, ["code"])["code"].to_numpy(dtype=float),
                                  numeric_column(text, "code", "Gaussian"))


def test_the_declared_spaces_are_what_every_reader_strips():
    """SPACES (nbapp._number_rule) spells out pandas' .str.strip(): Python's whitespace on object
    strings, Arrow's utf8_trim_whitespace on Arrow strings (the loaders); DuckDB's trim() takes
    only spaces unless told, so the SQL passes SPACES ('\\t5' was text in DuckDB, 5 in load_table)."""
    import duckdb
    import pyarrow as pa
    import pyarrow.compute as pc

    from nbapp._number_rule import SPACES

    characters = [chr(i) for i in range(0x110000) if 0xD800 > i or i > 0xDFFF]
    assert set(SPACES) == {c for c in characters if c.isspace()}
    plane = characters[:0xF800]                      # the basic plane (no whitespace beyond it)
    trimmed = pc.utf8_trim_whitespace(pa.array(["x" + c for c in plane])).to_pylist()
    assert {c for c, t in zip(plane, trimmed) if t == "x"} == set(SPACES)
    with duckdb.connect() as con:
        assert con.execute("SELECT trim(?, ?)", [SPACES + "5" + SPACES, SPACES]).fetchone() == ("5",)


def test_a_first_group_of_zero_is_no_thousands_separated_number(tmp_path):
    """'0.125' in a semicolon-separated file: the comma form read it as 125 (a group '0', then
    '.125'), so a file whose numbers all had three decimals was read 1000 times too large by
    load_table, where fit_file read 0.125. The grammar's first group does not start with 0."""
    text = "y;h\na;0.125\nb;0.250\na;1.500\n"
    path = tmp_path / "s.csv"
    path.write_text(text)
    loaded = load_table(text.encode(), "s.csv").frame
    assert loaded["h"].tolist() == [0.125, 0.25, 1.5]
    assert duckdb_read(path)["h"].tolist() == [0.125, 0.25, 1.5]
    assert not DOT.pattern.fullmatch("0,123") and DOT.pattern.fullmatch("1,234")


def test_a_point_read_as_a_thousands_separator_by_load_table_is_not_read_as_a_decimal_by_fit_file(tmp_path):
    """A semicolon-separated file with a decimal-comma column ('3,5') makes load_table read the
    points of another column as thousands separators ('1.234' -> 1234): the form is decided per
    file. fit_file read the other column as decimals (1.234) when the comma column was not used;
    it now takes the file's decision too, whichever columns the model reads (and the sample)."""
    from nbapp import NaiveBayes, fit_file
    from nbapp.scale import sample_rows

    text = "y;h;c\na;1.234;3,5\nb;2.500;2,5\n"
    path = tmp_path / "s.csv"
    path.write_text(text)
    assert load_table(text.encode(), "s.csv").frame["h"].tolist() == [1234, 2500]
    assert duckdb_read(path)["h"].tolist() == [1234, 2500]
    assert duckdb_read(path, ["h"])["h"].tolist() == [1234, 2500]
    assert duckdb_read(path)["c"].tolist() == [3.5, 2.5]
    assert sample_rows(path, 1)["h"].tolist() == [1234]
    assert fit_file(NaiveBayes({"h": "gaussian"}), path, "y").parameters("h")["mean"].tolist() == [1234, 2500]


def test_the_ambiguous_cells_are_those_both_forms_read_with_different_values():
    """AMBIGUOUS (nbapp._number_rule), which fit_file refuses where the file's form is decided
    on its head only, is exactly the cells of both forms holding a mark, on the whole corpus."""
    from nbapp._number_rule import AMBIGUOUS, COMMA

    cells = {c.strip() for c in corpus()} | {"1.234", "-1,234e5", "+999.000", "0.123", "1.2345", "1,234.5", "12"}
    both = {c for c in cells if DOT.pattern.fullmatch(c) and COMMA.pattern.fullmatch(c) and ("." in c or "," in c)}
    assert {c for c in cells if re.fullmatch(AMBIGUOUS, c)} == both
    assert {"1.234", "-1,234e5", "+999.000"} <= both and len(both) > 50
    finite = [c for c in both if 0 < abs(float(DOT.plain(c))) < 1e300]     # (not '1,234e309', infinite both ways)
    ratios = np.array([float(COMMA.plain(c)) / float(DOT.plain(c)) for c in finite])
    assert len(ratios) and np.all(np.isclose(ratios, 1e3, rtol=1e-9) | np.isclose(ratios, 1e-3, rtol=1e-9))


def test_an_infinity_is_no_evidence_of_the_file_form(tmp_path):
    """An infinity is missing to its column's reading, and no evidence of the file's form either:
    'inf' beside '1,5' left the column neither comma-only nor dot-only, so a tab-separated file
    read '1.234' as 1.234 and '1,5' as text; it is a decimal-comma file. (fit_file's reading of a
    number column that confirms a form relies on it: it reads an infinity as missing.)"""
    text = "y\th\tc\na\t1.234\t1,5\nb\t2.500\tinf\n"
    path = tmp_path / "t.tsv"
    path.write_text(text)
    loaded = load_table(text.encode(), "t.tsv").frame
    assert loaded["h"].tolist() == [1234, 2500] and loaded["c"].tolist()[0] == 1.5 and np.isnan(loaded["c"][1])
    from nbapp import NaiveBayes, fit_file

    assert fit_file(NaiveBayes({"h": "gaussian"}), path, "y").parameters("h")["mean"].tolist() == [1234, 2500]


def test_every_cell_of_the_corpus_in_the_decimal_comma_form_reads_alike(cells, tmp_path, monkeypatch):
    """The corpus with points and commas exchanged ('1,234.5' -> '1.234,5'), in a semicolon file
    decided COMMA: load_table's careful path and fit_file's DuckDB read (the others' read, and a
    number-reading feature's ``_Cell.as_double``, whose cast is tried first on '3,5' as '3.5')
    read each cell alike. (fit_file's head is the whole file here, as for a file of up to 4 MiB.)"""
    monkeypatch.setattr(files, "SAMPLE_BYTES", 1 << 30)
    from nbapp._number_rule import COMMA
    from nbapp.io._delimited import file_numbers

    swapped = [c.translate(str.maketrans(".,", ",.")) for c in cells]
    swap = dict(zip(cells, swapped))
    columns = {name: [swap[c] if c in swap else c for c in column] for name, column in columns_of(cells).items()}
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=";", lineterminator="\n")
    writer.writerow(["row", *columns])
    writer.writerows([str(i), *row] for i, row in zip(range(ROWS), zip(*columns.values())))
    data = buffer.getvalue().encode()
    path = tmp_path / "cells.csv"
    path.write_bytes(data)
    assert file_numbers(data, "cells.csv").form == COMMA
    loaded = careful(data)
    found = differences({"careful": loaded, "duckdb": duckdb_read(path)})
    assert not found, found[:3]
    numeric = [c for c in columns if kind(loaded[c]) != "text"]
    # (no whole numbers: each whole column holds '99.999.999.999.999.999.999', beyond int64)
    assert len(numeric) >= 4 and {kind(loaded[c]) for c in columns} == {"decimal", "text"}
    got = duckdb_read(path, numeric)
    for column in numeric:
        np.testing.assert_array_equal(got[column].to_numpy(dtype=float), loaded[column].to_numpy(dtype=float),
                                      err_msg=column)
