"""A built-in example (nbapp.examples): its rows, types, l and test example given by the lecture."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd
import streamlit as st

import nbapp
from nbapp.examples import EXAMPLES, example, load_example
from nbapp.errors import DataError
from ui.sources.base import Opened, Source
from ui.work import IGNORE, Work

DEFAULT_EXAMPLE = "tennis14"


@st.cache_data(show_spinner=False, max_entries=16)
def _example_frame(key: str) -> pd.DataFrame:
    return load_example(key)


@st.cache_data(show_spinner=False, max_entries=16)
def _example_sha(key: str) -> str:
    return hashlib.sha256(example(key).path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Example(Source):
    """Built-in example ``example`` (its key in nbapp.examples)."""

    example: str = DEFAULT_EXAMPLE

    mode: ClassVar[str] = "Built-in example"
    lecture_references: ClassVar[bool] = True
    described: ClassVar[str] = "built-in example"

    @classmethod
    def of(cls, key: str) -> "Example":
        return cls(name=example(key).file, sha256=_example_sha(key), example=key)

    @property
    def example_key(self) -> str:
        return self.example

    def open(self) -> Opened:
        ex = example(self.example)
        df = _example_frame(self.example)
        given = ex.feature_specs()
        columns = [c for c in df.columns if c != ex.target]
        work = Work(source=self, target=ex.target, weight=ex.weight,
                    features={c: given.get(c, IGNORE) for c in columns},
                    settings=nbapp.Settings(alpha=float(ex.alpha)), query=dict(ex.query),
                    missing={c for c in ex.features if c not in ex.query})
        reasons = {c: ("set by the example" if c in ex.features else
                       "frequency weight" if c == ex.weight else "not used by the example") for c in columns}
        return Opened(df, (), work, reasons)

    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        return {"example": str(self.example)}, None

    @classmethod
    def from_address(cls, query: dict[str, str]) -> "Example | None":
        if not query.get("example") or query.get("data"):
            return None
        if query["example"] not in {ex.key for ex in EXAMPLES}:
            raise DataError(f"there is no built-in example {query['example']!r}")
        return cls.of(query["example"])

    # -- the Data page -----------------------------------------------------------------------------
    @classmethod
    def picker_ui(cls) -> None:
        import ui

        source = ui.work().source
        key = ui.synced(st.selectbox, "Example", key="_data_example", value=source.example_key or DEFAULT_EXAMPLE,
                        options=[ex.key for ex in EXAMPLES], format_func=lambda k: example(k).title,
                        on_set=ui.load_example_into_state)
        ex = example(key)
        st.markdown(f"*{ex.story}*  \n{ui.cite(ex.seed + '. ')}{ex.notes}")

    @classmethod
    def chosen(cls, current: Source) -> None:
        """Back to the examples: the last example used."""
        import ui

        if not isinstance(current, cls):
            ui.load_example_into_state(st.session_state.get("last_example") or DEFAULT_EXAMPLE)
