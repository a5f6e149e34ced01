"""The discretised type in the app: its intervals (bins and the strategy that cuts them) beside its
CPT, and a number as its Explain input."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd
import streamlit as st

from nbapp.blocks.discretized import MAX_INTERVALS
from nbapp.decimals import input_format
from ui.numbers import number_columns
from ui.text import md
from ui.views.base import CountedView, Store, pick_column
from ui.widgets import synced

__all__ = ["DiscretizedView", "STRATEGIES"]

STRATEGIES = {"quantile": "equal frequency (quantile)", "uniform": "equal width (uniform)",
              "mdl": "supervised (MDL, Fayyad & Irani)"}


class DiscretizedView(CountedView):
    has_options = True
    numeric_choice = True

    @property
    def in_cpt_section(self) -> bool:
        return True             # P(x in interval | c): a CPT with counts

    def options_ui(self, column: Any, spec: Any, values: pd.Series, store: Store) -> None:
        left, right = st.columns(2)
        synced(left.number_input, f"{md(column)}: intervals (bins)", key=f"_colopt::{column}::bins",
               value=int(spec.bins), min_value=2, max_value=MAX_INTERVALS, step=1,
               disabled=spec.strategy == "mdl", help="MDL chooses the number of intervals itself.",
               on_set=lambda b: store(bins=int(b)))
        synced(right.selectbox, f"{md(column)}: cut points", key=f"_colopt::{column}::strategy", value=spec.strategy,
               options=list(STRATEGIES), format_func=STRATEGIES.get, on_set=lambda s: store(strategy=s))

    def model_section(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        st.subheader("Discretised features: the intervals")
        col = pick_column(columns, "model.intervals_feature")
        spec = model.features_[col]
        intervals = model.parameters(col)
        st.dataframe(intervals, key="model.intervals_table", column_config=number_columns(intervals))
        how = {"quantile": f"{spec.bins} intervals of about equal weight",
               "uniform": f"{spec.bins} intervals of equal width",
               "mdl": "Fayyad & Irani's MDL cuts (as Weka's -D)"}[spec.strategy]
        st.caption(f"Cut points learned when fitting: {how}. Their CPT, P(x in interval | c), is in the table "
                   "of conditional probabilities above.")

    def explain_input(self, model: Any, column: Any, current: Any, key: str, on_set: Any) -> Any:
        return _number_input(model, column, current, key, on_set)

    def form_input(self, model: Any, column: Any, key: str) -> Any:
        return st.number_input(md(column), value=0.0, format="%g", key=key)

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        return ""           # the factor is a cell of its interval, not of the value typed


def _number_input(model: Any, column: Any, current: Any, key: str, on_set: Any) -> Any:
    from ui.state import as_float

    default = as_float(current, CountedView._typical(model, column))
    return synced(st.number_input, md(column), key=key, value=default, format=input_format(default), on_set=on_set)
