"""Load test: 8 concurrent headless Chromium sessions against a loopback `streamlit run app.py`.

    python bench/load_test.py [--sessions 8] [--rows 50000] [--cap 300] [--probe-limit 5]

Starts the app on 127.0.0.1 (a free port, no file watcher, no usage statistics), then every
session, each in its own thread with its own Debian Chromium (Playwright's sync API is not
thread-safe, so one playwright + browser per thread):

    load "/"  ->  "Upload a file"  ->  upload its own generated CSV (ROWS rows, 7 mixed columns)
    ->  wait for "Loaded ..." and "Model fitted"  ->  Model page  ->  Explain page (the posterior)
    ->  Evaluate page (5-fold cross-validation)  ->  download the out-of-sample predictions CSV.

Meanwhile a 9th "probe" session repeatedly opens "/" in a fresh browser context and times how
long the page title takes to appear: the app must stay responsive while the others fit.

Bounded: every wait has a timeout, all waits end at the global cap (--cap seconds), and a
watchdog kills the server and exits 60 s after the cap whatever happens. Server memory is read
from /proc/<pid>/status (VmRSS) before, during (peak of samples every 0.5 s) and after.
Exit code 0 when every session finished and the probe stayed under --probe-limit seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from playwright.sync_api import Page, TimeoutError as PlaywrightTimeout, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
STEPS = ("load", "upload+fit", "model", "explain", "evaluate", "download")
STEP_TIMEOUT = 120.0  # seconds for one step, further bounded by the global cap
PROBE_TIMEOUT = 30.0


class OutOfTime(Exception):
    """The global cap was reached."""


# -- data ------------------------------------------------------------------------------------------


def make_csv(rows: int, seed: int) -> bytes:
    """A mixed table: two categorical, a yes/no, two floats, a count, a 20-level code; 3 classes."""
    rng = np.random.default_rng(seed)
    play = rng.choice(["yes", "no", "maybe"], rows, p=[0.5, 0.35, 0.15])
    shift = pd.Series(play).map({"yes": 0.0, "no": 3.0, "maybe": -2.0}).to_numpy()
    frame = pd.DataFrame({
        "outlook": rng.choice(["sunny", "overcast", "rainy"], rows),
        "temperature": np.round(rng.normal(20, 5, rows) + shift, 2),
        "humidity": np.round(rng.normal(70, 10, rows) - 2 * shift, 1),
        "windy": rng.choice(["yes", "no"], rows),
        "visits": rng.poisson(3, rows),
        "region": rng.choice([f"R{i:02d}" for i in range(20)], rows),
        "play": play,
    })
    return frame.to_csv(index=False).encode()


# -- server ----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (psutil is not installed; /proc is enough on Linux)."""
    try:
        import psutil  # type: ignore[import-not-found]

        return psutil.Process(pid).memory_info().rss / 2**20
    except ImportError:
        pass
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(port: int, log_path: Path) -> subprocess.Popen:
    log = open(log_path, "w")
    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer {url}/_stcore/health within {timeout} s")


class MemorySampler(threading.Thread):
    """Every 0.5 s: the server's RSS (``peak`` is the largest) and how long /_stcore/health takes.

    The health latency is the server's own responsiveness (its event loop, no browser involved);
    the browser probe adds Chromium's rendering, which competes for the same cores.
    """

    def __init__(self, pid: int, url: str) -> None:
        super().__init__(daemon=True)
        self.pid, self.url, self.peak, self._stop = pid, url, 0.0, threading.Event()
        self.health: list[float] = []

    def run(self) -> None:
        while not self._stop.wait(0.5):
            try:
                self.peak = max(self.peak, rss_mb(self.pid))
            except OSError:
                return
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=10) as response:
                    response.read()
                self.health.append(time.monotonic() - t0)
            except OSError:
                self.health.append(float("inf"))

    def stop(self) -> None:
        self._stop.set()


# -- one browser session ---------------------------------------------------------------------------


@dataclass
class Deadline:
    end: float

    def ms(self, limit: float = STEP_TIMEOUT) -> float:
        """A wait's timeout in milliseconds: ``limit`` or what is left of the cap, whichever is less."""
        left = self.end - time.monotonic()
        if left <= 0.5:
            raise OutOfTime()
        return min(limit, left) * 1000


def wait_for_run(page: Page, deadline: Deadline, initial_ms: int = 300) -> None:
    """The script run has finished (Streamlit's own e2e suite waits the same way)."""
    page.wait_for_timeout(initial_ms)
    page.locator("[data-testid='stApp'][data-test-connection-state='CONNECTED']").wait_for(
        state="attached", timeout=deadline.ms())
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for(
        state="attached", timeout=deadline.ms())
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=deadline.ms())


def open_page(page: Page, name: str, deadline: Deadline) -> None:
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click(timeout=deadline.ms())
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible(timeout=deadline.ms())
    wait_for_run(page, deadline)


def metric_box(page: Page, label: str):
    label_el = page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    return page.get_by_test_id("stMetric").filter(has=label_el).get_by_test_id("stMetricValue")


@dataclass
class SessionResult:
    index: int
    steps: dict[str, float] = field(default_factory=dict)
    total: float = float("nan")
    status: str = "not started"
    detail: str = ""
    download_rows: int = 0


def run_session(result: SessionResult, url: str, csv: bytes, rows: int, deadline: Deadline,
                ready: threading.Barrier) -> None:
    name = f"load_{result.index}.csv"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
                page = context.new_page()
                ready.wait(timeout=120)
                result.status = "running"
                t0 = last = time.monotonic()

                def lap(step: str) -> None:
                    nonlocal last
                    now = time.monotonic()
                    result.steps[step], last = now - last, now

                page.goto(url, timeout=deadline.ms())
                expect(page.get_by_role("heading", name="Data", level=1)).to_be_visible(timeout=deadline.ms())
                wait_for_run(page, deadline)
                lap("load")

                page.get_by_test_id("stRadio").get_by_text("Upload a file").click(timeout=deadline.ms())
                wait_for_run(page, deadline)
                page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
                    files=[{"name": name, "mimeType": "text/csv", "buffer": csv}], timeout=deadline.ms())
                expect(page.get_by_text(f"Loaded {name}: {rows:,} rows", exact=False)).to_be_visible(
                    timeout=deadline.ms())
                expect(page.get_by_text("Model fitted: 3 classes", exact=False)).to_be_visible(timeout=deadline.ms())
                wait_for_run(page, deadline)
                lap("upload+fit")

                open_page(page, "Model", deadline)
                expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible(timeout=deadline.ms())
                lap("model")

                open_page(page, "Explain", deadline)
                expect(metric_box(page, "Prediction (argmax)")).to_have_text(
                    re.compile(r"^(yes|no|maybe)$"), timeout=deadline.ms())
                lap("explain")

                open_page(page, "Evaluate", deadline)
                expect(metric_box(page, "Accuracy")).to_be_visible(timeout=deadline.ms())
                lap("evaluate")

                button = page.get_by_role("button", name="Download the out-of-sample predictions (CSV)")
                with page.expect_download(timeout=deadline.ms()) as download:
                    button.click(timeout=deadline.ms())
                path = download.value.path()
                with open(path, "rb") as fh:
                    result.download_rows = sum(1 for _ in fh) - 1
                lap("download")
                result.total = time.monotonic() - t0
                result.status = "ok" if result.download_rows == rows else "wrong download"
                if result.status != "ok":
                    result.detail = f"{result.download_rows:,} rows in the download, expected {rows:,}"
                context.close()
            finally:
                browser.close()
    except OutOfTime:
        result.status, result.detail = "cap reached", f"after {', '.join(result.steps) or 'no step'}"
    except (PlaywrightTimeout, AssertionError) as err:
        result.status, result.detail = "timeout", f"after {', '.join(result.steps) or 'no step'}: " + \
            str(err).splitlines()[0][:160]
    except Exception as err:  # noqa: BLE001 - one session's failure is reported, the others go on
        result.status, result.detail = "error", f"{type(err).__name__}: {str(err).splitlines()[0][:160]}"


# -- the probe: a 9th session that only opens "/" --------------------------------------------------


@dataclass
class ProbeResult:
    idle: list[float] = field(default_factory=list)  # before the load starts
    loaded: list[float] = field(default_factory=list)  # while the sessions run
    failures: list[str] = field(default_factory=list)


def probe_once(browser, url: str, deadline: Deadline) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        t0 = time.monotonic()
        page.goto(url, timeout=deadline.ms(PROBE_TIMEOUT))
        expect(page.get_by_role("heading", name="Data", level=1)).to_be_visible(timeout=deadline.ms(PROBE_TIMEOUT))
        title = page.title()
        elapsed = time.monotonic() - t0
        if "Naive Bayes workbench" not in title:
            raise AssertionError(f"unexpected page title {title!r}")
        return elapsed
    finally:
        context.close()


def run_probe(result: ProbeResult, url: str, deadline: Deadline, ready: threading.Barrier,
              done: threading.Event) -> None:
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                for _ in range(3):
                    result.idle.append(probe_once(browser, url, deadline))
                ready.wait(timeout=120)
                time.sleep(1.0)  # let the sessions start their work first
                while not done.is_set():
                    try:
                        result.loaded.append(probe_once(browser, url, deadline))
                    except (PlaywrightTimeout, AssertionError) as err:
                        result.failures.append(str(err).splitlines()[0][:160])
                    done.wait(1.0)
            finally:
                browser.close()
    except OutOfTime:
        pass
    except Exception as err:  # noqa: BLE001
        result.failures.append(f"{type(err).__name__}: {str(err).splitlines()[0][:160]}")


# -- report ----------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def report(sessions: list[SessionResult], probe: ProbeResult, memory: dict[str, float], health: list[float],
           wall: float, args: argparse.Namespace) -> bool:
    print(f"\n{args.sessions} sessions x {args.rows:,}-row CSV, cap {args.cap:.0f} s, wall {wall:.1f} s\n")
    header = f"{'session':>7} {'status':<14}" + "".join(f"{s:>11}" for s in STEPS) + f"{'total':>9}"
    print(header)
    print("-" * len(header))
    for r in sessions:
        cells = "".join(f"{r.steps[s]:>10.1f}s" if s in r.steps else f"{'-':>11}" for s in STEPS)
        total = f"{r.total:>8.1f}s" if np.isfinite(r.total) else f"{'-':>9}"
        print(f"{r.index:>7} {r.status:<14}{cells}{total}")
        if r.detail:
            print(f"{'':>7} {r.detail}")
    done = [r.total for r in sessions if r.status == "ok"]
    print("-" * len(header))
    for label, fn in (("p50", lambda v: percentile(v, 50)), ("p95", lambda v: percentile(v, 95)), ("max", max)):
        cells = ""
        for s in STEPS:
            v = [r.steps[s] for r in sessions if s in r.steps]
            cells += f"{fn(v):>10.1f}s" if v else f"{'-':>11}"
        total = f"{fn(done):>8.1f}s" if done else f"{'-':>9}"
        print(f"{label:>7} {'':<14}{cells}{total}")

    print(f"\nsessions finished: {len(done)}/{len(sessions)}")
    print(f"server RSS: just started {memory['cold']:.0f} MB, warm before the load {memory['before']:.0f} MB, peak {memory['peak']:.0f} MB, "
          f"after {memory['after']:.0f} MB (+{memory['after'] - memory['before']:.0f} MB)")
    print(f"server /_stcore/health during the run: {len(health)} requests, median {percentile(health, 50) * 1000:.0f} ms, "
          f"p95 {percentile(health, 95) * 1000:.0f} ms, max {max(health, default=float('nan')) * 1000:.0f} ms")
    loaded_max = max(probe.loaded) if probe.loaded else float("nan")
    print(f"probe (9th session, load '/' and read the title): idle median "
          f"{percentile(probe.idle, 50):.2f} s; under load {len(probe.loaded)} probes, median "
          f"{percentile(probe.loaded, 50):.2f} s, p95 {percentile(probe.loaded, 95):.2f} s, max {loaded_max:.2f} s"
          f" (limit {args.probe_limit:.0f} s); {len(probe.failures)} failed")
    for f in probe.failures[:5]:
        print(f"  probe failure: {f}")
    responsive = bool(probe.loaded) and not probe.failures and loaded_max < args.probe_limit
    print(f"responsive while the others fit: {'yes' if responsive else 'NO'}")
    return len(done) == len(sessions) and responsive


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--cap", type=float, default=300.0, help="seconds for the whole load phase")
    parser.add_argument("--probe-limit", type=float, default=5.0, help="seconds the 9th session may take")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium package", file=sys.stderr)
        return 2

    csvs = [make_csv(args.rows, seed) for seed in range(args.sessions)]  # distinct files: no shared cache hits
    work = Path(tempfile.mkdtemp(prefix="nbapp_load_"))
    log_path = work / "streamlit.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(port, log_path)

    def watchdog() -> None:
        print(f"watchdog: {args.cap + 60:.0f} s passed; killing the server and exiting", file=sys.stderr)
        server.kill()
        os._exit(3)

    timer = threading.Timer(args.cap + 60 + 90, watchdog)  # + 90 s for the server start
    timer.daemon = True
    timer.start()
    sampler = None
    try:
        wait_healthy(url, server)
        with urllib.request.urlopen(url, timeout=10):
            pass
        memory = {"cold": rss_mb(server.pid)}
        sampler = MemorySampler(server.pid, url)
        sampler.start()
        deadline = Deadline(time.monotonic() + args.cap)
        # "before" is read when every browser is up and the probe has loaded "/" three times (app warm).
        ready = threading.Barrier(args.sessions + 1, action=lambda: memory.update(before=rss_mb(server.pid)))
        done = threading.Event()
        sessions = [SessionResult(i) for i in range(args.sessions)]
        probe = ProbeResult()
        threads = [threading.Thread(target=run_session, args=(r, url, csvs[r.index], args.rows, deadline, ready),
                                    daemon=True) for r in sessions]
        probe_thread = threading.Thread(target=run_probe, args=(probe, url, deadline, ready, done), daemon=True)
        t0 = time.monotonic()
        probe_thread.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(1.0, deadline.end - time.monotonic() + 30))
        done.set()
        probe_thread.join(PROBE_TIMEOUT + 5)
        wall = time.monotonic() - t0
        time.sleep(1.0)
        memory["after"] = rss_mb(server.pid)
        sampler.stop()
        memory.setdefault("before", float("nan"))
        memory["peak"] = max(sampler.peak, memory["after"])
        ok = report(sessions, probe, memory, sampler.health, wall, args)
        if not ok:
            print(f"server log: {log_path}")
        return 0 if ok else 1
    finally:
        timer.cancel()
        if sampler is not None:
            sampler.stop()
        stop_server(server)



def stop_server(server: subprocess.Popen) -> None:
    """Terminate the server, and kill it if it has not ended 10 s later."""
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()

if __name__ == "__main__":
    sys.exit(main())
