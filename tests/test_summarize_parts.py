"""Statistics of every part of a frame from one pass (NaiveBayes.summarize_parts), and scoring
rows of a frame in place (log_posterior(rows=...)): what makes k-fold cost one fit and one
prediction without copying the folds' rows. Each part's model must be the fit of its rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp._threads as threads
from mixed_data import TYPES, mixed_frame as frame
from nbapp import DataError, NaiveBayes, evaluate
from nbapp.persist import stats_to_json


def assert_same_predictions(got: NaiveBayes, expected: NaiveBayes, rows: pd.DataFrame) -> None:
    assert got.classes_ == expected.classes_
    np.testing.assert_allclose(got.predict_log_proba(rows).to_numpy(), expected.predict_log_proba(rows).to_numpy(),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("weight", [None, "w"])
def test_each_part_fits_the_model_of_its_rows(weight):
    df = frame(0, 300)
    parts = np.random.default_rng(1).integers(0, 4, len(df))
    parts[df["y"].to_numpy() == "eggs"] = np.where(parts[df["y"].to_numpy() == "eggs"] == 3, 2, parts[df["y"].to_numpy() == "eggs"])
    model = NaiveBayes(TYPES)
    stats = model.summarize_parts(df, "y", parts, weight)
    assert len(stats) == 4 and "eggs" not in stats[3].classes        # a class with no row in a part is left out
    probe = frame(2, 50)
    for p, part_stats in enumerate(stats):
        rows = df.iloc[np.flatnonzero(parts == p)]
        alone = model.summarize(rows, "y", weight)
        assert part_stats.classes == alone.classes
        np.testing.assert_array_equal(part_stats.class_counts, alone.class_counts)
        assert_same_predictions(NaiveBayes(TYPES).fit_stats(part_stats, "y", weight),
                                NaiveBayes(TYPES).fit(rows, "y", weight), probe)
    # The parts add up to the whole, and the whole minus a part is the fit of the rest.
    total = stats[0] + stats[1] + stats[2] + stats[3]
    assert_same_predictions(NaiveBayes(TYPES).fit_stats(total, "y", weight), NaiveBayes(TYPES).fit(df, "y", weight),
                            probe)
    rest = df.iloc[np.flatnonzero(parts != 1)]
    assert_same_predictions(NaiveBayes(TYPES).fit_stats(total - stats[1], "y", weight),
                            NaiveBayes(TYPES).fit(rest, "y", weight), probe)


def test_the_moments_and_counts_of_a_part_are_those_of_its_rows_bit_for_bit():
    df = frame(3, 500)
    parts = np.arange(len(df)) % 3
    model = NaiveBayes({"colour": "categorical", "size": "gaussian", "visits": "poisson", "n1": "multinomial"})
    for p, part_stats in enumerate(model.summarize_parts(df, "y", parts)):
        alone = model.summarize(df.iloc[np.flatnonzero(parts == p)], "y")
        gaussian = [i for i, b in enumerate(alone.blocks) if type(b).__name__ == "MomentStats"][0]
        gaussian_got, gaussian_alone = part_stats.blocks[gaussian], alone.blocks[gaussian]
        for name in ("n", "mean", "m2"):
            assert np.array_equal(getattr(gaussian_got, name), getattr(gaussian_alone, name))
        assert stats_to_json(part_stats) == stats_to_json(alone)


def test_parts_must_number_every_row():
    df = frame(4, 20)
    model = NaiveBayes({"size": "gaussian"})
    for parts in (np.zeros(19, dtype=int), np.full(20, -1), np.zeros(20)):
        with pytest.raises(ValueError, match="parts must give each of the 20 rows"):
            model.summarize_parts(df, "y", parts)


def test_bad_values_are_refused_as_by_summarize():
    df = frame(5, 40).assign(size=lambda d: d["size"].astype(object))
    df.loc[7, "size"] = "tall"
    model = NaiveBayes(TYPES)
    with pytest.raises(DataError) as whole:
        model.summarize(df, "y")
    with pytest.raises(DataError) as parts:
        model.summarize_parts(df, "y", np.arange(40) % 2)
    assert str(parts.value) == str(whole.value) and "row 7" in str(whole.value)


def test_log_posterior_of_positions_is_that_of_the_rows_copied(monkeypatch):
    df = frame(6, 2_000)
    model = NaiveBayes(TYPES).fit(df, "y")
    positions = np.random.default_rng(7).permutation(len(df))[:700]
    for threshold in (1, 10**9):         # in row ranges on threads, and in one pass
        monkeypatch.setattr(threads, "THREADED_ROWS", threshold)
        log_proba, undetermined = model.log_posterior(df, rows=positions)
        copied, copied_undetermined = model.log_posterior(df.iloc[positions])
        pd.testing.assert_frame_equal(log_proba, copied)
        pd.testing.assert_series_equal(undetermined, copied_undetermined)
    with pytest.raises(ValueError, match="rows must be positions"):
        model.log_posterior(df, rows=np.array([0, 2_000]))


def test_kfold_from_one_pass_equals_the_models_fitted_on_each_training_part():
    df = frame(8, 400)
    result = evaluate.cross_validate(lambda: NaiveBayes(TYPES), df, "y", k=4, seed=3)
    table = result.predictions.set_index("row")
    for fold in range(4):
        test = result.folds == fold
        expected = NaiveBayes(TYPES).fit(df[~test], "y").predict_proba(df[test])
        got = table.loc[df.index[test], [f"P({c})" for c in expected.columns]].to_numpy()
        np.testing.assert_allclose(got, expected.to_numpy(), rtol=1e-9, atol=1e-12)


def test_kfold_still_names_the_fold_of_a_bad_value():
    df = frame(9, 60).assign(weight=lambda d: d["weight"].astype(object))
    df.loc[10, "weight"] = "heavy"
    with pytest.raises(DataError, match=r"^While fitting on fold \d of 3: .*'weight'.*row 10"):
        evaluate.cross_validate(lambda: NaiveBayes(TYPES), df, "y", k=3)
