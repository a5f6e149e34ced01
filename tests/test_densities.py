"""The data behind a Gaussian-fit plot: histograms as densities and the fitted normal curve."""

from __future__ import annotations

import numpy as np
import pytest

import nbapp
from nbapp.densities import gaussian_fit_plot


def test_histogram_is_a_density_and_the_curve_is_the_fitted_normal(gender):
    m = nbapp.NaiveBayes({"Height": "gaussian"}, var_smoothing=0).fit(gender, target="Gender")
    plot = gaussian_fit_plot(m, "Height", gender["Height"], gender["Gender"], bins=5)
    for cls, bars in plot.histogram.groupby("class"):
        assert ((bars["right"] - bars["left"]) * bars["density"]).sum() == pytest.approx(1.0)
    fit = m.gaussian("Height").loc["male"]
    curve = plot.curves[plot.curves["class"] == "male"]
    peak = curve.loc[curve["density"].idxmax()]
    assert peak["x"] == pytest.approx(fit["mean"], abs=(curve["x"].iloc[1] - curve["x"].iloc[0]))
    assert peak["density"] == pytest.approx(1 / np.sqrt(2 * np.pi * fit["var"]), rel=1e-3)
    assert len(plot.histogram) == 5 * 2        # binned: a few numbers per class, not the rows
