"""nbapp.fit_spark against Spark MLlib's own NaiveBayes, on the same rows, in the same run.

    PYTHONPATH=$PWD python bench/bench_spark.py                 # 10^6 rows, median of 3
    PYTHONPATH=$PWD python bench/bench_spark.py --rows 10000000 --repeat 1

Data: ROWS rows written as Parquet (files of 250,000 rows), 10 Gaussian columns, 10 count
columns (Poisson draws) and an integer label of 3 classes. Spark runs ``local[2]`` on loopback.
Every fit reads the Parquet files itself; timed from the read to the fitted model on the driver:

* Gaussian: ``nbapp.fit_spark(NaiveBayes({g: "gaussian"}))`` (one Spark SQL GROUP BY: COUNT, SUM
  and VAR_POP per class and column, statistics built on the driver) against ``VectorAssembler`` +
  ``pyspark.ml.classification.NaiveBayes(modelType="gaussian")``;
* multinomial: ``NaiveBayes({n: "multinomial"}, alpha=1, prior_alpha=1)`` against
  ``NaiveBayes(modelType="multinomial", smoothing=1)``. MLlib smooths the class prior with the
  same lambda as the features, (N_c + l) / (N + K l), hence ``prior_alpha=1`` on nbapp's side.

Then P(c | x) of a sample of rows from both models: the largest absolute difference. (Why they
differ at all: MLlib's Gaussian variance is E[x^2] - mean^2 from sums of squares, nbapp's is
merged M2 (Chan et al.), which does not cancel; see docs/scale.md.)
``spark.sql.execution.arrow.maxRecordsPerBatch`` is 100,000 so that nbapp summarises
100,000-row pandas frames (MLlib does not use it).
"""

from __future__ import annotations

import argparse
import os
import warnings
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import nbapp  # noqa: E402

GAUSS = [f"g{j}" for j in range(10)]
COUNTS = [f"n{j}" for j in range(10)]
FILE_ROWS = 250_000
SAMPLE_ROWS = 20_000


def make_chunk(rows: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.integers(0, 3, rows)
    frame = {g: rng.normal(0.4 * label * (j % 4) + 10.0 * j, 1.0 + j / 5, rows) for j, g in enumerate(GAUSS)}
    rates = 1.0 + np.arange(10)[None, :] * 0.3 + (label[:, None] == np.arange(10)[None, :] % 3) * 1.5
    counts = rng.poisson(rates).astype(np.float64)
    frame.update({n: counts[:, j] for j, n in enumerate(COUNTS)})
    frame["label"] = label.astype(np.int64)
    return pd.DataFrame(frame)


def write_parquet(folder: Path, rows: int) -> pd.DataFrame:
    """The files; returns the first SAMPLE_ROWS rows for comparing probabilities."""
    sample = None
    for i, start in enumerate(range(0, rows, FILE_ROWS)):
        chunk = make_chunk(min(FILE_ROWS, rows - start), seed=i)
        pq.write_table(pa.Table.from_pandas(chunk, preserve_index=False), folder / f"part-{i:05d}.parquet")
        if sample is None:
            sample = chunk.iloc[:SAMPLE_ROWS].reset_index(drop=True)
    return sample


def spark_session():
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    return (SparkSession.builder.master("local[2]").appName("nbapp-bench")
            .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.memory", "3g")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000")
            .getOrCreate())


def fit_nbapp(spark, folder: Path, kind: str):
    sdf = spark.read.parquet(str(folder))
    if kind == "gaussian":
        model = nbapp.NaiveBayes({g: "gaussian" for g in GAUSS})
    else:
        model = nbapp.NaiveBayes({n: "multinomial" for n in COUNTS}, alpha=1.0, prior_alpha=1.0)
    return nbapp.fit_spark(model, sdf, "label")


def fit_mllib(spark, folder: Path, kind: str):
    from pyspark.ml.classification import NaiveBayes
    from pyspark.ml.feature import VectorAssembler

    sdf = spark.read.parquet(str(folder))
    assembled = VectorAssembler(inputCols=GAUSS if kind == "gaussian" else COUNTS, outputCol="features").transform(sdf)
    return NaiveBayes(modelType=kind, smoothing=1.0, labelCol="label", featuresCol="features").fit(assembled)


def mllib_proba(spark, model, sample: pd.DataFrame, kind: str) -> np.ndarray:
    from pyspark.ml.feature import VectorAssembler

    cols = GAUSS if kind == "gaussian" else COUNTS
    sdf = spark.createDataFrame(sample.assign(row=np.arange(len(sample))))
    out = model.transform(VectorAssembler(inputCols=cols, outputCol="features").transform(sdf))
    got = out.select("row", "probability").toPandas().sort_values("row")
    return np.array([v.toArray() for v in got["probability"]])


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    spark = spark_session()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for rows in args.rows:
            with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
                folder = Path(tmp) / "data"
                folder.mkdir()
                sample = write_parquet(folder, rows)
                mb = sum(f.stat().st_size for f in folder.iterdir()) / 1e6
                spark.read.parquet(str(folder)).count()          # warm the JVM and the file listing
                print(f"\n{rows:,} rows, {len(list(folder.iterdir()))} Parquet files ({mb:,.0f} MB), local[2]; "
                      f"median of {args.repeat}")
                print(f"{'model type':<13}{'nbapp.fit_spark s':>19}{'MLlib NaiveBayes s':>20}{'MLlib / nbapp':>15}"
                      f"   max |P_nbapp - P_MLlib| on {len(sample):,} rows")
                for kind in ("gaussian", "multinomial"):
                    t_nb, t_ml = [], []
                    for _ in range(args.repeat):        # interleaved, so load falls on both
                        t, nb_model = timed(lambda: fit_nbapp(spark, folder, kind))
                        t_nb.append(t)
                        t, ml_model = timed(lambda: fit_mllib(spark, folder, kind))
                        t_ml.append(t)
                    assert nb_model.class_counts_.sum() == rows
                    p_nb = nb_model.predict_proba(sample[GAUSS if kind == "gaussian" else COUNTS]).to_numpy()
                    p_ml = mllib_proba(spark, ml_model, sample, kind)
                    m_nb, m_ml = statistics.median(t_nb), statistics.median(t_ml)
                    print(f"{kind:<13}{m_nb:>19.2f}{m_ml:>20.2f}{m_ml / m_nb:>14.2f}x   "
                          f"{np.abs(p_nb - p_ml).max():.1e}   (runs nbapp {', '.join(f'{t:.1f}' for t in t_nb)}; "
                          f"MLlib {', '.join(f'{t:.1f}' for t in t_ml)})", flush=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
