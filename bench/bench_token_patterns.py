"""Hostile token patterns are stopped in time and the rest of the process keeps answering (issue 21).

    python bench/bench_token_patterns.py [--seconds S]

For each pattern of the issue, fits a Naive Bayes text model with it on the built-in SMS
corpus, on 53 KB of prose (the seeds' lecture notes as one document, without "!") and on
runs of the letter a, and prints

* how long until the fit stopped (or finished), and the sentence it stopped with;
* the longest gap of a "heartbeat" thread that ticks every 10 ms meanwhile: the time another
  session of the server would have waited for the GIL (Python's ``re`` in the server's own
  process would make it the whole run).

The job's deadline is ``--seconds`` (nbapp.text.matching.BASE_SECONDS; the default budget is
5 s plus 1 s per million characters). Ordinary patterns are timed on the same corpora.

First, what the refusal of such patterns prevents: Python's ``re`` alone on ``(a+)+b`` against
runs of 16 to 22 a's, its time about doubling with each character (the figure
tests/test_text_patterns.py used to assert; it now checks that the matcher stops the pattern).
"""

from __future__ import annotations

import argparse
import re
import threading
import time
from pathlib import Path

import pandas as pd

from nbapp import DataError, NaiveBayes, Text
from nbapp.examples import load_example
from nbapp.text import TextOptions, matching

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = [r"(?:\w+){1,40}!", r"(?:a+){1,30}b", r"\w*\w*\w*\w*\w*\w*!", r"\w+!", r"[\s\S]*!"]
ORDINARY = [r"[a-z]+", r"\w+(?:'\w+)?", r"\S+"]


class Heartbeat:
    """A thread that ticks every 10 ms and records its longest wait."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.wait(0.01):
            now = time.perf_counter()
            self.longest = max(self.longest, now - last - 0.01)
            last = now

    def __enter__(self) -> "Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def prose(n_chars: int = 53_000) -> str:
    """Lecture notes without "!" (so a pattern ending in "!" never matches: the slow case)."""
    text = " ".join(p.read_text() for p in sorted((ROOT.parent.parent / "shared" / "seeds").glob("*.txt")))
    if len(text) < n_chars:   # outside the project's machine: the README
        text = (ROOT / "README.md").read_text()
    while len(text) < n_chars:
        text += " " + text
    return text[:n_chars].replace("!", ".")


def fit(frame: pd.DataFrame, pattern: str) -> tuple[float, float, str]:
    spec = Text(TextOptions(token_pattern=pattern))
    with Heartbeat() as beat:
        start = time.perf_counter()
        try:
            NaiveBayes({"text": spec}).fit(frame, "label")
            outcome = "fitted"
        except DataError as err:
            outcome = str(err)[:110] + "..."
        seconds = time.perf_counter() - start
    return seconds, beat.longest, outcome


def re_alone_doubles() -> None:
    """re.match of (a+)+b on n a's: 2^(n-1) ways to split the run, all tried before it fails."""
    print("re alone, (a+)+b on n a's (no b):")
    previous = None
    pattern = re.compile(r"(a+)+b")
    for n in (16, 18, 20, 22):
        start = time.perf_counter()
        pattern.match("a" * n)
        seconds = time.perf_counter() - start
        ratio = f"   x{seconds / previous:.1f} for 2 more characters" if previous else ""
        print(f"  n = {n}: {seconds:8.4f} s{ratio}")
        previous = seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=matching.BASE_SECONDS)
    args = parser.parse_args()
    matching.BASE_SECONDS = args.seconds
    corpora = {
        "SMS (5,574 messages)": load_example("sms_spam"),
        "prose (one 53 KB document, twice)": pd.DataFrame({"text": [prose()] * 2, "label": ["a", "b"]}),
        "runs of a (two documents of 40)": pd.DataFrame({"text": ["a" * 40, "a" * 40 + " c"], "label": ["a", "b"]}),
    }
    re_alone_doubles()
    print(f"\ndeadline: {args.seconds:g} s + 1 s per {matching.CHARS_PER_SECOND:,} characters")
    for name, frame in corpora.items():
        print(f"\n{name}")
        for pattern in HOSTILE + ORDINARY:
            try:
                seconds, gap, outcome = fit(frame, pattern)
            except DataError as err:          # refused when the options are made
                seconds, gap, outcome = 0.0, 0.0, f"refused at once: {str(err)[:80]}..."
            print(f"  {pattern:24} {seconds:6.2f} s   heartbeat's longest wait {gap * 1000:6.1f} ms   {outcome}")


if __name__ == "__main__":
    main()
