"""The notes' own terms and order on screen (issue 14): which built-in example is loaded, its
smoothing symbol (l in seed 000, α in 001 and 004), its classes and values in the order the
notes list them; seed 004's three-way split. (Presentation mode is ui.presentation's.)"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from nbapp.examples import Example, example
from nbapp.lessons.three_way import tune_on_development
from nbapp.ordering import in_declared_order
from nbapp.propose import check_target
from ui.kept import keep, kept
from ui.lecture import ref
from ui.numbers import number_columns
from ui.state import frame, work
from ui.widgets import show_error

__all__ = ["current_example", "smoothing_symbol", "display_classes", "display_values", "in_display_order",
           "three_way_ui", "query_row"]


def current_example() -> Example | None:
    """The built-in example in use, or None for an upload."""
    current = st.session_state.get("work")
    key = current.source.example_key if current is not None else None
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


def three_way_ui() -> None:
    """Seed 004's training / development / test data: l chosen on development rows, test scored once."""
    ss = st.session_state
    current = work()
    st.subheader(f"Training, development and test data{ref('seed 004')}")
    sample = f" On the page's sample of {len(frame()):,} rows." if current.source.sampled else ""
    st.caption("Training rows estimate the counts, development rows choose the smoothing "
               f"{smoothing_symbol()}, and the test rows are scored once, for the chosen value only.{sample}")
    left, middle, right = st.columns(3)
    dev = left.slider("Development share", 0.1, 0.4, 0.2, 0.05, key="eval.three_dev")
    test = middle.slider("Test share", 0.1, 0.4, 0.2, 0.05, key="eval.three_test")
    seed = right.number_input("Seed", min_value=0, value=0, step=1, key="eval.three_seed")
    key = (current.model_key(), dev, test, int(seed))
    if st.button("Tune on the development data", key="eval.three_run", icon=":material/tune:"):
        lidstone = dataclasses.replace(current.settings, smoothing=None)
        try:
            data, _ = check_target(frame(), current.target)
            keep("evaluate.three_way", key, tune_on_development(
                lambda l: current.replace(settings=dataclasses.replace(lidstone, alpha=l)).make_model(), data,
                current.target, dev_size=dev, test_size=test, seed=int(seed), weight=current.weight))
        except DataError as err:
            show_error(err)
            return
    result = kept("evaluate.three_way", key)
    if result is None:
        return
    symbol = smoothing_symbol()
    shown = result.table.rename_axis(symbol).rename(columns={
        "train_accuracy": "training accuracy", "dev_accuracy": "development accuracy",
        "dev_log_loss": "development log-loss"})
    st.dataframe(shown, key="eval.three_table", column_config=number_columns(shown))
    c1, c2, c3 = st.columns(3)
    c1.metric(f"Chosen {symbol} (best on development)", f"{result.chosen:g}")
    c2.metric("Test accuracy (once, chosen model)", f"{result.test_accuracy:.3f}")
    c3.metric("Rows: training / development / test",
              " / ".join(str(result.sizes[p]) for p in ("train", "development", "test")))


# --------------------------------------------------------------------------- the Explain row


def query_row(model: Any) -> dict[str, Any]:
    """The test example as set on the Explain page (missing features as NaN), without its inputs."""
    return work().row(model.features_)
