"""Calibration: are the posteriors of Naive Bayes as confident as they should be?

Seed 003 warns that "since dependencies [are] ignored, naive Bayes posteriors [are] often
unrealistically close to 0 or 1": correlated features say the same thing twice. This
module measures that on held-out data. Every row gets a posterior from a model that did
not see it (seeded, stratified k-fold cross-validation), and then

* a reliability diagram: rows binned by predicted probability; in each bin the mean
  predicted probability against the observed frequency. A calibrated model lies on the
  diagonal; an overconfident one bends below it near 1 and above it near 0.
* the Brier score, the mean squared distance between the posterior vector and the
  one-hot truth (Brier 1950):  BS = 1/n sum_i sum_c (P(c | x_i) - I(y_i = c))^2,
  between 0 (perfect) and 2. For one class against the rest ("positive") it is the
  binary score 1/n sum_i (P(pos | x_i) - I(y_i = pos))^2 of scikit-learn's
  ``brier_score_loss``, between 0 and 1 (half the two-class score above).
* the expected calibration error: the bins' |mean predicted - observed| weighted by
  their share of rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.evaluate import Progress, cross_validate

__all__ = [
    "Reliability",
    "CalibrationReport",
    "reliability",
    "brier_score",
    "calibration_report",
]


@dataclass(frozen=True)
class Reliability:
    """A reliability diagram's bins.

    ``bins`` has one row per bin with columns "lower", "upper", "count",
    "mean_predicted" and "observed" (NaN for an empty bin). ``positive`` is the class
    scored one-vs-rest, or None for top-label confidence (the posterior of the predicted
    class against whether the prediction was right).
    """

    bins: pd.DataFrame
    positive: object | None
    expected_calibration_error: float

    @property
    def label(self) -> str:
        """What the x axis shows."""
        if self.positive is None:
            return "confidence of the predicted class"
        return f"P({self.positive} | x)"


@dataclass(frozen=True)
class CalibrationReport:
    """Cross-validated posteriors with their reliability diagram and Brier score."""

    posteriors: pd.DataFrame      # out-of-fold P(c | x), one row per test case, column per class
    truth: pd.Series              # the true class of those rows
    reliability: Reliability
    brier: float
    n_splits: int
    notes: tuple[str, ...]


def reliability(posteriors: pd.DataFrame, truth: pd.Series, *, n_bins: int = 10,
                positive: object | None = None) -> Reliability:
    """Bin the predicted probabilities into ``n_bins`` equal-width bins on [0, 1].

    With ``positive`` the predicted probability is P(positive | x) and the outcome is
    I(y = positive); without it, the largest posterior of each row and whether that
    class was right (top-label calibration).
    """
    if n_bins < 1:
        raise DataError(f"A reliability diagram needs at least one bin, got {n_bins}.")
    predicted, outcome = _scored(posteriors, truth, positive)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    which = np.clip(np.searchsorted(edges, predicted, side="right") - 1, 0, n_bins - 1)
    count = np.bincount(which, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_predicted = np.bincount(which, weights=predicted, minlength=n_bins) / count
        observed = np.bincount(which, weights=outcome, minlength=n_bins) / count
    bins = pd.DataFrame({"lower": edges[:-1], "upper": edges[1:], "count": count,
                         "mean_predicted": mean_predicted, "observed": observed})
    gap = np.abs(mean_predicted - observed)
    ece = float(np.nansum(gap * count) / count.sum()) if count.sum() else float("nan")
    return Reliability(bins=bins, positive=positive, expected_calibration_error=ece)


def brier_score(posteriors: pd.DataFrame, truth: pd.Series, *,
                positive: object | None = None) -> float:
    """Mean squared error of the posteriors against the truth (see the module docstring).

    Without ``positive``: the multi-class score, sum over classes (0..2). With it: the
    one-vs-rest binary score for that class (0..1), as scikit-learn's brier_score_loss.
    """
    truth = _aligned_truth(posteriors, truth)
    if positive is not None:
        p = _column(posteriors, positive)
        return float(np.mean((p - (truth == positive).to_numpy()) ** 2))
    onehot = np.equal.outer(truth.to_numpy(dtype=object),
                            np.asarray(posteriors.columns, dtype=object)).astype(float)
    return float(np.mean(((posteriors.to_numpy(dtype=float) - onehot) ** 2).sum(axis=1)))


def calibration_report(make_model: Callable[[], object], df: pd.DataFrame, target: str, *,
                       k: int = 5, n_bins: int = 10, positive: object | None = None,
                       seed: int = 0, weight: str | None = None,
                       progress: Progress | None = None) -> CalibrationReport:
    """Cross-validate (``nbapp.evaluate.cross_validate``: seeded, stratified k-fold), then
    bin and score the out-of-fold posteriors (seed 003).

    ``make_model`` returns a fresh, unfitted ``nbapp.NaiveBayes``. A class missing from a
    training fold gets posterior 0 for that fold's rows.
    """
    evaluation = cross_validate(make_model, df, target, k=k, seed=seed, weight=weight,
                                progress=progress)
    table = evaluation.predictions
    columns = [f"P({c})" for c in evaluation.classes]
    posteriors = table[columns].fillna(0.0)
    posteriors.columns = list(evaluation.classes)
    truth = table["true"]
    notes = ()
    if table[columns].isna().any().any():
        notes = ("Some training folds lacked a class; their rows got posterior 0 for it.",)
    return CalibrationReport(
        posteriors=posteriors, truth=truth,
        reliability=reliability(posteriors, truth, n_bins=n_bins, positive=positive),
        brier=brier_score(posteriors, truth, positive=positive),
        n_splits=k, notes=notes)


def _scored(posteriors: pd.DataFrame, truth: pd.Series,
            positive: object | None) -> tuple[np.ndarray, np.ndarray]:
    truth = _aligned_truth(posteriors, truth)
    if positive is not None:
        return _column(posteriors, positive), (truth == positive).to_numpy(dtype=float)
    values = posteriors.to_numpy(dtype=float)
    top = values.argmax(axis=1)
    predicted_class = np.asarray(posteriors.columns, dtype=object)[top]
    return values.max(axis=1), (predicted_class == truth.to_numpy(dtype=object)).astype(float)


def _aligned_truth(posteriors: pd.DataFrame, truth: pd.Series) -> pd.Series:
    if len(truth) != len(posteriors):
        raise DataError(f"Got {len(posteriors)} posterior rows but {len(truth)} true labels; "
                        f"pass the labels of the same rows.")
    return pd.Series(np.asarray(truth, dtype=object), index=posteriors.index)


def _column(posteriors: pd.DataFrame, positive: object) -> np.ndarray:
    if positive not in posteriors.columns:
        raise DataError(f"Class {positive!r} is not one of the posterior's classes "
                        f"{list(posteriors.columns)}.")
    return posteriors[positive].to_numpy(dtype=float)
