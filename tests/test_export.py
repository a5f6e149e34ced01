"""CSV exports never carry a live formula from user data (issue 3 and 5, Exports)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest

from nbapp.io import neutralise, safe_csv_bytes


def read_back(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "Excel needs the UTF-8 byte-order mark"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


@pytest.mark.parametrize("value", ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\r=y", '=HYPERLINK("http://x")'])
def test_neutralise_prefixes_formula_starts_with_a_quote(value):
    assert neutralise(value) == "'" + value


@pytest.mark.parametrize("value", ["plain", "", " =not first", "5", "a=b"])
def test_neutralise_leaves_harmless_text_alone(value):
    assert neutralise(value) == value


def test_no_exported_cell_or_name_starts_a_formula():
    frame = pd.DataFrame({
        "=cmd|' /C calc'!A0": ["=1+2", "ok", None, "@SUM(1)"],
        "label": pd.Categorical(["-x", "+y", "z", "-x"]),
        "mixed": [1, "=x", None, -2.5],
    })
    rows = read_back(safe_csv_bytes(frame))
    cells = [c for row in rows for c in row]
    assert rows[0][0] == "'=cmd|' /C calc'!A0"
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    assert rows[1] == ["'=1+2", "'-x", "1"]
    assert rows[4][2] == "-2.5"  # a number inside a mixed column stays a number


def test_negative_numbers_in_numeric_columns_stay_numbers():
    frame = pd.DataFrame({"p": [-0.25, 1.0], "n": np.array([-3, 4], dtype="int64"), "s": ["-3", "x"]})
    rows = read_back(safe_csv_bytes(frame))
    assert rows[1] == ["-0.25", "-3", "'-3"]


def test_index_labels_are_neutralised_when_written():
    frame = pd.DataFrame({"P(yes)": [0.2, 0.8]}, index=pd.Index(["=evil", "fine"], name="@value"))
    rows = read_back(safe_csv_bytes(frame, index=True))
    assert rows[0] == ["'@value", "P(yes)"]
    assert [r[0] for r in rows[1:]] == ["'=evil", "fine"]


def test_round_trip_keeps_values_apart_from_the_quote_prefix():
    frame = pd.DataFrame({"text": ["héllo, \"world\"", "line\nbreak"], "n": [1, 2]})
    loaded = pd.read_csv(io.BytesIO(safe_csv_bytes(frame)), encoding="utf-8-sig")
    pd.testing.assert_frame_equal(loaded, frame, check_dtype=False)


def test_predictions_frame_appends_without_overwriting_and_leaves_undetermined_rows_blank():
    import nbapp
    from nbapp.io import predictions_frame

    train = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["p", "q", "q", "q"], "c": ["A", "A", "B", "B"]})
    m = nbapp.NaiveBayes({"a": "categorical", "b": "categorical"}, alpha=0).fit(train, target="c")
    rows = pd.DataFrame({"a": ["x", "y"], "b": ["p", "p"], "P(A)": ["keep", "keep"]})
    out = predictions_frame(m, rows)
    assert list(out.columns) == ["a", "b", "P(A)", "predicted", "P(A) (2)", "P(B)"]
    assert list(out["P(A)"]) == ["keep", "keep"]
    assert out.loc[0, "predicted"] == "A" and out.loc[0, "P(A) (2)"] == 1.0
    assert pd.isna(out.loc[1, "predicted"])          # y is impossible for A, p for B: undetermined
