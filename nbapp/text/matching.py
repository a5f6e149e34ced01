r"""Token patterns that cannot stop the server: Python's ``re`` in a child process, with a deadline.

A token pattern is a regular expression the user types (or a link or a model file carries).
Python's ``re`` backtracks, and some patterns take exponential or high-polynomial time:
``(?:\w+){1,40}!`` on an SMS corpus, ``(?:a+){1,30}b``, ``\w*\w*\w*\w*\w*\w*!``, or
``\w+!`` on 53 KB of prose. ``re`` holds the GIL while it does, so in the server it would
stop every session. No static check can tell all such patterns apart, so the bound is in
time: each tokenising *job* (fitting or scoring one text column, one document's views on the
Text page) gets one time budget, :func:`budget_seconds` of its text, spent by its pattern; a
pattern still running when it is spent is stopped and answered with a
:class:`~nbapp.errors.DataError` naming it.

How. The pattern runs in a child process (:mod:`nbapp.text._re_worker`, standard library
only, started with ``python -I -S`` in some 30 ms) that the job starts once and kills when
its time is up; the server's thread waits on a pipe without the GIL, so other sessions go on. The
child uses Python's own ``re``, so the tokens are exactly scikit-learn's ``CountVectorizer``
ones (which uses ``re``) whatever the pattern, its flags or the script of the text; the
pattern is compiled and checked there too, because compiling alone can take seconds
(a case-insensitive set of every code point).

Why not the ``regex`` package (timeouts, ``concurrent=True`` releases the GIL)? Its
``VERSION0`` mode still tokenises differently from ``re``, measured over every code point
on Python 3.11 / regex 2026.11: ``\w`` takes combining marks (so Devanagari and NFD text
split differently: 379,311 ``re`` tokens are 206,897 ``regex`` tokens on 1 MB of Hindi) and
leaves out ``No`` digits such as "²", ``\s`` leaves out U+001C-U+001F, ``(?i)[a-z]``
leaves out "ı", ``[[:alpha:]]`` is a POSIX class (for ``re`` a set of five characters),
and its Unicode tables are newer than Python's; its ``timeout`` also counts the CPU time of
the whole process, so a busy server makes legitimate patterns time out early. Nor RE2
(linear time, but ``\w`` is ASCII and there are no look-arounds or backreferences). A
child process keeps ``re``'s exact tokens and makes the bound a wall-clock one.

Memory (issue 31, item 4). Time is not the only thing a pattern can take: ``(?s).`` lists every
character of a 20 MB cell (20 million matches) well within its time, and ``(a|b)*`` keeps some
80 bytes of backtracking state per character it repeats over. So the child streams its matches in
batches and the server keeps at most :data:`MAX_TOKENS` of them, stopping the child past them,
and the child matches under an address-space limit (``RLIMIT_AS``, :data:`HEADROOM` beyond what
it holds); both end in a :class:`PatternTooLarge` sentence naming the pattern.

The patterns of the vectorised fast path (``(?u)\w+`` and scikit-learn's ``(?u)\b\w\w+\b``,
:data:`LINEAR_PATTERNS`) match in linear time and run in the server's own process, with no
child and no deadline.
"""

from __future__ import annotations

import contextvars
import functools
import re
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nbapp.errors import DataError
from array import array

from nbapp.text._re_worker import HEADROOM, read_frame, span_batches, write_frame

__all__ = [
    "LINEAR_PATTERNS",
    "BASE_SECONDS",
    "MAX_TOKENS",
    "CHARS_PER_SECOND",
    "STARTUP_SECONDS",
    "Found",
    "Matcher",
    "PatternTooLarge",
    "PatternTooSlow",
    "budget_seconds",
    "check_pattern",
    "find",
    "tokenising_job",
]

#: Patterns that match in time linear in the text (maximal runs of word characters): they run
#: in the server's process, and the corpus paths tokenise them without the regex engine.
LINEAR_PATTERNS = frozenset({r"(?u)\w+", r"\w+", r"(?u)\b\w\w+\b", r"\b\w\w+\b"})

#: The time budget of a tokenising job: BASE_SECONDS plus one second per CHARS_PER_SECOND
#: characters of its text. Ordinary patterns match 10-30 million characters a second in the
#: child (``\w+(?:'\w+)?``: 17 MB/s on this project's 2-core machine, 2.6 MB/s when four other
#: jobs share its two cores), so the allowance is ten times what they need on a quiet machine
#: and still more than twice on a crowded one; a one-document view is answered within
#: BASE_SECONDS.
BASE_SECONDS = 5.0
CHARS_PER_SECOND = 1_000_000
#: How long a child Python may take to start (not charged to the pattern's budget).
STARTUP_SECONDS = 60.0

#: The tokens one matching call may give (issue 31, item 4). Every token is held while a text is
#: counted (its spans, then some 140 bytes of arrays as the pipeline types it: a fit of one 20 MB
#: cell of 2.85 million tokens peaks at 400 MB), so this bounds what a call may cost the server,
#: near 300 MB. It is a little more than the characters of a corpus chunk (at most 2**21 unless one
#: document is longer), so even a one-character pattern passes over every chunk of ordinary
#: documents; ``(?s).`` over one 20 MB cell is stopped at it instead of listing 20 million matches.
MAX_TOKENS = 2_200_000

_WORKER = Path(__file__).with_name("_re_worker.py")
_INT = struct.Struct("<q")


def budget_seconds(n_chars: int) -> float:
    """The time a tokenising job over ``n_chars`` characters may take."""
    return BASE_SECONDS + n_chars / CHARS_PER_SECOND


def _shown_seconds(seconds: float) -> str:
    return f"{seconds:.1f}".rstrip("0").rstrip(".")


class PatternTooSlow(DataError):
    """A token pattern stopped when its job's time was up."""


def too_slow(pattern: str, seconds: float, n_chars: int, *, compiling: bool = False) -> PatternTooSlow:
    """The sentence of a pattern stopped at its deadline."""
    where = "to compile" if compiling else f"on this text ({n_chars:,} characters)"
    return PatternTooSlow(
        f"The token pattern '{pattern}' took more than {_shown_seconds(seconds)} s {where} and was "
        "stopped: parts of it can match the same words in very many "
        r"ways, so it backtracks for a very long time. Use a simpler pattern, e.g. (?u)\w+ (words), "
        r"or \w+(?:'\w+)? (words with an apostrophe)."
    )


class PatternTooLarge(DataError):
    """A token pattern stopped because its matches outgrew the memory they may take."""


def too_many_tokens(pattern: str, n_chars: int) -> PatternTooLarge:
    """The sentence of a pattern stopped at :data:`MAX_TOKENS` tokens."""
    return PatternTooLarge(
        f"The token pattern '{pattern}' found more than {MAX_TOKENS:,} tokens on this text ({n_chars:,} "
        "characters) and was stopped: every token is held while the text is counted, so a pattern that "
        r"takes (nearly) every character, such as (?s)., does not fit. Use a pattern that matches words, "
        r"e.g. (?u)\w+, or shorter documents."
    )


def out_of_memory(pattern: str, n_chars: int, *, compiling: bool = False) -> PatternTooLarge:
    """The sentence of a pattern whose process ran out of its memory while compiling or matching."""
    where = "to compile" if compiling else f"to match this text ({n_chars:,} characters)"
    return PatternTooLarge(
        f"The token pattern '{pattern}' needed more than {HEADROOM // 2**20} MB {where} and was stopped. "
        "Use a simpler pattern, e.g. (?u)\\w+ (words), or shorter documents."
    )


# --------------------------------------------------------------------------- the child process


class _Child:
    """One child process running one compiled pattern; every exchange waits at most for what is
    left of the job's time, and the child is killed when it runs out."""

    def __init__(self, pattern: str, job: "TokenisingJob") -> None:
        self.pattern, self.job = pattern, job
        if not sys.executable:
            raise RuntimeError("token patterns run in a child Python process, but sys.executable is unknown")
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", str(_WORKER)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        self._wait_started()
        answer = self.exchange(pattern.encode("utf-8", "surrogatepass"), compiling=True)
        if answer[:1] == b"M":
            self.close()
            raise out_of_memory(pattern, job.n_chars, compiling=True)
        if answer[:1] == b"E":
            self.close()
            message = answer[1:].decode("utf-8", "replace")
            raise DataError(f"token_pattern {pattern!r} is not a valid regular expression ({message}).")
        (self.groups,) = _INT.unpack_from(answer, 1)
        self.catastrophic = bool(answer[9])

    def _wait_started(self) -> None:
        """Wait for the child's first frame: starting Python is the machine's time, not the
        pattern's, so it is not charged to the job (on a loaded server it can take a second)."""
        answer = self._talk((), STARTUP_SECONDS)
        if answer is None:
            self.close()
            raise RuntimeError(f"the process for the token pattern {self.pattern!r} did not start "
                               f"within {STARTUP_SECONDS:g} s")
        self._check(answer)

    def exchange(self, *parts: bytes, compiling: bool = False) -> bytes:
        job = self.job
        started = time.monotonic()
        answer = self._talk(parts, max(job.left(), 0.0))
        job.spent += time.monotonic() - started
        if answer is None:
            raise too_slow(self.pattern, job.seconds, job.n_chars, compiling=compiling)
        return self._check(answer, matching=not compiling)

    def matches(self, n_texts: int, *parts: bytes) -> tuple[np.ndarray, np.ndarray]:
        """Send one request and read its matches batch by batch: (each text's count, one row per
        match of (start, end) and, with a group, the group's (start, end)). Stops the child and
        refuses with :func:`too_many_tokens` as soon as they pass :data:`MAX_TOKENS`, so the
        server never holds more (issue 31, item 4)."""
        width = 4 if self.groups else 2
        batches: list[np.ndarray] = []
        total = 0
        answer = self.exchange(*parts)
        while answer[:1] == b"S":
            total = self._kept(np.frombuffer(answer, dtype="<i8", offset=1), batches, total, width)
            answer = self.exchange()
        if answer[:1] != b"K":
            message = answer[1:].decode("utf-8", "replace")
            if message == "MemoryError":
                raise out_of_memory(self.pattern, self.job.n_chars)
            raise DataError(f"The token pattern '{self.pattern}' could not tokenise this text ({message}); use a "
                            "simpler pattern, e.g. (?u)\\w+.")
        numbers = np.frombuffer(answer, dtype="<i8", offset=1)
        self._kept(numbers[n_texts:], batches, total, width)
        return numbers[:n_texts].astype(np.int64), _rows(batches, width)

    def _kept(self, batch: np.ndarray, batches: list[np.ndarray], total: int, width: int) -> int:
        """Keep a batch of matches, or stop the child when they pass MAX_TOKENS; the new total."""
        total += len(batch) // width
        if total > MAX_TOKENS:
            self.close()
            raise too_many_tokens(self.pattern, self.job.n_chars)
        batches.append(batch)
        return total

    def _talk(self, parts: tuple[bytes, ...], seconds: float) -> bytes | BaseException | None:
        """Write ``parts`` (if any) and read one frame, waiting at most ``seconds`` without the
        GIL; None (the child killed) when the time ran out."""
        box: list[bytes | BaseException | None] = []

        def talk() -> None:
            try:
                if parts:
                    write_frame(self.process.stdin, *parts)
                box.append(read_frame(self.process.stdout))
            except (OSError, EOFError, ValueError) as exc:   # the child was killed or died
                box.append(exc)

        thread = threading.Thread(target=talk, name="nbapp-token-pattern", daemon=True)
        thread.start()
        thread.join(seconds)
        if thread.is_alive():
            self.close()
            thread.join()
            return None
        return box[0]

    def _check(self, answer: bytes | BaseException | None, *, matching: bool = False) -> bytes:
        """The frame, or why the child ended: killed by a signal while matching is its memory
        running out (the kernel's OOM killer, or an allocation that failed in C under the
        limit), told as such; any other end is a bug."""
        if isinstance(answer, bytes):
            return answer
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self.close()
        if matching and code is not None and code < 0:
            raise out_of_memory(self.pattern, self.job.n_chars)
        raise RuntimeError(f"the process running the token pattern {self.pattern!r} ended unexpectedly "
                           f"({answer!r}, exit code {code})")

    def close(self) -> None:
        process = self.process
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass


# --------------------------------------------------------------------------- spans


@dataclass(frozen=True)
class Found:
    """What a pattern finds in each of n texts: ``counts[i]`` matches in text i; ``matches``
    and ``tokens`` are (total, 2) arrays of (start, end) inside each text, matches in order.
    ``tokens`` are the spans ``findall`` returns: the group's when the pattern has one (-1, -1
    when the group did not take part: ``findall`` gives "" then), else the match's."""

    counts: np.ndarray
    matches: np.ndarray
    tokens: np.ndarray

    def per_text(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(matches, tokens) of each text in turn."""
        ends = np.cumsum(self.counts)
        for stop, count in zip(ends.tolist(), self.counts.tolist()):
            yield self.matches[stop - count : stop], self.tokens[stop - count : stop]


def _rows(batches: list[np.ndarray], width: int) -> np.ndarray:
    """Batches of flat int64 spans as one (matches, width) array."""
    flat = np.concatenate(batches) if batches else np.zeros(0, dtype=np.int64)
    return flat.astype(np.int64, copy=False).reshape(-1, width)


def _found(counts: np.ndarray, rows: np.ndarray) -> Found:
    return Found(counts, rows[:, :2], rows[:, 2:] if rows.shape[1] == 4 else rows)


def _found_here(pattern: re.Pattern[str], texts: Sequence[str]) -> Found:
    """Spans from ``re`` in this process (linear patterns only), read in batches and refused past
    :data:`MAX_TOKENS` as the child's are (a 20 MB cell of words is millions of tokens)."""
    width = 4 if pattern.groups else 2
    counts, batches, total = array("q"), [], 0
    for batch in span_batches(pattern, texts, counts):
        total += len(batch) // width
        if total > MAX_TOKENS:
            raise too_many_tokens(pattern.pattern, text_length(texts))
        batches.append(np.frombuffer(batch, dtype=np.int64))
    return _found(np.frombuffer(counts, dtype=np.int64).copy(), _rows(batches, width))


class Matcher:
    """A token pattern bound to one tokenising job: :meth:`find` gives spans exactly as ``re``
    would, and raises :func:`too_slow`'s DataError once the job's deadline has passed."""

    def __init__(self, pattern: str, job: "TokenisingJob") -> None:
        self.pattern = pattern
        self._job = job
        self._here = re.compile(pattern) if pattern in LINEAR_PATTERNS else None
        self._child: _Child | None = None

    def find(self, texts: Sequence[str]) -> Found:
        if self._here is not None:
            return _found_here(self._here, texts)
        child = self._started()
        encoded = [t.encode("utf-8", "surrogatepass") for t in texts]
        lengths = np.fromiter(map(len, texts), np.int64, count=len(texts))
        counts, rows = child.matches(len(texts), _INT.pack(len(texts)), lengths.astype("<i8").tobytes(), *encoded)
        return _found(counts, rows)

    def _started(self) -> _Child:
        if self._child is None or self._child.process.poll() is not None:   # none yet, or stopped
            self._child = _Child(self.pattern, self._job)
        return self._child

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child = None


# --------------------------------------------------------------------------- jobs


class TokenisingJob:
    """One time budget for all the matching of one piece of work, and one child per pattern.

    The budget, :func:`budget_seconds` of the job's text, is spent by the time the job waits
    for its children (the pattern's own time: compiling, matching, passing the texts), not by
    the job's other work, so a busy server does not stop an ordinary pattern. Its length is
    counted only when a pattern needs a child (linear patterns never do)."""

    def __init__(self, docs: object = ()) -> None:
        self._docs = docs
        self._n_chars: int | None = None
        self.spent = 0.0
        self._matchers: dict[str, Matcher] = {}

    @property
    def n_chars(self) -> int:
        if self._n_chars is None:
            self._n_chars = text_length(self._docs)
            self._docs = ()
        return self._n_chars

    @property
    def seconds(self) -> float:
        return budget_seconds(self.n_chars)

    def left(self) -> float:
        return self.seconds - self.spent

    def matcher(self, pattern: str) -> Matcher:
        if pattern not in self._matchers:
            self._matchers[pattern] = Matcher(pattern, self)
        return self._matchers[pattern]

    def close(self) -> None:
        while self._matchers:
            self._matchers.popitem()[1].close()


_CURRENT: contextvars.ContextVar[TokenisingJob | None] = contextvars.ContextVar("nbapp_tokenising_job",
                                                                                 default=None)


def text_length(docs: object) -> int:
    """The number of characters of the string documents of ``docs`` (a sequence or a Series)."""
    lengths = getattr(docs, "str", None)
    if lengths is not None:
        try:
            return int(np.nansum(lengths.len().to_numpy(dtype=float, na_value=np.nan)))
        except (AttributeError, TypeError, ValueError):
            pass
    return sum(len(d) for d in docs if isinstance(d, str))    # type: ignore[union-attr]


@contextmanager
def tokenising_job(docs: object = ()) -> Iterator[TokenisingJob]:
    """The current job, or a new one whose deadline is :func:`budget_seconds` of ``docs``'s
    characters (for the work inside this ``with``; a job already open is kept, so one fit
    tokenising its column in steps has one deadline)."""
    current = _CURRENT.get()
    if current is not None:
        yield current
        return
    job = TokenisingJob(docs)
    token = _CURRENT.set(job)
    try:
        yield job
    finally:
        _CURRENT.reset(token)
        job.close()


def find(pattern: str, texts: Sequence[str]) -> Found:
    """The spans of ``pattern`` in each text, within the current job (or a job of these texts)."""
    with tokenising_job(texts) as job:
        return job.matcher(pattern).find(texts)


# --------------------------------------------------------------------------- checking a pattern


@functools.lru_cache(maxsize=1024)
def _checked(pattern: str) -> tuple[int, bool, str | None]:
    """(groups, can backtrack exponentially, None) or (0, False, the DataError's sentence)."""
    if pattern in LINEAR_PATTERNS:
        return re.compile(pattern).groups, False, None
    try:
        child = _Child(pattern, TokenisingJob())
    except PatternTooSlow:
        raise                          # not kept: a crowded moment must not refuse a pattern for good
    except DataError as err:
        return 0, False, str(err)
    child.close()
    return child.groups, child.catastrophic, None


def check_pattern(pattern: str) -> tuple[int, bool]:
    """(number of capturing groups, whether it can backtrack exponentially) of a token pattern,
    compiled in a child process under the deadline; DataError if it is invalid."""
    groups, catastrophic, error = _checked(pattern)
    if error is not None:
        raise DataError(error)
    return groups, catastrophic
