"""Checking the naive assumption on the Model page: the conditional mutual information
I(X_a; X_b | C) of every pair of features, the strongest pairs, and a model with one of a pair
left out compared with the whole (cross-validated, and on the Explain page's example)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from nbapp import choices, dependence      # through the modules: a test may count their calls
from nbapp.errors import DataError
from ui import charts
from ui.classes import label_format
from ui.kept import keep, kept, kept_or_build
from ui.lecture import ref
from ui.sampled import sample_caption, shown_rows
from ui.state import data_key, frame, model_key, work
from ui.text import md
from ui.widgets import show_error

__all__ = ["dependence_ui"]

MAX_CHECKED_FEATURES = 40   # 780 pairs, about a second on 100,000 rows


def dependence_ui(model: Any) -> None:
    """The check of the naive assumption, computed only while its section is open (once per data,
    kept: a change of smoothing or priors does not redo it)."""
    section = st.expander("Checking the naive assumption: I(X_a; X_b | C), which pairs of features depend "
                          "on each other", key="model.dependence_open", on_change="rerun")
    if section.open:
        with section:
            _dependence_body(model)


def _current_example(model: Any, df: pd.DataFrame) -> dict[str, Any]:
    """The Explain page's example (its values where set, else the first row's)."""
    current = work()
    return {c: (float("nan") if c in current.missing else current.query.get(c, df[c].iloc[0]))
            for c in model.features_}


@st.fragment
def _dependence_body(model: Any) -> None:
    st.caption("Naive Bayes assumes the features are independent given the class"
               f"{ref('seed 000, §2.2–2.5')}. The "
               "conditional mutual information, in nats, is 0 when a pair is; numbers are cut into 5 "
               "equal-weight intervals for it. A strongly dependent pair is counted twice by the model.")
    df = frame()
    features = dict(list(model.features_.items())[:MAX_CHECKED_FEATURES])
    data = data_key()      # the check reads the data and the types only: not redone when l moves
    key = model_key()      # comparing with and without a feature refits: the whole model's key
    if len(model.features_) > MAX_CHECKED_FEATURES:
        st.caption(f"The check covers the first {MAX_CHECKED_FEATURES} of {len(model.features_):,} features "
                   "(pairs grow with the square of their number).")
    try:
        cmi = kept_or_build("model.cmi", data, lambda: dependence.conditional_mutual_information(
            shown_rows(df), model.target_, features, weight=model.weight_))
    except (DataError, KeyError) as err:
        st.info(f"The check needs the training data: {md(err)}")
        return
    if len(cmi) < 2:
        st.info("The check needs at least two (non-text) features.")
        return
    pairs = dependence.strongest_pairs(cmi)
    left, right = st.columns([3, 2])
    charts.show(left, charts.cmi_heatmap(cmi), key="model.cmi_chart")
    with left:
        sample_caption(df)
    right.markdown("Strongest dependent pairs")
    right.dataframe(pairs, key="model.cmi_pairs", hide_index=True)
    labels = [f"{a} · {b}" for a, b in zip(pairs["a"], pairs["b"])]
    pick = right.selectbox("Pair", range(len(labels)), format_func=lambda i: labels[i], key="model.cmi_pair")
    drop = right.radio("Leave out", [pairs["a"][pick], pairs["b"][pick]], format_func=md, horizontal=True,
                       key="model.cmi_drop")
    if right.button("Compare the model with and without it", key="model.cmi_compare"):
        try:
            keep("model.drop", key, choices.compare_without(model, df, drop, _current_example(model, df)))
        except DataError as err:
            show_error(err)
    stored = kept("model.drop", key)
    if stored is not None:
        _comparison_ui(model, stored)


def _comparison_ui(model: Any, result: Any) -> None:
    """The cross-validated log-loss with and without the feature, and the example's posteriors."""
    a, b, c = st.columns(3)
    a.metric("CV log-loss with all features", f"{result.log_loss_with:.4f}")
    b.metric(f"without {md(result.column)}", f"{result.log_loss_without:.4f}",
             delta=f"{result.change:+.4f}", delta_color="inverse")
    c.caption("Same 5 folds for both models; lower log-loss is better.")
    if result.posterior_with is not None:
        st.markdown("Posterior P(c | x) of the Explain page's example")
        st.dataframe(pd.DataFrame({"with": result.posterior_with, f"without {result.column}":
                                   result.posterior_without}).T.rename(columns=label_format(model.classes_)),
                     key="model.cmi_posteriors")
