"""A table (or, where the operator allows it, one typed SELECT) of one of the operator's databases
(issue 34, item 2): the connections named in ``.streamlit/secrets.toml`` as Streamlit names them
(``[connections.NAME]``, read through ``ui.connections``; the url never leaves the server). The
pages show the first rows (``LIMIT``), and the types are proposed from them; the model is fitted
inside the database on every row (``nbapp.scale.fit_database``: one GROUP BY, only the
statistics move) and Evaluate cross-validates there too (the fold as one more GROUP BY key,
``nbapp.scale.cross_validate_database``). The address names the connection and the table (or the
SELECT), never a url; a link whose connection or table the server no longer offers is refused
with a sentence."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from nbapp.scale import Relation
from ui import connections
from ui.sources.base import PROPOSAL_ROWS, Opened, proposed_work, two_columns
from ui.sources.stored import CountedWhereStored
from ui.text import counted, md
from ui.work import Work

#: Rows of the table read to propose types and to show on the pages (a LIMIT); the model sees every row.
SAMPLE_ROWS = PROPOSAL_ROWS
#: The Data page's two ways to name rows of a connection that allows a typed SELECT.
A_TABLE, A_SELECT = "An offered table", "One SELECT query"


@dataclass(frozen=True)
class Database(CountedWhereStored):
    """The rows ``relation`` names (a connection's name and one of its tables, or a typed SELECT
    with its time limit); ``sha256`` is of that relation: what the fit's caches are keyed by."""

    relation: Relation

    mode: ClassVar[str] = "Open a database table"
    described: ClassVar[str] = "database, fitted inside it"
    address_keys: ClassVar[tuple[str, ...]] = ("connection", "table", "sql")
    evaluated_where: ClassVar[str] = "On a database table"
    folds_dealt: ClassVar[str] = "by a hash of each whole row (equal rows dealt to the folds in turn)"

    @classmethod
    def of(cls, relation: Relation) -> "Database":
        said = "\0".join(str(part) for part in (relation.connection, relation.kind, relation.table, relation.select,
                                                 relation.timeout))
        name = relation.table if relation.table is not None else f"query on {relation.connection}"
        return cls(name=name, sha256=hashlib.sha256(said.encode()).hexdigest(), relation=relation)

    @property
    def stem(self) -> str:
        """The table as the catalog spells it ("public.orders": its dot is no suffix), or "query"."""
        return self.relation.table if self.relation.table is not None else "query"

    @property
    def label(self) -> str:
        """The database's own name ("PostgreSQL", "DuckDB")."""
        return {"postgresql": "PostgreSQL", "duckdb": "DuckDB"}.get(self.relation.kind, "the database")

    def open(self) -> Opened:
        df = connections.sample(self.relation, SAMPLE_ROWS)
        two_columns(self.name, df)
        notes = (f"A sample: the first {len(df):,} rows of {self.relation.where}. The model is fitted on every row "
                 f"inside {self.label}; only its statistics leave the database.",)
        work, reasons = proposed_work(self, df)
        return Opened(df, notes, work, reasons)

    def count(self, model: Any, work: Work) -> tuple[Any, int]:
        """fit_database with a progress bar; the model and the rows it saw."""
        bar = st.progress(0.0, text=f"Fitting on every row of {md(self.relation.where)} ({self.label} computes "
                                    "the statistics)…")
        seen = [0]

        def progress(done: int, total: int) -> None:
            seen[0] = total
            bar.progress(min(done / max(total, 1), 1.0), text=f"Fitting inside {self.label}: {done:,} of "
                                                                 f"{total:,} rows")

        try:
            connections.fit(model, self.relation, work.target, work.weight, progress=progress)
        finally:
            bar.empty()
        return model, seen[0] or int(model.class_counts_.sum())

    def cross_validate(self, model: Any, work: Work, *, k: int, progress: Callable[[int, int], None]) -> Any:
        """k-fold on every row inside the database: each fold's statistics one GROUP BY with the fold
        as one more key, then the rows streamed once, each predicted by its fold's model."""
        return connections.cross_validate(model, self.relation, work.target, k=k, weight=work.weight,
                                          progress=progress)

    # -- the address -------------------------------------------------------------------------------
    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        """connection=<name>&table=<table> (or &sql=<the SELECT>): names only, never a url."""
        relation = self.relation
        if relation.table is not None:
            return {"connection": relation.connection, "table": relation.table}, None
        return {"connection": relation.connection, "sql": relation.select or ""}, None

    @classmethod
    def from_address(cls, query: dict[str, str]) -> "Database | None":
        """The table (or SELECT) of a connection the server still offers (DataError otherwise)."""
        name = query.get("connection")
        if not name:
            return None
        offered = {c.name: c for c in connections.connections().offered}
        if name not in offered:
            raise DataError(f"this server no longer offers the database connection {_linked(name)}")
        connection = offered[name]
        table, select = query.get("table"), query.get("sql")
        if table:
            if table not in connection.tables:
                raise DataError(f"the connection {name!r} no longer offers the table {_linked(table)}")
            return cls.of(connection.relation(table=table))
        if select:
            if not connection.allow_sql:
                raise DataError(f"the connection {name!r} no longer takes a typed SELECT")
            return cls.of(connection.relation(select=select))
        raise DataError(f"the link names the connection {name!r} but no table of it")

    # -- what the pages say ------------------------------------------------------------------------
    def sidebar_line(self, frame: pd.DataFrame) -> str:
        return (f"**Data:** {md(self.relation.where)} ({self.label}, fitted inside it)  \n"
                f"a sample of {counted(len(frame), 'row')} × {counted(frame.shape[1], 'column')}")

    def in_use(self) -> str:
        return md(self.relation.where[0].upper() + self.relation.where[1:])

    def big_data_note(self, work: Work, frame: pd.DataFrame) -> str | None:
        seen = self.rows_seen(work)
        return (f"The model was fitted on {seen} of {md(self.relation.where)}, inside {self.label}. Tables of the "
                f"model are exact; rows and plots of data on this page come from a sample of the first "
                f"{len(frame):,} rows.")

    # -- the Data page -----------------------------------------------------------------------------
    @classmethod
    def picker_ui(cls) -> None:
        """The operator's connections and their tables (or one SELECT where allowed), and a button
        that opens the choice; without connections, how to add one."""
        ss = st.session_state
        found = connections.connections()
        connections.problems_ui(found)
        if not found.offered:
            connections.how_to_add_ui()
            return
        import ui

        by_name = {c.name: c for c in found.offered}
        if ss.get("db_connection") not in by_name:
            ss["db_connection"] = found.offered[0].name
        name = ui.synced(st.selectbox, "Connection", key="_db_connection", value=ss["db_connection"],
                         options=list(by_name), format_func=lambda n: f"{n} ({by_name[n].label})",
                         on_set=lambda v: ss.update(db_connection=v, db_error=None))
        connection = by_name[name]
        ways = [*([A_TABLE] if connection.tables else []), *([A_SELECT] if connection.allow_sql else [])]
        if ss.get("db_way") not in ways:
            ss["db_way"] = ways[0]
        way = ways[0] if len(ways) == 1 else ui.synced(
            st.radio, "Rows", key="_db_way", value=ss["db_way"], options=ways, horizontal=True,
            on_set=lambda v: ss.update(db_way=v))
        if way == A_TABLE:
            _table_ui(connection)
        else:
            ui.synced(st.text_area, f"One SELECT on {md(name)} (read only, at most {connection.timeout:g} s)",
                      key="_db_sql", value=ss.get("db_sql", ""), on_set=lambda v: ss.update(db_sql=v),
                      placeholder="SELECT * FROM orders WHERE year = 2024", height=100)
        st.button("Open the table" if way == A_TABLE else "Open the query's rows", key="data.open_database",
                  on_click=_open_database, args=(way,))
        st.caption(f"Types are proposed from the first {SAMPLE_ROWS:,} rows; the model is fitted on every row inside "
                   "the database (only its statistics leave it), and Evaluate cross-validates there too. The server's "
                   "operator names the connections and their tables.")
        if ss.get("db_error"):
            st.error(md(ss["db_error"]))
        work = ui.work()
        if isinstance(work.source, cls):
            seen = work.source.rows_seen(work)
            st.success(f"Opened {md(work.source.relation.where)}: the model is fitted on {seen} inside "
                       f"{work.source.label}; the tables below show the first {len(ss['frame']):,} rows.")


def _linked(value: str, limit: int = 80) -> str:
    """A name a link carried, quoted as a sentence shows it, at most ``limit`` characters of it (a
    link may hold anything)."""
    return repr(value if len(value) <= limit else value[:limit] + "…")


def _table_ui(connection: Any) -> None:
    """The connection's offered tables, with the chosen one's columns (or why it cannot be read)."""
    import ui

    ss = st.session_state
    if ss.get("db_table") not in connection.tables:
        ss["db_table"] = connection.tables[0]
    table = ui.synced(st.selectbox, "Table", key="_db_table", value=ss["db_table"], options=list(connection.tables),
                      on_set=lambda v: ss.update(db_table=v, db_error=None))
    try:
        listed = {t.name: t for t in connections.tables(connection.name)}
    except DataError as err:
        st.error(md(err))
        return
    described = listed.get(table)
    if described is None:
        return
    if described.problem:
        st.warning(md(described.problem))
    else:
        st.caption("Columns: " + ", ".join(f"{md(c)} ({md(t)})" for c, t in described.columns))


def _open_database(way: str) -> None:
    """The Open button's callback: the chosen table (or SELECT) becomes the work's data."""
    import ui

    ss = st.session_state
    try:
        # the widgets' own values first: a text typed and not yet committed reaches this callback too
        connection = connections.connection(ss.get("_db_connection") or ss.get("db_connection") or "")
        relation = (connection.relation(table=ss.get("_db_table") or ss.get("db_table")) if way == A_TABLE
                    else connection.relation(select=ss.get("_db_sql", ss.get("db_sql", ""))))
        ui.open_source(Database.of(relation))
    except DataError as err:
        ss["db_error"] = str(err)
    else:
        ss["db_error"] = None
