"""Lesson 8: underflow (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons.underflow import underflow_trace
from ui import charts, lessons
from ui.classes import labels_of
from ui.presentation import frame_ui, projected
from ui.views import views_of

ss = st.session_state


def render(model: Any) -> None:
    st.subheader("Underflow: why Naive Bayes adds logs")
    st.write("The joint P(c) ∏ P(x_a | c) multiplies one probability per word. A float64 cannot hold a positive "
             "number below about 4.9 × 10⁻³²⁴, so for a long document the running product becomes exactly 0.0 "
             "for every class and the posterior 0/0. The sum of logs stays an ordinary number however long the "
             f"input{ui.ref('seeds 002 and 004')}. Here the test example's text is repeated to make it long.")
    views = {c: view for c, view in views_of(model.features_).items() if view.repeatable}
    if not views:
        lessons.offer_example("Underflow needs many factors: a text or word-count feature; this model has "
                              "neither.", "sms_spam", button_key="lessons.underflow_load")
        return
    lessons.seed_example("sms_spam", button_key="lessons.underflow_load")
    _underflow_fragment(model, views)


@st.fragment
def _underflow_fragment(model: Any, views: dict[Any, Any]) -> None:
    repeat = st.slider("Repeat the test example's text (and counts)", 1, 200, 40, key=lessons.wkey("uf_repeat"))
    row = lessons.example_row(model)
    for c, view in views.items():
        row[c] = view.repeated(row[c], int(repeat))
    try:
        trace = underflow_trace(model.explain(row))
    except DataError as err:
        ui.show_error(err)
        return
    classes = trace.classes
    st.caption(f"{len(trace.product):,} factors: the prior and one per word occurrence.")
    table = pd.DataFrame({
        "raw product": [repr(float(trace.final_product[c])) for c in classes],
        "sum of logs": [f"{trace.final_log[c]:.4f}" for c in classes],
        "true joint": [f"10^{trace.final_log10[c]:.2f}" for c in classes],
        "product is 0.0 from factor": [("never" if pd.isna(trace.underflow_step[c]) else str(trace.underflow_step[c]))
                                       for c in classes],
        "posterior by products": [ui.fmt_number(trace.raw_posterior[c]) if not pd.isna(trace.raw_posterior[c])
                                  else "0/0 (undefined)" for c in classes],
        "posterior by logs": [ui.fmt_number(trace.log_posterior[c]) for c in classes],
    }, index=pd.Index(labels_of(classes), name="class"))
    frame_ui(st, table, key="lessons.underflow_table")
    if trace.underflowed:
        st.warning("The raw product reached 0.0 while the sum of logs stayed finite.")
    else:
        st.info("No underflow yet: repeat the text more often.")
    charts.show(st, projected(lessons.underflow_figure(trace.product, trace.log_sum)), key="lessons.underflow_chart")
