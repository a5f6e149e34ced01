"""Evaluate for a Weka or Orange user (issue 33, item 6), in AppTest: a decision tree and k
nearest neighbours beside logistic regression on the same folds, Cohen's kappa, the multiclass
ROC summary and leave-one-out, each the library's number."""

from __future__ import annotations

import numpy as np
import pytest

from apptest_helpers import clear_caches, open_page, start, table  # noqa: F401 (autouse fixture)
from nbapp.diagnostics import roc_summary
from nbapp.sklearn import baseline_scores


def test_the_comparison_offers_a_tree_and_nearest_neighbours_with_kappa_on_the_same_folds():
    at = open_page(start("penguins"), "Evaluate")
    at.toggle(key="eval.compare").set_value(True).run()
    at.multiselect(key="eval.baselines").set_value(["logistic", "tree", "knn"]).run()
    assert not at.exception, [e.value for e in at.exception]
    result, data = at.session_state["kept"]["evaluate.result"][1], at.session_state["frame"]
    shown = table(at, lambda t: "Cohen's kappa" in t.columns)
    assert shown.index[0] == "Naive Bayes (nbapp)"
    assert shown.loc["Naive Bayes (nbapp)", "Cohen's kappa"] == pytest.approx(result.scores.kappa, abs=1e-12)
    for baseline, title in (("tree", "Decision tree"), ("knn", "k nearest neighbours")):
        expected = baseline_scores(result, data.dropna(subset=["species"]), at.session_state["work"].specs, baseline)
        row = shown.loc[f"{title} (every column, encoded as listed)"]
        assert row["accuracy"] == pytest.approx(expected.accuracy, abs=1e-12)
        assert row["Cohen's kappa"] == pytest.approx(expected.kappa, abs=1e-12)
    assert any(m.label == "Cohen's kappa" for m in at.metric)


def test_three_classes_get_the_roc_summary_and_leave_one_out_tests_every_row_once():
    at = open_page(start("penguins"), "Evaluate")
    result = at.session_state["kept"]["evaluate.result"][1]
    summary = table(at, lambda t: "roc_auc" in t.columns)
    expected = roc_summary(result)
    assert list(summary.index[-2:]) == ["macro mean", "weighted mean"]
    np.testing.assert_allclose(summary["roc_auc"].to_numpy(), expected["roc_auc"].to_numpy(), atol=1e-12)
    at = open_page(start(), "Evaluate")                     # tennis: 14 rows
    at.radio(key="_eval_method").set_value("loo").run()
    assert not at.exception, [e.value for e in at.exception]
    result = at.session_state["kept"]["evaluate.result"][1]
    assert result.n_splits == 14 and sorted(np.bincount(result.folds)) == [1] * 14
