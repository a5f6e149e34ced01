"""The operator's databases (issue 34, item 2): connections named as Streamlit names them, their
offered tables listed, sampled, fitted and cross-validated inside a real PostgreSQL server (a
table of 1,000,000 rows made by the server itself) and a DuckDB file, equal to nbapp's
in-memory fit and k-fold with the same folds; a typed SELECT reads only, and within its time."""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import evaluate
from nbapp.scale import (Connections, cross_validate_database, database_sample, database_tables, fit_database,
                         parse_connections, read_connections)
from nbapp.scale._database import FOLD, _with_folds

from database_fixtures import ROWS, duckdb_file, visits, visits_table  # noqa: F401 (fixtures)
from model_asserts import assert_same_model

TYPES = {"city": "categorical", "member": nbapp.Bernoulli(positive="yes"), "age": "gaussian", "visits": "poisson",
         "n1": "multinomial", "n2": "multinomial"}


def _secrets(url: str, **section) -> dict:
    return {"connections": {"db": {"url": url, **section}}}


# -- the secrets -------------------------------------------------------------------------------------------
def test_a_secrets_file_is_read_into_descriptors_without_urls(tmp_path):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('''
other_secret = "not a connection"

[connections.shop]
url = "postgresql://reader:hunter2@db.hidden.example:5432/shop"
tables = ["public.orders", "public.customers"]
allow_sql = true
timeout = 5

[connections.penguins]
url = "duckdb:////hidden/place/penguins.db"
tables = ["penguins"]

[connections.nourl]
tables = ["t"]

[connections.ftp]
url = "ftp://example.org/x"
tables = ["t"]

[connections.loose]
url = "postgresql://h/db"
tables = ["t"]
allow_sql = "yes"

[connections.memory]
url = "duckdb://"
tables = ["t"]

[connections.empty]
url = "postgresql://h/db"
''', encoding="utf-8")
    found = read_connections(secrets)
    assert [(c.name, c.kind, c.tables, c.allow_sql, c.timeout) for c in found.offered] == [
        ("shop", "postgresql", ("public.orders", "public.customers"), True, 5.0),
        ("penguins", "duckdb", ("penguins",), False, 30.0)]
    assert [c.label for c in found.offered] == ["PostgreSQL", "DuckDB"]
    problems = "\n".join(found.problems)
    assert len(found.problems) == 5
    assert "[connections.nourl] in .streamlit/secrets.toml has no url; write url = " in problems
    assert "[connections.ftp] in .streamlit/secrets.toml names a 'ftp' database" in problems
    assert "[connections.loose] in .streamlit/secrets.toml: allow_sql must be true or false, not 'yes'." in problems
    assert "[connections.memory] in .streamlit/secrets.toml names no DuckDB file" in problems
    assert "[connections.empty] in .streamlit/secrets.toml offers nothing" in problems
    for text in [repr(found), problems]:
        assert "hunter2" not in text and "hidden" not in text
    assert read_connections(tmp_path / "absent.toml") == Connections()
    (tmp_path / "bad.toml").write_text("[connections.x\nurl = 1", encoding="utf-8")
    assert read_connections(tmp_path / "bad.toml").problems[0].startswith("bad.toml is not valid TOML")


def test_a_visitor_gets_only_the_offered_tables_and_a_select_only_where_allowed():
    shop = parse_connections(_secrets("postgresql://h/db", tables=["public.orders"])).named("db")
    assert shop.relation(table="public.orders").table == "public.orders"
    with pytest.raises(nbapp.DataError, match=r"^The connection 'db' offers 'public.orders', not 'public.users'; "):
        shop.relation(table="public.users")
    with pytest.raises(nbapp.DataError, match=r"offers its tables only; a typed SELECT needs its operator to set "
                                              r"allow_sql = true"):
        shop.relation(select="SELECT 1")
    with pytest.raises(nbapp.DataError, match=r"^There is no connection 'nope' \(the server names 'db'\)"):
        parse_connections(_secrets("postgresql://h/db", tables=["t"])).named("nope")
    typed = parse_connections(_secrets("postgresql://h/db", allow_sql=True, timeout=2)).named("db")
    assert typed.tables == () and typed.relation(select=" SELECT 1 ").timeout == 2.0


# -- PostgreSQL ----------------------------------------------------------------------------------------------
@pytest.fixture
def no_streaming(monkeypatch):
    """Fail if any path streams the rows into summarize instead of asking the database."""
    def refuse(*args, **kwargs):
        raise AssertionError("streamed instead of computed by the database")

    monkeypatch.setattr("nbapp.scale._sql._fit_streamed", refuse)
    monkeypatch.setattr("nbapp.scale._evaluate._fold_statistics", refuse)


def test_postgres_lists_the_offered_tables_with_their_columns_names_quoted(postgres, visits):
    offered = ["visits", '"Sales Data"."Older ""Ones"""', "visits; DROP TABLE visits", "Visits"]
    listed = database_tables(postgres.url, offered)
    assert [t.name for t in listed] == offered
    assert listed[0].columns == (("id", "int4"), ("y", "text"), ("city", "text"), ("member", "text"),
                                 ("age", "float8"), ("visits", "int4"), ("n1", "int8"), ("n2", "int2"))
    assert listed[0].problem is None and listed[1].columns == listed[0].columns
    # a name is an identifier, never SQL: the "statement" is a table that does not exist, and so is
    # "Visits" (quoted, the catalog's spelling counts)
    assert listed[2].columns == () and 'relation "visits; DROP TABLE visits" does not exist' in listed[2].problem
    assert 'relation "Visits" does not exist' in listed[3].problem
    assert database_sample(postgres.url, _relation(postgres.url, "visits"), 3)["id"].size == 3


def test_a_database_that_cannot_be_opened_is_named_by_its_connection_only(postgres, tmp_path, caplog):
    port = postgres.url.rsplit(":", 1)[1].split("/")[0]
    away = f"postgresql://reader:hunter2@127.0.0.1:{int(port) + 1}/nowhere"
    for url in [away, f"duckdb:///{tmp_path / 'missing' / 'gone.db'}"]:
        with pytest.raises(nbapp.DataError) as raised:
            database_sample(url, _relation(url, "visits"), 3)
        assert str(raised.value) == ("The database of the connection 'db' cannot be opened now; the server's log says "
                                     "why (its operator can mend the url in .streamlit/secrets.toml).")
        with pytest.raises(nbapp.DataError, match=r"^The database of the connection 'shop' cannot be opened now"):
            database_tables(url, ["visits"], connection="shop")
    assert "gone.db" in caplog.text and "hunter2" not in caplog.text


def _relation(url: str, table: str | None = None, select: str | None = None, **section):
    offered = [table] if table else []
    connection = parse_connections(_secrets(url, tables=offered, allow_sql=select is not None, **section)).named("db")
    return connection.relation(table=table, select=select)


def test_postgres_sample_is_the_first_rows_and_the_types_are_proposed_from_it(postgres, visits):
    sample = database_sample(postgres.url, _relation(postgres.url, "visits"), 5000)
    assert len(sample) == 5000 and list(sample.columns) == list(visits.columns)
    proposed = nbapp.propose_feature_types(sample, "y").set_index("column")["type"]
    assert proposed["id"] == "ignore" and proposed["city"] == "categorical" and proposed["age"] == "gaussian"
    assert proposed["member"] == "bernoulli"
    assert nbapp.propose_target(sample) == "y"


def test_postgres_fit_inside_the_database_equals_the_in_memory_fit_of_the_million_rows(postgres, visits,
                                                                                        no_streaming):
    expected = nbapp.NaiveBayes(TYPES).fit(visits, "y")
    calls = []
    got = fit_database(nbapp.NaiveBayes(TYPES), postgres.url, _relation(postgres.url, "visits"), "y",
                       progress=lambda done, total: calls.append((done, total)))
    assert_same_model(got, expected, visits.iloc[:20_000])
    assert got.class_counts_.sum() == ROWS and calls[-1] == (ROWS, ROWS)
    # a typed SELECT of the same connection, under its time limit
    query = "SELECT * FROM visits WHERE city IS NOT NULL AND n2 < 2"
    subset = visits[visits["city"].notna() & (visits["n2"] < 2)]
    got = fit_database(nbapp.NaiveBayes(TYPES), postgres.url, _relation(postgres.url, select=query), "y")
    assert_same_model(got, nbapp.NaiveBayes(TYPES).fit(subset, "y"), subset.iloc[:20_000])


def _in_memory_kfold(frame: pd.DataFrame, folds: np.ndarray, k: int, types: dict | None = None):
    """nbapp's in-memory k-fold (nbapp.evaluate) with the given folds."""
    data, y = evaluate._prepare(frame, "y", None)
    return evaluate._run(lambda: nbapp.NaiveBayes(types or TYPES), data, y, "y", folds, k, "kfold", 0, None)


def _assert_same_evaluation(got, expected) -> None:
    for a, b in [(got.scores, expected.scores), *zip(got.fold_scores, expected.fold_scores)]:
        assert a.n == b.n
        assert a.accuracy == pytest.approx(b.accuracy, abs=1e-12)
        assert a.log_loss == pytest.approx(b.log_loss, rel=1e-9)
        pd.testing.assert_frame_equal(a.confusion, b.confusion, check_dtype=False)


def test_postgres_kfold_inside_the_database_equals_the_in_memory_kfold_with_the_same_folds(postgres, visits,
                                                                                           no_streaming):
    import psycopg

    k = 5
    with psycopg.connect(postgres.url) as con:       # each row's fold, as the database computes it
        folded = con.execute(f'SELECT id, "{FOLD}" FROM ({_with_folds("SELECT * FROM visits", k, "postgresql")}) '
                             "AS f ORDER BY id").fetchall()
    folds = np.array([f for _, f in folded], dtype=np.int64)
    sizes = np.bincount(folds, minlength=k)
    assert np.all(np.abs(sizes - ROWS / k) < 5 * np.sqrt(ROWS / k))        # a hash deals rows evenly
    expected = _in_memory_kfold(visits, folds, k)
    calls = []
    got = cross_validate_database(nbapp.NaiveBayes(TYPES), postgres.url, _relation(postgres.url, "visits"), "y", k=k,
                                  progress=lambda done, total: calls.append((done, total)))
    _assert_same_evaluation(got, expected)
    assert got.scores.n == ROWS and calls[-1] == (2 * ROWS, 2 * ROWS)
    assert len(got.predictions) == 10_000 and set(got.predictions["fold"]) <= set(range(1, k + 1))


EQUAL_ROWS = ("SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS y, CAST(i % 3 AS text) AS city "
              "FROM generate_series(0, 2999) AS g(i)")


def _assert_equal_rows_are_dealt_to_every_fold(url: str) -> None:
    """3,000 rows, 6 distinct ones: each fold holds about 600 rows (a hash of the row alone would
    put all 500 copies of a row in one fold, and each fold would hold 0, 500, 1000... rows)."""
    got = cross_validate_database(nbapp.NaiveBayes({"city": "categorical"}), url, _relation(url, select=EQUAL_ROWS),
                                  "y", k=5)
    sizes = np.array([fold.n for fold in got.fold_scores])
    assert sizes.sum() == 3000 and np.all(np.abs(sizes - 600) < 5 * np.sqrt(600)), sizes


def test_postgres_deals_equal_rows_to_every_fold(postgres):
    _assert_equal_rows_are_dealt_to_every_fold(postgres.url)


REFUSED = "SELECT y, CASE WHEN id = 7 THEN -1 ELSE visits END AS visits FROM visits"


def test_postgres_kfold_names_a_refused_value_and_a_type_it_cannot_count(postgres, visits):
    url = postgres.url
    with pytest.raises(nbapp.DataError, match=r"'visits' is a Poisson count but row \d+ holds -1"):
        cross_validate_database(nbapp.NaiveBayes({"visits": "poisson"}), url, _relation(url, select=REFUSED), "y")
    with pytest.raises(nbapp.DataError, match=r"^Column 'city' is text: .* inside the database. Fit it from a file"):
        cross_validate_database(nbapp.NaiveBayes({"city": "text"}), url, _relation(url, "visits"), "y")


def test_postgres_typed_select_stops_at_its_time_limit(postgres, visits):
    slow = "SELECT y, age, pg_sleep(5) IS NULL AS slept FROM visits LIMIT 3"
    relation = _relation(postgres.url, select=slow, timeout=1)
    with pytest.raises(nbapp.DataError, match=r"^The query ran past 1 s, the limit the server sets for a typed query "
                                              r"on 'db'; narrow it"):
        fit_database(nbapp.NaiveBayes({"age": "gaussian"}), postgres.url, relation, "y")
    with pytest.raises(nbapp.DataError, match=r"^The query ran past 1 s"):
        database_sample(postgres.url, relation, 3)
    # an offered table has no such limit, and a quick typed query is answered
    quick = _relation(postgres.url, select="SELECT y, age FROM visits LIMIT 100", timeout=1)
    assert database_sample(postgres.url, quick, 10).shape == (10, 2)


def test_postgres_typed_select_cannot_write(postgres, visits):
    import psycopg

    model = nbapp.NaiveBayes({"age": "gaussian"})
    refused = {"SELECT y, age INTO stolen FROM visits": r"^The query holds INTO",
               "WITH d AS (DELETE FROM visits RETURNING *) SELECT y, age FROM d": r"^The query holds DELETE",
               "SELECT y, age FROM visits; DROP TABLE visits": r"^The query holds 2 statements",
               "SELECT y, age, set_config('statement_timeout', '0', false) AS s FROM visits":
                   r"^The query calls set_config, which changes the session's settings",
               "SELECT y, nextval('counter')::float8 AS age FROM visits LIMIT 3": r"read-only transaction"}
    for query, message in refused.items():
        with pytest.raises(nbapp.DataError, match=message):
            fit_database(model, postgres.url, _relation(postgres.url, select=query), "y")
    with psycopg.connect(postgres.url) as con:
        assert con.execute("SELECT count(*) FROM visits").fetchone()[0] == ROWS
        assert con.execute("SELECT to_regclass('stolen')").fetchone()[0] is None
        assert con.execute("SELECT last_value, is_called FROM counter").fetchone() == (1, False)


# -- DuckDB --------------------------------------------------------------------------------------------------
def test_duckdb_file_is_listed_sampled_fitted_and_cross_validated_inside_it(duckdb_file, no_streaming):
    url, frame, _ = duckdb_file
    listed = database_tables(url, ["visits", '"Old Ones"', "missing"])
    assert [c for c, _ in listed[0].columns] == list(frame.columns) and listed[1].columns == listed[0].columns
    assert dict(listed[0].columns)["age"] == "DOUBLE" and "missing does not exist" in listed[2].problem
    relation = _relation(url, "visits")
    sample = database_sample(url, relation, 100)
    assert len(sample) == 100 and nbapp.propose_feature_types(sample, "y").set_index("column")["type"]["city"] == \
        "categorical"
    assert_same_model(fit_database(nbapp.NaiveBayes(TYPES), url, relation, "y"),
                      nbapp.NaiveBayes(TYPES).fit(frame, "y"), frame)
    con = duckdb.connect(url[len("duckdb:///"):], read_only=True)
    folded = con.execute(f'SELECT id, "{FOLD}" FROM ({_with_folds("SELECT * FROM visits", 4, "duckdb")}) '
                         "ORDER BY id").fetchall()
    con.close()
    folds = np.array([f for _, f in folded], dtype=np.int64)
    got = cross_validate_database(nbapp.NaiveBayes(TYPES), url, relation, "y", k=4)
    _assert_same_evaluation(got, _in_memory_kfold(frame, folds, 4))
    # the fold depends on the row, not on where it comes in the table
    shuffled = _relation(url, select="SELECT * FROM visits ORDER BY n1 DESC, id DESC")
    _assert_same_evaluation(cross_validate_database(nbapp.NaiveBayes(TYPES), url, shuffled, "y", k=4), got)


def test_duckdb_kfold_streams_a_type_without_aggregates_and_names_a_refused_value(duckdb_file):
    url, frame, _ = duckdb_file
    types = {"city": "text", "age": "gaussian"}
    con = duckdb.connect(url[len("duckdb:///"):], read_only=True)
    folded = _with_folds("SELECT * FROM visits", 3, "duckdb")
    folds = np.array(con.execute(f'SELECT "{FOLD}" FROM ({folded}) ORDER BY id').fetchnumpy()[FOLD], dtype=np.int64)
    con.close()
    got = cross_validate_database(nbapp.NaiveBayes(types), url, _relation(url, "visits"), "y", k=3)
    _assert_same_evaluation(got, _in_memory_kfold(frame, folds, 3, types))
    with pytest.raises(nbapp.DataError, match=r"'visits' is a Poisson count but row \d+ holds -1"):
        cross_validate_database(nbapp.NaiveBayes({"visits": "poisson"}), url, _relation(url, select=REFUSED), "y")


def test_duckdb_deals_equal_rows_to_every_fold(duckdb_file):
    _assert_equal_rows_are_dealt_to_every_fold(duckdb_file[0])


def test_duckdb_weighted_kfold_counts_each_row_by_its_weight(duckdb_file, no_streaming):
    """Weight w equals the row repeated w times, in the same fold (nbapp.evaluate expands weights)."""
    url, frame, _ = duckdb_file
    con = duckdb.connect(url[len("duckdb:///"):], read_only=True)
    folded = _with_folds("SELECT * FROM visits", 3, "duckdb")
    folds = np.array(con.execute(f'SELECT "{FOLD}" FROM ({folded}) ORDER BY id').fetchnumpy()[FOLD], dtype=np.int64)
    con.close()
    got = cross_validate_database(nbapp.NaiveBayes(TYPES), url, _relation(url, "visits"), "y", k=3, weight="w")
    repeat = np.repeat(np.arange(len(frame)), frame["w"].to_numpy())
    expected = _in_memory_kfold(frame.iloc[repeat].drop(columns="w").reset_index(drop=True), folds[repeat], 3)
    assert got.scores.n == int(frame["w"].sum())
    _assert_same_evaluation(got, expected)


def test_duckdb_typed_select_stops_at_its_time_limit_and_reads_only_the_file(duckdb_file):
    url, _, folder = duckdb_file
    slow = "SELECT 'a' AS y, CAST(count(*) AS DOUBLE) AS age FROM range(1000000) a, range(1000000) b"
    with pytest.raises(nbapp.DataError, match=r"^The query ran past 1 s, the limit the server sets for a typed query"):
        database_sample(url, _relation(url, select=slow, timeout=1), 5)
    model = nbapp.NaiveBayes({"age": "gaussian"})
    refused = {"COPY visits TO 'out.csv'": r"^The query is not a SELECT",
               "SELECT y, age FROM visits; DELETE FROM visits": r"^The query holds 2 statements",
               "SELECT y, CAST(nextval('counter') AS DOUBLE) AS age FROM visits": r"read-only",
               f"SELECT * FROM read_csv('{folder / 'secret.csv'}')": r"file system operations are disabled"}
    for query, message in refused.items():
        with pytest.raises(nbapp.DataError, match=message):
            fit_database(model, url, _relation(url, select=query), "y")
    assert not (folder / "out.csv").exists()
    con = duckdb.connect(url[len("duckdb:///"):], read_only=True)
    assert con.execute("SELECT count(*) FROM visits").fetchone()[0] == 30_000
    con.close()
