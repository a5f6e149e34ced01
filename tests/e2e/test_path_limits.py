"""A local path cannot tie up the server (issue 31, item 10), live in Chromium: a folder of more
files than one path may name is refused at once while the other visitors are served, and a fit
of many files whose visitor has left stops once the session is closed, instead of holding a core
for minutes."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Iterator

import pytest
from e2e.conftest import QUIET, STREAMLIT, App, serve, server_pid
from e2e.server_watch import ServerWatch
from playwright.sync_api import expect

from nbapp.scale import MAX_FILES

pytestmark = pytest.mark.e2e

# Files of the slow folder: a fit checks each (its header, its delimiter), tens of seconds in all.
SLOW_FILES = 2_000
# A session whose browser has gone is closed this many seconds later (the app's own is 30 s).
TTL_SECONDS = 3


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A server whose data folder holds 'many' (MAX_FILES + 1 tiny CSVs) and 'slow' (SLOW_FILES
    tiny CSVs of two classes): its URL and the folder."""
    folder = tmp_path_factory.mktemp("data_root")
    for name, count in (("many", MAX_FILES + 1), ("slow", SLOW_FILES)):
        (folder / name).mkdir()
        for i in range(count):
            (folder / name / f"part{i:05d}.csv").write_bytes(b"x,y\nq,a\nr,b\n")
    with serve([*STREAMLIT, *QUIET, "--server.address=127.0.0.1", f"--server.disconnectedSessionTTL={TTL_SECONDS}"],
               env={"NBAPP_DATA_ROOT": str(folder)}, log_name="streamlit-path-limits.log") as url:
        yield url, folder


def _type_path(app: App, typed: str) -> None:
    """Load the app, choose "Open a local path" and type ``typed`` (the button not clicked yet)."""
    app.goto()
    page = app.page
    page.get_by_test_id("stRadio").get_by_text("Open a local path").click()
    app.wait()
    page.get_by_role("textbox", name=re.compile("Path in the data folder")).fill(typed)
    page.keyboard.press("Enter")
    app.wait()


def _open(app: App) -> None:
    app.page.get_by_test_id("stButton").get_by_role("button", name="Open the path").click()


def _cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time, every thread counted (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_folder_of_more_files_than_a_path_may_name_is_refused_at_once(page, data_folder):
    url, _ = data_folder
    app = App(page, url)
    _type_path(app, "many")                          # the server warm: its pages imported
    with ServerWatch(url) as watch:
        _open(app)                                   # (checking 10,001 files would take minutes)
        expect(page.get_by_text(re.compile(r"names more than 10,000 table files; one path may name at most 10,000: "
                                           r"name a narrower glob"))).to_be_visible(timeout=10_000)
    print(watch)
    watch.assert_unharmed()


def test_the_fit_of_a_visitor_who_left_stops_when_the_session_is_closed(browser, data_folder):
    url, _ = data_folder
    pid = server_pid(url)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    app = App(page, url)
    _type_path(app, "slow")
    _open(app)
    page.wait_for_timeout(2000)                      # the fit is under way: its checks take tens of seconds
    busy_from = _cpu_seconds(pid)
    page.wait_for_timeout(4000)
    busy = (_cpu_seconds(pid) - busy_from) / 4
    context.close()                                  # the visitor leaves
    time.sleep(TTL_SECONDS + 3)                      # closed 1 s before the TTL; the read stops at its next file
    quiet_from = _cpu_seconds(pid)
    time.sleep(4)
    quiet = (_cpu_seconds(pid) - quiet_from) / 4
    print(f"server CPU while fitting: {busy:.2f} s per s; after the session was closed: {quiet:.2f} s per s")
    assert busy > 0.05, "the fit was running when the visitor left"    # (a fifth of a core on a loaded machine)
    assert quiet < busy / 4, "the fit went on after its session was closed"
