"""What a Gaussian-fit plot draws, computed here so pages only draw it   [seed 000, Eq. 12-14].

Per class: the training values binned into a histogram scaled as a density (so the bars
and the curve share one axis), and the fitted normal density N(mu_c, var_c) on a grid. A
class's bins are at least its fitted standard deviation wide: four points in thirty narrow
bins would be spikes of density 1 / (n h) that dwarf the curve (peak 1 / (sigma sqrt(2 pi))).
The test example's x* is marked on each curve with its density p(x* | c).
Binning happens here, so a plot of a million rows sends a few hundred numbers to the
browser, not a million.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

__all__ = ["GaussianFitPlot", "gaussian_fit_plot", "PoissonFitPlot", "poisson_fit_plot", "poisson_observed"]


@dataclass(frozen=True)
class GaussianFitPlot:
    histogram: pd.DataFrame   # class, left, right, density
    curves: pd.DataFrame      # class, x, density
    marks: pd.DataFrame | None = None   # class, x, density: p(x* | c) at the test example's x*


def gaussian_fit_plot(model: Any, column: str, frame: pd.DataFrame,
                      *, bins: int = 30, points: int = 300, x_star: float | None = None,
                      classes: Sequence[Any] | None = None) -> GaussianFitPlot:
    """The histogram of frame[column] per class of the model's target (weighted by the model's
    weight column, as it was fitted), at most ``bins`` bins per class and each at least the
    class's fitted standard deviation wide, the fitted density p(x | c) on a grid around the
    data, and p(x* | c) at ``x_star`` (None: no mark); of the model's ``classes`` only, if given
    (a page drawing the most probable of 100,000: issue 31, item 6)."""
    fits = model.gaussian(column)
    if classes is not None:
        fits = fits.reindex(pd.Index(list(classes), dtype=object))
    labels = frame[model.target_]
    weights = frame[model.weight_] if model.weight_ in frame else None
    x = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    finite = np.isfinite(x)
    # No rows (a model file opened alone): the grid spans the fitted means instead.
    span = x[finite] if finite.any() else fits["mean"].to_numpy(dtype=float)
    lo, hi = (float(span.min()), float(span.max())) if len(span) else (-1.0, 1.0)
    sd = float(np.sqrt(fits["var"].max())) if len(fits) else 1.0
    pad = max(3 * sd, (hi - lo) * 0.1, 1e-9)
    top = hi if hi > lo else lo + 1.0
    grid = np.linspace(lo - pad, hi + pad, points)
    hist_rows, curve_rows = [], []
    codes, found = pd.factorize(labels)                  # each row's class as a number, once
    code_of = {cls: i for i, cls in enumerate(found)}
    w = np.ones(len(x)) if weights is None else pd.to_numeric(weights, errors="coerce").to_numpy(dtype=float)
    curves = model.gaussian_density(column, grid, list(fits.index))
    for cls, var in zip(fits.index, fits["var"].to_numpy(dtype=float)):
        in_class = finite & (codes == code_of.get(cls, -2)) & (w > 0)
        width = max((top - lo) / bins, float(np.sqrt(var)) if np.isfinite(var) else 0.0)
        edges = np.linspace(lo, top, max(1, min(bins, int(np.floor((top - lo) / width)))) + 1)
        density, _ = np.histogram(x[in_class], bins=edges, weights=w[in_class], density=bool(in_class.any()))
        hist_rows.append(pd.DataFrame({"class": cls, "left": edges[:-1], "right": edges[1:], "density": density}))
        curve_rows.append(pd.DataFrame({"class": cls, "x": grid, "density": curves[cls].to_numpy()}))
    marks = None
    if x_star is not None and np.isfinite(x_star):
        at = model.gaussian_density(column, np.array([float(x_star)]), list(fits.index))
        marks = pd.DataFrame({"class": list(fits.index), "x": float(x_star),
                              "density": [float(at[c].iloc[0]) for c in fits.index]})
    return GaussianFitPlot(pd.concat(hist_rows, ignore_index=True), pd.concat(curve_rows, ignore_index=True), marks)


@dataclass(frozen=True)
class PoissonFitPlot:
    observed: pd.DataFrame    # class, x, share (the class's rows with count x, weighted)
    fitted: pd.DataFrame      # class, x, probability P(x | c) of the fitted Poisson


def poisson_observed(frame: pd.DataFrame, column: str, target: str, weight: str | None = None) -> pd.DataFrame:
    """Per class of ``frame[target]``, the share of its rows (weighted by ``frame[weight]``, if
    given and present) with each count of ``column``: class, x, share, by class then x. The
    data's half of a Poisson-fit plot, which no setting changes (a page keeps it while l moves)."""
    x = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    w = (np.ones(len(x)) if weight is None or weight not in frame
         else pd.to_numeric(frame[weight], errors="coerce").to_numpy(dtype=float))
    codes, classes = pd.factorize(frame[target])           # a missing label: -1, left out
    keep = np.isfinite(x) & (w > 0) & (codes >= 0)
    values, at = np.unique(x[keep], return_inverse=True)
    cell = codes[keep] * len(values) + at
    size = len(classes) * len(values)
    weights = np.bincount(cell, weights=w[keep], minlength=size).astype(float).reshape(len(classes), len(values))
    seen = np.bincount(cell, minlength=size).reshape(len(classes), len(values)) > 0
    totals = weights.sum(axis=1, keepdims=True)
    shares = np.divide(weights, totals, out=weights.copy(), where=totals > 0)
    rows = [pd.DataFrame({"class": [cls] * int(seen[i].sum()), "x": values[seen[i]], "share": shares[i, seen[i]]})
            for i, cls in enumerate(classes)]
    empty = pd.DataFrame({"class": pd.Series([], dtype=object), "x": np.zeros(0), "share": np.zeros(0)})
    return pd.concat([empty, *rows], ignore_index=True)


def poisson_fit_plot(model: Any, column: str, frame: pd.DataFrame | None = None, *, max_points: int = 60,
                     observed: pd.DataFrame | None = None) -> PoissonFitPlot:
    """Per class, the share of rows with each count and the fitted P(x | c) = lambda^x e^-lambda / x!
    at the same counts (0 up to the larger of the data's maximum and lambda + 4 sqrt(lambda)).
    ``observed``: the data's shares computed before (:func:`poisson_observed`), in place of ``frame``."""
    if observed is None:
        observed = poisson_observed(frame, column, model.target_, model.weight_)
    rates = model.parameters(column)["lambda"].to_numpy(dtype=float)
    top = max(float(observed["x"].max()) if len(observed) else 0.0,
              float(np.nanmax(rates + 4 * np.sqrt(rates))) if len(rates) else 0.0)
    grid = np.unique(np.round(np.linspace(0, np.ceil(top), min(int(np.ceil(top)) + 1, max_points))))
    fitted = model.gaussian_density(column, grid)
    by_class = {cls: part for cls, part in observed.groupby("class", sort=False)}
    observed_rows, fitted_rows = [], []
    for cls in fitted.columns:
        part = by_class.get(cls)
        if part is None:
            part = pd.DataFrame({"x": np.zeros(0), "share": np.zeros(0)})
        observed_rows.append(pd.DataFrame({"class": cls, "x": part["x"].to_numpy(), "share": part["share"].to_numpy()}))
        fitted_rows.append(pd.DataFrame({"class": cls, "x": grid, "probability": fitted[cls].to_numpy()}))
    return PoissonFitPlot(pd.concat(observed_rows, ignore_index=True), pd.concat(fitted_rows, ignore_index=True))
