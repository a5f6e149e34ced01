"""Estimating p(y | x) directly by counting identical training points   [seed 000, Eq. 1-2].

    p̂(y = c | x) = sum_i I(x_i = x and y_i = c) / sum_i I(x_i = x) = |C| / |B|

The lecture's reason for Naive Bayes: for the tennis query x* = (Overcast, Hot, High, Strong)
no training day equals x* exactly, so |B| = 0 and the direct estimate is 0/0.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.ordering import classes_of

__all__ = ["direct_estimate"]


def direct_estimate(frame: pd.DataFrame, target: str, query: Mapping[str, Any],
                    weight: str | None = None) -> pd.DataFrame:
    """Per class: |C| (training rows equal to ``query`` on every given feature, with that class),
    |B| (all rows equal to it) and p̂(y = c | x) = |C| / |B| as a fraction (None for 0/0)
    [seed 000, Eq. 1-2]. Features the query leaves out (or gives as missing) are not compared,
    nor cells of several values (a list from a Parquet file), which no feature holds."""
    if target not in frame.columns:
        raise DataError(f"The target column {target!r} is not in the data.")
    given = {c: v for c, v in query.items() if c in frame.columns and c != target and c != weight
             and pd.api.types.is_scalar(v) and not pd.isna(v)}
    equal = np.ones(len(frame), dtype=bool)
    for column, value in given.items():
        equal &= (frame[column] == value).to_numpy(dtype=bool)
    w = np.ones(len(frame)) if weight is None else frame[weight].to_numpy(dtype=float)
    classes = classes_of(frame[target])
    labels = frame[target].to_numpy(dtype=object)
    matches = [float(w[equal & (labels == c)].sum()) for c in classes]
    total = float(w[equal].sum())
    estimate = [None if total == 0 else Fraction(m).limit_denominator() / Fraction(total).limit_denominator()
                for m in matches]
    return pd.DataFrame({"matches": matches, "total": total, "estimate": estimate},
                        index=pd.Index(classes, dtype=object, name="class"))
