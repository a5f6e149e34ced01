"""Memory that comes back: a real `streamlit run app.py`, 20 Chromium sessions that each upload
their own CSV of about 11 MB, look at Model and Explain and close; then the server's resident
memory (RSS) while nobody is connected.

    python bench/session_memory.py [--sessions 20] [--parallel 3] [--mb 11] [--settle 60]
                                   [--server-arg=--server.disconnectedSessionTTL=120 ...]

Each session, in a fresh browser context (one Chromium per worker thread, --parallel at a time):

    load "/"  ->  "Upload a file"  ->  its own mixed CSV (7 columns, 3 classes)  ->  "Loaded ..."
    and "Model fitted"  ->  Model page  ->  Explain page (the posterior)  ->  close the context

Prints the server's RSS when started, when warm (one session has visited Data, Model and
Explain with the built-in example and closed: the modules the pages import are loaded), the peak while the sessions run, just after the last
one closed, and every 5 s for --settle seconds; then whether it is back within 20% of the warm
figure, and when it first was. Exit code 0 when it is, at the end of --settle. Every wait is
bounded; a watchdog kills the server and exits if the run takes longer than --cap seconds.
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from load_test import (  # noqa: E402  (the load test's server, waits and data)
    CHROMIUM,
    CHROMIUM_ARGS,
    Deadline,
    MemorySampler,
    free_port,
    make_csv,
    metric_box,
    open_page,
    rss_mb,
    stop_server,
    wait_for_run,
    wait_healthy,
)

WITHIN = 0.20  # back within this fraction of the warm RSS


def csv_of_size(megabytes: float, seed: int) -> tuple[bytes, int]:
    """The load test's mixed table with as many rows as make about ``megabytes`` MB of CSV."""
    probe = make_csv(10_000, seed)
    rows = int(megabytes * 1e6 / (len(probe) / 10_000))
    return make_csv(rows, seed), rows


def start_server(port: int, log_path: Path, extra: list[str]) -> subprocess.Popen:
    log = open(log_path, "w")
    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none", *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )


def data_page(context, url: str, deadline: Deadline):
    """A new page of ``context`` on the app's Data page, its first run finished."""
    page = context.new_page()
    page.goto(url, timeout=deadline.ms())
    expect(page.get_by_role("heading", name="Data", level=1)).to_be_visible(timeout=deadline.ms())
    wait_for_run(page, deadline)
    return page


def warm_up(browser, url: str, deadline: Deadline) -> None:
    """One session that visits Data, Model and Explain with the built-in example, and closes:
    the modules the pages import are then loaded, as they stay for the process's life."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = data_page(context, url, deadline)
        open_page(page, "Model", deadline)
        open_page(page, "Explain", deadline)
    finally:
        context.close()


def one_session(browser, url: str, name: str, csv: bytes, rows: int, deadline: Deadline) -> None:
    """Upload, Model, Explain, close: raises on any step that does not show what it should."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = data_page(context, url, deadline)
        page.get_by_test_id("stRadio").get_by_text("Upload a file").click(timeout=deadline.ms())
        wait_for_run(page, deadline)
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            files=[{"name": name, "mimeType": "text/csv", "buffer": csv}], timeout=deadline.ms())
        expect(page.get_by_text(f"Loaded {name}: {rows:,} rows", exact=False)).to_be_visible(timeout=deadline.ms())
        expect(page.get_by_text("Model fitted", exact=False)).to_be_visible(timeout=deadline.ms())
        wait_for_run(page, deadline)
        open_page(page, "Model", deadline)
        expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible(timeout=deadline.ms())
        open_page(page, "Explain", deadline)
        expect(metric_box(page, "Prediction (argmax)")).to_have_text(re.compile(r"^(yes|no|maybe)$"),
                                                                     timeout=deadline.ms())
    finally:
        context.close()   # the tab goes away: its websocket closes, as when a user closes the browser


def browse(tasks: "queue.Queue[int | None]", job) -> None:
    """One Playwright and one Chromium for this thread (Playwright's sync API is not thread-safe):
    ``job(browser, i)`` for each ``i`` taken from ``tasks`` until None."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            while (i := tasks.get()) is not None:
                job(browser, i)
        finally:
            browser.close()


def run_threads(n: int, items: list[int], job) -> None:
    tasks: "queue.Queue[int | None]" = queue.Queue()
    for i in items:
        tasks.put(i)
    for _ in range(n):
        tasks.put(None)
    threads = [threading.Thread(target=browse, args=(tasks, job), daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=3, help="browsers at a time (the machine has 2 cores)")
    parser.add_argument("--mb", type=float, default=11.0, help="size of each session's CSV")
    parser.add_argument("--settle", type=float, default=60.0, help="seconds to watch RSS after the last session")
    parser.add_argument("--cap", type=float, default=1200.0, help="seconds for the whole run")
    parser.add_argument("--server-arg", action="append", default=[], help="passed to `streamlit run`")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium package", file=sys.stderr)
        return 2

    work = Path(tempfile.mkdtemp(prefix="nbapp_memory_"))
    files = []
    for i in range(args.sessions):
        data, rows = csv_of_size(args.mb, seed=1000 + i)  # distinct files: no cache hit between sessions
        path = work / f"upload_{i:02d}.csv"
        path.write_bytes(data)
        files.append((path, rows))
    print(f"{args.sessions} CSV files of {len(data) / 1e6:.1f} MB ({rows:,} rows, 7 mixed columns) in {work}")

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = work / "streamlit.log"
    server = start_server(port, log_path, args.server_arg)
    timer = threading.Timer(args.cap + 60, lambda: (print("watchdog: out of time", file=sys.stderr),
                                                    server.kill(), os._exit(3)))
    timer.daemon = True
    timer.start()
    sampler = None
    try:
        wait_healthy(url, server)
        memory = {"started": rss_mb(server.pid)}
        deadline = Deadline(time.monotonic() + args.cap)
        run_threads(1, [0], lambda browser, _: warm_up(browser, url, deadline))
        time.sleep(2.0)
        memory["warm"] = rss_mb(server.pid)
        sampler = MemorySampler(server.pid, url)
        sampler.start()

        failures: list[str] = []

        def run(browser, i: int) -> None:
            path, rows = files[i]
            try:
                one_session(browser, url, path.name, path.read_bytes(), rows, deadline)
            except Exception as err:  # noqa: BLE001 - one session's failure is reported, the others go on
                failures.append(f"session {i}: {type(err).__name__}: {str(err).splitlines()[0][:160]}")

        t0 = time.monotonic()
        run_threads(args.parallel, list(range(args.sessions)), run)
        wall = time.monotonic() - t0
        sampler.stop()
        memory["peak"] = sampler.peak
        closed = time.monotonic()
        memory["closed"] = rss_mb(server.pid)
        limit = memory["warm"] * (1 + WITHIN)
        series, back_at = [], None
        while True:
            elapsed = time.monotonic() - closed
            value = rss_mb(server.pid)
            series.append((elapsed, value))
            if back_at is None and value <= limit:
                back_at = elapsed
            if elapsed >= args.settle:
                break
            time.sleep(min(5.0, args.settle - elapsed + 0.05))
        end = series[-1][1]
        print(f"\n{args.sessions - len(failures)}/{args.sessions} sessions finished in {wall:.0f} s "
              f"({args.parallel} browsers at a time)")
        for f in failures:
            print(f"  {f}")
        print(f"server RSS: started {memory['started']:.0f} MB, warm {memory['warm']:.0f} MB, "
              f"peak {memory['peak']:.0f} MB, just after the last session closed {memory['closed']:.0f} MB, "
              f"+{series[-1][0]:.0f} s {end:.0f} MB")
        print("after close: " + ", ".join(f"+{t:.0f}s {v:.0f}" for t, v in series))
        ok = end <= limit and not failures
        when = f" (first at +{back_at:.0f} s)" if back_at is not None else ""
        print(f"back within {WITHIN:.0%} of warm ({limit:.0f} MB) at +{args.settle:.0f} s: "
              f"{'yes' if end <= limit else 'NO'}{when}; {end / memory['warm'] - 1:+.0%}")
        if failures:
            print(f"server log: {log_path}")
        return 0 if ok else 1
    finally:
        timer.cancel()
        if sampler is not None:
            sampler.stop()
        stop_server(server)


if __name__ == "__main__":
    sys.exit(main())
