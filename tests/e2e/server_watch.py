"""What a stranger's input costs the other visitors of a running server (issue 31, "Done when"):
how long the health endpoint takes to answer while the input is handled, and how far the
server's resident memory rises above where it stood warm.

The peak is the kernel's own high-water mark (``VmHWM`` in /proc/PID/status), reset when the
watch starts (writing 5 to /proc/PID/clear_refs, Linux 4.0 and later), so a spike between two
samples is not missed; the child processes the server starts (a token pattern's worker) are
sampled every tick as well. Used as::

    with ServerWatch(url) as watch:
        ...                                # the bad input, sent through the browser
    watch.assert_unharmed()                # health answered within 1 s, peak < warm + 500 MB
"""

from __future__ import annotations

import threading
import time
import urllib.request
from pathlib import Path

from e2e.conftest import server_pid

MIB = 1024 * 1024
#: Health answers a watch gets at the least: one that is over in a moment (the input handled at
#: once) keeps asking for up to MIN_WATCH_SECONDS more, so that "answered" is not a count of 2.
MIN_ANSWERS = 5
MIN_WATCH_SECONDS = 2.0


def _status_kib(pid: int, field: str) -> int:
    """A ``kB`` field of /proc/PID/status (0 once the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def _children(pid: int) -> list[int]:
    """The process's children (and theirs), from /proc/PID/task/*/children."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found + [g for c in found for g in _children(c)]


class ServerWatch:
    """Asks ``/_stcore/health`` every 0.1 s from its own thread, keeping the slowest answer
    (an unanswered request counts as its 30 s timeout), and samples the resident memory of the
    server and its children."""

    def __init__(self, url: str, *, interval: float = 0.1) -> None:
        self.health_url = f"{url}/_stcore/health"
        self.pid = server_pid(url)
        self.interval = interval
        self.answers = 0
        self.slowest = 0.0
        self.failures: list[str] = []
        self.warm_bytes = 0
        self.peak_bytes = 0
        self.peak_child_bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _ask(self) -> None:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(self.health_url, timeout=30) as response:
                ok = response.read().strip() == b"ok"
        except OSError as err:
            ok = False
            self.failures.append(repr(err))
        self.slowest = max(self.slowest, time.monotonic() - started)
        self.answers += ok

    def _sample_children(self) -> None:
        for child in _children(self.pid):
            self.peak_child_bytes = max(self.peak_child_bytes, _status_kib(child, "VmRSS") * 1024)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._ask()
            self._sample_children()
            self._stop.wait(self.interval)

    def __enter__(self) -> "ServerWatch":
        self.warm_bytes = _status_kib(self.pid, "VmRSS") * 1024
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")      # resets VmHWM to the current RSS
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        deadline = time.monotonic() + MIN_WATCH_SECONDS
        while self.answers < MIN_ANSWERS and not self.failures and time.monotonic() < deadline:
            time.sleep(self.interval)
        self._stop.set()
        self._thread.join()
        self.peak_bytes = _status_kib(self.pid, "VmHWM") * 1024

    def __str__(self) -> str:
        return (f"health: {self.answers} answers, slowest {self.slowest:.2f} s, {len(self.failures)} failures; "
                f"server RSS warm {self.warm_bytes / MIB:.0f} MiB, peak {self.peak_bytes / MIB:.0f} MiB; "
                f"largest child {self.peak_child_bytes / MIB:.0f} MiB")

    def assert_unharmed(self, *, slowest: float = 1.0, above_warm: int = 500 * MIB,
                        min_answers: int = MIN_ANSWERS) -> None:
        """The other visitors were served: every health request answered within ``slowest``
        seconds, and the server's peak stayed within ``above_warm`` bytes of its warm size
        (its children too)."""
        assert not self.failures and self.answers >= min_answers, str(self)
        assert self.slowest <= slowest, str(self)
        assert self.peak_bytes - self.warm_bytes <= above_warm, str(self)
        assert self.peak_child_bytes <= above_warm, str(self)
