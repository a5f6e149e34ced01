"""The databases the tests of issue 34, item 2 read, shared by the library's tests
(tests/test_database.py) and the app's (tests/test_database_source_app.py): a real PostgreSQL
server (tests/postgres_server.py) holding a table of 1,000,000 rows that the server makes
itself, and a DuckDB file of 30,000 rows made by DuckDB from the same statement. Import the
fixtures a test module needs::

    from database_fixtures import ROWS, duckdb_file, postgres, visits_table  # noqa: F401 (fixtures)

A module-scoped fixture imported into two modules is made once per module.
"""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest


ROWS = 1_000_000

# The table PostgreSQL makes for itself: classes, a categorical with NULLs, a yes/no, a Gaussian
# (Box-Muller) with NULLs, counts; nothing is sent but this statement.
VISITS = f"""
CREATE TABLE visits AS
WITH r AS (SELECT i, random() AS u, random() AS u2, random() AS u3, random() AS u4, random() AS u5,
                  random() AS u6, random() AS u7 FROM generate_series(0, {ROWS - 1}) AS i)
SELECT i AS id,
       CASE WHEN u < 0.3 THEN 'churn' WHEN u < 0.9 THEN 'stay' ELSE 'trial' END AS y,
       CASE WHEN u2 < 0.05 THEN NULL WHEN u2 < 0.4 + 0.2 * (u < 0.3)::int THEN 'Leeds'
            WHEN u2 < 0.8 THEN 'York' ELSE 'Bath' END AS city,
       CASE WHEN u3 < 0.4 + 0.3 * (u >= 0.9)::int THEN 'yes' ELSE 'no' END AS member,
       CASE WHEN u4 < 0.03 THEN NULL
            ELSE round((40 + 12 * sqrt(-2 * ln(1 - u5)) * cos(2 * pi() * u6) + 5 * (u < 0.3)::int)::numeric, 2)::float8
       END AS age,
       floor(-ln(1 - u7) * 3)::int + 2 * (u >= 0.3 AND u < 0.9)::int AS visits,
       (i::bigint * 7919 % 5) AS n1,
       (floor(i / 3.0)::bigint % 3)::smallint AS n2
FROM r
"""


@pytest.fixture(scope="module")
def visits_table(postgres):
    """The million rows, made inside PostgreSQL (with a view under a quoted schema and a
    sequence), made again for each module that asks (the server is the session's); the server."""
    import psycopg

    with psycopg.connect(postgres.url) as con:
        con.execute('DROP SCHEMA IF EXISTS "Sales Data" CASCADE')
        con.execute("DROP TABLE IF EXISTS visits CASCADE")
        con.execute("DROP SEQUENCE IF EXISTS counter")
        con.execute("SELECT setseed(0.25)")
        con.execute(VISITS)
        con.execute('CREATE SCHEMA "Sales Data"')
        con.execute('CREATE VIEW "Sales Data"."Older ""Ones""" AS SELECT * FROM visits WHERE age > 60')
        con.execute("CREATE SEQUENCE counter")
        con.commit()
    return postgres


@pytest.fixture(scope="module")
def visits(visits_table):
    """The million rows of :func:`visits_table` as pandas reads them."""
    import psycopg

    with psycopg.connect(visits_table.url) as con:
        rows = con.execute("SELECT * FROM visits ORDER BY id").fetchall()
    frame = pd.DataFrame.from_records(rows, columns=["id", "y", "city", "member", "age", "visits", "n1", "n2"])
    return frame.astype({"age": float})


def make_duckdb_file(folder, rows: int = 30_000) -> tuple[str, pd.DataFrame]:
    """A DuckDB file ``shop.db`` in ``folder``: the table ``visits`` of ``rows`` rows (made by
    DuckDB from VISITS) with a weight ``w``, a sequence and a view; its url and its rows as pandas
    reads them."""
    path = folder / "shop.db"
    con = duckdb.connect(str(path))
    con.execute("SELECT setseed(0.5)")
    con.execute(VISITS.replace(f"generate_series(0, {ROWS - 1}) AS i", f"range({int(rows)}) AS t(i)"))
    con.execute("ALTER TABLE visits ADD COLUMN w INTEGER")
    con.execute("UPDATE visits SET w = 1 + id * 13 % 3")
    con.execute("CREATE SEQUENCE counter")
    con.execute('CREATE VIEW "Old Ones" AS SELECT * FROM visits WHERE age > 60')
    frame = con.execute("SELECT * FROM visits ORDER BY id").df()
    con.close()
    return f"duckdb:///{path}", frame


@pytest.fixture
def duckdb_file(tmp_path):
    """A DuckDB file of 30,000 rows (make_duckdb_file) and the same rows as pandas reads them, and
    the folder, which also holds a CSV file a query must not read."""
    url, frame = make_duckdb_file(tmp_path)
    (tmp_path / "secret.csv").write_text("y,age\na,1\n", encoding="utf-8")
    return url, frame, tmp_path
