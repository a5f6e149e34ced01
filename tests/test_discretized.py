"""The discretised feature (issue 12): cut points of each strategy on hand examples (MDL by
Fayyad & Irani's criterion computed by hand), the CPT over intervals, merges, JSON and sampling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import KBinsDiscretizer

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.blocks.discretized import interval_labels
from nbapp.blocks.grid import mdl_cuts
from nbapp.explain import Fraction


def ent(*counts: float) -> float:
    p = np.array([c for c in counts if c > 0], dtype=float)
    p /= p.sum()
    return float(-(p * np.log2(p)).sum())


def fit(x, y, **spec) -> NaiveBayes:
    return NaiveBayes({"x": nbapp.Discretized(**spec)}, alpha=1).fit(pd.DataFrame({"x": x, "y": y}), "y")


def test_mdl_cuts_a_three_class_example_as_fayyad_and_irani():
    x = np.arange(1, 13, dtype=float)
    y = ["a"] * 4 + ["b"] * 4 + ["c"] * 4
    # first split of S = 4a 4b 4c: cuts 4.5 and 8.5 tie at E = 8/12 Ent(4b 4c) = 2/3; the first wins.
    gain = ent(4, 4, 4) - 8 / 12 * ent(4, 4)
    delta = np.log2(3**3 - 2) - (3 * ent(4, 4, 4) - 1 * 0 - 2 * ent(4, 4))
    assert gain > (np.log2(11) + delta) / 12                 # 0.918 > 0.445: accepted
    # then S2 = 4b 4c: gain 1 > (log2 7 + log2 7 - 2) / 8 = 0.452: accepted; pure parts stop
    assert 1 > (np.log2(7) + np.log2(7) - 2) / 8
    m = fit(x, y, strategy="mdl")
    assert m.block_of("x").cuts.tolist() == [4.5, 8.5]
    assert list(m.cpt("x").index) == ["(-inf, 4.5)", "[4.5, 8.5)", "[8.5, inf)"]
    # P([4.5, 8.5) | b) = (4 + 1) / (4 + 3)   [seed 000, Eq. 7 over the intervals]
    assert m.cpt("x", exact=True).loc["[4.5, 8.5)", "b"] == Fraction(5, 7)


def test_mdl_refuses_a_cut_that_does_not_pay_for_itself():
    # 1..6 alternating a b: the best cut (after 1, E = 5/6 Ent(2a 3b)) gains 0.19 < threshold 1.19
    y = ["a", "b"] * 3
    counts = np.array([[1, 0], [0, 1]] * 3, dtype=float)
    e = 5 / 6 * ent(2, 3)
    gain = ent(3, 3) - e
    delta = np.log2(7) - (2 * ent(3, 3) - 1 * 0 - 2 * ent(2, 3))
    assert gain < (np.log2(5) + delta) / 6
    assert mdl_cuts(counts) == []
    assert fit(np.arange(1, 7.0), y, strategy="mdl").cpt("x").index.tolist() == ["(-inf, inf)"]


def test_quantile_cuts_midway_between_values_and_uniform_cuts_match_kbins():
    x = np.arange(1, 9, dtype=float)
    y = list("aabbabab")
    assert fit(x, y, bins=4).block_of("x").cuts.tolist() == [2.5, 4.5, 6.5]
    values = np.array([0.0, 0.3, 1.1, 2.9, 4.0, 5.5, 7.2, 10.0])
    kbins = KBinsDiscretizer(n_bins=5, strategy="uniform", encode="ordinal").fit(values[:, None])
    ours = fit(values, list("abababab"), bins=5, strategy="uniform").block_of("x").cuts
    np.testing.assert_allclose(ours, kbins.bin_edges_[0][1:-1])          # 2, 4, 6, 8 fall in empty bins
    codes = fit(values, list("abababab"), bins=5, strategy="uniform").block_of("x").codes(pd.Series(values))
    np.testing.assert_array_equal(codes, kbins.transform(values[:, None])[:, 0])


def test_interval_labels_and_the_factor_of_a_value():
    assert interval_labels(np.array([2.5, 4.1])) == ["(-inf, 2.5)", "[2.5, 4.1)", "[4.1, inf)"]
    m = fit(np.arange(1, 9, dtype=float), list("aabbabab"), bins=4)
    e = m.explain({"x": 4.5})       # a value on a cut belongs to the interval on its right
    assert e.factors.loc["x", "detail"] == "in the interval [4.5, 6.5)"
    assert e.fractions.loc["x", "a"] == Fraction(1 + 1, 4 + 4)
    assert m.explain({"x": np.nan}).factors.loc["x", "status"] == "missing"
    with pytest.raises(DataError, match="strategy"):
        nbapp.Discretized(strategy="kmeans")
    with pytest.raises(DataError, match="bins"):
        nbapp.Discretized(bins=1)


def test_partitions_merge_to_the_cut_points_and_cpt_of_one_fit_and_json_round_trips():
    rng = np.random.default_rng(7)
    df = pd.DataFrame({"x": np.round(rng.normal(0, 1, 300), 2), "y": rng.choice(["p", "q", "r"], 300)})
    df.loc[df["y"] == "p", "x"] += 1.5
    for spec in (nbapp.Discretized(strategy="mdl"), nbapp.Discretized(bins=5), nbapp.Discretized(3, "uniform")):
        one = NaiveBayes({"x": spec}).fit(df, "y")
        parts = [NaiveBayes({"x": spec}).partial_fit(df.iloc[a:a + 60], "y") for a in range(0, 300, 60)]
        merged = nbapp.merge(parts)
        np.testing.assert_array_equal(merged.block_of("x").cuts, one.block_of("x").cuts)
        pd.testing.assert_frame_equal(merged.counts("x"), one.counts("x"))
        back = NaiveBayes.from_json(one.to_json())
        assert back.features_["x"] == spec
        pd.testing.assert_frame_equal(back.cpt("x"), one.cpt("x"))
        drawn = one.sample(2000, random_state=1)
        codes = one.block_of("x").codes(drawn["x"])
        assert (codes >= 0).all()          # every sampled value lies in one of the intervals


def test_sampled_intervals_follow_the_cpt():
    m = fit(np.arange(1, 13, dtype=float), ["a"] * 4 + ["b"] * 4 + ["c"] * 4, strategy="mdl")
    drawn = m.sample(30_000, random_state=2)
    block = m.block_of("x")
    for c in ("a", "b", "c"):
        codes = block.codes(drawn.loc[drawn["y"] == c, "x"])
        share = np.bincount(codes, minlength=3) / len(codes)
        np.testing.assert_allclose(share, m.cpt("x")[c].to_numpy(), atol=0.02)


def test_a_column_whose_squares_overflow_is_refused_by_name():
    df = pd.DataFrame({"x": [1e200, -1e200, 1.0, 2.0], "y": list("aabb")})
    with pytest.raises(DataError, match="Column 'x' holds values so large"):
        NaiveBayes({"x": "discretized"}).fit(df, "y")


def test_one_extreme_value_does_not_move_the_quantile_cut_points_of_the_others():
    # 10,000 normal values and one sentinel 1e6 (issue 21): the cut points are those of the
    # 10,000 within their sampling error (the standard error of a quartile is 0.014 here), and
    # P(interval | c) still tells the classes apart.
    rng = np.random.default_rng(21)
    x = rng.normal(0, 1, 10_000)
    y = rng.choice(["a", "b"], 10_000)
    x[y == "b"] += 1.0
    df = pd.DataFrame({"x": np.r_[x, 1e6], "y": [*y, "a"]})
    m = NaiveBayes({"x": nbapp.Discretized(bins=4)}).fit(df, "y")
    np.testing.assert_allclose(m.block_of("x").cuts, np.quantile(x, [0.25, 0.5, 0.75]), atol=0.01)
    proba = m.predict_proba(pd.DataFrame({"x": [-1.0, 2.5]}))["a"]
    assert proba[0] > 0.6 > 0.4 > proba[1]
