"""Integer codes of a column's values: the hot path of categorical fitting and prediction.

pandas 3 keeps text columns as Arrow strings; hashing them with pyarrow's own kernels
(``dictionary_encode`` to fit, ``index_in`` against the fitted categories to predict) is
1.5-3x faster than ``pd.factorize`` plus an index lookup, and gives the same codes. Every other
column (object, numbers, categorical dtype) goes through ``pd.factorize``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

__all__ = ["factorize", "arrow_strings", "string_positions"]


def arrow_strings(series: pd.Series) -> Any:
    """The column as one pyarrow string array if pandas holds it as Arrow strings, else None."""
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow" or \
            isinstance(dtype, pd.ArrowDtype) and _is_arrow_text(dtype.pyarrow_dtype):
        array = series.array.__arrow_array__()
        if not _is_arrow_text(array.type):
            return None
        return array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
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
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(array)
    codes = encoded.indices
    if codes.null_count:
        codes = pc.fill_null(codes, -1)
    return codes.to_numpy(zero_copy_only=False).astype(np.intp, copy=False), encoded.dictionary.to_pylist()


def string_positions(array: Any, values: Sequence[Any], missing: int, unseen: int) -> np.ndarray:
    """For an Arrow string array: the position of each cell in ``values`` (only its strings can
    match), ``missing`` for a null cell and ``unseen`` for a string not among them."""
    import pyarrow as pa
    import pyarrow.compute as pc

    where = [j for j, v in enumerate(values) if isinstance(v, str)]
    found = pc.index_in(array, value_set=pa.array([values[j] for j in where], type=array.type))
    out = np.asarray(pc.fill_null(found, -1).to_numpy(zero_copy_only=False), dtype=np.intp)
    hit = out >= 0
    if len(where) != len(values) or where != list(range(len(where))):
        out[hit] = np.asarray(where, dtype=np.intp)[out[hit]]
    if not hit.all():
        out[~hit] = unseen
        if array.null_count:
            out[np.asarray(array.is_null().to_numpy(zero_copy_only=False))] = missing
    return out
