"""Issue 13, the app side: every class visible on Explain, work that survives a reload, models
that travel without their data, and words for analysts (AppTest; the browser journey is in
tests/e2e/test_analyst_journey.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"Data": "pages/1_Data.py", "Model": "pages/2_Model.py", "Explain": "pages/3_Explain.py",
         "Evaluate": "pages/4_Evaluate.py"}


@pytest.fixture(autouse=True)
def clear_caches():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def start(**query: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, name: str) -> AppTest:
    at.switch_page(PAGES[name]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == name
    return at


def upload(at: AppTest, name: str, data: bytes, mime: str = "text/csv") -> AppTest:
    at.radio(key="_data_mode").set_value("Upload a file").run()
    at.file_uploader(key="data.uploader").set_value((name, data, mime)).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric_labels(at: AppTest) -> list[str]:
    return [re.sub(r"\\([^\w\s])", r"\1", m.label) for m in at.metric]


def texts(at: AppTest, kind: str) -> list[str]:
    return [re.sub(r"\\([^\w\s])", r"\1", el.value) for el in getattr(at, kind)]


def weather_like(n_classes: int, rows_per_class: int = 6, seed: int = 0, spread: float = 1.0) -> bytes:
    """Classes named so that the most frequent one sorts last ("zsun"), one numeric and one
    categorical feature that separate the classes."""
    rng = np.random.default_rng(seed)
    names = [f"c{i:02d}" for i in range(n_classes - 1)] + ["zsun"]
    rows = []
    for i, name in enumerate(names):
        n = rows_per_class * (3 if name == "zsun" else 1)
        for _ in range(n):
            rows.append({"temp": round(float(rng.normal(10 * i, spread)), 3), "sky": f"s{i % 7}", "weather": name})
    return pd.DataFrame(rows).to_csv(index=False).encode()


def plot_titles(at: AppTest) -> list[str]:
    return [json.loads(el.proto.spec)["layout"].get("title", {}).get("text", "") for el in at.get("plotly_chart")]


# -- every class visible -----------------------------------------------------------------------------


def test_the_predicted_class_is_shown_even_when_it_sorts_last():
    at = upload(start(), "weather.csv", weather_like(5))
    open_page(at, "Explain")
    # the last row of the data is "zsun", the fifth class alphabetically
    at.session_state["explain.rows"] = {"selection": {"rows": [29], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert at.metric[0].value == "zsun"
    assert metric_labels(at)[1] == "P(zsun | x)"
    products = [s for s in texts(at, "latex") if r"\prod_a P(x_a \mid" in s and "= " in s]
    assert any(r"P(\text{zsun})\prod_a" in s for s in products), products


def test_nineteen_classes_are_all_listed_with_the_prediction_first():
    at = upload(start(), "many.csv", weather_like(19))
    open_page(at, "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [7], "columns": [], "cells": []}}
    at.run()
    posterior = [d.value for d in at.dataframe if "P(c | x)" in d.value.columns][0]
    assert len(posterior) == 19
    assert posterior["class"].iloc[0] == at.metric[0].value == "c01"
    assert posterior["P(c | x)"].is_monotonic_decreasing
    assert posterior["P(c | x)"].sum() == pytest.approx(1.0)


def test_the_log_odds_chart_follows_a_newly_clicked_row():
    at = upload(start(), "weather.csv", weather_like(5))
    open_page(at, "Explain")
    at.session_state["explain.rows"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert any(t.startswith("Contributions to log P(c00 | x) / P(") for t in plot_titles(at)), plot_titles(at)
    at.session_state["explain.rows"] = {"selection": {"rows": [29], "columns": [], "cells": []}}
    at.run()
    assert any(t.startswith("Contributions to log P(zsun | x) / P(") for t in plot_titles(at)), plot_titles(at)


def test_one_class_against_the_rest_gives_the_exact_total():
    at = upload(start(), "weather.csv", weather_like(5, spread=12.0))
    open_page(at, "Explain")
    at.radio(key="_explain_pair_mode").set_value("rest").run()
    assert not at.exception
    label = [m for m in at.metric if m.label.startswith("log P(")][0]
    posterior = [d.value for d in at.dataframe if "P(c | x)" in d.value.columns][0]
    p = posterior["P(c | x)"].to_numpy()
    assert 0 < p[0] < 1
    assert float(label.value) == pytest.approx(np.log(p[0] / p[1:].sum()), rel=1e-4, abs=1e-4)
