"""The one control of the model's smoothing, on the Model page and in presentation mode.

The smoothing states its inputs (``knobs()``, nbapp.smoothing.Knob), its note and how the
settings hold it; this module only draws them and writes the change to the work. In full (the
Model page) a radio picks the kind, every input has its full label and the smoothing's note is
shown; compact (presentation mode) shows its numbers only, so a change is seen live in the mode.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.settings import SMOOTHINGS
from nbapp.smoothing import Knob, Lidstone
from ui.lecture import plain
from ui.state import set_settings, work
from ui.teaching import smoothing_symbol
from ui.widgets import synced

__all__ = ["smoothing_control", "smoothing_label"]

# The kinds the control offers, by the name its radio keeps ("lidstone", "m", "beta").
KINDS = {cls.choice: cls for cls in SMOOTHINGS.values()}


def smoothing_control(prefix: str, *, compact: bool = False) -> None:
    """The smoothing's inputs, keyed ``_{prefix}_{knob name}`` (``_model_alpha``, ``_present_m``);
    ``compact``: its numbers only, with short labels, no choice of kind and no note."""
    config = work().settings
    smoothing = config.model_smoothing
    if not compact:
        st.markdown("**Smoothing**")
        synced(st.radio, "Smoothing", key=f"_{prefix}_smoothing", value=smoothing.choice, options=list(KINDS),
               format_func=lambda kind: KINDS[kind].title, label_visibility="collapsed",
               on_set=lambda kind: set_settings(**KINDS[kind].starting(config.alpha).settings_fields()))
        if smoothing.scope is not None:     # the model's l smooths what the smoothing leaves
            fallback = Lidstone(config.alpha)
            for knob in fallback.knobs():
                _knob_ui(knob, prefix, _label(knob),
                         lambda v, knob=knob: set_settings(alpha=knob.set(fallback, v).l))
    knobs = [knob for knob in smoothing.knobs() if not (compact and knob.switch is not None)]
    for knob in knobs:
        label = _label(knob) if not compact else _symbol(knob) if len(knobs) > 1 else f"Smoothing {_symbol(knob)}"
        _knob_ui(knob, prefix, label, lambda v, knob=knob: set_settings(**knob.set(smoothing, v).settings_fields()))
    note = smoothing.note(smoothing_symbol())
    if note and not compact:
        st.caption(plain(note))


def _knob_ui(knob: Knob, prefix: str, label: str, on_set: Any) -> None:
    """One input: a check box for a switch, else a number >= 0."""
    key = f"_{prefix}_{knob.name}"
    if knob.switch is not None:
        synced(st.checkbox, label, key=key, value=bool(knob.value), on_set=on_set)
    else:
        synced(st.number_input, label, key=key, value=float(knob.value), min_value=0.0, max_value=knob.high,
               step=knob.step, format="%g", on_set=on_set)


def _label(knob: Knob) -> str:
    """The full label, "m (equivalent sample size)". Compact, a number stands by its symbol, or
    alone as "Smoothing l", so the mode's one input says what it is."""
    return f"{_symbol(knob)} ({knob.meaning})"


def _symbol(knob: Knob) -> str:
    """The knob's symbol as the example's notes write it: seeds 001 and 004 call l α."""
    return smoothing_symbol() if knob.symbol == "l" else knob.symbol


def smoothing_label(config: Any) -> str:
    """The model's smoothing in a few words (nbapp.Settings): "Lidstone l = 2", "Beta(a = 2, b = 1)
    prior for binary features, l = 1 elsewhere"."""
    smoothing = config.model_smoothing
    said = smoothing.describe()
    return said if smoothing.scope is None else f"{said} for {smoothing.scope}, l = {config.alpha:g} elsewhere"
