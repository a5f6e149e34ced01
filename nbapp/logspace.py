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
"""

from __future__ import annotations

import numpy as np

__all__ = ["logsumexp_rows", "normalise_log"]


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
