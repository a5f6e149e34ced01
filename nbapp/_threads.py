"""Independent parts of one large computation, run on one thread per core.

The heavy steps of summarising and scoring a large table release the GIL (pyarrow's string
hashing, numpy's passes over a column, ``bincount``, ``take``, ``exp``), so threads use every
core without copying the table to other processes. Each part computes exactly what it would
serially, so results are the same either way (tests compare them bitwise); below
:data:`THREADED_ROWS` rows the parts run in turn, where a pool would cost more than it saves.

Two ways of cutting the work: :func:`each` runs independent items (the blocks of a model), the
costliest first; :func:`row_chunks` cuts the rows into contiguous ranges for computations that
are row by row (scoring and normalising).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence, TypeVar

__all__ = ["THREADED_ROWS", "ROW_ALIGN", "each", "row_chunks", "workers"]

T = TypeVar("T")
R = TypeVar("R")

# From this many rows on, work is spread over threads.
THREADED_ROWS = 100_000
# Kernels that work through rows in batches use batches of this many rows (their temporaries
# stay in the CPU cache), and row ranges start at multiples of it, so that cutting the rows
# into ranges cuts no batch a different way.
ROW_ALIGN = 16_384


def workers(rows: int, parts: int) -> int:
    """How many threads ``parts`` parts of work on ``rows`` rows get: one per core, at most one
    per part, and 1 below :data:`THREADED_ROWS`."""
    return min(os.cpu_count() or 1, parts) if rows >= THREADED_ROWS else 1


def each(func: Callable[[T], R], items: Sequence[T], rows: int, cost: Callable[[T], float] | None = None) -> list[R]:
    """``[func(item) for item in items]``, on threads from :data:`THREADED_ROWS` rows.

    ``cost`` estimates an item's share of the work: the costliest items start first, so that a
    large item is not left running alone at the end while the other threads wait (longest
    processing time first). Results come back in the items' order; if items fail, the error of
    the first failing one in that order is raised, as the serial loop would raise it."""
    n = workers(rows, len(items))
    if n < 2:
        return [func(item) for item in items]
    order = sorted(range(len(items)), key=lambda i: -cost(items[i])) if cost is not None else range(len(items))
    with ThreadPoolExecutor(n) as pool:
        futures = {i: pool.submit(func, items[i]) for i in order}
        return [futures[i].result() for i in range(len(items))]


def row_chunks(rows: int, align: int = 1) -> list[slice]:
    """Contiguous row ranges, one per worker (a single range below :data:`THREADED_ROWS`), each
    starting at a multiple of ``align`` (so a kernel that works in blocks of ``align`` rows cuts
    them where it would have anyway)."""
    if rows == 0:
        return [slice(0, 0)]
    step = -(-rows // workers(rows, rows))
    step = -(-step // align) * align
    return [slice(start, min(start + step, rows)) for start in range(0, rows, step)]
