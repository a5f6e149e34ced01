"""Checking the naive assumption (issue 12): conditional mutual information by hand and against
scikit-learn's mutual_info_score per class; the model with and without a feature; the type choice."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import mutual_info_score

import nbapp
from nbapp import DataError
from nbapp.choices import compare_feature_types, compare_without, fit_comparison_plot
from nbapp.dependence import strongest_pairs


def test_cmi_of_a_hand_example():
    # class p: A = B (dependent), class q: A and B independent and uniform
    df = pd.DataFrame({"A": [0, 1, 0, 1, 0, 0, 1, 1], "B": [0, 1, 0, 1, 0, 1, 0, 1], "y": list("ppppqqqq")})
    cmi = nbapp.conditional_mutual_information(df, "y", {"A": "categorical", "B": "categorical"})
    # I = P(p) * ln 2 + P(q) * 0: within p, P(a, b) = 1/2 on the diagonal, P(a) P(b) = 1/4
    assert cmi.loc["A", "B"] == pytest.approx(0.5 * np.log(2))
    assert cmi.loc["A", "A"] == pytest.approx(np.log(2))                  # H(A | C)
    pd.testing.assert_frame_equal(cmi, cmi.T)


def test_cmi_equals_the_class_weighted_mutual_information_of_sklearn():
    rng = np.random.default_rng(0)
    n = 500
    y = rng.choice(["p", "q", "r"], n)
    a = rng.choice(list("uvw"), n)
    b = np.where(rng.random(n) < 0.6, a, rng.choice(list("uvw"), n))
    df = pd.DataFrame({"a": a, "b": b, "c": rng.choice(["x", "z"], n), "y": y})
    df.loc[rng.random(n) < 0.1, "b"] = None                          # rows with b missing are left out
    cmi = nbapp.conditional_mutual_information(df, "y", {"a": "categorical", "b": "categorical", "c": "categorical"})
    both = df.dropna()
    expected = sum((both["y"] == c).mean() * mutual_info_score(both.loc[both.y == c, "a"], both.loc[both.y == c, "b"])
                   for c in ("p", "q", "r"))
    assert cmi.loc["a", "b"] == pytest.approx(expected, rel=1e-12)
    pairs = strongest_pairs(cmi, 2)
    assert (pairs.loc[0, "a"], pairs.loc[0, "b"]) == ("a", "b") and pairs["cmi"].is_monotonic_decreasing


def test_numbers_are_cut_into_quantile_bins_and_text_is_left_out():
    rng = np.random.default_rng(1)
    n = 400
    x = rng.permutation(n) * 0.1         # distinct values, each its own bin of the statistics' grid
    df = pd.DataFrame({"x": x, "x2": x + rng.normal(0, 1, n), "t": "some words here", "y": rng.choice(["p", "q"], n)})
    cmi = nbapp.conditional_mutual_information(df, "y", {"x": "gaussian", "x2": nbapp.KDE(), "t": "text"}, bins=4)
    assert list(cmi.index) == ["x", "x2"]
    codes = pd.qcut(x, 4, labels=False)                                  # 4 equal-count bins of distinct values
    assert cmi.loc["x", "x"] == pytest.approx(sum((df.y == c).mean() * _entropy(codes[df.y == c]) for c in "pq"))
    assert cmi.loc["x", "x2"] > 0.5
    with pytest.raises(DataError, match="bins"):
        nbapp.conditional_mutual_information(df, "y", {"x": "gaussian"}, bins=1)


def _entropy(codes: np.ndarray) -> float:
    p = np.bincount(codes) / len(codes)
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def test_the_model_without_one_of_a_dependent_pair_by_cross_validation():
    rng = np.random.default_rng(2)
    n = 300
    y = rng.choice(["p", "q"], n)
    x = rng.normal(0, 1, n) + (y == "p")
    df = pd.DataFrame({"x": x, "copy": x + rng.normal(0, 0.01, n), "y": y})
    types = {"x": "gaussian", "copy": "gaussian"}
    m = nbapp.NaiveBayes(types).fit(df, "y")
    result = compare_without(m, df, "copy", {"x": 0.5, "copy": 0.5})
    with_cv = nbapp.evaluate.cross_validate(lambda: nbapp.NaiveBayes(types), df, "y").scores.log_loss
    without_cv = nbapp.evaluate.cross_validate(lambda: nbapp.NaiveBayes({"x": "gaussian"}), df, "y").scores.log_loss
    assert (result.log_loss_with, result.log_loss_without) == pytest.approx((with_cv, without_cv))
    assert result.change < 0            # counting x twice makes the model overconfident
    alone = nbapp.NaiveBayes({"x": "gaussian"}).fit(df, "y").explain({"x": 0.5}).posterior
    pd.testing.assert_series_equal(result.posterior_without, alone)
    with pytest.raises(DataError, match="only feature"):
        compare_without(nbapp.NaiveBayes({"x": "gaussian"}).fit(df, "y"), df, "x")


def test_type_choices_of_a_count_column_are_cross_validated_and_plotted():
    rng = np.random.default_rng(3)
    n = 200
    y = rng.choice(["p", "q"], n)
    df = pd.DataFrame({"v": rng.poisson(np.where(y == "p", 1.0, 4.0)), "y": y})
    m = nbapp.NaiveBayes({"v": "poisson"}).fit(df, "y")
    table = compare_feature_types(m, df, "v")
    # the density types in the registry's order (each type that declares density_choice and suits counts)
    assert list(table.index) == ["gaussian", "poisson", "kde"] and table["current"].tolist() == [False, True, False]
    expected = nbapp.evaluate.cross_validate(lambda: nbapp.NaiveBayes({"v": nbapp.KDE()}), df, "y").scores.log_loss
    assert table.loc["kde", "log_loss"] == pytest.approx(expected)
    plot = fit_comparison_plot(m, "v", df)
    assert set(plot.curves["type"]) == {"gaussian", "kde", "poisson"}
    hist = plot.histogram[plot.histogram["class"] == "p"]
    assert float(((hist["right"] - hist["left"]) * hist["density"]).sum()) == pytest.approx(1.0)


def test_a_weight_counts_as_repeated_rows_and_a_discretized_column_is_compared_as_itself():
    df = pd.DataFrame({"a": list("uvuvuv"), "b": list("uvvvuu"), "y": list("ppppqq"), "w": [3, 1, 2, 1, 1, 2]})
    types = {"a": "categorical", "b": "categorical"}
    repeated = df.loc[df.index.repeat(df["w"])]
    pd.testing.assert_frame_equal(nbapp.conditional_mutual_information(df, "y", types, weight="w"),
                                  nbapp.conditional_mutual_information(repeated, "y", types))
    rng = np.random.default_rng(4)
    data = pd.DataFrame({"x": rng.normal(0, 1, 120), "y": rng.choice(["p", "q"], 120)})
    m = nbapp.NaiveBayes({"x": nbapp.Discretized(bins=3)}).fit(data, "y")
    table = compare_feature_types(m, data, "x")
    assert list(table.index) == ["gaussian", "kde", "discretized"] and table.loc["discretized", "current"]
