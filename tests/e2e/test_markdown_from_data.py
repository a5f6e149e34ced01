"""End to end in Chromium (issue 31, item 5): a file whose column names, class names and values
are markdown (an image, a link, bare addresses, bold, raw HTML, a formula) shows them as text on
every page: no <img> or <a> made from the file anywhere, and the browser never asks the address
the file names for anything.

Streamlit renders as markdown far more than st.markdown: every widget label, metric labels,
values and deltas, radio options, tabs, expanders, st.table's headers and cells, alerts and
captions; and remark-gfm turns a bare http://…, www.… or a@b.c into a link even inside
backslash-escaped text. The pages walked here are every page of the app, with the panels that
are drawn only when opened (the nomogram, each lesson) opened.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import App

pytestmark = pytest.mark.e2e

# A port nothing listens on: a request to it is the browser fetching what the file named.
TRAP = "127.0.0.1:9"
IMAGE = f"![c](http://{TRAP}/cls.png)"
LINK = f"[x](http://{TRAP}/)"
BARE = f"http://{TRAP}/a"
WWW = "www.example.com"
MAIL = "someone@example.com"
BOLD = "**b**"
HTML = "<img src=x>"
FORMULA = "$x$"
LOGO = ":streamlit:"      # Streamlit's logo as an <img>

# The target is the last column (the app proposes the last text column with 2..50 values); the
# text column gives the Text page a document full of addresses.
COLUMNS = [IMAGE, LINK, BARE, WWW, "notes", f"{BOLD} {MAIL}"]
CLASSES = [IMAGE, f"{BARE} {WWW}"]
CATEGORIES = [LINK, WWW, HTML, f"{BOLD} {FORMULA}", MAIL, IMAGE, LOGO]

# Every <img> or <a> whose address came from the file: the trap, example.com, a mail link, the
# raw HTML's "x", or Streamlit's logo.
_FROM_THE_FILE = r"""() => {
  const out = [];
  for (const el of document.querySelectorAll('img, a')) {
    const where = el.getAttribute(el.tagName === 'IMG' ? 'src' : 'href') || '';
    if (/127\.0\.0\.1:9\b|example\.com|^mailto:/i.test(where)
        || (el.tagName === 'IMG' && (where === 'x' || el.alt === 'Streamlit logo'))) {
      const box = el.closest('[data-testid]:not([data-testid^="stMarkdown"])');
      out.push(`<${el.tagName.toLowerCase()} ${where}> in ${box ? box.getAttribute('data-testid') : '?'}: `
               + (box ? box.textContent.slice(0, 80) : ''));
    }
  }
  return out;
}"""


def nasty_csv() -> bytes:
    """The review's kind of nasty.csv: 40 rows, the two classes alternating, the number column
    shifted by class (so the model tells them apart and every page has something to show), every
    name and text value hostile markdown."""
    lines = [",".join(_quoted(c) for c in COLUMNS)]
    for i in range(40):
        cls = CLASSES[i % 2]
        category = CATEGORIES[(i + (i // 6)) % len(CATEGORIES)]
        number = f"{(i % 7) * 1.5 + (3 if i % 2 else 0):.2f}"
        flag = CATEGORIES[i % 3]
        note = f"row {i} says see {BARE} or {WWW} and mail {MAIL} {IMAGE} word{i % 5}"
        lines.append(",".join(_quoted(v) for v in (category, number, flag, CATEGORIES[(i * 5) % 4], note, cls)))
    return ("\n".join(lines) + "\n").encode()


def _quoted(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


class Watch:
    """Every request the browser makes to the trap's address, and what each page shows."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.requests: list[str] = []
        self.found: dict[str, list[str]] = {}
        app.page.on("request", lambda r: self.requests.append(r.url) if TRAP in r.url else None)

    def look(self, where: str) -> None:
        self.app.page.wait_for_timeout(500)     # images in labels load after the run settles
        found = self.app.page.evaluate(_FROM_THE_FILE)
        if found:
            self.found[where] = found


def _upload(app: App, path) -> None:
    page = app.page
    app.upload(path, "40 rows × 6 columns")
    expect(page.get_by_text(re.compile(r"Model fitted: 2 classes"))).to_be_visible()


def _open_expanders(page: Page) -> None:
    """Open every closed expander of the main area (the nomogram is drawn only when opened)."""
    for _ in range(10):
        closed = page.get_by_test_id("stMain").locator("details:not([open]) > summary")
        if closed.count() == 0:
            return
        closed.first.click()
        page.wait_for_timeout(300)


def _presented(app: App, watch: Watch, name: str) -> None:
    """Page ``name`` in presentation mode (its own tables of the factors and the CPTs), looked at."""
    page = app.page
    app.open_page(name)
    page.get_by_test_id("stSidebar").get_by_text("Presentation mode", exact=True).click()
    app.wait()
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    watch.look(f"{name}, presentation mode")
    page.get_by_text("Presentation mode", exact=True).click()
    app.wait()
    expect(page.get_by_test_id("stSidebar")).to_be_visible()


def test_markdown_in_a_files_names_and_values_shows_as_text_on_every_page(app, tmp_path):
    csv = tmp_path / "nasty.csv"
    csv.write_bytes(nasty_csv())
    app.goto()
    watch = Watch(app)
    _upload(app, csv)
    page = app.page
    _open_expanders(page)
    app.wait()
    watch.look("Data")
    for name in ("Model", "Explain", "Text", "Evaluate"):
        app.open_page(name)
        _open_expanders(page)
        app.wait()
        watch.look(name)
    for name in ("Model", "Explain"):
        _presented(app, watch, name)
    app.open_page("Lessons")
    lessons = page.get_by_test_id("stButtonGroup").filter(has_text="1 MLE vs MAP").get_by_role("radio")
    assert lessons.count() == 10
    for i in range(lessons.count()):
        lessons.nth(i).click()
        app.wait()
        _open_expanders(page)
        app.wait()
        watch.look(f"Lessons: {lessons.nth(i).inner_text()}")
    app.open_page("Exercises")
    watch.look("Exercises")
    report = [f"{where}: {el}" for where, els in watch.found.items() for el in els]
    assert not watch.found and not watch.requests, "\n".join([*report, *(f"request: {r}" for r in watch.requests)])
