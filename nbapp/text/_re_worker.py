"""The child process that runs a user's token pattern with Python's own ``re``.

Run as ``python -I -S _re_worker.py`` by :mod:`nbapp.text.matching`; it imports the standard
library only, so it starts in a few milliseconds and never loads nbapp, numpy or pandas.
The parent may kill it at any moment: that is the whole point (a pattern that backtracks
holds this process's interpreter, never the server's).

Protocol on stdin / stdout, every message one frame: an 8-byte little-endian length, then
that many bytes.

1. The parent sends the pattern (UTF-8, lone surrogates passed through).
2. The child answers ``K`` + groups (8 bytes) + 1 byte (1: the pattern can backtrack
   exponentially, see :func:`catastrophic_part`), or ``E`` + the ``re.error`` message.
3. Then, per request, the parent sends the number of texts n (8 bytes), n lengths in code
   points (8 bytes each) and the texts concatenated (UTF-8); the child answers ``K`` + n
   match counts + every match's (start, end) + when the pattern has a group every group's
   (start, end) (int64, positions inside each text; -1 for a group that did not take part),
   or ``E`` + a message.
"""

from __future__ import annotations

import struct
import sys
from array import array
from itertools import chain
from operator import methodcaller

__all__ = ["catastrophic_part", "read_frame", "write_frame"]

_LENGTH = struct.Struct("<q")


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


def _spans(pattern, text: str, counts: array, matches: array, groups: array | None) -> None:
    found = list(pattern.finditer(text))
    counts.append(len(found))
    matches.extend(chain.from_iterable(map(methodcaller("span"), found)))
    if groups is not None:
        groups.extend(chain.from_iterable(map(methodcaller("span", 1), found)))


def _answer(pattern, request: bytes) -> list[bytes]:
    (n,) = _LENGTH.unpack_from(request)
    lengths = array("q")
    lengths.frombytes(request[8 : 8 + 8 * n])
    text = request[8 + 8 * n :].decode("utf-8", "surrogatepass")
    counts, matches = array("q"), array("q")
    groups = array("q") if pattern.groups else None
    at = 0
    for length in lengths:
        _spans(pattern, text[at : at + length], counts, matches, groups)
        at += length
    parts = [b"K", counts.tobytes(), matches.tobytes()]
    if groups is not None:
        parts.append(groups.tobytes())
    return parts


def main() -> None:
    import re

    read, write = sys.stdin.buffer, sys.stdout.buffer
    source = read_frame(read)
    if source is None:
        return
    text = source.decode("utf-8", "surrogatepass")
    try:
        pattern = re.compile(text)
    except re.error as exc:
        write_frame(write, b"E", str(exc).encode("utf-8", "surrogatepass"))
        return
    hostile = catastrophic_part(text) is not None
    write_frame(write, b"K", _LENGTH.pack(pattern.groups), bytes([hostile]))
    while (request := read_frame(read)) is not None:
        try:
            parts = _answer(pattern, request)
        except (MemoryError, RecursionError) as exc:
            parts = [b"E", f"{type(exc).__name__}".encode()]
        write_frame(write, *parts)


if __name__ == "__main__":
    main()
