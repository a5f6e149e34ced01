"""End to end in Chromium (issue 34, item 2): a server whose operator names a DuckDB file in a
secrets file (``--secrets.files``, a file in a temporary folder: the repository is not written)
offers its table on the Data page; the visitor opens it, the model is fitted inside DuckDB on
every row, Explain says it shows a sample, Evaluate cross-validates inside the database, and
the page's link opens the same table in a new visit. The file's path is on no page."""

from __future__ import annotations

import re
from typing import Iterator

import pytest
from database_fixtures import make_duckdb_file
from e2e.conftest import QUIET, STREAMLIT, App, serve
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
ROWS = 150_000       # more than the 100,000 rows the pages show: the model sees every row


@pytest.fixture(scope="module")
def shop_server(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """A server whose secrets name the DuckDB file as connection 'shop': its URL and the folder
    of the file (which no page may show)."""
    folder = tmp_path_factory.mktemp("hidden_db_folder")
    url, _frame = make_duckdb_file(folder, rows=ROWS)
    secrets = folder / "secrets.toml"
    secrets.write_text(f'[connections.shop]\nurl = "{url}"\ntables = ["visits"]\n', encoding="utf-8")
    with serve([*STREAMLIT, *QUIET, "--server.address=127.0.0.1", f"--secrets.files={secrets}"],
               log_name="streamlit-database.log") as server:
        yield server, str(folder)


def assert_not_shown(app: App, folder: str) -> None:
    html = app.page.content()
    assert folder not in html and "duckdb:" not in html and "shop.db" not in html


def test_a_duckdb_table_is_opened_fitted_and_evaluated_in_the_browser(page, browser, shop_server):
    url, folder = shop_server
    app = App(page, url)
    app.goto()
    page.get_by_test_id("stRadio").get_by_text("Open a database table").click()
    app.wait()
    expect(page.get_by_test_id("stSelectbox").get_by_role("combobox", name="Connection")).to_have_value("shop (DuckDB)")
    expect(page.get_by_test_id("stSelectbox").get_by_role("combobox", name="Table")).to_have_value("visits")
    expect(page.get_by_text(re.compile(r"Columns: id \(BIGINT\), y \(VARCHAR\)"))).to_be_visible()
    page.get_by_test_id("stButton").get_by_role("button", name="Open the table").click()
    app.wait(initial_wait=1000)
    expect(page.get_by_text(f"Model fitted on all {ROWS:,} rows", exact=False)).to_be_visible(timeout=120_000)
    expect(page.get_by_text("the table 'visits' of 'shop' (DuckDB, fitted inside it)", exact=False)).to_be_visible()
    assert_not_shown(app, folder)

    app.open_page("Explain")
    expect(page.get_by_text(re.compile(rf"fitted on all {ROWS:,} rows of the table 'visits' of 'shop', inside "
                                       r"DuckDB\. .* sample of the first 100,000 rows"))).to_be_visible()
    assert app.metric("Prediction (argmax)") in ("churn", "stay", "trial")
    assert_not_shown(app, folder)

    app.open_page("Evaluate")
    expect(page.get_by_test_id("stMetricValue").first).to_be_visible(timeout=180_000)
    assert app.metric("Test cases") == f"{ROWS:,}"
    expect(page.get_by_text("Folds are assigned by a hash of each whole row", exact=False)).to_be_visible()
    assert_not_shown(app, folder)

    # the link names the connection and the table; a new visit opens the same table
    link = page.url
    assert "connection=shop" in link and "table=visits" in link and folder not in link
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        other = App(context.new_page(), url)
        other.page.set_default_timeout(30_000)
        other.page.goto(link)
        other.wait(initial_wait=1000)
        expect(other.page.get_by_text("the table 'visits' of 'shop' (DuckDB, fitted inside it)", exact=False)
               ).to_be_visible(timeout=120_000)
        expect(other.page.get_by_text(f"fitted on all {ROWS:,} rows", exact=False).first).to_be_visible(
            timeout=120_000)
        assert_not_shown(other, folder)
    finally:
        context.close()
