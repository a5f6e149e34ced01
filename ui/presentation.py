"""Presentation mode on every teaching page (issue 23, item 1), and formulas that fit their column
on every page (item 6).

One switch, a choice of the work (:data:`PRESENTATION`), so the mode survives a page change and a
link opens in it. It sits in the sidebar; in the mode the sidebar is hidden and the switch is
drawn at the top of the page after a link to each teaching page (issue 33, item 3). The mode's
look is fixed CSS (:data:`PRESENTATION_CSS`): no user text is ever put into it, and it is the only
HTML this module writes. Type scales with the screen (``clamp(min, k * min(1vw, 1.85vh), max)``):
1280x720 gives the usual 16-18 px, 1920x1080 gives 24 px and more for tables, equations and the
posterior, and a short screen (1280x720 at 150% zoom) gets smaller type so that Explain's
posterior stays in view. Charts (:func:`projected`) and data grids (:func:`frame_ui`, shown as
tables) grow with it. Explain opens on the board when the work carries a board step.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from ui import explained
from ui.board import board_ui, chosen_step
from ui.classes import label_format, labels_of
from ui.formulas import cpt_unreduced, prior_table, totals_rows
from ui.numbers import number_columns, number_styler
from ui.smoothing_control import smoothing_control
from ui.state import set_choice, set_query, work
from ui.teaching import display_classes, in_display_order
from ui.text import fmt_number, md, md_table
from ui.views import columns_where, grouped, view_of
from ui.views.text import word_rows
from ui.widgets import show_error, synced

__all__ = ["PRESENTATION", "PRESENTATION_CSS", "FORMULA_CSS", "presenting", "presentation_ui", "formula_css_ui",
           "PREDICTION_KEY", "CORNER_KEY", "query_inputs_ui", "prediction_line",
           "explain_presentation_ui", "model_presentation_ui", "projected", "frame_ui", "TEACHING_PAGES"]

#: The work's choice of presentation mode (on or off).
PRESENTATION = "app.presentation"
#: Keys of the containers the CSS places and enlarges (Streamlit gives a keyed container the class st-key-<key>).
PREDICTION_KEY = "presentation_prediction"
CORNER_KEY = "presentation_corner"
#: The pages that present (each calls :func:`presentation_ui`): the mode's page switcher links them,
#: since the sidebar with the page menu is hidden (issue 33, item 3). Paths as app.py registers them.
TEACHING_PAGES = (("pages/2_Model.py", "Model", ":material/tune:"),
                  ("pages/3_Explain.py", "Explain", ":material/calculate:"),
                  ("pages/6_Text.py", "Text", ":material/article:"),
                  ("pages/5_Lessons.py", "Lessons", ":material/school:"),
                  ("pages/7_Exercises.py", "Exercises", ":material/quiz:"))
#: Explain's two views in the mode, and the key of their tabs (the open one is kept while Explain is shown).
FACTORS_TAB, BOARD_TAB = "Factors and posterior", "The board, step by step"
TABS_KEY = "present.tabs"        # a widget key (a ".": the page's own, tests/test_session_keys.py)

#: Long display formulas break after a relation or an operator (KaTeX splits a formula into
#: ".base" boxes there; display mode only forbids the break), and what cannot break (an aligned
#: block wider than the column) scrolls, never cut (issue 23, item 6). Scaling the type to the
#: column's width was tried (container query units): it shrank short formulas in narrow
#: columns to 8 px, so a formula keeps its size and breaks instead. A multiselect's chips wrap
#: onto more lines: in one, the last were cut at 1400 px (issue 33, item 5).
FORMULA_CSS = """<style>
.katex-display { max-width: 100%; overflow-x: auto; overflow-y: hidden; }
.katex-display > .katex { white-space: normal; }
.katex-display > .katex > .katex-html { white-space: normal; }
.katex-display .base { margin: 0.12em 0; }
[data-testid="stMultiSelectTagsContainer"]
  { flex-wrap: wrap !important; height: auto !important; overflow: visible !important; row-gap: 0.2rem; }
[data-testid="stMultiSelect"] div:has(> [data-testid="stMultiSelectTagsContainer"])
  { height: auto !important; max-height: none !important; }
[data-testid="stMultiSelectTagsContainer"] [data-tag] { max-width: 100% !important; }
</style>"""

#: Fixed CSS (no user text is ever interpolated): hide the sidebar, the header and the toolbar,
#: use the whole width, and let type grow with the screen (its width, or its height when that is the
#: shorter side: a short screen keeps the posterior in view) for a projector.
PRESENTATION_CSS = """<style>
:root { --nb-u: min(1vw, 1.85vh); }
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="collapsedControl"],
header[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"],
[data-testid="stStatusWidget"], footer { display: none !important; }
[data-testid="stMainBlockContainer"], .block-container { padding: 0.5rem 1.2rem 0.5rem 1.2rem !important;
  max-width: 100% !important; }
[data-testid="stMain"] { font-size: clamp(12px, calc(1.3 * var(--nb-u)), 36px); }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stWidgetLabel"] p,
[data-testid="stMain"] [data-testid="stTable"] th, [data-testid="stMain"] [data-testid="stTable"] td
  { font-size: clamp(11px, calc(1.3 * var(--nb-u)), 36px) !important; line-height: 1.35; }
[data-testid="stMain"] [data-testid="stTable"] td, [data-testid="stMain"] [data-testid="stTable"] th
  { padding: 0.15em 0.5em !important; }
[data-testid="stMain"] h1 { font-size: clamp(20px, calc(2.2 * var(--nb-u)), 60px) !important; padding: 0.2rem 0 !important; }
[data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: clamp(16px, calc(1.7 * var(--nb-u)), 46px) !important; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: clamp(18px, calc(2.2 * var(--nb-u)), 60px) !important; }
[data-testid="stMain"] .katex-display { margin: 0.3rem 0 !important; font-size: clamp(11px, calc(1.3 * var(--nb-u)), 36px); }
[data-testid="stMain"] .katex { font-size: 1.1em !important; }
[data-testid="stVerticalBlock"] { gap: 0.4rem !important; }
[data-testid="stMain"] .st-key-presentation_prediction [data-testid="stMarkdownContainer"] p
  { font-size: clamp(16px, calc(2.3 * var(--nb-u)), 64px) !important; font-weight: 600; line-height: 1.2 !important; }
[data-testid="stMain"] [data-baseweb="select"] div, [data-testid="stMain"] input, [data-testid="stMain"] textarea,
[data-testid="stMain"] button p { font-size: clamp(11px, calc(1.3 * var(--nb-u)), 36px) !important; }
[data-testid="stMain"] [data-testid="stMultiSelectTagsContainer"] [data-tag],
[data-testid="stMain"] [data-testid="stMultiSelectTagsContainer"] [data-tag] span
  { font-size: clamp(11px, calc(1.25 * var(--nb-u)), 32px) !important; height: auto !important; max-width: none !important; }
[data-testid="stMain"] .stPlotlyChart :is(.xtick, .ytick, .g-xtitle, .g-ytitle, .legendtext, .colorbar) text,
[data-testid="stMain"] .stPlotlyChart .legendtext
  { font-size: clamp(11px, calc(1.25 * var(--nb-u)), 24px) !important; }
[data-testid="stMain"] .stPlotlyChart :is(.gtitle, .annotation-text)
  { font-size: clamp(12px, calc(1.46 * var(--nb-u)), 28px) !important; }
[data-testid="stMain"] [data-testid="stMultiSelectTagsContainer"]
  { flex-wrap: wrap !important; height: auto !important; overflow: visible !important; row-gap: 0.2rem; }
[data-testid="stMain"] [data-testid="stMultiSelect"] div:has(> [data-testid="stMultiSelectTagsContainer"])
  { height: auto !important; max-height: none !important; }
[data-testid="stMain"] :is([data-testid="stButton"], [data-testid="stDownloadButton"]) button *
  { white-space: normal !important; text-overflow: clip !important; overflow: visible !important; }
.st-key-presentation_corner { gap: 0.2rem 0.8rem; margin-bottom: -0.4rem; }
.st-key-presentation_corner [data-testid="stPageLink"] a { padding: 0 0.4rem; }
</style>"""
#: A chart's type in the mode (px): plotly lays the figure out for these sizes, the largest the
#: CSS above gives (1920x1080 and larger); on a smaller screen the CSS shrinks the type with it,
#: so the laid-out margins only ever have room to spare (issue 33, item 3).
CHART_FONT_PX, CHART_TITLE_PX = 24, 28
#: Rows of a data grid the mode shows as a table: a screenful for a projector, not a scroll.
PROJECTED_ROWS = 15
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
    where = st.container(key=CORNER_KEY, horizontal=True, vertical_alignment="center") if on else st.sidebar
    with where:
        if on:
            _page_switcher_ui()
        synced(st.toggle, "Presentation mode", key="_presentation", value=on,
               on_set=lambda v: set_choice(PRESENTATION, bool(v)),
               help="Large type that grows with the screen, no sidebar: for a projector. The choice travels "
                    "with the page's address.")
    if on:
        st.html(PROJECTOR_CSS)
    return on


def _page_switcher_ui() -> None:
    """A link per teaching page in one row (the mode hides the sidebar's page menu); a link
    changes page in the same session, so the work goes along (issue 33, item 3)."""
    for path, label, icon in TEACHING_PAGES:
        st.page_link(path, label=label, icon=icon, width="content")


def projected(fig: Any) -> Any:
    """``fig`` with its type at projector size in the mode (its ticks, axis titles, legend and
    title; the CSS scales them with the screen), unchanged otherwise."""
    if presenting():
        # each part named: Streamlit's chart theme sets the axes' fonts, which a layout font would not reach
        fig.update_layout(font_size=CHART_FONT_PX, title_font_size=CHART_TITLE_PX, legend_font_size=CHART_FONT_PX)
        fig.update_xaxes(tickfont_size=CHART_FONT_PX, title_font_size=CHART_FONT_PX)
        fig.update_yaxes(tickfont_size=CHART_FONT_PX, title_font_size=CHART_FONT_PX)
        fig.update_annotations(font_size=CHART_TITLE_PX)      # make_subplots' titles are annotations
        # text drawn as the data (the Text page's tokens) where the figure sized it itself
        fig.update_traces(textfont_size=CHART_FONT_PX,
                          selector=lambda trace: "textfont" in trace and trace.textfont.size is not None)
    return fig


def frame_ui(where: Any, data: pd.DataFrame, *, hide_index: bool | None = None, column_config: Any = None,
             rows: int = PROJECTED_ROWS, **kwargs: Any) -> None:
    """``where.dataframe(data, ...)``; in the mode its first ``rows`` rows as a table instead: a
    data grid is drawn on a canvas that the mode's CSS cannot enlarge, a table's text it can
    (issue 33, item 3). Column labels set by ``column_config`` are kept, lists read as text."""
    if not presenting():
        where.dataframe(data, hide_index=hide_index, column_config=number_columns(data, column_config), **kwargs)
        return
    labels = {column: config["label"] for column, config in (column_config or {}).items()
              if isinstance(config, dict) and config.get("label")}
    shown = data.head(rows).map(lambda v: " · ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
    where.table(number_styler(md_table(shown.rename(columns=labels))), hide_index=hide_index)
    if len(data) > rows:
        where.caption(f"The first {rows} of {len(data):,} rows; the page without the mode shows them all.")


def formula_css_ui() -> None:
    """Long formulas break or scroll within their column (every page; issue 23, item 6)."""
    st.html(FORMULA_CSS)


# --------------------------------------------------------------------------- the controls in view


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
                    smoothing_control("present", compact=True)
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
    factors_tab, board_tab = _explain_tabs()
    if factors_tab.open:
        with factors_tab:
            _factors_ui(model, e, classes)
    if board_tab.open:
        with board_tab:
            board_ui(model, row, key="present_board")


def _explain_tabs() -> Any:
    """The factors and the board as tabs; only the open one runs (the board's exact fractions cost
    more than a click). Explain opens on the board when the work carries a board step beyond the
    first, so a lecture link lands on its line (issue 33, item 3); the open tab is kept while the
    page is shown."""
    if TABS_KEY not in st.session_state and chosen_step() > 0:
        st.session_state[TABS_KEY] = BOARD_TAB
    return st.tabs([FACTORS_TAB, BOARD_TAB], key=TABS_KEY, on_change="rerun")


def _factors_ui(model: Any, e: Any, classes: list[Any]) -> None:
    """The factor table, the totals and the equations down to the posterior."""
    st.table(md_table(_teaching_columns(explained.factor_rows(model, e, classes), classes)))
    # the densities N(x; mu, var) stand in the factor table's "counts" columns; here they would not fit
    equations = explained.explain_equations(model, e, classes, max_terms=6, densities=False)
    built = len(classes) + 1                  # without densities: each class's joint, then P(x)
    left, right = st.columns([1, 1])
    with left:
        st.table(md_table(_teaching_columns(totals_rows(e, classes), classes)))
        # the posterior's equations under the totals, not below the joints': both columns stay
        # short enough for a 1280x720 screen at 150% zoom (issue 33, item 3)
        for eq in equations[built:]:
            st.latex(eq)
    with right:
        for eq in equations[:built]:
            st.latex(eq)
    _words_ui(model, e, classes)


def _words_ui(model: Any, e: Any, classes: list[Any], *, shown: int = 15) -> None:
    """The words a text factor's row points to ("∏ words (below)"): one factor per word, its
    P(w | c) as counted and in decimals per class, the first ``shown`` words in large type
    (issue 33, item 3)."""
    for column, words in e.words.items():
        table = word_rows(model, column, words, classes)
        dropped = [c for c in table.columns if c.endswith((" training count", " contribution"))]
        statuses = [c for c in table.columns if c.endswith(" status")]
        if (table[statuses] == "used").all(axis=None):
            dropped += statuses                            # every word used: the column says nothing
        more = f", the first {shown} of {len(table)} (the page without the mode lists them all)" \
            if len(table) > shown else ""
        st.markdown(f"**Words of {md(column)}: one factor per word, per class{more}**")
        st.table(md_table(table.drop(columns=dropped).head(shown).set_index("word")))


def _top_words_tables(model: Any, classes: list[Any], n: int = 10) -> list[list[tuple[str, pd.DataFrame]]]:
    """Per block of words, a table per class: its ``n`` most probable words, their count in the
    class and their probability (P(w | c), or P(w present | c) for the Bernoulli model)."""
    rows = []
    for view, columns in grouped(model.features_):
        for column in view.word_columns(columns):
            label = view.words_label(model.features_[column])
            try:
                words = model.top_words(column, n)
            except (NotImplementedError, DataError):     # a block that ranks no words (as the Model page says)
                continue
            tables = []
            for c, name in zip(classes, labels_of(classes)):
                top = words[words["class"] == c]
                table = pd.DataFrame({"word": top["term"].to_numpy(), "count": top["count"].map(fmt_number).to_numpy(),
                                      label: top["probability"].map(fmt_number).to_numpy()},
                                     index=pd.RangeIndex(1, len(top) + 1, name="rank"))
                tables.append((f"{name}: top words of {column}, {label}", table))
            rows.append(tables)
    return rows


def model_presentation_ui(model: Any, *, per_line: int = 2) -> None:
    """Model for a projector: the smoothing in view, the priors and every CPT with its counts next
    to the fraction (3/9 = 1/3), classes and values in the notes' order, and a block of words (a
    text column) as its top words per class (issue 33, item 3); other types without a count table
    are left to the page without the mode."""
    left, right = st.columns([1, 4], vertical_alignment="bottom")
    with left:
        smoothing_control("present_model", compact=True)
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
    rows = [tables[start:start + per_line] for start in range(0, len(tables), per_line)]
    rows += _top_words_tables(model, order)           # a block of words: its classes side by side
    for row in rows:
        for cell, (title, table) in zip(st.columns(max(per_line, len(row))), row):
            cell.markdown(f"**{md(title)}**")
            cell.table(md_table(table))
