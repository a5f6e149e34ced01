"""Log space, the one place where joint log-likelihoods become posteriors.

Products of many probabilities underflow to 0.0 (seed 002; seed 004), so nbapp adds
logs and normalises once, with log-sum-exp:

    log P(x)     = logsumexp_c [log P(c) + sum_a log P(x_a | c)]
    log P(c | x) = log P(c) + sum_a log P(x_a | c) - log P(x)       [seed 000, Eq. 3 and 5]

``predict_proba`` and ``explain`` both call :func:`normalise_log`, so the Explain page
and a downloaded prediction file can never disagree.

When every class has probability 0 (possible with l = 0, or at values so extreme that
every density underflows), P(x) = 0 and the posterior 0/0 is undefined. Such a row is
flagged *undetermined*: its posterior is reported as the class prior (what is known
without the evidence) and it gets no predicted class. Nothing is invented silently.

The decision is here too, once (:func:`decide`, :func:`decide_codes`): the model's
``predict``, explanations, prediction files, evaluations and the scikit-learn estimator
all take the first most probable class, and none for an undetermined row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["logsumexp_rows", "normalise_log", "decide", "decide_codes"]


def _shifted(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """a - max per row, the max (0 for rows of -inf) and log sum exp of the shifted row.

    Column by column (there are few classes and many rows): a reduction along a short row is
    several times slower in numpy than a handful of whole-column operations."""
    a = np.atleast_2d(a)
    if a.shape[1] == 0:
        top = a.max(axis=1, keepdims=True)
    else:
        top = a[:, :1].copy()
        for c in range(1, a.shape[1]):
            np.maximum(top, a[:, c:c + 1], out=top)
    shift = np.where(np.isfinite(top), top, 0.0)
    shifted = a - shift
    with np.errstate(divide="ignore"):
        log_sum = np.log(_row_sums(np.exp(shifted)))
    return shifted, shift, log_sum


def _row_sums(e: np.ndarray) -> np.ndarray:
    """Sum of each row as a column, added left to right (as numpy sums a short row)."""
    if e.shape[1] == 0:
        return e.sum(axis=1, keepdims=True)
    total = e[:, :1].copy()
    for c in range(1, e.shape[1]):
        total += e[:, c:c + 1]
    return total


def logsumexp_rows(a: np.ndarray) -> np.ndarray:
    """log(sum(exp(a), axis=1)) without overflow; a row of -inf gives -inf."""
    _, shift, log_sum = _shifted(a)
    return (log_sum + shift)[:, 0]


def normalise_log(joint_log: np.ndarray, log_prior: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Log posteriors, log evidence and the undetermined-row mask of a (rows x classes) array.

    The posterior is (a - max) - log sum exp(a - max): subtracting the max first keeps
    the small log-sum term from being rounded away when joint logs are huge (-1e15).
    """
    shifted, shift, log_sum = _shifted(joint_log)
    log_evidence = (log_sum + shift)[:, 0]
    undetermined = ~np.isfinite(log_evidence)
    with np.errstate(invalid="ignore"):
        log_posterior = np.subtract(shifted, log_sum, out=shifted)
    if undetermined.any():
        prior_only = log_prior - logsumexp_rows(log_prior[None, :])[0]
        log_posterior[undetermined] = prior_only
    return log_posterior, log_evidence, undetermined


def decide_codes(log_posterior: np.ndarray, undetermined: np.ndarray | None = None, *, none: int = -1) -> np.ndarray:
    """The one argmax rule, as class positions: per row the first class of largest
    log P(c | x); ``none`` for an undetermined row, flagged in ``undetermined`` or, when that
    is not given, a row where every class is impossible (every entry -inf). No NaN entries.

    >>> decide_codes(np.array([[-1.6, -0.2], [-0.7, -0.7], [-np.inf, -np.inf]]))
    array([ 1,  0, -1])
    """
    logp = np.atleast_2d(log_posterior)
    if logp.shape[1] > 16 or logp.shape[1] == 0:
        best = np.argmax(logp, axis=1) if logp.shape[1] else np.zeros(len(logp), dtype=np.intp)
        top = logp.max(axis=1, initial=-np.inf)
    else:           # few classes: a pass per class column is several times faster than argmax along a short row
        best = np.zeros(len(logp), dtype=np.intp)
        top = logp[:, 0].copy()
        for j in range(1, logp.shape[1]):
            column = logp[:, j]
            best[column > top] = j
            np.maximum(top, column, out=top)
    nowhere = np.isneginf(top) if undetermined is None else np.asarray(undetermined, dtype=bool)
    return np.where(nowhere, none, best)


def decide(log_posterior: np.ndarray, undetermined: np.ndarray | None, classes: list) -> np.ndarray:
    """The one argmax rule, as labels: the most probable class per row, <NA> for an undetermined row.

    >>> decide(np.log([[0.36, 0.64], [0.9, 0.1]]), np.array([False, True]), ["No", "Yes"])
    array(['Yes', <NA>], dtype=object)
    """
    codes = decide_codes(log_posterior, undetermined)
    labels = np.array([*classes, pd.NA], dtype=object)
    return labels[np.where(codes < 0, len(classes), codes)]
