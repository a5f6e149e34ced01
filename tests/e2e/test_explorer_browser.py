"""End to end in Chromium: the what-if explorer on Explain recomputes the posterior in the browser
from the score card, equal to predict_proba to 1e-9, without a script run while the values move;
once they rest, the page's row takes them (issue 32, item 2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

import nbapp
from nbapp.examples import example, load_example

from e2e.explorer_page import RunRequests

pytestmark = pytest.mark.e2e

TOLERANCE = 1e-9
# Moves the explorer's inputs one after another in one task of the page (no pause in which the
# row could settle), reading every class's probability after each move; the component's DOM
# is found through the shadow roots. Returns the probabilities after each move.
MOVE = """([changes, classes]) => {
  const root = [...document.querySelectorAll('*')].map((e) => e.shadowRoot)
    .find((r) => r && r.querySelector('.nb-explorer'));
  const read = () => classes.map((c) => Number(root.querySelector(`[data-nb-class="${c}"]`)
    .getAttribute('data-nb-probability')));
  const out = [];
  for (const [column, value] of changes) {
    const select = root.querySelector(`select[data-nb-feature="${column}"]`);
    select.selectedIndex = value === null ? select.options.length - 1
      : [...select.options].findIndex((o) => o.value === value);
    select.dispatchEvent(new Event('input', {bubbles: true}));
    out.push(read());
  }
  return out;
}"""


def _probabilities(page, classes: list[str]) -> np.ndarray:
    return np.array([float(page.locator(f"[data-nb-class='{c}']").get_attribute("data-nb-probability"))
                     for c in classes])


def _rested(app, runs: RunRequests) -> None:
    """Wait for the run the rested row starts (300 ms after the last move, later on a busy
    machine), and for its end; it must be the only run since the moves began."""
    runs.wait_for(1)
    app.wait()
    assert runs.count == 1, f"{runs.count} script runs for one rested row"


def _log_odds(page, selector: str) -> float:
    return float(page.locator(selector).get_attribute("data-nb-log-odds"))


def _expected(model: nbapp.NaiveBayes, row: dict) -> np.ndarray:
    frame = pd.DataFrame({c: pd.Series([v], dtype=object) for c, v in row.items()})
    return model.predict_proba(frame).to_numpy()[0]


def test_the_explorer_adds_the_card_in_the_browser_and_hands_the_rested_row_to_the_page(app):
    tennis = example("tennis14")
    model = nbapp.NaiveBayes(tennis.features, alpha=tennis.alpha).fit(load_example("tennis14"), target="Play")
    classes = model.classes_
    runs = RunRequests(app.page)
    app.goto()
    app.open_page("Explain")
    page = app.page
    page.get_by_text("What if: move a value", exact=False).click()
    outlook = page.locator("select[data-nb-feature='Outlook']")
    expect(outlook).to_have_value("Overcast")             # the page's row: the notes' query
    expect(outlook.locator("option")).to_have_count(4)     # the three categories and "missing"
    row = dict(tennis.query)
    np.testing.assert_allclose(_probabilities(page, classes), _expected(model, row), rtol=0, atol=TOLERANCE)

    runs.reset()
    changes = [["Outlook", "Rain"], ["Temperature", "Cool"], ["Humidity", "Normal"], ["Wind", "Weak"],
               ["Outlook", "Sunny"], ["Wind", None]]
    seen = page.evaluate(MOVE, [changes, classes])
    for (column, value), got in zip(changes, seen):
        row[column] = value
        np.testing.assert_allclose(got, _expected(model, row), rtol=0, atol=TOLERANCE, err_msg=f"{row}")
    assert len({tuple(p) for p in seen}) == len(seen), "every move changed the posterior"

    # at rest, the row goes to the page once: its inputs and its posterior follow the explorer's
    _rested(app, runs)                                      # the moves asked for no run: one, at rest
    expect(page.get_by_test_id("stSelectbox").get_by_role("combobox", name="Outlook")).to_have_value("Sunny")
    expect(page.get_by_test_id("stSelectbox").get_by_role("combobox", name="Temperature")).to_have_value("Cool")
    wind_missing = page.get_by_test_id("stMain").get_by_test_id("stCheckbox").nth(3).locator("input")
    expect(wind_missing).to_be_checked()
    assert app.metric("P(Yes | x)") == f"{_expected(model, row)[classes.index('Yes')]:.4g}"
    expect(outlook).to_have_value("Sunny")                  # the explorer kept its row
    np.testing.assert_allclose(_probabilities(page, classes), _expected(model, row), rtol=0, atol=TOLERANCE)

    # the log-odds of the most probable class against the runner-up, term by term: explain's
    explained = model.explain({c: (np.nan if v is None else v) for c, v in row.items()})
    expected = explained.contributions(explained.prediction)
    expect(page.locator("[data-nb-against]")).to_have_attribute("data-nb-weighed", explained.prediction)
    got = [_log_odds(page, "[data-nb-prior]"),
           *(_log_odds(page, f"[data-nb-contribution='{c}']") for c in tennis.features)]
    np.testing.assert_allclose(got, expected.to_numpy(dtype=float), rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(_log_odds(page, "[data-nb-total]"), expected.attrs["log_odds"], rtol=0, atol=TOLERANCE)
    assert expected["Wind"] == 0.0 and _log_odds(page, "[data-nb-contribution='Wind']") == 0.0   # missing adds nothing

    # the keyboard: a focused select steps to the next value, and the row rests again
    humidity = page.locator("select[data-nb-feature='Humidity']")
    humidity.focus()
    page.keyboard.press("ArrowUp")
    expect(humidity).to_have_value("High")
    row["Humidity"] = "High"
    np.testing.assert_allclose(_probabilities(page, classes), _expected(model, row), rtol=0, atol=TOLERANCE)
    runs.wait_for(2)
    app.wait()
    expect(page.get_by_test_id("stSelectbox").get_by_role("combobox", name="Humidity")).to_have_value("High")
    app.screenshot("explorer")


# Moves sliders in one task of the page: each to a position, reading the number it stands for
# and every class's probability after each move.
SLIDE = """([moves, classes]) => {
  const root = [...document.querySelectorAll('*')].map((e) => e.shadowRoot)
    .find((r) => r && r.querySelector('.nb-explorer'));
  const read = () => classes.map((c) => Number(root.querySelector(`[data-nb-class="${c}"]`)
    .getAttribute('data-nb-probability')));
  const out = [];
  for (const [column, position] of moves) {
    const slider = root.querySelector(`input[type=range][data-nb-feature="${column}"]`);
    slider.value = String(position);
    const start = performance.now();
    slider.dispatchEvent(new Event('input', {bubbles: true}));
    window.nbMoveMs = (window.nbMoveMs || []).concat([performance.now() - start]);
    out.push([slider.getAttribute('data-nb-value'), read()]);
  }
  return out;
}"""


def test_the_explorers_sliders_stand_for_the_cards_numbers_on_gender(app):
    gender = example("gender")
    model = nbapp.NaiveBayes(gender.features, alpha=gender.alpha).fit(load_example("gender"), target="Gender")
    classes = model.classes_
    card = model.score_card(pd.DataFrame([gender.query]))
    runs = RunRequests(app.page)
    app.goto()
    app.page.goto(f"{app.url}/?example=gender")
    app.wait()
    app.open_page("Explain")
    page = app.page
    page.get_by_text("What if: move a value", exact=False).click()
    height = page.locator("input[type=range][data-nb-feature='Height']")
    expect(height).to_have_attribute("data-nb-value", "6")          # the page's row: the notes' query
    row = {c: float(v) for c, v in gender.query.items()}
    np.testing.assert_allclose(_probabilities(page, classes), _expected(model, row), rtol=0, atol=TOLERANCE)

    runs.reset()
    moves = [["Height", 0], ["Weight", len(card.feature("Weight").values) - 1], ["Foot_Size", 40], ["Height", 77]]
    seen = page.evaluate(SLIDE, [moves, classes])
    print(f"explorer: input event to the changed posterior, ms per move: {page.evaluate('window.nbMoveMs')}")
    for (column, position), (value, got) in zip(moves, seen):
        assert float(value) == card.feature(column).values[position]      # String(x) reads back exactly
        row[column] = float(value)
        np.testing.assert_allclose(got, _expected(model, row), rtol=0, atol=TOLERANCE, err_msg=f"{row}")

    # the keyboard steps a focused slider to the card's next number
    height.focus()
    page.keyboard.press("ArrowRight")
    row["Height"] = float(height.get_attribute("data-nb-value"))
    assert row["Height"] == card.feature("Height").values[78]
    np.testing.assert_allclose(_probabilities(page, classes), _expected(model, row), rtol=0, atol=TOLERANCE)
    _rested(app, runs)                                              # at rest: the row goes to the page once
    male = _expected(model, row)[classes.index("male")]
    assert app.metric("P(male | x)") == f"{male:.4g}"
