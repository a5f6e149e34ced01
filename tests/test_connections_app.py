"""ui/connections.py in a running script (AppTest): the operator's [connections.NAME] read through
st.secrets into descriptors a page may show, a DuckDB file's tables listed, sampled, fitted and
cross-validated through them, and never a url or a password on screen."""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from ui.text import md

from apptest_helpers import clear_caches, no_exception  # noqa: F401 (autouse fixture)


def _page() -> None:
    """A page that shows what ui.connections gives: each connection, its tables, a sample, a fit
    and a cross-validation of its first table; the way to add one when there are none."""
    import streamlit as st

    import nbapp
    from ui import connections

    found = connections.connections()
    connections.problems_ui(found)
    if not found.offered:
        connections.how_to_add_ui()
    for connection in found.offered:
        st.text(f"{connection.name} | {connection.label} | {', '.join(connection.tables)} | {connection.allow_sql}")
        for table in connections.tables(connection.name):
            st.text(f"{table.name}: {table.problem or ', '.join(f'{c} {t}' for c, t in table.columns)}")
        relation = connection.relation(table=connection.tables[0])
        st.dataframe(connections.sample(relation, 4))
        types = {"colour": "categorical", "size": "gaussian"}
        model = connections.fit(nbapp.NaiveBayes(types), relation, "y")
        st.text(f"fitted on {int(model.class_counts_.sum())} rows: {model.classes_}")
        evaluation = connections.cross_validate(nbapp.NaiveBayes(types), relation, "y", k=3)
        st.text(f"cross-validated {evaluation.scores.n} rows in {len(evaluation.fold_scores)} folds")


def _on_screen(at: AppTest) -> str:
    parts = [e.value for kind in ("text", "markdown", "info", "warning", "error", "code", "caption")
             for e in getattr(at, kind)]
    parts += [at.dataframe[i].value.to_csv() for i in range(len(at.dataframe))]
    return "\n".join(str(p) for p in parts)


def test_without_connections_the_page_says_how_to_add_one():
    at = no_exception(AppTest.from_function(_page, default_timeout=60).run())
    assert at.info[0].value.startswith("No database is connected to this app.")
    assert at.code[0].language == "toml" and at.code[0].value.startswith("[connections.shop]\nurl = ")
    assert not at.text


def test_connections_in_st_secrets_are_listed_sampled_fitted_and_cross_validated(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.choice(["a", "b"], 600)
    frame = pd.DataFrame({"y": y, "colour": rng.choice(["red", "blue"], 600),
                          "size": rng.normal(0, 1, 600) + (y == "a")})
    path = tmp_path / "secret-folder" / "shop.db"
    path.parent.mkdir()
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE sales AS SELECT * FROM frame")
    con.close()
    at = AppTest.from_function(_page, default_timeout=60)
    at.secrets["connections"] = {
        "shop": {"url": f"duckdb:///{path}", "tables": ["sales", "gone"], "allow_sql": False},
        "broken": {"url": "postgresql://reader:hunter2@db.hidden.example/x"},
    }
    no_exception(at.run())
    texts = [t.value for t in at.text]
    assert texts[0] == "shop | DuckDB | sales, gone | False"
    assert texts[1] == "sales: y VARCHAR, colour VARCHAR, size DOUBLE"
    assert texts[2].startswith("gone: DuckDB cannot read the table 'gone': Catalog Error")
    assert texts[3] == "fitted on 600 rows: ['a', 'b']"
    assert texts[4] == "cross-validated 600 rows in 3 folds"
    assert len(at.dataframe) == 1 and list(at.dataframe[0].value.columns) == ["y", "colour", "size"]
    assert [w.value for w in at.warning] == [md(
        '[connections.broken] in .streamlit/secrets.toml offers nothing; list its tables (tables = ["public.orders"]) '
        'or set allow_sql = true.')]
    shown = _on_screen(at)
    assert "secret-folder" not in shown and "hunter2" not in shown and "hidden" not in shown
