"""The Poisson type in the app: λ per class over the data's counts, and the pmf of a count with its
numbers."""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.densities import poisson_fit_plot, poisson_observed
from ui import charts, svg_charts
from ui.classes import MAX_SHOWN_CLASSES, labelled_rows
from ui.formulas import num
from ui.state import CACHE_TTL, data_key, model_key
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
        left, right = st.columns([3, 2])
        shown = _shown(model_key(), col, svg_charts.palette(), _model=model, _frame=frame)
        charts.show_svg(left, shown.svg, shown.words)
        if shown.table is not None:   # λ_c move with l: a static table redraws with the page, a grid
            right.table(shown.table)  # after it, on its canvas (ui/tables.py)
        else:
            right.dataframe(shown.rows, key="model.poisson_table", column_config=number_columns(shown.rows))
        right.caption("λ_c = (sum of the counts in class c + a) / (rows of c with a count + b); "
                      "a = b = l unless the feature sets them (R naivebayes' laplace). Bars: the data; dots: the fit.")

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        return f"Poisson({fmt_number(float(value))}; λ = {fmt_number(model.parameters(column).loc[cls, 'lambda'])})"

    def equations(self, model: Any, column: Any, value: Any, cls: Any) -> list[str]:
        return [pmf_latex(model, column, float(value), cls)]


class _Shown(NamedTuple):
    """What the section draws of one column: the chart (SVG and words) and the table of λ_c."""
    svg: str
    words: str
    rows: pd.DataFrame                  # one row per class: n, sum, a, b, λ_c and its fraction
    table: pd.DataFrame | None          # the rows as st.table shows them; None: too many classes, a grid


@st.cache_resource(show_spinner=False, max_entries=32)
def _shown(key: tuple, column: Any, colours: svg_charts.Palette, *, _model: Any, _frame: pd.DataFrame) -> _Shown:
    """The section's chart and table, made once per model (``key``), column and theme for every
    session and run: a rerun or another session on the same model makes none of it again (a
    click on l makes another model, whose λ_c and fitted dots are new; the bars are the data's)."""
    observed = _observed(data_key(), column, _model.target_, _model.weight_, _frame=_frame)
    fits = _model.parameters(column)
    data = svg_charts.overlay_data(charts.poisson_fit(poisson_fit_plot(_model, column, observed=observed), fits,
                                                      column))
    rows = labelled_rows(fits.assign(lambda_fraction=fits["lambda_fraction"].map(lambda f: "" if f is None else str(f))))
    return _Shown(svg_charts.overlay_svg(data, colours), data["words"], rows,
                  md_table(rows) if len(rows) <= MAX_SHOWN_CLASSES else None)


@st.cache_data(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def _observed(data_key: tuple, column: Any, target: Any, weight: Any, *, _frame: pd.DataFrame) -> pd.DataFrame:
    """The data's shares of each count per class, once per data (ui.state.data_key): the fitted
    λ_c move with l, the bars do not (a 1,000,000-row table is not read again for another l)."""
    return poisson_observed(_frame, column, target, weight)


def pmf_latex(model: Any, column: Any, x: float, cls: Any, *, digits: int = 4) -> str:
    r"""P(x | c) of a Poisson feature with its numbers: \frac{λ^x e^{-λ}}{x!} = 0.2240."""
    value = float(model.gaussian_density(column, np.array([float(x)]))[cls].iloc[0])
    xs = num(float(x), digits=digits)
    lam = num(float(model.parameters(column).loc[cls, "lambda"]), digits=digits)
    return (rf"P({latex_text(column)} = {xs} \mid {latex_text(cls)}) = "
            rf"\frac{{\lambda_c^{{x}} e^{{-\lambda_c}}}}{{x!}} = "
            rf"\frac{{{lam}^{{{xs}}} \cdot e^{{-{lam}}}}}{{{xs}!}} = {num(value, digits=digits)}")
