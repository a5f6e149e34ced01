"""Checking the naive assumption on the user's data: how dependent are two features given the class?

Naive Bayes assumes P(x_a, x_b | c) = P(x_a | c) P(x_b | c) for every pair of features
[seed 000, §2.2-2.5]. The conditional mutual information measures how far the data is from that:

    I(X_a; X_b | C) = sum_c P(c) sum_{u,v} P(u, v | c) ln [ P(u, v | c) / (P(u | c) P(v | c)) ]

in nats, with the plug-in (relative frequency) estimates over the rows where both features
and the class are observed (weighted by the weight column if given). It is 0 exactly when the
two are independent within every class in the data, and at most min(H(X_a | C), H(X_b | C));
the diagonal holds I(X_a; X_a | C) = H(X_a | C). Plug-in estimates are biased upwards on few
rows (about (U - 1)(V - 1) |C| / (2 N) nats for U and V values), so compare pairs with each
other rather than with 0.

Each column is coded by its type (``Block.dependence_codes``): categories as they are, numbers
and counts (Gaussian, KDE, Poisson, multinomial) cut into ``bins`` intervals of about equal
weight (the "quantile" rule of :mod:`nbapp.blocks.discretized`), a discretised column by its
own cut points; a type with no codes (text) is left out.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp.blocks import block_type
from nbapp.errors import DataError
from nbapp.specs import parse_features

__all__ = ["conditional_mutual_information", "strongest_pairs", "discrete_codes"]


def discrete_codes(df: pd.DataFrame, column: str, spec: Any, y: np.ndarray, w: np.ndarray,
                   n_classes: int, bins: int) -> np.ndarray | None:
    """One column as value codes 0, 1, ... (-1 where missing), as its type codes it
    (``Block.dependence_codes``); None for a type that is not checked (text)."""
    return block_type(spec).dependence_codes(column, spec, df, y, w, n_classes, bins)


def _cmi(joint: np.ndarray) -> float:
    """I(A; B | C) in nats from weighted counts joint[c, a, b]."""
    total = joint.sum()
    if not total > 0:
        return np.nan
    n_c = joint.sum(axis=(1, 2), keepdims=True)
    n_ca = joint.sum(axis=2, keepdims=True)
    n_cb = joint.sum(axis=1, keepdims=True)
    used = joint > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(used, joint * np.log(np.where(used, joint * n_c / (n_ca * n_cb), 1.0)), 0.0)
    return max(float(terms.sum() / total), 0.0)      # rounding can give -1e-17


def conditional_mutual_information(df: pd.DataFrame, target: str, types: Mapping[str, Any], *,
                                   bins: int = 5, weight: str | None = None) -> pd.DataFrame:
    """I(X_a; X_b | C) in nats for every pair of features whose type codes them (not text): a
    symmetric DataFrame with H(X_a | C) on the diagonal (see the module docstring for the formula
    and the binning)."""
    if not isinstance(df, pd.DataFrame) or target not in df.columns:
        raise DataError(f"conditional_mutual_information needs a DataFrame with the target column {target!r}.")
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 2:
        raise DataError(f"bins must be a whole number >= 2, not {bins!r}.")
    specs = parse_features(types)
    missing = [c for c in specs if c not in df.columns]
    if missing:
        raise DataError(f"Feature column {missing[0]!r} is not in the data.")
    labelled = df[target].notna().to_numpy()
    df = df.loc[labelled]
    y, classes = pd.factorize(df[target])
    if weight is None:
        w = np.ones(len(df))
    else:
        w = pd.to_numeric(df[weight], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        if not (np.isfinite(w) & (w >= 0)).all():
            raise DataError(f"The weight column {weight!r} holds a value that is not a number >= 0.")
    k = len(classes)
    coded = {c: discrete_codes(df, c, s, y, w, k, bins) for c, s in specs.items()}
    codes = {c: v for c, v in coded.items() if v is not None}
    names = list(codes)
    size = {c: int(v.max(initial=-1)) + 1 for c, v in codes.items()}
    # one bincount per pair over the cells (class, a, b); a row missing either value has weight 0
    observed = {c: (v >= 0) for c, v in codes.items()}
    by_class = {c: y * size[c] + np.maximum(v, 0) for c, v in codes.items()}
    out = np.zeros((len(names), len(names)))
    for i, a in enumerate(names):
        for j in range(i, len(names)):
            b = names[j]
            weight = w * (observed[a] & observed[b]) if not (observed[a].all() and observed[b].all()) else w
            cells = by_class[a] * size[b] + np.maximum(codes[b], 0)
            joint = np.bincount(cells, weights=weight, minlength=k * size[a] * size[b])
            out[i, j] = out[j, i] = _cmi(joint.reshape(k, size[a], size[b]))
    return pd.DataFrame(out, index=pd.Index(names, dtype=object), columns=pd.Index(names, dtype=object))


def strongest_pairs(cmi: pd.DataFrame, n: int = 5) -> pd.DataFrame:
    """The n pairs with the largest I(X_a; X_b | C), strongest first: columns a, b, cmi."""
    names = list(cmi.index)
    rows = [(names[i], names[j], float(cmi.iloc[i, j])) for i in range(len(names)) for j in range(i + 1, len(names))]
    pairs = pd.DataFrame(rows, columns=["a", "b", "cmi"])
    return pairs.sort_values("cmi", ascending=False, kind="stable").head(n).reset_index(drop=True)
