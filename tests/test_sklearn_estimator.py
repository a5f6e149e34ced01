"""nbapp.sklearn.NaiveBayesClassifier (issue 13): scikit-learn's checks, Pipeline, GridSearchCV
and cross_val_score on DataFrames of mixed types, with NaiveBayes's own numbers."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.impute import SimpleImputer
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

import nbapp
from conftest import biopsy_like
from nbapp.sklearn import NaiveBayesClassifier

FEATURES = {"Outlook": "categorical", "Temp": "gaussian", "Windy": "bernoulli"}


def _mixed(n: int = 120, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    y = pd.Series(rng.choice(["no", "yes"], size=n), name="Play")
    frame = pd.DataFrame({
        "Outlook": np.where(y == "yes", rng.choice(["sunny", "overcast"], n), rng.choice(["rainy", "sunny"], n)),
        "Temp": rng.normal(np.where(y == "yes", 22.0, 15.0), 4.0),
        "Windy": np.where(rng.random(n) < np.where(y == "yes", 0.3, 0.7), "yes", "no"),
    })
    frame.loc[::17, "Temp"] = np.nan          # missing values are left out, not refused
    return frame, y


@parametrize_with_checks([NaiveBayesClassifier()])
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def test_probabilities_are_naivebayes_s():
    X, y = _mixed()
    clf = NaiveBayesClassifier(FEATURES, alpha=0.5).fit(X, y)
    m = nbapp.NaiveBayes(FEATURES, alpha=0.5).fit(X.assign(Play=y), "Play")
    np.testing.assert_array_equal(clf.predict_proba(X), m.predict_proba(X).to_numpy())
    assert list(clf.classes_) == ["no", "yes"]
    np.testing.assert_array_equal(clf.predict(X), m.predict(X).to_numpy(dtype=object))
    assert list(clf.feature_names_in_) == ["Outlook", "Temp", "Windy"]


def test_numbers_default_to_gaussian_as_gaussiannb():
    X, y = _mixed()
    numbers = X[["Temp"]].fillna(18.0).assign(T2=lambda d: d["Temp"] ** 0.5)
    ours = NaiveBayesClassifier().fit(numbers, y).predict_proba(numbers)
    ref = GaussianNB().fit(numbers.to_numpy(), y).predict_proba(numbers.to_numpy())
    np.testing.assert_allclose(ours, ref, atol=1e-12)


def test_cross_val_score_on_a_dataframe_equals_fitting_each_fold_by_hand():
    X, y = _mixed()
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    scores = cross_val_score(NaiveBayesClassifier(FEATURES), X, y, cv=folds, scoring="neg_log_loss")
    by_hand = []
    for train, test in folds.split(X, y):
        m = nbapp.NaiveBayes(FEATURES).fit(X.iloc[train].assign(Play=y.iloc[train]), "Play")
        p = m.predict_proba(X.iloc[test]).to_numpy()
        true = (y.iloc[test].to_numpy()[:, None] == np.array(["no", "yes"])).argmax(axis=1)
        by_hand.append(np.mean(np.log(p[np.arange(len(test)), true])))
    np.testing.assert_allclose(scores, by_hand, rtol=1e-12)


def test_grid_search_picks_alpha_and_var_smoothing_mode():
    X, y = _mixed()
    search = GridSearchCV(NaiveBayesClassifier(FEATURES),
                          {"alpha": [0.0, 1.0, 10.0], "var_smoothing_mode": ["global", "per_feature"]},
                          cv=4, scoring="accuracy").fit(X, y)
    assert search.best_params_["alpha"] in (0.0, 1.0, 10.0)
    assert len(search.cv_results_["params"]) == 6
    assert search.best_estimator_.model_.alpha == search.best_params_["alpha"]


def test_a_pipeline_with_a_column_transformer_keeps_names_and_types():
    X, y = _mixed()
    prepare = ColumnTransformer([("temp", SimpleImputer(strategy="mean"), ["Temp"])],
                                remainder="passthrough", verbose_feature_names_out=False).set_output(transform="pandas")
    pipe = Pipeline([("prepare", prepare), ("nb", NaiveBayesClassifier(FEATURES))]).fit(X, y)
    assert pipe.score(X, y) > 0.7
    assert list(pipe.named_steps["nb"].feature_names_in_) == ["Temp", "Outlook", "Windy"]
    assert cross_val_score(clone(pipe), X, y, cv=3).mean() > 0.6


def test_propose_ignores_an_id_and_wins_over_typing_by_dtype():
    frame = biopsy_like()
    X, y = frame.drop(columns="class"), frame["class"]
    proposed = NaiveBayesClassifier(features="propose").fit(X, y)
    assert "ID" not in proposed.model_.features_
    by_dtype = cross_val_score(NaiveBayesClassifier(), X, y, cv=5).mean()
    assert cross_val_score(NaiveBayesClassifier(features="propose"), X, y, cv=5).mean() > by_dtype + 0.03


def test_scikit_learn_is_imported_only_by_nbapp_sklearn():
    code = "import sys, nbapp, nbapp.evaluate, nbapp.propose; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
