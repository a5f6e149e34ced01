"""The Poisson count feature end to end in the app: typed on the Data page, its table and plot
on the Model page, its factor on the Explain page (issue 10)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import poisson

from apptest_helpers import open_page, start, table, upload
import drawn_svg

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
    at = _poisson_app()
    fits = at.session_state["model"].parameters("visits")        # the library's own table
    at = open_page(at, "Model")
    rates = table(at, lambda t: "lambda" in t.columns)
    # lambda_c = (sum x + l) / (n_c + l) with l = 1: high (22 + 1) / (4 + 1), low (4 + 1) / (4 + 1)
    assert fits.loc["high", "lambda"] == 23 / 5 and fits.loc["low", "lambda"] == 1.0
    assert list(rates.index) == list(fits.index) == ["high", "low"]
    numbers = fits.drop(columns="lambda_fraction")
    pd.testing.assert_frame_equal(rates[numbers.columns], numbers, check_dtype=False, check_names=False,
                                  check_index_type=False)
    assert rates["lambda_fraction"].tolist() == ["23/5", "1"] == [str(f) for f in fits["lambda_fraction"]]
    drawn = [drawn_svg.traces(svg) for svg in drawn_svg.drawn(at)]            # the fit, drawn as SVG
    assert drawn and any("Poisson" in t["name"] for t in drawn[0])


def test_the_explain_page_shows_the_poisson_factor():
    at = _poisson_app()
    model = at.session_state["model"]
    e = model.explain({"visits": 3})
    expected = {"high": poisson.logpmf(3, 23 / 5), "low": poisson.logpmf(3, 1.0)}
    assert np.allclose([e.logs.loc["visits", c] for c in ("high", "low")], [expected["high"], expected["low"]])
    at = open_page(at, "Explain")
    factors = table(at, lambda t: "visits" in t.index and "status" in t.columns)
    row = factors.loc["visits"]
    x = float(row["value"])                             # the query row's count, as the page shows it
    rates = model.parameters("visits")["lambda"]
    for c in ("high", "low"):
        assert f"λ = {rates[c]:g}" in row[f"{c} counts"]
        # the shown decimal and log are rounded to 4 significant digits and 5 decimals
        assert float(row[f"{c} decimal"]) == pytest.approx(poisson.pmf(x, rates[c]), rel=1e-3)
        assert float(row[f"{c} log"]) == pytest.approx(poisson.logpmf(x, rates[c]), abs=1e-5)
