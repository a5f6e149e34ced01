"""AppTest of issue 13's analyst parts: the Gaussian epsilon on the Model page, the Evaluate
page's log-loss, curves, comparison and importance, and the workbook sheet picker."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
import streamlit as st

from conftest import biopsy_like
from tests.test_pages import metric, open_page, start, texts, upload


@pytest.fixture(autouse=True)
def clear_caches():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def _biopsy_with_id_gaussian():
    at = upload(start(), "biopsy.csv", biopsy_like().to_csv(index=False).encode())
    assert at.session_state["types"]["ID"] == "ignore"          # the proposal protects the model
    columns = list(at.session_state["types"])
    at.selectbox(key=f"_type::{columns.index('ID')}").set_value("gaussian").run()
    assert not at.exception
    return at


def test_the_model_page_names_the_column_that_sets_epsilon_and_warns():
    at = open_page(_biopsy_with_id_gaussian(), "Model")
    captions = " ".join(texts(at, "caption"))
    assert "the variance of column ID, the largest" in captions
    assert any("set by column 'ID'" in w for w in texts(at, "warning"))
    at.radio(key="_model_var_smoothing_mode").set_value("per_feature").run()
    assert not at.exception
    assert at.session_state["model"].var_smoothing_mode == "per_feature"
    assert not any("set by column 'ID'" in w for w in texts(at, "warning"))
