"""The Poisson count feature end to end in the app: typed on the Data page, its table and plot
on the Model page, its factor on the Explain page (issue 10)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import poisson

from apptest_helpers import open_page, start, table, upload

CSV = ("visits,label\n" + "\n".join(f"{v},{c}" for v, c in
       [(0, "low"), (1, "low"), (2, "low"), (1, "low"), (5, "high"), (7, "high"), (6, "high"), (4, "high")])).encode()


def _poisson_app():
    at = upload(start(), "visits.csv", CSV, check=False)
    if at.selectbox(key="_data_target").value != "label":
        at.selectbox(key="_data_target").set_value("label").run()
    columns = [s.key for s in at.selectbox if s.key and s.key.startswith("_type::")]
    at.selectbox(key=columns[0]).set_value("poisson").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_poisson_column_shows_its_rates_and_plot_on_the_model_page():
    at = open_page(_poisson_app(), "Model")
    rates = table(at, lambda t: "lambda" in t.columns)
    # lambda_c = (sum x + l) / (n_c + l) with l = 1: high (22 + 1) / (4 + 1), low (4 + 1) / (4 + 1)
    assert rates.loc["high", "lambda"] == 23 / 5 and rates.loc["low", "lambda"] == 1.0
    assert any(c.proto.spec and "Poisson" in c.proto.spec for c in at.get("plotly_chart"))


def test_the_explain_page_shows_the_poisson_factor():
    at = _poisson_app()
    model = at.session_state["model"]
    e = model.explain({"visits": 3})
    expected = {"high": poisson.logpmf(3, 23 / 5), "low": poisson.logpmf(3, 1.0)}
    assert np.allclose([e.logs.loc["visits", c] for c in ("high", "low")], [expected["high"], expected["low"]])
    at = open_page(at, "Explain")
    shown = [t for t in (d.value for d in at.dataframe) if isinstance(t, pd.DataFrame)]
    assert any("visits" in map(str, t.index) or "visits" in t.to_string() for t in shown)
