"""nbapp.evaluate: seeded stratified splits, the scores, and cross-validation end to end."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, log_loss, precision_recall_fscore_support
from sklearn.naive_bayes import GaussianNB

import nbapp
from nbapp import evaluate
from nbapp.errors import DataError
from nbapp.examples import example, load_example


def _labels(n: int, seed: int = 1) -> pd.Series:
    rng = np.random.default_rng(seed)
    return pd.Series(rng.choice(["a", "b", "c"], size=n, p=[0.6, 0.3, 0.1]))


def _tennis_model(alpha: float = 1.0):
    ex = example("tennis14")
    return lambda: nbapp.NaiveBayes(features=ex.features, alpha=alpha)


# -- splits ------------------------------------------------------------------------------------


def test_stratified_folds_give_every_fold_its_share_of_each_class():
    y = _labels(103)
    folds = evaluate.stratified_folds(y, 5, seed=3)
    table = pd.crosstab(y, folds)
    assert sorted(set(folds)) == [0, 1, 2, 3, 4]
    assert (table.max(axis=1) - table.min(axis=1) <= 1).all()
    sizes = np.bincount(folds)
    assert sizes.max() - sizes.min() <= 1


def test_stratified_folds_are_reproducible_and_depend_on_the_seed():
    y = _labels(60)
    same = evaluate.stratified_folds(y, 4, seed=7)
    assert np.array_equal(same, evaluate.stratified_folds(y, 4, seed=7))
    assert not np.array_equal(same, evaluate.stratified_folds(y, 4, seed=8))


@pytest.mark.parametrize("k", [1, 0])
def test_stratified_folds_reject_fewer_than_two_folds(k):
    with pytest.raises(DataError, match="at least 2 folds"):
        evaluate.stratified_folds(_labels(10), k)


def test_stratified_folds_reject_more_folds_than_rows():
    with pytest.raises(DataError, match="too few for 11 folds"):
        evaluate.stratified_folds(_labels(10), 11)


def test_holdout_mask_takes_the_share_of_each_class_and_keeps_a_training_row():
    y = pd.Series(["a"] * 20 + ["b"] * 10 + ["c"] * 1)
    mask = evaluate.holdout_mask(y, test_size=0.3, seed=0)
    test_counts = y[mask].value_counts()
    assert test_counts["a"] == 6 and test_counts["b"] == 3
    assert "c" not in test_counts  # its only row stays in training


def test_holdout_mask_rejects_a_share_outside_zero_one():
    with pytest.raises(DataError, match="strictly between 0 and 1"):
        evaluate.holdout_mask(_labels(10), test_size=1.0)


def test_expand_weights_repeats_rows_and_drops_the_weight_column():
    bikes = load_example("bikes")
    cases = evaluate.expand_weights(bikes, "count")
    assert len(cases) == bikes["count"].sum() == 100
    assert "count" not in cases.columns
    assert (cases["color"] == "teal").sum() == 21


def test_expand_weights_rejects_fractional_weights_naming_the_row():
    df = pd.DataFrame({"x": ["a", "b"], "y": ["p", "q"], "w": [1.0, 2.5]})
    with pytest.raises(DataError, match=r"Column 'w' must hold whole numbers.*row 1 holds 2.5"):
        evaluate.expand_weights(df, "w")


# -- scores ------------------------------------------------------------------------------------


def test_score_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    classes = ["a", "b", "c"]
    proba = rng.dirichlet([1, 1, 1], size=200)
    y = rng.choice(classes, size=200)
    s = evaluate.score(y, pd.DataFrame(np.log(proba), columns=classes))
    predicted = np.array(classes)[proba.argmax(axis=1)]
    p, r, f, support = precision_recall_fscore_support(y, predicted, labels=classes, zero_division=0)
    assert s.accuracy == pytest.approx(accuracy_score(y, predicted), abs=1e-12)
    assert np.array_equal(s.confusion.to_numpy(), confusion_matrix(y, predicted, labels=classes))
    assert np.allclose(s.per_class["precision"], p) and np.allclose(s.per_class["recall"], r)
    assert np.allclose(s.per_class["f1"], f) and np.array_equal(s.per_class["support"], support)
    assert s.log_loss == pytest.approx(log_loss(y, proba, labels=classes), rel=1e-12)


def test_score_log_loss_is_infinite_when_the_true_class_had_probability_zero():
    log_proba = pd.DataFrame({"no": [0.0, -np.inf], "yes": [-np.inf, 0.0]})
    s = evaluate.score(["no", "no"], log_proba)
    assert s.log_loss == np.inf
    assert s.zero_probability == 1
    assert s.accuracy == 0.5


def test_score_counts_undetermined_rows_as_wrong_in_their_own_column():
    log_proba = pd.DataFrame({"no": [0.0, np.nan], "yes": [-np.inf, np.nan]})
    s = evaluate.score(["no", "yes"], log_proba)
    assert s.undetermined == 1
    assert s.confusion.loc["yes", evaluate.UNDETERMINED] == 1
    assert s.accuracy == 0.5


def test_results_are_frozen():
    s = evaluate.score(["a", "b"], pd.DataFrame({"a": [0.0, -1.0], "b": [-1.0, 0.0]}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.accuracy = 0.0  # type: ignore[misc]


# -- cross-validation and hold-out ---------------------------------------------------------------


def test_cross_validation_predicts_every_row_exactly_once():
    df = load_example("tennis14")
    result = evaluate.cross_validate(_tennis_model(), df, "Play", k=3, seed=0)
    assert sorted(result.predictions["row"]) == list(df.index)
    assert result.scores.n == 14 and len(result.fold_scores) == 3
    assert sum(s.n for s in result.fold_scores) == 14


def test_cross_validation_equals_fitting_each_fold_by_hand():
    df = load_example("tennis14")
    result = evaluate.cross_validate(_tennis_model(), df, "Play", k=4, seed=2)
    folds = evaluate.stratified_folds(df["Play"], 4, seed=2)
    correct = 0
    for fold in range(4):
        model = _tennis_model()().fit(df[folds != fold], target="Play")
        correct += int((model.predict(df[folds == fold]) == df["Play"][folds == fold]).sum())
    assert result.scores.accuracy == pytest.approx(correct / 14)


def test_cross_validation_matches_scikit_learn_gaussian_nb_on_the_same_folds():
    penguins = load_example("penguins")
    cols = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]
    df = penguins.dropna(subset=cols).reset_index(drop=True)
    result = evaluate.cross_validate(lambda: nbapp.NaiveBayes(features={c: "gaussian" for c in cols}),
                                     df, "species", k=5, seed=11)
    folds = evaluate.stratified_folds(df["species"], 5, seed=11)
    expected = np.zeros((len(df), 3))
    for fold in range(5):
        sk = GaussianNB().fit(df.loc[folds != fold, cols], df.loc[folds != fold, "species"])
        expected[folds == fold] = sk.predict_proba(df.loc[folds == fold, cols])
    got = result.predictions.set_index("row").loc[df.index, [f"P({c})" for c in sk.classes_]].to_numpy()
    assert np.allclose(got, expected, atol=1e-9)


def test_holdout_scores_only_the_test_rows():
    df = load_example("penguins")
    model = lambda: nbapp.NaiveBayes(features=example("penguins").features)  # noqa: E731
    result = evaluate.holdout(model, df, "species", test_size=0.25, seed=4)
    assert result.method == "holdout" and result.n_splits == 1
    assert result.scores.n == int(evaluate.holdout_mask(df["species"], test_size=0.25, seed=4).sum())
    assert result.scores.accuracy > 0.9  # penguin species are easy to tell apart


def test_frequency_weights_become_test_cases():
    ex = example("bikes")
    result = evaluate.cross_validate(lambda: nbapp.NaiveBayes(features=ex.features, alpha=1), load_example("bikes"),
                                     "bike", k=5, seed=0, weight="count")
    assert result.scores.n == 100
    # teal -> veoride and red -> private are right for 19 + 78 of the 100 bikes
    assert result.scores.accuracy == pytest.approx(0.97)


def test_progress_is_reported_once_per_fold():
    calls = []
    evaluate.cross_validate(_tennis_model(), load_example("tennis14"), "Play", k=3,
                            progress=lambda done, total, msg: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_a_fitting_error_names_the_fold():
    df = load_example("tennis14")
    bad = lambda: nbapp.NaiveBayes(features={"Outlook": "gaussian"})  # noqa: E731
    with pytest.raises(DataError, match=r"^While fitting on fold 1 of 3: "):
        evaluate.cross_validate(bad, df, "Play", k=3)


def test_evaluation_rejects_a_missing_target_column():
    with pytest.raises(DataError, match="target column 'nope' is not in the data"):
        evaluate.cross_validate(_tennis_model(), load_example("tennis14"), "nope")


def test_undetermined_test_rows_are_counted_not_given_the_prior_class():
    from nbapp.evaluate import log_proba_for_scoring, score

    train = pd.DataFrame({"f1": ["a", "b", "a", "b"], "f2": ["c", "d", "c", "d"], "y": ["yes", "no", "yes", "no"]})
    m = nbapp.NaiveBayes({"f1": "categorical", "f2": "categorical"}, alpha=0).fit(train, target="y")
    test = pd.DataFrame({"f1": ["b", "a"], "f2": ["c", "c"], "y": ["yes", "yes"]})
    scores = score(test["y"], log_proba_for_scoring(m, test))
    assert scores.undetermined == 1
    assert scores.log_loss == np.inf
    assert scores.confusion.loc["yes", "(undetermined)"] == 1


def test_macro_f1_leaves_out_classes_that_never_occur():
    from nbapp.evaluate import score

    log_proba = pd.DataFrame(np.log([[0.9, 0.1], [0.8, 0.2]]), columns=["a", "b"])
    assert score(pd.Series(["a", "a"]), log_proba).macro_f1 == 1.0


def test_expand_weights_refuses_more_rows_than_fit_naming_the_column_total_and_fix():
    # Without the limit, 10**12 copies of a row would be allocated (a MemoryError at best).
    df = pd.DataFrame({"x": ["a", "b"], "y": ["p", "q"], "w": [10**12, 3]})
    with pytest.raises(DataError, match=r"column 'w' add up to 1,000,000,000,003 rows .*more than the "
                                        r"5,000,000 .*evaluate on a sample or without weights"):
        evaluate.expand_weights(df, "w")
    with pytest.raises(DataError, match=r"more than the 3 that fit"):
        evaluate.expand_weights(df.assign(w=[1, 3]), "w", max_rows=3)
    assert len(evaluate.expand_weights(df.assign(w=[1, 2]), "w", max_rows=3)) == 3


def test_evaluation_with_too_few_labelled_rows_names_the_target_and_the_fix():
    df = load_example("tennis14").astype({"Play": object})
    df.loc[1:, "Play"] = None
    with pytest.raises(DataError, match=r"at least 2 rows with a value in the target column 'Play', but "
                                        r"the data has 1; fill in the missing labels"):
        evaluate.cross_validate(_tennis_model(), df, "Play", k=2)


def test_kfold_models_built_from_the_other_folds_statistics_equal_fits_on_those_rows():
    # Each fold's model is the merge of the other folds' statistics (one pass over the data);
    # it must predict what a model fitted on the training rows predicts.
    from nbapp.evaluate import stratified_folds

    df = load_example("penguins").dropna(subset=["species"]).reset_index(drop=True)
    make = lambda: nbapp.NaiveBayes(features={"island": "categorical", "bill_length_mm": "gaussian",  # noqa: E731
                                              "flipper_length_mm": "gaussian", "sex": "categorical"}, alpha=1)
    result = evaluate.cross_validate(make, df, "species", k=4, seed=3)
    folds = stratified_folds(df["species"], 4, seed=3)
    for fold in range(4):
        train, test = df[folds != fold], df[folds == fold]
        expected = make().fit(train, "species").predict_proba(test)
        table = result.predictions.set_index("row")
        got = table.loc[test.index, [f"P({c})" for c in expected.columns]]
        assert (table.loc[test.index, "fold"] == fold + 1).all()
        np.testing.assert_allclose(got.to_numpy(dtype=float), expected.to_numpy(), rtol=0, atol=1e-12)


def test_stratified_folds_of_arrow_strings_equal_those_of_the_same_labels_as_objects():
    # The fast path factorises a Series as it is; the folds must not depend on how it is stored.
    labels = ["stay", "leave", "maybe", "Été", "zebra", "Zulu"]
    y = pd.Series(np.random.default_rng(4).choice(labels, 2_000))
    as_objects = evaluate.stratified_folds(list(y), 5, seed=9)
    for stored in (y.astype("string[pyarrow]"), y.astype(object), y.astype(pd.StringDtype("pyarrow", na_value=np.nan))):
        assert np.array_equal(evaluate.stratified_folds(stored, 5, seed=9), as_objects)
    assert np.array_equal(evaluate.holdout_mask(y.astype("string[pyarrow]"), test_size=0.3, seed=2),
                          evaluate.holdout_mask(list(y), test_size=0.3, seed=2))


def test_kfold_scores_and_table_equal_scoring_each_refitted_fold_by_labels():
    # cross_validate scores on integer codes and builds its table with numpy; the result must be
    # score() and prediction_table() of fits on each fold's training rows, also where a fold's
    # model lacks a class (its only row is in that fold): P(that class) is NaN in the table, the
    # fold's confusion matrix lists the class after the model's own, with probability 0.
    rng = np.random.default_rng(5)
    n = 400
    y = np.where(rng.random(n) < 0.5, "no", "yes").astype(object)
    y[17] = "rare"
    df = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], n), "size": rng.normal(y == "yes", 1.0),
                       "note": rng.choice(["x", "y"], n), "y": pd.array(y, dtype="string[pyarrow]")})
    make = lambda: nbapp.NaiveBayes(features={"colour": "categorical", "size": "gaussian"})  # noqa: E731
    result = evaluate.cross_validate(make, df, "y", k=4, seed=1)
    folds = evaluate.stratified_folds(df["y"], 4, seed=1)
    assert result.classes == ("no", "rare", "yes")
    parts, tables = [], []
    for fold in range(4):
        train, test = df[folds != fold], df[folds == fold]
        log_proba = evaluate.log_proba_for_scoring(make().fit(train, "y"), test)
        expected = evaluate.score(test["y"], log_proba)
        got = result.fold_scores[fold]
        assert (got.accuracy, got.zero_probability) == (expected.accuracy, expected.zero_probability)
        # the fold's model is the total minus the fold (Chan's update inverted): equal to rounding
        assert got.log_loss == pytest.approx(expected.log_loss, rel=1e-12)
        assert got.log_loss_clipped == pytest.approx(expected.log_loss_clipped, rel=1e-12)
        pd.testing.assert_frame_equal(got.confusion, expected.confusion)
        pd.testing.assert_frame_equal(got.per_class, expected.per_class)
        parts.append(log_proba.reindex(columns=list(result.classes)))
        tables.append(evaluate.prediction_table(test.index, np.full(len(test), fold), test["y"], parts[-1]))
    lacking = next(f for f in range(4) if folds[17] == f)
    assert list(result.fold_scores[lacking].confusion.index) == ["no", "yes", "rare"]
    pooled = evaluate.score(pd.concat([t["true"] for t in tables]), pd.concat(parts))
    assert result.scores.log_loss == pooled.log_loss == np.inf
    pd.testing.assert_frame_equal(result.scores.confusion, pooled.confusion)
    expected_table = pd.concat(tables, ignore_index=True)
    pd.testing.assert_frame_equal(result.predictions, expected_table, check_exact=False, rtol=1e-9)
    assert result.predictions.loc[result.predictions["row"] == 17, "P(rare)"].isna().all()


def test_kfold_scores_rows_no_class_can_explain_as_probability_zero_for_their_class():
    """At l = 0 a fold's model meets values it never saw with either class: every joint is 0 and
    the row is undetermined; k-fold must score it (log P(true) = -inf), not fail on it."""
    df = pd.DataFrame({"a": ["x", "x", "y", "y", "z", "w"] * 2, "b": ["p", "q", "p", "q", "r", "s"] * 2,
                       "c": ["no", "no", "yes", "yes", "no", "yes"] * 2})
    result = evaluate.cross_validate(lambda: nbapp.NaiveBayes({"a": "categorical", "b": "categorical"}, alpha=0),
                                     df, "c", k=2, seed=0)
    assert np.isinf(result.scores.log_loss)
    assert len(result.predictions) == len(df)
