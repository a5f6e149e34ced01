"""The KDE feature (issue 12): its density against scipy.stats.gaussian_kde with the same
bandwidth (unweighted and weighted), the bandwidth rules by their formulas, the stated
approximation error, the dyadic grid whose merges equal one fit, JSON, partial_fit and sampling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import gaussian_kde

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.blocks.grid import MAX_BINS, GridStats, precision_level


def two_classes(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"x": np.r_[rng.normal(0, 1, n), rng.lognormal(0, 1, n)], "y": ["a"] * n + ["b"] * n,
                         "w": rng.integers(1, 5, 2 * n)})


def relative_error(model: NaiveBayes, df: pd.DataFrame, weighted: bool, floor: float = 1e-6) -> float:
    """Largest |ours - scipy| / scipy over a grid where scipy's density is above floor x its peak."""
    worst = 0.0
    h = model.parameters("x")["h"]
    for c in model.classes_:
        part = df[df["y"] == c]
        exact = gaussian_kde(part["x"], weights=part["w"] if weighted else None)
        # scipy's bandwidth is factor x the weighted std: ours must be the same h
        assert h[c] == pytest.approx(np.sqrt(exact.covariance[0, 0]), rel=1e-12)
        points = np.linspace(part["x"].min() - 3 * h[c], part["x"].max() + 3 * h[c], 1500)
        ref = exact(points)
        ours = model.gaussian_density("x", points)[c].to_numpy()
        keep = ref > floor * ref.max()
        worst = max(worst, float(np.max(np.abs(ours[keep] - ref[keep]) / ref[keep])))
    return worst


@pytest.mark.parametrize("weighted", [False, True])
def test_density_equals_scipy_gaussian_kde_with_scotts_bandwidth(weighted):
    df = two_classes()
    m = NaiveBayes({"x": nbapp.KDE()}).fit(df, "y", weight="w" if weighted else None)
    assert relative_error(m, df, weighted) < 1e-8          # measured: 1.3e-10, weighted too


@pytest.mark.parametrize("weighted", [False, True])
def test_silverman_and_a_given_bandwidth_match_scipy(weighted):
    df = two_classes(seed=1)
    w = df["w"] if weighted else None
    silver = NaiveBayes({"x": nbapp.KDE("silverman")}).fit(df, "y", weight="w" if weighted else None)
    given_h = NaiveBayes({"x": nbapp.KDE(0.4)}).fit(df, "y", weight="w" if weighted else None)
    points = np.linspace(-3, 8, 200)
    for c in ("a", "b"):
        part = df["y"] == c
        x, pw = df.loc[part, "x"], None if w is None else w[part]
        ref = gaussian_kde(x, bw_method="silverman", weights=pw)
        assert silver.parameters("x")["h"][c] == pytest.approx(np.sqrt(ref.covariance[0, 0]), rel=1e-12)
        # far out the density is the class's floor (see test_a_class_with_no_value_near_x_gets_...)
        floor = silver.parameters("x")["floor"][c]
        np.testing.assert_allclose(silver.gaussian_density("x", points)[c], np.maximum(ref(points), floor),
                                   rtol=1e-7, atol=1e-14)
        fixed = gaussian_kde(x, bw_method=1.0, weights=pw)
        fixed.set_bandwidth(0.4 / np.sqrt(fixed.covariance[0, 0]))     # scipy's factor = h / std
        floor = given_h.parameters("x")["floor"][c]
        np.testing.assert_allclose(given_h.gaussian_density("x", points)[c], np.maximum(fixed(points), floor),
                                   rtol=1e-7, atol=1e-14)
    assert (given_h.parameters("x")["h"] == 0.4).all()


def test_bandwidth_rules_by_their_formulas():
    # h = s * n_eff^(-1/5), s^2 = (M2 / W) / (1 - w2 / W^2), n_eff = W^2 / w2   (scott)
    x, w = np.array([1.0, 2.0, 4.0, 7.0]), np.array([1.0, 2.0, 1.0, 3.0])
    df = pd.DataFrame({"x": x, "w": w, "y": "a"})
    df = pd.concat([df, pd.DataFrame({"x": [0.0, 1.0], "w": [1.0, 1.0], "y": "b"})], ignore_index=True)
    W, mean = w.sum(), np.average(x, weights=w)
    s = np.sqrt((np.sum(w * (x - mean) ** 2) / W) / (1 - np.sum(w**2) / W**2))
    n_eff = W**2 / np.sum(w**2)
    scott = NaiveBayes({"x": nbapp.KDE("scott")}).fit(df, "y", weight="w").parameters("x")
    silver = NaiveBayes({"x": nbapp.KDE("silverman")}).fit(df, "y", weight="w").parameters("x")
    assert scott.loc["a", "h"] == pytest.approx(s * n_eff ** -0.2)
    assert silver.loc["a", "h"] == pytest.approx(s * (0.75 * n_eff) ** -0.2)
    assert scott.loc["a", "n_eff"] == pytest.approx(n_eff)


def test_a_class_with_one_value_borrows_the_spread_of_the_column():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0], "y": ["a", "a", "a", "b"]})
    fits = NaiveBayes({"x": nbapp.KDE()}).fit(df, "y").parameters("x")
    whole = np.std(df["x"], ddof=1)
    assert fits.loc["b", "h"] == pytest.approx(whole * 1 ** -0.2)
    assert "whole column" in fits.loc["b", "note"] and fits.loc["a", "note"] == ""
    constant = NaiveBayes({"x": nbapp.KDE()}).fit(pd.DataFrame({"x": [5.0] * 4, "y": list("aabb")}), "y")
    assert constant.parameters("x")["h"].tolist() == pytest.approx([5 * 2 ** -0.2] * 2)   # max(|mean|, 1)
    assert np.isfinite(constant.predict_proba(pd.DataFrame({"x": [5.0, 1e6]})).to_numpy()).all()


def test_the_approximation_error_on_large_skewed_data_is_below_the_stated_bound():
    # 20,000 skewed values per class: many values share a bin; measured 6e-8 where the density is
    # above 1e-6 of its peak and 1e-8 above 1e-2 of it (the module docstring states these).
    rng = np.random.default_rng(3)
    n = 20_000
    df = pd.DataFrame({"x": np.r_[rng.lognormal(0, 1, n), rng.gamma(2, 2, n)], "y": ["a"] * n + ["b"] * n,
                       "w": 1.0})
    m = NaiveBayes({"x": nbapp.KDE()}).fit(df, "y")
    assert (m.parameters("x")["w/h"] < 0.12).all()
    assert relative_error(m, df, weighted=False) < 1e-5
    assert relative_error(m, df, weighted=False, floor=1e-2) < 1e-6


def test_far_values_still_rank_the_classes_without_a_floor():
    df = pd.DataFrame({"x": [0.0, 1.0, 2.0, 10.0, 11.0, 12.0], "y": list("aaabbb")})
    m = NaiveBayes({"x": nbapp.KDE()}, var_smoothing=0).fit(df, "y")
    log = m.joint_log_likelihood(pd.DataFrame({"x": [-1e4, 1e4, 6.0]}))
    assert np.isfinite(log.to_numpy()).all()
    assert m.predict(pd.DataFrame({"x": [-1e4, 1e4]})).tolist() == ["a", "b"]
    # far left, p(x | c) underflows float64, but its log is dominated by each class's nearest
    # point (0 for a, 10 for b): log p = -z^2 / 2 - log(3 h sqrt(2 pi)) up to e^-(huge)
    h = m.parameters("x")["h"]
    z = [(-1e4 - 0.0) / h["a"], (-1e4 - 10.0) / h["b"]]
    expected = (-0.5 * z[0] ** 2 - np.log(3 * h["a"])) - (-0.5 * z[1] ** 2 - np.log(3 * h["b"]))
    assert log.iloc[0, 0] - log.iloc[0, 1] == pytest.approx(expected, rel=1e-6)
    assert (m.parameters("x")["floor"] == 0).all()
    # with the floor (var_smoothing > 0), a value far from every class gets each class's floor
    floored = NaiveBayes({"x": nbapp.KDE()}).fit(df, "y")
    far = floored.block_of("x").log_density(np.array([-1e4, 1e4]))
    np.testing.assert_allclose(far, np.log(floored.parameters("x")["floor"].to_numpy())[None, :].repeat(2, 0))


def weather(seed: int = 0, n: int = 300) -> pd.DataFrame:
    """Daily precipitation (mm, mostly zeros) by weather: rain spreads to 20 mm, drizzle stays
    below 0.6 mm, sun is dry, as the weather table of issue 21."""
    rng = np.random.default_rng(seed)
    rain = np.where(rng.random(n) < 0.2, 0.0, np.round(rng.gamma(2.0, 2.5, n), 1))
    drizzle = np.where(rng.random(n) < 0.7, 0.0, np.round(rng.uniform(0.1, 0.6, n), 1))
    return pd.DataFrame({"precipitation": np.r_[rain, drizzle, np.zeros(n)],
                         "weather": ["rain"] * n + ["drizzle"] * n + ["sun"] * n})


def test_a_class_with_no_value_near_x_gets_the_density_floor_and_a_note():
    # P(4.1 mm | drizzle) was exactly 0 (the kernels of values below 0.6 mm with h = 0.06 are
    # e^-2000 there), which ruled drizzle out with no note. Now it is the floor
    # eps_c = var_smoothing phi(0) / (n_eff h_c): tiny, positive and said.
    df = weather()
    m = NaiveBayes({"precipitation": "kde"}).fit(df, "weather")
    fits = m.parameters("precipitation")
    eps = 1e-9 / (np.sqrt(2 * np.pi) * fits["n_eff"] * fits["h"])
    np.testing.assert_allclose(fits["floor"], eps, rtol=1e-12)
    e = m.explain({"precipitation": 4.1})
    p = e.probabilities.loc["precipitation"]
    assert p["drizzle"] == pytest.approx(fits.loc["drizzle", "floor"], rel=1e-12) and p["drizzle"] > 0
    assert e.posterior["drizzle"] > 0
    rain = df.loc[df["weather"] == "rain", "precipitation"]
    assert p["rain"] == pytest.approx(gaussian_kde(rain)(4.1)[0], rel=1e-9)       # not floored
    [note] = [n for n in e.notes if "floor" in n]
    assert "precipitation = 4.1" in note and "for class 'drizzle':" in note
    # the floor is below var_smoothing times the class's peak density, so wherever the density is
    # not far out in the tails it is scipy's, as before
    drizzle = df.loc[df["weather"] == "drizzle", "precipitation"]
    points = np.linspace(-0.3, 0.9, 121)
    ref = gaussian_kde(drizzle)(points)
    assert fits.loc["drizzle", "floor"] <= 1e-9 * ref.max()
    np.testing.assert_allclose(m.gaussian_density("precipitation", points)["drizzle"], ref, rtol=1e-9)
    assert not [n for n in m.explain({"precipitation": 0.3}).notes if "floor" in n]


def test_without_var_smoothing_there_is_no_floor():
    m = NaiveBayes({"precipitation": "kde"}, var_smoothing=0).fit(weather(), "weather")
    e = m.explain({"precipitation": 4.1})
    assert e.probabilities.loc["precipitation", "drizzle"] == 0.0          # underflows, as before
    assert np.isfinite(e.logs.loc["precipitation", "drizzle"])              # its log still ranks
    assert not [n for n in e.notes if "floor" in n]


def test_explain_gives_the_kde_factor_and_missing_is_left_out():
    df = two_classes(50)
    m = NaiveBayes({"x": nbapp.KDE()}).fit(df, "y")
    e = m.explain({"x": 0.3})
    part = df[df["y"] == "a"]["x"]
    assert np.exp(e.logs.loc["x", "a"]) == pytest.approx(gaussian_kde(part)(0.3)[0], rel=1e-8)
    assert e.factors.loc["x", "kind"] == "kde" and e.factors.loc["x", "status"] == "used"
    assert "h = " in e.factors.loc["x", "detail"]
    assert m.explain({"x": None}).factors.loc["x", "status"] == "missing"


def test_json_round_trip_partial_fit_and_merge_equal_one_fit():
    df = two_classes(200, seed=4)
    m = NaiveBayes({"x": nbapp.KDE("silverman")}).fit(df, "y", weight="w")
    back = NaiveBayes.from_json(m.to_json())
    assert back.features_["x"] == nbapp.KDE("silverman")
    pd.testing.assert_frame_equal(back.predict_proba(df), m.predict_proba(df))
    parts = NaiveBayes({"x": nbapp.KDE("silverman")})
    shuffled = df.sample(frac=1, random_state=0)
    for rows in np.array_split(np.arange(len(df)), 5):
        parts.partial_fit(shuffled.iloc[rows], "y", weight="w")
    np.testing.assert_allclose(parts.predict_proba(df), m.predict_proba(df), atol=1e-12)
    with pytest.raises(DataError, match="KDE bandwidth"):
        nbapp.KDE(bandwidth=-1)
    with pytest.raises(DataError, match="kernel"):
        nbapp.KDE(kernel="epanechnikov")
    with pytest.raises(DataError, match="not linear"):
        NaiveBayes({"x": nbapp.KDE()}).fit(df, "y").linear_form()


def test_sampling_draws_from_the_class_density():
    df = two_classes(500, seed=5)
    m = NaiveBayes({"x": "kde"}).fit(df, "y")
    drawn = m.sample(20_000, random_state=0)
    for c in ("a", "b"):
        values, mine = df.loc[df.y == c, "x"], drawn.loc[drawn.y == c, "x"]
        h = m.parameters("x")["h"][c]
        assert mine.mean() == pytest.approx(values.mean(), abs=0.05 * values.std())
        assert mine.var() == pytest.approx(values.var(ddof=0) + h**2, rel=0.1)   # KDE variance: s^2 + h^2


# -- the dyadic grid ----------------------------------------------------------------------------


def test_the_level_is_the_finest_at_which_the_values_fill_at_most_max_bins_bins():
    rng = np.random.default_rng(2)
    for x in [rng.normal(0, 1, 50_000), np.r_[rng.normal(0, 1, 50_000), 1e6], rng.lognormal(0, 2, 30_000),
              np.r_[rng.normal(1e9, 1, 20_000), -5.0], np.arange(MAX_BINS) * 0.1, np.full(10, 5.0),
              np.array([-1e300, 1e300])]:
        s = GridStats.count(x, np.zeros(len(x), dtype=np.int64), np.ones(len(x)), 1)
        filled = lambda level: len(np.unique(np.floor(np.ldexp(x, -level))))  # noqa: E731
        assert s.bins == filled(s.exponent) <= MAX_BINS
        assert filled(s.exponent - 1) > MAX_BINS or s.exponent == precision_level(np.abs(x).max())
        np.testing.assert_array_equal(s.left_edges(), np.unique(np.ldexp(np.floor(np.ldexp(x, -s.exponent)), s.exponent)))
    few = GridStats.count(np.array([0.1, 0.2, 1e6]), np.zeros(3, dtype=np.int64), np.ones(3), 1)
    assert few.bins == 3 and (few.bin_moments(few.exponent, 0)[2] == 0).all()   # a bin each: exact values


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), parts=st.integers(2, 5), scale=st.sampled_from([1e-3, 1.0, 1e6]),
       spread=st.sampled_from([0.0, 1.0, 1e4]))
def test_grid_statistics_of_any_partition_add_up_to_one_pass(seed, parts, scale, spread):
    rng = np.random.default_rng(seed)
    n = 60
    x = (rng.normal(0, 1, n) * rng.choice([1.0, spread], n) + rng.integers(-3, 3)) * scale
    x[rng.random(n) < 0.05] = 999_999.0 * scale           # a sentinel far from the rest
    x[rng.random(n) < 0.1] = np.nan
    y, w = rng.integers(0, 3, n), rng.integers(0, 3, n).astype(float)      # zero weights too
    one = GridStats.count(x, y, w, 3)
    cuts = np.sort(rng.choice(np.arange(1, n), parts - 1, replace=False))
    pieces = [GridStats.count(x[a:b], y[a:b], w[a:b], 3) for a, b in zip([0, *cuts], [*cuts, n])]
    order = rng.permutation(len(pieces))
    total = pieces[order[0]]
    for i in order[1:]:
        total = total + pieces[i]
    assert total.exponent == one.exponent
    np.testing.assert_array_equal(total.keys, one.keys)
    np.testing.assert_allclose(total.mass, one.mass, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(total.first, one.first, rtol=1e-9, atol=1e-12 * total.width * total.mass.max())
    np.testing.assert_allclose(total.second, one.second, rtol=1e-9, atol=1e-12 * total.width**2 * total.mass.max())
    np.testing.assert_allclose(total.n, one.n)
    np.testing.assert_allclose(total.w2, one.w2)
    np.testing.assert_allclose(total.m2, one.m2, rtol=1e-9, atol=1e-6 * (scale * max(1.0, spread)) ** 2)


def test_a_model_file_with_a_bad_grid_is_refused_by_field():
    df = two_classes(30)
    text = NaiveBayes({"x": "kde"}).fit(df, "y").to_json()
    for old, new, message in [('"exponent": ', '"exponent": 5000, "x": ', "exponent is 5000"),
                              ('"offset": ', '"offset": 1.5, "y": ', "offset is 1.5"),
                              ('"keys": [0, ', '"keys": [0, 0, ', "keys should list"),
                              ('"keys": [0, ', '"keys": [9000000000000000, ', "keys should increase"),
                              ('"keys": [0, ', '"keys": [-1, ', "keys should list")]:
        broken = text.replace(old, new, 1)
        with pytest.raises(DataError, match=message):
            NaiveBayes.from_json(broken)


def test_kde_and_discretized_columns_fit_from_files_as_in_memory(tmp_path):
    df = two_classes(400, seed=6).assign(s=lambda f: np.round(f["x"] * 3 + 1, 2))
    for i, rows in enumerate(np.array_split(np.arange(len(df)), 3)):
        df.iloc[rows].to_csv(tmp_path / f"part{i}.csv", index=False)
    types = {"x": nbapp.KDE(), "s": nbapp.Discretized(strategy="mdl")}
    from_files = nbapp.fit_file(NaiveBayes(types), str(tmp_path / "part*.csv"), target="y", weight="w")
    memory = NaiveBayes(types).fit(df, "y", weight="w")
    pd.testing.assert_frame_equal(from_files.parameters("x"), memory.parameters("x"), rtol=1e-12)
    pd.testing.assert_frame_equal(from_files.counts("s"), memory.counts("s"))
    np.testing.assert_allclose(from_files.predict_proba(df), memory.predict_proba(df), atol=1e-12)


def test_subtracting_a_part_leaves_the_rest_at_the_whole_level():
    rng = np.random.default_rng(8)
    x, y, w = rng.normal(0, 1, 200), rng.integers(0, 2, 200), rng.integers(1, 3, 200).astype(float)
    whole, part = GridStats.count(x, y, w, 2), GridStats.count(x[:50], y[:50], w[:50], 2)
    rest = whole - part
    alone = GridStats.count(x[50:], y[50:], w[50:], 2)
    np.testing.assert_allclose(rest.n, alone.n)
    np.testing.assert_allclose(rest.mean, alone.mean, rtol=1e-12)
    np.testing.assert_allclose(rest.m2, alone.m2, rtol=1e-9)
    keys, mass, first, second = alone.at_level(rest.exponent)
    np.testing.assert_array_equal(rest.keys, keys)          # the bins only the part held are gone
    np.testing.assert_allclose(rest.mass, mass, atol=1e-9)
    np.testing.assert_allclose(rest.second, second, atol=1e-9 * rest.width**2)
    assert rest.mass.sum() == pytest.approx(mass.sum())
    back = rest + part
    assert back.exponent == whole.exponent
    np.testing.assert_array_equal(back.keys, whole.keys)
    np.testing.assert_allclose(back.mass, whole.mass, atol=1e-9)


def test_a_kde_column_whose_variance_overflows_is_refused_by_name():
    df = pd.DataFrame({"x": [1e200, -1e200, 1.0, 2.0], "y": list("aabb")})
    with pytest.raises(DataError, match="Column 'x' holds values so large"):
        NaiveBayes({"x": "kde"}).fit(df, "y")


def test_values_so_small_that_their_variance_underflows_are_refused_by_name():
    df = pd.DataFrame({"x": [1e-200, 2e-200, 3e-200, 5e-200], "y": list("aabb")})
    with pytest.raises(DataError, match="Column 'x' holds values so small that their variance underflows"):
        NaiveBayes({"x": "kde"}).fit(df, "y")
    assert NaiveBayes({"x": "discretized"}).fit(df, "y").predict(df).tolist() == list("aabb")


def test_scott_s_rule_of_one_sample_is_scipy_s_and_the_model_s():
    # the one owner of the rule the app's column options propose (it had its own unweighted copy)
    from scipy.stats import gaussian_kde

    from nbapp.blocks.kde import scott_bandwidth

    rng = np.random.default_rng(5)
    x, w = rng.gamma(2.0, 1.5, 300), rng.integers(1, 4, 300).astype(float)
    reference = gaussian_kde(x, weights=w)
    assert scott_bandwidth(x, w) == pytest.approx(np.sqrt(reference.covariance[0, 0]), rel=1e-12)
    y = np.where(np.arange(300) < 150, "a", "b")
    model = nbapp.NaiveBayes({"x": nbapp.KDE()}).fit(pd.DataFrame({"x": x, "y": y}), "y")
    assert scott_bandwidth(np.r_[x[:150], np.nan]) == pytest.approx(model.parameters("x")["h"].iloc[0], rel=1e-12)


# -- one extreme value (issue 21) ---------------------------------------------------------------


def with_sentinel(seed: int = 21, n: int = 10_000, sentinel: bool = True) -> pd.DataFrame:
    """n normal values in two classes 1 apart, and (when ``sentinel``) one 1e6 in class a: the
    999999 of an export."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, n)
    y = rng.choice(["a", "b"], n)
    x[y == "b"] += 1.0
    if sentinel:
        x, y = np.append(x, 1e6), np.append(y, "a")
    return pd.DataFrame({"x": x, "y": y, "w": 1.0})


def scipy_kde(values: pd.Series, h: float | None) -> gaussian_kde:
    """scipy's exact KDE of the values, with bandwidth h (Scott's rule when None)."""
    exact = gaussian_kde(values)
    if h is not None:
        exact.set_bandwidth(h / np.sqrt(exact.covariance[0, 0] / exact.factor**2))    # factor = h / std
    return exact


@pytest.mark.parametrize("sentinel", [True, False])
@pytest.mark.parametrize("h", [0.5, None])
def test_one_extreme_value_leaves_the_kde_equal_to_scipy(sentinel, h):
    df = with_sentinel(sentinel=sentinel)
    m = NaiveBayes({"x": nbapp.KDE(h if h is not None else "scott")}).fit(df, "y")
    points = np.linspace(-4.0, 5.0, 301)
    exact = {c: scipy_kde(df.loc[df["y"] == c, "x"], h) for c in ("a", "b")}
    joint = {}
    for c in ("a", "b"):
        assert m.parameters("x").loc[c, "h"] == pytest.approx(np.sqrt(exact[c].covariance[0, 0]), rel=1e-12)
        ref = exact[c](points)
        ours = m.gaussian_density("x", points)[c].to_numpy()
        keep = ref > 1e-6 * ref.max()
        assert np.max(np.abs(ours[keep] - ref[keep]) / ref[keep]) < 1e-8      # measured: 7e-9
        joint[c] = np.maximum(ref, m.parameters("x").loc[c, "floor"]) * (df["y"] == c).mean()
    posterior = joint["a"] / (joint["a"] + joint["b"])
    np.testing.assert_allclose(m.predict_proba(pd.DataFrame({"x": points}))["a"], posterior, rtol=1e-8)
    if sentinel:                    # the sentinel keeps a bin of its own
        assert m.predict_proba(pd.DataFrame({"x": [1e6]}))["a"][0] > 0.99


def test_one_extreme_value_costs_one_bin_of_the_model_file():
    # The grid is stored sparsely: the sentinel adds one bin, not the 10^9 bins of the bulk's
    # level between 4 and 1e6, and the bulk keeps its own level.
    def stats(sentinel: bool) -> GridStats:
        return NaiveBayes({"x": "kde"}).fit(with_sentinel(sentinel=sentinel), "y").block_of("x").stats

    alone, both = stats(False), stats(True)
    assert both.exponent == alone.exponent and both.bins == alone.bins + 1
    sizes = [len(NaiveBayes({"x": "kde"}).fit(with_sentinel(sentinel=s), "y").to_json()) for s in (False, True)]
    assert sizes[1] - sizes[0] < 200
    assert sizes[1] < 200_000        # 140 kB: at most 2048 bins x 2 classes (format 2's dense grid: 142 kB)
