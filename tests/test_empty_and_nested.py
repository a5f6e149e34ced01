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

from nbapp import DataError, NaiveBayes
from nbapp.scale import cross_validate_file, fit_file
from nbapp.scale.files import sample_rows

ROOT = Path(__file__).resolve().parents[1]


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
