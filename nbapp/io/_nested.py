"""Cells that hold several values (lists, structs, maps): Parquet, Spark and Dask tables can
have such columns, a Naive Bayes feature or target takes one value per cell. Found by the
column's type where the table has one (Arrow here; Spark's in nbapp.scale._clusters), else by its
values, and named in one sentence wherever a table comes from."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.io._common import _quoted

__all__ = ["nested_error", "nested_values", "arrow_nested", "distinct_counts"]

# Python values of such cells in a pandas column (what pyarrow and Spark give for them); the
# unhashable ones, which no category table can hold.
_NESTED_CELLS = ((dict, "structs"), (list, "lists"), (np.ndarray, "lists"), (set, "sets"))


def nested_error(column: Any, what: str, where: str) -> DataError:
    """The sentence for a column of nested cells, ``where`` naming the table ("'x.parquet'")."""
    return DataError(
        f"Column {_quoted(str(column))} of {where} holds {what} (several values in one cell); nbapp reads one value "
        "per cell: flatten it into plain columns (one per field, or the values joined into text), or use "
        "other columns."
    )


def nested_values(column: pd.Series) -> str | None:
    """'lists', 'structs', 'maps', ... when the column's cells hold several values, else None.

    Checked by the dtype, then at C speed by pandas' type inference; the cells themselves are
    looked at only in a column of mixed Python objects."""
    dtype = column.dtype
    if isinstance(dtype, pd.ArrowDtype):
        return arrow_nested(dtype.pyarrow_dtype)
    if dtype != object:
        return None
    if pd.api.types.infer_dtype(column, skipna=True) not in ("mixed", "unknown-array", "mixed-integer"):
        return None
    for value in column:
        for kind, what in _NESTED_CELLS:
            if isinstance(value, kind):
                return what
    return None


def distinct_counts(frame: pd.DataFrame) -> pd.Series:
    """Distinct values per column (``DataFrame.nunique``), a column of nested cells counted by
    the cells' text (pandas cannot hash a list or a dict)."""
    return pd.Series({column: (frame[column].astype(str) if nested_values(frame[column]) else frame[column]).nunique()
                      for column in frame.columns}, index=frame.columns, dtype="int64")


def arrow_nested(arrow_type: Any) -> str | None:
    """'lists', 'structs', 'maps' or 'unions' for a nested Arrow type (or a dictionary of one),
    else None."""
    import pyarrow.types as t

    if t.is_dictionary(arrow_type):
        return arrow_nested(arrow_type.value_type)
    for test, what in ((t.is_map, "maps"), (t.is_list, "lists"), (t.is_large_list, "lists"),
                       (t.is_fixed_size_list, "lists"), (t.is_struct, "structs"), (t.is_union, "unions")):
        if test(arrow_type):
            return what
    return None
