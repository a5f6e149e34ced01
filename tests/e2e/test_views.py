"""End to end in Chromium: the teaching views and the text page render, with README screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

LESSONS = {"1 MLE vs MAP": "lesson_smoothing", "4 Naive assumption": "lesson_naive",
           "3 Linear classifier": "lesson_linear", "8 Underflow": "lesson_underflow"}


def test_lessons_views_draw_their_charts_or_tables(app):
    app.goto()
    app.open_page("Lessons")
    page = app.page
    for label, shot in LESSONS.items():
        page.get_by_role("radio", name=label, exact=True).click()   # st.segmented_control options
        app.wait()
        # a view either draws its charts or offers the example it needs; load that one first
        load = page.get_by_role("button", name="Load the built-in example", exact=False)
        if load.count():
            load.first.click()
            app.wait()
        # its chart, or (the linear lesson on its own Bernoulli example) its table of weights; a chart
        # folded away in an expander does not count
        shown = page.locator("[data-testid='stPlotlyChart']:visible, [data-testid='stDataFrame']:visible")
        expect(shown.first).to_be_visible(timeout=60_000)
        assert not page.get_by_test_id("stException").count()
        app.screenshot(shot, publish=True)


def test_text_page_shows_the_sms_corpus_word_by_word(app):
    app.goto()
    app.open_page("Text")
    page = app.page
    page.get_by_role("button", name="Load the SMS spam corpus").click()
    app.wait()
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible(timeout=60_000)
    assert not page.get_by_test_id("stException").count()
    app.screenshot("text", publish=True)
