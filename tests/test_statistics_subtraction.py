"""Statistics subtract (issue 11.5): (A + B) - B is the statistics of A, so a fold's training model
is the total minus the fold, equal to a fit on the other rows (counts exactly, moments to 1e-9)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nbapp import NaiveBayes, evaluate
from nbapp.blocks.gaussian import MomentStats, class_moments
from nbapp._moments import unmerge_moments

from model_asserts import assert_same_model

FEATURES = {"colour": "categorical", "size": "gaussian", "words": "text", "n": "multinomial",
            "visits": "poisson", "member": "bernoulli"}


def frame(seed: int, rows: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.choice(["spam", "ham", "eggs"], rows)
    return pd.DataFrame({
        "colour": rng.choice(["red", "green", None], rows),
        "size": np.where(rng.random(rows) < 0.1, np.nan, rng.normal(3, 1, rows) + (y == "spam")),
        "words": rng.choice(["buy now", "hello friend", "free money now", None], rows),
        "n": rng.integers(0, 4, rows),
        "visits": rng.poisson(2, rows),
        "member": rng.choice(["yes", "no"], rows),
        "y": y,
    })


def test_total_minus_a_part_is_the_fit_of_the_rest():
    df = frame(0)
    a, b = df.iloc[:40], df.iloc[40:]
    model = NaiveBayes(FEATURES)
    total = model.summarize(df, "y")
    got = NaiveBayes(FEATURES).fit_stats(total - model.summarize(b, "y"), "y")
    assert_same_model(got, NaiveBayes(FEATURES).fit(a, "y"), frame(1), rtol=1e-9, proba_rtol=1e-9)


def test_a_class_whose_rows_all_leave_is_dropped():
    df = frame(2)
    b = df[df["y"] == "eggs"]
    a = df[df["y"] != "eggs"]
    model = NaiveBayes(FEATURES)
    rest = model.summarize(df, "y") - model.summarize(b, "y")
    assert rest.classes == ("ham", "spam")
    assert_same_model(NaiveBayes(FEATURES).fit_stats(rest, "y"), NaiveBayes(FEATURES).fit(a, "y"), frame(3),
                      rtol=1e-9, proba_rtol=1e-9)


def test_a_category_and_a_word_only_the_part_had_are_forgotten():
    df = frame(4)
    extra = df.iloc[:3].assign(colour="blue", words="zebra crossing")
    whole = pd.concat([df, extra], ignore_index=True)
    model = NaiveBayes(FEATURES)
    rest = NaiveBayes(FEATURES).fit_stats(model.summarize(whole, "y") - model.summarize(extra, "y"), "y")
    assert "blue" not in rest.cpt("colour").index
    assert_same_model(rest, NaiveBayes(FEATURES).fit(df, "y"), frame(5), rtol=1e-9, proba_rtol=1e-9)


def test_weighted_rows_subtract_exactly_for_whole_weights():
    df = frame(6).assign(w=np.random.default_rng(0).integers(1, 5, 60))
    model = NaiveBayes(FEATURES)
    rest = model.summarize(df, "y", "w") - model.summarize(df.iloc[45:], "y", "w")
    assert_same_model(NaiveBayes(FEATURES).fit_stats(rest, "y", "w"), NaiveBayes(FEATURES).fit(df.iloc[:45], "y", "w"),
                      frame(7), rtol=1e-9, proba_rtol=1e-9)


def test_inverse_chan_update_by_hand():
    """Values 1, 2, 3 (n 3, mean 2, M2 2) minus the value 3 leave 1, 2: n 2, mean 1.5, M2 0.5."""
    n, mean, m2 = unmerge_moments(np.array([3.0]), np.array([2.0]), np.array([2.0]),
                                  np.array([1.0]), np.array([3.0]), np.array([0.0]))
    assert (n[0], mean[0], m2[0]) == (2.0, 1.5, 0.5)


def test_moments_of_every_row_removed_are_empty_and_m2_never_negative():
    x = np.array([[0.1], [0.1], [0.1], [0.7]])
    y = np.array([0, 0, 0, 1])
    w = np.ones(4)
    total = class_moments(x, y, w, 2)
    rest = total - class_moments(x[3:], y[3:], w[3:], 2)
    assert rest.n.tolist() == [[3.0], [0.0]]
    assert rest.mean[1, 0] == 0.0 and rest.m2[1, 0] == 0.0          # n = 0: empty
    assert (rest.m2 >= 0).all()                                    # equal values: M2 clipped at 0
    equal = class_moments(np.full((5, 1), 0.1), np.zeros(5, int), np.ones(5), 1)
    assert ((equal + MomentStats([[1.0]], [[0.3]], [[0.0]])) - MomentStats([[1.0]], [[0.3]], [[0.0]])).m2[0, 0] >= 0


def test_kfold_models_equal_fits_on_the_training_rows():
    """cross_validate builds fold f's model as total - fold f; each equals a fit on the other folds."""
    df = frame(8, rows=120)
    make = lambda: NaiveBayes(FEATURES)  # noqa: E731
    result = evaluate.cross_validate(make, df, "y", k=5, seed=3)
    folds = evaluate.stratified_folds(df["y"], 5, seed=3)
    for fold in range(5):
        test = np.flatnonzero(folds == fold)
        fitted = make().fit(df.iloc[np.flatnonzero(folds != fold)], "y")
        expected = fitted.predict_proba(df.iloc[test])
        got = result.predictions.set_index("row").loc[df.index[test], [f"P({c})" for c in expected.columns]]
        np.testing.assert_allclose(got.to_numpy(dtype=float), expected.to_numpy(), rtol=1e-9, atol=1e-12)


def test_subtracting_rows_that_are_not_in_the_total_is_refused():
    model = NaiveBayes({"colour": "categorical"})
    small = model.summarize(pd.DataFrame({"colour": ["red", "red"], "y": ["a", "b"]}), "y")
    other = model.summarize(pd.DataFrame({"colour": ["red"], "y": ["c"]}), "y")
    with pytest.raises(ValueError, match="class 'c'"):
        small - other
