"""Integer codes of a column's values: the hot path of categorical fitting and prediction.

pandas 3 keeps text columns as Arrow strings; hashing them with pyarrow's own kernels
(``dictionary_encode`` to fit, ``index_in`` against the fitted categories to predict) is
1.5-3x faster than ``pd.factorize`` plus an index lookup, and gives the same codes. Every other
column (object, numbers, categorical dtype) goes through ``pd.factorize``.

Arrow arrays never change (pandas replaces the array when a cell is set), so the codes of a
large one are remembered while it lives (at most ``_CACHED_COLUMNS`` columns, 1-4 bytes a row):
``predict`` on the frame a model was just fitted on, as the app's Evaluate page and
``fit(df).predict_proba(df)`` do, then looks each distinct string up once instead of every row.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any, Sequence

import numpy as np
import pandas as pd

__all__ = ["factorize", "arrow_strings", "string_positions", "remembered_codes", "pa_strings"]

# Columns of at least this many rows have their codes remembered (smaller ones are cheap), in
# the smallest integer type that holds them (1 byte a row below 128 distinct values), within
# a budget: the oldest are forgotten first.
_CACHE_MIN_ROWS = 50_000
_CACHED_COLUMNS = 64
_CACHE_BYTES = 256 << 20
# id(Arrow array) -> (weak reference to it, codes with -1 for missing, distinct values)
_CODES: "OrderedDict[int, tuple[Any, np.ndarray, list[Any]]]" = OrderedDict()
_LOCK = threading.Lock()


def arrow_strings(series: pd.Series) -> Any:
    """The column as pyarrow strings (a ChunkedArray) if pandas holds it as Arrow strings, else None."""
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow" or \
            isinstance(dtype, pd.ArrowDtype) and _is_arrow_text(dtype.pyarrow_dtype):
        array = series.array.__arrow_array__()
        return array if _is_arrow_text(array.type) else None
    return None


def _is_arrow_text(arrow_type: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)


def factorize(series: pd.Series) -> tuple[np.ndarray, Sequence[Any]]:
    """(codes, uniques) as ``pd.factorize(series, use_na_sentinel=True)``: codes index the
    distinct values in order of first appearance, -1 where the value is missing."""
    array = arrow_strings(series)
    if array is None:
        return pd.factorize(series, use_na_sentinel=True)
    return _arrow_codes(array)


def _arrow_codes(array: Any) -> tuple[np.ndarray, list[Any]]:
    cached = _cached(array)
    if cached is not None:
        return cached
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(array.combine_chunks() if array.num_chunks != 1 else array.chunk(0))
    codes = encoded.indices
    if codes.null_count:
        codes = pc.fill_null(codes, -1)
    codes = np.asarray(codes.to_numpy(zero_copy_only=False), dtype=np.int32)
    uniques = encoded.dictionary.to_pylist()
    _remember(array, codes, uniques)
    return codes, uniques


def string_positions(array: Any, values: Sequence[Any], missing: int, unseen: int) -> np.ndarray:
    """For Arrow strings: the position of each cell in ``values`` (only its strings can match),
    ``missing`` for a null cell and ``unseen`` for a string not among them."""
    import pyarrow as pa
    import pyarrow.compute as pc

    where = [j for j, v in enumerate(values) if isinstance(v, str)]
    value_set = pa.array([values[j] for j in where], type=array.type)
    cached = _cached(array)
    if cached is not None:        # look up each distinct string once, then one take per row
        codes, uniques = cached
        found = pc.index_in(pa.array(uniques, type=array.type), value_set=value_set)
        lookup = np.asarray(pc.fill_null(found, -1).to_numpy(zero_copy_only=False), dtype=np.intp)
        lookup = np.where(lookup >= 0, np.asarray(where + [unseen], dtype=np.intp)[lookup], unseen)
        return np.append(lookup, missing)[codes]          # code -1 (missing) picks `missing`
    found = pc.index_in(array, value_set=value_set)
    out = np.asarray(pc.fill_null(found, -1).to_numpy(zero_copy_only=False), dtype=np.intp)
    hit = out >= 0
    if len(where) != len(values):
        out[hit] = np.asarray(where, dtype=np.intp)[out[hit]]
    if not hit.all():
        out[~hit] = unseen
        if array.null_count:
            out[np.asarray(array.is_null().to_numpy(zero_copy_only=False))] = missing
    return out


def remembered_codes(series: pd.Series) -> tuple[np.ndarray, list[Any]] | None:
    """(codes with -1 for missing, distinct strings) of an Arrow string column whose codes
    :func:`factorize` found earlier (the same array, unchanged since), else None."""
    array = arrow_strings(series)
    return None if array is None else _cached(array)


def pa_strings(values: list[Any]) -> Any:
    """A list of strings as a one-chunk pyarrow array (for :func:`string_positions`)."""
    import pyarrow as pa

    return pa.chunked_array([pa.array(values, type=pa.large_string())])


def _cached(array: Any) -> tuple[np.ndarray, list[Any]] | None:
    with _LOCK:
        entry = _CODES.get(id(array))
    if entry is not None and entry[0]() is array:
        return entry[1], entry[2]
    return None


def _remember(array: Any, codes: np.ndarray, uniques: list[Any]) -> None:
    if len(array) < _CACHE_MIN_ROWS:
        return
    key = id(array)
    small = np.int8 if len(uniques) < 128 else np.int16 if len(uniques) < 32768 else np.int32
    codes = codes.astype(small)
    codes.setflags(write=False)
    ref = weakref.ref(array, lambda _, key=key: _forget(key))
    with _LOCK:
        _CODES[key] = (ref, codes, uniques)
        while len(_CODES) > _CACHED_COLUMNS or sum(e[1].nbytes for e in _CODES.values()) > _CACHE_BYTES:
            _CODES.popitem(last=False)


def _forget(key: int) -> None:
    with _LOCK:
        entry = _CODES.get(key)
        if entry is not None and entry[0]() is None:
            del _CODES[key]
