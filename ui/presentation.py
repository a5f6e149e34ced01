"""Presentation mode on every teaching page (issue 23, item 1), and formulas that fit their column
on every page (item 6).

One switch, a choice of the work (:data:`PRESENTATION`), so the mode survives a page change and a
link opens in it. It sits in the sidebar; in the mode the sidebar is hidden and the switch is
drawn at the top right of the page. The mode's look is fixed CSS (:data:`PRESENTATION_CSS`):
no user text is ever put into it, and it is the only HTML this module writes. Type scales with
the width of the screen (``clamp(min, vw, max)``): 1280 px wide gives the usual 16-18 px, 1920
px gives 24 px and more for tables, equations and the posterior.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from nbapp.smoothing import BetaPrior, MEstimate
from ui import explained
from ui.board import board_ui
from ui.classes import label_format, labels_of
from ui.formulas import cpt_unreduced, prior_table, totals_rows
from ui.state import set_choice, set_query, set_settings, work
from ui.teaching import display_classes, in_display_order, smoothing_symbol
from ui.text import fmt_number, md, md_table
from ui.views import columns_where, view_of
from ui.widgets import show_error, synced

__all__ = ["PRESENTATION", "PRESENTATION_CSS", "FORMULA_CSS", "presenting", "presentation_ui", "formula_css_ui",
           "PREDICTION_KEY", "CORNER_KEY", "smoothing_control_ui", "query_inputs_ui", "prediction_line",
           "explain_presentation_ui", "model_presentation_ui"]

#: The work's choice of presentation mode (on or off).
PRESENTATION = "app.presentation"
#: Keys of the containers the CSS places and enlarges (Streamlit gives a keyed container the class st-key-<key>).
PREDICTION_KEY = "presentation_prediction"
CORNER_KEY = "presentation_corner"

#: Long display formulas break after a relation or an operator (KaTeX splits a formula into
#: ".base" boxes there; display mode only forbids the break), and what cannot break (an aligned
#: block wider than the column) scrolls, never cut (issue 23, item 6). Scaling the type to the
#: column's width was tried (container query units): it shrank short formulas in narrow
#: columns to 8 px, so a formula keeps its size and breaks instead.
FORMULA_CSS = """<style>
.katex-display { max-width: 100%; overflow-x: auto; overflow-y: hidden; }
.katex-display > .katex { white-space: normal; }
.katex-display > .katex > .katex-html { white-space: normal; }
.katex-display .base { margin: 0.12em 0; }
</style>"""

#: Fixed CSS (no user text is ever interpolated): hide the sidebar, the header and the toolbar,
#: use the whole width, and let type grow with the screen's width for a projector.
PRESENTATION_CSS = """<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="collapsedControl"],
header[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"],
[data-testid="stStatusWidget"], footer { display: none !important; }
[data-testid="stMainBlockContainer"], .block-container { padding: 0.5rem 1.2rem 0.5rem 1.2rem !important;
  max-width: 100% !important; }
[data-testid="stMain"] { font-size: clamp(16px, 1.3vw, 36px); }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stWidgetLabel"] p,
[data-testid="stMain"] [data-testid="stTable"] th, [data-testid="stMain"] [data-testid="stTable"] td
  { font-size: clamp(14px, 1.3vw, 36px) !important; line-height: 1.35; }
[data-testid="stMain"] [data-testid="stTable"] td, [data-testid="stMain"] [data-testid="stTable"] th
  { padding: 0.15em 0.5em !important; }
[data-testid="stMain"] h1 { font-size: clamp(26px, 2.2vw, 60px) !important; padding: 0.2rem 0 !important; }
[data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: clamp(20px, 1.7vw, 46px) !important; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: clamp(24px, 2.2vw, 60px) !important; }
[data-testid="stMain"] .katex-display { margin: 0.3rem 0 !important; font-size: clamp(14px, 1.3vw, 36px); }
[data-testid="stMain"] .katex { font-size: 1.1em !important; }
[data-testid="stVerticalBlock"] { gap: 0.4rem !important; }
[data-testid="stMain"] .st-key-presentation_prediction [data-testid="stMarkdownContainer"] p
  { font-size: clamp(22px, 2.3vw, 64px) !important; font-weight: 600; line-height: 1.2 !important; }
[data-testid="stMain"] [data-baseweb="select"] div, [data-testid="stMain"] input, [data-testid="stMain"] textarea,
[data-testid="stMain"] button p { font-size: clamp(14px, 1.2vw, 32px) !important; }
.st-key-presentation_corner { align-items: flex-end; margin-bottom: -0.4rem; }
</style>"""
#: What presentation mode adds to a page: its own rules and the formulas that wrap (fixed text only).
PROJECTOR_CSS = PRESENTATION_CSS + FORMULA_CSS


def presenting() -> bool:
    """Whether the work is in presentation mode."""
    return work().choice(PRESENTATION) is True     # a link's "false" or 1 is not a yes


def presentation_ui() -> bool:
    """The presentation-mode switch (in the sidebar; in the mode, at the page's top right since
    the sidebar is hidden) and the mode's CSS when on (the sidebar summary, left out in the
    mode, brings the formula CSS otherwise).
    True when the mode is on: the page then leaves out its sidebar summary and its asides."""
    on = presenting()
    where = st.container(key=CORNER_KEY) if on else st.sidebar
    with where:
        synced(st.toggle, "Presentation mode", key="_presentation", value=on,
               on_set=lambda v: set_choice(PRESENTATION, bool(v)),
               help="Large type that grows with the screen, no sidebar: for a projector. The choice travels "
                    "with the page's address.")
    if on:
        st.html(PROJECTOR_CSS)
    return on


def formula_css_ui() -> None:
    """Long formulas break or scroll within their column (every page; issue 23, item 6)."""
    st.html(FORMULA_CSS)


# --------------------------------------------------------------------------- the controls in view


def smoothing_control_ui(key: str = "present") -> None:
    """The smoothing of the model in one or two inputs (l, or m and p, or a and b), so a change is
    shown live without leaving the mode; written to the work as the Model page's inputs are."""
    config = work().settings
    smoothing = config.smoothing
    if isinstance(smoothing, MEstimate):
        synced(st.number_input, "m", key=f"_{key}_m", value=float(smoothing.m), min_value=0.0, step=0.5,
               format="%g", on_set=lambda v: set_settings(smoothing=dataclasses.replace(smoothing, m=float(v))))
        if smoothing.p is not None:
            synced(st.number_input, "p", key=f"_{key}_p", value=float(smoothing.p), min_value=0.0, max_value=1.0,
                   step=0.05, format="%g",
                   on_set=lambda v: set_settings(smoothing=dataclasses.replace(smoothing, p=float(v))))
    elif isinstance(smoothing, BetaPrior):
        synced(st.number_input, "a", key=f"_{key}_beta_a", value=float(smoothing.a), min_value=0.0, step=0.5,
               format="%g", on_set=lambda v: set_settings(smoothing=BetaPrior(float(v), smoothing.b)))
        synced(st.number_input, "b", key=f"_{key}_beta_b", value=float(smoothing.b), min_value=0.0, step=0.5,
               format="%g", on_set=lambda v: set_settings(smoothing=BetaPrior(smoothing.a, float(v))))
    else:
        alpha = config.alpha if smoothing is None else smoothing.l
        synced(st.number_input, f"Smoothing {smoothing_symbol()}", key=f"_{key}_alpha", value=float(alpha),
               min_value=0.0, step=0.5, format="%g",
               on_set=lambda v: set_settings(alpha=float(v), smoothing=None))


def query_inputs_ui(model: Any, *, per_line: int = 5) -> dict[str, Any]:
    """The Explain row's inputs (one per feature; a text column on a line of its own), the
    smoothing control first; returns the row (missing features as NaN, as the work marks them)."""
    current = work()
    items = [(i, col, view_of(spec.kind)) for i, (col, spec) in enumerate(model.features_.items())]
    narrow = [("smoothing", None, None), *[item for item in items if not item[2].wide_input]]
    wide = [item for item in items if item[2].wide_input]
    for start in range(0, len(narrow), per_line):
        for cell, (i, col, view) in zip(st.columns(per_line), narrow[start:start + per_line]):
            with cell:
                if view is None:
                    smoothing_control_ui()
                elif col in current.missing:
                    st.markdown(f"{md(col)}: missing")
                else:
                    view.explain_input(model, col, current.query.get(col), f"_present_q::{i}",
                                       lambda v, col=col: set_query(col, v))
    for i, col, view in wide:
        view.explain_input(model, col, current.query.get(col), f"_present_q::{i}", lambda v, col=col: set_query(col, v))
    return work().row(model.features_)


# --------------------------------------------------------------------------- the pages' views


def prediction_line(e: Any, classes: list[Any], *, shown: int = 3) -> str:
    """"Prediction: Yes · P(Yes | x) = 784/1389 ≈ 0.5644 · P(No | x) = ..." in Markdown (user text escaped)."""
    name = label_format(e.classes)
    if e.undetermined:
        return "Prediction: none, P(x) = 0 (every class has probability 0; smoothing gives each a chance)"
    ranked = sorted(classes, key=lambda c: -float(e.posterior[c]))[:shown]
    parts = []
    for c in ranked:
        exact = e.posterior_fractions[c]
        number = fmt_number(e.posterior[c])
        if exact is not None and len(str(exact)) <= 14 and exact.denominator != 1:
            number = f"{exact} ≈ {number}"
        parts.append(f"P({md(name(c))} | x) = {md(number)}")
    return f"Prediction: {md(name(e.prediction))} · " + " · ".join(parts)


def _teaching_columns(table: pd.DataFrame, classes: list[Any]) -> pd.DataFrame:
    """A factor or totals table without its log columns (and, past two classes, its reduced
    fractions): what a projector can show in large type."""
    dropped = [c for c in table.columns if str(c).endswith(" log")]
    if len(classes) > 2:
        dropped += [c for c in table.columns if str(c).endswith(" fraction") and
                    str(c).replace(" fraction", " counts") in table.columns]
    return table.drop(columns=dropped)


def explain_presentation_ui(model: Any) -> None:
    """Explain for a projector: the inputs and the smoothing in view, the prediction in large type,
    then the factor table, the totals and the equations, or the board step by step."""
    query_inputs_ui(model)
    row = work().row(model.features_)
    try:
        e = model.explain(row)
    except DataError as err:
        show_error(err)
        return
    classes = display_classes(list(e.classes))
    with st.container(key=PREDICTION_KEY):
        st.markdown(prediction_line(e, classes))
    factors_tab, board_tab = st.tabs(["Factors and posterior", "The board, step by step"])
    with factors_tab:
        st.table(md_table(_teaching_columns(explained.factor_rows(model, e, classes), classes)))
        left, right = st.columns([1, 1])
        with left:
            st.table(md_table(_teaching_columns(totals_rows(e, classes), classes)))
        with right:
            # the densities N(x; mu, var) stand in the factor table's "counts" columns; here they would not fit
            for eq in explained.explain_equations(model, e, classes, max_terms=6, densities=False):
                st.latex(eq)
    with board_tab:
        board_ui(model, row, key="present_board")


def model_presentation_ui(model: Any, *, per_line: int = 2) -> None:
    """Model for a projector: the smoothing in view, the priors and every CPT with its counts next
    to the fraction (3/9 = 1/3), classes and values in the notes' order; types without a count
    table are left to the page without the mode."""
    left, right = st.columns([1, 4], vertical_alignment="bottom")
    with left:
        smoothing_control_ui("present_model")
    right.markdown(f"**P(c) and P(x_a | c)**, predicting {md(model.target_)}: counts next to each fraction, "
                   "as the notes write them")
    order = display_classes(list(model.classes_))
    position = {c: i for i, c in enumerate(model.classes_)}
    tables = [("Class prior P(c)", prior_table(model).iloc[[position[c] for c in order]])]
    for column in columns_where(model.features_, lambda v: v.in_cpt_section):
        counts = view_of(model.features_[column].kind).counts_table(model, column)
        if counts is not None:
            shown = in_display_order(cpt_unreduced(counts, model.smoothing_of(column)), column)
            tables.append((f"P({column} | c)", shown.set_axis(labels_of(shown.columns), axis=1)))
    for start in range(0, len(tables), per_line):
        for cell, (title, table) in zip(st.columns(per_line), tables[start:start + per_line]):
            cell.markdown(f"**{md(title)}**")
            cell.table(md_table(table))
