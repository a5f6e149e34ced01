"""The keyboard alone (issue 33, item 8): in Chromium, after the page has loaded, only
``page.keyboard`` is used. On Explain (tennis) Tab reaches each feature's input, typing a value and
Enter changes it, and the prediction follows; the board opens from the keyboard and steps on with
Page Down (its shortcut), with the arrow keys (a presenter's clicker sends either) but not while
the focus is in an input, and with Tab + Enter on "Next step"; on Exercises Tab reaches an answer
box, the answer is typed and Enter submits it, and the verdict appears."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import App

pytestmark = pytest.mark.e2e

# What the focused element is: its label (aria-label, else its text) and the test ids around it.
_FOCUSED = """() => { const e = document.activeElement; if (!e || e === document.body) return null;
  const ids = []; for (let n = e; n; n = n.parentElement) { if (n.dataset && n.dataset.testid) ids.push(n.dataset.testid); }
  return {label: e.getAttribute('aria-label') || (e.innerText || '').trim(), testids: ids}; }"""

TAB_LIMIT = 200       # the Explain page has about 60 stops above its board; a loop that never finds one fails


def tab_to(page: Page, label: str | re.Pattern, *, testid: str | None = None, limit: int = TAB_LIMIT) -> None:
    """Press Tab until the focused element's label matches ``label`` (within ``testid``); fail
    when ``limit`` presses never reach it: it cannot be reached from the keyboard."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(_FOCUSED)
        if focused is None:
            continue
        seen.append(focused["label"][:40])
        matches = label.search(focused["label"]) if isinstance(label, re.Pattern) else focused["label"] == label
        if matches and (testid is None or testid in focused["testids"]):
            return
    raise AssertionError(f"{label!r} not reached with {limit} presses of Tab; the stops were: {seen[-60:]}")


def shown_numbers(page: Page) -> list[str]:
    """The prediction and the posteriors as the metrics show them."""
    return page.get_by_test_id("stMetricValue").all_inner_texts()


# Each tennis feature and a value other than the example's query (Overcast, Hot, High, Strong).
NEW_VALUES = {"Outlook": "Rain", "Temperature": "Cool", "Humidity": "Normal", "Wind": "Weak"}


def test_explain_inputs_are_reached_and_changed_with_the_keyboard_and_the_prediction_follows(app: App):
    page = app.page
    page.goto(f"{app.url}/Explain?example=tennis14")
    app.wait()
    for feature, value in NEW_VALUES.items():
        before = shown_numbers(page)
        tab_to(page, feature, testid="stSelectbox")
        page.keyboard.type(value)
        page.keyboard.press("Enter")
        app.wait()
        expect(page.get_by_role("combobox", name=feature, exact=True)).to_have_value(value)
        assert shown_numbers(page) != before, f"the prediction did not follow {feature} = {value}"


def _step_shown(page, n: int) -> None:
    expect(page.get_by_text(re.compile(rf"^Step {n} of \d+:"))).to_be_visible()


def _board_opened_from_the_keyboard(app: App):
    """Explain of tennis with its board opened by Tab and Enter, at step 1; the page."""
    page = app.page
    page.goto(f"{app.url}/Explain?example=tennis14")
    app.wait()
    tab_to(page, re.compile(r"The board, step by step"), testid="stExpander")
    page.keyboard.press("Enter")
    app.wait()
    _step_shown(page, 1)
    return page


def test_the_board_opens_and_steps_from_the_keyboard(app: App):
    page = _board_opened_from_the_keyboard(app)
    page.keyboard.press("PageDown")                    # the presenter's clicker (the button's shortcut)
    app.wait()
    _step_shown(page, 2)
    tab_to(page, re.compile(r"Next step"), testid="stButton")
    page.keyboard.press("Enter")
    app.wait()
    _step_shown(page, 3)


def test_the_arrow_keys_step_the_board_but_not_from_an_input(app: App):
    page = _board_opened_from_the_keyboard(app)
    page.keyboard.press("ArrowRight")                  # the other clicker
    app.wait()
    _step_shown(page, 2)
    page.keyboard.press("ArrowRight")
    app.wait()
    _step_shown(page, 3)
    page.keyboard.press("ArrowLeft")
    app.wait()
    _step_shown(page, 2)
    page.get_by_role("combobox", name="Outlook", exact=True).focus()     # typing: the arrows move the caret
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Escape")
    app.wait()
    _step_shown(page, 2)


def test_an_exercise_is_answered_and_submitted_from_the_keyboard(app: App):
    page = app.page
    page.goto(f"{app.url}/Exercises?example=tennis14")
    app.wait()
    expect(page.get_by_text(re.compile(r"(Right|Not right): "))).to_have_count(0)
    tab_to(page, "Your answer", testid="stTextInput")
    page.keyboard.type("1/2")
    page.keyboard.press("Enter")
    app.wait()
    expect(page.get_by_text(re.compile(r"(Right|Not right): 1/2")).first).to_be_visible()
    expect(page.get_by_text(re.compile(r"Right so far: |Right so far"))).to_be_visible()
