"""End to end in Chromium: the Explain page's nomogram opens, and a click on a category's point
makes that value the row's (issue 25, item 5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_clicking_a_value_on_the_nomogram_moves_the_row(app):
    app.goto()
    app.open_page("Explain")
    page = app.page
    page.get_by_text("Nomogram: read the probability", exact=False).click()
    app.wait()
    chart = page.get_by_test_id("stPlotlyChart").last
    expect(chart).to_be_visible()
    expect(page.get_by_text(re.compile(r"read off the nomogram"))).to_be_visible()
    before = app.metric("P(Yes | x) read off the nomogram")
    app.screenshot("nomogram")
    outlook = page.get_by_role("combobox", name="Outlook")
    expect(outlook).to_have_value("Overcast")
    # traces: the prior, Outlook's line, Outlook's points (Rain, Sunny: at l = 0 Overcast is +inf, off
    # the scale); click Rain
    chart.scroll_into_view_if_needed()
    chart.locator("g.trace.scatter").nth(2).locator("path.point").nth(0).click(force=True)
    app.wait(800)
    expect(outlook).to_have_value("Rain")
    assert app.metric("P(Yes | x) read off the nomogram") != before
    app.screenshot("nomogram_clicked")
