"""The operator's databases, named the way Streamlit names them (issue 34, item 2).

Whoever runs the server names each database once, in ``.streamlit/secrets.toml``, under
Streamlit's own key for connections, with the tables or views it offers::

    [connections.shop]
    url = "postgresql://reader:secret@db.example.org:5432/shop"
    tables = ["public.orders", "public.customers"]
    allow_sql = true          # visitors may type one SELECT (read only, time-limited); default false

    [connections.local]
    url = "duckdb:////srv/data/penguins.db"
    tables = ["penguins"]

:func:`parse_connections` reads that mapping into :class:`Connection` values that say what a
visitor may know (name, kind, tables, whether a SELECT may be typed): never the URL, which
:func:`connection_url` gives the server alone. A visitor picks a :class:`Relation` of a
connection (an offered table, quoted as identifiers, never pasted into SQL; or, where allowed,
one typed SELECT), and the functions below read it where it lives: its tables and columns
(:func:`database_tables`), a sample of its first rows to propose types from
(:func:`database_sample`), a fit computed inside the database (:func:`fit_database`, only the
statistics leave it, :func:`nbapp.fit_sql`) and a k-fold cross-validation whose fold
statistics are one GROUP BY with the fold as one more key (:func:`cross_validate_database`, as
:func:`nbapp.cross_validate_file` does for files).

Every session nbapp opens only reads: PostgreSQL's transactions are READ ONLY
(:func:`nbapp.scale._engines.connect`), a DuckDB file is opened read_only with its access to
other files switched off. A typed SELECT is checked to be one SELECT that writes nothing, and
runs under a time limit: PostgreSQL's ``statement_timeout`` for the session of the call, DuckDB
interrupted when the call outlives it.
"""

from __future__ import annotations

import copy
import logging
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from nbapp.errors import DataError, shown

__all__ = ["Connection", "Connections", "Relation", "DatabaseTable", "parse_connections", "read_connections",
           "connection_url", "database_tables", "database_sample", "fit_database", "cross_validate_database",
           "TYPED_TIMEOUT_SECONDS"]

# The schemes a connection's url may have, and the database each names.
KINDS = {"postgresql": "PostgreSQL", "postgres": "PostgreSQL", "duckdb": "DuckDB"}
# Seconds a typed SELECT may run unless the operator sets ``timeout`` for its connection.
TYPED_TIMEOUT_SECONDS = 30.0
# The fold of a row in the database, a column of nbapp's own (quoted, so no user column clashes by case).
FOLD = "__nbapp_fold"
# A function that changes the session's settings from inside a SELECT (it could lift the time limit).
_SESSION_FUNCTIONS = ("set_config",)


@dataclass(frozen=True)
class Connection:
    """What a visitor may know of one of the operator's databases: its name, its kind
    ("postgresql" or "duckdb"), the tables or views it offers (as the database's catalog spells
    them, schema first where given), whether a visitor may type one SELECT, and that SELECT's
    time limit in seconds. Never its URL."""

    name: str
    kind: str
    tables: tuple[str, ...]
    allow_sql: bool = False
    timeout: float = TYPED_TIMEOUT_SECONDS

    @property
    def label(self) -> str:
        """The database's own name: "PostgreSQL" or "DuckDB"."""
        return KINDS[self.kind]

    def relation(self, table: str | None = None, select: str | None = None) -> "Relation":
        """The rows a visitor asked for: one of the offered tables, or a typed SELECT where the
        operator allows it (DataError otherwise, in words a visitor can act on)."""
        if (table is None) == (select is None):
            raise DataError("Choose a table of the connection, or type one SELECT, not both.")
        if table is not None:
            if table not in self.tables:
                offered = ", ".join(repr(t) for t in self.tables) or "no table"
                raise DataError(f"The connection {self.name!r} offers {offered}, not {shown(table)}; choose one "
                                "of its tables.")
            return Relation(self.name, self.kind, table=table)
        if not self.allow_sql:
            raise DataError(f"The connection {self.name!r} offers its tables only; a typed SELECT needs its "
                            "operator to set allow_sql = true for it in .streamlit/secrets.toml.")
        if not isinstance(select, str) or not select.strip():
            raise DataError("Type one SELECT query, e.g. SELECT * FROM orders WHERE year = 2024.")
        return Relation(self.name, self.kind, select=select.strip(), timeout=self.timeout)


@dataclass(frozen=True)
class Connections:
    """The connections a secrets file names (``offered``, in its order) and a sentence for each
    section that could not be read (``problems``: for the operator; they hold no URL)."""

    offered: tuple[Connection, ...] = ()
    problems: tuple[str, ...] = ()

    def named(self, name: str) -> Connection:
        for connection in self.offered:
            if connection.name == name:
                return connection
        names = ", ".join(repr(c.name) for c in self.offered) or "none"
        raise DataError(f"There is no connection {shown(name)} (the server names {names}); choose one of them.")


@dataclass(frozen=True)
class Relation:
    """Rows of one connection: an offered ``table`` or a typed ``select`` (with its ``timeout``
    in seconds). A plain value: it can key a cache and be written into an address."""

    connection: str
    kind: str
    table: str | None = None
    select: str | None = None
    timeout: float | None = None

    @property
    def where(self) -> str:
        """The rows in words, for sentences."""
        if self.table is not None:
            return f"the table {shown(self.table)} of {self.connection!r}"
        return f"the query on {self.connection!r}"


@dataclass(frozen=True)
class DatabaseTable:
    """An offered table as the database holds it: its columns with the database's name of each
    one's type; ``problem``: why it cannot be read (a sentence), its columns then empty."""

    name: str
    columns: tuple[tuple[str, str], ...]
    problem: str | None = None


# -------------------------------------------------------------------------------------------------
# the operator's secrets
# -------------------------------------------------------------------------------------------------
def parse_connections(secrets: Mapping[str, Any]) -> Connections:
    """The connections of a secrets mapping (``st.secrets``, or :func:`read_connections`'s file
    read): every ``[connections.NAME]`` with a ``url`` nbapp can open. A section it cannot
    read becomes a sentence in ``problems`` and the others stay offered."""
    sections = secrets.get("connections", {}) if isinstance(secrets, Mapping) else {}
    if not isinstance(sections, Mapping):
        return Connections((), ("[connections] in .streamlit/secrets.toml must hold tables such as "
                                "[connections.NAME], not a single value.",))
    offered, problems = [], []
    for name, section in sections.items():
        try:
            offered.append(_connection(str(name), section))
        except DataError as exc:
            problems.append(str(exc))
    return Connections(tuple(offered), tuple(problems))


def read_connections(path: Any) -> Connections:
    """:func:`parse_connections` of a secrets.toml file (no file: no connections)."""
    import tomllib
    from pathlib import Path

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return Connections()
    try:
        return parse_connections(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        return Connections((), (f"{Path(path).name} is not valid TOML ({exc}); correct it and restart the app.",))


def connection_url(secrets: Mapping[str, Any], name: str) -> str:
    """The url of connection ``name``: for the server's own calls, never for a page."""
    section = secrets.get("connections", {}).get(name) if isinstance(secrets, Mapping) else None
    url = section.get("url") if isinstance(section, Mapping) else None
    if not isinstance(url, str):
        raise DataError(f"There is no connection {shown(name)} with a url in .streamlit/secrets.toml.")
    return url


def _connection(name: str, section: Any) -> Connection:
    """One ``[connections.NAME]`` section as a Connection (DataError naming the key and the fix)."""
    where = f"[connections.{name}] in .streamlit/secrets.toml"
    if not isinstance(section, Mapping):
        raise DataError(f"{where} must be a table of keys (url = \"...\", tables = [...]).")
    url = section.get("url")
    if not isinstance(url, str) or "://" not in url:
        raise DataError(f"{where} has no url; write url = \"postgresql://user:password@host:5432/database\" or "
                        "url = \"duckdb:////absolute/path/to/file.db\".")
    scheme, _, rest = url.partition("://")
    kind = scheme.lower().split("+")[0]
    if kind not in KINDS:
        raise DataError(f"{where} names a {scheme!r} database; nbapp opens PostgreSQL (postgresql://...) and DuckDB "
                        "files (duckdb:////absolute/path.db).")
    kind = "postgresql" if kind == "postgres" else kind
    if kind == "duckdb" and not rest.startswith("//"):
        raise DataError(f"{where} names no DuckDB file; write its absolute path after duckdb:// "
                        "(duckdb:////srv/data/file.db: three slashes, then the path's own).")
    tables = section.get("tables", [])
    if isinstance(tables, str):
        tables = [tables]
    if not isinstance(tables, Sequence) or not all(isinstance(t, str) and t.strip() for t in tables):
        raise DataError(f"{where}: tables must be a list of table names, e.g. tables = [\"public.orders\"].")
    allow_sql = section.get("allow_sql", False)
    if not isinstance(allow_sql, bool):
        raise DataError(f"{where}: allow_sql must be true or false, not {allow_sql!r}.")
    timeout = section.get("timeout", TYPED_TIMEOUT_SECONDS)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
        raise DataError(f"{where}: timeout is the seconds a typed SELECT may run, a number above 0 and at most 3600, "
                        f"not {timeout!r}.")
    if not tables and not allow_sql:
        raise DataError(f"{where} offers nothing; list its tables (tables = [\"public.orders\"]) or set "
                        "allow_sql = true.")
    return Connection(name, kind, tuple(t.strip() for t in tables), allow_sql, float(timeout))


# -------------------------------------------------------------------------------------------------
# reading a relation where it lives
# -------------------------------------------------------------------------------------------------
def database_tables(url: str, tables: Sequence[str], *, connection: str = "the database"
                    ) -> tuple[DatabaseTable, ...]:
    """Each offered table with its columns and their types in the database (a LIMIT 0 of it);
    a table the database cannot read keeps its name and says why in ``problem``.
    ``connection``: its name, for the sentence when the database cannot be opened."""
    with _session(url, None, connection) as (kind, con):
        out = []
        for name in tables:
            try:
                query = _table_query(name, kind)
                out.append(DatabaseTable(name, _columns(kind, con, query, f"the table {shown(name)}")))
            except DataError as exc:
                out.append(DatabaseTable(name, (), str(exc)))
        return tuple(out)


def database_sample(url: str, relation: Relation, rows: int) -> pd.DataFrame:
    """The first ``rows`` rows of the relation (``LIMIT``), as pandas reads them: what the
    pages show and propose the types and the target from (:func:`nbapp.propose_feature_types`)."""
    from nbapp.scale._sql import sample_query

    if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or rows < 1:
        raise DataError(f"A sample needs at least one row, not {rows!r}.")
    with _session(url, relation, relation.connection) as (kind, con):
        return sample_query(_engine(kind), con, _query(relation, kind), relation.where, int(rows))


def fit_database(model: Any, url: str, relation: Relation, target: str, weight: str | None = None,
                 progress: Any = None) -> Any:
    """Fit ``model`` on every row of the relation, inside the database: one GROUP BY of the
    statistics (:func:`nbapp.fit_sql`); only they leave it. Equal to ``model.fit`` of the rows
    read into pandas. ``progress(rows_done, rows_total)`` as fit_sql's."""
    from nbapp.scale._sql import fit_query

    with _session(url, relation, relation.connection) as (kind, con):
        return fit_query(model, _engine(kind), con, _query(relation, kind), relation.where, target, weight, progress)


def cross_validate_database(model: Any, url: str, relation: Relation, target: str, k: int = 5,
                            weight: str | None = None, progress: Any = None) -> Any:
    """k-fold cross-validation of ``model``'s configuration on the relation, as
    :func:`nbapp.cross_validate_file` does on a file: every fold's statistics from one GROUP BY
    inside the database with the fold as one more key, fold f's model the total minus fold f's
    statistics; then the rows streamed once (a batch in memory at a time), each predicted by
    its fold's model. Returns the :class:`nbapp.evaluate.Evaluation` the Evaluate page shows.

    A row's fold comes from a hash of the whole row and its place among equal rows
    (:func:`_with_folds`): the same in both passes and on every run, whatever order the database
    returns the rows in (a row number would not do: PostgreSQL's scans may start mid-table).
    ``progress(done, total)`` counts rows over both passes."""
    from nbapp.scale._evaluate import _score_folds, _total

    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise DataError(f"Cross-validation needs at least 2 folds, not {k!r}.")
    k = int(k)
    with _session(url, relation, relation.connection) as (kind, con):
        folds = _Folds(_engine(kind), con, _with_folds(_query(relation, kind), k, kind), relation.where, k, progress)
        fold_stats = folds.statistics(model, target, weight)
        total = _total(fold_stats)
        models = {fold: copy.deepcopy(model).fit_stats(total - stats, target, weight)
                  for fold, stats in fold_stats.items()}
        used = [target, *model.features_, *([weight] if weight else [])]
        return _score_folds(models, folds.batches(used, second=True), target, weight, list(total.classes), k)


class _Folds:
    """The rows of a relation with their fold (:func:`_with_folds`) on an open connection: the
    folds' statistics (pass 1) and the rows in batches (pass 2), counting both for ``progress``."""

    def __init__(self, engine: str, con: Any, folded: str, where: str, k: int, progress: Any) -> None:
        self.engine, self.con, self.folded, self.where, self.k, self.progress = engine, con, folded, where, k, progress
        self.rows = 0

    def statistics(self, model: Any, target: str, weight: str | None) -> dict[int, Any]:
        """Each fold's statistics: one GROUP BY inside the database with the fold as one more key
        (streamed into ``summarize`` where the database cannot: a type without aggregates in
        DuckDB, rows a fit refuses, which the stream then names)."""
        from nbapp.scale._aggregates import NotPushable, Refused, model_statistics
        from nbapp.scale._evaluate import _fold_statistics
        from nbapp.scale._sql import NOT_IN_POSTGRES, _engine_errors, _first_line, _source

        def first_pass(done: int, total: int) -> None:
            if self.progress is not None:
                self.progress(done, 2 * total)

        source = _source(self.engine, self.con, self.folded, self.where)
        used = [target, *model.features_, *([weight] if weight else [])]
        try:
            parts, self.rows = model_statistics(model, source, target, weight, part=FOLD, parts=self.k,
                                                progress=first_pass)
            fold_stats = {fold: stats for fold, stats in enumerate(parts) if stats.classes}
        except _engine_errors() as exc:
            raise DataError(f"The database cannot compute the statistics of {self.where}: {_first_line(exc)}") from None
        except NotPushable as exc:
            if self.engine != "duckdb":
                raise DataError(f"{exc}: {NOT_IN_POSTGRES}") from None
            fold_stats = _fold_statistics(model, self.batches(used), target, weight, self.k)
        except Refused:
            fold_stats = _fold_statistics(model, self.batches(used), target, weight, self.k)
        if len(fold_stats) < self.k:
            raise DataError(f"{self.where[0].upper()}{self.where[1:]} has too few rows for {self.k} folds; choose "
                            "fewer folds.")
        return fold_stats

    def batches(self, columns: list[str], *, second: bool = False) -> Iterator[tuple[pd.DataFrame, np.ndarray]]:
        """(frame of ``columns``, fold of each row) in batches; rows numbered from 0 in the stream."""
        from nbapp.scale._sql import _batches

        names = ", ".join(_identifier(c) for c in dict.fromkeys(columns))
        done = 0
        for frame in _batches(self.engine, self.con, f"SELECT {names}, {_identifier(FOLD)} FROM ({self.folded}) "
                                                     "AS nbapp_folded"):
            done += len(frame)
            if self.progress is not None and second:
                self.progress(self.rows + done, 2 * max(self.rows, done))
            yield frame.drop(columns=[FOLD]), frame[FOLD].to_numpy(dtype=np.int64)
        self.rows = max(self.rows, done)


# -------------------------------------------------------------------------------------------------
# queries
# -------------------------------------------------------------------------------------------------
def _engine(kind: str) -> str:
    """The engine module's name of a connection's kind."""
    return "duckdb" if kind == "duckdb" else "postgres"


def _dialect(kind: str) -> str:
    return "duckdb" if kind == "duckdb" else "postgres"


def _identifier(name: str) -> str:
    """A column name quoted as both databases quote identifiers."""
    return '"' + name.replace('"', '""') + '"'


def _table_query(name: str, kind: str) -> str:
    """SELECT * FROM the table, its name read by sqlglot (schema.table, quoted parts) and every
    part quoted as an identifier: an operator's name is never pasted into SQL."""
    import sqlglot
    from sqlglot import exp

    try:
        table = exp.to_table(name, dialect=_dialect(kind))
    except sqlglot.errors.SqlglotError:
        raise DataError(f"{shown(name)} is not a table name; write it as schema.table, each part in double "
                        "quotes where it holds spaces or dots.") from None
    return f"SELECT * FROM {table.sql(dialect=_dialect(kind), identify=True)}"


def _query(relation: Relation, kind: str) -> str:
    """The relation as one checked SELECT of the connection's dialect."""
    from nbapp.scale._sql import _duckdb_select, _postgres_select

    if relation.table is not None:
        return _table_query(relation.table, kind)
    text = (relation.select or "").strip().rstrip(";").strip()
    query = _duckdb_select(text) if kind == "duckdb" else _postgres_select(text)
    _refuse_session_functions(query, kind)
    return query


def _refuse_session_functions(query: str, kind: str) -> None:
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(query, dialect=_dialect(kind))
    except sqlglot.errors.SqlglotError:
        return                   # the database's own parser accepted it; it names its own errors
    for node in tree.find_all(exp.Anonymous, exp.Func):
        name = (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
        if name in _SESSION_FUNCTIONS:
            raise DataError(f"The query calls {name}, which changes the session's settings; a typed query only "
                            "reads rows.")


def _with_folds(query: str, k: int, kind: str) -> str:
    """The rows of ``query`` with their fold (0..k-1), whatever order the database returns them
    in: a 64-bit hash h of the whole row, then the row's place among the rows of its h (ordered
    by the row itself: only equal rows tie, and equal rows are interchangeable), and the fold is
    a hash of (h, place) modulo k. Equal rows are dealt to different folds as distinct ones are,
    and the hash of a row alone decides nothing about which configuration is evaluated."""
    fold = _identifier(FOLD)
    if kind == "duckdb":
        return (f"SELECT * EXCLUDE (nbapp_h, nbapp_s), CAST(hash(nbapp_h, row_number() OVER "
                f"(PARTITION BY nbapp_h ORDER BY nbapp_s)) % {k} AS BIGINT) AS {fold} FROM "
                f"(SELECT nbapp_row.*, hash(nbapp_row) AS nbapp_h, nbapp_row AS nbapp_s FROM ({query}) AS nbapp_row)")
    place = "row_number() OVER (PARTITION BY nbapp_key.h ORDER BY nbapp_key.t)"
    return (f"SELECT nbapp_row.*, CAST(mod(mod(hashint8extended(nbapp_key.h # {place}, 0), {k}) + {k}, {k}) AS bigint) "
            f"AS {fold} FROM ({query}) AS nbapp_row CROSS JOIN LATERAL (SELECT t, hashtextextended(t, 0) AS h FROM "
            "(SELECT CAST(nbapp_row AS text) AS t) AS nbapp_text) AS nbapp_key")


def _columns(kind: str, con: Any, query: str, where: str) -> tuple[tuple[str, str], ...]:
    """(column, the database's name of its type) of a query, from a LIMIT 0 of it."""
    if kind == "duckdb":
        import duckdb

        try:
            described = con.execute(f"DESCRIBE {query}").fetchall()
        except duckdb.Error as exc:
            raise DataError(f"DuckDB cannot read {where}: {_first(exc)}") from None
        return tuple((str(row[0]), str(row[1])) for row in described)
    import psycopg

    try:
        with con.cursor() as cur:
            cur.execute(f"SELECT * FROM ({query}) AS nbapp_columns LIMIT 0")
            return tuple((d.name, _postgres_type(con, d.type_code)) for d in cur.description)
    except psycopg.Error as exc:
        raise DataError(f"PostgreSQL cannot read {where}: {_first(exc)}") from None
    finally:
        con.rollback()


def _postgres_type(con: Any, oid: int) -> str:
    info = con.adapters.types.get(oid)
    return info.name if info is not None else f"type {oid}"


# -------------------------------------------------------------------------------------------------
# one read-only session per call
# -------------------------------------------------------------------------------------------------
@contextmanager
def _session(url: str, relation: Relation | None, connection: str) -> Iterator[tuple[str, Any]]:
    """("duckdb" | "postgresql", an open connection) that only reads, closed at the end. For a
    typed SELECT, its time limit: PostgreSQL's statement_timeout for the session; DuckDB
    interrupted when the call outlives it. A query stopped by the limit is a DataError that
    says so. A database that cannot be opened is named by its connection's name only (the
    driver's sentence holds its host or path: it goes to the server's log)."""
    from nbapp.scale._engines import connect

    try:
        engine, con = connect(url)
    except DataError as exc:
        logging.getLogger("nbapp").warning("connection %r: %s", connection, exc)
        raise DataError(f"The database of the connection {connection!r} cannot be opened now; the server's log says "
                        "why (its operator can mend the url in .streamlit/secrets.toml).") from None
    kind = "duckdb" if engine == "duckdb" else "postgresql"
    limit = relation.timeout if relation is not None and relation.select is not None else None
    timer = None
    try:
        if kind == "duckdb":
            con.execute("SET enable_external_access = false")      # the file only; it cannot be switched back
            if limit is not None:
                timer = threading.Timer(limit, _interrupt, (con,))
                timer.daemon = True
                timer.start()
        else:
            # every float as the shortest text that reads back exactly (PostgreSQL 12 on does
            # so for any value above 0; older servers need 3): a row's text is its fold's key
            con.execute("SET extra_float_digits = 3")
            if limit is not None:
                con.execute(f"SET statement_timeout = {max(int(limit * 1000), 1)}")
            con.commit()                      # session settings: every later transaction keeps them
        try:
            yield kind, con
        except Exception as exc:
            if limit is not None and (_timed_out(exc) or (timer is not None and timer.finished.is_set())):
                raise DataError(f"The query ran past {limit:g} s, the limit the server sets for a typed query on "
                                f"{relation.connection!r}; narrow it (a WHERE, fewer columns) or ask the server's "
                                "operator to offer its rows as a table.") from None
            raise
    finally:
        if timer is not None:
            timer.cancel()
        con.close()


def _interrupt(con: Any) -> None:
    """Stop DuckDB's running query (none running, or the connection closing: nothing to stop)."""
    try:
        con.interrupt()
    except Exception:      # noqa: BLE001 (a closed connection has nothing to interrupt)
        pass


def _timed_out(exc: BaseException | None) -> bool:
    """Whether PostgreSQL cancelled a statement of the chain of ``exc`` (its statement_timeout)."""
    seen = 0
    while exc is not None and seen < 10:
        if type(exc).__name__ == "QueryCanceled":
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _first(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
