"""End to end in Chromium (issue 14): the lecture on one 1280x720 screen, and the export preview
with one equation per line; presentation mode's page links, its type at 1920x1080 on every
teaching page and the Exercises page at 150% zoom (issue 33, item 3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import App

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
    frames = page.get_by_test_id("stTable")
    expect(frames).to_have_count(2)          # the factor table and the totals (HTML tables: their type scales)
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


# --------------------------------------------------------------------------- issue 33, item 3

TEACHING = ("Model", "Explain", "Text", "Lessons", "Exercises")

# Every piece of text on the page (an element with text of its own, drawn) smaller than ``min``
# px, by where it is; KaTeX (its sub- and superscripts are smaller by design), icons and the
# charts' other data labels are left out; the charts' ticks, axis titles, legends, titles and text
# drawn as the data (the Text page's tokens) are in.
_SMALL_TEXT = """(min) => {
  const out = [];
  const chartText = '.xtick text, .ytick text, .g-xtitle text, .g-ytitle text, .gtitle, .legendtext, .annotation-text, .textpoint text';
  for (const el of document.querySelectorAll('[data-testid="stMain"] *')) {
    if (el.closest('.katex, [data-testid="stIconMaterial"], [data-testid="stTooltipIcon"]')) continue;
    if (el.closest('.stPlotlyChart') && !el.matches(chartText) && !el.closest(chartText)) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const r = el.getBoundingClientRect();
    if (!own || !r.width || !r.height) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < min) out.push(`${el.closest('[data-testid]')?.dataset.testid} ${el.tagName} ${px}px: ${el.textContent.trim().slice(0, 30)}`);
  }
  return out.slice(0, 12);
}"""


def _presenting(browser: Browser, url: str, viewport: dict, scale: float = 1.0, *, example: str = "tennis14",
                page_name: str = "Explain") -> tuple[Page, App]:
    """A fresh browser at ``viewport`` on ``example``, ``page_name`` in presentation mode."""
    context = browser.new_context(viewport=viewport, device_scale_factor=scale)
    context.set_default_timeout(60_000)
    page = context.new_page()
    app = App(page, url)
    app.goto()
    page.goto(f"{url}/?example={example}")
    app.wait()
    app.open_page(page_name)
    page.get_by_test_id("stSidebar").get_by_text("Presentation mode", exact=True).click()
    app.wait()
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    return page, app


def _switch(page: Page, app: App, name: str) -> None:
    """Change page by the mode's page links (the sidebar is hidden)."""
    page.locator(".st-key-presentation_corner").get_by_role("link", name=name, exact=True).click()
    app.wait()


def test_the_mode_s_page_links_go_from_explain_to_model_with_the_work(app_url, browser):
    page, app = _presenting(browser, app_url, {"width": WIDTH, "height": HEIGHT})
    try:
        alpha = page.get_by_label("Smoothing l")
        alpha.fill("2")
        alpha.press("Enter")
        app.wait()
        _switch(page, app, "Model")
        expect(page.get_by_text("P(c) and P(x_a | c)", exact=False)).to_be_visible()
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()                      # still in the mode
        assert page.get_by_label("Smoothing l").input_value() == "2"                  # the work went along
        assert "/Model?" in page.url and "work=" in page.url
        _switch(page, app, "Explain")
        expect(page.locator(".st-key-presentation_prediction")).to_be_visible()
        assert not page.get_by_test_id("stException").count()
    finally:
        page.context.close()


def test_every_teaching_page_in_the_mode_has_text_and_chart_type_of_24_px_at_1920x1080(app_url, browser):
    page, app = _presenting(browser, app_url, {"width": 1920, "height": 1080}, example="sms_spam")
    try:
        for name in TEACHING:
            _switch(page, app, name)
            page.wait_for_timeout(1500)                           # charts and KaTeX lay out
            assert page.evaluate(_SMALL_TEXT, 24) == [], name
            # a data grid is drawn on a canvas, out of the CSS's reach: the mode shows tables
            assert page.get_by_test_id("stDataFrame").count() == 0, name
            if name in ("Text", "Lessons"):                       # the charts are measured, not skipped
                ticks = page.locator(".stPlotlyChart .ytick text")
                assert ticks.count() > 0, name
                assert float(ticks.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 24
            assert not page.get_by_test_id("stException").count(), name
    finally:
        page.context.close()


def test_exercises_chips_and_buttons_are_whole_at_1280x720_with_150_percent_zoom(app_url, browser):
    viewport = {"width": 853, "height": 480}
    page, app = _presenting(browser, app_url, viewport, 1.5, page_name="Exercises")
    try:
        chips = page.get_by_test_id("stMultiSelectTagsContainer")
        expect(chips.locator("[data-tag]")).to_have_count(5)
        room = chips.bounding_box()
        for i in range(5):
            chip = chips.locator("[data-tag]").nth(i)
            box = chip.bounding_box()
            assert box["x"] >= room["x"] - 1 and box["x"] + box["width"] <= room["x"] + room["width"] + 1, \
                f"{chip.inner_text()!r} at {box} is cut by its box {room}"
            assert chip.locator("span").first.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), chip.inner_text()
        assert chips.evaluate("el => el.scrollWidth <= el.clientWidth + 1")             # nothing scrolled away
        labels = page.get_by_test_id("stDownloadButton").locator("button p")
        for i in range(labels.count()):
            assert labels.nth(i).evaluate("el => el.scrollWidth <= el.clientWidth + 1"), labels.nth(i).inner_text()
        assert not page.get_by_test_id("stException").count()
    finally:
        page.context.close()
