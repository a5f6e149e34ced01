"""The Bernoulli type in the app: a binary CPT, the value that counts as "1" (seed 002: Red, SUV,
Domestic) and the Beta prior's a or b in a cell's formula."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd
import streamlit as st

from nbapp.ordering import sort_values
from ui import formulas
from ui.lecture import ref
from ui.state import offer_change
from ui.text import latex_text, md
from ui.views.base import CountedView, short
from ui.widgets import synced

__all__ = ["BernoulliView"]


class BernoulliView(CountedView):
    def fitted_options_ui(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        """One picker per binary column: which value is the '1'."""
        st.markdown('**Binary features: the value that counts as "1"**')
        cells = st.columns(min(len(columns), 4))
        for i, col in enumerate(columns):
            values = frame[col].dropna().tolist() if col in frame else []
            options = sort_values(dict.fromkeys(values))
            current = positive(model, col)
            if current not in options:
                options.append(current)
            with cells[i % len(cells)]:
                synced(st.selectbox, md(col), key=f"_positive::{i}", value=current, options=options, format_func=str,
                       on_set=lambda v, col=col: offer_change(col, {"positive": v}))
        st.caption(f"θ = P(x = 1 | c) counts the rows holding the chosen value{ref('seed 002')}; the other value "
                   "is 0.")

    def cell_latex(self, model: Any, column: Any, value: Any, cls: Any) -> str:
        counts = self.counts_table(model, column)
        return formulas.cell_latex(counts, value, cls, model.smoothing_of(column),
                                   decimal=float(model.cpt(column).loc[value, cls]),
                                   left=rf"P({latex_text(column)} = {latex_text(value)} \mid {latex_text(cls)})")

    def shown_value(self, model: Any, column: Any, value: Any) -> str:
        one = str(positive(model, column)) == str(value)
        return short(value) + (" (= 1)" if one else " (= 0)")


def positive(model: Any, column: Any) -> Any:
    """The value that counts as 1: the last of a Bernoulli column's two values (negative, positive)."""
    return model.cpt(column).index[-1]
