"""Click to settled page, in a real browser: the app's clicks against a bare Streamlit page
measured in the same run (issue 25, item 1; the last change of the page: issue 32, item 3).

    python bench/bench_clicks.py [--clicks 8] [--only explain,model,evaluate,text,visits]
                                 [--skip-million] [--million-via upload|path] [--trace]

Starts `streamlit run app.py` (headless, 127.0.0.1, a free port, NBAPP_DATA_ROOT set to a
temporary folder so that "Open a local path" is on) and a bare Streamlit app from a temporary
folder, and drives Debian's Chromium headless with Playwright. It prints, for each action, the
median and the 95th percentile (linear interpolation: with 8 clicks, near the slowest) of the
seconds from click to settled page, the number of clicks measured, the 1-minute load average
(os.getloadavg) before and after the action's clicks, and the ratios to the bare page's figures.

Settled means the page's LAST change (issue 32, item 3): a MutationObserver on the whole
document (every element, attribute and text node, subtree, shadow roots included: components
draw there) records the time of every DOM change after the click; the page is settled once
Streamlit's script state is `notRunning`, no element is stale or a skeleton, and neither a DOM
change nor a server message came for QUIET_MS (1 s); a change inside a screen reader's live
region drawn 1 px or less is not seen, so not counted. The time reported is that last DOM change
minus the click's first pointerdown or keydown (so Playwright's own checks before a click are
not counted): everything the person sees redraw (markdown, KaTeX, charts, tables, the grids'
canvas and cell mirror drawn after the script ended) is inside it. A script in the page,
installed before Streamlit's own, does the timing with performance.now(). A first load is timed
from the navigation's start to its last change. A row notes how many clicks showed no `running`
state (React may draw two quick states as one; the server's messages then stand for the run).

The bare page (the floor): a selectbox that changes a small st.table (2 x 3) and an st.latex
formula; the same with st.dataframe; a second page reached by the sidebar's link (the floor of
a first visit); and the first load of "/" in a new session (the floor of the Data page, which
is "/"). The floors' clicks are measured half before the app's actions and half after, so a
change of load during the run falls on both.

The app's actions:
  explain   an Explain input: tennis (Outlook, a new value each click), a generated 1,500-row
            table with numeric columns uploaded on the Data page (x1, its step buttons), and a
            model of 1,000,000 rows (the same table, uploaded or opened as a local path)
  model     the Model page's smoothing l (its step buttons), on the same three data
            A step button's clicks go up and down between two values, so after the first two
            the server has each row's explanation and each l's model at hand; the rows "a new
            row / a new l each click" step up only, so that every click is one the server has
            not seen (a person dragging through values).
  evaluate  the Evaluate threshold slider (keyboard arrows), tennis and the 1,500-row table
  text      a word click on Text with the SMS spam example (a word of the sample document, in
            "Click a word of the document"); if the page offered no word control, its class
            choice ("Class the log-odds are for"), and the row would say so
  visits    the first visit of every page in a new browser session (one session per click,
            after one untimed session that warms the server's imports and caches): Data is
            the load of "/"; Model, Explain, Evaluate and Lessons a click on the sidebar link
            (tennis); Text the same click after choosing the SMS spam example (its real work)

The app changes while this is written: everything the benchmark looks for in it is at the top
(visible labels wherever there is one); a missing one ends that action with a sentence naming
it, the other actions go on, and the exit code is 1.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pandas as pd
from playwright.sync_api import Browser, Locator, Page, TimeoutError as PlaywrightTimeout, sync_playwright

ROOT = Path(__file__).resolve().parents[1]

# -- what the benchmark looks for in the app: change it here when the app changes ---------------


@dataclass(frozen=True)
class Widget:
    """A Streamlit widget in the page's main area, found by its visible label."""

    name: str                      # says what it is in messages
    page: str                      # the page it is on, for messages
    container: str                 # Streamlit's test id of the widget: stSelectbox, stNumberInput, ...
    label: str | re.Pattern[str]   # the visible label: exact text or a pattern


PAGES = ("Data", "Model", "Explain", "Evaluate", "Lessons", "Text")   # the sidebar's link titles = h1 titles
DATA_SOURCE = Widget("the data source radio", "Data", "stRadio", "Source")
UPLOAD_OPTION = "Upload a file"                                     # an option of DATA_SOURCE
PATH_OPTION = "Open a local path"                                   # an option of DATA_SOURCE
DATA_EXAMPLE = Widget("the built-in example choice", "Data", "stSelectbox", "Example")
SMS_EXAMPLE = "SMS spam"                                            # an option of DATA_EXAMPLE
DATA_PATH = Widget("the local path field", "Data", "stTextInput", re.compile(r"^Path in the data folder"))
OPEN_PATH_BUTTON = "Open the path"
FITTED = re.compile(r"Model fitted")                 # the Data page's message once the model is fitted


def loaded(name: str, rows: int) -> re.Pattern[str]:
    """The Data page's message once the upload ``name`` of ``rows`` rows is read."""
    return re.compile(rf"Loaded {re.escape(name)}: {rows:,} rows")


def opened(name: str) -> re.Pattern[str]:
    """The Data page's message once the local path ``name`` is open."""
    return re.compile(rf"Opened {re.escape(name)}")


def fitted_on(rows: int) -> re.Pattern[str]:
    """The Data page's message once the model of a local path is fitted on its ``rows`` rows."""
    return re.compile(rf"Model fitted on all {rows:,} rows")


EXPLAIN_TENNIS = Widget("the tennis input Outlook", "Explain", "stSelectbox", "Outlook")
EXPLAIN_NUMBER = Widget("the numeric input x1", "Explain", "stNumberInput", "x1")
MODEL_SMOOTHING = Widget("the smoothing l", "Model", "stNumberInput", re.compile(r"^[lα] \(pseudo-count"))
EVALUATE_THRESHOLD = Widget("the threshold slider", "Evaluate", "stSlider", re.compile(r"^Threshold"))
TEXT_WORD = Widget("a word control (st.pills or st.segmented_control labelled with 'word')", "Text",
                   "stButtonGroup", re.compile(r"word", re.IGNORECASE))
TEXT_CLASS = Widget("the class choice", "Text", "stSelectbox", re.compile(r"^Class the log-odds are for"))
STEP_UP, STEP_DOWN = "stNumberInputStepUp", "stNumberInputStepDown"  # a number input's step buttons
NAV = "stSidebarNav"                                                  # the sidebar's page links
BARE_VALUE = Widget("the bare page's selectbox", "Table", "stSelectbox", "Value")
BARE_SECOND_PAGE = "Grid"

# -- timing -------------------------------------------------------------------------------------

QUIET_MS = 1000           # no DOM change and no server message this long ends the wait
CLICK_TIMEOUT_S = 120     # one click, until settled
LOAD_TIMEOUT_S = 900      # an upload of 1,000,000 rows and its fit, on a busy machine
TABLE_ROWS, MILLION_ROWS = 1_500, 1_000_000
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
QUIET_SERVER = ["--server.headless=true", "--browser.gatherUsageStats=false", "--server.fileWatcherType=none",
                "--server.address=127.0.0.1"]
GROUPS = ("explain", "model", "evaluate", "text", "visits")
#: --trace: after each timed action, the parts of the page (the nearest data-testid) that changed
#: last, with the seconds of their last change after the click.
TRACE = False
TRACE_PARTS = 8

# Installed in every page before Streamlit's own scripts: times a click (or a load) to the page's
# last change. A MutationObserver watches the whole document (every node, attribute and text, in
# shadow roots too: components draw there); the page is settled once the script is not running,
# nothing is stale and no mutation and no server message came for QUIET_MS; the end is the last
# mutation.
PROBE_JS = r"""
(() => {
  if (window.__bench) return;
  const B = window.__bench = {tArm: 0, tInput: null, runs: 0, msgs: 0, lastMsg: -1e9, firstMsg: null, lastMut: -1e9,
                              muts: 0, parts: {}};
  const app = () => document.querySelector("[data-testid='stApp']");
  const state = () => { const a = app(); return a ? a.getAttribute("data-test-script-state") : null; };
  B.settled = () => state() === "notRunning"
    && !document.querySelector("[data-testid='stSkeleton']")
    && !document.querySelector("[data-testid='stElementContainer'][data-stale='true']");
  const start = () => B.tInput === null ? B.tArm : B.tInput;
  B.arm = () => { B.tArm = performance.now(); B.tInput = null; B.runs = 0; B.msgs = 0; B.muts = 0;
                  B.lastMut = -1e9; B.firstMsg = null; B.parts = {}; };
  B.quiet = (ms) => { const now = performance.now();
    return (B.runs > 0 || B.msgs > 0) && B.settled() && now - B.lastMut >= ms && now - B.lastMsg >= ms; };
  B.result = () => ({start: start(), end: B.lastMut > start() ? B.lastMut : start(), runs: B.runs, msgs: B.msgs,
                     muts: B.muts, state: state(),
                     server: B.firstMsg === null ? null : [B.firstMsg - start(), B.lastMsg - start()],
                     parts: Object.entries(B.parts).map(([k, t]) => [k, t - start()]).sort((a, b) => b[1] - a[1])});
  // the part of the page a change falls in: the nearest element with a data-testid (a shadow root's host)
  const part = (node) => {
    let el = node.nodeType === 1 ? node : node.parentElement;
    while (el) {
      const found = el.closest("[data-testid]");
      if (found) return found.getAttribute("data-testid");
      const root = el.getRootNode();
      el = root && root.host ? root.host : null;
    }
    // outside every part: the element itself (a popover or tooltip's layer at the body's level, say)
    const own = node.nodeType === 1 ? node : node.parentElement;
    return own ? "(" + own.tagName.toLowerCase() + (own.id ? "#" + own.id : "")
                 + (own.getAttribute("role") ? " role=" + own.getAttribute("role") : "") + ")" : "document";
  };
  const input = () => { if (B.tInput === null) B.tInput = performance.now(); };
  for (const t of ["pointerdown", "mousedown", "keydown"]) window.addEventListener(t, input, true);
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => {
        B.msgs += 1; B.lastMsg = performance.now();
        if (B.firstMsg === null && B.lastMsg >= start()) B.firstMsg = B.lastMsg;
      });
    }
  };
  // a screen reader's live region drawn 1 px or less (baseweb's select announces a choice in one
  // and clears it on a timer of its own, up to a second later, in the bare page too): not seen
  const unseen = (node) => {
    const el = node.nodeType === 1 ? node : node.parentElement;
    const live = el && el.closest("[role='log'], [aria-live]");
    if (!live) return false;
    const box = live.getBoundingClientRect();
    return box.width <= 1 && box.height <= 1;
  };
  const changed = (records) => {
    const now = performance.now();
    if (state() === "running") B.runs += 1;
    const seen = records.filter((r) => !unseen(r.target));
    if (now >= start() && seen.length) {
      B.lastMut = now; B.muts += 1;
      for (const r of seen) B.parts[part(r.target)] = now;
    }
  };
  // an image (an SVG chart is a data: URL) counts as changed when it has loaded, not when its src is set
  window.addEventListener("load", (ev) => {
    const now = performance.now();
    if (ev.target && ev.target.tagName === "IMG" && now >= start()) {
      B.lastMut = now; B.muts += 1; B.parts[part(ev.target) + " (image loaded)"] = now;
    }
  }, true);
  const watch = (root) => new MutationObserver(changed).observe(root, {subtree: true, childList: true,
    attributes: true, characterData: true});
  watch(document);
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (...args) { const root = attach.apply(this, args); watch(root); return root; };
})();
"""

# The floor: the smallest Streamlit page that does what an Explain click does.
BARE_APP = '''
import pandas as pd
import streamlit as st

VALUES = ["Sunny", "Overcast", "Rain", "Fog"]


def _page(grid: bool) -> None:
    st.title("Bare")
    choice = st.selectbox("Value", VALUES, key="value")
    i = VALUES.index(choice)
    table = pd.DataFrame({"class": ["Yes", "No"], "count": [2 + i, 3], "P(x | c)": [(2 + i) / 9, 3 / 5]})
    if grid:
        st.dataframe(table)
    else:
        st.table(table)
    st.latex(rf"P(\\text{{Yes}} \\mid x) = \\frac{{{2 + i}}}{{9}} \\cdot \\frac{{9}}{{14}} = {(2 + i) / 14:.4f}")


def table_page() -> None:
    _page(False)


def grid_page() -> None:
    _page(True)


st.navigation([st.Page(table_page, title="Table", default=True),
               st.Page(grid_page, title="Grid", url_path="grid")]).run()
'''


class Missing(Exception):
    """Something the benchmark looks for is not on the page (the app changed)."""


class Stuck(Exception):
    """The page did not settle after an action."""


# -- data -----------------------------------------------------------------------------------------


def make_table(rows: int, seed: int = 0) -> pd.DataFrame:
    """Five numeric columns shifted by class, a count, two categorical columns, a yes/no target."""
    rng = np.random.default_rng(seed)
    label = rng.choice(["yes", "no"], rows, p=[0.4, 0.6])
    shift = np.where(label == "yes", 1.0, 0.0)
    frame = pd.DataFrame({f"x{j}": np.round(rng.normal(10 * j + shift * j, 2 + j, rows), 2) for j in range(1, 6)})
    frame["visits"] = rng.poisson(2 + shift)
    frame["region"] = rng.choice(["north", "south", "east", "west"], rows)
    frame["plan"] = np.where(rng.random(rows) < 0.3 + 0.3 * shift, "gold", "basic")
    frame["label"] = label
    return frame


# -- servers ----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(script: str, cwd: Path, log: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """``streamlit run script`` on a free port of 127.0.0.1; yields its URL once /_stcore/health answers."""
    port = free_port()
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", script, *QUIET_SERVER,
                                 f"--server.port={port}"], cwd=cwd, env={**os.environ, **(env or {})},
                                stdout=out, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 120
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"streamlit run {script} exited with code {proc.returncode}; see {log}")
                try:
                    with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                        if r.read().strip() == b"ok":
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit run {script} did not answer within 120 s; see {log}")
                time.sleep(0.3)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


# -- finding things and timing clicks ---------------------------------------------------------------


def widget(page: Page, w: Widget, timeout_s: float = 30) -> Locator:
    """The widget ``w`` in the main area, visible; Missing (naming it) if it does not appear."""
    label = page.get_by_test_id("stWidgetLabel").get_by_text(w.label, exact=True) if isinstance(w.label, str) \
        else page.get_by_test_id("stWidgetLabel").get_by_text(w.label)
    found = page.get_by_test_id("stMain").get_by_test_id(w.container).filter(has=label).first
    try:
        found.wait_for(state="visible", timeout=timeout_s * 1000)
    except PlaywrightTimeout:
        pattern = w.label if isinstance(w.label, str) else f"/{w.label.pattern}/"
        raise Missing(f"{w.name} ({w.container} labelled {pattern!r}) is not on the {w.page} page; "
                      "update the selectors at the top of bench/bench_clicks.py") from None
    return found


def visible(locator: Locator, what: str, timeout_s: float = 30) -> Locator:
    try:
        locator.first.wait_for(state="visible", timeout=timeout_s * 1000)
    except PlaywrightTimeout:
        raise Missing(f"{what} did not appear; update the selectors at the top of bench/bench_clicks.py") from None
    return locator.first


def shown(page: Page, message: re.Pattern[str], when: str) -> None:
    """The settled page shows ``message``; else Missing, quoting what the page's alerts say."""
    try:
        page.get_by_test_id("stMain").get_by_text(message).first.wait_for(state="visible", timeout=30_000)
    except PlaywrightTimeout:
        alerts = " | ".join(t.strip()[:160] for t in page.get_by_test_id("stAlert").all_inner_texts())
        raise Missing(f"the message /{message.pattern}/ is not on the page {when} (the page's alerts: "
                      f"{alerts or 'none'}); update the selectors at the top of bench/bench_clicks.py") from None


def settle(page: Page, what: str, timeout_s: float = CLICK_TIMEOUT_S) -> tuple[float, bool]:
    """Wait until the page is settled after the armed action; the seconds it took, and whether
    the script state was seen running (else only server messages were seen)."""
    try:
        page.wait_for_function(f"() => window.__bench.quiet({QUIET_MS})", timeout=timeout_s * 1000)
    except PlaywrightTimeout:
        state = page.evaluate("() => window.__bench.result()")
        raise Stuck(f"the page did not settle within {timeout_s:.0f} s after {what} (script state "
                    f"{state['state']!r}, {state['runs']} running states and {state['msgs']} server messages "
                    "seen): did the click start a rerun?") from None
    if page.get_by_test_id("stException").count():
        raise Stuck(f"the app showed an exception after {what}: "
                    f"{page.get_by_test_id('stException').first.inner_text()[:200]!r}")
    if page.get_by_test_id("stDialog").count():
        raise Stuck(f"a dialog is open after {what}: {page.get_by_test_id('stDialog').first.inner_text()[:200]!r}")
    r = page.evaluate("() => window.__bench.result()")
    if TRACE:
        server = "" if r["server"] is None else "server messages {:.3f}-{:.3f}; ".format(*(ms / 1000 for ms in r["server"]))
        print(f"    {what}: {server}" + ", ".join(f"{name} {ms / 1000:.3f}" for name, ms in r["parts"][:TRACE_PARTS]),
              flush=True)
    return (r["end"] - r["start"]) / 1000, r["runs"] > 0


def timed(page: Page, what: str, act: Callable[[], None], timeout_s: float = CLICK_TIMEOUT_S) -> tuple[float, bool]:
    """Arm the probe, do ``act`` (a click or a key), and time it to settled."""
    page.evaluate("() => window.__bench.arm()")
    act()
    return settle(page, what, timeout_s)


def load(page: Page, url: str, what: str, timeout_s: float = CLICK_TIMEOUT_S) -> tuple[float, bool]:
    """Open ``url`` in the page; its navigation's start to settled (the probe arms itself at load)."""
    page.goto(url, timeout=timeout_s * 1000)
    return settle(page, what, timeout_s)


def choose_other(page: Page, box: Locator, k: int, w: Widget) -> Callable[[], None]:
    """Open the selectbox ``box``; return the click on its k-th option other than the current one
    (which checks, once the page is settled, that the selectbox shows it)."""
    combo = box.get_by_role("combobox")
    current = combo.input_value()
    combo.click()
    options = page.get_by_role("listbox").get_by_role("option")
    visible(options, f"the options of {w.name} on the {w.page} page")
    others = [t.strip() for t in options.all_inner_texts() if t.strip() != current]
    if not others:
        raise Missing(f"{w.name} on the {w.page} page offers no value other than {current!r}")
    chosen = others[k % len(others)]
    return options.filter(has_text=re.compile(rf"^\s*{re.escape(chosen)}\s*$")).first.click


def choose_other_named(page: Page, box: Locator, name: str, w: Widget) -> Callable[[], None]:
    """Open the selectbox ``box``; return the click on its option ``name``."""
    box.get_by_role("combobox").click()
    option = page.get_by_role("listbox").get_by_role("option").filter(
        has_text=re.compile(rf"^\s*{re.escape(name)}\s*$"))
    return visible(option, f"the option {name!r} of {w.name} on the {w.page} page").click


def check_changed(w: Widget, before: str, after: str) -> None:
    if before == after:
        raise Stuck(f"the click on {w.name} on the {w.page} page left it at {before!r}")


def open_page(page: Page, title: str) -> Locator:
    """The sidebar's link to ``title``."""
    return visible(page.get_by_test_id(NAV).get_by_role("link", name=title, exact=True),
                   f"the sidebar link {title!r} ({NAV})")


def go(page: Page, title: str, timeout_s: float = CLICK_TIMEOUT_S) -> None:
    """Go to a page (untimed) and check its title."""
    link = open_page(page, title)
    timed(page, f"the link to {title}", link.click, timeout_s)
    visible(page.get_by_role("heading", name=title, level=1), f"the {title} page's title (h1 {title!r})", 30)


# -- one row of the report -------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    kind: str                        # "floor", "click" or "visit" (which floor it is compared with)
    seconds: list[float] = field(default_factory=list)
    without_running: int = 0         # clicks timed by the fallback end
    load: tuple[float, float] = (float("nan"), float("nan"))
    error: str = ""

    def note_load(self, before: float, after: float) -> None:
        """The load average before the row's first click and after its last (a row measured in parts)."""
        self.load = (before if np.isnan(self.load[0]) else self.load[0], after)

    def add(self, result: tuple[float, bool]) -> None:
        self.seconds.append(result[0])
        self.without_running += not result[1]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds) if self.seconds else float("nan")

    @property
    def p95(self) -> float:
        return float(np.percentile(self.seconds, 95)) if self.seconds else float("nan")


class Bench:
    """The browser, the two servers' addresses, and the rows measured so far."""

    def __init__(self, browser: Browser, app_url: str, bare_url: str, clicks: int) -> None:
        self.browser, self.app_url, self.bare_url, self.clicks = browser, app_url, bare_url, clicks
        self.rows: dict[str, Row] = {}

    def row(self, name: str, kind: str) -> Row:
        return self.rows.setdefault(name, Row(name, kind))

    @contextmanager
    def session(self) -> Iterator[Page]:
        """A new browser session (its own cookies and Streamlit session)."""
        context = self.browser.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(30_000)
        context.add_init_script(PROBE_JS)
        try:
            yield context.new_page()
        finally:
            context.close()

    def measure(self, name: str, kind: str, clicks: int, one: Callable[[int], tuple[float, bool]]) -> None:
        """``clicks`` calls of ``one(k)`` into the row ``name``, the load average before and after;
        a Missing or Stuck ends the row with its sentence."""
        row = self.row(name, kind)
        before = os.getloadavg()[0]
        try:
            for k in range(clicks):
                row.add(one(k))
        except (Missing, Stuck, PlaywrightTimeout) as err:
            row.error = str(err).splitlines()[0]
        row.note_load(before, os.getloadavg()[0])
        print(f"  {name}: {len(row.seconds)} clicks so far, median {row.median:.3f} s"
              + (f"; FAILED: {row.error}" if row.error else ""), flush=True)

    # -- the floor ---------------------------------------------------------------------------------

    def floors(self, clicks: int, visits: bool) -> None:
        if clicks <= 0:
            return
        with self.session() as page:
            load(page, self.bare_url, "the bare page's load")
            self.measure("bare: selectbox -> st.table + st.latex", "floor", clicks,
                         lambda k: self._bare_click(page, k))
            load(page, f"{self.bare_url}/grid", "the bare grid page's load")
            self.measure("bare: selectbox -> st.dataframe + st.latex", "floor", clicks,
                         lambda k: self._bare_click(page, k))
        if visits:
            self.bare_visits(clicks)

    def _bare_click(self, page: Page, k: int) -> tuple[float, bool]:
        return self._choice(page, BARE_VALUE, k)

    def bare_visits(self, sessions: int) -> None:
        """Each new session: the first load of "/", then the sidebar link to the second page."""
        first_load = self.row('bare: first load of "/" (new session)', "floor")
        link = self.row("bare: first visit of a page (sidebar link)", "floor")
        before = os.getloadavg()[0]
        for _ in range(sessions):
            with self.session() as page:
                try:
                    first_load.add(load(page, self.bare_url, "the bare page's first load"))
                    link.add(timed(page, "the bare page's sidebar link", open_page(page, BARE_SECOND_PAGE).click))
                except (Missing, Stuck, PlaywrightTimeout) as err:
                    link.error = str(err).splitlines()[0]
                    break
        for row in (first_load, link):
            row.note_load(before, os.getloadavg()[0])

    # -- data in the app ---------------------------------------------------------------------------

    def open_app(self, page: Page) -> None:
        load(page, self.app_url, "the app's first load", LOAD_TIMEOUT_S)
        visible(page.get_by_role("heading", name="Data", level=1), "the Data page's title (h1 'Data')")

    def choose_sms(self, page: Page) -> None:
        box = widget(page, DATA_EXAMPLE)
        timed(page, f"the example {SMS_EXAMPLE!r}", choose_other_named(page, box, SMS_EXAMPLE, DATA_EXAMPLE),
              LOAD_TIMEOUT_S)

    def upload(self, page: Page, path: Path, rows: int) -> None:
        source = widget(page, DATA_SOURCE)
        option = visible(source.get_by_text(UPLOAD_OPTION, exact=True), f"the option {UPLOAD_OPTION!r} of "
                         f"{DATA_SOURCE.name}")
        timed(page, f"the option {UPLOAD_OPTION!r}", option.click)
        field_ = page.get_by_test_id("stFileUploaderDropzoneInput")
        if not field_.count():
            raise Missing("the Data page's file uploader (stFileUploaderDropzoneInput) is not there after "
                          f"choosing {UPLOAD_OPTION!r}")
        timed(page, f"the upload of {path.name}", lambda: field_.set_input_files(str(path)), LOAD_TIMEOUT_S)
        for message in (loaded(path.name, rows), FITTED):
            shown(page, message, f"after uploading {path.name}")

    def open_path(self, page: Page, path: Path, rows: int) -> None:
        source = widget(page, DATA_SOURCE)
        option = visible(source.get_by_text(PATH_OPTION, exact=True), f"the option {PATH_OPTION!r} of "
                         f"{DATA_SOURCE.name} (is NBAPP_DATA_ROOT set for the server?)")
        timed(page, f"the option {PATH_OPTION!r}", option.click)
        field_ = widget(page, DATA_PATH).locator("input")
        field_.fill(path.name)
        timed(page, "the path typed", lambda: field_.press("Enter"))
        button = visible(page.get_by_test_id("stMain").get_by_role("button", name=OPEN_PATH_BUTTON, exact=True),
                         f"the button {OPEN_PATH_BUTTON!r}")
        timed(page, f"opening {path.name}", button.click, LOAD_TIMEOUT_S)
        for message in (opened(path.name), fitted_on(rows)):
            shown(page, message, f"after opening {path.name}")

    # -- the app's clicks --------------------------------------------------------------------------

    def clicks_on(self, data: str, setup: Callable[[Page], None], groups: set[str], explain: Widget) -> None:
        """One browser session with ``data`` in use: the Explain, Model and Evaluate clicks asked for."""
        wanted = [g for g in ("explain", "model", "evaluate") if g in groups]
        if data == "1,000,000 rows":
            wanted = [g for g in wanted if g != "evaluate"]
        if not wanted:
            return
        print(f"{data}: setting up", flush=True)
        with self.session() as page:
            try:
                self.open_app(page)
                setup(page)
            except (Missing, Stuck, PlaywrightTimeout) as err:
                for g in wanted:
                    self.row(f"{g.capitalize()}: {data}", "click").error = "setup failed: " + str(err).splitlines()[0]
                print(f"  setup failed: {err}", flush=True)
                return
            if "explain" in wanted:
                self.in_page(page, "Explain", f"Explain input, {data}", lambda k: self._input(page, explain, k))
                if explain.container == "stNumberInput":
                    self.measure(f"Explain input, {data}, a new row each click", "click", self.clicks,
                                 lambda k: self._step(page, explain, k, up_only=True))
            if "model" in wanted:
                self.in_page(page, "Model", f"Model smoothing l, {data}",
                             lambda k: self._step(page, MODEL_SMOOTHING, k))
                self.measure(f"Model smoothing l, {data}, a new l each click", "click", self.clicks,
                             lambda k: self._step(page, MODEL_SMOOTHING, k, up_only=True))
            if "evaluate" in wanted:
                self.in_page(page, "Evaluate", f"Evaluate threshold, {data}", lambda k: self._threshold(page, k))

    def in_page(self, page: Page, title: str, name: str, one: Callable[[int], tuple[float, bool]]) -> None:
        try:
            go(page, title, LOAD_TIMEOUT_S)
        except (Missing, Stuck, PlaywrightTimeout) as err:
            self.row(name, "click").error = str(err).splitlines()[0]
            print(f"  {name}: FAILED: {err}", flush=True)
            return
        self.measure(name, "click", self.clicks, one)

    def _input(self, page: Page, w: Widget, k: int) -> tuple[float, bool]:
        if w.container == "stSelectbox":
            return self._choice(page, w, k)
        return self._step(page, w, k)

    def _choice(self, page: Page, w: Widget, k: int) -> tuple[float, bool]:
        """A click on another value of the selectbox ``w``."""
        value = lambda: widget(page, w).get_by_role("combobox").input_value()  # noqa: E731
        before = value()
        result = timed(page, f"a choice in {w.name}", choose_other(page, widget(page, w), k, w))
        check_changed(w, before, value())
        return result

    def _step(self, page: Page, w: Widget, k: int, *, up_only: bool = False) -> tuple[float, bool]:
        """A click on the number input's + (even k) or − (odd k) button; with ``up_only`` always +
        (every value new to the server: nothing of it is cached yet)."""
        test_id = STEP_UP if up_only or k % 2 == 0 else STEP_DOWN
        button = visible(widget(page, w).get_by_test_id(test_id), f"the {test_id} button of {w.name}")
        value = lambda: widget(page, w).locator("input").input_value()  # noqa: E731
        before = value()
        result = timed(page, f"{test_id} of {w.name}", button.click)
        check_changed(w, before, value())
        return result

    def _threshold(self, page: Page, k: int) -> tuple[float, bool]:
        """An arrow key on the focused threshold slider: right (even k), left (odd k)."""
        thumb = visible(widget(page, EVALUATE_THRESHOLD).get_by_role("slider"),
                        f"the thumb of {EVALUATE_THRESHOLD.name}")
        thumb.focus()
        key = "ArrowRight" if k % 2 == 0 else "ArrowLeft"
        value = lambda: thumb.evaluate(  # noqa: E731
            "e => e.getAttribute('aria-valuenow') || e.value || e.getAttribute('aria-valuetext') || ''")
        before = value()
        result = timed(page, f"{key} on {EVALUATE_THRESHOLD.name}", lambda: page.keyboard.press(key))
        check_changed(EVALUATE_THRESHOLD, before, value())
        return result

    def text_clicks(self) -> None:
        print("SMS spam: setting up", flush=True)
        with self.session() as page:
            try:
                self.open_app(page)
                self.choose_sms(page)
                go(page, "Text", LOAD_TIMEOUT_S)
            except (Missing, Stuck, PlaywrightTimeout) as err:
                self.row("Text: word click, SMS spam", "click").error = "setup failed: " + str(err).splitlines()[0]
                return
            try:
                words = widget(page, TEXT_WORD, 5)
            except Missing:
                words = None
            if words is not None:
                self.measure("Text: word click, SMS spam", "click", self.clicks,
                             lambda k: self._word(page, k))
            else:
                self.measure("Text: class choice (no word control yet), SMS spam", "click", self.clicks,
                             lambda k: self._choice(page, TEXT_CLASS, k))

    def _word(self, page: Page, k: int) -> tuple[float, bool]:
        """A click on a word of the word control other than the selected one."""
        buttons = widget(page, TEXT_WORD).locator("button")   # role "radio" in single selection, else "button"
        names = [b for b in buttons.all() if b.get_attribute("aria-pressed") != "true"
                 and b.get_attribute("aria-checked") != "true"]
        if not names:
            raise Missing(f"{TEXT_WORD.name} offers no word to click")
        return timed(page, f"a word in {TEXT_WORD.name}", names[k % len(names)].click)

    # -- first visits --------------------------------------------------------------------------------

    def visits(self) -> None:
        """A first untimed session (the server's one-time imports and caches), then one session
        per click: load "/" (Data), then each page by its sidebar link; Text after the SMS example."""
        names = {title: f"first visit: {title}" + (" (load of '/')" if title == "Data" else "")
                 + (" (SMS spam)" if title == "Text" else "") for title in PAGES}
        before = os.getloadavg()[0]
        for k in range(self.clicks + 1):
            print(f"first visits: {'warm-up session' if k == 0 else f'session {k} of {self.clicks}'}", flush=True)
            with self.session() as page:
                for title in PAGES:
                    row = self.row(names[title], "visit")
                    if row.error:
                        continue
                    try:
                        result = self._first_visit(page, title)
                    except (Missing, Stuck, PlaywrightTimeout) as err:
                        row.error = str(err).splitlines()[0]
                        print(f"  {row.name}: FAILED: {row.error}", flush=True)
                        continue
                    if k > 0:
                        row.add(result)
        for n in names.values():
            self.row(n, "visit").note_load(before, os.getloadavg()[0])

    def _first_visit(self, page: Page, title: str) -> tuple[float, bool]:
        if title == PAGES[0]:
            return load(page, self.app_url, "the app's first load", LOAD_TIMEOUT_S)
        if title == "Text":
            go(page, PAGES[0], LOAD_TIMEOUT_S)
            self.choose_sms(page)
        result = timed(page, f"the link to {title}", open_page(page, title).click, LOAD_TIMEOUT_S)
        visible(page.get_by_role("heading", name=title, level=1), f"the {title} page's title (h1 {title!r})")
        return result


# -- the report ------------------------------------------------------------------------------------


def ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}x" if b > 0 and np.isfinite(a) and np.isfinite(b) else "-"


def report(bench: Bench, clicks: int, wall: float) -> bool:
    rows = list(bench.rows.values())
    floors = {r.name: r for r in rows if r.kind == "floor"}
    table_floor = floors.get("bare: selectbox -> st.table + st.latex")
    grid_floor = floors.get("bare: selectbox -> st.dataframe + st.latex")
    visit_floor = floors.get("bare: first visit of a page (sidebar link)")
    load_floor = floors.get('bare: first load of "/" (new session)')
    width = max(len(r.name) for r in rows) + 2
    print(f"\nClick to settled page, seconds; {os.cpu_count()} cores; {clicks} clicks per action; "
          f"wall {wall / 60:.1f} min; load = 1-minute load average before -> after the action")
    print(f"{'':<{width}}{'n':>3}{'median':>8}{'p95':>8}{'load':>14}   x floor (median, p95)")

    def line(r: Row, against: list[tuple[str, Row | None]]) -> None:
        load = f"{r.load[0]:.1f} -> {r.load[1]:.1f}"
        versus = "; ".join(f"{ratio(r.median, f.median)}, {ratio(r.p95, f.p95)} {label}"
                           for label, f in against if f is not None and f.seconds)
        note = f"   ({r.without_running} without a 'running' state)" if r.without_running else ""
        print(f"{r.name:<{width}}{len(r.seconds):>3}{r.median:>8.3f}{r.p95:>8.3f}{load:>14}   {versus}{note}")
        if r.error:
            print(f"{'':<{width}}FAILED: {r.error}")

    print("floor (a bare Streamlit page, same run):")
    for r in floors.values():
        line(r, [])
    clicks_ = [r for r in rows if r.kind == "click"]
    if clicks_:
        print("clicks:")
    for r in clicks_:
        line(r, [("table", table_floor), ("grid", grid_floor)])
    visits = [r for r in rows if r.kind == "visit"]
    if visits:
        print("first visits:")
        for r in visits:
            line(r, [("load", load_floor)] if r.name.startswith("first visit: Data") else [("link", visit_floor)])
    failed = [r for r in rows if r.error or not r.seconds]
    return not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=8, help="clicks per action (default 8)")
    parser.add_argument("--only", default=",".join(GROUPS), help=f"some of {','.join(GROUPS)} (default: all)")
    parser.add_argument("--skip-million", action="store_true", help="leave out the 1,000,000-row model")
    parser.add_argument("--million-via", choices=("upload", "path"), default="upload",
                        help="how the 1,000,000-row table reaches the app (default: the Data page's uploader)")
    parser.add_argument("--trace", action="store_true",
                        help="after each action, print the parts of the page that changed last (by data-testid)")
    args = parser.parse_args()
    global TRACE
    TRACE = args.trace
    groups = {g.strip() for g in args.only.split(",") if g.strip()}
    unknown = groups - set(GROUPS)
    if unknown or not groups:
        parser.error(f"--only takes some of {', '.join(GROUPS)}; not {', '.join(sorted(unknown)) or 'nothing'}")
    if args.clicks < 1:
        parser.error("--clicks must be at least 1")
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium package", file=sys.stderr)
        return 2

    work = Path(tempfile.mkdtemp(prefix="nbapp_clicks_"))
    try:
        (work / "bare.py").write_text(BARE_APP)
        table = work / "table_1500.csv"
        make_table(TABLE_ROWS).to_csv(table, index=False)
        million = work / "table_1000000.csv"
        wants_million = not args.skip_million and groups & {"explain", "model"}
        if wants_million:
            make_table(MILLION_ROWS, seed=1).to_csv(million, index=False)
        t0 = time.monotonic()
        with serve("app.py", ROOT, work / "app.log", {"NBAPP_DATA_ROOT": str(work)}) as app_url, \
                serve("bare.py", work, work / "bare.log") as bare_url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            bench = Bench(browser, app_url, bare_url, args.clicks)
            first_half = (args.clicks + 1) // 2
            print("floor: first half", flush=True)
            bench.floors(first_half, "visits" in groups)
            bench.clicks_on("tennis", lambda page: None, groups, EXPLAIN_TENNIS)
            bench.clicks_on(f"{TABLE_ROWS:,} rows", lambda page: bench.upload(page, table, TABLE_ROWS), groups, EXPLAIN_NUMBER)
            if wants_million:
                setup = bench.upload if args.million_via == "upload" else bench.open_path
                bench.clicks_on(f"{MILLION_ROWS:,} rows", lambda page: setup(page, million, MILLION_ROWS), groups, EXPLAIN_NUMBER)
            if "text" in groups:
                bench.text_clicks()
            if "visits" in groups:
                bench.visits()
            print("floor: second half", flush=True)
            bench.floors(args.clicks - first_half, "visits" in groups)
            browser.close()
            ok = report(bench, args.clicks, time.monotonic() - t0)
    finally:
        for data in work.glob("*.csv"):
            data.unlink()
    if ok:
        shutil.rmtree(work)
    else:
        print(f"\nsome actions failed; the servers' logs are kept in {work}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
