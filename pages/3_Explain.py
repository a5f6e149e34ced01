"""Explain: one example's posterior, factor by factor, with the log-odds as a waterfall."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from ui import charts, formulas

ui.ensure_state()
ui.sidebar_summary()
ui.page_header("Explain", "Pick a row of the data (click it) or set the values below; the posterior is "
               "rebuilt step by step: prior, each factor P(x_a | c), joint, evidence, posterior.")

ss = st.session_state
VIEWS = ("probabilities", "logs", "exact fractions")
MAX_ROWS = 2000  # rows offered for clicking; the table is sent to the browser on every rerun


def _row_picker_ui(df: pd.DataFrame) -> None:
    """Clicking a row makes it the test example (once per new click, so later edits stay)."""
    shown = df.head(MAX_ROWS)
    event = st.dataframe(shown, on_select="rerun", selection_mode="single-row", key="explain.rows", height=230)
    if len(df) > MAX_ROWS:
        st.caption(f"The first {MAX_ROWS:,} of {len(df):,} rows; set other values in the fields below.")
    rows = event["selection"]["rows"] if event is not None else []
    picked = rows[0] if rows else None
    if picked is not None and picked != ss.get("_explain_applied_row"):
        ui.set_query_from_row(shown.iloc[picked])
    ss["_explain_applied_row"] = picked


def _query_ui(model: Any) -> dict[str, Any]:
    """One input per feature plus a 'missing' toggle; returns the row to explain."""
    kinds = formulas.feature_kinds(model)
    query, missing = ss.setdefault("query", {}), ss.setdefault("query_missing", set())
    row: dict[str, Any] = {}
    per_line = 4
    indexed = list(enumerate(kinds.items()))
    texts = [item for item in indexed if item[1][1] == "text"]
    others = [item for item in indexed if item[1][1] != "text"]
    lines = [[item] for item in texts] + [others[k:k + per_line] for k in range(0, len(others), per_line)]
    for line in lines:
        cells = st.columns(1 if line[0][1][1] == "text" else per_line)
        for cell, (i, (col, kind)) in zip(cells, line):
            with cell:
                value = _input(model, col, kind, i, query.get(col))
                is_missing = ui.synced(st.checkbox, "missing", key=f"_qm::{i}", value=col in missing,
                                       on_set=lambda v, col=col: _set_missing(col, v))
            row[col] = np.nan if is_missing else value
    return row


def _input(model: Any, col: str, kind: str, i: int, current: Any) -> Any:
    label = ui.md(col)
    key = f"_q::{i}"
    set_value = lambda v, col=col: ss["query"].__setitem__(col, v)  # noqa: E731 - a one-line callback
    if kind in ("categorical", "bernoulli"):
        options = list(model.cpt(col).index)
        if current is None or ui.state.is_missing(current):
            current = options[0]
        if current not in options:
            options.append(current)  # a value the model never saw: explained as "unseen"
        return ui.synced(st.selectbox, label, key=key, value=current, options=options, format_func=str,
                         on_set=set_value)
    if kind == "text":
        text = "" if current is None or ui.state.is_missing(current) else str(current)
        return ui.synced(st.text_area, label, key=key, value=text, height=100, on_set=set_value)
    default = ui.state.as_float(current, model.typical_value(col))
    if kind in ("multinomial", "poisson"):
        return ui.synced(st.number_input, label, key=key, value=max(default, 0.0), min_value=0.0, step=1.0,
                         format="%g", on_set=set_value)
    return ui.synced(st.number_input, label, key=key, value=default, format="%g", on_set=set_value)


def _set_missing(col: str, is_missing: bool) -> None:
    missing = set(ss.get("query_missing", set()))
    ss["query_missing"] = missing | {col} if is_missing else missing - {col}


def _result_ui(e: Any) -> None:
    classes = list(e.classes)
    cols = st.columns(min(len(classes), 4) + 1)
    cols[0].metric("Prediction (argmax)", "undetermined" if e.undetermined else str(e.prediction))
    for j, c in enumerate(classes[:4]):
        cols[j + 1].metric(f"P({ui.md(c)} | x)", ui.fmt_number(e.posterior[c]))
    for note in e.notes:
        st.info(ui.md(note))


def _factor_table(e: Any, view: str) -> pd.DataFrame:
    """Factor x class in the chosen view, with value and status; then joint and posterior."""
    classes = list(e.classes)
    values = e.factors["value"].map(lambda v: "" if v is None or ui.state.is_missing(v) else _short(v))
    table = pd.DataFrame({"value": values, "status": e.factors["status"]}, index=e.factors.index.astype(str))
    per_class = _in_view(e, view)
    for c in classes:
        table[f"{c}"] = per_class[c].to_numpy()
    return table


def _in_view(e: Any, view: str) -> pd.DataFrame:
    if view == "logs":
        return e.logs.map(ui.fmt_log)
    if view == "exact fractions":
        shown = e.fractions.copy()
        decimals = e.probabilities
        for c in shown.columns:
            shown[c] = [ui.fmt_fraction(f) if f is not None else ui.fmt_number(p)
                        for f, p in zip(shown[c], decimals[c])]
        return shown
    return e.probabilities.map(ui.fmt_number)


def _short(v: Any, limit: int = 60) -> str:
    s = str(v)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _totals_table(e: Any, view: str) -> pd.DataFrame:
    classes = list(e.classes)
    joint: list[str] = []
    for c in classes:
        if view == "logs":
            joint.append(ui.fmt_log(e.joint_log[c]))
        elif view == "exact fractions":
            exact = e.joint_fractions[c]
            joint.append(ui.fmt_fraction(exact) if exact is not None else ui.fmt_number(e.joint[c]))
        else:
            joint.append(ui.fmt_number(e.joint[c]))
    label = "log P(c) + Σ log P(x_a | c)" if view == "logs" else "joint P(c) ∏ P(x_a | c)"
    return pd.DataFrame([joint, [ui.fmt_number(e.posterior[c]) for c in classes]],
                        index=[label, "posterior P(c | x)"], columns=[str(c) for c in classes])


def _latex_ui(e: Any) -> None:
    classes = list(e.classes)
    used = e.used
    exact_joint = e.joint_fractions
    num = formulas.num
    for c in classes[:4]:
        terms = []
        for name in used:
            f = e.fractions.loc[name, c]
            terms.append(num(f if f is not None else e.probabilities.loc[name, c], max_digits=6))
        product = r" \cdot ".join(terms) if len(terms) <= 12 else r" \cdot ".join(terms[:12]) + r" \cdots"
        exact = exact_joint[c]
        value = num(e.joint[c])
        if exact is not None and exact.denominator != 1 and num(exact, max_digits=8).startswith(r"\frac"):
            value = rf"{num(exact, max_digits=8)} \approx {value}"
        st.latex(rf"P({ui.latex_text(c)})\prod_a P(x_a \mid {ui.latex_text(c)}) = {product} = {value}")
    st.latex(rf"P(x) = \sum_c P(c)\prod_a P(x_a \mid c) = {num(e.evidence)}, \qquad "
             rf"\log P(x) = {num(e.log_evidence, digits=5)}")
    if not e.undetermined:
        c = e.prediction
        st.latex(rf"P({ui.latex_text(c)} \mid x) = \frac{{P({ui.latex_text(c)})\prod_a P(x_a \mid "
                 rf"{ui.latex_text(c)})}}{{P(x)}} = \frac{{{num(e.joint[c])}}}{{{num(e.evidence)}}}"
                 rf" = {num(e.posterior[c])}")
    st.caption("Missing, unseen and undefined features are skipped: the product runs over the observed "
               "features only (seed 000, Eq. 22).")


def _waterfall_ui(e: Any) -> None:
    classes = list(e.classes)
    ranked = list(e.posterior.sort_values(ascending=False).index)
    if len(classes) == 2:
        a = e.prediction if e.prediction is not None else classes[1]
        b = classes[0] if a == classes[1] else classes[1]
    else:
        left, right = st.columns(2)
        a = left.selectbox("Class", classes, index=classes.index(ranked[0]), format_func=str, key="explain.wf_a")
        others = [c for c in classes if c != a]
        b = right.selectbox("against class", others, index=others.index(next(c for c in ranked if c != a)),
                            format_func=str, key="explain.wf_b")
    contrib = e.log_odds(a, b)
    finite = contrib[np.isfinite(contrib.to_numpy(dtype=float))]
    decisive = contrib.drop(finite.index)
    title = f"Contributions to log P({a} | x) / P({b} | x)"
    if len(finite):
        # The total is the explanation's own log-odds; a factor that decides alone makes it ±∞ (no total bar).
        total = e.joint_log[a] - e.joint_log[b] if decisive.empty else None
        st.plotly_chart(charts.waterfall(finite, title=title, total=total), key="explain.waterfall")
    for name, v in decisive.items():
        if np.isnan(v):
            st.warning(f"{ui.md(name)} has probability 0 under both {ui.md(a)} and {ui.md(b)}, so it cannot tell "
                       "them apart (0/0); smoothing (l > 0) gives it a say.")
            continue
        side = a if v > 0 else b
        st.warning(f"{ui.md(name)} alone decides between {ui.md(a)} and {ui.md(b)}: its factor is 0 for one of "
                   f"them, so the log-odds is {'+' if v > 0 else '−'}∞ in favour of {ui.md(side)}.")


def _words_ui(e: Any) -> None:
    for col, table in e.words.items():
        with st.expander(f"Words of {ui.md(col)}: each token's log P(w | c)"):
            st.dataframe(table, hide_index=True, key=f"explain.words::{col}")


@st.fragment
def explain_ui(model: Any) -> None:
    _row_picker_ui(ui.frame())
    row = _query_ui(model)
    try:
        e = model.explain(row)
    except DataError as err:
        ui.show_error(err)
        return
    st.subheader("Posterior")
    _result_ui(e)
    ss.setdefault("explain_view", VIEWS[0])
    view = ui.synced(st.radio, "Show factors as", key="_explain_view", value=ss["explain_view"], options=VIEWS,
                     horizontal=True, on_set=lambda v: ss.update(explain_view=v))
    st.markdown("**Factors** P(x_a | c) (a density for Gaussian features)")
    st.dataframe(_factor_table(e, view), key="explain.factors")
    st.dataframe(_totals_table(e, view), key="explain.totals")
    _latex_ui(e)
    st.subheader("Which feature pushed where")
    _waterfall_ui(e)
    _words_ui(e)


model = ui.require_model()
ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
explain_ui(model)
