"""The Model page's per-column options of the KDE, discretized and categorical feature types:
bandwidth, bins and strategy, declared categories and the unseen-value policy (issue 12).

Drawn before the model is fitted (a declared list missing a value in the data stops the fit,
and the picker must stay reachable to fix it); each choice is kept in ``Settings.column_options``
through :func:`ui.state.set_column_options`, so it keys the fit cache and outlives the page.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.blocks.discretized import MAX_INTERVALS
from nbapp.ordering import sort_values
from ui.lecture import ref
from ui.state import column_options, set_column_options, settings
from ui.text import md
from ui.widgets import synced

__all__ = ["column_options_ui"]

MAX_CHOICES = 500  # a multiselect of more values is sent to the browser on every rerun for nothing
RULES = ("scott", "silverman", "number")
STRATEGIES = ("quantile", "uniform", "mdl")
UNSEEN = {"skip": "skip (left out of the product)", "error": "error (refuse the value)",
          "smooth": "smooth (one extra pseudo-category)"}


def column_options_ui(feature_types: dict[str, str], frame: pd.DataFrame) -> None:
    """One row of pickers per KDE, discretized and categorical column, in a folded expander."""
    columns = [(c, t) for c, t in feature_types.items() if t in ("kde", "discretized", "categorical")]
    if not columns:
        return
    with st.expander("Column options: KDE bandwidth, intervals, declared categories and unseen values"):
        for col, kind in columns:
            values = frame[col] if col in frame.columns else pd.Series(dtype=object)
            {"kde": _kde_ui, "discretized": _discretized_ui, "categorical": _categorical_ui}[kind](col, values)


def _kde_ui(col: str, values: pd.Series) -> None:
    current = column_options(settings(), col, "kde").get("bandwidth", "scott")
    left, right = st.columns(2)
    rule = current if isinstance(current, str) else "number"
    synced(left.selectbox, f"{md(col)}: KDE bandwidth", key=f"_colopt::{col}::bandwidth_rule", value=rule,
           options=list(RULES), format_func=lambda r: "a number h" if r == "number" else f"{r.title()}'s rule",
           on_set=lambda r, col=col, v=values: set_column_options(
               col, "kde", bandwidth=_typical_h(v) if r == "number" else r))
    if rule == "number":
        synced(right.number_input, f"{md(col)}: h (column units)", key=f"_colopt::{col}::bandwidth",
               value=float(current), min_value=1e-12, format="%g",
               on_set=lambda h, col=col: set_column_options(col, "kde", bandwidth=float(h)))


def _typical_h(values: pd.Series) -> float:
    """A starting h when the user switches to a number: Scott's rule on the whole column, rounded."""
    x = pd.to_numeric(values, errors="coerce").dropna().to_numpy(dtype=float)
    h = float(np.std(x, ddof=1)) * len(x) ** -0.2 if len(x) > 1 else 1.0
    return float(f"{h:.3g}") if np.isfinite(h) and h > 0 else 1.0


def _discretized_ui(col: str, values: pd.Series) -> None:
    options = column_options(settings(), col, "discretized")
    strategy = options.get("strategy", "quantile")
    left, right = st.columns(2)
    synced(left.number_input, f"{md(col)}: intervals (bins)", key=f"_colopt::{col}::bins",
           value=int(options.get("bins", 4)), min_value=2, max_value=MAX_INTERVALS, step=1,
           disabled=strategy == "mdl", help="MDL chooses the number of intervals itself.",
           on_set=lambda b, col=col: set_column_options(col, "discretized", bins=int(b)))
    synced(right.selectbox, f"{md(col)}: cut points", key=f"_colopt::{col}::strategy", value=strategy,
           options=list(STRATEGIES), format_func={"quantile": "equal frequency (quantile)",
                                                  "uniform": "equal width (uniform)",
                                                  "mdl": "supervised (MDL, Fayyad & Irani)"}.get,
           on_set=lambda s, col=col: set_column_options(col, "discretized", strategy=s))


def _categorical_ui(col: str, values: pd.Series) -> None:
    options = column_options(settings(), col, "categorical")
    declared = list(options.get("categories") or ())
    seen = sort_values([v.item() if isinstance(v, np.generic) else v for v in values.dropna().unique()])
    choices = list(dict.fromkeys([*declared, *seen]))
    left, middle, right = st.columns([2, 1, 1])
    if len(choices) > MAX_CHOICES:      # thousands of values: no picker to send, the typed additions remain
        left.caption(f"{md(col)}: {len(choices):,} values, too many to pick from; "
                     + (f"{len(declared):,} declared." if declared else "the values seen in training."))
    else:
        synced(left.multiselect, f"{md(col)}: declared categories", key=f"_colopt::{col}::categories", value=declared,
               options=choices, format_func=str,
               help="The column's domain: K is its size. Empty: the values seen in training.",
               on_set=lambda v, col=col: set_column_options(col, "categorical", categories=tuple(v) or None))
    synced(middle.text_input, f"{md(col)}: add categories", key=f"_colopt::{col}::extra", value="",
           placeholder="comma-separated", help="Values the training data lacks; the seen values are declared too.",
           on_set=lambda text, col=col, d=declared, s=seen, v=values: _add_categories(col, d or s, text, v))
    synced(right.selectbox, f"{md(col)}: unseen values", key=f"_colopt::{col}::unseen",
           value=options.get("unseen", "skip"), options=list(UNSEEN), format_func=UNSEEN.get,
           on_set=lambda u, col=col: set_column_options(col, "categorical", unseen=u))
    if declared:
        st.caption(f"{md(col)}: K = {len(declared)} declared categories, so a value never seen in a class "
                   f"gets l / (n_c + l K){ref('seed 000, Eq. 7')}.")


def _add_categories(col: str, current: list[Any], text: str, values: pd.Series) -> None:
    """Append the comma-separated values of ``text`` (numbers for a numeric column) to the declared list."""
    new = [t.strip() for t in str(text).split(",") if t.strip()]
    if not new:
        return
    if pd.api.types.is_numeric_dtype(values) and not values.empty:
        parsed = pd.to_numeric(pd.Series(new), errors="coerce")
        new = [int(v) if float(v).is_integer() else float(v) for v in parsed.dropna()]
    set_column_options(col, "categorical", categories=tuple(dict.fromkeys([*current, *new])))
