"""A real browser against `streamlit run app.py`: Debian's chromium driven by Playwright (sync API).

The server starts once per session on a free port of 127.0.0.1, without NBAPP_DATA_ROOT (so
"Open a local path" is off, as by default); its log goes to test-artifacts/streamlit.log. A test
that needs a server started otherwise starts its own with serve(). Chromium is never downloaded
by Playwright: CI installs Debian's package (scripts/test.sh), and these tests fail, not skip, if it is missing.

The README's screenshots (``App.screenshot(..., publish=True)``) go to a temporary folder, so the
suite never rewrites the tracked images; ``bash scripts/screenshots.sh`` sets NBAPP_SCREENSHOTS to
docs/screenshots and runs the tests that take them.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS_VARIABLE = "NBAPP_SCREENSHOTS"     # where published screenshots go; a temporary folder if unset
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}; see {ARTIFACTS / 'streamlit.log'}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer {url} within {timeout} s")


_PIDS: dict[str, int] = {}


def server_pid(url: str) -> int:
    """The process id of the server serve() started at ``url``."""
    return _PIDS[url]


@contextmanager
def serve(command: list[str], *, env: dict[str, str] | None = None, log_name: str = "streamlit.log") -> Iterator[str]:
    """``command`` (a ``streamlit run app.py ...`` line; a free port is added) running from the
    project root, under ``env`` added to this environment without NBAPP_DATA_ROOT (so "Open a
    local path" is off unless ``env`` turns it on); yields its URL on 127.0.0.1."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    environment = {k: v for k, v in os.environ.items() if k != "NBAPP_DATA_ROOT"} | (env or {})
    log = open(ARTIFACTS / log_name, "w")
    proc = subprocess.Popen([*command, f"--server.port={port}"], cwd=ROOT, env=environment, stdout=log,
                            stderr=subprocess.STDOUT)
    try:
        _wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", proc)
        _PIDS[f"http://127.0.0.1:{port}"] = proc.pid
        yield f"http://127.0.0.1:{port}"
    finally:
        _PIDS.pop(f"http://127.0.0.1:{port}", None)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


# The options every test server gets (run_app.sh passes them through to streamlit run).
QUIET = ["--server.headless=true", "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"]
STREAMLIT = [sys.executable, "-m", "streamlit", "run", "app.py"]


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    with serve([*STREAMLIT, *QUIET, "--server.address=127.0.0.1"]) as url:
        yield url


@pytest.fixture(scope="module")
def own_url() -> Iterator[str]:
    """A server of the test module's own, for what ServerWatch measures: that module's input alone,
    not the clean-up of sessions an earlier module left on the shared server (closed 30 s after
    they leave, their memory handed back then)."""
    with serve([*STREAMLIT, *QUIET, "--server.address=127.0.0.1"], log_name="streamlit-own.log") as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium (scripts/test.sh does)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def published_screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the README's screenshots: $NBAPP_SCREENSHOTS (relative to the project root)
    when set, else a temporary folder."""
    chosen = os.environ.get(SCREENSHOTS_VARIABLE)
    return ROOT / chosen if chosen else tmp_path_factory.mktemp("screenshots")


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    yield pg
    context.close()


class App:
    """The running app seen through one browser page."""

    def __init__(self, page: Page, url: str, published: Path | None = None) -> None:
        self.page = page
        self.url = url
        self.published = published

    def goto(self) -> None:
        """Load "/" (this also switches the server to st.navigation; notes, section 1.1)."""
        self.page.goto(self.url)
        self.wait()

    def wait(self, initial_wait: int = 300) -> None:
        """Wait until the script run has finished (as Streamlit's own e2e suite does)."""
        page = self.page
        page.wait_for_timeout(initial_wait)
        page.locator("[data-testid='stApp'][data-test-connection-state='CONNECTED']").wait_for(state="attached")
        page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for(state="attached")
        expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=30_000)

    def upload(self, path: Path, loaded: str = "") -> None:
        """On the Data page, upload the file ``path`` through the uploader and wait for the
        sentence "Loaded <the file>: <loaded>" (say "8 rows × 5 columns"; the name as the page
        writes it, which a name that is markdown may change)."""
        page = self.page
        page.get_by_test_id("stRadio").get_by_text("Upload a file").click()
        self.wait()
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        self.wait(initial_wait=1000)
        expect(page.get_by_text(re.compile(r"Loaded .*: " + re.escape(loaded))).first).to_be_visible()

    def open_page(self, name: str) -> None:
        self.page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
        self.wait()
        expect(self.page.get_by_role("heading", name=name, level=1)).to_be_visible()

    def metric(self, label: str) -> str:
        """The value shown by the st.metric labelled ``label``."""
        label_el = self.page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
        box = self.page.get_by_test_id("stMetric").filter(has=label_el)
        return box.get_by_test_id("stMetricValue").inner_text().strip()

    def screenshot(self, name: str, *, publish: bool = False, viewport_only: bool = False) -> Path:
        """Save test-artifacts/<name>.png, the whole page unless ``viewport_only``; with ``publish``
        also <name>.png in the folder of the README's screenshots (``published_screenshots``)."""
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page = self.page
        if viewport_only:
            page.screenshot(path=str(path))
        else:
            # Streamlit scrolls inside its main container, so grow the window to the content's height.
            height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
            original = page.viewport_size
            page.set_viewport_size({"width": original["width"], "height": min(max(height, original["height"]), 6000)})
            page.wait_for_timeout(500)
            page.screenshot(path=str(path))
            page.set_viewport_size(original)
        if publish:
            assert self.published is not None, "an App made without the published_screenshots folder"
            self.published.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, self.published / f"{name}.png")
        return path


@pytest.fixture()
def app(page: Page, app_url: str, published_screenshots: Path) -> App:
    return App(page, app_url, published_screenshots)


@pytest.fixture()
def own_app(page: Page, own_url: str, published_screenshots: Path) -> App:
    """The module's own server (own_url) seen through one browser page."""
    return App(page, own_url, published_screenshots)
