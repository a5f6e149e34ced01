"""Generative vs discriminative: learning curves of Naive Bayes and logistic regression.

Seed 000, section 3: generative models (Naive Bayes estimates p(x | y) p(y)) are faster to
train; discriminative models (logistic regression estimates p(y | x) directly) are usually
more accurate with enough data, and "NB and LR produce asymptotically the same model"
(Eq. 20). The classic result (Ng and Jordan, 2002) is that Naive Bayes reaches its
asymptote with far fewer training rows. :func:`learning_curve` shows this on any data:
both models are trained on growing, nested, seeded subsets of the same training pool and
scored on the same held-out rows, with the wall-clock time of each fit.

scikit-learn's LogisticRegression is the comparison baseline (:mod:`nbapp.baseline`, which
imports scikit-learn inside its functions, so ``import nbapp`` never needs it). It sees every
modelled column, each encoded as its feature type declares (one-hot, a standardised number or
count, word counts with the column's own text pipeline, or the type's own transform);
:func:`nbapp.baseline.baseline_encodings` lists them.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from nbapp.baseline import logistic_inputs, logistic_pipeline
from nbapp.errors import DataError
from nbapp.evaluate import expand_weights, holdout_mask, log_proba_for_scoring, score
from nbapp.specs import parse_features

__all__ = ["LearningCurve", "learning_curve", "NAIVE_BAYES", "LOGISTIC_REGRESSION", "logistic_pipeline",
           "logistic_inputs"]

NAIVE_BAYES = "Naive Bayes (nbapp)"
LOGISTIC_REGRESSION = "Logistic regression (scikit-learn)"


@dataclass(frozen=True)
class LearningCurve:
    """Scores of both models per training size and repeat.

    ``runs``: one row per model, training size and repeat with columns "model",
    "train_size", "repeat", "accuracy", "log_loss" and "fit_seconds".
    """

    runs: pd.DataFrame
    test_rows: int
    notes: tuple[str, ...]

    @property
    def summary(self) -> pd.DataFrame:
        """Mean and standard deviation over the repeats, per model and training size."""
        grouped = self.runs.groupby(["model", "train_size"], sort=True)
        out = grouped[["accuracy", "log_loss", "fit_seconds"]].agg(["mean", "std"])
        out.columns = [f"{a}_{b}" for a, b in out.columns]
        return out.reset_index()


def learning_curve(df: pd.DataFrame, target: str, features: Mapping[str, Any], *,
                   train_sizes: Sequence[int] | None = None, repeats: int = 3,
                   test_size: float = 0.3, seed: int = 0, weight: str | None = None,
                   make_model: Callable[[], Any] | None = None, alpha: float = 1.0,
                   C: float = 1.0, max_iter: int = 1000) -> LearningCurve:
    """Fit Naive Bayes and logistic regression on growing training sets; score both.

    For each repeat r the rows are split once (stratified, seed + r) into a training pool
    and ``test_size`` test rows; the training sets are nested prefixes of the shuffled
    pool that start with one row of every class, so even the smallest set has them all.
    ``train_sizes`` defaults to about eight sizes spaced geometrically from the number of
    classes to the whole pool. ``make_model`` returns a fresh unfitted
    ``nbapp.NaiveBayes`` (default: ``NaiveBayes(features=features, alpha=alpha)``);
    ``C`` and ``max_iter`` go to LogisticRegression.
    """
    from nbapp.model import NaiveBayes   # the model module imports this package's siblings

    specs = parse_features(features)
    missing = [c for c in [*specs, target] if c not in df.columns]
    if missing:
        role = "target" if missing[0] == target else "feature"
        raise DataError(f"Column {missing[0]!r} is not in the data; choose the {role} among its "
                        f"columns {list(df.columns)[:10]}.")
    if repeats < 1:
        raise DataError(f"repeats must be at least 1, got {repeats}.")
    data = expand_weights(df, weight)
    data = data[data[target].notna()]
    y = data[target]
    classes = sorted(pd.unique(y), key=str)
    if len(classes) < 2:
        raise DataError(f"The target column {target!r} needs at least two classes.")
    make_nb = make_model or (lambda: NaiveBayes(features=dict(features), alpha=alpha))
    lr_data = logistic_inputs(data, specs)
    runs: list[dict[str, Any]] = []
    notes: list[str] = []
    sizes: np.ndarray | None = None
    for r in range(repeats):                       # loops over repeats and sizes, not rows
        test = holdout_mask(y, test_size=test_size, seed=seed + r)
        pool = _class_first_order(y, np.flatnonzero(~test), seed + r)
        sizes = _sizes(train_sizes, len(classes), len(pool))
        test_rows = np.flatnonzero(test)
        for n in sizes:
            train = pool[:n]
            for name, fit_seconds, log_proba in (
                    _run_naive_bayes(make_nb, data, target, train, test_rows),
                    _run_logistic(lr_data, y, specs, train, test_rows, C, max_iter, notes)):
                scores = score(y.iloc[test_rows], log_proba)
                runs.append({"model": name, "train_size": int(n), "repeat": r,
                             "accuracy": scores.accuracy, "log_loss": scores.log_loss,
                             "fit_seconds": fit_seconds})
    return LearningCurve(runs=pd.DataFrame(runs), test_rows=int(len(test_rows)),
                         notes=tuple(dict.fromkeys(notes)))


def _run_naive_bayes(make_nb: Callable[[], Any], data: pd.DataFrame, target: str,
                     train: np.ndarray, test: np.ndarray) -> tuple[str, float, pd.DataFrame]:
    model = make_nb()
    start = time.perf_counter()
    model.fit(data.iloc[train], target=target)
    seconds = time.perf_counter() - start
    return NAIVE_BAYES, seconds, log_proba_for_scoring(model, data.iloc[test])


def _run_logistic(lr_data: pd.DataFrame, y: pd.Series, specs: Mapping[str, Any],
                  train: np.ndarray, test: np.ndarray, C: float, max_iter: int,
                  notes: list[str]) -> tuple[str, float, pd.DataFrame]:
    from sklearn.exceptions import ConvergenceWarning

    pipeline = logistic_pipeline(specs, C, max_iter)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        pipeline.fit(lr_data.iloc[train], y.iloc[train].to_numpy(dtype=object))
    seconds = time.perf_counter() - start
    if any(issubclass(w.category, ConvergenceWarning) for w in caught):
        notes.append(f"Logistic regression did not fully converge in {max_iter} iterations "
                     f"on some training sets; its scores there are approximate.")
    log_proba = pipeline.predict_log_proba(lr_data.iloc[test])
    return LOGISTIC_REGRESSION, seconds, pd.DataFrame(log_proba, columns=list(pipeline.classes_))


def _class_first_order(y: pd.Series, pool: np.ndarray, seed: int) -> np.ndarray:
    """The pool's positions shuffled, with the first row of each class moved to the
    front, so every prefix of length >= K holds every class."""
    shuffled = pool[np.random.default_rng(seed).permutation(len(pool))]
    repeat = pd.Series(y.iloc[shuffled].to_numpy(dtype=object)).duplicated().to_numpy()
    return np.concatenate([shuffled[~repeat], shuffled[repeat]])


def _sizes(train_sizes: Sequence[int] | None, n_classes: int, pool: int) -> np.ndarray:
    if train_sizes is None:
        return np.unique(np.geomspace(max(n_classes, 2), pool, num=8).round().astype(int))
    sizes = np.unique(np.asarray(list(train_sizes), dtype=int))
    if sizes.size == 0 or sizes.min() < n_classes or sizes.max() > pool:
        raise DataError(f"Training sizes must lie between {n_classes} (one row per class) and "
                        f"{pool} (the training pool); got {list(sizes)}.")
    return sizes
