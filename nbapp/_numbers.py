"""The one rule for reading a feature's value as a number (Gaussian, count and Poisson columns).

A value is a number when pandas' parser reads it as one (``pd.to_numeric``): ints, floats,
booleans (0 / 1) and strings such as " 3 ", "1e5", "-inf". Missing is None, NaN, pd.NA or an
empty string. Anything else ("1_000", "heavy", a list) is refused by column and row, and so
is an infinite value. ``predict`` reads whole columns with :func:`numeric_column`; ``explain``
reads one value with :func:`scalar_number`, which applies the same parser to that value, so
the two can never disagree about what is a number.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError, shown

__all__ = ["numeric_column", "scalar_number", "is_missing"]


def is_missing(value: Any) -> bool:
    """None, NaN, pd.NA / NaT or a blank string: no value (seed 000, Eq. 22 skips it)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (float, np.floating)):
        return bool(np.isnan(value))
    return False


def numeric_column(series: pd.Series, column: str, kind: str) -> np.ndarray:
    """A column as float64, NaN for missing; text or infinite values are refused by name."""
    if isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu":
        # numpy numbers (the common case): nothing to parse, only infinities to refuse
        x = series.to_numpy(dtype=float)
        if np.isinf(x).any():
            return _finite(x, series, column, kind)
        return x
    if pd.api.types.is_bool_dtype(series):
        series = series.astype(float)
    blank = series.map(_blank) if series.dtype == object else None
    if blank is not None and blank.any():
        series = series.mask(blank)
    values = pd.to_numeric(series, errors="coerce")
    bad = values.isna() & series.notna()
    if bad.any():
        first = series[bad]
        rows = ", ".join(str(r) for r in first.index[:3])
        raise DataError(
            f"Column {column!r} is {kind} but row {rows} holds {shown(first.iloc[0])}, which is not a number; "
            f"clean the column or type it categorical."
        )
    return _finite(values.to_numpy(dtype=float, na_value=np.nan), series, column, kind)


def _finite(x: np.ndarray, series: pd.Series, column: str, kind: str) -> np.ndarray:
    inf = np.isinf(x)
    if inf.any():
        row = series.index[np.flatnonzero(inf)[0]]
        raise DataError(f"Column {column!r} is {kind} but row {row} holds {shown(series[row])} (infinite); "
                        "remove or cap that value.")
    return x


def scalar_number(value: Any, column: str, kind: str) -> float:
    """One value as a float (NaN when missing), by the rule of :func:`numeric_column`."""
    if is_missing(value):
        return np.nan
    if isinstance(value, (Real, np.number, np.bool_)) and not isinstance(value, (complex, np.complexfloating)):
        x = float(value)
    else:
        one = np.empty(1, dtype=object)
        one[0] = value
        parsed = pd.to_numeric(one, errors="coerce")[0] if isinstance(value, str) else np.nan
        if pd.isna(parsed):
            raise DataError(f"Column {column!r} is {kind} but the value is {shown(value)}, which is not a number.")
        x = float(parsed)
    if np.isinf(x):
        raise DataError(f"Column {column!r} is {kind} but the value is {shown(value)} (infinite); use a finite number.")
    return x


def _blank(value: Any) -> bool:
    return isinstance(value, str) and not value.strip()
