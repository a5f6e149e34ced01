"""Prior vs evidence: how much the class prior can move a posterior, without refitting.

Bayes' rule splits the posterior into a prior and a likelihood (seed 004):

    log P(c | x) = log P(c) + sum_a log P(x_a | c) - log P(x)        [seed 000, Eq. 5]

The likelihood terms do not depend on the prior, so a new prior needs no refit: keep the
explanation's log-likelihoods, swap log P(c), normalise again. For two classes a and b
the comparison is one line of log-odds,

    log P(a | x) / P(b | x) = log P(a)/P(b)  +  sum_a log P(x_a | a)/P(x_a | b)
                              (prior ratio)     (likelihood ratios: the evidence)

so the prior changes the answer only when |log prior ratio| can outweigh the summed
likelihood ratios. Seed 004's bikes: a teal bike is a veoride at P(veoride) = 0.2, but
private at 0.02 — users of other tools who see "nothing change" usually have evidence
whose log-likelihood ratios are far larger than any prior ratio they tried.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp._logspace import logsumexp_rows, normalise_log
from nbapp.priors import check_priors, class_prior

__all__ = [
    "PriorEvidence",
    "log_likelihoods",
    "posterior_with_priors",
    "moved_priors",
    "prior_sweep",
    "prior_vs_evidence",
]

_PRIOR = "prior"


@dataclass(frozen=True)
class PriorEvidence:
    """The log-odds of ``cls`` against ``other`` split into prior and evidence.

    ``log_likelihood_ratios``: log P(x_a | cls) - log P(x_a | other) for every used
    feature factor (inf / -inf where one class has probability 0, NaN where both do).
    """

    cls: Any
    other: Any
    prior: float                       # P(cls) in the explanation
    prior_other: float                 # P(other)
    log_prior_ratio: float             # log P(cls) / P(other)
    log_likelihood_ratios: pd.Series   # by factor

    @property
    def log_likelihood_ratio(self) -> float:
        """Net evidence: the sum of the likelihood ratios (NaN if one is NaN)."""
        with np.errstate(invalid="ignore"):
            return float(self.log_likelihood_ratios.sum(skipna=False))

    @property
    def evidence_weight(self) -> float:
        """sum_a |log P(x_a | cls) / P(x_a | other)|: how much the features pull at all."""
        return float(np.abs(self.log_likelihood_ratios).sum(skipna=False))

    @property
    def log_posterior_ratio(self) -> float:
        """log P(cls | x) / P(other | x) = prior ratio + net evidence."""
        with np.errstate(invalid="ignore"):
            return self.log_prior_ratio + self.log_likelihood_ratio

    @property
    def prior_dominates(self) -> bool:
        """True when the prior decides against the evidence: the likelihoods alone favour
        one class (or neither), prior and likelihoods together the other, i.e.

            sign(log posterior ratio) != sign(net evidence)

        (seed 004's teal bike: private at P(veoride) = 0.02 although the colour says
        veoride). A prior pointing the same way as the evidence decides nothing the
        evidence had not, so it does not dominate; nor does an undefined (NaN) ratio."""
        posterior, evidence = self.log_posterior_ratio, self.log_likelihood_ratio
        if np.isnan(posterior) or np.isnan(evidence):
            return False
        return bool(np.sign(posterior) != np.sign(evidence))

    @property
    def break_even_prior(self) -> float:
        """The share P(cls) / (P(cls) + P(other)) at which the two posteriors are equal:
        1 / (1 + exp(net evidence)). Above it ``cls`` wins, below it ``other`` does."""
        net = self.log_likelihood_ratio
        if np.isnan(net):
            return float("nan")
        with np.errstate(over="ignore"):
            return float(1.0 / (1.0 + np.exp(net)))


def log_likelihoods(e: Any) -> pd.DataFrame:
    """The explanation's used feature factors, log P(x_a | c): factor x class.

    Factors that were skipped (missing, unseen, undefined; seed 000 Eq. 22) are left out,
    so these rows sum to ``e.joint_log - log P(c)``.
    """
    used = e.factors["status"] == "used"
    names = [n for n in e.factors.index[used.to_numpy()] if n != _PRIOR]
    return e.logs.loc[names, list(e.classes)].astype(float)


def posterior_with_priors(e: Any, priors: Mapping[Any, float] | pd.Series) -> pd.Series:
    """P(c | x) for the explanation's example under other class priors (no refit).

    ``priors`` maps every class to a probability; they must sum to 1. A row every class
    rules out keeps the logspace convention: its posterior is the (new) prior.
    """
    new = _prior_vector(e, priors)
    with np.errstate(divide="ignore"):
        log_prior = np.log(new)
    joint = log_prior + log_likelihoods(e).to_numpy().sum(axis=0)
    log_posterior, _, _ = normalise_log(joint[None, :], log_prior)
    return pd.Series(np.exp(log_posterior[0]), index=list(e.classes), name="posterior")


def moved_priors(e: Any, cls: Any, p: float) -> pd.Series:
    """The explanation's priors with P(cls) set to ``p`` and the other classes rescaled
    to share 1 - p in their old proportions (uniformly if they had none)."""
    if not 0.0 <= p <= 1.0:
        raise DataError(f"A prior must lie between 0 and 1, got {p!r}.")
    old = _explanation_priors(e)
    new = _rest_share(old, cls) * (1.0 - p)
    new[cls] = p
    return new.rename("prior")


def prior_sweep(e: Any, cls: Any, *, points: int = 101) -> pd.DataFrame:
    """Posterior of every class as P(cls) runs from 0 to 1 (others rescaled as in
    :func:`moved_priors`): index "prior" = P(cls), one column per class."""
    if points < 2:
        raise DataError(f"A prior sweep needs at least 2 points, got {points}.")
    grid = np.linspace(0.0, 1.0, points)
    old = _explanation_priors(e)
    share = _rest_share(old, cls).to_numpy()
    is_cls = (old.index == cls)[None, :]
    priors = np.where(is_cls, grid[:, None], share[None, :] * (1.0 - grid[:, None]))
    with np.errstate(divide="ignore"):
        log_prior = np.log(priors)
    joint = log_prior + log_likelihoods(e).to_numpy().sum(axis=0)[None, :]
    log_posterior = _normalise_each(joint, log_prior)
    return pd.DataFrame(np.exp(log_posterior), index=pd.Index(grid, name="prior"),
                        columns=list(e.classes))


def prior_vs_evidence(e: Any, cls: Any = None, other: Any = None) -> PriorEvidence:
    """Split the log-odds of ``cls`` against ``other`` into prior and evidence.

    Defaults: ``cls`` is the predicted class (the first class if undetermined) and
    ``other`` the class with the next-largest joint probability.
    """
    classes = list(e.classes)
    if len(classes) < 2:
        raise DataError("Prior vs evidence needs at least two classes.")
    ranked = list(e.joint_log.sort_values(ascending=False, kind="stable").index)
    cls = (e.prediction if e.prediction is not None else ranked[0]) if cls is None else cls
    if other is None:
        other = next(c for c in ranked if c != cls)
    for c in (cls, other):
        if c not in classes:
            raise DataError(f"Class {c!r} is not one of {classes}.")
    if cls == other:
        raise DataError(f"Compare two different classes, not {cls!r} with itself.")
    logs = log_likelihoods(e)
    with np.errstate(invalid="ignore"):
        ratios = (logs[cls] - logs[other]).rename(f"log P(x|{cls}) / P(x|{other})")
    priors = _explanation_priors(e)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_prior_ratio = float(np.log(priors[cls]) - np.log(priors[other]))
    return PriorEvidence(cls=cls, other=other, prior=float(priors[cls]),
                         prior_other=float(priors[other]), log_prior_ratio=log_prior_ratio,
                         log_likelihood_ratios=ratios)


def _explanation_priors(e: Any) -> pd.Series:
    return e.probabilities.loc[_PRIOR, list(e.classes)].astype(float).rename("prior")


def _prior_vector(e: Any, priors: Mapping[Any, float] | pd.Series) -> np.ndarray:
    """The new P(c) in class order, checked as NaiveBayes checks given priors (nbapp.priors).
    A Series (as :func:`moved_priors` returns) counts as a mapping class -> probability."""
    if isinstance(priors, pd.Series):
        priors = priors.to_dict()
    if not isinstance(priors, Mapping):
        raise DataError(f"Give the new priors as a dict class -> probability, not {priors!r}.")
    values, _ = class_prior(np.zeros(len(e.classes)), list(e.classes), check_priors(priors), 0.0)
    return values


def _normalise_each(joint: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
    """normalise_log where each row has its own prior (used by its undetermined rows,
    whose posterior is their prior, as in nbapp._logspace)."""
    log_posterior, _, undetermined = normalise_log(joint, log_prior[0])
    own = log_prior[undetermined]
    log_posterior[undetermined] = own - logsumexp_rows(own)[:, None]
    return log_posterior


def _rest_share(old: pd.Series, cls: Any) -> pd.Series:
    """How the classes other than ``cls`` split the remaining prior mass: in their old
    proportions, or evenly if they had none. Zero for ``cls`` itself."""
    if cls not in old.index:
        raise DataError(f"Class {cls!r} is not one of {list(old.index)}.")
    rest = old.drop(cls)
    if len(rest) == 0:
        raise DataError("Moving a prior needs at least two classes.")
    share = rest / rest.sum() if rest.sum() > 0 else pd.Series(1.0 / len(rest), index=rest.index)
    return share.reindex(old.index, fill_value=0.0)
