"""Parameters derived from sufficient statistics, computed once until the statistics change."""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

__all__ = ["derived", "invalidate"]

F = TypeVar("F", bound=Callable[..., Any])


def derived(method: F) -> F:
    """Cache a no-argument method's result on the instance; :func:`invalidate` clears it.

    Callers must not modify the returned arrays.
    """
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: Any) -> Any:
        cache = self.__dict__.setdefault("_derived", {})
        if name not in cache:
            cache[name] = method(self)
        return cache[name]

    return wrapper  # type: ignore[return-value]


def invalidate(obj: Any) -> None:
    """Forget every derived value of obj (call whenever its statistics change)."""
    obj.__dict__.pop("_derived", None)
