"""Two app processes behind HAProxy, as `bash scripts/run_app.sh --processes 2` starts them
(issue 32, item 5): an upload through the proxy stays on the process that holds the session (the
proxy's cookie), and the page's link, opened directly on the *other* process, finds the same
work, since the processes share the folder of kept files and one cookie secret."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import ARTIFACTS, QUIET, ROOT, App, _free_port, _wait_healthy

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def processes() -> Iterator[tuple[str, list[int]]]:
    """(the proxy's URL, the two processes' ports)."""
    ARTIFACTS.mkdir(exist_ok=True)
    proxy, ports = _free_port(), [_free_port(), _free_port()]
    log = open(ARTIFACTS / "processes.log", "w")
    proc = subprocess.Popen([sys.executable, "scripts/serve_processes.py", "--processes", "2", "--port", str(proxy),
                             "--ports", ",".join(map(str, ports)), *QUIET],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{proxy}"
    try:
        _wait_healthy(f"{url}/_stcore/health", proc, timeout=120)
        yield url, ports
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_an_upload_through_the_proxy_opens_by_its_link_on_the_other_process(processes, browser: Browser,
                                                                             tmp_path: Path):
    url, ports = processes
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"colour": rng.choice(["red", "teal"], 60), "size": rng.normal(10, 2, 60).round(2),
                          "kind": rng.choice(["left", "right"], 60)})
    csv = tmp_path / "shared_work.csv"
    frame.to_csv(csv, index=False)

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    app = App(page, url)
    app.goto()
    page.get_by_test_id("stRadio").get_by_text("Upload a file").click()
    app.wait()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(csv))
    app.wait()
    expect(page.get_by_text(re.compile(r"Loaded shared_work\.csv: 60 rows × 3 columns"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"Model fitted: 2 classes"))).to_be_visible()
    sticky = {c["name"]: c["value"] for c in context.cookies()}["NBAPP_PROCESS"]
    other = ports[1] if sticky == "p1" else ports[0]
    query = page.url.split("?", 1)[1]
    assert "data=" in query
    context.close()

    elsewhere = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = elsewhere.new_page()
        page.goto(f"http://127.0.0.1:{other}/?{query}")
        App(page, f"http://127.0.0.1:{other}").wait()
        expect(page.get_by_text(re.compile(r"Model fitted: 2 classes"))).to_be_visible(timeout=60_000)
        expect(page.get_by_test_id("stSidebar").get_by_text(re.compile(r"shared_work\.csv"))).to_be_visible()
    finally:
        elsewhere.close()
