"""End to end in Chromium: the what-if explorer on Explain recomputes the posterior in the browser
from the score card, equal to predict_proba to 1e-9, without a script run (issue 32, item 2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

import nbapp
from nbapp.examples import example, load_example

pytestmark = pytest.mark.e2e

TOLERANCE = 1e-9
# Counts the script runs the page starts from now on (Streamlit marks the app "running").
COUNT_RUNS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.nbRuns = 0;
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.nbRuns += 1;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def _probabilities(page, classes: list[str]) -> np.ndarray:
    return np.array([float(page.locator(f"[data-nb-class='{c}']").get_attribute("data-nb-probability"))
                     for c in classes])


def test_the_explorer_adds_the_card_in_the_browser_without_a_rerun(app):
    tennis = example("tennis14")
    model = nbapp.NaiveBayes(tennis.features, alpha=tennis.alpha).fit(load_example("tennis14"), target="Play")
    classes = model.classes_
    app.goto()
    app.open_page("Explain")
    page = app.page
    outlook = page.locator("select[data-nb-feature='Outlook']")
    expect(outlook).to_have_value("Overcast")             # the page's row: the notes' query
    expect(outlook.locator("option")).to_have_count(4)     # the three categories and "missing"
    row = dict(tennis.query)
    np.testing.assert_allclose(_probabilities(page, classes), model.predict_proba(row).to_numpy()[0],
                               rtol=0, atol=TOLERANCE)
    page.evaluate(COUNT_RUNS)
    seen = []
    for column, value in [("Outlook", "Rain"), ("Temperature", "Cool"), ("Humidity", "Normal"), ("Wind", "Weak"),
                          ("Outlook", "Sunny"), ("Wind", None)]:
        select = page.locator(f"select[data-nb-feature='{column}']")
        if value is None:
            select.select_option(index=select.locator("option").count() - 1)      # "(missing)"
        else:
            select.select_option(value)
        row[column] = value
        expected = model.predict_proba(pd.DataFrame({c: pd.Series([v], dtype=object) for c, v in row.items()}))
        got = _probabilities(page, classes)
        np.testing.assert_allclose(got, expected.to_numpy()[0], rtol=0, atol=TOLERANCE, err_msg=f"{row}")
        seen.append(got)
    assert len({tuple(p) for p in seen}) == len(seen), "every change moved the posterior"
    # the keyboard: a focused select steps to the next value
    humidity = page.locator("select[data-nb-feature='Humidity']")
    humidity.focus()
    page.keyboard.press("ArrowUp")
    expect(humidity).to_have_value("High")
    row["Humidity"] = "High"
    expected = model.predict_proba(pd.DataFrame({c: pd.Series([v], dtype=object) for c, v in row.items()}))
    np.testing.assert_allclose(_probabilities(page, classes), expected.to_numpy()[0], rtol=0, atol=TOLERANCE)
    page.wait_for_timeout(500)
    assert page.evaluate("window.nbRuns") == 0, "a change of the explorer ran the script"
    app.screenshot("explorer")
    # the counter counts: a Streamlit widget's change (the query's "missing" box) runs the script
    page.get_by_test_id("stCheckbox").first.click()
    app.wait()
    assert page.evaluate("window.nbRuns") > 0
