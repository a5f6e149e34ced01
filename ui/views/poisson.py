"""The Poisson type in the app: λ per class over the data's counts, and the pmf of a count with its
numbers."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.densities import poisson_fit_plot, poisson_observed
from ui import charts
from ui.classes import MAX_SHOWN_CLASSES, labelled_rows
from ui.formulas import num
from ui.state import CACHE_TTL, data_key, model_key
from ui.svg_charts import overlay_data, overlay_ui
from ui.numbers import number_columns
from ui.text import fmt_number, latex_text, md_table
from ui.views.base import TypeView, pick_column

__all__ = ["PoissonView", "pmf_latex"]


class PoissonView(TypeView):
    numeric_choice = True
    line_dash = "dot"

    def model_section(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        st.subheader("Poisson counts P(x | c) = λ_c^x e^−λ_c / x!")
        col = pick_column(columns, "model.poisson_feature")
        fits = model.parameters(col)
        left, right = st.columns([3, 2])
        observed = _observed(data_key(), col, model.target_, model.weight_, _frame=frame)
        overlay_ui(left, _drawn(model_key(), col, model, observed, fits))
        shown = fits.assign(lambda_fraction=fits["lambda_fraction"].map(lambda f: "" if f is None else str(f)))
        rows = labelled_rows(shown)
        if len(rows) <= MAX_SHOWN_CLASSES:   # λ_c move with l: a static table redraws with the page, a grid
            right.table(md_table(rows))      # after it, on its canvas (ui/tables.py)
        else:
            right.dataframe(rows, key="model.poisson_table", column_config=number_columns(shown))
        right.caption("λ_c = (sum of the counts in class c + a) / (rows of c with a count + b); "
                      "a = b = l unless the feature sets them (R naivebayes' laplace). Bars: the data; dots: the fit.")

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        return f"Poisson({fmt_number(float(value))}; λ = {fmt_number(model.parameters(column).loc[cls, 'lambda'])})"

    def equations(self, model: Any, column: Any, value: Any, cls: Any) -> list[str]:
        return [pmf_latex(model, column, float(value), cls)]


@st.cache_data(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def _observed(data_key: tuple, column: Any, target: Any, weight: Any, *, _frame: pd.DataFrame) -> pd.DataFrame:
    """The data's shares of each count per class, once per data (ui.state.data_key): the fitted
    λ_c move with l, the bars do not."""
    return poisson_observed(_frame, column, target, weight)


@st.cache_resource(show_spinner=False, max_entries=32)
def _drawn(key: tuple, column: Any, _model: Any, _observed: pd.DataFrame, _fits: pd.DataFrame) -> dict:
    """The fit's chart as the page draws it (ui.svg_charts: the dots move with l, and plotly redrew
    them after the rest of a click), once per model (``key``) and column, for every session."""
    return overlay_data(charts.poisson_fit(poisson_fit_plot(_model, column, observed=_observed), _fits, column))


def pmf_latex(model: Any, column: Any, x: float, cls: Any, *, digits: int = 4) -> str:
    r"""P(x | c) of a Poisson feature with its numbers: \frac{λ^x e^{-λ}}{x!} = 0.2240."""
    value = float(model.gaussian_density(column, np.array([float(x)]))[cls].iloc[0])
    xs = num(float(x), digits=digits)
    lam = num(float(model.parameters(column).loc[cls, "lambda"]), digits=digits)
    return (rf"P({latex_text(column)} = {xs} \mid {latex_text(cls)}) = "
            rf"\frac{{\lambda_c^{{x}} e^{{-\lambda_c}}}}{{x!}} = "
            rf"\frac{{{lam}^{{{xs}}} \cdot e^{{-{lam}}}}}{{{xs}!}} = {num(value, digits=digits)}")
