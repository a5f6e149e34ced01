"""Classes 1 and "1" stay apart on every page (issue 22): a model file (JSON holds both) whose
target has the number 1 and the text "1" as two classes is opened in the app, and every table
keyed by class shows two columns or rows, labelled 1 and '1' (nbapp.explain.class_labels),
each with its own numbers."""

from __future__ import annotations

import pandas as pd
import pytest

import nbapp
from apptest_helpers import clear_caches, import_model, open_page, start, table, tables  # noqa: F401 (autouse fixture)
from ui.sources import ModelFile

LABELS = ["1", "'1'"]           # class_labels([1, "1"])


@pytest.fixture
def model():
    frame = pd.DataFrame({
        "colour": ["red", "red", "blue", "blue", "red", "blue", "blue", "red"],
        "size": [1.0, 1.5, 3.0, 3.5, 1.2, 2.9, 3.3, 0.8],
        "note": ["cheap deal", "deal now", "old blue car", "blue sky", "cheap", "car wash", "old car", "deal"],
        "label": pd.Series([1, 1, "1", "1", 1, "1", "1", 1], dtype=object),
    })
    fitted = nbapp.NaiveBayes({"colour": "categorical", "size": "gaussian", "note": "text"}).fit(frame, "label")
    assert fitted.classes_ == [1, "1"]
    return fitted


def _opened(model):
    at = open_page(start(), "Model")
    import_model(at, "ones.json", model)          # tennis lacks these columns: the file opens alone
    assert isinstance(at.session_state["work"].source, ModelFile)
    return open_page(at, "Model")


def test_the_model_page_keeps_1_and_the_text_1_apart(model):
    at = _opened(model)
    priors = table(at, lambda t: "n_c" in t.columns)
    assert list(priors.index) == LABELS
    assert list(priors["n_c"]) == ["4", "4"]
    counts, cpt = [t for t in tables(at) if t.index.name == "colour"]
    assert list(counts.columns) == list(cpt.columns) == LABELS
    assert (counts.loc["red", "1"], counts.loc["red", "'1'"]) == ("4", "0")
    assert (cpt.loc["red", "1"], cpt.loc["red", "'1'"]) == ("5/6", "1/6")
    fits = table(at, lambda t: "mean" in t.columns)
    assert list(fits.index) == LABELS and fits.loc["1", "mean"] == pytest.approx(model.gaussian("size").loc[1, "mean"])
    words = table(at, lambda t: "term" in t.columns and "class" in t.columns)
    assert set(words["class"]) == set(LABELS)


def test_the_explain_page_keeps_1_and_the_text_1_apart(model):
    at = open_page(_opened(model), "Explain")
    at.session_state["work"] = at.session_state["work"].replace(query={"colour": "red", "size": 1.1, "note": "deal"})
    at.run()
    e = model.explain({"colour": "red", "size": 1.1, "note": "deal"})
    posterior = table(at, lambda t: "rank" in t.columns)
    assert sorted(posterior["class"]) == sorted(LABELS)
    got = dict(zip(posterior["class"], posterior["P(c | x)"]))
    assert got["1"] == pytest.approx(e.posterior[1]) and got["'1'"] == pytest.approx(e.posterior["1"])
    factors = table(at, lambda t: "status" in t.columns)
    assert {"1 counts", "'1' counts", "1 decimal", "'1' decimal"} <= set(factors.columns)
    assert factors.loc["colour", "1 counts"] == "5/6" and factors.loc["colour", "'1' counts"] == "1/6"
    totals = table(at, lambda t: "evidence P(x)" in t.index)
    assert {"1 fraction", "'1' fraction"} <= set(totals.columns)
    labels = [m.label for m in at.metric]
    assert "P(1 | x)" in labels and "P('1' | x)" in labels


def test_the_text_page_keeps_1_and_the_text_1_apart(model):
    at = open_page(_opened(model), "Text")
    at.text_area(key="_text_doc").set_value("cheap deal").run()
    factor = table(at, lambda t: "text factor log P(document | c)" in t.columns)
    assert list(factor["class"]) == LABELS
    assert factor.iloc[0, 1] != factor.iloc[1, 1], "each class has its own text factor"


def test_the_evaluate_page_predicts_both_classes_apart(model):
    at = open_page(_opened(model), "Evaluate")
    at.file_uploader(key="eval.batch").set_value(
        ("new.csv", b"colour,size,note\nred,1.0,cheap deal\nblue,3.1,old car\n", "text/csv")).run()
    out = table(at, lambda t: "predicted" in t.columns)
    probabilities = [c for c in out.columns if c.startswith("P(")]
    assert len(probabilities) == 2
    assert out[probabilities].sum(axis=1).round(12).eq(1).all()


def test_the_lessons_keep_1_and_the_text_1_apart(model):
    at = _opened(model).switch_page("pages/5_Lessons.py").run()
    at.session_state["work"] = at.session_state["work"].with_choice("lessons.view", "prior")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    labels = [m.label for m in at.metric]
    assert "P(1 | x)" in labels and "P('1' | x)" in labels
    at.session_state["work"] = at.session_state["work"].with_choice("lessons.view", "generate")
    at.run()
    generated = table(at, lambda t: "label" in t.columns and len(t) > 0)     # the real rows: none (no data)
    assert set(generated["label"]) == set(LABELS)
