"""The control of the class prior P(c): empirical, uniform or typed per class (a form, so a
half-typed set never stops the page), and the Dirichlet pseudo-count on the class counts."""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.decimals import input_format
from nbapp.errors import DataError
from nbapp.priors import check_priors
from ui.classes import MAX_SHOWN_CLASSES, label_format
from ui.state import class_list, current_model, set_settings, settings
from ui.text import md
from ui.widgets import synced

__all__ = ["class_prior_control"]

PRIORS = {"empirical": "empirical (class frequencies)", "uniform": "uniform (MLE decision)",
          "custom": "custom per class"}


def class_prior_control(config: Any) -> None:
    """The prior's kind, its per-class inputs when custom, and the Dirichlet pseudo-count."""
    st.markdown("**Class prior**")
    synced(st.radio, "Class prior", key="_model_priors", value=_priors_kind(config), options=list(PRIORS),
           format_func=PRIORS.get, label_visibility="collapsed", on_set=_priors_changed)
    if _priors_kind(config) == "custom":
        _custom_priors_ui(class_list())
    synced(st.number_input, "Dirichlet pseudo-count on the class counts (0 = none)",
           key="_model_prior_alpha", value=float(config.prior_alpha), min_value=0.0, step=0.5, format="%g",
           on_set=lambda v: set_settings(prior_alpha=float(v)))


def _priors_kind(config: Any) -> str:
    return config.priors if isinstance(config.priors, str) else "custom"


def _priors_changed(kind: str) -> None:
    set_settings(priors=_model_priors() if kind == "custom" else kind)


def _model_priors() -> tuple[tuple[Any, float], ...]:
    """The fitted model's P(c), the starting point of custom priors (uniform if it cannot be fitted)."""
    try:
        priors = current_model().priors_
    except DataError:
        classes = class_list()
        return tuple((c, 1 / len(classes)) for c in classes)
    return tuple((c, float(p)) for c, p in priors.items())


def _custom_priors_ui(classes: list[Any]) -> None:
    """One input per class in a form: the model changes on submit only, so a half-typed set of
    priors never stops the page; nbapp's check_priors refuses a set that does not sum to 1."""
    ss = st.session_state
    in_use = settings().priors
    given = dict(in_use)
    fresh = ss.get("model_priors_shown") != in_use  # else keep what was typed, e.g. a refused set
    ss["model_priors_shown"] = in_use
    if fresh:
        ss["model_prior_error"] = None
    if len(classes) > MAX_SHOWN_CLASSES:      # one input per class: past the limit, no page of inputs
        st.info(f"Custom priors are typed one per class, for up to {MAX_SHOWN_CLASSES} classes; this target has "
                f"{len(classes):,}. Give them in Python instead: model.with_priors({{class: probability, ...}}).")
        return
    label = label_format(classes)
    with st.form("model.custom_priors", border=False):
        for i, c in enumerate(classes):
            if fresh or f"_model_prior::{i}" not in ss:
                ss[f"_model_prior::{i}"] = float(given.get(c, 0.0))
            st.number_input(f"P({md(label(c))})", key=f"_model_prior::{i}", min_value=0.0, max_value=1.0,
                            step=0.01, format=input_format(ss[f"_model_prior::{i}"]))
        use, scale = st.columns(2)
        use.form_submit_button("Use these priors", on_click=_submit_priors, args=(classes, False),
                               key="model.priors_use")
        scale.form_submit_button("Normalise and use", on_click=_submit_priors, args=(classes, True),
                                 key="model.priors_normalise", help="Divide every prior by their sum.")
    if ss.get("model_prior_error"):
        st.error(md(ss["model_prior_error"]))
    st.caption(f"Sum of the custom priors in use: {sum(given.get(c, 0.0) for c in classes):g}")


def _submit_priors(classes: list[Any], normalise: bool) -> None:
    """The form's callback: store the typed priors (scaled to sum 1 when asked) if nbapp accepts them."""
    ss = st.session_state
    typed = {c: float(ss[f"_model_prior::{i}"]) for i, c in enumerate(classes)}
    total = sum(typed.values())
    if normalise and total > 0:
        typed = {c: p / total for c, p in typed.items()}
    try:
        check_priors(typed)
    except DataError as err:
        ss["model_prior_error"] = str(err)
        return
    ss["model_prior_error"] = None
    set_settings(priors=tuple(typed.items()))
