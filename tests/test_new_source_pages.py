"""The pages part of issue 34's promise, "one module plus one line" for a source: the generated
table of tests/new_source.py, registered by its fixture and named by no file of ui/ or pages/,
is offered on the Data page, opened, walked through Model, Explain and Evaluate, and kept in the
page's address. Every page asks the source (ui/sources/base.py), never which kind it is."""

from __future__ import annotations

import numpy as np
import pytest

import nbapp
from apptest_helpers import clear_caches, open_page, start, table, texts  # noqa: F401 (autouse fixture)
from nbapp import evaluate
from ui.link_rules import CHOICE_RULES
from new_source import MODE, Generated, generated_frame, generated_source  # noqa: F401 (the fixture: the one line)


@pytest.fixture
def at(generated_source):
    """The Data page with the generated table drawn (rows 120, seed 7) and 'label' its target."""
    at = start()
    assert MODE in at.radio(key="_data_mode").options
    at.radio(key="_data_mode").set_value(MODE).run()
    at.button(key="data.generate").click().run()
    assert not at.exception, [e.value for e in at.exception]
    work = at.session_state["work"]
    assert work.source == Generated.of(120, 7) and work.target == "label"
    assert dict(work.kinds) == {"x": "gaussian", "colour": "categorical"}
    return at


def test_the_data_page_shows_the_generated_rows_and_fits_them(at):
    frame = generated_frame(120, 7)
    assert at.session_state["frame"].equals(frame)
    assert any("Drawn with seed 7." in s for s in texts(at, "info")), "the source's notes"
    assert any(s.startswith("Model fitted: 2 classes, 2 features") for s in texts(at, "success"))
    assert any(s.startswith("**Data:** generated") and "(generated table)  \n120 rows × 3 columns" in s
               for s in texts(at, "markdown")), "its sidebar line"
    # the model is fitted in memory from the rows, as the base Source does: priors are the class shares
    model = at.session_state["model"]
    shares = frame["label"].value_counts(normalize=True)
    np.testing.assert_allclose(model.priors_.to_numpy(dtype=float), shares.loc[list(model.classes_)].to_numpy())
    a = frame.loc[frame["label"] == "a", "x"]
    assert float(model.parameters("x").loc["a", "mean"]) == pytest.approx(a.mean())


def test_model_explain_and_evaluate_answer_from_the_source(at):
    frame = generated_frame(120, 7)
    direct = nbapp.NaiveBayes({"x": "gaussian", "colour": "categorical"}).fit(frame, "label")
    at = open_page(at, "Model")
    model = at.session_state["model"]
    np.testing.assert_allclose(model.cpt("colour").to_numpy(dtype=float), direct.cpt("colour").to_numpy(dtype=float))
    at = open_page(at, "Explain")
    row = {"x": float(frame["x"].iloc[0]), "colour": frame["colour"].iloc[0]}
    assert dict(at.session_state["work"].query) == row                  # the first generated row
    factors = table(at, lambda t: "status" in t.columns)
    e = direct.explain(row)
    for column in ("x", "colour"):
        assert factors.loc[column, "status"] == "used"
        assert float(factors.loc[column, "b decimal"]) == pytest.approx(float(e.probabilities.loc[column, "b"]),
                                                                        rel=1e-3)
    at = open_page(at, "Evaluate")
    result = at.session_state["kept"]["evaluate.result"][1]
    assert result.scores.n == 120 and result.method == "kfold"        # the page's default: k-fold on the rows
    again = evaluate.cross_validate(lambda: nbapp.NaiveBayes({"x": "gaussian", "colour": "categorical"}), frame,
                                    "label", k=CHOICE_RULES["evaluate.k"].default,
                                    seed=CHOICE_RULES["evaluate.seed"].default)
    assert result.scores.accuracy == pytest.approx(again.scores.accuracy)
    assert at.subheader and any("Training, development and test" in h.value for h in at.subheader), \
        "a source with labelled rows is tuned on the three-way split"


def test_the_address_keeps_the_generated_table(at):
    assert at.query_params["generated"] == ["120-7"] or at.query_params["generated"] == "120-7"
    params = {k: at.query_params[k] for k in at.query_params}
    fresh = start(query={k: v[0] if isinstance(v, list) else v for k, v in params.items()})
    work = fresh.session_state["work"]
    assert work.source == Generated.of(120, 7) and work.target == "label"
    assert not fresh.session_state.get("work_not_kept")
