"""The operator's databases on the pages (issue 34, item 2).

Whoever runs the server names each database in ``.streamlit/secrets.toml`` as Streamlit names
connections, ``[connections.NAME]`` with a ``url`` and the ``tables`` it offers (``allow_sql``
to let visitors type one SELECT); Streamlit reads that file into ``st.secrets`` (its
``secrets.files`` option says where it looks: ``.streamlit/secrets.toml`` in the folder the app
is started from, then ``~/.streamlit/secrets.toml``). :func:`connections` turns it into plain
descriptors (:class:`nbapp.scale.Connection`: name, kind, tables, allow_sql) that a page may
show; the url stays here, read by name at each call and never returned. The other functions
are the library's (:mod:`nbapp.scale._database`) with the url filled in, the lists of tables
and the samples cached for a while (a database changes under the app; a fit is cached by the
caller under its work's key).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from nbapp.scale import (Connection, Connections, DatabaseTable, Relation, connection_url, cross_validate_database,
                         database_sample, database_tables, fit_database, parse_connections)
from ui.text import md

__all__ = ["connections", "connection", "tables", "sample", "fit", "cross_validate", "how_to_add_ui",
           "problems_ui", "HOW_TO_ADD", "EXAMPLE_TOML"]

# How long a list of tables and a sample stay cached: long enough for a visit, short enough
# that a table the operator adds or fills shows up without a restart.
CACHE_SECONDS = 300

HOW_TO_ADD = ("No database is connected to this app. Whoever runs the server can name one in "
              "`.streamlit/secrets.toml` (next to the app), as below, and restart the app: the tables listed "
              "there appear here, and visitors never see the address or the password.")
EXAMPLE_TOML = '''[connections.shop]
url = "postgresql://reader:password@db.example.org:5432/shop"
tables = ["public.orders", "public.customers"]
allow_sql = false    # true: visitors may also type one SELECT (read only, 30 s at most)

[connections.penguins]
url = "duckdb:////srv/data/penguins.db"
tables = ["penguins"]'''


def _secrets() -> dict[str, Any]:
    """st.secrets as a plain dict; {} without a secrets file (Streamlit raises then)."""
    from streamlit.errors import StreamlitSecretNotFoundError

    try:
        return st.secrets.to_dict()
    except (StreamlitSecretNotFoundError, FileNotFoundError):
        return {}


def connections() -> Connections:
    """The connections the operator named (``offered``) and a sentence for each section that
    could not be read (``problems``, for the operator; no url in them)."""
    return parse_connections(_secrets())


def connection(name: str) -> Connection:
    """The connection called ``name`` (DataError naming the ones there are)."""
    return connections().named(name)


def _url(name: str) -> str:
    return connection_url(_secrets(), name)


def tables(name: str) -> tuple[DatabaseTable, ...]:
    """The tables connection ``name`` offers, each with its columns and their types."""
    return _tables(_url(name), connection(name).tables, name)


@st.cache_data(ttl=CACHE_SECONDS, show_spinner="Reading the database's tables...")
def _tables(url: str, names: tuple[str, ...], name: str) -> tuple[DatabaseTable, ...]:
    return database_tables(url, names, connection=name)


def sample(relation: Relation, rows: int) -> pd.DataFrame:
    """The first ``rows`` rows of ``relation`` (to show and to propose types from)."""
    return _sample(_url(relation.connection), relation, rows)


@st.cache_data(ttl=CACHE_SECONDS, show_spinner="Reading the first rows...")
def _sample(url: str, relation: Relation, rows: int) -> pd.DataFrame:
    return database_sample(url, relation, rows)


def fit(model: Any, relation: Relation, target: str, weight: str | None = None, progress: Any = None) -> Any:
    """``model`` fitted inside the database on every row of ``relation`` (only statistics move)."""
    return fit_database(model, _url(relation.connection), relation, target, weight, progress)


def cross_validate(model: Any, relation: Relation, target: str, k: int = 5, weight: str | None = None,
                   progress: Any = None) -> Any:
    """k-fold cross-validation inside the database (the fold one more GROUP BY key): an Evaluation."""
    return cross_validate_database(model, _url(relation.connection), relation, target, k, weight, progress)


def how_to_add_ui() -> None:
    """The sentence and the TOML that add a connection, shown where the connections would be."""
    st.info(HOW_TO_ADD)
    st.code(EXAMPLE_TOML, language="toml")


def problems_ui(found: Connections) -> None:
    """One warning per section of the secrets the app could not read (named, no url)."""
    for problem in found.problems:
        st.warning(md(problem))
