"""The tables the model learned, each a panel (a fragment: choosing a class, a feature or a
view reruns it alone): the class prior P(c), and the conditional probability tables P(x = v | c)
of every counted column with their counts and the formula behind one cell."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from nbapp.errors import DataError
from nbapp.io import safe_csv_bytes
from ui import charts, formulas, teaching
from ui.classes import classes_note, label_format, labels_of, shown_model_classes
from ui.state import model_key, remember_work, set_choice, settings, shared_download, work
from ui.tables import table_ui
from ui.text import file_stem, md
from ui.views import view_of
from ui.widgets import synced

__all__ = ["prior_table_ui", "cpt_ui"]

VIEWS = ("exact fractions", "decimals", "logs")
CPT_VIEW = "model.cpt_view"     # the work's choice of how probabilities are shown


@st.fragment
def prior_table_ui(model: Any) -> None:
    st.subheader("Class prior P(c)")
    shown = shown_model_classes(model)       # the notes' order (Yes before No); the most probable
    priors = model.priors_.reindex(pd.Index(shown, dtype=object))
    table = formulas.prior_table(model, shown)
    note = classes_note(len(model.classes_), "prior P(c)")
    if note:
        st.caption(note)
    left, right = st.columns([3, 2])
    figure, words = _priors_figure(tuple(label_format(model.classes_)(c) for c in priors.index),
                                   tuple(priors.to_numpy(dtype=float)))
    charts.show(left, figure, words=lambda _: words, key="model.priors_chart")
    table_ui(right, table, key="model.priors_table", content_key=(model_key(), "priors"))
    cls = right.selectbox("Class for the formula", list(priors.index), format_func=label_format(model.classes_),
                          key="model.prior_class")
    right.latex(formulas.prior_latex(model, cls, settings()))


@st.cache_resource(show_spinner=False, max_entries=64)
def _priors_figure(labels: tuple[str, ...], priors: tuple[float, ...]) -> tuple[go.Figure, str]:
    """The bar chart of P(c) and its words, once per labels and numbers and shared (never changed
    after): a click on l leaves P(c) as it was, and the figure is not built again."""
    figure = charts.priors_bar(pd.Series(priors, index=pd.Index(labels, dtype=object)))
    return figure, charts.describe(figure)


def _view_radio(key: str) -> str:
    shown = work().choice(CPT_VIEW)
    return synced(st.radio, "Show probabilities as", key=key, value=shown if shown in VIEWS else VIEWS[0],
                  options=VIEWS, horizontal=True, on_set=lambda v: set_choice(CPT_VIEW, v))


@st.fragment
def cpt_ui(model: Any, columns: list[str]) -> None:
    st.subheader("Conditional probability tables P(x = v | c)")
    col = st.selectbox("Feature", columns, format_func=str, key="model.cpt_feature")
    view = view_of(model.features_[col].kind)
    shown_as = _view_radio("_model_cpt_view")
    remember_work()       # a panel's rerun skips the page's start, which writes the address
    classes = pd.Index(shown_model_classes(model), dtype=object)       # the most probable, in the notes' order
    try:
        probs = model.cpt(col, log=shown_as == VIEWS[2])
    except DataError as err:                 # a registered type that keeps no table of P(x = v | c)
        st.info(md(err))
        return
    table = view.counts_table(model, col)    # None: a type that keeps no counts (its table alone is shown)
    if shown_as == VIEWS[0] and table is None:     # exact fractions made only where they are shown
        probs = model.cpt(col, exact=True)
    probs = teaching.in_display_order(probs, col).reindex(columns=classes)
    shown = (teaching.in_display_order(formulas.cpt_unreduced(table.reindex(columns=classes),
                                                              model.smoothing_of(col)), col)
             if shown_as == VIEWS[0] and table is not None else formulas.show_probabilities(probs, shown_as))
    zero = teaching.in_display_order(model.cpt(col).reindex(columns=classes), col).to_numpy(dtype=float) == 0
    left, right = st.columns(2)
    if table is not None:
        counts = teaching.in_display_order(table.reindex(columns=classes), col)
        left.markdown("Counts N(v, c)")
        table_ui(left, _labelled(formulas.show_counts(counts)), mask=counts.to_numpy(dtype=float) == 0,
                 key="model.counts_table", content_key=(model_key(), col, "counts"))
    right.markdown(f"P(v | c), {shown_as}")
    table_ui(right, _labelled(shown), mask=zero, key="model.cpt_table",
             content_key=(model_key(), col, shown_as, "cpt"))
    if zero.any():
        st.warning("Highlighted cells are 0: any example with that value rules the class out. "
                   "Smoothing (l > 0) removes the zeros.")
    caption = view.cpt_caption(model.features_[col])
    if caption:
        st.caption(caption)
    note = classes_note(len(model.classes_), "prior P(c)")
    if note:
        st.caption(note + " So does the CSV download; model.cpt() in Python gives every class.")
    pick_value, pick_class = st.columns(2)
    value = pick_value.selectbox("Value v", list(probs.index), format_func=str, key="model.cell_value")
    cls = pick_class.selectbox("Class c", list(probs.columns), format_func=label_format(model.classes_),
                               key="model.cell_class")
    st.latex(view.cell_latex(model, col, value, cls))
    if table is None:
        return
    if model.smoothing_of(col).mode_beside_mean:
        _mode_ui(model, col, table)
    cpt_csv = shared_download("cpt", (model_key(), col),
                              lambda: safe_csv_bytes(_cpt_export(table.reindex(columns=classes),
                                                                 model.cpt(col).reindex(columns=classes))))
    st.download_button("Download this CPT (CSV)", cpt_csv,
                       file_name=f"cpt_{file_stem(col)}.csv", mime="text/csv", key="model.cpt_download")


def _labelled(table: pd.DataFrame) -> pd.DataFrame:
    """A value x class table with its classes as labels: 1 and "1" stay two columns."""
    return table.set_axis(labels_of(table.columns), axis=1)


def _mode_ui(model: Any, col: str, counts: pd.DataFrame) -> None:
    """Seed 002 calls (N + a)/(N + a + b) the MAP estimate; it is the posterior mean. The mode beside it."""
    st.markdown(f"**Posterior mean and mode of θ = P({md(col)} = {md(counts.index[-1])} | c)** "
                "under the Beta(a, b) prior")
    ordered = teaching.in_display_order(counts)
    table_ui(st, formulas.beta_mean_and_mode(ordered, model.smoothing_of(col)), key="model.beta_mode")
    st.caption("Seed 002 names (N + a)/(N + a + b) the MAP estimate; strictly it is the mean of the Beta posterior, "
               "and the model uses it. The MAP estimate proper is the posterior's mode, (N + a − 1)/(N + a + b − 2); "
               "the two agree as the counts grow, and with a = b = 1 the mode is the MLE N / n_c.")


def _cpt_export(counts: pd.DataFrame, probs: pd.DataFrame) -> pd.DataFrame:
    both = pd.concat({"count": _labelled(counts), "probability": _labelled(probs)}, axis=1)
    both.columns = [f"{part}[{label}]" for part, label in both.columns]
    return both.reset_index()
