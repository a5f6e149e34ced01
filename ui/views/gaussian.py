"""The Gaussian type in the app: the variance options and the ε floor (model-wide), the fitted
N(μ_c, σ²_c) over the data with the formulas behind them, and the density of a value with its
numbers   [seed 000, Eq. 12-14]. The lessons about Gaussian features (the boundary of two of them,
the notes' w_GNB of Eq. 20) find their columns here (:func:`gaussian_columns`)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from nbapp.densities import gaussian_fit_plot
from ui import charts
from ui.classes import classes_note, label_format, labelled_rows, shown_model_classes
from ui.formulas import num
from ui.lecture import ref
from ui.state import CACHE_TTL, as_float, data_key, set_settings, work
from ui.numbers import number_columns
from ui.text import fmt_number, latex_text, md
from ui.views.base import TypeView, pick_column
from ui.widgets import synced

__all__ = ["GaussianView", "gaussian_columns", "gaussian_latex", "density_latex", "VARIANCES", "EPSILON_MODES"]

VARIANCES = {"mle": "MLE, 1/n_c", "unbiased": "unbiased, 1/(n_c − 1)",
             "pooled": "pooled: one variance per feature, shared by the classes"}
EPSILON_MODES = {"global": "one ε: var_smoothing × largest column variance (scikit-learn)",
                 "per_feature": "per feature: ε_a = var_smoothing × variance of that column"}


def gaussian_columns(model: Any) -> list[Any]:
    """The model's Gaussian features (the lessons on Gaussian features draw two of them)."""
    return [c for c, spec in model.features_.items() if spec.kind == "gaussian"]


class GaussianView(TypeView):
    numeric_choice = True
    line_dash = "dash"

    def settings_ui(self, work: Any) -> None:
        config = work.settings
        st.markdown("**Gaussian features**")
        labels = {**VARIANCES, "mle": VARIANCES["mle"] + ref("seed 000, Eq. 14")}
        synced(st.radio, "Variance", key="_model_variance", value=config.variance, options=list(VARIANCES),
               format_func=labels.get, on_set=lambda v: set_settings(variance=v))
        synced(st.number_input, "var_smoothing (ε = var_smoothing × a column variance, below)",
               key="_model_var_smoothing", value=float(config.var_smoothing), min_value=0.0, format="%.1e",
               step=1e-9, on_set=lambda v: set_settings(var_smoothing=float(v)))
        synced(st.radio, "Variance floor ε", key="_model_var_smoothing_mode", value=config.var_smoothing_mode,
               options=list(EPSILON_MODES), format_func=EPSILON_MODES.get,
               on_set=lambda v: set_settings(var_smoothing_mode=v))

    def model_section(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        st.subheader("Gaussian fits p(x | c) = N(μ_c, σ²_c)")
        col = pick_column(columns, "model.gauss_feature")
        fits = model.gaussian(col).reindex(pd.Index(shown_model_classes(model), dtype=object))   # the most probable
        x_star = as_float(work().query.get(col), float("nan"))   # the Explain page's test example
        figure, words = _fit_figure(data_key(), col, fits, x_star, _model=model, _frame=frame)
        charts.show(st, figure, words=lambda _: words, key="model.gauss_chart")
        st.dataframe(labelled_rows(fits), key="model.gauss_table", width="stretch",   # full width: nothing cut off
                     column_config=number_columns(fits))
        cls = st.selectbox("Class for the formula", list(fits.index), format_func=label_format(fits.index),
                           key="model.gauss_class")
        for equation in gaussian_latex(model, col, cls):
            st.latex(equation)
        if x_star == x_star:   # not NaN: the density at x* with its numbers (seed 000, Eq. 12)
            st.latex(density_latex(model, col, x_star, cls))
        note = classes_note(len(model.classes_), "prior P(c)")
        if note:
            st.caption(note)
        _epsilon_ui(model)

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        row = model.gaussian(column).loc[cls]
        return f"N({fmt_number(float(value))}; {fmt_number(row['mean'])}, {fmt_number(row['var'])})"

    def equations(self, model: Any, column: Any, value: Any, cls: Any) -> list[str]:
        return [density_latex(model, column, float(value), cls)]


@st.cache_resource(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def _fit_figure(data_key: tuple, column: Any, fits: pd.DataFrame, x_star: float, *, _model: Any,
                _frame: pd.DataFrame) -> tuple[go.Figure, str]:
    """The fit plot's figure and its words, built once per data, column, fits and x* and shared
    (never changed after): a click on l reruns the page, and plotly's checks of every trace
    (tens of ms) are not paid again for a figure that did not change."""
    figure = charts.gaussian_fit(_fit_plot(data_key, column, fits, x_star, _model=_model, _frame=_frame),
                                 fits, column)
    return figure, charts.describe(figure)


@st.cache_data(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def _fit_plot(data_key: tuple, column: Any, fits: pd.DataFrame, x_star: float, *, _model: Any,
              _frame: pd.DataFrame) -> Any:
    """The fit plot of ``column``: keyed by the data (ui.state.data_key), the fitted μ_c and σ²_c
    and x*, which is all it draws; a click on l leaves all of them, and the histogram, as they were."""
    return gaussian_fit_plot(_model, column, _frame, x_star=x_star, classes=list(fits.index))


def _epsilon_ui(model: Any) -> None:
    eps = model.gaussian_epsilon()
    if eps.column is None:
        st.caption("ε = 0: every Gaussian column is constant.")
    elif eps.mode == "global":
        st.caption(f"ε = {fmt_number(eps.value)} is added to every variance: var_smoothing "
                   f"({eps.var_smoothing:g}) × the variance of column {md(eps.column)}, the largest.")
    else:
        st.caption(f"ε per feature (var_smoothing {eps.var_smoothing:g} × each column's variance); the largest, "
                   f"{fmt_number(eps.value)}, is {md(eps.column)}'s.")
    for note in eps.notes:
        st.warning(md(note))


def gaussian_latex(model: Any, column: Any, cls: Any) -> list[str]:
    """The class mean and variance of one Gaussian feature with its numbers, and the density's
    formula, one equation each   [seed 000, Eq. 12-14]. Three display formulas rather than one
    aligned block: each breaks after an operator in a narrow column, where an aligned block
    could only scroll, and a scrolling region is one a keyboard cannot reach (WCAG 2.1, axe's
    scrollable-region-focusable; issue 33, item 8)."""
    row = model.gaussian(column).loc[cls]
    variance = model.features_[column].variance or model.variance
    divisor = {"mle": r"n_c", "unbiased": r"(n_c - 1)",
               "pooled": r"n \text{ (pooled over classes)}"}.get(variance, "n_c")
    x = latex_text(column)
    c = latex_text(cls)
    mean = (rf"\mu_{{{c}}} = \frac{{1}}{{n_c}} \sum_{{i: y_i = {c}}} {x}_i "
            rf"= {num(row['mean'], digits=6)} \quad (n_c = {num(row['n'])})")
    var = (rf"\sigma^2_{{{c}}} = \frac{{1}}{{{divisor}}} \sum (x_i - \mu_{{{c}}})^2 + \varepsilon "
           rf"= {num(row['var_raw'], digits=6)} + {num(row['epsilon'], digits=3)} = {num(row['var'], digits=6)}")
    density = (r"p(x \mid c) = \frac{1}{\sqrt{2\pi\sigma_c^2}}"
               r"\exp\!\left(-\frac{(x-\mu_c)^2}{2\sigma_c^2}\right)")
    return [mean, var, density]


def density_latex(model: Any, column: Any, x: float, cls: Any, *, digits: int = 4) -> str:
    r"""The density of a Gaussian feature at x, computed with its numbers:
    N(6; 5.855, 0.0263) = \frac{1}{\sqrt{2\pi \cdot 0.0263}} \exp(...) = 1.65   [seed 000, Eq. 12]."""
    value = float(model.gaussian_density(column, np.array([float(x)]), [cls])[cls].iloc[0])   # that class's alone
    xs = num(float(x), digits=digits)
    row = model.gaussian(column).loc[cls]
    mu, var = num(float(row["mean"]), digits=digits), num(float(row["var"]), digits=digits)
    return (rf"p({latex_text(column)} = {xs} \mid {latex_text(cls)}) = \mathcal{{N}}({xs};\, {mu},\, {var}) = "
            rf"\frac{{1}}{{\sqrt{{2\pi \cdot {var}}}}}\exp\!\left(-\frac{{({xs} - {mu})^2}}{{2 \cdot {var}}}\right)"
            rf" = {num(value, digits=digits)}")
