"""Small things a new user met in Chromium (issue 33, item 5): accessible names without Markdown
escapes, and nothing cut at a 1400 px wide window.

Before: a screen reader said "bill\\_length\\_mm" for the Explain inputs and the Data page's type
choices (a label's accessible name is its Markdown source); Evaluate's comparison grid hid its
last scores and the encodings their words behind a scroll bar, the Exercises' last kinds of
question were cut in their box and "Sheet with answers (Markd…" in its button."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import App

pytestmark = pytest.mark.e2e

PAGES = ("Data", "Model", "Explain", "Evaluate", "Lessons", "Text", "Exercises")

# Every accessible name given by an attribute: aria-label, and the text aria-labelledby points at.
_NAMES = """() => { const names = [];
  for (const el of document.querySelectorAll('[aria-label]')) names.push(el.getAttribute('aria-label'));
  for (const el of document.querySelectorAll('[aria-labelledby]'))
    for (const id of el.getAttribute('aria-labelledby').split(/\\s+/)) {
      const label = id && document.getElementById(id); if (label) names.push(label.textContent); }
  return names; }"""

# Text that does not fit its box: an element whose content is wider than it shows.
_CUT = """(root) => [...root.querySelectorAll('th, td, p, span')]
  .filter(el => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.trim().slice(0, 60))"""


def test_no_accessible_name_carries_a_markdown_escape_on_penguins(app: App):
    page = app.page
    page.goto(f"{app.url}/?example=penguins")
    app.wait()
    escaped = {}
    for name in PAGES:
        if name != "Data":
            app.open_page(name)
        names = page.evaluate(_NAMES)
        assert any("bill" in n and "length" in n for n in names) or name not in ("Data", "Explain"), (name, names[:20])
        found = sorted({n for n in names if "\\" in n})
        if found:
            escaped[name] = found
    assert not escaped, escaped


@pytest.fixture()
def wide(app: App) -> App:
    app.page.set_viewport_size({"width": 1400, "height": 900})
    return app


def test_evaluate_shows_every_score_and_encoding_whole_at_1400_px(wide: App):
    page = wide.page
    page.goto(f"{wide.url}/Evaluate?example=penguins")
    wide.wait()
    page.get_by_text("Compare with other classifiers", exact=False).click()
    wide.wait()
    tables = page.get_by_test_id("stTable")
    scores = tables.filter(has_text="log-loss, clipped")
    encodings = tables.filter(has_text="one-hot: an indicator per value")
    for table in (scores, encodings):
        expect(table).to_have_count(1)
        assert table.evaluate(_CUT) == []
        assert table.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the table scrolls sideways"
    expect(scores).to_contain_text("Logistic regression (every column, encoded as listed)")


def test_the_exercises_kinds_and_downloads_are_whole_at_1400_px(wide: App):
    page = wide.page
    page.goto(f"{wide.url}/Exercises?example=penguins")
    wide.wait()
    chips = page.get_by_test_id("stMultiSelectTagsContainer")
    room = chips.bounding_box()
    tags = chips.locator("[data-tag]")
    assert tags.count() >= 5
    for i in range(tags.count()):
        box = tags.nth(i).bounding_box()
        assert room["x"] - 1 <= box["x"] and box["x"] + box["width"] <= room["x"] + room["width"] + 1, \
            f"{tags.nth(i).inner_text()!r} at {box} is cut by its box {room}"
        assert tags.nth(i).evaluate(_CUT) == [], tags.nth(i).inner_text()
    labels = page.get_by_test_id("stDownloadButton").locator("button p")
    expect(labels).to_have_count(4)
    for i in range(4):
        assert labels.nth(i).evaluate("el => el.scrollWidth <= el.clientWidth + 1"), labels.nth(i).inner_text()
