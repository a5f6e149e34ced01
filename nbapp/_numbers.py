"""The one rule for reading a feature's value as a number (Gaussian, count and Poisson columns).

A value is a number when it is an int, a float or a boolean (0 / 1), or a string that the
loader's grammar of a number cell reads as one (:mod:`nbapp._number_rule`, its point form
:data:`~nbapp._number_rule.DOT`: " 3 ", "1e5", "+.5", "1,500") or as an infinity ("-inf").
Missing is None, NaN, pd.NA or a blank string. Anything else ("1_000", "N/A", "heavy", a list)
is refused by column and row, and so is an infinite value. ``predict`` reads whole columns with
:func:`numeric_column`; ``explain`` reads one value with :func:`scalar_number`, which applies the
same rule to that value, so the two can never disagree about what is a number.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np
import pandas as pd

from nbapp._number_rule import DOT, INF_TOKENS
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
    values, bad = _parsed(series)
    if bad.any():
        first = series[bad]
        rows = ", ".join(str(r) for r in first.index[:3])
        raise DataError(
            f"Column {column!r} is {kind} but row {rows} holds {shown(first.iloc[0])}, which is not a number; "
            f"clean the column or type it categorical."
        )
    return _finite(values, series, column, kind)


def _parsed(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The values as float64 (NaN where missing) and where a value is no number: strings by the
    grammar (:func:`_text_numbers`), everything else by pandas' parser."""
    cells = series.to_numpy(dtype=object, na_value=None)
    text = np.fromiter((isinstance(v, str) for v in cells), dtype=bool, count=len(cells))
    values = np.full(len(cells), np.nan)
    bad = np.zeros(len(cells), dtype=bool)
    if text.any():
        values[text], bad[text] = _text_numbers(cells[text])
    other = ~text
    if other.any():
        parsed = pd.to_numeric(pd.Series(cells[other]), errors="coerce")
        values[other] = parsed.to_numpy(dtype=float, na_value=np.nan)
        bad[other] = parsed.isna().to_numpy() & pd.notna(cells[other])
    return values, bad


def _text_numbers(strings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strings as float64 by the grammar of a number cell (DOT form, thousands separators
    removed), infinities as infinities, blanks as NaN; and where a string is no number."""
    stripped = pd.Series(strings, dtype=_STRINGS).str.strip()
    blank = (stripped == "").to_numpy(dtype=bool)
    infinite = stripped.str.lower().isin(INF_TOKENS).to_numpy(dtype=bool)
    number = stripped.str.fullmatch(DOT.pattern.pattern).to_numpy(dtype=bool)
    values = np.full(len(strings), np.nan)
    if number.any():
        import pyarrow as pa
        import pyarrow.compute as pc

        plain = stripped[number].str.replace(DOT.thousands, "", regex=False)
        values[number] = pc.cast(pa.array(plain.array), pa.float64()).to_numpy(zero_copy_only=False)
    values[infinite] = np.where(stripped[infinite].str.startswith("-"), -np.inf, np.inf)
    return values, ~(blank | infinite | number)


_STRINGS = pd.StringDtype("pyarrow", na_value=np.nan)


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
        if not isinstance(value, str) or _text_numbers(np.array([value], dtype=object))[1][0]:
            raise DataError(f"Column {column!r} is {kind} but the value is {shown(value)}, which is not a number.")
        x = float(_text_numbers(np.array([value], dtype=object))[0][0])
    if np.isinf(x):
        raise DataError(f"Column {column!r} is {kind} but the value is {shown(value)} (infinite); use a finite number.")
    return x

