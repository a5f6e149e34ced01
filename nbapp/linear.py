"""Naive Bayes as a linear classifier   [seed 000, §2.3, Eq. 17-20].

For two classes c0 < c1 (classes_ order), the log-odds is a sum of per-feature terms:

    log P(c1 | x) / P(c0 | x) = w . phi(x) + b,   b = log P(c1) / P(c0)

phi(x) holds one indicator per category value of a categorical or Bernoulli feature
(w = log theta_v,c1 / theta_v,c0; Eq. 18 is the same with the two values folded into one),
the counts of multinomial columns and text words (w = log theta_c1 / theta_c0, Eq. 19),
and for a Gaussian column x, an "observed" indicator and, when the two classes have
different variances, x^2 (Eq. 20 is the shared-variance case, where the x^2 weight is 0:
then the boundary is linear, otherwise quadratic). Missing values set their terms to 0,
so w . phi(x) + b equals the model's log-odds for every row, missing values included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.blocks.base import NotesTerms
from nbapp.errors import DataError

__all__ = ["LinearForm", "NotesForm", "linear_form"]


@dataclass(frozen=True)
class NotesForm:
    """w and b as seed 000 writes them (Eq. 17-20): sign(w . x + b), x the features themselves.

    * binary (Bernoulli) feature x in {0, 1}:  w_BER = log theta+ (1 - theta-) / (theta- (1 - theta+)),
      its x = 0 term log (1 - theta+) / (1 - theta-) goes into b_BER   (Eq. 18);
    * Gaussian feature with a variance shared by the classes: w_GNB = (mu+ - mu-) / sigma^2, its
      constant (mu-^2 - mu+^2) / (2 sigma^2) goes into b_GNB   (Eq. 20); unshared variances add an
      x^2 weight (quadratic boundary);
    * counts: w_MULT = log theta+ / theta-   (Eq. 19); a categorical value with K > 2 keeps one
      indicator per value (CAT).
    Each type says its part (``Block.notes_terms``); a type the notes do not cover is labelled
    by its own title. b starts at log P(+)/P(-). The notes' form assumes every feature observed.
    """

    weights: pd.Series
    bias: float
    positive: Any
    negative: Any
    kinds: tuple[str, ...]     # the labels of the forms used: "BER", "GNB", "MULT", "CAT" or a type's title
    ones: Mapping[str, Any]    # binary feature -> the value that is x = 1
    terms: tuple[NotesTerms, ...] = ()

    def decision_function(self, df: pd.DataFrame) -> pd.Series:
        """w . x + b per row of fully observed features (binary features: 1 = the positive value)."""
        total = np.full(len(df), self.bias)
        for part in self.terms:
            total = total + part.features(df) @ np.fromiter(part.weights.values(), dtype=float)
        return pd.Series(total, index=df.index, name="log_odds")


@dataclass(frozen=True)
class LinearForm:
    """log P(positive | x) / P(negative | x) = weights . phi(x) + bias."""

    weights: pd.Series
    bias: float
    positive: Any
    negative: Any
    quadratic: bool
    _model: Any

    def design(self, df: pd.DataFrame) -> sparse.csr_matrix:
        """phi(x) for each row (columns in the order of ``weights``)."""
        parts = [block.linear_terms(df) for block in self._model.blocks_]
        return sparse.hstack([p for p, _, _ in parts], format="csr")

    def decision_function(self, df: pd.DataFrame) -> pd.Series:
        """w . phi(x) + b per row: > 0 means the positive class."""
        values = np.asarray(self.design(df) @ self.weights.to_numpy()) + self.bias
        return pd.Series(values, index=df.index, name="log_odds")

    def notes_form(self) -> NotesForm:
        """The same classifier in the notes' w_BER / b_BER, w_GNB / b_GNB, w_MULT form (seed 000,
        Eq. 18-20): each column's part as its type gives it (``Block.notes_terms``), every
        per-feature constant folded into b."""
        parts = [block.notes_terms(column, self.weights) for block in self._model.blocks_ for column in block.columns]
        weights = {name: w for part in parts for name, w in part.weights.items()}
        ones = {column: part.one for column, part in zip(self._columns(), parts) if part.one is not None}
        return NotesForm(pd.Series(weights, name="w", dtype=float), self.bias + sum(p.bias for p in parts),
                         self.positive, self.negative, tuple(dict.fromkeys(p.label for p in parts)), ones,
                         tuple(parts))

    def _columns(self) -> list[str]:
        return [column for block in self._model.blocks_ for column in block.columns]


def linear_form(model: Any) -> LinearForm:
    if len(model.classes_) != 2:
        raise DataError(f"The linear form is for two classes; this model has {len(model.classes_)}.")
    names: list[str] = []
    weights: list[np.ndarray] = []
    quadratic = False
    empty = pd.DataFrame(index=[])
    for block in model.blocks_:
        _, block_names, block_weights = block.linear_terms(empty)
        names += block_names
        weights.append(block_weights)
        quadratic |= any(n.endswith("^2") for n in block_names)
    w = np.concatenate(weights) if weights else np.zeros(0)
    log_prior = model.log_prior_
    bias = float(log_prior[1] - log_prior[0])
    if not np.isfinite(w).all() or not np.isfinite(bias):
        raise DataError("The linear form needs every probability to be > 0; with l = 0 some are 0. Set l > 0.")
    return LinearForm(pd.Series(w, index=pd.Index(names, dtype=object), name="w"), bias,
                      model.classes_[1], model.classes_[0], quadratic, model)
