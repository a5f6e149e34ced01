"""A stable order for category values and class labels, whatever their types."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

__all__ = ["python_scalar", "sort_key", "sort_values", "classes_of", "in_declared_order"]


def python_scalar(value: Any) -> Any:
    """numpy scalars as plain Python values (so they print, compare and go to JSON cleanly)."""
    return value.item() if isinstance(value, np.generic) else value


def sort_key(value: Any) -> tuple[int, Any]:
    # Numbers before strings; bools count as numbers. Mixed types never raise.
    if isinstance(value, (bool, int, float)):
        return (0, value)
    return (1, str(value))


def sort_values(values: Iterable[Any]) -> list[Any]:
    return sorted(values, key=sort_key)


def classes_of(labels: Any) -> list[Any]:
    """The distinct non-missing labels in the model's class order (what ``classes_`` will be)."""
    import pandas as pd

    return sort_values(dict.fromkeys(python_scalar(v) for v in pd.unique(pd.Series(labels).dropna())))


def in_declared_order(values: Iterable[Any], declared: Iterable[Any] = ()) -> list[Any]:
    """``values`` for display in the order an example declares (Yes before No, as the notes list
    them), the undeclared ones after in their own order. The model's order (``classes_``,
    CPT rows) stays :func:`sort_values`'; this only orders what is shown, so an upload, which
    declares nothing, is shown in exactly the model's order."""
    values, declared = list(values), list(declared)
    if not declared:            # an upload: nothing to key (100,000 classes, on every table of a page)
        return values
    keys = [sort_key(v) for v in values]
    first = [values[keys.index(sort_key(d))] for d in declared if sort_key(d) in keys]
    return first + [v for v in values if v not in first]
