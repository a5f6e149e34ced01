"""The KDE type in the app: the bandwidth (a rule or a number h) and the per-class table."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.blocks.kde import scott_bandwidth
from ui.classes import labelled_rows
from ui.text import md
from ui.views.base import Store, TypeView, pick_column
from ui.widgets import synced

__all__ = ["KDEView", "RULES"]

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
        st.subheader("Kernel densities p(x | c) = Σ w_i φ((x − x_i) / h_c) / (W_c h_c)")
        col = pick_column(columns, "model.kde_feature")
        st.dataframe(labelled_rows(model.parameters(col)), key="model.kde_table")
        st.caption("Bandwidth h_c from the class's weighted spread s_c and effective size n_eff = W²/Σw²: Scott "
                   "h = s · n_eff^(−1/5), Silverman h = s · (3 n_eff / 4)^(−1/5) (scipy's gaussian_kde), or the "
                   "number given. The model stores a histogram of bin width w per class (mergeable statistics: "
                   "each bin's weight, centroid and spread); the density matches the exact KDE to about 1e-9 when "
                   "each value has its own bin, and less closely as w/h grows. The plot is below.")


def _typical_h(values: pd.Series) -> float:
    """A starting h when the user switches to a number: Scott's rule on the whole column, rounded."""
    h = scott_bandwidth(pd.to_numeric(values, errors="coerce").to_numpy(dtype=float, na_value=np.nan))
    return float(f"{h:.3g}") if np.isfinite(h) and h > 0 else 1.0
