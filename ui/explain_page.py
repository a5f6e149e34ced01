"""The Explain page's parts: the row picker, the row's inputs, and the panel that rebuilds its
posterior step by step (prior, each factor P(x_a | c), joint, evidence, posterior) with the
log-odds as a waterfall. pages/3_Explain.py calls :func:`row_picker_ui` and :func:`explain_ui`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons.direct import direct_estimate
from ui import board, charts, explained, explorer, formulas, svg_charts
from ui import nomogram as nomogram_view
from ui import classes as classes_ui
from ui.tables import table_ui
from ui.views import view_of
from ui.views.text import word_rows

__all__ = ["row_picker_ui", "explain_ui"]

ss = st.session_state
HEADLINE = 4  # classes shown as metrics; the table below lists them (up to classes_ui.MAX_SHOWN_CLASSES)
MAX_ROWS = 2000  # rows offered for clicking; the table is sent to the browser on every rerun
DENSITIES_SECTION = "explain.densities"   # the expander of each factor's own equation
DENSITIES_OPEN = 8                        # open at first for up to this many equations
PAIR_MODE = "explain.pair_mode"   # the work's choice of classes the log-odds chart compares


@dataclass(frozen=True)
class Explained:
    """One row's explanation and the tables and equations the panel shows of it."""

    key: tuple                    # ui.model_key()
    row_key: str                  # explorer.row_key(row)
    e: Any                        # the model's Explanation of the row
    classes: list[Any]            # the classes shown, in the notes' order (Yes before No); the most probable
    posterior: pd.DataFrame       # the classes by posterior, the predicted one first
    factors: pd.DataFrame
    totals: pd.DataFrame
    equations: list[str]          # the joints, the evidence and the posteriors
    densities: list[str]          # each factor's own equation, where its type writes one
    words: dict[Any, pd.DataFrame]

    def table_key(self, table: str) -> tuple:
        """One of its tables' content key (ui.tables): the same model, row and table, the same table."""
        return (self.key, self.row_key, table)


@st.cache_resource(show_spinner=False, max_entries=64)
def _explained(key: tuple, row_key: str, _model: Any, _row: Mapping[str, Any]) -> Explained:
    """The row explained once per model (``key``) and row, shared by every rerun and session and
    never changed after it is made: a class clicking through the same rows, or a person going
    back to a value, computes nothing again (issue 32, item 4)."""
    e = _model.explain(_row)
    classes = classes_ui.shown_classes(e)
    table = classes_ui.posterior_table(e)
    if e.undetermined:       # P(x) = 0: the prior stands in for the 0/0 posterior
        table = table.rename(columns={"P(c | x)": "prior P(c) (stands in for 0/0)", "log P(c | x)": "log P(c)"})
    return Explained(key, row_key, e, classes, table, explained.factor_rows(_model, e, classes),
                     formulas.totals_rows(e, classes), explained.explain_equations(_model, e, classes, densities=False),
                     explained.factor_equations(_model, e, classes),
                     {col: word_rows(_model, col, words, classes) for col, words in e.words.items()})


@st.cache_resource(show_spinner=False, max_entries=64)
def _contributions(key: tuple, row_key: str, a: Any, b: Any, title: str, colours: svg_charts.Palette,
                   _e: Any) -> tuple[pd.Series, tuple[str, str] | None]:
    """The contributions of ``a`` against ``b`` (a class or "rest") and their waterfall (its SVG and
    words), ending in the model's own log-odds (none when no factor is finite), once per model,
    row, pair and theme."""
    contrib = _e.contributions(a, b)
    finite = _finite(contrib)
    if not len(finite):
        return contrib, None
    decided = len(finite) < len(contrib)        # a factor that decides alone: the log-odds is ±∞, no total bar
    total = None if decided else float(contrib.attrs["log_odds"])
    data = svg_charts.waterfall_data(charts.waterfall(finite, title=title, total=total))
    return contrib, (svg_charts.waterfall_svg(data, colours), data["words"])


def row_picker_ui(df: pd.DataFrame) -> None:
    """Clicking a row makes it the test example (once per new click, so later edits stay)."""
    if df.empty:
        st.caption("No data rows to pick from (a model file open alone): set the values below.")
        return
    shown = df.head(MAX_ROWS)
    event = st.dataframe(shown, on_select="rerun", selection_mode="single-row", key="explain.rows", height=230)
    if len(df) > MAX_ROWS:
        st.caption(f"The first {MAX_ROWS:,} of {len(df):,} rows; set other values in the fields below.")
    rows = event["selection"]["rows"] if event is not None else []
    picked = rows[0] if rows else None
    if picked is not None and picked != ss.get("explain_applied_row"):
        ui.set_query_from_row(shown.iloc[picked])
        ui.set_choice(PAIR_MODE, "runner_up")  # the log-odds chart follows the new prediction
    ss["explain_applied_row"] = picked


def _query_ui(model: Any) -> dict[str, Any]:
    """One input per feature plus a 'missing' toggle; returns the row to explain."""
    work = ui.work()
    row: dict[str, Any] = {}
    per_line = 4
    indexed = [(i, col, view_of(spec.kind)) for i, (col, spec) in enumerate(model.features_.items())]
    wide = [item for item in indexed if item[2].wide_input]
    others = [item for item in indexed if not item[2].wide_input]
    lines = [[item] for item in wide] + [others[k:k + per_line] for k in range(0, len(others), per_line)]
    for line in lines:
        cells = st.columns(1 if line[0][2].wide_input else per_line)
        for cell, (i, col, view) in zip(cells, line):
            with cell:
                value = view.explain_input(model, col, work.query.get(col), f"_q::{i}",
                                           lambda v, col=col: ui.set_query(col, v))
                is_missing = ui.synced(st.checkbox, "missing", key=f"_qm::{i}", value=col in work.missing,
                                       on_set=lambda v, col=col: ui.set_query(col, missing=bool(v)))
            row[col] = np.nan if is_missing else value
    return row


def _result_ui(shown: Explained) -> None:
    """The prediction and the classes by posterior, the predicted one first; every class in the table."""
    e = shown.e
    ranked = classes_ui.ranked_classes(e)
    head = ranked[:HEADLINE]
    cols = st.columns(len(head) + 1)
    # P(x) = 0: every joint is 0, the posterior 0/0; the numbers shown are the prior standing in
    # (the totals table's "prior in place of 0/0"), and no class is predicted.
    name = classes_ui.label_format(e.classes)
    cols[0].metric("Prediction (argmax)", "none: P(x) = 0" if e.undetermined else ui.md(name(e.prediction)))
    for j, c in enumerate(head):
        label = f"prior P({ui.md(name(c))}) (stands in for 0/0)" if e.undetermined else f"P({ui.md(name(c))} | x)"
        cols[j + 1].metric(label, ui.fmt_number(e.posterior[c]))
    if len(ranked) > classes_ui.MAX_SHOWN_CLASSES:
        st.caption(classes_ui.classes_note(len(ranked), "posterior") + " The predicted class comes first:")
    elif len(ranked) > HEADLINE:
        st.caption(f"All {len(ranked)} classes, the predicted one first, then by posterior:")
    table_ui(st, shown.posterior, hide_index=True, key="explain.posterior", content_key=shown.table_key("posterior"))
    for note in e.notes:
        st.info(ui.md(ui.lecture.plain(note)))
    if underflow := explained.underflow_note(e):
        st.info(underflow)


def _factors_ui(shown: Explained) -> None:
    """The factor table and the totals, each factor as counted (3/9), reduced (1/3), as a decimal
    and as a log, side by side for every class (seed 000, Eq. 5 and 22)."""
    st.markdown("**Factors** P(x_a | c): as counted, reduced, decimal and log (a density for Gaussian features)")
    table_ui(st, shown.factors, key="explain.factors", content_key=shown.table_key("factors"))
    table_ui(st, shown.totals, key="explain.totals", content_key=shown.table_key("totals"))
    st.caption("joint = P(c) · ∏ P(x_a | c) over the used factors; evidence P(x) = Σ_c joint; "
               "posterior = joint / P(x).")
    if len(shown.classes) < len(shown.e.classes):     # the evidence still sums every class's joint
        st.caption(classes_ui.classes_note(len(shown.e.classes), "posterior"))


def _latex_ui(shown: Explained) -> None:
    for eq in shown.equations:
        st.latex(eq)
    st.caption("Missing, unseen and undefined features are skipped: the product runs over the observed "
               f"features only{ui.ref('seed 000, Eq. 22')}.")
    if not shown.densities:
        return
    # One equation per numeric feature and class: open when they are a few (the lectures' worked
    # examples), else drawn only once opened (a click redraws every equation on screen: about 4 ms
    # each in Chromium here when its numbers changed; issue 32, item 3). Opened or closed, it stays
    # so for the next rows.
    section = st.expander(f"Each numeric factor P(x_a | c) with its formula and numbers ({len(shown.densities)} "
                          "equations)", expanded=len(shown.densities) <= DENSITIES_OPEN, key=DENSITIES_SECTION,
                          on_change="rerun")
    if section.open:
        with section:
            for eq in shown.densities:
                st.latex(eq)


def _direct_ui(e: Any, classes: list[Any]) -> None:
    """Seed 000, Eq. 1-2: count the training rows equal to x exactly; usually none, hence Naive Bayes."""
    work = ui.work()
    row = {c: v for c, v in work.query.items() if c not in work.missing}
    if work.target not in ui.frame().columns:
        return
    title = f"Without the naive assumption: how many training rows equal x exactly?{ui.ref('seed 000, Eq. 1-2')}"
    name = classes_ui.label_format(classes)
    section = st.expander(title, key="explain.direct", on_change="rerun")
    if not section.open:       # counting the rows equal to x scans the data: only when opened
        return
    direct = direct_estimate(ui.frame(), work.target, row, work.weight)
    with section:
        counts = ", ".join(f"{ui.md(name(c))}: {formulas.num(direct.loc[c, 'matches'])}" for c in classes
                           if c in direct.index)
        total = direct["total"].iloc[0] if len(direct) else 0
        where = f" in the page's sample of {len(ui.frame()):,} rows" if work.source.sampled else ""
        st.markdown(f"Rows equal to x on every given feature{where} (|B|): **{formulas.num(total)}**; "
                    f"by class (|C|): {counts}.")
        if total == 0:
            st.markdown("p̂(y = c | x) = |C| / |B| = 0/0 is undefined for every class: no training row is x. "
                        f"This is why Naive Bayes estimates p(x | y) feature by feature instead{ui.ref('Eq. 3-4')}.")
        else:
            st.markdown("p̂(y = c | x) = |C| / |B|: " + ", ".join(
                f"{ui.md(name(c))} {direct.loc[c, 'estimate']}" for c in classes if c in direct.index))


def _waterfall_ui(shown: Explained) -> None:
    """The log-odds of the current prediction against the runner-up, or a pair / one class
    against the rest on request (reset to the default whenever a new row is picked)."""
    e = shown.e
    ranked = classes_ui.ranked_classes(e)[:classes_ui.MAX_SHOWN_CLASSES]   # the choices: the most probable
    name = classes_ui.label_format(e.classes)
    modes = list(classes_ui.PAIR_MODES)
    if len(ranked) == 2:
        mode = "runner_up"
    else:
        chosen = ui.work().choice(PAIR_MODE)
        mode = ui.synced(st.radio, "Compare", key="_explain_pair_mode", value=chosen if chosen in modes else modes[0],
                         options=modes, format_func=classes_ui.PAIR_MODES.get, horizontal=True,
                         on_set=lambda v: ui.set_choice(PAIR_MODE, v))
    a, b = classes_ui.default_pair(e)
    if mode == "pair":
        left, right = st.columns(2)
        a = left.selectbox("Class", ranked, index=0, format_func=name, key="explain.wf_a")
        others = [c for c in ranked if c != a]
        b = right.selectbox("against class", others, index=0, format_func=name, key="explain.wf_b")
    elif mode == "rest":
        a = st.selectbox("Class", ranked, index=0, format_func=name, key="explain.wf_one")
        _one_vs_rest_ui(shown, a)
        return
    _pair_chart_ui(shown, a, b)


def _pair_chart_ui(shown: Explained, a: Any, b: Any) -> None:
    name = classes_ui.label_format(shown.e.classes)
    a_shown, b_shown = name(a), name(b)
    contrib = _contributions_ui(shown, a, b, f"Contributions to log P({a_shown} | x) / P({b_shown} | x)")
    for factor, v in contrib.drop(_finite(contrib).index).items():
        if np.isnan(v):
            st.warning(f"{ui.md(factor)} has probability 0 under both {ui.md(a_shown)} and {ui.md(b_shown)}, so it "
                       "cannot tell them apart (0/0); smoothing (l > 0) gives it a say.")
            continue
        side = a_shown if v > 0 else b_shown
        st.warning(f"{ui.md(factor)} alone decides between {ui.md(a_shown)} and {ui.md(b_shown)}: its factor is 0 "
                   f"for one of them, so the log-odds is {'+' if v > 0 else '−'}∞ in favour of {ui.md(side)}.")


def _finite(contrib: pd.Series) -> pd.Series:
    return contrib[np.isfinite(contrib.to_numpy(dtype=float))]


def _contributions_ui(shown: Explained, a: Any, b: Any, title: str) -> pd.Series:
    """The contributions as a waterfall ending in the model's own log-odds, and the sentence that
    says they add up to it: prior + contributions = log-odds (Explanation.contributions)."""
    contrib, drawn = _contributions(shown.key, shown.row_key, a, b, title, svg_charts.palette(), shown.e)
    if drawn is not None:
        charts.show_svg(st, *drawn)
    st.markdown(explained.adds_up(contrib, classes_ui.label_format(shown.e.classes)))
    for note in contrib.attrs.get("notes", ()):
        st.caption(ui.md(ui.lecture.plain(note)))
    return contrib


def _one_vs_rest_ui(shown: Explained, a: Any) -> None:
    table, total = classes_ui.one_vs_rest(shown.e, a)
    label = classes_ui.label_format(shown.e.classes)(a)
    st.metric(f"log P({ui.md(label)} | x) / P(not {ui.md(label)} | x)", ui.fmt_log(total))
    _contributions_ui(shown, a, "rest", f"Contributions to log P({label} | x) / P(not {label} | x)")
    st.caption(f"Each factor's log-odds of {ui.md(label)} against every other class (a column per class, the "
               "most probable first): against one class at a time the factors add up by themselves.")
    table_ui(st, table.map(ui.fmt_log), key="explain.one_vs_rest")


def _words_ui(shown: Explained) -> None:
    """One factor per word: its fraction, training count and status per class (UNK is per class,
    seed 004), open by default for a short document."""
    for col, rows in shown.words.items():
        with st.expander(f"Words of {ui.md(col)}: one factor per word, per class",
                         expanded=len(shown.e.words[col]) <= 20):
            table_ui(st, rows, hide_index=True, key=f"explain.words::{col}")


@st.fragment
def explain_ui(model: Any) -> None:
    """The row's panel: a click on it reruns this fragment, not the page (nor the table of rows
    above it, which a click does not change: a row picked there reruns the page)."""
    row = _query_ui(model)
    ui.state.remember_work()       # a panel's rerun skips the page's start, which writes the address
    key = ui.model_key()
    try:
        shown = _explained(key, explorer.row_key(row), model, row)
    except DataError as err:
        ui.show_error(err)
        return
    explorer.explorer_ui(model, row, key)
    st.subheader("Posterior")
    _result_ui(shown)
    _factors_ui(shown)
    _latex_ui(shown)
    board.board_expander_ui(model, row)
    _direct_ui(shown.e, shown.classes)
    st.subheader("Which feature pushed where")
    _waterfall_ui(shown)
    _words_ui(shown)
    _nomogram_section_ui(model, shown.e)


def _nomogram_section_ui(model: Any, e: Any) -> None:
    """Možina's nomogram, drawn only while its section is open (the scales once per model)."""
    section = st.expander("Nomogram: read the probability off one axis of points (Možina et al. 2004)",
                          key="explain.nomogram", on_change="rerun")
    if section.open:
        with section:
            try:
                nomogram_view.nomogram_ui(model, e, classes_ui.label_format(e.classes))
            except DataError as err:
                ui.show_error(err)
