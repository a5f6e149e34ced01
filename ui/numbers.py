"""The screens' side of the one rule for numbers (:mod:`nbapp.decimals`): a data grid's or a
table's computed numbers with 4 significant digits. Left alone, Streamlit's grid writes a float
with all its decimals, 7.3e-07 as 0.000000733984375 and 7e-15 as 0.000000000000007, and st.table
with 4 decimals, 2e-08 as 0.0000 (issue 33, item 5); "%.4g" and number_text write 7.34e-07,
0.1235 and 2, as every other number of the app."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from nbapp.decimals import DIGITS, number_text

__all__ = ["NUMBER_FORMAT", "number_columns", "number_styler"]

#: The printf format of a computed number in a grid (Streamlit's sprintf: toPrecision, then the
#: shortest form, so 2.000 is 2 and 7.340e-7 is 7.34e-7).
NUMBER_FORMAT = f"%.{DIGITS}g"


def number_columns(frame: pd.DataFrame, column_config: dict[Any, Any] | None = None) -> dict[Any, Any]:
    """``column_config`` for ``st.dataframe(frame)`` with each float column it leaves unset
    shown by :data:`NUMBER_FORMAT` (the columns it sets are kept as set; a column named by
    other than text, which column_config cannot address, as it is)."""
    config = dict(column_config or {})
    for column, dtype in frame.dtypes.items():
        if isinstance(column, str) and column not in config and pd.api.types.is_float_dtype(dtype):
            config[column] = st.column_config.NumberColumn(format=NUMBER_FORMAT)
    return config


def number_styler(frame: pd.DataFrame) -> Any:
    """``frame`` for ``st.table`` with its float columns written by :func:`nbapp.decimals.number_text`:
    st.table's own format has 4 decimals, so 2e-08 read 0.0000. A frame whose labels repeat (which
    a Styler refuses) as it is."""
    if not (frame.index.is_unique and frame.columns.is_unique):
        return frame
    floats = [column for column, dtype in frame.dtypes.items() if pd.api.types.is_float_dtype(dtype)]
    return frame.style.format(number_text, subset=floats)
