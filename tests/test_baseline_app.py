"""Evaluate's "Compare with logistic regression" and the generative-vs-discriminative lesson use
every modelled column and list each with its encoding next to the result; a column the baseline
cannot encode is refused with a sentence naming it (issue 22, item 3; the library's side is
tests/test_baseline.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest

from apptest_helpers import clear_caches, open_page, start, table, texts, upload  # noqa: F401 (autouse fixture)
from nbapp.blocks import register, unregister
from nbapp.blocks.base import Spec
from nbapp.blocks.kde import KDEBlock

TYPES = {"city": "categorical", "temp": "gaussian", "rain": "kde", "visits": "poisson", "hours": "discretized",
         "note": "text"}


def _table() -> bytes:
    rng = np.random.default_rng(3)
    n = 120
    label = rng.choice(["wet", "dry"], n)
    wet = label == "wet"
    frame = pd.DataFrame({
        "city": rng.choice(["north", "south", "east"], n),
        "temp": np.round(rng.normal(15, 4, n) - 3 * wet, 2),
        "rain": np.round(np.where(wet, rng.gamma(2.0, 2.0, n), rng.gamma(0.5, 0.5, n)), 2),
        "visits": rng.poisson(np.where(wet, 2, 5)),
        "hours": np.round(rng.uniform(0, 10, n) + 2 * wet, 2),
        "note": np.where(wet, "grey cloud rain", "sun blue sky"),
        "label": label,
    })
    return frame.to_csv(index=False).encode()


def _typed(at):
    at.session_state["work"] = at.session_state["work"].replace(
        target="label", features={**at.session_state["work"].features, **TYPES})
    return at


def _compare(at):
    at = open_page(at, "Evaluate")
    at.toggle(key="eval.compare").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_comparison_uses_every_column_and_lists_its_encoding():
    from nbapp.sklearn import logistic_regression_scores

    at = _compare(_typed(upload(start(), "weather.csv", _table())))
    encodings = table(at, lambda t: list(t.columns) == ["column", "type", "encoding"])
    assert list(encodings["column"]) == list(TYPES)
    assert dict(zip(encodings["column"], encodings["type"])) == {
        "city": "Categorical", "temp": "Gaussian", "rain": "KDE", "visits": "Poisson", "hours": "Discretized",
        "note": "Text"}
    assert all(encodings["encoding"].str.len() > 0)
    result = at.session_state["kept"]["evaluate.result"][1]
    data = at.session_state["frame"]
    expected = logistic_regression_scores(result, data, at.session_state["work"].specs)
    shown = table(at, lambda t: "log-loss" in t.columns).loc["Logistic regression (every column, encoded as listed)"]
    assert shown["log-loss"] == pytest.approx(expected.log_loss, rel=1e-12)
    assert shown["accuracy"] == pytest.approx(expected.accuracy, rel=1e-12)


@dataclass(frozen=True)
class Opaque(Spec):
    kind: ClassVar[str] = "opaque"
    bandwidth: str = "scott"
    kernel: str = "gaussian"


class OpaqueBlock(KDEBlock):
    kind = "opaque"
    title = "Opaque"
    description = "a density no linear model can take (a type registered by a test)"
    baseline = None
    spec_type = Opaque


@pytest.fixture
def opaque():
    register(OpaqueBlock)
    yield "opaque"
    unregister("opaque")


def test_a_column_the_baseline_cannot_encode_is_refused_by_name(opaque):
    at = _typed(upload(start(), "weather.csv", _table()))
    at.session_state["work"] = at.session_state["work"].with_feature("rain", opaque)
    at = _compare(at)
    said = " ".join(texts(at, "error"))
    assert "rain" in said and "Opaque" in said, said
    assert not [d for d in at.dataframe if "log-loss" in d.value.columns], "no comparison without the column"


def test_the_lesson_lists_every_column_with_its_encoding():
    at = _typed(upload(start(), "weather.csv", _table()))
    at.switch_page("pages/5_Lessons.py").run()
    at.session_state["work"] = at.session_state["work"].with_choice("lessons.view", "generative")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    encodings = table(at, lambda t: list(t.columns) == ["column", "type", "encoding"])
    assert list(encodings["column"]) == list(TYPES)
