"""The child process that runs a user's token pattern with Python's own ``re``.

Run as ``python -I -S _re_worker.py`` by :mod:`nbapp.text.matching`; it imports the standard
library only, so it starts in a few milliseconds and never loads nbapp, numpy or pandas.
The parent may kill it at any moment: that is the whole point (a pattern that backtracks
holds this process's interpreter, never the server's).

Protocol on stdin / stdout, every message one frame: an 8-byte little-endian length, then
that many bytes.

1. The parent sends the pattern (UTF-8, lone surrogates passed through).
2. The child answers ``K`` + groups (8 bytes) + 1 byte (1: the pattern can backtrack
   exponentially, see :func:`catastrophic_part`), ``E`` + the ``re.error`` message, or ``M``
   when compiling took more than its memory.
3. Then, per request, the parent sends the number of texts n (8 bytes), n lengths in code
   points (8 bytes each) and the texts concatenated (UTF-8); the child answers with the
   matches as they are found, in frames ``S`` + at most :data:`BATCH` matches, each match its
   (start, end) and, when the pattern has a group, the group's (start, end) (int64, positions
   inside each text; -1 for a group that did not take part), then ``K`` + the n match counts +
   the last batch (so a small answer is one frame); or, at any point, ``E`` + a message (``MemoryError`` when the matches outgrew its memory).

Memory (issue 31, item 4). The parent reads the matches batch by batch and stops the child
once they pass its budget, so neither process ever lists every match of a pattern like
``(?s).``; and while the child matches, its address space is limited
(``RLIMIT_AS``) to what it holds plus :data:`HEADROOM` and twice the request, so a pattern that
needs more ends in a ``MemoryError`` (or the child's death), never in the machine's swap.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from operator import attrgetter, methodcaller

__all__ = ["BATCH", "HEADROOM", "catastrophic_part", "read_frame", "span_batches", "write_frame"]

_LENGTH = struct.Struct("<q")

#: Matches per frame: 65,536 matches are 1-2 MB of int64 spans, so a frame is cheap to hold and
#: the parent can stop the child within a frame of the budget.
BATCH = 1 << 16

#: The memory the child may take while matching, beyond what it holds when the request arrives
#: (about 10 MB of interpreter and the request) and twice the request (the decoded text and one
#: document cut from it): ordinary patterns need a few MB for a batch of match objects.
HEADROOM = 256 << 20


def read_frame(stream) -> bytes | None:
    """One frame's bytes, or None at the end of the stream."""
    head = _read_exactly(stream, _LENGTH.size)
    if head is None:
        return None
    body = _read_exactly(stream, _LENGTH.unpack(head)[0])
    if body is None:
        raise EOFError("the stream ended inside a frame")
    return body


def _read_exactly(stream, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        part = stream.read(left)
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def write_frame(stream, *parts: bytes) -> None:
    stream.write(_LENGTH.pack(sum(map(len, parts))))
    for part in parts:
        stream.write(part)
    stream.flush()


def catastrophic_part(pattern: str) -> str | None:
    r"""``pattern`` if it can backtrack exponentially, else None: an unbounded repetition
    (``+``, ``*``, ``{n,}``) of a group that holds another repetition or an alternation
    (``(a+)+``, ``(?:\w+\s?)+``, ``(a|aa)+``), unless each round of the group must match a
    delimiter character that nothing repeated inside it can match (``\w+(?:-\w+)*`` is safe:
    every round starts with a "-" that \w cannot take).

    A friendly early refusal only: bounded repeats (``(?:\w+){1,40}!``), adjacent repeats
    and quadratic scans pass it, and the time bound of :mod:`nbapp.text.matching` holds
    whatever it says. It runs in this child process because compiling a pattern's parts can
    itself take seconds (a case-insensitive set of every code point).
    """
    from re import _compiler, _constants as c, _parser as parser

    tree = parser.parse(pattern)

    def repeats(items) -> list:
        found = []
        for op, av in items:
            if op in (c.MAX_REPEAT, c.MIN_REPEAT):
                found.append(av[2])
                found += repeats(av[2])
            elif op is c.SUBPATTERN:
                found += repeats(av[-1])
            elif op is c.BRANCH:
                found += [r for branch in av[1] for r in repeats(branch)]
        return found

    def flat(items) -> list:
        out = []
        for op, av in items:
            out += flat(av[-1]) if op is c.SUBPATTERN else [(op, av)]
        return out

    def ambiguous(items) -> bool:
        items = flat(items)
        inner = repeats(items)
        if not inner and not any(op is c.BRANCH for op, _ in items):
            return False
        delimiters = [chr(av) for op, av in items if op is c.LITERAL]
        bodies = [_compiler.compile(body, tree.state.flags) for body in inner]
        return not any(all(not b.fullmatch(d) for b in bodies) for d in delimiters) or any(
            op is c.BRANCH for op, _ in items)

    def walk(items) -> bool:
        for op, av in items:
            if op in (c.MAX_REPEAT, c.MIN_REPEAT):
                if av[1] == c.MAXREPEAT and ambiguous(av[2]):
                    return True
                if walk(av[2]):
                    return True
            elif op is c.SUBPATTERN and walk(av[-1]):
                return True
            elif op is c.BRANCH and any(walk(branch) for branch in av[1]):
                return True
            elif op in (c.ASSERT, c.ASSERT_NOT) and walk(av[1]):
                return True
        return False

    return pattern if walk(tree) else None


def span_batches(pattern, texts: Iterable[str], counts: array, batch: int = BATCH) -> Iterator[array]:
    """The matches of ``pattern`` in each text in turn, as flat int64 arrays of at most ``batch``
    matches: per match its (start, end) and, when the pattern has a group, the first group's
    (start, end). ``counts`` receives each text's number of matches as it is finished. Only one
    batch of match objects is alive at a time."""
    if pattern.groups == 0:
        flat = methodcaller("span")
    elif pattern.groups == 1:
        flat = attrgetter("regs")                  # ((start, end), (group start, group end))
    else:
        def flat(m):
            return m.span(), m.span(1)
    nested = pattern.groups > 0
    out = array("q")
    for text in texts:
        found = pattern.finditer(text)
        n = 0
        while part := list(islice(found, batch)):
            n += len(part)
            spans = chain.from_iterable(map(flat, part))
            out.extend(chain.from_iterable(spans) if nested else spans)
            del part
            if len(out) >= 2 * batch:
                yield out
                out = array("q")
        counts.append(n)
    if out:
        yield out


def _texts(request: bytes) -> tuple[int, Iterator[str]]:
    """The request's length in bytes and its texts, each cut from the decoded whole as it is used."""
    (n,) = _LENGTH.unpack_from(request)
    lengths = array("q")
    lengths.frombytes(request[8 : 8 + 8 * n])
    text = request[8 + 8 * n :].decode("utf-8", "surrogatepass")

    def each() -> Iterator[str]:
        at = 0
        for length in lengths:
            yield text[at : at + length]
            at += length

    return len(request), each()


def _answer(pattern, request: bytes, write) -> None:
    """Stream the matches of one request (``S`` frames, then ``K`` + counts + the last batch) or
    ``E`` + why."""
    try:
        size, texts = _texts(request)
        del request
        _limit_memory(HEADROOM + 2 * size)
        counts, last = array("q"), array("q")
        for batch in span_batches(pattern, texts, counts):
            if last:
                write_frame(write, b"S", last.tobytes())
            last = batch                       # the last batch goes with the counts: one frame
        parts = [b"K", counts.tobytes(), last.tobytes()]
    except (MemoryError, RecursionError) as exc:
        parts = [b"E", type(exc).__name__.encode()]
    finally:
        _limit_memory(None)
    write_frame(write, *parts)


def _limit_memory(extra: int | None) -> None:
    """Limit this process's address space to what it maps now plus ``extra`` bytes (None: lift
    the limit, as it was when the process started, so the next request can be read). Linux only
    (elsewhere the time bound still holds)."""
    try:
        import resource

        with open("/proc/self/statm") as statm:
            mapped = int(statm.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError):
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = hard if extra is None else mapped + extra
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def main() -> None:
    import re

    read, write = sys.stdin.buffer, sys.stdout.buffer
    write_frame(write, b"R")          # started: from here on the parent counts the pattern's time
    source = read_frame(read)
    if source is None:
        return
    text = source.decode("utf-8", "surrogatepass")
    _limit_memory(HEADROOM)           # compiling can take memory too (a case-insensitive set of every code point)
    try:
        pattern = re.compile(text)
        hostile = catastrophic_part(text) is not None
    except re.error as exc:
        write_frame(write, b"E", str(exc).encode("utf-8", "surrogatepass"))
        return
    except MemoryError:
        write_frame(write, b"M")
        return
    finally:
        _limit_memory(None)
    write_frame(write, b"K", _LENGTH.pack(pattern.groups), bytes([hostile]))
    while (request := read_frame(read)) is not None:
        _answer(pattern, request, write)


if __name__ == "__main__":
    main()
