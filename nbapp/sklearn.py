"""nbapp's Naive Bayes as a scikit-learn estimator: ``Pipeline``, ``GridSearchCV``,
``cross_val_score`` on DataFrames of mixed types.

    from nbapp.sklearn import NaiveBayesClassifier
    clf = NaiveBayesClassifier(features={"Outlook": "categorical", "Temp": "gaussian"}, alpha=1)
    cross_val_score(clf, df[["Outlook", "Temp"]], df["Play"], cv=5)

The estimator wraps :class:`nbapp.NaiveBayes` (``model_`` after fitting) and adds nothing to
its maths: ``predict_proba`` is P(c | x) of seed 000, Eq. 5. scikit-learn is imported here
only (the ``sklearn`` or ``app`` extra), never by the rest of nbapp.

``features``: a dict column -> type as for NaiveBayes; None types each column by its dtype
(numbers Gaussian, as GaussianNB; anything else categorical); "propose" takes nbapp's
proposal for the training frame (:func:`nbapp.propose_feature_types`: IDs ignored, codes
categorical, ...). Arrays get the column names ``x0``, ``x1``, ...

It passes every check of scikit-learn's ``check_estimator`` (tests/test_sklearn_estimator.py).
What differs from scikit-learn's own estimators, on purpose:

* X may be a DataFrame of strings, numbers and missing values; a missing value (NaN) is
  left out of the product (seed 000, Eq. 22) instead of refused, so the estimator declares
  ``allow_nan``;
* bad input is refused with :class:`nbapp.DataError` (a ``ValueError``) whose sentence names
  the column and the fix, not scikit-learn's wording;
* a row every class finds impossible (l = 0) gets the prior in ``predict_proba`` and the
  prior's top class in ``predict``, so scores stay defined.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from nbapp._logspace import decide_codes
from nbapp.model import NaiveBayes
from nbapp.propose import propose_feature_types

__all__ = ["NaiveBayesClassifier", "logistic_regression_scores", "baseline_scores"]

_TARGET = "__nbapp_target__"
_WEIGHT = "__nbapp_weight__"

class NaiveBayesClassifier(ClassifierMixin, BaseEstimator):
    """scikit-learn's face of :class:`nbapp.NaiveBayes`; the parameters are NaiveBayes's.

    Parameters
    ----------
    features : dict column -> type or spec; None (numbers Gaussian, other columns categorical);
        or "propose" (:func:`nbapp.propose_feature_types` on the training frame).
    alpha : Lidstone l of every discrete feature (seed 000, Eq. 7 and 10).
    smoothing, prior_alpha, priors, var_smoothing, variance, var_smoothing_mode : as
        :class:`nbapp.NaiveBayes`.

    Attributes
    ----------
    model_ : the fitted NaiveBayes.   classes_ : the classes, in nbapp's (sorted) order.
    n_features_in_, feature_names_in_ : as every scikit-learn estimator.
    """

    def __init__(self, features: Mapping[str, Any] | None = None, *, alpha: float = 1.0,
                 smoothing: Any = None, prior_alpha: float = 0.0, priors: Any = "empirical",
                 var_smoothing: float = 1e-9, variance: str = "mle",
                 var_smoothing_mode: str = "global") -> None:
        self.features = features
        self.alpha = alpha
        self.smoothing = smoothing
        self.prior_alpha = prior_alpha
        self.priors = priors
        self.var_smoothing = var_smoothing
        self.variance = variance
        self.var_smoothing_mode = var_smoothing_mode

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True          # missing values are left out (seed 000, Eq. 22)
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    # -- fitting ---------------------------------------------------------------------------
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "NaiveBayesClassifier":
        if y is None:
            raise ValueError("NaiveBayesClassifier requires y to be passed, but the target y is None.")
        frame = self._frame(X, fitting=True)
        labels = _labels(y, len(frame))
        features = self._feature_types(frame, labels)
        data = frame.assign(**{_TARGET: labels})
        weight = None
        if sample_weight is not None:
            data[_WEIGHT] = _sample_weight(sample_weight, len(frame))
            weight = _WEIGHT
        model = NaiveBayes(features, alpha=self.alpha, smoothing=self.smoothing, prior_alpha=self.prior_alpha,
                           priors=self.priors, var_smoothing=self.var_smoothing, variance=self.variance,
                           var_smoothing_mode=self.var_smoothing_mode)
        self.model_ = model.fit(data, target=_TARGET, weight=weight)
        self.classes_ = _class_array(self.model_.classes_, labels)
        return self

    def _feature_types(self, frame: pd.DataFrame, labels: np.ndarray) -> dict[str, Any]:
        if isinstance(self.features, str) and self.features == "propose":
            proposal = propose_feature_types(frame.assign(**{_TARGET: labels}), _TARGET)
            return dict(zip(proposal["column"], proposal["type"]))
        if self.features is not None:
            return dict(self.features)
        return {c: "gaussian" if _numeric(frame[c]) else "categorical" for c in frame.columns}

    # -- prediction ------------------------------------------------------------------------
    def predict_proba(self, X: Any) -> np.ndarray:
        """P(c | x) per row, columns in ``classes_`` order (undetermined rows get the prior)."""
        check_is_fitted(self, "model_")
        return self.model_.predict_proba(self._frame(X)).to_numpy(dtype=float)

    def predict_log_proba(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "model_")
        return self.model_.predict_log_proba(self._frame(X)).to_numpy(dtype=float)

    def predict(self, X: Any) -> np.ndarray:
        """The most probable class per row (nbapp's one argmax rule); an undetermined row, which
        nbapp leaves without a class, gets the prior's top class: scikit-learn needs one."""
        log_proba = self.predict_log_proba(X)
        return self.classes_[decide_codes(log_proba, np.zeros(len(log_proba), dtype=bool))]

    # -- input -----------------------------------------------------------------------------
    def _frame(self, X: Any, fitting: bool = False) -> pd.DataFrame:
        """X as a DataFrame with string column names; checks the columns against the fit."""
        if isinstance(X, pd.DataFrame):
            frame = X
            if not all(isinstance(c, str) for c in frame.columns):
                frame = frame.set_axis([_name(c) for c in frame.columns], axis=1)
        else:
            if hasattr(X, "toarray") or hasattr(X, "tocsr"):
                raise TypeError("NaiveBayesClassifier takes a DataFrame or a dense array, not a sparse "
                                "matrix; call .toarray() first or use a text column for word counts.")
            array = np.asarray(X)
            if array.ndim != 2:
                raise ValueError(f"Expected a 2D array (rows x columns), got {array.ndim} dimension(s). Reshape "
                                 "your data with X.reshape(-1, 1) for a single feature or X.reshape(1, -1) "
                                 "for a single row.")
            if array.dtype.kind == "c":
                raise ValueError("Complex data not supported: give real numbers or other values.")
            frame = pd.DataFrame(array, columns=[f"x{i}" for i in range(array.shape[1])])
            if array.dtype.kind in "fc" and np.isinf(array.real).any():
                raise ValueError("X holds infinite values; replace them by finite numbers or NaN (missing).")
        if fitting:
            if frame.shape[1] == 0:
                raise ValueError(f"Found array with 0 feature(s) (shape={frame.shape}) while a minimum of 1 "
                                 "is required.")
            if len(frame) == 0:
                raise ValueError(f"Found array with 0 sample(s) (shape={frame.shape}) while a minimum of 1 "
                                 "is required.")
            self.n_features_in_ = frame.shape[1]
            if isinstance(X, pd.DataFrame) and all(isinstance(c, str) for c in X.columns):
                self.feature_names_in_ = np.asarray(X.columns, dtype=object)
            elif hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
            return frame
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but NaiveBayesClassifier is expecting "
                             f"{self.n_features_in_} features as input.")
        return frame


def _name(column: Any) -> str:
    return f"x{column}" if isinstance(column, (int, np.integer)) else str(column)


def _numeric(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def _sample_weight(sample_weight: Any, n: int) -> np.ndarray:
    w = np.asarray(sample_weight, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"sample_weight has shape {w.shape}; give one weight per row ({n}).")
    if np.all(w == 0):
        raise ValueError("Every sample weight is zero, so there is nothing to fit; give some rows a weight > 0.")
    return w


def _labels(y: Any, n: int) -> np.ndarray:
    labels = np.asarray(y)
    if labels.ndim == 2 and labels.shape[1] == 1:
        labels = column_or_1d(labels, warn=True)      # scikit-learn's DataConversionWarning
    if labels.ndim != 1:
        raise ValueError(f"y should be one label per row (1D), not an array of shape {labels.shape}.")
    if len(labels) != n:
        raise ValueError(f"X has {n} rows but y has {len(labels)} labels; give one label per row.")
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        raise ValueError("y holds NaN or infinite labels; drop those rows or fill in their class.")
    check_classification_targets(labels)      # a continuous y is refused by scikit-learn's own rule
    return labels


def _class_array(classes: list[Any], labels: np.ndarray) -> np.ndarray:
    """The model's classes as an array of the labels' own dtype (as scikit-learn's classes_)."""
    try:
        return np.asarray(classes, dtype=labels.dtype)
    except (TypeError, ValueError):
        return np.asarray(classes, dtype=object)



def logistic_regression_scores(evaluation: Any, df: pd.DataFrame, features: Mapping[str, Any], *,
                               C: float = 1.0, max_iter: int = 1000) -> Any:
    """scikit-learn's LogisticRegression on the same folds as ``evaluation`` (an
    :class:`nbapp.evaluate.Evaluation`), scored the same way (:func:`nbapp.evaluate.score`).

    Every modelled column is encoded as its type declares (:mod:`nbapp.baseline`:
    one-hot, a standardised number or count, word counts, or the type's own transform; a
    type with no encoding is refused by name). A class missing from a training fold gets
    probability 0 there, as for Naive Bayes.
    """
    from nbapp.baseline import logistic_pipeline

    return _scores_on_folds(evaluation, df, features, lambda specs, rows: logistic_pipeline(specs, C, max_iter))


def baseline_scores(evaluation: Any, df: pd.DataFrame, features: Mapping[str, Any], baseline: str) -> Any:
    """The baseline ``baseline`` (a key of :data:`nbapp.baseline.BASELINES`: "logistic", "tree",
    "knn") on the same folds as ``evaluation``, every modelled column encoded as for logistic
    regression, scored as Naive Bayes is."""
    from nbapp.baseline import baseline_pipeline

    return _scores_on_folds(evaluation, df, features,
                            lambda specs, rows: baseline_pipeline(specs, baseline, training_rows=rows))


def _scores_on_folds(evaluation: Any, df: pd.DataFrame, features: Mapping[str, Any],
                     make_pipeline: Any) -> Any:
    """``make_pipeline(specs, training_rows)`` fitted on each training fold of ``evaluation``
    and its log P(c | x) on the fold's test rows, scored together."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from nbapp.errors import DataError
    from nbapp.evaluate import _prepare, score
    from nbapp.baseline import logistic_inputs
    from nbapp.specs import parse_features

    if evaluation.folds is None or evaluation.target is None:
        raise DataError("This evaluation keeps no folds; run nbapp.evaluate.cross_validate or holdout again.")
    data, y = _prepare(df, evaluation.target, evaluation.weight)
    specs = parse_features(features)
    inputs = logistic_inputs(data, specs)
    labels = y.to_numpy(dtype=object)
    parts = []
    for fold in range(evaluation.n_splits):
        test = np.flatnonzero(evaluation.folds == fold)
        train = np.flatnonzero(evaluation.folds == -1 if evaluation.method == "holdout" else evaluation.folds != fold)
        if not len(test):
            continue
        if len(set(labels[train])) < 2:
            raise DataError(f"Fold {fold + 1} trains on one class only; a baseline needs two.")
        with warnings.catch_warnings(), np.errstate(divide="ignore"):     # log 0 of a tree's pure leaf: -inf
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            pipeline = make_pipeline(specs, len(train)).fit(inputs.iloc[train], labels[train])
            log_proba = pd.DataFrame(_log_proba(pipeline, inputs.iloc[test]), index=test,
                                     columns=pd.Index(list(pipeline.classes_), dtype=object))
        parts.append(log_proba.reindex(columns=list(evaluation.classes), fill_value=-np.inf))
    log_all = pd.concat(parts)
    positions = log_all.index.to_numpy()
    return score(y.iloc[positions], log_all.reset_index(drop=True))


def _log_proba(pipeline: Any, rows: pd.DataFrame) -> np.ndarray:
    """log P(c | x): the classifier's own where it has one (logistic regression's, exact far in the
    tails), else the log of its probabilities (k nearest neighbours has none)."""
    if hasattr(pipeline, "predict_log_proba"):
        return pipeline.predict_log_proba(rows)
    return np.log(pipeline.predict_proba(rows))
