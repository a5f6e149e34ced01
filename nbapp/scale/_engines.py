"""The engines nbapp hands its aggregates to, each through its own driver.

* **DuckDB** (embedded; :func:`duckdb_source`): files (:func:`nbapp.fit_file`), a database
  file or an in-memory database (:func:`nbapp.fit_sql` with ``duckdb:///path.db`` or
  ``duckdb://``). Its progress is polled from another thread (``query_progress``).
* **PostgreSQL** (:func:`postgres_source`), through psycopg 3: ``postgresql://user@host:port/db``.
* **Spark SQL** (:func:`spark_source`): a DataFrame registered as a temporary view
  (:func:`nbapp.fit_spark`).

A source is the SQL whose rows are the table, its columns with what each holds, a runner and
the rule that reads a column's distinct values back (:class:`nbapp.scale._aggregates.Source`).
Each engine also streams a query's rows in batches (``*_batches``), for the types that state no
aggregates and for naming the row of a refused value.
"""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any, Callable, Iterator

import pandas as pd

from nbapp.errors import DataError
from nbapp.scale._aggregates import Source

__all__ = ["duckdb_source", "postgres_source", "spark_source", "duckdb_batches", "postgres_batches",
           "typed_values", "connect", "engine_errors"]

# How often DuckDB's share done is read while a query runs.
PROGRESS_SECONDS = 0.1
STREAM_ROWS = 100_000


def typed_values(column: str, raw: list[Any]) -> pd.Series:
    """Values as the engine returned them, as pandas holds them in a frame read from the engine
    (a whole-number column with a NULL becomes floats, as in ``read_sql``); DECIMAL values are
    floats, as DuckDB's and pandas' readers make them."""
    if any(isinstance(v, Decimal) for v in raw):
        raw = [float(v) if isinstance(v, Decimal) else v for v in raw]
    return pd.Series(raw) if raw else pd.Series([], dtype=object)


# The engines' nested types (DuckDB's LIST / STRUCT / MAP / UNION and x[]; PostgreSQL's arrays,
# named with a leading underscore, and JSON), as a sentence names their cells.
_NESTED = (("[]", "lists"), ("list", "lists"), ("struct", "structs"), ("map", "maps"), ("union", "unions"),
           ("json", "JSON documents"), ("array", "arrays"))


def _kind(type_name: str) -> str:
    """What a column holds, from the engine's name of its type: "number", "boolean", "text",
    "nested: <what its cells are>" or "other"."""
    name = type_name.lower()
    for word, what in _NESTED:
        if word in name:
            return f"nested: {what}"
    if name.startswith("_"):
        return "nested: arrays"
    if name.startswith(("bool",)):
        return "boolean"
    if any(word in name for word in ("int", "double", "float", "real", "decimal", "numeric", "long", "short",
                                     "byte")) and "interval" not in name:
        return "number"
    if any(word in name for word in ("char", "text", "string", "varchar", "name")):
        return "text"
    return "other"


# -- DuckDB ------------------------------------------------------------------------------------------
def duckdb_source(con: Any, sql: str, where: str, *, columns: dict[str, str] | None = None,
                  values: Callable[[str, list[Any]], pd.Series] = typed_values) -> Source:
    """A DuckDB query as a source; ``columns`` overrides what each column holds (a file scan's
    parsed numbers), else DuckDB's own types say."""
    if columns is None:
        described = _duckdb_rows(con, f"DESCRIBE {sql}", where)
        columns = {row[0]: _kind(str(row[1])) for row in described}
    return Source(sql, "duckdb", columns, lambda query, progress: duckdb_run(con, query, progress, where), values,
                  where)


def _duckdb_rows(con: Any, sql: str, where: str) -> list[tuple[Any, ...]]:
    import duckdb

    try:
        return con.execute(sql).fetchall()
    except duckdb.InterruptException:
        raise                      # stopped by its caller (nbapp.scale._files.Stopped): not the data's fault
    except duckdb.Error as exc:
        raise DataError(f"DuckDB cannot read {where}: {_first_line(exc)}") from None


def duckdb_run(con: Any, sql: str, progress: Any, where: str) -> dict[str, list[Any]]:
    """Run a query; while it runs, report DuckDB's share done to ``progress`` (0..1) from this thread."""
    if progress is None:
        return _result(con.execute(sql))
    con.execute("SET enable_progress_bar = true")
    con.execute("SET enable_progress_bar_print = false")
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["result"] = _result(con.execute(sql))
        except BaseException as exc:      # re-raised in the caller's thread
            outcome["error"] = exc

    runner = threading.Thread(target=work, name="nbapp-duckdb", daemon=True)
    runner.start()
    try:
        while runner.is_alive():
            runner.join(PROGRESS_SECONDS)
            share = con.query_progress()
            if share >= 0:
                progress(share / 100)
    except BaseException:
        # progress raised (Streamlit stops a script at its next call, e.g. a progress bar's): the
        # query must not run on in DuckDB's threads after its caller has gone
        con.interrupt()
        runner.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


def _result(cursor: Any) -> dict[str, list[Any]]:
    names = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    return {name: [row[i] for row in rows] for i, name in enumerate(names)}


def duckdb_batches(con: Any, sql: str, rows: int = STREAM_ROWS) -> Iterator[pd.DataFrame]:
    """A query's rows as pandas frames of ``rows`` rows (Arrow batches), indexed from 0 on."""
    start = 0
    for batch in con.sql(sql).to_arrow_reader(rows):
        if batch.num_rows:
            frame = batch.to_pandas()
            frame.index = pd.RangeIndex(start, start + len(frame))
            start += len(frame)
            yield frame


# -- PostgreSQL ---------------------------------------------------------------------------------------
def postgres_source(conn: Any, sql: str, where: str) -> Source:
    """A PostgreSQL query as a source (types from a LIMIT 0 of it)."""
    import psycopg

    try:
        with conn.cursor() as cur:
            cur.execute(f"SELECT * FROM ({sql}) AS nbapp_columns LIMIT 0")
            columns = {d.name: _kind(_postgres_type(conn, d.type_code)) for d in cur.description}
    except psycopg.Error as exc:
        conn.rollback()
        raise DataError(f"PostgreSQL cannot read {where}: {_first_line(exc)}") from None
    return Source(sql, "postgres", columns, lambda query, progress: postgres_run(conn, query), typed_values, where)


def _postgres_type(conn: Any, oid: int) -> str:
    info = conn.adapters.types.get(oid)
    return info.name if info is not None else "other"


def postgres_run(conn: Any, sql: str) -> dict[str, list[Any]]:
    """Run a query (PostgreSQL reports no progress to its client)."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            names = [d.name for d in cur.description]
            rows = cur.fetchall()
    finally:
        conn.rollback()        # read only: end the transaction the query opened (or that failed)
    return {name: [row[i] for row in rows] for i, name in enumerate(names)}


def postgres_batches(conn: Any, sql: str, rows: int = STREAM_ROWS) -> Iterator[pd.DataFrame]:
    """A query's rows as frames, through a server-side cursor (memory bounded by one batch)."""
    start = 0
    with conn.transaction():
        with conn.cursor(name="nbapp_stream") as cur:
            cur.execute(sql)
            names = None
            while True:
                batch = cur.fetchmany(rows)
                if names is None:
                    names = [d.name for d in cur.description]
                if not batch:
                    break
                frame = pd.DataFrame.from_records(batch, columns=names, coerce_float=True)
                frame.index = pd.RangeIndex(start, start + len(frame))
                start += len(frame)
                yield frame


# -- Spark ----------------------------------------------------------------------------------------------
def spark_source(spark_df: Any, view: str, where: str = "the Spark table") -> Source:
    """A Spark DataFrame as a source: the temporary view ``view`` of it (the caller drops it),
    queried with ``spark.sql``."""
    from pyspark.sql import types as T

    spark_df.createOrReplaceTempView(view)
    session = spark_df.sparkSession

    def kind(field: Any) -> str:
        if isinstance(field.dataType, (T.ArrayType, T.MapType, T.StructType)):
            return f"nested: {field.dataType.typeName()}s"
        if isinstance(field.dataType, T.BooleanType):
            return "boolean"
        if isinstance(field.dataType, T.NumericType):
            return "number"
        if isinstance(field.dataType, T.StringType):
            return "text"
        return "other"

    columns = {f.name: kind(f) for f in spark_df.schema.fields}

    def run(sql: str, progress: Any) -> dict[str, list[Any]]:
        result = session.sql(sql)
        names = result.columns
        rows = result.collect()
        return {name: [row[i] for row in rows] for i, name in enumerate(names)}

    return Source(f"SELECT * FROM `{view}`", "spark", columns, run, typed_values, where, moments=True)


def engine_errors() -> tuple[type[BaseException], ...]:
    """The errors DuckDB and psycopg raise for a query they cannot run (those installed)."""
    errors: list[type[BaseException]] = []
    try:
        import duckdb

        errors.append(duckdb.Error)
    except ImportError:
        pass
    try:
        import psycopg

        errors.append(psycopg.Error)
    except ImportError:
        pass
    return tuple(errors)


# -- URLs -------------------------------------------------------------------------------------------------
def connect(url: str) -> tuple[str, Any]:
    """("duckdb" | "postgres", an open connection) for a URL as SQLAlchemy and Ibis write them:
    ``duckdb://`` (in memory), ``duckdb:///abs/path.db``, ``postgresql://user@host:port/db``."""
    scheme, sep, rest = url.partition("://")
    scheme = scheme.lower().split("+")[0]
    if not sep:
        raise DataError(f"{url!r} is not a database URL; write duckdb:///path/to/file.db, duckdb:// (in memory) "
                        "or postgresql://user@host:port/database.")
    if scheme == "duckdb":
        import duckdb

        path = rest[1:] if rest.startswith("/") else rest
        if path in ("", ":memory:"):
            return "duckdb", duckdb.connect()
        if not path.startswith("/"):
            path = "/" + path
        try:
            return "duckdb", duckdb.connect(path, read_only=True)
        except duckdb.Error as exc:
            raise DataError(f"Cannot open the DuckDB database {path!r}: {_first_line(exc)}") from None
    if scheme in ("postgresql", "postgres"):
        import psycopg

        try:
            con = psycopg.connect(f"postgresql://{rest}", autocommit=False)
        except psycopg.Error as exc:
            raise DataError(f"Cannot connect to PostgreSQL at {_without_password(url)!r}: {_first_line(exc)}") from None
        con.read_only = True        # every transaction nbapp opens only reads (issue 31, item 12)
        return "postgres", con
    raise DataError(f"nbapp fits from DuckDB (duckdb:// or duckdb:///path.db) and PostgreSQL "
                    f"(postgresql://user@host:port/db), not {scheme!r}; a Spark table goes through nbapp.fit_spark.")


def _without_password(url: str) -> str:
    scheme, _, rest = url.partition("://")
    user, at, host = rest.rpartition("@")
    if at and ":" in user:
        user = user.split(":")[0] + ":***"
    return f"{scheme}://{user}{at}{host}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
