"""What a piece of work allocates at its peak, for tests that bound the memory an input may cost
(issue 31): tracemalloc's peak over the call, and the DataError it refused with, if any."""

from __future__ import annotations

import tracemalloc
from typing import Callable

from nbapp.errors import DataError


def peak_mb(work: Callable[[], object]) -> tuple[float, BaseException | None]:
    """(the peak in MiB of what ``work()`` allocated, the DataError it raised or None)."""
    tracemalloc.start()
    caught = None
    try:
        work()
    except DataError as err:
        caught = err
    finally:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return peak, caught
