"""WCAG 2.1 AA on every screen a class sees (issue 33, item 8): axe-core, the engine behind
Lighthouse, run in Chromium (axe-playwright-python) on every page with the tennis, penguins and
SMS examples, in the normal layout and in presentation mode: no serious or critical violation.
Before: 10 serious colour-contrast failures (captions and inline code at 3.0-3.9, the selected
pills at 4.47; 4.5 is AA) and a formula block that scrolled where no keyboard could reach it."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from e2e.conftest import App

pytestmark = pytest.mark.e2e

PAGES = ("Data", "Model", "Explain", "Evaluate", "Lessons", "Text", "Exercises")
TEACHING = ("Model", "Explain", "Lessons", "Text", "Exercises")       # the pages presentation mode serves
BAD = ("serious", "critical")


def violations(page: Page, where: str) -> list[str]:
    """axe's serious and critical findings on the page as it stands, one line each."""
    page.wait_for_timeout(800)                  # KaTeX and the charts lay out
    found = Axe().run(page).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}) at {n['target']}: {n.get('failureSummary', '')[:200]}"
            for v in found if v["impact"] in BAD for n in v["nodes"]]


def _presentation_on(app: App) -> None:
    app.open_page("Model")
    app.page.get_by_test_id("stSidebar").get_by_text("Presentation mode", exact=True).click()
    app.wait()
    expect(app.page.get_by_test_id("stSidebar")).to_be_hidden()


@pytest.mark.parametrize("example", ["tennis14", "penguins", "sms_spam"])
def test_no_serious_violation_on_any_page_in_either_mode(app: App, example: str):
    page = app.page
    page.goto(f"{app.url}/?example={example}")
    app.wait()
    found = []
    for name in PAGES:
        if name != "Data":
            app.open_page(name)
        found += violations(page, f"{example}, {name}")
    _presentation_on(app)
    query = page.url.split("?", 1)[1]
    for name in TEACHING:                        # the mode hides the page links: its address opens each page
        page.goto(f"{app.url}/{name}?{query}")
        app.wait()
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()
        found += violations(page, f"{example}, {name} in presentation mode")
    assert not found, "\n".join(found)
