"""Choosing per column: how the density fits of a numeric column compare (Gaussian, KDE,
Poisson: every registered type that declares ``density_choice`` and suits the column), and
what a model loses or gains without one feature of a dependent pair.

Every comparison is honest (out of sample): the log-loss -(1/n) sum_i ln P(y_i | x_i) of a
stratified k-fold cross-validation (:func:`nbapp.evaluate.cross_validate`) of the *whole*
model, once per choice, with the same folds (same seed) for every choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp.blocks import REGISTRY, block_class
from nbapp.errors import DataError
from nbapp.evaluate import cross_validate

__all__ = ["FitComparison", "fit_comparison_plot", "numeric_choices", "compare_feature_types",
           "DropComparison", "compare_without"]

def _numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    return pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def numeric_choices(frame: pd.DataFrame, column: str) -> list[str]:
    """The density types that fit the column, in the registry's order: each type that declares
    ``density_choice`` and suits the column's finite values (Gaussian and KDE always, Poisson
    for whole counts >= 0)."""
    x = _numbers(frame, column)
    x = x[np.isfinite(x)]
    return [kind for kind, block in REGISTRY.items() if block.density_choice and block.suits(x)]


@dataclass(frozen=True)
class FitComparison:
    histogram: pd.DataFrame   # class, left, right, density (the data, weighted, as a density)
    curves: pd.DataFrame      # class, type, x, density (p(x | c), or P(x | c) at whole x for Poisson)


def fit_comparison_plot(model: Any, column: str, frame: pd.DataFrame, *, bins: int = 30,
                        points: int = 300) -> FitComparison:
    """Per class of the model's target: the column's histogram as a density, and the fitted
    densities of :func:`numeric_choices` (Gaussian, KDE and, for counts, Poisson) of a one-column
    model with the model's settings, on one grid around the data (where each type draws on it:
    a count at whole numbers)."""
    from nbapp.model import NaiveBayes

    x = _numbers(frame, column)
    finite = np.isfinite(x)
    if not finite.any():
        raise DataError(f"Column {column!r} has no numbers to compare fits on.")
    lo, hi = float(x[finite].min()), float(x[finite].max())
    pad = max((hi - lo) * 0.1, 1e-9)
    edges = np.linspace(lo, hi if hi > lo else lo + 1.0, bins + 1)
    grid = np.linspace(lo - pad, hi + pad, points)
    labels = frame[model.target_].to_numpy()
    w = np.ones(len(x)) if model.weight_ not in frame else _numbers(frame, model.weight_)
    params = model.params()
    hist_rows, curve_rows = [], []
    for kind in numeric_choices(frame, column):
        one = NaiveBayes(**{**params, "features": {column: kind}}).fit(frame, model.target_, model.weight_)
        at = block_class(kind).density_points(grid)
        density = one.gaussian_density(column, at)
        for cls in one.classes_:
            curve_rows.append(pd.DataFrame({"class": cls, "type": kind, "x": at, "density": density[cls].to_numpy()}))
    for cls in model.classes_:
        in_class = finite & (labels == cls) & (w > 0)
        density, _ = np.histogram(x[in_class], bins=edges, weights=w[in_class], density=bool(in_class.any()))
        hist_rows.append(pd.DataFrame({"class": cls, "left": edges[:-1], "right": edges[1:], "density": density}))
    return FitComparison(pd.concat(hist_rows, ignore_index=True), pd.concat(curve_rows, ignore_index=True))


def _cv(params: Mapping[str, Any], frame: pd.DataFrame, target: str, weight: str | None, k: int, seed: int):
    from nbapp.model import NaiveBayes

    return cross_validate(lambda: NaiveBayes(**params), frame, target, k=k, seed=seed, weight=weight)


def compare_feature_types(model: Any, frame: pd.DataFrame, column: str, *, k: int = 5, seed: int = 0) -> pd.DataFrame:
    """The cross-validated log-loss and accuracy of the whole model with ``column`` typed as each
    numeric choice, and as its own type (e.g. discretized) if that is another (index: type; the
    model's own type is marked ``current``)."""
    params = model.params()
    current = params["features"][column].kind
    rows = []
    for kind in dict.fromkeys([*numeric_choices(frame, column), current]):
        features = {**params["features"], column: kind if kind != current else params["features"][column]}
        scores = _cv({**params, "features": features}, frame, model.target_, model.weight_, k, seed).scores
        rows.append((kind, scores.log_loss, scores.accuracy, kind == current))
    return pd.DataFrame(rows, columns=["type", "log_loss", "accuracy", "current"]).set_index("type")


@dataclass(frozen=True)
class DropComparison:
    """The model with and without one feature: cross-validated log-loss (lower is better) and the
    posterior of one example under both."""

    column: str
    log_loss_with: float
    log_loss_without: float
    posterior_with: pd.Series | None
    posterior_without: pd.Series | None

    @property
    def change(self) -> float:
        """log-loss without - log-loss with: > 0 means the feature helps despite the dependence."""
        return self.log_loss_without - self.log_loss_with


def compare_without(model: Any, frame: pd.DataFrame, column: str, row: Mapping[str, Any] | None = None, *,
                    k: int = 5, seed: int = 0) -> DropComparison:
    """Cross-validate the model as it is and without ``column`` (same folds), and explain ``row``
    (if given) with both models fitted on all of ``frame``."""
    from nbapp.model import NaiveBayes

    params = model.params()
    if column not in params["features"]:
        raise DataError(f"{column!r} is not a feature of this model.")
    rest = {c: s for c, s in params["features"].items() if c != column}
    if not rest:
        raise DataError(f"{column!r} is the model's only feature; there is no model without it.")
    without = {**params, "features": rest}
    with_cv = _cv(params, frame, model.target_, model.weight_, k, seed).scores.log_loss
    without_cv = _cv(without, frame, model.target_, model.weight_, k, seed).scores.log_loss
    post_with = post_without = None
    if row is not None:
        full = NaiveBayes(**params).fit(frame, model.target_, model.weight_)
        reduced = NaiveBayes(**without).fit(frame, model.target_, model.weight_)
        post_with = full.explain(row).posterior
        post_without = reduced.explain({c: v for c, v in row.items() if c != column}).posterior
    return DropComparison(column, with_cv, without_cv, post_with, post_without)
