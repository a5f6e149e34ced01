"""Learning curves: Naive Bayes (nbapp) vs logistic regression (scikit-learn), seed 000 §3."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.lessons.curves import LOGISTIC_REGRESSION, NAIVE_BAYES, learning_curve
from nbapp.errors import DataError
from nbapp.evaluate import holdout_mask
from nbapp.examples import example, load_example


@pytest.fixture(scope="module")
def penguins():
    ex = example("penguins")
    return load_example("penguins"), ex


@pytest.fixture(scope="module")
def penguin_curve(penguins):
    df, ex = penguins
    return learning_curve(df, ex.target, ex.features, train_sizes=[3, 30, 200], repeats=2, seed=5)


def test_runs_have_both_models_every_size_and_repeat(penguin_curve):
    runs = penguin_curve.runs
    assert len(runs) == 2 * 3 * 2
    assert set(runs["model"]) == {NAIVE_BAYES, LOGISTIC_REGRESSION}
    assert sorted(runs["train_size"].unique()) == [3, 30, 200]
    assert (runs["fit_seconds"] > 0).all()
    assert runs["accuracy"].between(0, 1).all()
    summary = penguin_curve.summary
    assert len(summary) == 6 and {"accuracy_mean", "fit_seconds_std"} <= set(summary.columns)


def test_curve_is_reproducible_with_the_same_seed(penguins, penguin_curve):
    df, ex = penguins
    again = learning_curve(df, ex.target, ex.features, train_sizes=[3, 30, 200], repeats=2, seed=5)
    pd.testing.assert_series_equal(again.runs["accuracy"], penguin_curve.runs["accuracy"])


def test_smallest_training_set_has_one_row_per_class(penguin_curve):
    # logistic regression would refuse a training set with fewer than two classes
    at3 = penguin_curve.runs[penguin_curve.runs["train_size"] == 3]
    assert len(at3) == 4 and at3["accuracy"].notna().all()


def test_more_data_helps_both_models(penguin_curve):
    mean = penguin_curve.summary.set_index(["model", "train_size"])["accuracy_mean"]
    for model in (NAIVE_BAYES, LOGISTIC_REGRESSION):
        assert mean[(model, 200)] > mean[(model, 3)]
        assert mean[(model, 200)] > 0.9


def test_naive_bayes_point_equals_a_direct_fit_on_the_same_rows():
    df, ex = load_example("tennis14"), example("tennis14")
    curve = learning_curve(df, "Play", ex.features, train_sizes=[9], repeats=1, test_size=0.3,
                           seed=2)
    test = holdout_mask(df["Play"], test_size=0.3, seed=2)
    assert (~test).sum() == 9                 # so size 9 is the whole training pool
    model = nbapp.NaiveBayes(features=ex.features).fit(df[~test], target="Play")
    expected = (model.predict(df[test]) == df.loc[test, "Play"]).mean()
    nb = curve.runs[curve.runs["model"] == NAIVE_BAYES]
    assert nb["accuracy"].iloc[0] == pytest.approx(expected)
    assert curve.test_rows == test.sum()


def test_logistic_point_equals_scikit_learn_on_one_hot_columns():
    from sklearn.linear_model import LogisticRegression

    df, ex = load_example("stolen_cars"), example("stolen_cars")
    rng = np.random.default_rng(0)
    big = df.sample(200, replace=True, random_state=1).reset_index(drop=True)
    big["Stolen"] = np.where(rng.uniform(size=200) < 0.15, "Yes", big["Stolen"])
    curve = learning_curve(big, "Stolen", ex.features, train_sizes=[140], repeats=1, seed=0)
    test = holdout_mask(big["Stolen"], test_size=0.3, seed=0)
    onehot = pd.get_dummies(big[list(ex.features)]).astype(float)
    ref = LogisticRegression(max_iter=1000).fit(onehot[~test], big.loc[~test, "Stolen"])
    expected = (ref.predict(onehot[test]) == big.loc[test, "Stolen"]).mean()
    lr = curve.runs[curve.runs["model"] == LOGISTIC_REGRESSION]
    assert lr["accuracy"].iloc[0] == pytest.approx(expected)


def test_text_columns_are_word_counts_for_logistic_regression():
    df, ex = load_example("sms_spam").iloc[:400], example("sms_spam")
    curve = learning_curve(df, ex.target, ex.features, train_sizes=[20, 200], repeats=1)
    assert curve.runs["accuracy"].min() > 0.7


def test_missing_values_reach_logistic_regression_imputed(penguins):
    df, ex = penguins
    assert df[list(ex.features)].isna().any().any()
    curve = learning_curve(df, ex.target, ex.features, train_sizes=[100], repeats=1)
    assert curve.runs["log_loss"].map(np.isfinite).all()


def test_frequency_weights_are_expanded():
    ex = example("bikes")
    curve = learning_curve(load_example("bikes"), ex.target, ex.features, weight="count",
                           train_sizes=[2, 70], repeats=1)
    assert curve.test_rows == 30                 # 30% of the 100 bikes


def test_importing_curves_does_not_import_scikit_learn():
    code = "import sys, nbapp.lessons.curves; assert 'sklearn' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bad_sizes_and_columns_are_refused(penguins):
    df, ex = penguins
    with pytest.raises(DataError, match="between 3 \\(one row per class\\)"):
        learning_curve(df, ex.target, ex.features, train_sizes=[2])
    with pytest.raises(DataError, match="Column 'wingspan' is not in the data"):
        learning_curve(df, ex.target, {"wingspan": "gaussian"})


def test_a_missing_column_names_the_choices(penguins):
    df, ex = penguins
    with pytest.raises(DataError, match=r"Column 'wingspan' is not in the data; choose the feature among its columns \["):
        learning_curve(df, ex.target, {"wingspan": "gaussian"})
