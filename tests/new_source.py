"""A source of data that the app does not ship: a generated table, written here the way
``ui/sources/base.py`` describes a source, and registered with one line.

It is the proof of issue 34's promise, "one module plus one line" for where data comes from:
this module is the one module (the source value: how it opens, its part of the address, its
Data page control), ``register_source(Generated)`` in the fixture below is the one line, and no
file of ui/ or pages/ names it. ``tests/test_new_source_pages.py`` walks it through Data, Model,
Explain and Evaluate::

    from new_source import generated_source  # noqa: F401  (a pytest fixture: registers the source)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest
import streamlit as st

from ui.sources import register_source, unregister_source
from ui.sources.base import Opened, Source, proposed_work

MODE = "Generated table"


def generated_frame(rows: int, seed: int) -> pd.DataFrame:
    """``rows`` rows of a seeded draw: a class ``label`` (a or b), a number ``x`` whose mean
    depends on the class, and a category ``colour`` that leans to one class."""
    rng = np.random.default_rng(seed)
    label = rng.choice(["a", "b"], rows, p=[0.4, 0.6])
    x = np.round(rng.normal(np.where(label == "a", 0.0, 2.0), 1.0), 3)
    colour = np.where(rng.random(rows) < np.where(label == "a", 0.8, 0.3), "red", "blue")
    return pd.DataFrame({"x": x, "colour": colour, "label": label})


@dataclass(frozen=True)
class Generated(Source):
    """A table drawn from ``seed``: its rows live nowhere but in this value's recipe."""

    rows: int = 120
    seed: int = 0

    mode: ClassVar[str] = MODE
    described: ClassVar[str] = "generated table"
    address_keys: ClassVar[tuple[str, ...]] = ("generated",)

    @classmethod
    def of(cls, rows: int = 120, seed: int = 0) -> "Generated":
        recipe = f"generated\0{rows}\0{seed}".encode()
        return cls(name=f"generated_{rows}_{seed}", sha256=hashlib.sha256(recipe).hexdigest(), rows=rows, seed=seed)

    def open(self) -> Opened:
        df = generated_frame(self.rows, self.seed)
        work, reasons = proposed_work(self, df, "label")
        return Opened(df, (f"Drawn with seed {self.seed}.",), work, reasons)

    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        return {"generated": f"{self.rows}-{self.seed}"}, None

    @classmethod
    def from_address(cls, query: dict[str, str]) -> "Generated | None":
        if not query.get("generated"):
            return None
        rows, seed = (int(part) for part in query["generated"].split("-"))
        return cls.of(rows, seed)

    @classmethod
    def picker_ui(cls) -> None:
        import ui

        st.button("Draw a table", key="data.generate", on_click=lambda: ui.open_source(cls.of(120, 7)))


@pytest.fixture
def generated_source():
    register_source(Generated)            # the one line
    yield Generated
    unregister_source(Generated)
