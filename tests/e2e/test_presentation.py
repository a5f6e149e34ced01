"""End to end in Chromium (issue 14): the lecture on one 1280x720 screen, and the export preview
with one equation per line."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 1280, 720


def _inside(box: dict | None) -> bool:
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= WIDTH + 1 \
        and box["y"] + box["height"] <= HEIGHT + 1


def test_presentation_mode_shows_tennis_factors_and_posterior_on_one_1280x720_screen(app):
    page = app.page
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    app.goto()
    app.open_page("Explain")
    page.get_by_text("Presentation mode", exact=True).click()
    app.wait()
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    frames = page.get_by_test_id("stDataFrame")
    expect(frames).to_have_count(2)          # the factor table and the totals, nothing else
    page.wait_for_timeout(800)               # KaTeX and the grids lay out
    shot = app.screenshot("presentation_tennis", publish=True, viewport_only=True)   # what a projector shows
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    factors, totals = frames.nth(0).bounding_box(), frames.nth(1).bounding_box()
    assert _inside(factors), f"factor table {factors} not inside {WIDTH}x{HEIGHT}"   # so its last row is too
    assert _inside(totals), f"totals {totals} not inside {WIDTH}x{HEIGHT}"
    equations = page.locator(".katex-display")
    texts = [equations.nth(i).inner_text() for i in range(equations.count())]
    posterior = [i for i, t in enumerate(texts) if "∣x)" in t.replace(" ", "") and "P(x)" not in t[:5]]
    assert posterior, texts
    for i in posterior:
        box = equations.nth(i).bounding_box()
        assert _inside(box), f"posterior equation {texts[i]!r} at {box} is outside the screen"
    for i in range(equations.count()):      # no equation clipped: its content fits its box
        assert equations.nth(i).evaluate("el => el.scrollWidth <= el.clientWidth + 1"), texts[i]
    assert not page.get_by_test_id("stException").count()


def test_export_preview_shows_each_equation_on_its_own_line(app):
    page = app.page
    app.goto()
    app.open_page("Lessons")
    page.get_by_role("radio", name="10 Export", exact=True).click()
    app.wait()
    preview = page.get_by_test_id("stExpander").filter(has_text="Preview of the Markdown")
    expect(preview).to_be_visible(timeout=60_000)
    # st.markdown renders "$$ ... $$" as math inside a paragraph: one paragraph per equation means one
    # equation per line; equations on consecutive lines of the Markdown would share one paragraph
    paragraphs = preview.locator("p:has(> .katex)")
    expect(paragraphs.first).to_be_visible()
    n = paragraphs.count()
    assert n >= 9
    assert [paragraphs.nth(i).locator("> .katex").count() for i in range(n)] == [1] * n
    boxes = [paragraphs.nth(i).locator("> .katex").bounding_box() for i in range(n)]
    for above, below in zip(boxes, boxes[1:]):
        assert below["y"] >= above["y"] + above["height"] - 1, (above, below)   # never side by side
    app.screenshot("export_preview")
    assert not page.get_by_test_id("stException").count()
