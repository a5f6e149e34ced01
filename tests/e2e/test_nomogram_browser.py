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


# Every text of an SVG with its box as Chromium draws it, and the trace (g.trace) it belongs to.
_TEXT_BOXES = """svg => {
    const frame = svg.getBoundingClientRect();
    return {left: frame.left, right: frame.right, texts: [...svg.querySelectorAll('text')]
        .filter(t => t.textContent.length)
        .map(t => {const b = t.getBoundingClientRect(), g = t.closest('g.trace');
                   return {text: t.textContent, trace: g ? g.getAttribute('class') : null,
                           left: b.left, right: b.right, top: b.top, bottom: b.bottom};})};
}"""


def assert_labels_apart_and_inside(svg) -> None:
    """In the plotly SVG ``svg`` (a locator) as Chromium draws it: the total's "P = ..." label
    ends inside the image, and no two labels of one trace (a scale) overlap by more than a pixel
    (glyphs' boxes include their side bearings)."""
    drawn = svg.evaluate(_TEXT_BOXES)
    total = [t for t in drawn["texts"] if t["text"].startswith("total") and "P = " in t["text"]]
    assert len(total) == 1 and drawn["left"] <= total[0]["left"] and total[0]["right"] <= drawn["right"], total
    by_trace: dict[str, list] = {}
    for t in drawn["texts"]:
        if t["trace"]:
            by_trace.setdefault(t["trace"], []).append(t)
    assert max(len(v) for v in by_trace.values()) >= 10         # the probability ticks are measured
    overlapping = [(a["text"], b["text"]) for labels in by_trace.values() for i, a in enumerate(labels)
                   for b in labels[i + 1:]
                   if min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
                   and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1]
    assert not overlapping


@pytest.mark.parametrize("case", range(4))
def test_the_exported_nomogram_measured_in_chromium_has_its_labels_apart_and_inside(page, case):
    """Issue 33, item 4: the penguins' nomogram's SVG (the download; cases of
    tests/test_nomogram_figure.py), drawn by Chromium."""
    from test_nomogram_figure import exported_svg

    page.set_content(f"<html><body style='margin:0'>{exported_svg(case)}</body></html>")
    assert_labels_apart_and_inside(page.locator("svg").first)


def test_the_penguins_nomogram_on_the_explain_page_has_its_labels_apart_and_inside(app):
    """Issue 33, item 4, on screen: the Explain page's nomogram of penguins (Streamlit's theme,
    the page's width)."""
    page = app.page
    page.goto(f"{app.url}/?example=penguins")
    app.wait()
    app.open_page("Explain")
    page.get_by_text("Nomogram: read the probability", exact=False).click()
    app.wait()
    chart = page.get_by_test_id("stPlotlyChart").last
    expect(chart).to_be_visible()
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    app.screenshot("nomogram_penguins")
    assert_labels_apart_and_inside(chart.locator("svg.main-svg").first)
