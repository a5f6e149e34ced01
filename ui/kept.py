"""Results a page keeps in the session once per key (issue 34, item 5): a comparison of feature
types, a dependence check, an evaluation, a download's bytes, the rows typed into a lesson.

Each is kept under its ``name`` with the ``key`` it was computed for (the model's key, the row,
the settings it depends on), in one session key, "kept"; asked with another key it is not there,
so no page shows a result of an earlier work. One rule instead of a ``(key, value)`` pair per
session key, checked by hand in each page.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

import streamlit as st

__all__ = ["kept", "keep", "kept_or_build", "kept_key"]

T = TypeVar("T")

KEPT = "kept"


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):         # keys holding arrays: compared as the same object only
        return a is b


def kept(name: str, key: Hashable) -> Any | None:
    """The result kept under ``name`` for ``key``, or None (none kept, or kept for another key)."""
    hit = st.session_state.get(KEPT, {}).get(name)
    return hit[1] if hit is not None and _same(hit[0], key) else None


def keep(name: str, key: Hashable, value: T) -> T:
    """Keep ``value`` under ``name`` for ``key`` (in place of what was kept there); returns it."""
    st.session_state.setdefault(KEPT, {})[name] = (key, value)
    return value


def kept_or_build(name: str, key: Hashable, build: Callable[[], T]) -> T:
    """The result kept under ``name`` for ``key``, built (and kept) when there is none."""
    hit = st.session_state.get(KEPT, {}).get(name)
    if hit is not None and _same(hit[0], key):
        return hit[1]
    return keep(name, key, build())


def kept_key(name: str) -> Hashable | None:
    """The key the result under ``name`` was kept for, or None (nothing kept)."""
    hit = st.session_state.get(KEPT, {}).get(name)
    return None if hit is None else hit[0]
