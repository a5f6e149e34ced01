"""The database source on the pages (issue 34, item 2; ui/sources/database.py): the operator's
connections (``at.secrets``, as Streamlit reads .streamlit/secrets.toml) listed on the Data page
with their tables; a table (or one typed SELECT where allowed) opened, its first rows shown and
its types proposed from them, the model fitted inside the database on every row, Model and
Explain saying that they show a sample, Evaluate cross-validating inside the database; the link
naming the connection and the table, reopening them, refused in a sentence once the server no
longer offers them; never a url or a password anywhere on any page. On a DuckDB file and on the
real PostgreSQL server's 1,000,000-row table (tests/database_fixtures.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import nbapp
from nbapp.scale import cross_validate_database, parse_connections
from ui.sources import Database

from apptest_helpers import PAGES, clear_caches, no_exception, texts  # noqa: F401 (autouse fixture)
from database_fixtures import ROWS, make_duckdb_file, visits_table  # noqa: F401 (fixtures)
from model_asserts import assert_same_model

ROOT = Path(__file__).resolve().parents[1]
MODE = Database.mode
PASSWORD = "hunter2-not-shown"
SAMPLE = 5_000          # the DuckDB walk's sample: fewer rows than the table's 30,000


def start(connections: dict | None, *, query: dict[str, str] | None = None, timeout: float = 120) -> AppTest:
    """app.py run once with ``connections`` as the operator's [connections.*] (None: no secrets)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    if connections is not None:
        at.secrets["connections"] = connections
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return no_exception(at.run())


def open_page(at: AppTest, name: str) -> AppTest:
    at.switch_page(PAGES[name]).run()
    no_exception(at)
    assert at.title[0].value == name
    return at


def everything_shown(at: AppTest) -> str:
    """Every element of the page's tree, sidebar included, as its protobuf prints: labels, options,
    values, markdown, captions, the tables' bytes; and the page's address."""
    found: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            found.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    found += [f"{k}={at.query_params[k]}" for k in at.query_params]
    return "\n".join(found)


def assert_nothing_secret(at: AppTest, *secrets: str) -> None:
    shown = everything_shown(at)
    assert len(shown) > 1000, "the scan read the page"
    for secret in secrets:
        assert secret not in shown, f"{secret!r} is on the page"


def address(at: AppTest) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k in at.query_params for v in [at.query_params[k]]}


def open_table(at: AppTest, connection: str, table: str) -> AppTest:
    """The Data page's database mode: ``connection`` and ``table`` chosen, then Open."""
    at.radio(key="_data_mode").set_value(MODE).run()
    at.selectbox(key="_db_connection").set_value(connection).run()
    at.selectbox(key="_db_table").set_value(table).run()
    at.button(key="data.open_database").click().run()
    no_exception(at)
    assert not at.session_state["db_error"], at.session_state["db_error"]
    return at


# -- no connection ----------------------------------------------------------------------------------------
def test_without_connections_the_option_says_how_to_add_one():
    at = start(None)
    assert MODE in at.radio(key="_data_mode").options
    no_exception(at.radio(key="_data_mode").set_value(MODE).run())
    assert texts(at, "info")[0].startswith("No database is connected to this app. Whoever runs the server can "
                                           "name one in `.streamlit/secrets.toml`")
    assert at.code[0].language == "toml" and at.code[0].value.startswith("[connections.shop]\nurl = ")
    assert "data.open_database" not in [b.key for b in at.button]
    assert "postgresql://reader:password@db.example.org" in everything_shown(at), "the scan reads every element"
    assert at.session_state["work"].source.example_key == "tennis14", "the data in use stays"


# -- DuckDB -----------------------------------------------------------------------------------------------
@pytest.fixture
def duckdb_shop(tmp_path, monkeypatch):
    """The DuckDB file of database_fixtures in a folder whose name must never be shown, offered as
    connection 'shop' (its table 'visits', a table that is not there, a typed SELECT); the pages'
    sample is the first SAMPLE rows."""
    folder = tmp_path / "hidden-folder-xyz"
    folder.mkdir()
    url, frame = make_duckdb_file(folder)
    monkeypatch.setattr("ui.sources.database.SAMPLE_ROWS", SAMPLE)
    connections = {"shop": {"url": url, "tables": ["visits", "gone"], "allow_sql": True, "timeout": 20}}
    return connections, frame, str(folder)


def test_a_duckdb_table_walks_data_model_explain_and_evaluate(duckdb_shop):
    connections, frame, folder = duckdb_shop
    at = start(connections)
    at.radio(key="_data_mode").set_value(MODE).run()
    assert at.selectbox(key="_db_connection").options == ["shop (DuckDB)"]
    assert at.selectbox(key="_db_table").options == ["visits", "gone"]
    assert at.radio(key="_db_way").options == ["An offered table", "One SELECT query"]
    assert any(c.startswith("Columns: id (BIGINT), y (VARCHAR), city (VARCHAR)") for c in texts(at, "caption"))
    at.selectbox(key="_db_table").set_value("gone").run()
    assert any("DuckDB cannot read the table 'gone'" in w for w in texts(at, "warning"))
    at = open_table(at, "shop", "visits")

    # Data: the first SAMPLE rows, types proposed from them, the model fitted on all 30,000 rows
    work = at.session_state["work"]
    relation = parse_connections({"connections": connections}).named("shop").relation(table="visits")
    assert work.source == Database.of(relation) and work.target == "y"
    sample = at.session_state["frame"]
    assert len(sample) == SAMPLE and sample["id"].tolist() == frame["id"].iloc[:SAMPLE].tolist()
    assert dict(work.kinds)["id"] == "ignore" and dict(work.kinds)["city"] == "categorical"
    expected = work.make_model().fit(frame, "y", work.weight)
    model = at.session_state["model"]
    assert_same_model(model, expected, frame.iloc[:2000])
    assert int(model.class_counts_.sum()) == 30_000 and len(frame) == 30_000
    assert f"A sample: the first {SAMPLE:,} rows of the table 'visits' of 'shop'. The model is fitted on every row " \
           "inside DuckDB; only its statistics leave the database." in texts(at, "info")[0]
    assert any(s.startswith("Model fitted on all 30,000 rows: 3 classes") for s in texts(at, "success"))
    assert any(f"a sample of {SAMPLE:,} rows × 9 columns" in m for m in texts(at, "markdown"))
    assert_nothing_secret(at, folder, "shop.db", "duckdb:")

    # Model and Explain: the sampled wording, the model of every row
    sampled = (f"The model was fitted on all 30,000 rows of the table 'visits' of 'shop', inside DuckDB. Tables of "
               f"the model are exact; rows and plots of data on this page come from a sample of the first {SAMPLE:,} "
               "rows.")
    for page in ("Model", "Explain"):
        at = open_page(at, page)
        assert sampled in texts(at, "info"), (page, texts(at, "info"))
        assert_nothing_secret(at, folder, "shop.db", "duckdb:")
    row = dict(at.session_state["work"].query)                                     # the first row, to explain
    assert (row["id"], row["member"], row["n1"]) == tuple(frame[["id", "member", "n1"]].iloc[0].tolist())
    np.testing.assert_array_equal(at.session_state["model"].class_counts_, expected.class_counts_)

    # Evaluate: k-fold inside the database, as the library's own call on the same model
    at = open_page(at, "Evaluate")
    result = at.session_state["kept"]["evaluate.result"][1]
    direct = cross_validate_database(work.make_model(), connections["shop"]["url"], relation, "y", k=5,
                                     weight=work.weight)
    assert result.scores.n == direct.scores.n == 30_000 and len(result.fold_scores) == 5
    assert result.scores.accuracy == pytest.approx(direct.scores.accuracy, abs=1e-12)
    assert result.scores.log_loss == pytest.approx(direct.scores.log_loss, rel=1e-12)
    assert any(c.startswith("Folds are assigned by a hash of each whole row") for c in texts(at, "caption"))
    assert sampled in texts(at, "info")
    assert_nothing_secret(at, folder, "shop.db", "duckdb:")


def test_the_link_reopens_the_same_table_and_is_refused_once_it_is_no_longer_offered(duckdb_shop):
    connections, frame, folder = duckdb_shop
    at = open_table(start(connections), "shop", "visits")
    at.selectbox(key="_data_target").set_value("member").run()
    link = address(at)
    assert {k: link[k] for k in ("connection", "table", "target")} == {"connection": "shop", "table": "visits",
                                                                       "target": "member"}
    assert all(folder not in v and "duckdb" not in v for v in link.values())

    fresh = start(connections, query=link)
    work = fresh.session_state["work"]
    assert work.source == at.session_state["work"].source and work.target == "member"
    assert dict(work.kinds) == dict(at.session_state["work"].kinds)
    assert not fresh.session_state.get("restore_note")
    assert int(fresh.session_state["model"].class_counts_.sum()) == 30_000
    assert fresh.radio(key="_data_mode").value == MODE

    gone_table = {"shop": {**connections["shop"], "tables": ["gone"]}}
    refused = start(gone_table, query=link)
    assert refused.session_state["restore_note"].startswith(
        "Not everything of this link could be restored: the connection 'shop' no longer offers the table 'visits'")
    assert refused.session_state["work"].source.example_key == "tennis14"
    refused = start({"other": connections["shop"]}, query=link)
    assert refused.session_state["restore_note"].startswith(
        "Not everything of this link could be restored: this server no longer offers the database connection 'shop'")
    assert_nothing_secret(refused, folder, "shop.db")
    long = start(connections, query={**link, "table": "x" * 5000}).session_state["restore_note"]
    assert f"no longer offers the table '{'x' * 80}…'" in long and len(long) < 300, "a link's name is cut short"


def test_a_typed_select_is_opened_fitted_and_kept_in_the_link_where_the_connection_allows_it(duckdb_shop):
    connections, frame, folder = duckdb_shop
    at = start(connections)
    at.radio(key="_data_mode").set_value(MODE).run()
    at.radio(key="_db_way").set_value("One SELECT query").run()
    query = "SELECT y, city, age FROM visits WHERE n2 < 2"
    at.text_area(key="_db_sql").set_value(query).run()
    at.button(key="data.open_database").click().run()
    no_exception(at)
    work = at.session_state["work"]
    assert work.source.relation.select == query and work.source.relation.timeout == 20
    subset = frame[frame["n2"] < 2][["y", "city", "age"]]
    assert int(at.session_state["model"].class_counts_.sum()) == len(subset)
    assert_same_model(at.session_state["model"], work.make_model().fit(subset, "y"), subset.iloc[:500])
    assert address(at)["sql"] == query
    assert start(connections, query=address(at)).session_state["work"].source == work.source
    # a write is refused in a sentence, the table in use stays
    at.text_area(key="_db_sql").set_value("DELETE FROM visits").run()
    at.button(key="data.open_database").click().run()
    assert at.session_state["db_error"].startswith("The query is not a SELECT")
    assert any(e.startswith("The query is not a SELECT") for e in texts(at, "error"))
    assert at.session_state["work"].source == work.source
    # where the operator allows no SELECT, a link that carries one is refused
    tables_only = {"shop": {**connections["shop"], "allow_sql": False}}
    refused = start(tables_only, query=address(at))
    assert "the connection 'shop' no longer takes a typed SELECT" in refused.session_state["restore_note"]
    refused.radio(key="_data_mode").set_value(MODE).run()
    assert not [r for r in refused.radio if r.key == "_db_way"] and not refused.text_area


# -- PostgreSQL: the million rows -------------------------------------------------------------------------
def test_the_postgres_million_rows_are_fitted_and_evaluated_inside_the_server(visits_table):
    import psycopg

    url = visits_table.url.replace("postgresql://nbapp@", f"postgresql://nbapp:{PASSWORD}@")   # trust: ignored
    host = url.split("@", 1)[1].split("/", 1)[0]
    connections = {"warehouse": {"url": url, "tables": ["visits", '"Sales Data"."Older ""Ones"""']}}
    at = start(connections, timeout=600)
    at.radio(key="_data_mode").set_value(MODE).run()
    assert at.selectbox(key="_db_connection").options == ["warehouse (PostgreSQL)"]
    assert not [r for r in at.radio if r.key == "_db_way"], "no typed SELECT where the operator allows none"
    at = open_table(at, "warehouse", "visits")
    work = at.session_state["work"]
    sample = at.session_state["frame"]
    assert len(sample) == 100_000 and work.target == "y"
    some = sample.iloc[::2000]
    with psycopg.connect(visits_table.url) as con:
        counts = dict(con.execute("SELECT y, count(*) FROM visits GROUP BY y").fetchall())
        rows = con.execute("SELECT id, y, member, n1 FROM visits WHERE id = ANY(%s) ORDER BY id",
                           [some["id"].tolist()]).fetchall()
    # rows of the table as they are (a LIMIT: PostgreSQL's scan may start mid-table)
    assert sample["id"].is_unique and sample["id"].between(0, ROWS - 1).all()
    assert [tuple(r) for r in some.sort_values("id")[["id", "y", "member", "n1"]].itertuples(index=False)] == rows
    model = at.session_state["model"]
    assert dict(zip(model.classes_, model.class_counts_.tolist())) == counts and sum(counts.values()) == ROWS
    assert any(s.startswith("Model fitted on all 1,000,000 rows: 3 classes") for s in texts(at, "success"))
    assert_nothing_secret(at, PASSWORD, host, "postgresql:")
    for page in ("Model", "Explain"):
        at = open_page(at, page)
        assert any(i.startswith("The model was fitted on all 1,000,000 rows of the table 'visits' of 'warehouse', "
                                "inside PostgreSQL.") and "a sample of the first 100,000 rows" in i
                   for i in texts(at, "info")), page
        assert_nothing_secret(at, PASSWORD, host, "postgresql:")
    at = open_page(at, "Evaluate")
    result = at.session_state["kept"]["evaluate.result"][1]
    assert result.scores.n == ROWS and len(result.fold_scores) == 5
    assert sum(f.n for f in result.fold_scores) == ROWS
    assert all(abs(f.n - ROWS / 5) < 5 * np.sqrt(ROWS / 5) for f in result.fold_scores)
    assert int(result.scores.confusion.to_numpy().sum()) == ROWS
    assert 0.55 < result.scores.accuracy < 0.8         # the classes' shares are 0.3 / 0.6 / 0.1
    assert_nothing_secret(at, PASSWORD, host, "postgresql:")
    link = address(at)
    assert link["connection"] == "warehouse" and link["table"] == "visits"
    assert not any(PASSWORD in v or host in v for v in link.values())
    assert re.fullmatch(r"[A-Za-z0-9_-]+", link["work"])


def test_a_table_names_its_downloads_by_its_whole_name_its_dot_no_suffix():
    from nbapp.scale import Relation
    from ui.sources import Table
    from ui.text import file_stem

    table = Database.of(Relation("shop", "postgresql", table="public.orders"))
    assert file_stem(table.stem) == "public_orders"              # was "public": ".orders" read as a suffix
    assert Database.of(Relation("shop", "postgresql", select="SELECT 1", timeout=5)).stem == "query"
    assert Table(name="tennis14.csv", sha256="0" * 64).stem == "tennis14"
