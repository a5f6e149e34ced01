"""The data behind a Gaussian-fit plot: histograms as densities and the fitted normal curve."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.densities import gaussian_fit_plot, poisson_fit_plot, poisson_observed


def test_histogram_is_a_density_and_the_curve_is_the_fitted_normal(gender):
    m = nbapp.NaiveBayes({"Height": "gaussian"}, var_smoothing=0).fit(gender, target="Gender")
    plot = gaussian_fit_plot(m, "Height", gender, bins=5)
    for cls, bars in plot.histogram.groupby("class"):
        assert ((bars["right"] - bars["left"]) * bars["density"]).sum() == pytest.approx(1.0)
    fit = m.gaussian("Height").loc["male"]
    curve = plot.curves[plot.curves["class"] == "male"]
    peak = curve.loc[curve["density"].idxmax()]
    assert peak["x"] == pytest.approx(fit["mean"], abs=(curve["x"].iloc[1] - curve["x"].iloc[0]))
    assert peak["density"] == pytest.approx(1 / np.sqrt(2 * np.pi * fit["var"]), rel=1e-3)
    assert len(plot.histogram) <= 5 * 2        # binned: a few numbers per class, not the rows


def test_histogram_bins_are_at_least_a_standard_deviation_wide_so_bars_share_the_curve_s_scale(gender):
    # issue 14: 4 heights per class in 30 bins made spikes that dwarfed the fitted curves
    m = nbapp.NaiveBayes({"Height": "gaussian"}).fit(gender, target="Gender")
    plot = gaussian_fit_plot(m, "Height", gender, x_star=6.0)
    for cls, bars in plot.histogram.groupby("class"):
        peak = plot.curves[plot.curves["class"] == cls]["density"].max()
        assert bars["density"].max() <= 3 * peak
        assert ((bars["right"] - bars["left"]) * bars["density"]).sum() == pytest.approx(1.0)
    marks = plot.marks.set_index("class")["density"]
    assert marks["male"] == pytest.approx(1.65, abs=0.005)     # N(6; 5.855, 0.0263), seed 000 Ex. 2.3


def test_weighted_histogram_matches_repeated_rows(gender):
    weighted = gender.assign(n=[1, 2, 1, 3, 1, 1, 2, 1])
    m = nbapp.NaiveBayes({"Height": "gaussian"}).fit(weighted, target="Gender", weight="n")
    plot = gaussian_fit_plot(m, "Height", weighted, bins=4)
    repeated = weighted.loc[weighted.index.repeat(weighted["n"])]
    again = gaussian_fit_plot(m, "Height", repeated.drop(columns="n"), bins=4)
    np.testing.assert_allclose(plot.histogram["density"], again.histogram["density"])


def test_gaussian_density_is_the_models_own():
    import pandas as pd

    df = pd.DataFrame({"h": [1.0, 1.0, 2.0, 3.0], "y": ["a", "a", "b", "b"]})   # class a: variance 0
    m = nbapp.NaiveBayes({"h": "gaussian"}, var_smoothing=0).fit(df, target="y")
    density = m.gaussian_density("h", np.array([1.0, 2.5]))
    assert np.isfinite(density.to_numpy()).all()
    assert density.loc[1, "b"] == pytest.approx(1 / np.sqrt(2 * np.pi * 0.25))


def test_a_model_without_its_data_draws_its_curves_around_the_fitted_means(gender):
    m = nbapp.NaiveBayes({"Height": "gaussian"}).fit(gender, target="Gender")
    plot = gaussian_fit_plot(m, "Height", gender.iloc[:0])
    means = m.gaussian("Height")["mean"]
    assert plot.curves["x"].min() < means.min() and plot.curves["x"].max() > means.max()
    peaks = plot.curves.loc[plot.curves.groupby("class")["density"].idxmax()].set_index("class")["x"]
    step = plot.curves["x"].diff().max()
    assert np.allclose(peaks[means.index].to_numpy(), means.to_numpy(), atol=step)
    assert (plot.histogram["density"] == 0).all()


def test_poisson_observed_is_each_class_share_of_each_count_weighted():
    frame = pd.DataFrame({"visits": [0, 1, 1, 2, np.nan, 1, 3, 0],
                          "label": ["a", "a", "b", "b", "a", 1, 1, None],
                          "w": [1.0, 3.0, 2.0, 2.0, 5.0, 1.0, 0.0, 4.0]})
    shares = poisson_observed(frame, "visits", "label", "w")
    got = {(c, x): s for c, x, s in shares.itertuples(index=False)}
    # a: counts 0 (w 1) and 1 (w 3), the missing count left out; b: 1 and 2 equally; the class 1
    # (a number, apart from any text) has only count 1 with weight: count 3 weighs 0; no label: out
    assert got == {("a", 0.0): 0.25, ("a", 1.0): 0.75, ("b", 1.0): 0.5, ("b", 2.0): 0.5, (1, 1.0): 1.0}
    m = nbapp.NaiveBayes({"visits": "poisson"}).fit(frame.dropna(), "label", weight="w")
    from_frame = poisson_fit_plot(m, "visits", frame)
    from_shares = poisson_fit_plot(m, "visits", observed=shares)
    pd.testing.assert_frame_equal(from_frame.observed, from_shares.observed)
    pd.testing.assert_frame_equal(from_frame.fitted, from_shares.fitted)
