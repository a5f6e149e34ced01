"""The KDE type in the app: the bandwidth (a rule or a number h), the per-class table, and the
density of a value with its numbers: the kernel sum, floored at eps_c (nbapp.blocks.kde)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.blocks.kde import scott_bandwidth
from ui.classes import labelled_rows
from ui.formulas import num
from ui.numbers import number_columns
from ui.text import latex_text, md
from ui.views.base import Store, TypeView, pick_column
from ui.widgets import synced

__all__ = ["KDEView", "RULES", "density_latex"]

RULES = ("scott", "silverman", "number")


class KDEView(TypeView):
    has_options = True
    numeric_choice = True
    line_dash = "solid"

    def options_ui(self, column: Any, spec: Any, values: pd.Series, store: Store) -> None:
        current = spec.bandwidth
        left, right = st.columns(2)
        rule = current if isinstance(current, str) else "number"
        synced(left.selectbox, f"{md(column)}: KDE bandwidth", key=f"_colopt::{column}::bandwidth_rule", value=rule,
               options=list(RULES), format_func=lambda r: "a number h" if r == "number" else f"{r.title()}'s rule",
               on_set=lambda r: store(bandwidth=_typical_h(values) if r == "number" else r))
        if rule == "number":
            synced(right.number_input, f"{md(column)}: h (column units)", key=f"_colopt::{column}::bandwidth",
                   value=float(current), min_value=1e-12, format="%g", on_set=lambda h: store(bandwidth=float(h)))

    def model_section(self, model: Any, columns: Sequence[Any], frame: pd.DataFrame) -> None:
        st.subheader("Kernel densities p(x | c) = max(Σ w_i φ((x − x_i) / h_c) / (W_c h_c), ε_c)")
        col = pick_column(columns, "model.kde_feature")
        fits = model.parameters(col)
        st.dataframe(labelled_rows(fits), key="model.kde_table", column_config=number_columns(fits))
        st.caption("Bandwidth h_c from the class's weighted spread s_c and effective size n_eff = W²/Σw²: Scott "
                   "h = s · n_eff^(−1/5), Silverman h = s · (3 n_eff / 4)^(−1/5) (scipy's gaussian_kde), or the "
                   "number given. The model stores a histogram of bin width w per class (mergeable statistics: "
                   "each bin's weight, centroid and spread); the density matches the exact KDE to about 1e-9 when "
                   "each value has its own bin, and less closely as w/h grows. The floor ε_c = var_smoothing · "
                   "φ(0) / (n_eff h_c), at most var_smoothing times the class's peak density, only takes over "
                   "where no value of the class lies within a few h: such a value makes the class unlikely "
                   "instead of impossible, and Explain notes it. The plot is below.")

    def equations(self, model: Any, column: Any, value: Any, cls: Any) -> list[str]:
        return [density_latex(model, column, float(value), cls)]


def _typical_h(values: pd.Series) -> float:
    """A starting h when the user switches to a number: Scott's rule on the whole column, rounded."""
    h = scott_bandwidth(pd.to_numeric(values, errors="coerce").to_numpy(dtype=float, na_value=np.nan))
    return float(f"{h:.3g}") if np.isfinite(h) and h > 0 else 1.0


def density_latex(model: Any, column: Any, x: float, cls: Any, *, digits: int = 4) -> str:
    r"""The kernel density at x with its numbers, floored at eps_c:
    \max(\frac{1}{W_c h} \sum_i w_i \varphi(\frac{x - x_i}{h}),\ \varepsilon_c) = \max(0.1234,\ 10^{-10}) = 0.1234."""
    value = float(model.gaussian_density(column, np.array([float(x)]))[cls].iloc[0])
    c, xs = latex_text(cls), num(float(x), digits=digits)
    fit = model.parameters(column).loc[cls]
    h = num(float(fit["h"]), digits=digits)
    log_kernel = float(pd.DataFrame(model.block_of(column).kernel_log_density(np.array([float(x)])),
                                    columns=pd.Index(model.classes_, dtype=object))[cls].iloc[0])
    kernel = num(np.exp(log_kernel), digits=digits) if np.exp(log_kernel) > 0 else rf"e^{{{log_kernel:.1f}}}"
    return (rf"p({latex_text(column)} = {xs} \mid {c}) = \max\!\left(\frac{{1}}{{W_c \cdot {h}}}"
            rf"\sum_{{i: y_i = {c}}} w_i\, \varphi\!\left(\frac{{{xs} - x_i}}{{{h}}}\right),\ \varepsilon_c\right) = "
            rf"\max\!\left({kernel},\ {num(float(fit['floor']), digits=3)}\right) = {num(value, digits=digits)}")
