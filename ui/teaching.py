"""The notes' own terms and order on screen (issue 14): which built-in example is loaded, its
smoothing symbol (l in seed 000, α in 001 and 004), its classes and values in the order the
notes list them, and the Bernoulli "1" of each binary column."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from nbapp.examples import Example, example
from nbapp.ordering import in_declared_order, sort_values
from ui.state import set_settings, settings
from ui.text import md
from ui.widgets import synced

__all__ = ["current_example", "smoothing_symbol", "display_classes", "display_values", "in_display_order",
           "positives_ui"]


def current_example() -> Example | None:
    """The built-in example in use, or None for an upload."""
    source = st.session_state.get("source")
    key = getattr(source, "example", None)
    return example(key) if key else None


def smoothing_symbol() -> str:
    """'l' (seed 000, 003) or 'α' (seed 001, 004): how the example's notes name the pseudo-count."""
    ex = current_example()
    return ex.symbol if ex is not None and ex.symbol in ("l", "α") else "l"


def display_classes(classes: list[Any]) -> list[Any]:
    """The classes in the example's declared order (Yes before No); an upload keeps the model's order."""
    ex = current_example()
    return in_declared_order(classes, ex.class_order if ex is not None else ())


def display_values(column: str, values: list[Any]) -> list[Any]:
    """A feature's values in the example's declared order (Sunny, Overcast, Rain)."""
    ex = current_example()
    return in_declared_order(values, ex.value_order.get(column, ()) if ex is not None else ())


def in_display_order(table: pd.DataFrame, column: str | None = None) -> pd.DataFrame:
    """A value x class table with its columns (classes) and, for ``column``, its rows in display order."""
    table = table[display_classes(list(table.columns))]
    if column is not None:
        table = table.loc[display_values(column, list(table.index))]
    return table


def positives_ui(model: Any, frame: pd.DataFrame) -> None:
    """One picker per Bernoulli column: which value is the '1' (seed 002: Red, SUV, Domestic)."""
    binary = [c for c, spec in model.features_.items() if spec.kind == "bernoulli"]
    if not binary:
        return
    st.markdown('**Binary features: the value that counts as "1"**')
    cells = st.columns(min(len(binary), 4))
    for i, col in enumerate(binary):
        options = sort_values(dict.fromkeys(v for v in frame[col].dropna().tolist()))
        current = model.cpt(col).index[-1]   # Bernoulli values are (negative, positive)
        if current not in options:
            options.append(current)
        with cells[i % len(cells)]:
            synced(st.selectbox, md(col), key=f"_positive::{i}", value=current, options=options, format_func=str,
                   on_set=lambda v, col=col: set_settings(positives=_with(settings().positives, col, v)))
    st.caption("θ = P(x = 1 | c) counts the rows holding the chosen value (seed 002); the other value is 0.")


def _with(pairs: tuple[tuple[str, Any], ...], column: str, value: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted({**dict(pairs), column: value}.items(), key=lambda kv: str(kv[0])))
