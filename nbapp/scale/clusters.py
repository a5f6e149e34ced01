"""Tables on a cluster, through Spark or Dask: the statistics are computed where the rows
live, only they travel to the driver (a few kilobytes to megabytes: the size of the model),
and the model built from them equals an in-memory fit of the same rows.

Spark computes them as Spark SQL aggregates (:mod:`nbapp.scale.aggregates`: one GROUP BY over
the table, run by Spark's own code generation, no Python on the executors); a model with a type
that states no aggregates (text) is summarised partition by partition instead, by nbapp on the
executors (``mapInPandas``), as are the rows when the aggregates find a value the fit refuses,
so that the error names it. Dask summarises each partition with nbapp.

Prediction maps the model over the partitions, sent as its JSON (``NaiveBayes.to_json``).
"""

from __future__ import annotations

import re
import uuid
from functools import reduce
from operator import add
from typing import Any, Iterator

import pandas as pd

from nbapp.errors import DataError
from nbapp.io.nested import nested_error, nested_values

__all__ = ["fit_spark", "fit_dask", "predict_spark", "predict_dask"]


def _summarize(params: dict[str, Any], frame: pd.DataFrame, target: str, weight: str | None) -> Any:
    """The statistics of one partition (None for an empty one)."""
    from nbapp.model import NaiveBayes

    if not len(frame):
        return None
    _refuse_nested_cells(frame, frame.columns, "the table")
    return NaiveBayes(**params).summarize(frame, target, weight)


def _refuse_nested_cells(frame: pd.DataFrame, columns: Any, where: str) -> None:
    """Columns whose cells hold several values (a list, a dict), which no feature or target takes."""
    for column in columns:
        what = nested_values(frame[column]) if column in frame.columns else None
        if what:
            raise nested_error(column, what, where)


def _total(parts: list[Any]) -> Any:
    parts = [p for p in parts if p is not None]
    if not parts:
        raise DataError("The table has no rows; nothing to fit.")
    return reduce(add, parts)


def _columns(model: Any, target: str, weight: str | None) -> list[str]:
    return [target, *model.features_, *([weight] if weight else [])]


# -- Spark ---------------------------------------------------------------------------------------
def fit_spark(model: Any, spark_df: Any, target: str, weight: str | None = None) -> Any:
    """Fit the model on a Spark DataFrame: its statistics are Spark SQL aggregates, one GROUP BY
    computed by Spark (:func:`_spark_statistics`); with a type that states no aggregates, or to
    name a refused value, each partition is summarised on its executor (``mapInPandas``) and
    sends its statistics to the driver as JSON (checked there as a model file's are)."""
    columns = _columns(model, target, weight)
    missing = [c for c in columns if c not in spark_df.columns]
    if missing:
        raise DataError(f"The Spark table has no column {missing[0]!r}; its columns are {spark_df.columns[:10]}.")
    _refuse_nested_spark(spark_df, columns)
    stats = _spark_statistics(model, spark_df.select(*dict.fromkeys(columns)), target, weight)
    if stats is None:
        stats = _spark_partition_statistics(model, spark_df, target, weight)
    return model.fit_stats(stats, target, weight)


def _spark_statistics(model: Any, spark_df: Any, target: str, weight: str | None) -> Any:
    """The statistics as Spark SQL aggregates over a temporary view of the table; None when the
    model's types or its rows need the partitions summarised by nbapp."""
    from nbapp.scale.aggregates import NotPushable, Refused, model_statistics
    from nbapp.scale.engines import spark_source

    view = f"nbapp_{uuid.uuid4().hex}"
    try:
        stats, _ = model_statistics(model, spark_source(spark_df, view), target, weight)
        return stats
    except (NotPushable, Refused):
        return None
    finally:
        spark_df.sparkSession.catalog.dropTempView(view)


def _spark_partition_statistics(model: Any, spark_df: Any, target: str, weight: str | None) -> Any:
    """Each partition summarised by nbapp on its executor; the statistics added on the driver."""
    from nbapp.persist import stats_from_json, stats_to_json

    params = model.params()
    columns = _columns(model, target, weight)
    _refuse_nested_spark(spark_df, columns)

    def summarise_partition(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        total = None
        try:
            for frame in frames:
                part = _summarize(params, frame, target, weight)
                if part is not None:
                    total = part if total is None else total + part
        except DataError as exc:      # bad data travels back as its sentence, not a Java stack trace
            yield pd.DataFrame({"stats": [None], "error": [str(exc)]})
            return
        if total is not None:
            yield pd.DataFrame({"stats": [stats_to_json(total)], "error": [None]})

    summaries = spark_df.select(*columns).mapInPandas(summarise_partition, schema="stats string, error string")
    try:
        rows = summaries.collect()
    except Exception as exc:
        missing = re.search(r"No module named '([^']+)'", str(exc))
        if missing:         # the executors' Python is not the one nbapp is installed in
            raise RuntimeError(f"Spark's Python workers cannot import {missing.group(1)!r}: install nbapp and its "
                               "dependencies where they run, or set PYSPARK_PYTHON to an interpreter that has "
                               "them (see docs/scale.md).") from exc
        raise
    errors = [r["error"] for r in rows if r["error"] is not None]
    if errors:
        raise DataError(f"In the Spark table (rows numbered within a batch of one partition): {errors[0]}")
    return _total([stats_from_json(model, r["stats"]) for r in rows])


# Spark's nested types (their typeName) -> how a sentence names their cells.
_SPARK_NESTED = {"array": "arrays", "map": "maps", "struct": "structs"}


def _refuse_nested_spark(spark_df: Any, columns: list[str]) -> None:
    """Array, map and struct columns among those used, named from the schema before any job runs
    (on the workers they fail deep inside pandas)."""
    for field in spark_df.schema.fields:
        what = _SPARK_NESTED.get(field.dataType.typeName()) if field.name in columns else None
        if what:
            raise nested_error(field.name, what, "the Spark table")


def predict_spark(model: Any, spark_df: Any) -> Any:
    """The Spark table with the predicted class and P(c | x) per class, computed on the executors."""
    from nbapp.io import predictions_frame

    text = model.to_json()
    sample = predictions_frame(model, spark_df.limit(1).toPandas())
    schema = _spark_schema(sample)

    def predict_partition(frames: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        from nbapp.model import NaiveBayes

        local = NaiveBayes.from_json(text)
        for frame in frames:
            yield predictions_frame(local, frame).astype({c: str for c in sample.columns if sample[c].dtype == object})

    return spark_df.mapInPandas(predict_partition, schema=schema)


def _spark_schema(sample: pd.DataFrame) -> str:
    kinds = {"f": "double", "i": "bigint", "b": "boolean"}
    return ", ".join(f"`{c}` {kinds.get(sample[c].dtype.kind, 'string')}" for c in sample.columns)


# -- Dask ----------------------------------------------------------------------------------------
def fit_dask(model: Any, dask_df: Any, target: str, weight: str | None = None) -> Any:
    """Fit the model on a Dask DataFrame: each partition summarised by a task, the statistics
    added in a tree (``dask.delayed``), only they travel between workers."""
    import dask

    params = model.params()
    columns = _columns(model, target, weight)
    missing = [c for c in columns if c not in dask_df.columns]
    if missing:
        raise DataError(f"The Dask table has no column {missing[0]!r}; its columns are {list(dask_df.columns)[:10]}.")
    _refuse_nested_dask(dask_df, columns)
    parts = [dask.delayed(_summarize)(params, p, target, weight) for p in dask_df[columns].to_delayed()]
    while len(parts) > 1:          # a tree reduction: pairs, then pairs of pairs
        parts = [dask.delayed(_total)(parts[i:i + 2]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    total = parts[0].compute() if parts else None
    if total is None:
        raise DataError("The table has no rows; nothing to fit.")
    return model.fit_stats(total, target, weight)


def _refuse_nested_dask(dask_df: Any, columns: list[str]) -> None:
    """Columns of lists, dicts or Arrow nested types among those used, named before any task runs.

    The table's own types show Arrow nested columns (``dd.read_parquet``). A pandas frame given to
    ``dd.from_pandas`` is looked at as it was given: Dask turns its object columns into text
    before a partition is made (its ``dataframe.convert-string`` option, on by default), so that a
    list reaches nbapp as the text '[1, 2]', a category like any other. The expression that holds
    that frame is Dask's own (``expr.walk()``; a ``frame`` operand): if Dask changes it, the
    check finds no frame and the partitions' own check (_summarize) remains."""
    _refuse_nested_cells(dask_df._meta, columns, "the Dask table")
    expr = getattr(dask_df, "expr", None)
    for node in expr.walk() if hasattr(expr, "walk") else ():
        given = getattr(getattr(node, "operands", [None])[0], "_data", None)
        if isinstance(given, pd.DataFrame):
            _refuse_nested_cells(given, columns, "the Dask table")


def predict_dask(model: Any, dask_df: Any) -> Any:
    """The Dask table with the predicted class and P(c | x) per class (lazy, per partition)."""
    from nbapp.io import predictions_frame

    text = model.to_json()
    meta = predictions_frame(model, dask_df._meta if len(dask_df._meta) else dask_df.head(1))

    def predict_partition(frame: pd.DataFrame) -> pd.DataFrame:
        from nbapp.model import NaiveBayes

        return predictions_frame(NaiveBayes.from_json(text), frame)

    return dask_df.map_partitions(predict_partition, meta=meta.iloc[:0])
