"""Scale (issue 11): fitting from files through DuckDB, from Dask and Spark tables, gives the
model of one in-memory fit of the same rows (counts exactly, probabilities to 1e-12)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import DataError, NaiveBayes, Text
from nbapp.text import TextOptions

from model_asserts import assert_same_model

FEATURES = {"colour": "categorical", "size": "gaussian", "words": Text(TextOptions(min_df=2, max_features=8)),
            "n1": "multinomial", "n2": "multinomial", "visits": "poisson", "flag": "bernoulli"}


def make_frame(rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.choice(["spam", "ham", "eggs"], rows, p=[0.3, 0.5, 0.2])
    return pd.DataFrame({
        "colour": rng.choice(["red", "green", "blue", "teal"], rows),
        "size": np.round(rng.normal(3, 1, rows) + (y == "spam"), 3),
        "words": rng.choice(["buy now cheap", "hello old friend", "free money now", "see you soon", "cheap pills"], rows),
        "n1": rng.integers(0, 5, rows),
        "n2": rng.integers(0, 3, rows),
        "visits": rng.poisson(2, rows) + (y == "ham"),
        "flag": rng.choice(["yes", "no"], rows),
        "w": rng.integers(1, 4, rows),
        "y": y,
    })


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    frame = make_frame(5_000)
    frame.to_csv(folder / "all.csv", index=False)
    for i, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[rows].to_csv(folder / f"part{i}.csv", index=False)
    frame.to_parquet(folder / "all.parquet", index=False)
    return folder, frame


@pytest.mark.parametrize("source", ["all.csv", "all.parquet", "part*.csv", "."])
def test_fit_file_equals_fit_in_memory(data, source):
    folder, frame = data
    path = folder if source == "." else folder / source
    if source == ".":
        (folder / "all.csv").rename(folder / "all.csv.bak")
        (folder / "all.parquet").rename(folder / "all.parquet.bak")
    try:
        calls = []
        got = nbapp.fit_file(NaiveBayes(FEATURES), path, "y", weight="w", progress=lambda d, t: calls.append((d, t)),
                             batch_rows=1_200)
    finally:
        if source == ".":
            (folder / "all.csv.bak").rename(folder / "all.csv")
            (folder / "all.parquet.bak").rename(folder / "all.parquet")
    expected = NaiveBayes(FEATURES).fit(nbapp.load_table((folder / "all.csv").read_bytes(), "all.csv").frame, "y",
                                        weight="w")
    assert_same_model(got, expected, frame)
    assert calls[-1] == (5_000, 5_000) and len(calls) >= 4


def test_fit_file_names_a_missing_column_and_a_bad_value(tmp_path):
    (tmp_path / "t.csv").write_text("size,y\n1.5,a\nheavy,b\n2.0,a\n")
    with pytest.raises(DataError, match=r"Column 'colour' is not in .*its columns are"):
        nbapp.fit_file(NaiveBayes({"colour": "categorical"}), tmp_path / "t.csv", "y")
    with pytest.raises(DataError, match=r"Column 'size' is numeric but data row 1 of .* holds a cell that is not a "
                                        r"number"):
        nbapp.fit_file(NaiveBayes({"size": "gaussian"}), tmp_path / "t.csv", "y")
    with pytest.raises(DataError, match="No CSV or Parquet files match the pattern"):
        nbapp.fit_file(NaiveBayes({"size": "gaussian"}), tmp_path / "nothing*.csv", "y")


def test_yes_no_columns_stay_text_as_load_table_keeps_them(tmp_path):
    (tmp_path / "t.csv").write_text("flag,y\nyes,Yes\nno,No\nyes,Yes\nno,Yes\n")
    got = nbapp.fit_file(NaiveBayes({"flag": "categorical"}), tmp_path / "t.csv", "y")
    assert got.classes_ == ["No", "Yes"] and list(got.cpt("flag").index) == ["no", "yes"]


def test_predict_file_writes_every_row_with_its_posterior(data, tmp_path):
    folder, frame = data
    model = NaiveBayes(FEATURES).fit(frame, "y", weight="w")
    for name in ("p.csv", "p.parquet"):
        out = nbapp.predict_file(model, folder / "all.csv", tmp_path / name, batch_rows=1_500)
        written = pd.read_csv(out) if name.endswith(".csv") else pd.read_parquet(out)
        assert len(written) == 5_000
        expected = model.predict_proba(frame)
        np.testing.assert_allclose(written[[f"P({c})" for c in model.classes_]].to_numpy(), expected.to_numpy(),
                                   atol=1e-12)


@pytest.fixture(scope="module")
def dask_client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


def test_fit_dask_equals_fit_in_memory(dask_client):
    import dask.dataframe as dd

    frame = make_frame(3_000, seed=1)
    ddf = dd.from_pandas(frame, npartitions=5)
    got = nbapp.fit_dask(NaiveBayes(FEATURES), ddf, "y", weight="w")
    predicted = nbapp.predict_dask(got, ddf).compute()
    assert_same_model(got, NaiveBayes(FEATURES).fit(frame, "y", weight="w"), frame)
    assert len(predicted) == 3_000 and (predicted["predicted"] == got.predict(frame)).all()


def with_a_bad_size(frame: pd.DataFrame) -> pd.DataFrame:
    """The Gaussian column as text, one cell of it no number."""
    size = frame["size"].astype(str).to_numpy(dtype=object)
    size[len(size) // 2] = "heavy"
    return frame.assign(size=size)


def test_a_bad_value_in_a_dask_partition_is_a_data_error(dask_client):
    import dask.dataframe as dd

    ddf = dd.from_pandas(with_a_bad_size(make_frame(400, seed=3)), npartitions=4)
    with pytest.raises(DataError, match=r"Column 'size' is Gaussian but row 200 holds 'heavy'"):
        nbapp.fit_dask(NaiveBayes(FEATURES), ddf, "y")


def test_fit_spark_equals_fit_in_memory(spark):
    frame = make_frame(3_000, seed=2)
    sdf = spark.createDataFrame(frame).repartition(4)
    got = nbapp.fit_spark(NaiveBayes(FEATURES), sdf, "y", weight="w")
    assert_same_model(got, NaiveBayes(FEATURES).fit(frame, "y", weight="w"), frame)
    predicted = nbapp.predict_spark(got, spark.createDataFrame(frame)).toPandas()
    assert len(predicted) == 3_000
    np.testing.assert_allclose(predicted[[f"P({c})" for c in got.classes_]].to_numpy(),
                               got.predict_proba(frame).to_numpy(), atol=1e-12)


def test_a_bad_value_in_a_spark_partition_is_a_data_error_not_a_java_trace(spark):
    sdf = spark.createDataFrame(with_a_bad_size(make_frame(400, seed=3))).repartition(3)
    with pytest.raises(DataError, match=r"In the Spark table .*Column 'size' is Gaussian but row \d+ holds 'heavy'"):
        nbapp.fit_spark(NaiveBayes(FEATURES), sdf, "y")


SPARK_WITHOUT_NBAPP = """
import pandas as pd
import nbapp
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[1]").appName("nbapp-no-module")
         .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.ui.enabled", "false").getOrCreate())
try:
    sdf = spark.createDataFrame(pd.DataFrame({"x": ["a b", "b c"], "y": ["p", "q"]}))
    nbapp.fit_spark(nbapp.NaiveBayes({"x": "text"}), sdf, "y")   # text is summarised by nbapp on the workers
except RuntimeError as exc:
    print(exc)
finally:
    spark.stop()
"""


def test_spark_workers_without_nbapp_are_told_how_to_fix_it():
    # the interpreter the venv was made from has no nbapp (and maybe no pandas) for the workers
    env = {**os.environ, "PYSPARK_PYTHON": sys._base_executable}
    done = subprocess.run([sys.executable, "-c", SPARK_WITHOUT_NBAPP], capture_output=True, text=True, env=env,
                          timeout=300)
    assert "Spark's Python workers cannot import" in done.stdout and "PYSPARK_PYTHON" in done.stdout, \
        done.stderr[-2000:]
