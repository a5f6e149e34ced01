"""Tables with no rows and cells with several values (issue 21, Low): each is one DataError
sentence naming the file or column and the fix, wherever the table comes from (a CSV or
Parquet file, the command line, a Dask or Spark table), never an AttributeError,
StopIteration, 'unhashable type' or a worker's stack trace."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.propose import check_target, propose_feature_types, propose_target
from nbapp.scale import cross_validate_file, fit_file
from nbapp.scale._files import sample_rows

ROOT = Path(__file__).resolve().parents[1]
NESTED = "holds {what} \\(several values in one cell\\); nbapp reads one value per cell: flatten it"


def model() -> NaiveBayes:
    return NaiveBayes({"a": "categorical", "b": "gaussian"})


# -- no rows ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["a,b,y\n", "a,b,y\n\n\n,,\n, ,\n"], ids=["header only", "only blank rows"])
def test_a_csv_without_data_rows_is_named_not_an_attribute_error(tmp_path, text):
    path = tmp_path / "t.csv"
    path.write_text(text)
    for fit in (lambda: fit_file(model(), path, "y"), lambda: cross_validate_file(model(), path, "y", k=2)):
        with pytest.raises(DataError, match=r"'.*t\.csv' has no data rows \(only a header or column names, or "
                                            r"blank lines\).*give a file with rows of data"):
            fit()


@pytest.mark.parametrize("text", ["", "\n\n  \n"], ids=["0 bytes", "blank lines"])
def test_an_empty_csv_is_named_empty_not_missing_a_column(tmp_path, text):
    # DuckDB reads it as one column 'column0', and the message was "Column 'a' is not in ..."
    path = tmp_path / "empty.csv"
    path.write_text(text)
    with pytest.raises(DataError, match=r"The file '.*empty\.csv' is empty \(no header row, no data\); give a CSV"):
        fit_file(model(), path, "y")


def test_an_empty_file_in_a_folder_is_named(tmp_path):
    pd.DataFrame({"a": ["x", "z"], "b": [1.0, 2.0], "y": ["p", "q"]}).to_csv(tmp_path / "1.csv", index=False)
    (tmp_path / "2.csv").write_bytes(b"")
    with pytest.raises(DataError, match=r"The file '.*2\.csv' is empty"):
        fit_file(model(), tmp_path, "y")


def test_a_parquet_file_of_no_rows_is_named_where_its_rows_are_read(tmp_path):
    path = tmp_path / "zero.parquet"
    pq.write_table(pa.table({"a": pa.array([], pa.string()), "b": pa.array([], pa.float64()),
                             "y": pa.array([], pa.string())}), path)
    for read in (lambda: sample_rows(path, 100), lambda: fit_file(model(), path, "y")):   # StopIteration before
        with pytest.raises(DataError, match=r"'.*zero\.parquet' has no data rows"):
            read()


def test_the_cli_fits_a_header_only_csv_with_types_to_one_sentence_and_exit_2(tmp_path):
    (tmp_path / "t.csv").write_text("a,b,y\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "nbapp", "fit", "t.csv", "--target", "y", "--types",
                           "a=categorical,b=gaussian", "--out", "m.json"], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("nbapp: 't.csv' has no data rows") and "Traceback" not in done.stderr


# -- Parquet cells with several values ----------------------------------------------------------
@pytest.fixture
def nested_parquet(tmp_path) -> Path:
    path = tmp_path / "nested.parquet"
    pq.write_table(pa.table({
        "a": ["x", "z", "x", "z"],
        "tags": [[1], [2], [1, 2], []],
        "place": [{"city": "Oslo"}, {"city": "Rome"}, {"city": "Oslo"}, {"city": "Rome"}],
        "scores": pa.array([[("k", 1)], [("k", 2)], [], [("j", 1)]], pa.map_(pa.string(), pa.int64())),
        "labels": [["p"], ["q"], ["p"], ["q"]],
        "y": ["p", "q", "p", "q"],
    }), path)
    return path


@pytest.mark.parametrize("column, what", [("tags", "lists"), ("place", "structs"), ("scores", "maps")])
def test_a_parquet_feature_of_lists_structs_or_maps_is_named_before_reading(nested_parquet, column, what):
    with pytest.raises(DataError, match=rf"Column '{column}' of '.*nested\.parquet' {NESTED.format(what=what)}"):
        fit_file(NaiveBayes({"a": "categorical", column: "categorical"}), nested_parquet, "y")


def test_a_parquet_target_of_lists_is_named(nested_parquet):
    with pytest.raises(DataError, match=rf"Column 'labels' of '.*nested\.parquet' {NESTED.format(what='lists')}"):
        fit_file(NaiveBayes({"a": "categorical"}), nested_parquet, "labels")


def test_nested_columns_of_a_sample_are_proposed_ignore_and_refused_as_target(nested_parquet):
    sample = sample_rows(nested_parquet, 100)
    proposed = propose_feature_types(sample, "y").set_index("column")
    for column in ("tags", "place", "scores", "labels"):           # 'unhashable type' before
        assert proposed.loc[column, "type"] == "ignore"
        assert "several values in a cell" in proposed.loc[column, "reason"]
    assert proposed.loc["a", "type"] == "categorical"
    assert propose_target(sample) == "y"
    with pytest.raises(DataError, match=rf"Column 'labels' of the table {NESTED.format(what='lists')}"):
        check_target(sample, "labels")
    fitted = fit_file(NaiveBayes({"a": "categorical"}), nested_parquet, "y")   # the flat columns still fit
    assert fitted.classes_ == ["p", "q"]


# -- Dask and Spark ------------------------------------------------------------------------------
FLAT_AND_LISTS = pd.DataFrame({"a": ["x", "z", "x", "z"], "tags": [[1], [2], [1, 2], [1]], "y": ["p", "q", "p", "q"]})


@pytest.mark.parametrize("convert_string", [True, False])
def test_dask_refuses_a_list_column_it_would_have_turned_into_text(convert_string):
    import dask
    import dask.dataframe as dd

    with dask.config.set({"dataframe.convert-string": convert_string, "scheduler": "synchronous"}):
        table = dd.from_pandas(FLAT_AND_LISTS, npartitions=2)
        with pytest.raises(DataError, match=rf"Column 'tags' of the Dask table {NESTED.format(what='lists')}"):
            nbapp.fit_dask(NaiveBayes({"a": "categorical", "tags": "categorical"}), table, "y")
        assert nbapp.fit_dask(NaiveBayes({"a": "categorical"}), table, "y").classes_ == ["p", "q"]


def test_dask_refuses_a_list_column_read_from_parquet(nested_parquet):
    import dask
    import dask.dataframe as dd

    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(DataError, match=rf"Column 'tags' of the table {NESTED.format(what='lists')}"):
            nbapp.fit_dask(NaiveBayes({"tags": "categorical"}), dd.read_parquet(nested_parquet), "y")


def test_spark_array_and_map_columns_are_named_from_the_schema_before_a_job(spark):
    table = spark.createDataFrame([("x", [1, 2], {"k": 1}, "p"), ("z", [2], {"k": 2}, "q")],
                                  "a string, tags array<int>, scores map<string,int>, y string")
    for column, what in (("tags", "arrays"), ("scores", "maps")):
        with pytest.raises(DataError, match=rf"Column '{column}' of the Spark table {NESTED.format(what=what)}"):
            nbapp.fit_spark(NaiveBayes({"a": "categorical", column: "categorical"}), table, "y")
    assert nbapp.fit_spark(NaiveBayes({"a": "categorical"}), table, "y").classes_ == ["p", "q"]


# -- the app ---------------------------------------------------------------------------------------
def test_the_app_opens_parquet_paths_with_nested_columns_or_no_rows(tmp_path, monkeypatch, nested_parquet):
    from apptest_helpers import clear_caches, no_exception, start, texts  # noqa: F401

    monkeypatch.setenv("NBAPP_DATA_ROOT", str(tmp_path))
    zero = tmp_path / "zero.parquet"
    pq.write_table(pa.table({"a": pa.array([], pa.string()), "y": pa.array([], pa.string())}), zero)
    rows = tmp_path / "rows.parquet"            # a list of two values in the first row: the Explain query
    pq.write_table(pq.read_table(nested_parquet).take([2, 0, 1, 3]), rows)

    def open_path(path: Path):
        at = start(timeout=120)
        at.radio(key="_data_mode").set_value("Open a local path").run()
        at.text_input(key="_data_path").set_value(str(path)).run()
        at.button(key="data.open_path").click().run()
        return no_exception(at)

    at = open_path(zero)                        # StopIteration and Streamlit's error page before
    assert any("zero.parquet' has no data rows" in s for s in texts(at, "error"))
    at = open_path(rows)                        # 'unhashable type' before
    assert {c: at.session_state["work"].kinds[c] for c in ("tags", "place", "scores")} == dict.fromkeys(
        ("tags", "place", "scores"), "ignore")
    for page in ("pages/2_Model.py", "pages/3_Explain.py", "pages/4_Evaluate.py", "pages/1_Data.py"):
        no_exception(at.switch_page(page).run())


def test_a_parquet_file_given_to_load_table_is_named_as_parquet(tmp_path, nested_parquet):
    from nbapp.io import load_table

    with pytest.raises(DataError, match=r"The file 'nested.parquet' is a Parquet file, not a text table; fit it with "
                                        r"nbapp.fit_file"):      # "binary data ... 23% NUL bytes" before
        load_table(nested_parquet.read_bytes(), "nested.parquet")
