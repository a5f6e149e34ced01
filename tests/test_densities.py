"""The data behind a Gaussian-fit plot: histograms as densities and the fitted normal curve."""

from __future__ import annotations

import numpy as np
import pytest

import nbapp
from nbapp.densities import gaussian_fit_plot


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
