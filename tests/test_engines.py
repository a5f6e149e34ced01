"""The engine counts (issue 24): every pushable type's statistics computed inside DuckDB and a
real PostgreSQL server (GROUP BY aggregates, nbapp.scale._aggregates) equal an in-memory fit of
the same rows: counts exactly, P(c | x) to 1e-12."""

from __future__ import annotations

import dataclasses
import io
import threading
from fractions import Fraction

import duckdb
import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.blocks.gaussian import class_moments
from nbapp.scale import _aggregates as aggregates, _files as files
from nbapp.scale._evaluate import hash_folds
from nbapp.scale._sql import sample_sql

from mixed_data import PUSHABLE, pushable_frame
from model_asserts import assert_same_model
from number_cells import CAST_ONLY_NUMBERS, HARD_CELLS, LEFT_TO_THE_EXACT_READ, PARSED_BY_THE_READER

@pytest.fixture
def no_streaming(monkeypatch):
    """Fail if any path streams rows into summarize instead of asking the engine."""
    def refuse(*args, **kwargs):
        raise AssertionError("streamed instead of computed by the engine")

    monkeypatch.setattr(files, "_fit_streamed", refuse)
    monkeypatch.setattr("nbapp.scale._sql._fit_streamed", refuse)
    monkeypatch.setattr("nbapp.scale._evaluate._fold_statistics", refuse)


@pytest.fixture
def reads(monkeypatch):
    """Which reads of fit_file's CSV ran, in order: True for the fast read, False for the exact one."""
    seen: list[bool] = []
    engine_source = files._engine_source
    monkeypatch.setattr(files, "_engine_source", lambda *a, **k: seen.append(k["fast"]) or engine_source(*a, **k))
    return seen


# -- DuckDB ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def duckdb_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("duck") / "shop.db"
    frame = pushable_frame(20_000)
    with duckdb.connect(str(path)) as con:
        con.register("frame", frame)
        con.execute('CREATE TABLE "Shop Rows" AS SELECT * FROM frame')
    return path, frame


def test_fit_sql_on_duckdb_equals_fit_of_the_rows_for_every_pushable_type(duckdb_file, no_streaming):
    path, _ = duckdb_file
    with duckdb.connect(str(path), read_only=True) as con:
        frame = con.execute('SELECT * FROM "Shop Rows"').df()
    expected = nbapp.NaiveBayes(PUSHABLE).fit(frame, "y", weight="w")
    for source in ('"Shop Rows"', 'SELECT * FROM "Shop Rows"'):
        got = nbapp.fit_sql(nbapp.NaiveBayes(PUSHABLE), source, "y", url=f"duckdb:///{path}", weight="w")
        assert_same_model(got, expected, frame)
    assert got.classes_ == ["churn", "stay", "trial"]
    assert list(got.counts("flag").index) == [False, True]


def test_fit_sql_on_duckdb_streams_a_text_column_and_says_which_types_have_no_aggregates(duckdb_file):
    path, _ = duckdb_file
    query = 'SELECT *, city || \' shop\' AS note FROM "Shop Rows" LIMIT 500'
    with duckdb.connect(str(path), read_only=True) as con:
        frame = con.execute(query).df()
        got = nbapp.fit_sql(nbapp.NaiveBayes({"note": "text", "age": "gaussian"}), query, "y", url=con)
    expected = nbapp.NaiveBayes({"note": "text", "age": "gaussian"}).fit(frame, "y")
    pd.testing.assert_frame_equal(got.counts("note"), expected.counts("note"))
    model = nbapp.NaiveBayes({"note": "text"})
    assert aggregates.pushable(model) == ("Column 'note' is text: its statistics cannot be computed inside the "
                                          "engine (the text type states no aggregates)")


def test_fit_sql_names_the_row_of_a_refused_value_by_streaming_it(tmp_path):
    with duckdb.connect() as con:
        con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('a', -3), ('b', 4)) v(y, visits)")
        with pytest.raises(nbapp.DataError, match=r"the query .*'visits' is a Poisson count but row 2 holds -3"):
            nbapp.fit_sql(nbapp.NaiveBayes({"visits": "poisson"}), "SELECT * FROM t", "y", url=con)
        with pytest.raises(nbapp.DataError, match=r"Column 'nope' is not in the table 't'"):
            nbapp.fit_sql(nbapp.NaiveBayes({"nope": "poisson"}), "t", "y", url=con)


def test_fit_sql_refuses_urls_of_engines_it_does_not_drive():
    with pytest.raises(nbapp.DataError, match="fits from DuckDB .* and PostgreSQL"):
        nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), "t", "y", url="mysql://me@host/db")
    with pytest.raises(nbapp.DataError, match="Cannot open the DuckDB database"):
        nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), "t", "y", url="duckdb:///no/such/file.db")


# -- the moments -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["shuffled", "sorted"])
def test_engine_moments_keep_their_digits_far_from_zero(order):
    """S1, S2 about a per-class shift (the first rows' mean; the class means themselves in a
    second pass when the first rows were far off, as in a file sorted by the column) give the
    exact mean and M2 to a few units in the last place, at an offset of 1e9 with a spread of
    1e-3, where sums of x and x^2 would keep no digit of M2; the in-memory two-pass moments are
    no closer."""
    frame = far_frame(order)
    with duckdb.connect() as con:
        con.register("frame", frame)
        got = nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), "frame", "y", url=con, weight="w").stats_.blocks[0]
    assert_exact_moments(got, frame)


def far_frame(order: str) -> pd.DataFrame:
    """Three classes at 1e9, 1e9 + 10, 1e9 + 20 with spreads of 1e-3 to 3e-3, weights 1 to 4."""
    rng = np.random.default_rng(7)
    n = 20_000
    y = rng.integers(0, 3, n)
    x = 1e9 + rng.normal(0, 1e-3, n) * (1 + y) + 10.0 * y
    frame = pd.DataFrame({"y": y, "x": x, "w": rng.integers(1, 5, n).astype(float)})
    return frame.sort_values("x", ignore_index=True) if order == "sorted" else frame


def assert_exact_moments(got, frame: pd.DataFrame) -> None:
    """n exactly; mean to 4 units in the last place and M2 to 1e-12 of the exact (Fraction)
    values, or no further off than the in-memory two-pass moments."""
    memory = class_moments(frame[["x"]].to_numpy(), frame["y"].to_numpy(), frame["w"].to_numpy(), 3)
    for c in range(3):
        rows = frame[frame["y"] == c]
        xs = [Fraction(v) for v in rows["x"]]
        ws = [Fraction(v) for v in rows["w"]]
        total = sum(ws)
        mean = sum(w * v for w, v in zip(ws, xs)) / total
        m2 = float(sum(w * (v - mean) ** 2 for w, v in zip(ws, xs)))
        assert got.n[c, 0] == memory.n[c, 0] == float(total)
        assert abs(got.mean[c, 0] - float(mean)) <= max(4 * np.spacing(float(mean)), abs(memory.mean[c, 0] - float(mean)))
        assert abs(got.m2[c, 0] - m2) <= max(1e-12 * m2, abs(memory.m2[c, 0] - m2))


# -- files -----------------------------------------------------------------------------------------------
def test_fit_file_computes_every_pushable_type_in_duckdb(tmp_path, no_streaming):
    frame = pushable_frame(3_000, seed=2)
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    calls = []
    got = nbapp.fit_file(nbapp.NaiveBayes(PUSHABLE), path, "y", weight="w", progress=lambda d, t: calls.append((d, t)))
    assert_same_model(got, nbapp.NaiveBayes(PUSHABLE).fit(loaded, "y", weight="w"), loaded)
    assert calls[0] == (0, 3_000) and calls[-1] == (3_000, 3_000)
    frame.to_parquet(tmp_path / "mixed.parquet")
    parquet = pd.read_parquet(tmp_path / "mixed.parquet")
    got = nbapp.fit_file(nbapp.NaiveBayes(PUSHABLE), tmp_path / "mixed.parquet", "y", weight="w")
    assert_same_model(got, nbapp.NaiveBayes(PUSHABLE).fit(parquet, "y", weight="w"), parquet)




@pytest.mark.parametrize("kept", [HARD_CELLS, [c for c in HARD_CELLS if c not in ("x", "007", "12345678901234567")],
                                  ["1", "2", " 3", "+4"], ["1", "2", "", "4"], ["yes", "no", "NA", "-"]])
def test_fit_file_reads_hard_cells_as_load_table_does(tmp_path, kept, no_streaming):
    """The differential test of the cell rule: a categorical target and feature of hard cells,
    and a Gaussian of the numeric ones, read by DuckDB + nbapp's reader of the distinct cells,
    equal load_table's frame fitted in memory."""
    rng = np.random.default_rng(len(kept))
    n = 400
    numbers = [c for c in kept if c.strip().lower() not in ("x", "007", "12345678901234567", "yes", "no", "1,5")]
    y = rng.choice(["1", "2", " 3", "+4", "1.5"], n)
    cells = rng.choice(kept, n)
    h = rng.choice(numbers or ["1"], n)
    path = tmp_path / "hard.csv"
    pd.DataFrame({"y": y, "cell": cells, "h": h}).to_csv(path, index=False)
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    features = {"cell": "categorical", "h": "gaussian"}
    expected = nbapp.NaiveBayes(features).fit(loaded, "y")
    got = nbapp.fit_file(nbapp.NaiveBayes(features), path, "y")
    assert_same_model(got, expected, loaded)
    assert [type(v) for v in got.counts("cell").index] == [type(v) for v in expected.counts("cell").index]


def test_cross_validate_file_takes_every_fold_from_one_grouped_query(tmp_path, no_streaming):
    """The fold hash computed by DuckDB is hash_folds' (file, data row): same folds, same scores."""
    frames = [pushable_frame(700, seed=s, holes=False) for s in (3, 4)]
    for i, f in enumerate(frames):
        f.to_csv(tmp_path / f"part{i}.csv", index=False)
    features = {c: PUSHABLE[c] for c in ("city", "age", "visits")}
    got = nbapp.cross_validate_file(nbapp.NaiveBayes(features), tmp_path, "y", k=4)
    loaded = [nbapp.load_table((tmp_path / f"part{i}.csv").read_bytes(), "p.csv").frame for i in range(2)]
    folds = np.concatenate([hash_folds(np.arange(len(f)), 4, i) for i, f in enumerate(loaded)])
    frame = pd.concat(loaded, ignore_index=True)
    correct = 0
    for fold in range(4):
        test = folds == fold
        model = nbapp.NaiveBayes(features).fit(frame[~test], "y")
        correct += int((model.predict(frame[test]).to_numpy() == frame["y"][test].to_numpy()).sum())
    assert got.scores.n == len(frame)
    assert got.scores.accuracy == pytest.approx(correct / len(frame), abs=1e-12)


# -- PostgreSQL ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def shop_table(postgres):
    """A table of 1,000,000 rows loaded with COPY."""
    import psycopg

    frame = pushable_frame(1_000_000, seed=11)
    frame["flag"] = frame["flag"].astype(bool)
    with psycopg.connect(postgres.url) as con:
        con.execute('CREATE TABLE shop (y text, city text, member text, age double precision, score double '
                    'precision, visits integer, n1 bigint, n2 smallint, flag boolean, rank integer, spend double precision, '
                    'tenure double precision, days double precision, w double precision)')
        text = io.StringIO()
        frame.to_csv(text, index=False, header=False, float_format="%.17g")
        with con.cursor().copy("COPY shop FROM STDIN (FORMAT csv)") as copy:
            copy.write(text.getvalue())
        con.commit()
    return frame


def test_fit_sql_on_postgres_equals_fit_of_the_million_rows(postgres, shop_table, no_streaming):
    frame = shop_table
    expected = nbapp.NaiveBayes(PUSHABLE).fit(frame, "y", weight="w")
    calls = []
    got = nbapp.fit_sql(nbapp.NaiveBayes(PUSHABLE), "shop", "y", url=postgres.url, weight="w",
                        progress=lambda d, t: calls.append((d, t)))
    assert_same_model(got, expected, frame.iloc[:20_000])
    assert calls[-1] == (1_000_000, 1_000_000)
    query = "SELECT * FROM shop WHERE city IS NOT NULL"
    subset = frame[frame["city"].notna()]
    got = nbapp.fit_sql(nbapp.NaiveBayes(PUSHABLE), query, "y", url=postgres.url)
    assert_same_model(got, nbapp.NaiveBayes(PUSHABLE).fit(subset, "y"), subset.iloc[:20_000])


def test_fit_sql_on_postgres_names_a_column_it_cannot_push_down(postgres, shop_table):
    with pytest.raises(nbapp.DataError, match=r"^Column 'city' is text: its statistics cannot be computed inside "
                                              r"the engine .*inside the database. Fit it from a file"):
        nbapp.fit_sql(nbapp.NaiveBayes({"city": "text", "age": "gaussian"}), "shop", "y", url=postgres.url)


def test_fit_sql_on_postgres_names_the_row_of_a_refused_value(postgres, shop_table):
    query = "SELECT y, CASE WHEN age > 80 THEN -1 ELSE visits END AS visits FROM shop ORDER BY age DESC NULLS LAST LIMIT 1000"
    with pytest.raises(nbapp.DataError, match=r"'visits' is a Poisson count but row 0 holds -1"):
        nbapp.fit_sql(nbapp.NaiveBayes({"visits": "poisson"}), query, "y", url=postgres.url)


def test_fit_sql_on_postgres_reads_in_a_read_only_transaction_and_refuses_writing_queries(postgres, shop_table):
    """Issue 31, item 12: a SELECT ... INTO or a WITH holding a DELETE is refused before it
    runs, and a SELECT that would write (nextval on a sequence) meets a read-only transaction."""
    import psycopg

    with psycopg.connect(postgres.url, autocommit=True) as con:
        con.execute("CREATE SEQUENCE IF NOT EXISTS nbapp_seq")
    model = nbapp.NaiveBayes({"age": "gaussian"})
    with pytest.raises(nbapp.DataError, match=r"^The query holds INTO: fit_sql reads rows with one SELECT and writes"):
        nbapp.fit_sql(model, "SELECT y, age INTO stolen FROM shop", "y", url=postgres.url)
    with pytest.raises(nbapp.DataError, match=r"^The query holds DELETE"):
        nbapp.fit_sql(model, "WITH d AS (DELETE FROM shop RETURNING *) SELECT y, age FROM d", "y", url=postgres.url)
    with pytest.raises(nbapp.DataError, match=r"^The query holds 2 statements; give fit_sql one SELECT"):
        nbapp.fit_sql(model, "SELECT y, age FROM shop; DROP TABLE shop", "y", url=postgres.url)
    with pytest.raises(nbapp.DataError, match=r"read-only transaction"):
        nbapp.fit_sql(model, "SELECT y, nextval('nbapp_seq')::float8 AS age FROM shop LIMIT 3", "y", url=postgres.url)
    with psycopg.connect(postgres.url) as con:
        assert con.execute("SELECT count(*) FROM shop").fetchone()[0] == 1_000_000
        assert con.execute("SELECT to_regclass('stolen')").fetchone()[0] is None
        assert con.execute("SELECT last_value, is_called FROM nbapp_seq").fetchone() == (1, False)


# -- Spark -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weight", ["w", None])
def test_fit_spark_computes_every_pushable_type_as_spark_sql_aggregates(spark, monkeypatch, weight):
    from nbapp.scale import _clusters as clusters

    def refuse(*args, **kwargs):
        raise AssertionError("summarised by nbapp on the executors instead of by Spark SQL")

    monkeypatch.setattr(clusters, "_spark_partition_statistics", refuse)
    frame = pushable_frame(5_000, seed=5)
    got = nbapp.fit_spark(nbapp.NaiveBayes(PUSHABLE), spark.createDataFrame(frame).repartition(3), "y", weight=weight)
    assert_same_model(got, nbapp.NaiveBayes(PUSHABLE).fit(frame, "y", weight=weight), frame)
    assert not [t for t in spark.catalog.listTables() if t.name.startswith("nbapp_")]    # the view is dropped


def test_fit_spark_names_a_refused_value_from_the_partitions(spark):
    frame = pd.DataFrame({"y": ["a", "b", "a", "b"], "visits": [1, 2, -3, 4]})
    with pytest.raises(nbapp.DataError, match=r"In the Spark table .*'visits' is a Poisson count but row \d+ holds -3"):
        nbapp.fit_spark(nbapp.NaiveBayes({"visits": "poisson"}), spark.createDataFrame(frame), "y")


@pytest.fixture
def spark_queries(monkeypatch):
    """The SQL of every query fit_spark's aggregates run, in order."""
    from nbapp.scale import _engines

    ran: list[str] = []
    source = _engines.spark_source

    def counted(*args, **kwargs):
        s = source(*args, **kwargs)
        return dataclasses.replace(s, run=lambda sql, progress: ran.append(sql) or s.run(sql, progress))

    monkeypatch.setattr(_engines, "spark_source", counted)
    return ran


def test_fit_spark_takes_unweighted_gaussian_moments_in_one_scan(spark, spark_queries):
    """Issue 34, item 7: COUNT, SUM and VAR_POP per class in one query, no first rows read for a
    shift; the model equals fit's (NULL holes left out of each column's count)."""
    rng = np.random.default_rng(3)
    n = 6_000
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame({"y": y, **{f"g{j}": rng.normal(10.0 * j + 0.4 * y * j, 1 + j / 5, n) for j in range(4)}})
    for column in ("g1", "g2"):
        frame[column] = frame[column].astype(object).where(rng.random(n) > 0.05, None)
    features = {f"g{j}": "gaussian" for j in range(4)}
    sdf = spark.createDataFrame(frame, schema="y long, g0 double, g1 double, g2 double, g3 double").repartition(3)
    got = nbapp.fit_spark(nbapp.NaiveBayes(features), sdf, "y")
    assert len(spark_queries) == 1 and "VAR_POP" in spark_queries[0] and "LIMIT" not in spark_queries[0]
    frame = frame.astype({"g1": float, "g2": float})
    assert_same_model(got, nbapp.NaiveBayes(features).fit(frame, "y"), frame)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("order", ["shuffled", "sorted"])
def test_fit_spark_moments_keep_their_digits_far_from_zero(spark, order, weighted):
    """VAR_POP at an offset of 1e9 with a spread of 1e-3 loses digits (its running mean rounds at
    1e-7): the class is summed again about its mean, exact to a few units in the last place."""
    frame = far_frame(order)
    got = nbapp.fit_spark(nbapp.NaiveBayes({"x": "gaussian"}), spark.createDataFrame(frame).repartition(2), "y",
                          weight="w" if weighted else None).stats_.blocks[0]
    assert_exact_moments(got, frame if weighted else frame.assign(w=1.0))


def test_fit_spark_reads_nan_as_missing_equals_fit_on_a_constant_column_and_names_an_infinity(spark):
    """A NaN makes SUM and VAR_POP NaN, a constant column's M2 is 0: both are summed again (NaN
    read as missing, the smallest and largest values compared); an infinity is named by its row."""
    frame = pd.DataFrame({"y": ["a", "b"] * 50, "x": np.arange(100.0), "same": 7.5})
    frame.loc[[3, 8], "x"] = np.nan
    features = {"x": "gaussian", "same": "gaussian"}
    table = spark.createDataFrame(list(frame.itertuples(index=False)), "y string, x double, same double")
    assert table.filter("isnan(x)").count() == 2        # from rows, not pandas (which sends NaN as NULL)
    got = nbapp.fit_spark(nbapp.NaiveBayes(features), table, "y")
    assert_same_model(got, nbapp.NaiveBayes(features).fit(frame, "y"), frame)
    assert got.stats_.blocks[0].n[:, 0].tolist() == [49.0, 49.0]
    frame.loc[17, "x"] = np.inf
    with pytest.raises(nbapp.DataError, match=r"In the Spark table .*'x'.*row \d+"):
        nbapp.fit_spark(nbapp.NaiveBayes(features), spark.createDataFrame(frame), "y")


# -- the command line ---------------------------------------------------------------------------------------
def test_nbapp_fit_sql_fits_inside_the_database_named_by_url(duckdb_file, tmp_path, capsys):
    from nbapp.cli import main

    path, _ = duckdb_file
    url = f"duckdb:///{path}"
    out = tmp_path / "model.json"
    query = 'SELECT * FROM "Shop Rows" WHERE age > 30'
    assert main(["fit", "--sql", query, "--url", url, "--target", "y", "--types", "city=categorical,age=gaussian",
                 "--weight", "w", "--out", str(out)]) == 0
    expected = nbapp.fit_sql(nbapp.NaiveBayes({"city": "categorical", "age": "gaussian"}), query, "y", url=url,
                             weight="w")
    assert nbapp.NaiveBayes.from_json(out.read_text()).to_json() == expected.to_json()
    assert main(["fit", "--sql", '"Shop Rows"', "--url", url, "--target", "y", "--out", str(out)]) == 0
    assert "Types proposed from the first rows" in capsys.readouterr().err
    assert nbapp.NaiveBayes.from_json(out.read_text()).classes_ == ["churn", "stay", "trial"]
    assert main(["fit", str(tmp_path), "--sql", query, "--target", "y", "--out", str(out)]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("cell", CAST_ONLY_NUMBERS)
def test_fit_file_refuses_numbers_duckdb_reads_and_load_table_does_not(tmp_path, cell):
    """DuckDB's cast reads '+-1' as -1, '1_000' as 1000 and '-nan', '+nan', 'nan(1)' as NaN;
    load_table's number pattern reads none of them (only 'nan' is missing to it), nor digits of
    other scripts, and neither does fit_file (it read '+-1' as -1, the NaNs as missing values,
    and load_table crashed on '١٢')."""
    path = tmp_path / "signs.csv"
    path.write_text("y,h\na,1\nb,2\na," + cell + "\nb,4\n")
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    with pytest.raises(nbapp.DataError, match=r"'h' is Gaussian but row 2"):
        nbapp.NaiveBayes({"h": "gaussian"}).fit(loaded, "y")
    with pytest.raises(nbapp.DataError, match=r"Column 'h' is numeric but data row 2 of .*signs.csv"):
        nbapp.fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y")


# Cells of a number column (tests/number_cells.py): DuckDB's reader parses PARSED_BY_THE_READER
# itself (the fast read); it cannot parse LEFT_TO_THE_EXACT_READ, so the exact read (load_table's
# rule in SQL) takes the file over.


@pytest.mark.parametrize("cell", PARSED_BY_THE_READER + LEFT_TO_THE_EXACT_READ)
def test_fit_file_fast_read_equals_load_table_or_leaves_the_file_to_the_exact_read(tmp_path, reads, cell,
                                                                                no_streaming):
    """The fast read (numbers parsed by DuckDB's CSV reader) stands only where it reads what
    load_table reads; elsewhere it stops and the exact read runs: same model."""
    path = tmp_path / "cells.csv"
    path.write_text("y,h\n" + "".join(f"{'ab'[i % 2]},{i}.25\n" for i in range(40)) + f"a,{cell}\nb,7\n")
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    expected = nbapp.NaiveBayes({"h": "gaussian"}).fit(loaded, "y")
    assert_same_model(nbapp.fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y"), expected, loaded)
    assert reads == ([True] if cell in PARSED_BY_THE_READER else [True, False])


@pytest.mark.parametrize("cells, reads_wanted", [
    (["", '""', ""], [True]),            # empty cells (Excel's trailing rows, quoted or not): the fast read drops them
    ([" ", "", "  "], [True, False]),    # spaces: no class there, so the exact read drops the row
])
def test_fit_file_drops_blank_rows_inside_duckdb(tmp_path, reads, no_streaming, cells, reads_wanted):
    """Rows whose every cell is blank are dropped as load_table drops them, without streaming:
    rows of empty cells by the fast read itself, rows of spaces by the exact read it hands over to."""
    frame = pushable_frame(2_000, seed=5)
    blank = [",".join(cells[i % len(cells)] for i in range(frame.shape[1])), ""]   # and an empty line
    text = frame.to_csv(index=False).splitlines()
    text[700:700] = blank
    path = tmp_path / "blank.csv"
    path.write_text("\n".join(text + blank) + "\n")
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    assert len(loaded) == 2_000
    got = nbapp.fit_file(nbapp.NaiveBayes(PUSHABLE), path, "y", weight="w")
    assert_same_model(got, nbapp.NaiveBayes(PUSHABLE).fit(loaded, "y", weight="w"), loaded)
    assert reads == reads_wanted


@pytest.mark.parametrize("cell", ["1_000", "+-3"])
def test_fit_file_refuses_numbers_duckdb_reads_in_a_file_with_old_mac_line_ends(tmp_path, cell):
    """Lines ended by \\r alone: the header ends at the first \\r, so the search for '_' and '+'
    sees the data rows and the guard stays (it read '1_000' as 1000 when the header was taken
    to run to the first \\n, that is the whole file)."""
    path = tmp_path / "mac.csv"
    path.write_bytes(f"y,h\ra,1\rb,2\ra,{cell}\rb,4\r".encode())
    with pytest.raises(nbapp.DataError, match=r"Column 'h' is numeric but data row 2 of .*mac.csv"):
        nbapp.fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y")
    path.write_bytes(b"y,h\ra,1\rb,2\ra,5\rb,4\r")
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    expected = nbapp.NaiveBayes({"h": "gaussian"}).fit(loaded, "y")
    assert_same_model(nbapp.fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y"), expected, loaded)


@pytest.mark.parametrize("chunk", [16, 1 << 20])
def test_the_number_guard_keeps_each_mark_found_after_the_header(tmp_path, chunk):
    """'1_000' and '+-1' are numbers to DuckDB's cast and not to load_table: the guard against
    them is left out only for a mark whose first byte is in no data row of any file (a header
    'user_id' does not count; an exponent '1e+5' keeps the '+-' guard)."""
    def marks(*texts: str) -> tuple[str, ...]:
        paths = []
        for i, text in enumerate(texts):
            paths.append(tmp_path / f"f{i}.csv")
            paths[-1].write_text(text)
        return files._cast_only_marks(files.resolve_sources(paths), chunk=chunk)

    assert marks("user_id,h\na,1\nb,2\n") == ()
    assert marks("user_id,h\na,1\nb,2_0\n") == ("_",)
    assert marks("y,h\na,1e+5\n") == ("+-",)
    assert marks("y,h\na,1\n", "y,h\nb,-2\nc_d,+1\n") == ("_", "+-")
    assert marks("y_+\n") == ()
    assert marks("user_id,h\ra,1\rb,2_0\r") == ("_",)          # lines ended by \r alone
    assert marks("user_id,h\r\na,1\r\n") == ()                 # \r\n
    stopped = threading.Event()
    stopped.set()                  # the caller gave up waiting (a refusal came first): every mark, at once
    assert files._cast_only_marks(files.resolve_sources([tmp_path / "f0.csv"]), chunk=chunk, stop=stopped) \
        == files.CAST_ONLY


@pytest.mark.parametrize("digits", ["١٢", "１２"])
def test_fit_file_reads_digits_of_other_scripts_as_load_table_does(tmp_path, digits):
    """Text, as load_table reads them: a category like any other (no number for a Gaussian:
    test_fit_file_refuses_numbers_duckdb_reads_and_load_table_does_not)."""
    path = tmp_path / "digits.csv"
    path.write_text(f"y,h\na,1\nb,2\na,{digits}\nb,4\n")
    loaded = nbapp.load_table(path.read_bytes(), path.name).frame
    expected = nbapp.NaiveBayes({"h": "categorical"}).fit(loaded, "y")
    assert_same_model(nbapp.fit_file(nbapp.NaiveBayes({"h": "categorical"}), path, "y"), expected, loaded)


@pytest.mark.parametrize("combinations", [0, 10**9])
def test_both_query_plans_give_the_same_statistics(duckdb_file, monkeypatch, combinations):
    """GROUPING SETS over the rows (many distinct values) and over the groups of every key at once
    (a few) are the same statistics."""
    monkeypatch.setattr(aggregates, "MAX_COMBINATIONS", combinations)
    path, _ = duckdb_file
    with duckdb.connect(str(path), read_only=True) as con:
        frame = con.execute('SELECT * FROM "Shop Rows"').df()
        got = nbapp.fit_sql(nbapp.NaiveBayes(PUSHABLE), '"Shop Rows"', "y", url=con, weight="w")
    assert_same_model(got, nbapp.NaiveBayes(PUSHABLE).fit(frame, "y", weight="w"), frame)


def test_fit_sql_says_in_one_sentence_when_the_database_cannot_run_the_query():
    with duckdb.connect() as con:
        with pytest.raises(nbapp.DataError, match=r"DuckDB cannot read the query: .*"):
            nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), "SELECT * FROM no_such_table", "y", url=con)
        con.execute("CREATE TABLE t AS SELECT 'a' AS y, 1e308 AS x UNION ALL SELECT 'b', -1e308")
        model = nbapp.fit_sql(nbapp.NaiveBayes({"x": "categorical"}), "t", "y", url=con)
        assert model.classes_ == ["a", "b"]


def test_fit_sql_names_a_column_of_lists_before_counting():
    with duckdb.connect() as con:
        con.execute("CREATE TABLE t AS SELECT 'a' AS y, [1, 2] AS tags UNION ALL SELECT 'b', [3]")
        with pytest.raises(nbapp.DataError, match=r"Column 'tags' of the table 't' holds lists \(several values"):
            nbapp.fit_sql(nbapp.NaiveBayes({"tags": "categorical"}), "t", "y", url=con)


@pytest.mark.parametrize("query, message", [
    ("SELECT 'a' AS y, 1.0 AS x; COPY (SELECT 1) TO '{out}'", r"^The query holds 2 statements; give fit_sql one SELECT"),
    ("WITH r AS (SELECT 1) SELECT 'a' AS y, 1.0 AS x; COPY (SELECT 1) TO '{out}'", r"holds 2 statements"),
    ("FROM (SELECT 'a' AS y, 1.0 AS x);; COPY (SELECT 1) TO '{out}';", r"holds 2 statements"),
    ("SELECT 'a' AS y, 1.0 AS x) AS t; COPY (SELECT 1) TO '{out}'; SELECT * FROM (SELECT 1", r"^DuckDB cannot read the query"),
])
def test_fit_sql_runs_one_select_and_nothing_after_it(tmp_path, query, message):
    """Issue 31, item 12: before, ``SELECT ...; COPY (...) TO 'x.csv'`` wrote the file (DuckDB ran
    both statements of DESCRIBE's text); DuckDB's own parser now reads one SELECT or refuses."""
    out = tmp_path / "x.csv"
    with pytest.raises(nbapp.DataError, match=message):
        nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), query.format(out=out), "y")
    with pytest.raises(nbapp.DataError, match=message):
        sample_sql(query.format(out=out), "duckdb://", 10)
    assert not out.exists()


def test_fit_sql_refuses_a_statement_that_is_not_a_select_and_a_table_name_with_an_unbalanced_quote():
    with duckdb.connect() as con:
        con.execute("CREATE TABLE t AS SELECT 'a' AS y, 1.0 AS x")
        with pytest.raises(nbapp.DataError, match=r"^The query is not a SELECT"):
            nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), "WITH r AS (SELECT 1) INSERT INTO t SELECT 'b', 2.0",
                          "y", url=con)
        assert con.execute("SELECT count(*) FROM t").fetchone()[0] == 1
        for name in ['"Shop Rows', 'x"; drop table t']:
            with pytest.raises(nbapp.DataError, match=r"is neither a table name nor a SELECT query; quote a name"):
                nbapp.fit_sql(nbapp.NaiveBayes({"x": "gaussian"}), name, "y", url=con)


def test_nbapp_fit_sql_refuses_a_second_statement_in_one_line_and_writes_nothing(tmp_path, capsys):
    from nbapp.cli import main

    out, model = tmp_path / "x.csv", tmp_path / "model.json"
    query = f"SELECT 'a' AS y, 1.0 AS x UNION ALL SELECT 'b', 2.0; COPY (SELECT 1) TO '{out}'"
    assert main(["fit", "--sql", query, "--target", "y", "--types", "x=gaussian", "--out", str(model)]) == 2
    err = capsys.readouterr().err
    assert "holds 2 statements" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert main(["fit", "--sql", '"unbalanced', "--target", "y", "--out", str(model)]) == 2
    assert "neither a table name nor a SELECT query" in capsys.readouterr().err
    assert not out.exists() and not model.exists()
