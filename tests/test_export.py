"""CSV exports never carry a live formula from user data (issue 3 and 5, Exports)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest

import nbapp

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


# -- output paths: never an input, written whole or not at all (issue 21) -------------------------
def _data(folder):
    from pathlib import Path

    path = Path(folder) / "t.csv"
    path.write_text("x,y\n1.5,a\n2.5,a\n3.5,b\n4.5,b\n")
    return path


def test_writable_path_refuses_an_input_file_however_it_is_named(tmp_path, monkeypatch):
    from nbapp.io._export import writable_path

    data = _data(tmp_path)
    (tmp_path / "link.csv").symlink_to(data)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    for out in ("t.csv", str(data), "sub/../t.csv", "link.csv"):
        with pytest.raises(nbapp.DataError, match="is the input file"):
            writable_path(out, inputs=["t.csv"])
    with pytest.raises(nbapp.DataError, match="is the input file"):
        writable_path("t.csv", inputs=["link.csv"])
    assert writable_path("p.csv", inputs=["t.csv"]).name == "p.csv"


def test_writable_path_refuses_an_output_inside_an_input_folder_or_matching_its_glob(tmp_path, monkeypatch):
    from nbapp.io._export import writable_path

    _data(tmp_path)
    (tmp_path / "deeper").mkdir()
    monkeypatch.chdir(tmp_path)
    for out in ("p.csv", "deeper/p.csv", str(tmp_path / "p.parquet")):
        with pytest.raises(nbapp.DataError, match="inside the input folder"):
            writable_path(out, inputs=[str(tmp_path)])
    for pattern in ("*.csv", str(tmp_path / "*.csv"), "?.csv", "[pt].csv"):
        with pytest.raises(nbapp.DataError, match="matches the input pattern"):
            writable_path("p.csv", inputs=[pattern])
    for pattern, out in [("*.csv", "p.parquet"), ("*.csv", "deeper/p.csv"), ("[t].csv", "p.csv")]:
        assert writable_path(out, inputs=[pattern]).name == out.split("/")[-1]


def test_writable_path_refuses_a_name_without_the_expected_suffix(tmp_path):
    from nbapp.io._export import writable_path

    with pytest.raises(nbapp.DataError, match=r"Write the model file to a \.json file, not 'm\.csv'"):
        writable_path(tmp_path / "m.csv", suffixes=(".json",), what="model file")
    assert writable_path(tmp_path / "M.JSON", suffixes=(".json",)).name == "M.JSON"


def test_atomic_output_renames_at_the_end_and_leaves_nothing_when_the_work_fails(tmp_path):
    import os

    from nbapp.io._export import atomic_output

    out = tmp_path / "out.csv"
    out.write_text("old")
    os.chmod(out, 0o640)
    for failure in (ValueError("midway"), KeyboardInterrupt()):
        with pytest.raises(type(failure)):
            with atomic_output(out) as temporary:
                temporary.write_text("half")
                assert temporary.parent == tmp_path and temporary.name.startswith(".")
                assert not temporary.name.endswith((".csv", ".parquet", ".json"))
                raise failure
        assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    with atomic_output(out) as temporary:
        temporary.write_text("new")
        assert out.read_text() == "old"           # nothing is seen until the rename
    assert out.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    assert out.stat().st_mode & 0o777 == 0o640


def _fitted():
    train = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": ["a", "a", "b", "b"]})
    return nbapp.NaiveBayes({"x": "gaussian"}).fit(train, "y")


@pytest.mark.parametrize("name", ["p.csv", "p.parquet"])
def test_a_failing_predict_file_leaves_no_output_and_no_temporary_file(tmp_path, name):
    data = tmp_path / "in"
    data.mkdir()
    (data / "bad.csv").write_text("x\n" + "1.5\n" * 50 + "not a number\n")
    with pytest.raises(nbapp.DataError, match="holds a cell that is not a number"):
        nbapp.predict_file(_fitted(), data / "bad.csv", tmp_path / name, batch_rows=10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_predict_file_refuses_an_output_among_its_inputs(tmp_path):
    data = _data(tmp_path)
    before = data.read_bytes()
    for out, inputs in [(data, data), (tmp_path / "p.csv", tmp_path), (tmp_path / "p.csv", tmp_path / "*.csv")]:
        with pytest.raises(nbapp.DataError, match="input"):
            nbapp.predict_file(_fitted(), inputs, out)
    assert data.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["t.csv"]
    with pytest.raises(nbapp.DataError, match=r"Write the predictions to a \.csv"):
        nbapp.predict_file(_fitted(), data, tmp_path / "p.txt")


@pytest.mark.parametrize("name", ["p.csv", "p.parquet"])
def test_predict_file_of_a_header_only_input_writes_no_empty_file(tmp_path, name):
    (tmp_path / "h.csv").write_text("x\n")
    with pytest.raises(nbapp.DataError, match="has no data rows"):
        nbapp.predict_file(_fitted(), tmp_path / "h.csv", tmp_path / name)
    assert [p.name for p in tmp_path.iterdir()] == ["h.csv"]


def test_a_text_column_with_missing_cells_is_neutralised_without_a_pandas_warning():
    # Python-object text (pandas 2.3's default, pinned in issue 33, item 7) with a missing cell:
    # the formula test must not lean on fillna's deprecated downcasting of objects.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = safe_csv_bytes(pd.DataFrame({"a": pd.Series(["=1", None, "x"], dtype=object)}))
    assert list(csv.reader(io.StringIO(out.decode("utf-8-sig")))) == [["a"], ["'=1"], [""], ["x"]]


def test_a_huge_text_cell_is_exported_at_a_few_times_its_size_not_rows_times_it():
    """Issue 33, item 5: pandas 2.3's astype(str) of Arrow text (how an upload holds its text)
    built a fixed-width array, rows x the longest cell x 4 bytes: 1.2 GB for this 1 MB cell among
    300 rows (5.7 GB for a 5 MB one) before a CSV download started."""
    from peak_memory import peak_mb

    cell = "=HYPERLINK(" + "x" * 1_000_000
    arrow_text = pd.StringDtype("pyarrow", na_value=np.nan)
    frame = pd.DataFrame({"note": pd.Series(["a", "=1+1", None] * 100 + [cell], dtype=arrow_text), "n": np.arange(301)})
    peak, caught = peak_mb(lambda: safe_csv_bytes(frame))
    assert caught is None and peak < 20, f"{peak:.0f} MiB"
    rows = read_back(safe_csv_bytes(frame))
    assert rows[2] == ["'=1+1", "1"] and rows[3] == ["", "2"] and rows[-1] == ["'" + cell, "300"]
