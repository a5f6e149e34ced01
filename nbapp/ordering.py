"""A stable order for category values and class labels, whatever their types."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

__all__ = ["python_scalar", "sort_key", "sort_values", "classes_of"]


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
