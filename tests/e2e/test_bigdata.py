"""End to end in Chromium (issue 11.5): a local CSV opened by path is fitted on every row, out of
core, and Model, Explain and Evaluate work on that model while showing a sample."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_a_local_path_is_fitted_on_every_row_and_cross_validated(app, tmp_path):
    rows = 25_000
    rng = np.random.default_rng(0)
    y = rng.choice(["stay", "leave"], rows)
    path = tmp_path / "customers.csv"
    pd.DataFrame({"plan": rng.choice(["basic", "pro"], rows), "spend": np.round(rng.normal(50, 9, rows), 2) + (y == "stay"),
                  "churn": y}).to_csv(path, index=False)

    app.goto()
    page = app.page
    page.get_by_test_id("stRadio").get_by_text("Open a local path").click()
    app.wait()
    page.get_by_role("textbox", name=re.compile("Path on this machine")).fill(str(path))
    page.keyboard.press("Enter")
    app.wait()
    page.get_by_test_id("stButton").get_by_role("button", name="Open the path").click()
    app.wait(initial_wait=1000)
    expect(page.get_by_text("Model fitted on all 25,000 rows", exact=False)).to_be_visible(timeout=60_000)

    app.open_page("Explain")
    expect(page.get_by_text(re.compile(r"fitted on all 25,000 rows .* sample of 20,000 rows"))).to_be_visible()
    assert app.metric("Prediction (argmax)") in ("stay", "leave")

    app.open_page("Evaluate")
    expect(page.get_by_test_id("stMetricValue").first).to_be_visible(timeout=60_000)
    assert app.metric("Test cases") == "25,000"
