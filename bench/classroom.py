"""A class on one server: N students' sessions speaking Streamlit's own websocket protocol, no
browsers (issue 32, item 4).

    python bench/classroom.py [--sessions 60] [--arrive 3] [--clicks 5] [--gap 0.5 4] [--pages Explain,Model]
                              [--query "example=tennis14"] [--url http://127.0.0.1:8501] [--seed 0]

Without --url it starts `streamlit run app.py` itself (headless, 127.0.0.1, a free port) and
also reports the server's CPU seconds per page run and its peak resident memory; with --url it
drives a server already running (several processes behind a proxy, say) and reports what the
students saw.

Each session opens ``/_stcore/stream`` (subprotocol ``streamlit``) at a random moment within
--arrive seconds and asks for a page on the lecture link (``BackMsg.rerun_script`` with the
link's query string and the page's name), as a browser does when the link is opened; half the
class lands on Explain, half on Model (--pages chooses). Then, every --gap seconds (uniform), it clicks the server
path of its page: Explain's Outlook select box (a fragment rerun, as the browser sends it, with
the widget's id and fragment id read from the page's own messages) and Model's smoothing l
(a number input, a whole-page rerun). A first visit or a click is timed from the message sent
to the server's ``script_finished`` for it (the server's work plus the protocol; a browser's
drawing comes on top, see bench/bench_clicks.py).

It prints, for first visits and clicks, the median, 95th percentile and maximum seconds, the
count, and failures; the 1-minute load average before and after; and, for a server it started,
CPU seconds per page run (utime + stime from /proc/PID/stat over the runs of the whole class)
and peak RSS (VmHWM, reset at the start). Bounded: every wait has a timeout (--timeout), the
run stops at --cap seconds, and the server it started is stopped on the way out.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_clicks import ROOT, serve  # noqa: E402  (a server on a free port, stopped on the way out)

FINISHED = {ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
            ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


@dataclass(frozen=True)
class Click:
    """What a student changes on a page: the widget with this label, and the values it takes in turn."""

    page: str
    label: str
    values: tuple
    kind: str              # WidgetState's field: string_value (a select box), double_value (a number)


CLICKS = (Click("Explain", "Outlook", ("Rain", "Sunny", "Overcast"), "string_value"),
          Click("Model", "l (pseudo-count", (0.0, 0.5, 2.0, 1.0), "double_value"))


@dataclass
class Figures:
    visits: list[float] = field(default_factory=list)
    clicks: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


class Session:
    """One student: a websocket, the widgets the server drew (id -> (label, fragment id))."""

    def __init__(self, ws: websockets.ClientConnection, query: str, timeout: float) -> None:
        self.ws, self.query, self.timeout = ws, query, timeout
        self.widgets: dict[str, tuple[str, str]] = {}

    async def run(self, page: str, state: tuple[str, str, object] | None = None, fragment: str = "") -> float:
        """Seconds from asking for a run of ``page`` (with one widget's new value) to its end."""
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = page
        if state is not None:
            widget_id, kind, value = state
            widget = msg.rerun_script.widget_states.widgets.add()
            widget.id = widget_id
            setattr(widget, kind, value)
        if fragment:
            msg.rerun_script.fragment_id = fragment
        started = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(await asyncio.wait_for(self.ws.recv(), self.timeout))
            kind = forward.WhichOneof("type")
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                proto = getattr(element, element.WhichOneof("type"))
                if getattr(proto, "id", ""):
                    self.widgets[proto.id] = (getattr(proto, "label", ""), forward.delta.fragment_id)
            elif kind == "page_not_found":
                raise RuntimeError(f"the server has no page {page!r}")
            elif kind == "script_finished":
                if forward.script_finished not in FINISHED:
                    raise RuntimeError(f"the run of {page} ended with status {forward.script_finished}")
                return time.perf_counter() - started

    def find(self, label: str) -> tuple[str, str]:
        """(widget id, fragment id) of the widget whose label starts with ``label``."""
        for widget_id, (shown, fragment) in self.widgets.items():
            if shown.startswith(label):
                return widget_id, fragment
        raise RuntimeError(f"no widget labelled {label!r} on the page")


async def student(i: int, url: str, args: argparse.Namespace, figures: Figures, rng: random.Random) -> None:
    clicks = [c for c in CLICKS if c.page in args.pages]
    click = clicks[i % len(clicks)]
    await asyncio.sleep(rng.uniform(0, args.arrive))
    stream = url.replace("http://", "ws://").rstrip("/") + "/_stcore/stream"
    try:
        async with websockets.connect(stream, subprotocols=["streamlit"], max_size=None,
                                      open_timeout=args.timeout) as ws:
            session = Session(ws, args.query, args.timeout)
            figures.visits.append(await session.run(click.page))
            widget_id, fragment = session.find(click.label)
            for k in range(args.clicks):
                await asyncio.sleep(rng.uniform(*args.gap))
                value = click.values[k % len(click.values)]
                figures.clicks.append(await session.run(click.page, (widget_id, click.kind, value), fragment))
    except (OSError, RuntimeError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
        figures.failures.append(f"session {i} ({click.page}): {type(exc).__name__}: {exc}")


async def classroom(url: str, args: argparse.Namespace) -> Figures:
    figures = Figures()
    rng = random.Random(args.seed)
    tasks = [student(i, url, args, figures, random.Random(rng.random())) for i in range(args.sessions)]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), args.cap)
    except asyncio.TimeoutError:
        figures.failures.append(f"the class did not finish within --cap {args.cap:.0f} s")
    return figures


# -- the server's own figures ---------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc/PID/stat (fields 14 and 15, in clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_mib(pid: int, name: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def server_pid(port: int) -> int | None:
    """The pid of the server serve() started on ``port`` (its command line names the port)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if f"--server.port={port}".encode() in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"):
                return int(pid)
        except OSError:
            continue
    return None


def spread(values: list[float]) -> str:
    if not values:
        return "no runs"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"median {statistics.median(ordered):5.2f} s   p95 {p95:5.2f} s   max {ordered[-1]:5.2f} s   "
            f"({len(ordered)} runs)")


def report(args: argparse.Namespace, figures: Figures, load: tuple[float, float], server: dict[str, float]) -> None:
    print(f"{args.sessions} sessions arriving within {args.arrive:g} s on ?{args.query} ({', '.join(args.pages)}), "
          f"{args.clicks} clicks each {args.gap[0]:g}-{args.gap[1]:g} s apart")
    print(f"  first visit  {spread(figures.visits)}")
    print(f"  click        {spread(figures.clicks)}")
    print(f"  load average {load[0]:.2f} before, {load[1]:.2f} after (1 minute; {os.cpu_count()} cores)")
    if server:
        print(f"  server       {server['cpu_per_run']:.3f} CPU s per page run ({server['runs']:.0f} runs, "
              f"{server['cpu']:.1f} CPU s in {server['wall']:.1f} s), RSS {server['warm']:.0f} MiB warm, "
              f"peak {server['peak']:.0f} MiB")
    for failure in figures.failures[:10]:
        print(f"  FAILED {failure}")


def measure(url: str, args: argparse.Namespace, pid: int | None) -> int:
    # one untimed student first: the server's imports and caches are warm, as before a lecture
    warm = argparse.Namespace(**{**vars(args), "sessions": len(args.pages), "arrive": 0.0, "clicks": 1})
    asyncio.run(classroom(url, warm))
    server: dict[str, float] = {}
    if pid is not None:
        Path(f"/proc/{pid}/clear_refs").write_text("5")          # VmHWM from here on
        server = {"warm": status_mib(pid, "VmRSS"), "cpu": cpu_seconds(pid), "wall": time.perf_counter()}
    before = os.getloadavg()[0]
    figures = asyncio.run(classroom(url, args))
    if pid is not None:
        runs = len(figures.visits) + len(figures.clicks)
        server.update(cpu=cpu_seconds(pid) - server["cpu"], wall=time.perf_counter() - server["wall"],
                      peak=status_mib(pid, "VmHWM"), runs=runs)
        server["cpu_per_run"] = server["cpu"] / max(runs, 1)
    report(args, figures, (before, os.getloadavg()[0]), server)
    return 1 if figures.failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--arrive", type=float, default=3.0, help="seconds within which the class arrives")
    parser.add_argument("--clicks", type=int, default=5)
    parser.add_argument("--gap", type=float, nargs=2, default=(0.5, 4.0), help="seconds between a student's clicks")
    parser.add_argument("--query", default="example=tennis14", help="the lecture link's query string")
    parser.add_argument("--url", help="a running server (else one is started)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds one run may take")
    parser.add_argument("--cap", type=float, default=600.0, help="seconds the whole class may take")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pages", default=",".join(c.page for c in CLICKS),
                        help="the pages the class lands on, in turn (default: Explain,Model); one page alone gives "
                             "that page's CPU per run")
    args = parser.parse_args()
    args.pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    if not args.pages or set(args.pages) - {c.page for c in CLICKS}:
        parser.error(f"--pages takes some of {', '.join(c.page for c in CLICKS)}")
    if args.url:
        return measure(args.url, args, None)
    log = ROOT / "test-artifacts" / "classroom-server.log"
    log.parent.mkdir(exist_ok=True)
    with serve("app.py", ROOT, log) as url:
        return measure(url, args, server_pid(int(url.rsplit(":", 1)[1])))


if __name__ == "__main__":
    sys.exit(main())
