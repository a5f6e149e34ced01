"""Lesson 2: prior vs evidence (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons import prior_evidence
from ui import charts, lessons
from ui.classes import label_format
from ui.presentation import projected
from ui.teaching import display_classes

ss = st.session_state


def render(model: Any) -> None:
    st.subheader("Prior vs evidence")
    st.write(f"Bayes' rule is posterior = likelihood × prior / normalisation{ui.ref('seed 004')}. In log-odds "
             "the prior is one term, log P(a)/P(b), next to one log-likelihood ratio per feature; a new prior needs "
             f"no refit. The bikes example{ui.ref('seed 004')}: a teal bike is a Veoride when 20% of bikes are "
             "Veorides, but a private bike when only 2% are. If moving the prior \"does nothing\", the features' "
             "ratios simply outweigh it: the bar "
             "below compares the two.")
    lessons.seed_example("bikes", button_key="lessons.prior_load")
    row = lessons.example_row(model)
    try:
        e = model.explain(row)
    except DataError as err:
        ui.show_error(err)
        return
    _prior_fragment(model, row, e)


@st.fragment
def _prior_fragment(model: Any, row: dict[str, Any], e: Any) -> None:
    classes = display_classes(list(e.classes))          # the notes' order (Yes before No), as every page
    default = "veoride" if "veoride" in classes else (e.prediction if e.prediction is not None else classes[0])
    name = label_format(classes)
    left, right = st.columns(2)
    cls = left.selectbox("Class whose prior moves", classes, index=classes.index(default), format_func=name,
                         key=lessons.wkey("prior_class"))
    current = float(model.priors_[cls])
    p = right.slider(f"P({ui.md(name(cls))})", 0.0, 1.0, value=current, step=0.01, format="%.3f",
                     key=lessons.wkey(f"prior_p::{classes.index(cls)}"))
    moved = lessons.model_with_priors(model, prior_evidence.moved_priors(e, cls, p)).explain(row)
    cols = st.columns(min(len(classes), 4) + 1)
    # prediction and posterior from the one explanation: undetermined shows no class, and its
    # posterior is the (moved) prior, which nbapp falls back to when every class has probability 0
    cols[0].metric("Prediction", "–" if moved.undetermined else ui.md(name(moved.prediction)))
    for col, c in zip(cols[1:], classes[:4]):
        col.metric(f"P({ui.md(name(c))} | x)", ui.fmt_number(moved.posterior[c]))
    if moved.undetermined:
        st.info("Every class has probability 0 for this example (a factor is 0 for each class), so there is no "
                "prediction and the posterior shown falls back to the prior.")
    if len(classes) < 2:
        return
    other = next(c for c in moved.joint_log.sort_values(ascending=False, kind="stable").index if c != cls)
    split = prior_evidence.prior_vs_evidence(moved, cls, other)
    left, right = st.columns(2)
    charts.show(left, projected(lessons.prior_sweep_figure(prior_evidence.prior_sweep(e, cls), cls, p,
                                                           prior_evidence.prior_vs_evidence(e, cls, other).break_even_prior)),
                key="lessons.prior_sweep")
    charts.show(right, projected(lessons.prior_evidence_bar(split.log_prior_ratio, split.log_likelihood_ratios, cls, other)),
                key="lessons.prior_bar")
    net = split.log_likelihood_ratio
    if not np.isfinite(net):
        st.markdown(f"Against **{ui.md(other)}**: a factor is 0 for one of the two classes (no smoothing), so the "
                    "evidence alone decides and no prior can change the answer; smoothing (l > 0) gives the prior "
                    "a say again.")
        return
    decides = "the prior" if split.prior_dominates else "the evidence"
    st.markdown(f"Against **{ui.md(other)}** (signed log-odds, + favours {ui.md(cls)}): log prior ratio "
                f"{split.log_prior_ratio:+.3f}, net evidence {net:+.3f}, together {split.log_posterior_ratio:+.3f}, "
                f"so **{decides}** decides. {ui.md(cls)} wins above P({ui.md(cls)}) / (P({ui.md(cls)}) + "
                f"P({ui.md(other)})) = {ui.fmt_number(split.break_even_prior)}.")
