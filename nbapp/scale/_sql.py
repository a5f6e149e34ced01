"""Fit from a table in a database: the statistics are computed inside it, only they leave it."""

from __future__ import annotations

from typing import Any, Iterator

from nbapp.errors import DataError, shown
from nbapp.scale._aggregates import NotPushable, Refused, model_statistics

__all__ = ["fit_sql", "sample_sql", "fit_query", "sample_query"]

# First words of a query (anything else is a table name).
_QUERY_WORDS = ("select", "with", "values", "from", "table", "(")


def fit_sql(model: Any, source: str, target: str, url: Any = "duckdb://", weight: str | None = None,
            progress: Any = None) -> Any:
    """Fit ``model`` (a NaiveBayes, fitted or not: it is refitted) on the rows of ``source`` in a
    database, and return it. Every statistic is a GROUP BY aggregate computed inside the
    database in one query (:mod:`nbapp.scale._aggregates`); only the statistics leave it.

    ``source``: a table name (``trips``, ``public.trips``) or a query (``SELECT ...``, in the
    database's own SQL). ``url`` names the database as SQLAlchemy and Ibis do:
    ``duckdb://`` (in memory, e.g. for ``SELECT * FROM 'trips.parquet'``),
    ``duckdb:///abs/path/to/file.db``, ``postgresql://user:password@host:port/database``; or an
    open connection (a ``duckdb`` connection or a psycopg 3 connection), left open.

    The model equals ``model.fit`` on the same rows read into pandas (counts exactly, P(c | x)
    to 1e-12). A column whose type states no aggregates (text: its tokens must be
    scikit-learn's) is streamed from DuckDB in batches, and refused by name by PostgreSQL. A
    value the fit refuses is named by streaming the rows (rows numbered from 0 in the
    query's order). ``progress(rows_done, rows_total)``: DuckDB's share done while the query
    runs (when the rows are known in advance), and always a last call with the rows read.
    """
    if not isinstance(source, str) or not source.strip():
        raise DataError("Give fit_sql a table name or a SELECT query as its source.")
    kind, con, own = _connection(url)
    try:
        query, where = _query(source, "duckdb" if kind == "duckdb" else "postgres")
        return fit_query(model, kind, con, query, where, target, weight, progress)
    finally:
        if own:
            con.close()


def fit_query(model: Any, kind: str, con: Any, query: str, where: str, target: str, weight: str | None,
              progress: Any) -> Any:
    """:func:`fit_sql` of a checked query (``kind``: "duckdb" or "postgres", ``con`` open;
    ``where``: the rows in words for sentences)."""
    engine = _source(kind, con, query, where)
    try:
        stats, _ = model_statistics(model, engine, target, weight, progress=progress)
    except _engine_errors() as exc:
        raise DataError(f"The database cannot compute the statistics of {where}: {_first_line(exc)}") from None
    except NotPushable as exc:
        if kind != "duckdb":
            raise DataError(f"{exc}: {NOT_IN_POSTGRES}") from None
        return _fit_streamed(model, _batches(kind, con, query), target, weight, where, progress)
    except Refused:
        return _fit_streamed(model, _batches(kind, con, query), target, weight, where, progress)
    return model.fit_stats(stats, target, weight)


# What fit_sql says of a column whose type states no aggregates, in a database that cannot stream it.
NOT_IN_POSTGRES = ("its statistics cannot be computed inside the database. Fit it from a file (nbapp.fit_file) or "
                   "a DuckDB database, which stream such columns, or leave the column out of the model.")


def sample_sql(source: str, url: Any, n: int) -> Any:
    """The first rows (at most n) of a table or query, as pandas reads them: enough to propose
    feature types (the command line's ``nbapp fit --sql`` without ``--types``)."""
    kind, con, own = _connection(url)
    try:
        query, where = _query(source, "duckdb" if kind == "duckdb" else "postgres")
        return sample_query(kind, con, query, where, n)
    finally:
        if own:
            con.close()


def sample_query(kind: str, con: Any, query: str, where: str, n: int) -> Any:
    """:func:`sample_sql` of a checked query (as :func:`fit_query`)."""
    _source(kind, con, query, where)          # a query the database cannot run is refused here, in words
    sample = next(_batches(kind, con, f"SELECT * FROM ({query}) AS nbapp_sample LIMIT {int(n)}"), None)
    if sample is None:
        raise DataError(f"{where[0].upper()}{where[1:]} has no rows; nothing to fit.")
    return sample


def _connection(url: Any) -> tuple[str, Any, bool]:
    """(kind, connection, whether fit_sql opened it)."""
    if isinstance(url, str):
        from nbapp.scale._engines import connect

        kind, con = connect(url)
        return kind, con, True
    module = type(url).__module__
    if module.startswith("duckdb") or module.startswith("_duckdb"):
        return "duckdb", url, False
    if module.startswith("psycopg"):
        return "postgres", url, False
    raise DataError(f"url must be a database URL or an open DuckDB / psycopg connection, not {type(url).__name__}.")


def _query(source: str, dialect: str) -> tuple[str, str]:
    """The source as a query and in words: a query checked to be one SELECT (issue 31, item 12:
    ``SELECT 1; COPY (...) TO 'x.csv'`` wrote the file), a table name quoted as the database
    quotes it (sqlglot reads the dotted name)."""
    text = source.strip().rstrip(";").strip()
    if text.split(None, 1)[0].lower().startswith(_QUERY_WORDS):
        return (_duckdb_select(text) if dialect == "duckdb" else _postgres_select(text)), "the query"
    import sqlglot
    from sqlglot import exp

    try:
        table = exp.to_table(text, dialect=dialect)
    except sqlglot.errors.SqlglotError:        # ParseError, or TokenError for an unbalanced quote
        raise DataError(f"{shown(text)} is neither a table name nor a SELECT query; quote a name as "
                        "\"my table\" or write SELECT * FROM ...") from None
    return f"SELECT * FROM {table.sql(dialect=dialect)}", f"the table {shown(text)}"


def _duckdb_select(text: str) -> str:
    """``text`` when DuckDB's own parser reads it as exactly one SELECT statement."""
    import duckdb

    try:
        statements = duckdb.extract_statements(text)
    except duckdb.Error as exc:
        raise DataError(f"DuckDB cannot read the query: {_first_line(exc)}") from None
    _one_select([s.type == duckdb.StatementType.SELECT for s in statements])
    return statements[0].query.strip()


# What no query of fit_sql may hold, even inside a SELECT: PostgreSQL's SELECT ... INTO makes a
# table and a WITH may hold an INSERT, UPDATE or DELETE (the transaction is read-only as well).
_WRITES = ("Into", "Insert", "Update", "Delete", "Merge", "Create", "Drop", "Alter", "Command", "Copy")


def _postgres_select(text: str) -> str:
    """``text`` when sqlglot reads it as exactly one SELECT (or VALUES) that writes nothing."""
    import sqlglot
    from sqlglot import exp

    try:
        statements = [s for s in sqlglot.parse(text, dialect="postgres") if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise DataError(f"The query cannot be read as PostgreSQL's SQL: {_first_line(exc)}") from None
    _one_select([isinstance(s, (exp.Query, exp.Values)) for s in statements])
    writes = [type(node).__name__ for node in statements[0].walk() if type(node).__name__ in _WRITES]
    if writes:
        raise DataError(f"The query holds {writes[0].upper()}: fit_sql reads rows with one SELECT and writes nothing.")
    return text


def _one_select(selects: list[bool]) -> None:
    """Refuse anything but one statement that is a SELECT."""
    if len(selects) != 1:
        raise DataError(f"The query holds {len(selects)} statements; give fit_sql one SELECT (no ';' between "
                        "statements).")
    if not selects[0]:
        raise DataError("The query is not a SELECT; fit_sql reads rows with one SELECT and writes nothing.")


def _source(kind: str, con: Any, query: str, where: str) -> Any:
    from nbapp.scale._engines import duckdb_source, postgres_source

    return duckdb_source(con, query, where) if kind == "duckdb" else postgres_source(con, query, where)


def _batches(kind: str, con: Any, query: str) -> Iterator[Any]:
    from nbapp.scale._engines import duckdb_batches, postgres_batches

    return duckdb_batches(con, query) if kind == "duckdb" else postgres_batches(con, query)


def _fit_streamed(model: Any, batches: Iterator[Any], target: str, weight: str | None, where: str,
                  progress: Any) -> Any:
    """The rows in batches, each summarised by the model, the statistics added."""
    stats, done = None, 0
    for frame in batches:
        try:
            part = model.summarize(frame, target, weight)
        except DataError as exc:
            raise DataError(f"In {where} (rows numbered from 0 in its order): {exc}") from None
        stats = part if stats is None else stats + part
        done += len(frame)
    if stats is None:
        raise DataError(f"{where[0].upper()}{where[1:]} has no rows; nothing to fit.")
    if progress is not None:
        progress(done, done)
    return model.fit_stats(stats, target, weight)


def _engine_errors() -> tuple[type[BaseException], ...]:
    from nbapp.scale._engines import engine_errors

    return engine_errors()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
