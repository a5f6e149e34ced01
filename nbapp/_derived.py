"""Parameters derived from sufficient statistics, computed once per block.

Blocks never change after they are built (statistics are values, see :mod:`nbapp.blocks.base`),
so a derived value never goes stale: a new setting or new statistics make a new block.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

__all__ = ["derived"]

F = TypeVar("F", bound=Callable[..., Any])


def derived(method: F) -> F:
    """Cache a no-argument method's result on the instance. Callers must not modify the
    returned arrays."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: Any) -> Any:
        cache = self.__dict__.setdefault("_derived", {})
        if name not in cache:
            cache[name] = method(self)
        return cache[name]

    return wrapper  # type: ignore[return-value]
