"""Class priors P(c).

* "empirical": N_c / N, the share of the (weighted) training rows   [seed 000, §2.1];
  with ``prior_alpha`` > 0, the Dirichlet-smoothed (N_c + a) / (N + K a) of the
  "true Bayesian" Naive Bayes   [seed 000, §2.4].
* "uniform": 1 / K — the MLE decision of seed 004, which ignores the prior.
* a mapping {class: probability}: given by the user, as when Veoride pulls bikes off the
  street and P(veoride) falls from 0.2 to 0.02   [seed 004].
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from nbapp.errors import DataError
from nbapp.exact import to_fraction
from nbapp.smoothing import exact_denominators, smoothed_fraction
from nbapp.smoothing import CellTerms, Lidstone, cell_terms

__all__ = ["check_priors", "class_prior", "prior_values", "prior_fractions", "prior_terms"]

# Given priors must sum to one within this tolerance (room for values typed with 6 decimals).
_SUM_TOLERANCE = 1e-6


def check_priors(priors: Any) -> Any:
    if isinstance(priors, str):
        if priors not in ("empirical", "uniform"):
            raise DataError(f"priors must be 'empirical', 'uniform' or a dict of class -> probability, not {priors!r}.")
        return priors
    if isinstance(priors, Mapping):
        values = np.array([float(v) for v in priors.values()])
        if not np.isfinite(values).all() or (values < 0).any():
            raise DataError("Every given prior must be a probability between 0 and 1.")
        if abs(values.sum() - 1.0) > _SUM_TOLERANCE:
            raise DataError(f"The given priors sum to {values.sum():g}, not 1; scale them so they add up to 1.")
        return dict(priors)
    raise DataError(f"priors must be 'empirical', 'uniform' or a dict of class -> probability, not {priors!r}.")


def class_prior(class_counts: np.ndarray, classes: list[Any], priors: Any,
                prior_alpha: float) -> tuple[np.ndarray, list[Fraction | None]]:
    """P(c) per class, as floats and as exact fractions.

    >>> _, exact = class_prior(np.array([5.0, 9.0]), ["No", "Yes"], "empirical", 0.0)
    >>> exact                            # seed 000's tennis: 9 of the 14 days are Yes
    [Fraction(5, 14), Fraction(9, 14)]
    """
    return prior_values(class_counts, classes, priors, prior_alpha), \
        prior_fractions(class_counts, classes, priors, prior_alpha)


def prior_values(class_counts: np.ndarray, classes: list[Any], priors: Any, prior_alpha: float) -> np.ndarray:
    """P(c) per class as floats, in one pass over the classes (no fractions: issue 31, item 6).

    >>> prior_values(np.array([6.0, 10.0]), ["No", "Yes"], "empirical", 1.0)    # (N_c + a) / (N + K a)
    array([0.38888889, 0.61111111])
    """
    k = len(classes)
    if isinstance(priors, Mapping):
        _check_given(priors, classes)
        return np.array([float(priors[c]) for c in classes])
    if priors == "uniform":
        return np.full(k, 1.0 / k)
    a = float(prior_alpha)
    total = class_counts.sum() + k * a
    if total <= 0:
        raise DataError("No training rows: the empirical class prior is undefined.")
    return (class_counts + a) / total


def prior_fractions(class_counts: np.ndarray, classes: list[Any], priors: Any,
                    prior_alpha: float) -> list[Fraction | None]:
    """P(c) per class as exact fractions: N_c / N, (N_c + a) / (N + K a), 1 / K or the given value."""
    k = len(classes)
    if isinstance(priors, Mapping):
        _check_given(priors, classes)
        return [to_fraction(priors[c]) for c in classes]
    if priors == "uniform":
        return [Fraction(1, k)] * k
    pseudo = to_fraction(float(prior_alpha))   # the Dirichlet prior is Lidstone smoothing of the class counts
    denominator = exact_denominators(np.asarray(class_counts, dtype=float)[:, None], [], total=pseudo * k)[0]
    if denominator <= 0:
        raise DataError("No training rows: the empirical class prior is undefined.")
    return [smoothed_fraction(n, pseudo, denominator) for n in class_counts]


def _check_given(priors: Mapping, classes: list[Any]) -> None:
    """Given priors name every class and nothing else (each side looked up in a set, not a list)."""
    known = set(classes)
    missing = [c for c in classes if c not in priors]
    if missing:
        raise DataError(f"The given priors name no probability for class {missing[0]!r}; give one for every class.")
    extra = [c for c in priors if c not in known]
    if extra:
        raise DataError(f"The given priors name {extra[0]!r}, which is not a class of the target.")


def prior_terms(class_counts: np.ndarray, priors: Any, prior_alpha: float, j: int) -> CellTerms | None:
    """The numbers class j's empirical prior is made of, unreduced: N_c / N, or (N_c + a) / (N + K a)
    with the Dirichlet pseudo-count a   [seed 000, §2.1 and §2.4]; None for a uniform or given prior,
    which is counted from nothing. Its value is :func:`class_prior`'s fraction.

    >>> t = prior_terms(np.array([5.0, 9.0]), "empirical", 0.0, 1)     # tennis: 9 of the 14 days are Yes
    >>> f"{t.numerator}/{t.denominator}"
    '9/14'
    >>> t = prior_terms(np.array([6.0, 10.0]), "empirical", 1.0, 1)    # a = 1: (10 + 1) / (16 + 2), not 10/16
    >>> f"{t.numerator}/{t.denominator} = {t.value}"
    '11/18 = 11/18'
    """
    if isinstance(priors, Mapping) or priors == "uniform":
        return None
    return cell_terms(np.asarray(class_counts, dtype=float)[:, None], j, 0, Lidstone(prior_alpha))
