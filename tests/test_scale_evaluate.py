"""cross_validate_file: two streamed passes give the in-memory k-fold with the same folds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import evaluate
from nbapp.ordering import classes_of
from nbapp.scale import cross_validate_file, hash_folds

FEATURES = {"colour": "categorical", "member": nbapp.Bernoulli(positive="yes"), "height": "gaussian",
            "visits": "poisson", "w1": "multinomial", "w2": "multinomial", "review": "text"}


def _csv(path: Path, n: int = 1200, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    y = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    height = np.round(rng.normal(170, 10, n) + (y == "b") * 5, 2).astype(str).astype(object)
    height[rng.random(n) < 0.05] = "N/A"
    pd.DataFrame({
        "y": y,
        "colour": np.where(y == "c", rng.choice(["red", "blue"], n), rng.choice(["red", "green"], n)),
        "member": rng.choice(["yes", "no"], n),
        "height": height,
        "visits": rng.poisson(3, n) + (y == "a"),
        "w1": rng.poisson(2, n),
        "w2": rng.poisson(1, n),
        "review": rng.choice(["great value, would buy", "the worst; never again", "ok I guess", ""], n),
        "w": rng.integers(1, 4, n),
    }).to_csv(path, index=False)
    return path


def _in_memory(frame: pd.DataFrame, folds: np.ndarray, k: int, weight: str | None = None):
    """Each fold's model fitted in memory on the other folds' rows; the pooled scores."""
    classes = classes_of(frame["y"])
    parts, fold_scores = [], []
    for fold in range(k):
        model = nbapp.NaiveBayes(FEATURES).fit(frame.iloc[np.flatnonzero(folds != fold)], "y", weight)
        test = frame.iloc[np.flatnonzero(folds == fold)]
        logp = evaluate.log_proba_for_scoring(model, test).reindex(columns=classes)
        parts.append(logp)
        fold_scores.append(evaluate.score(test["y"], logp))
    log_all = pd.concat(parts).loc[frame.index]
    return evaluate.score(frame["y"], log_all), fold_scores, log_all


def _assert_scores(got, expected) -> None:
    assert got.n == expected.n
    assert got.accuracy == pytest.approx(expected.accuracy, abs=1e-12)
    assert got.log_loss == pytest.approx(expected.log_loss, rel=1e-9)
    pd.testing.assert_frame_equal(got.confusion, expected.confusion, check_dtype=False)


def test_streamed_kfold_equals_in_memory_kfold_with_the_same_folds(tmp_path):
    path = _csv(tmp_path / "data.csv")
    frame = nbapp.load_table(path.read_bytes(), path.name).frame
    folds = hash_folds(np.arange(len(frame)), 5)
    expected, expected_folds, log_all = _in_memory(frame, folds, 5)
    progress = []
    result = cross_validate_file(nbapp.NaiveBayes(FEATURES), path, "y", k=5, batch_rows=250,
                                 progress=lambda done, total: progress.append((done, total)))
    _assert_scores(result.scores, expected)
    for got, exp in zip(result.fold_scores, expected_folds):
        _assert_scores(got, exp)
    assert progress[-1] == (2 * len(frame), 2 * len(frame))
    kept = result.predictions.set_index("row")
    columns = [f"P({c})" for c in log_all.columns]
    np.testing.assert_allclose(kept[columns].to_numpy(dtype=float),
                               np.exp(log_all.loc[kept.index].to_numpy()), rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(kept["fold"].to_numpy(), folds[kept.index.to_numpy(dtype=np.int64)] + 1)


def test_weighted_streamed_kfold_counts_rows_by_their_weight(tmp_path):
    path = _csv(tmp_path / "data.csv", n=600, seed=1)
    frame = nbapp.load_table(path.read_bytes(), path.name).frame
    folds = hash_folds(np.arange(len(frame)), 3)
    result = cross_validate_file(nbapp.NaiveBayes(FEATURES), path, "y", k=3, weight="w", batch_rows=200)
    repeat = np.repeat(np.arange(len(frame)), frame["w"].to_numpy())
    expanded = frame.iloc[repeat].reset_index(drop=True)
    expected, _, _ = _in_memory(expanded, folds[repeat], 3, weight=None)
    # fitting with weight w equals fitting the rows repeated w times
    assert result.scores.n == int(frame["w"].sum())
    assert result.scores.accuracy == pytest.approx(expected.accuracy, abs=1e-12)
    assert result.scores.log_loss == pytest.approx(expected.log_loss, rel=1e-9)


def test_hash_folds_are_deterministic_and_balanced():
    folds = hash_folds(np.arange(100_000), 5)
    np.testing.assert_array_equal(folds, hash_folds(np.arange(100_000), 5))
    sizes = np.bincount(folds, minlength=5)
    assert sizes.min() > 19_000 and sizes.max() < 21_000
    assert not np.array_equal(hash_folds(np.arange(1000), 5, file=1), folds[:1000])


def test_too_few_folds_is_refused(tmp_path):
    with pytest.raises(nbapp.DataError, match="at least 2 folds"):
        cross_validate_file(nbapp.NaiveBayes(FEATURES), _csv(tmp_path / "d.csv", n=50), "y", k=1)
