"""Files written out: CSV exports that are safe to open in a spreadsheet, and output paths
checked before the work that fills them.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which
some spreadsheets skip before looking for those) is run as a formula when the file is
opened: a column name or label such as ``=HYPERLINK("http://evil", "x")`` taken from an
uploaded file would become live. Every such text cell and column name gets a leading
single quote, the OWASP "CSV injection" advice; numbers in numeric columns are left as
numbers, so a genuine -3.5 stays a number.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.logspace import decide

__all__ = ["safe_csv_bytes", "neutralise", "predictions_frame", "writable_path"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"  # tells Excel the file is UTF-8


def predictions_frame(model: Any, frame: pd.DataFrame) -> pd.DataFrame:
    """The rows with the predicted class and P(c | x) per class appended.

    Columns the file already has are never overwritten: a new column whose name is taken
    gets a numbered suffix. An undetermined row (every class impossible) has no prediction.
    """
    log_proba, undetermined = model.log_posterior(frame)
    out = frame.copy()
    taken = set(map(str, out.columns))
    out[_free_name("predicted", taken)] = decide(log_proba.to_numpy(), undetermined.to_numpy(), model.classes_)
    for c in model.classes_:
        out[_free_name(f"P({c})", taken)] = np.exp(log_proba[c].to_numpy())
    return out


def _free_name(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name} ({n})"
    taken.add(candidate)
    return candidate


def neutralise(value: str) -> str:
    """The text with a leading ``'`` if a spreadsheet would read it as a formula."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def safe_csv_bytes(df: pd.DataFrame, *, index: bool = False) -> bytes:
    """The frame as UTF-8 CSV with a byte-order mark, every formula-like text neutralised.

    Text cells, column names and (with ``index=True``) index labels are neutralised;
    numeric, boolean and datetime columns are written as they are.
    """
    safe = pd.DataFrame({i: _safe_column(df.iloc[:, i]) for i in range(df.shape[1])}, index=df.index)
    safe.columns = [_safe_label(c) for c in df.columns]
    if index:
        safe.index = _safe_index(df.index)
    text = safe.to_csv(index=index, lineterminator="\n")
    return (BOM + text).encode("utf-8")


def _safe_label(label: object) -> object:
    return neutralise(label) if isinstance(label, str) else label


def _safe_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        levels = [_safe_index(index.get_level_values(i)) for i in range(index.nlevels)]
        names = [_safe_label(n) for n in index.names]
        return pd.MultiIndex.from_arrays(levels, names=names)
    values = _safe_column(pd.Series(index, index=range(len(index))))
    return pd.Index(values.to_numpy(), name=_safe_label(index.name))


def _safe_column(column: pd.Series) -> pd.Series:
    """Neutralise the strings of a column; numbers, booleans and dates pass unchanged."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        column = column.astype(object)
    if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_datetime64_any_dtype(column):
        return column
    if pd.api.types.infer_dtype(column, skipna=True) in ("string", "empty"):
        text = column.astype(object)
        risky = column.str.startswith(FORMULA_STARTS).fillna(False).to_numpy(dtype=bool)
        return text.where(~risky, "'" + column.astype(str))
    # Mixed objects (numbers next to text): only the str cells can carry a formula.
    return column.map(lambda v: neutralise(v) if isinstance(v, str) else v)


def writable_path(path: str | os.PathLike) -> Path:
    """``path`` as a file that can be written, checked before the work that fills it: fitting
    or predicting a large file must not end in an error about where its result goes."""
    out = Path(path)
    if out.is_dir():
        raise DataError(f"{str(out)!r} is a folder; give a file name in it.")
    folder = out.parent
    if not folder.is_dir():
        raise DataError(f"Cannot write {str(out)!r}: the folder {str(folder)!r} does not exist; create it or "
                        "choose another file.")
    if not os.access(folder, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise DataError(f"Cannot write {str(out)!r}: permission denied; choose another file.")
    return out
