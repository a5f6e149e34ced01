"""What a Weka or Orange user misses on Evaluate (issue 33, item 6), in the library: a decision
tree and k nearest neighbours beside logistic regression on the same folds and encodings,
Cohen's kappa, a multiclass ROC summary and leave-one-out, each equal to scikit-learn's own."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, log_loss, roc_auc_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import nbapp
from nbapp import DataError
from nbapp.baseline import BASELINES, baseline_pipeline
from nbapp.diagnostics import roc_summary
from nbapp.sklearn import baseline_scores

PENGUINS = nbapp.examples.load_example("penguins").dropna().reset_index(drop=True)
NUMERIC = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]
TYPES = {c: "gaussian" for c in NUMERIC}


@pytest.fixture(scope="module")
def evaluation():
    return nbapp.evaluate.cross_validate(lambda: nbapp.NaiveBayes(TYPES), PENGUINS, "species", k=5, seed=3)


@pytest.mark.parametrize("baseline, estimator", [
    ("tree", lambda n: DecisionTreeClassifier(random_state=0)),
    ("knn", lambda n: KNeighborsClassifier(n_neighbors=5)),
])
def test_a_tree_and_nearest_neighbours_score_what_scikit_learn_scores_on_the_same_folds(evaluation, baseline,
                                                                                           estimator):
    got = baseline_scores(evaluation, PENGUINS, TYPES, baseline)
    X, y, folds = PENGUINS[NUMERIC], PENGUINS["species"].to_numpy(dtype=object), evaluation.folds
    predicted = np.empty(len(y), dtype=object)
    for f in range(5):
        fitted = make_pipeline(StandardScaler(), estimator(None)).fit(X[folds != f], y[folds != f])
        predicted[folds == f] = fitted.predict(X[folds == f])
    assert got.n == len(y)
    assert got.accuracy == pytest.approx(np.mean(predicted == y), abs=1e-12)
    assert got.kappa == pytest.approx(cohen_kappa_score(y, predicted), abs=1e-12)


def test_every_baseline_is_named_and_an_unknown_one_is_refused():
    assert list(BASELINES) == ["logistic", "tree", "knn"]
    with pytest.raises(DataError, match=r"'forest' is not a baseline; choose one of logistic, tree, knn"):
        baseline_pipeline(TYPES, "forest")
    assert baseline_pipeline(TYPES, "knn", training_rows=3)[-1].n_neighbors == 3    # k never above the rows


def test_kappa_of_naive_bayes_equals_scikit_learn_s(evaluation):
    table = evaluation.predictions
    expected = cohen_kappa_score(table["true"].astype(str), table["predicted"].astype(str))
    assert evaluation.scores.kappa == pytest.approx(expected, abs=1e-12)
    assert 0.5 < evaluation.scores.kappa <= 1


def test_the_multiclass_roc_summary_equals_scikit_learn_s_one_vs_rest_means(evaluation):
    table = evaluation.predictions
    classes = list(evaluation.classes)
    proba = table[[f"P({c})" for c in classes]].to_numpy(dtype=float)
    summary = roc_summary(evaluation)
    assert list(summary.index) == [*classes, "macro mean", "weighted mean"]
    truth = table["true"].to_numpy(dtype=object)
    for i, c in enumerate(classes):
        assert summary.loc[c, "roc_auc"] == pytest.approx(roc_auc_score(truth == c, proba[:, i]), abs=1e-12)
    for average in ("macro", "weighted"):
        expected = roc_auc_score(truth, proba / proba.sum(axis=1, keepdims=True), multi_class="ovr",
                                 average=average, labels=classes)
        assert summary.loc[f"{average} mean", "roc_auc"] == pytest.approx(expected, abs=1e-12)


def test_leave_one_out_is_k_equal_to_the_rows_and_scores_every_row_once():
    tennis = nbapp.examples.load_example("tennis14")
    features = {c: "categorical" for c in ["Outlook", "Temperature", "Humidity", "Wind"]}
    result = nbapp.evaluate.cross_validate(lambda: nbapp.NaiveBayes(features, alpha=1), tennis, "Play", k=len(tennis))
    assert sorted(np.bincount(result.folds)) == [1] * len(tennis)
    correct = 0
    for i in range(len(tennis)):
        model = nbapp.NaiveBayes(features, alpha=1).fit(tennis.drop(index=i), "Play")
        correct += model.predict(tennis.iloc[[i]]).iloc[0] == tennis["Play"].iloc[i]
    assert result.scores.accuracy == pytest.approx(correct / len(tennis), abs=1e-12)
    lr = baseline_scores(result, tennis, features, "logistic")
    assert lr.n == len(tennis)
