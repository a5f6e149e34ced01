"""The categorical type in the app: a CPT with counts next to fractions, the declared categories
(K) and the policy for a value never seen in training (issue 12)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.ordering import sort_values
from ui.lecture import ref
from ui.state import CACHE_TTL, data_key
from ui.text import md
from ui.views.base import CountedView, Store
from ui.widgets import synced

__all__ = ["CategoricalView", "MAX_CHOICES", "UNSEEN"]

MAX_CHOICES = 500  # a multiselect of more values is sent to the browser on every rerun for nothing
UNSEEN = {"skip": "skip (left out of the product)", "error": "error (refuse the value)",
          "smooth": "smooth (one extra pseudo-category)"}


@st.cache_data(show_spinner=False, max_entries=64, ttl=CACHE_TTL)
def _seen(data_key: tuple, column: Any, *, _values: pd.Series) -> list[Any]:
    """The column's distinct values in the data, sorted; once per data (ui.state.data_key), not
    on every click of the page (a million rows take 0.1 s to look through)."""
    return sort_values([v.item() if isinstance(v, np.generic) else v for v in _values.dropna().unique()])


class CategoricalView(CountedView):
    has_options = True

    def options_ui(self, column: Any, spec: Any, values: pd.Series, store: Store) -> None:
        """The declared categories (picked or typed) and the unseen-value policy."""
        declared = list(spec.categories or ())
        seen = _seen(data_key(), column, _values=values)
        choices = list(dict.fromkeys([*declared, *seen]))
        left, middle, right = st.columns([2, 1, 1])
        if len(choices) > MAX_CHOICES:      # thousands of values: no picker to send, the typed additions remain
            left.caption(f"{md(column)}: {len(choices):,} values, too many to pick from; "
                         + (f"{len(declared):,} declared." if declared else "the values seen in training."))
        else:
            synced(left.multiselect, f"{md(column)}: declared categories", key=f"_colopt::{column}::categories",
                   value=declared, options=choices, format_func=str,
                   help="The column's domain: K is its size. Empty: the values seen in training.",
                   on_set=lambda v: store(categories=tuple(v) or None))
        synced(middle.text_input, f"{md(column)}: add categories", key=f"_colopt::{column}::extra", value="",
               placeholder="comma-separated", help="Values the training data lacks; the seen values are declared too.",
               on_set=lambda text: _add(store, declared or seen, text, values))
        synced(right.selectbox, f"{md(column)}: unseen values", key=f"_colopt::{column}::unseen",
               value=spec.unseen, options=list(UNSEEN), format_func=UNSEEN.get,
               on_set=lambda u: store(unseen=u))
        if declared:
            st.caption(f"{md(column)}: K = {len(declared)} declared categories, so a value never seen in a class "
                       f"gets l / (n_c + l K){ref('seed 000, Eq. 7')}.")

    def cpt_caption(self, spec: Any) -> str | None:
        """Which domain K counts and what a value never seen in training does."""
        if spec.categories is None and spec.unseen == "skip":
            return None
        parts = ([f"K = the {len(spec.categories)} declared categories{ref('seed 000, Eq. 7')}"]
                 if spec.categories is not None else [])
        parts.append({"skip": f"a value never seen in training is left out{ref('Eq. 22')}",
                      "error": "a value never seen in training is refused",
                      "smooth": "a value never seen in training is scored as the extra row (unseen)"}[spec.unseen])
        return "; ".join(parts) + "."


def _add(store: Store, current: list[Any], text: str, values: pd.Series) -> None:
    """Append the comma-separated values of ``text`` (numbers for a numeric column) to the declared list."""
    new = [t.strip() for t in str(text).split(",") if t.strip()]
    if not new:
        return
    if pd.api.types.is_numeric_dtype(values) and not values.empty:
        parsed = pd.to_numeric(pd.Series(new), errors="coerce")
        new = [int(v) if float(v).is_integer() else float(v) for v in parsed.dropna()]
    store(categories=tuple(dict.fromkeys([*current, *new])))
