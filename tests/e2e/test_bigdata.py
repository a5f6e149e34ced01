"""End to end in Chromium (issue 11.5): a CSV opened by path under the server's data folder
(NBAPP_DATA_ROOT) is fitted on every row, out of core, and Model, Explain and Evaluate work on
that model while showing a sample."""

from __future__ import annotations

import re
from typing import Iterator

import numpy as np
import pandas as pd
import pytest
from e2e.conftest import QUIET, STREAMLIT, App, serve
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """A server whose data folder is a fresh temporary folder: its URL and the folder."""
    folder = tmp_path_factory.mktemp("data_root")
    with serve([*STREAMLIT, *QUIET, "--server.address=127.0.0.1"], env={"NBAPP_DATA_ROOT": str(folder)},
               log_name="streamlit-data-root.log") as url:
        yield url, folder


def test_a_local_path_is_fitted_on_every_row_and_cross_validated(page, data_folder):
    url, folder = data_folder
    app = App(page, url)
    rows = 25_000
    rng = np.random.default_rng(0)
    y = rng.choice(["stay", "leave"], rows)
    path = folder / "customers.csv"
    pd.DataFrame({"plan": rng.choice(["basic", "pro"], rows), "spend": np.round(rng.normal(50, 9, rows), 2) + (y == "stay"),
                  "churn": y}).to_csv(path, index=False)

    app.goto()
    page = app.page
    page.get_by_test_id("stRadio").get_by_text("Open a local path").click()
    app.wait()
    page.get_by_role("textbox", name=re.compile("Path in the data folder")).fill(path.name)
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
