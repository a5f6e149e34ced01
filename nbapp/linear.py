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
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.categorical import CategoricalBlock
from nbapp.errors import DataError
from nbapp.gaussian import GaussianBlock
from nbapp.multinomial import MultinomialBlock, counts_matrix
from nbapp.textfeature import TextBlock, _documents

__all__ = ["LinearForm", "linear_form"]


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
        parts = [_block_design(block, df) for block in self._model._blocks]
        return sparse.hstack([p for p, _, _ in parts], format="csr")

    def decision_function(self, df: pd.DataFrame) -> pd.Series:
        """w . phi(x) + b per row: > 0 means the positive class."""
        values = np.asarray(self.design(df) @ self.weights.to_numpy()) + self.bias
        return pd.Series(values, index=df.index, name="log_odds")


def linear_form(model: Any) -> LinearForm:
    if len(model.classes_) != 2:
        raise DataError(f"The linear form is for two classes; this model has {len(model.classes_)}.")
    names: list[str] = []
    weights: list[np.ndarray] = []
    quadratic = False
    empty = pd.DataFrame(index=[])
    for block in model._blocks:
        _, block_names, block_weights = _block_design(block, empty)
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


def _diff(log: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return log[:, 1] - log[:, 0]


def _block_design(block: Any, df: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
    n = len(df)
    if isinstance(block, CategoricalBlock):
        k = len(block.categories)
        names = [f"{block.column} = {v}" for v in block.categories]
        codes = block.codes(df[block.column]) if block.column in df else np.full(n, -1)
        rows = np.flatnonzero(codes >= 0)
        x = sparse.csr_matrix((np.ones(len(rows)), (rows, codes[rows])), shape=(n, k))
        return x, names, _diff(block.log_probabilities())
    if isinstance(block, GaussianBlock):
        return _gaussian_design(block, df)
    if isinstance(block, MultinomialBlock):
        x = counts_matrix(df, block.columns)[0] if n else sparse.csr_matrix((0, len(block.columns)))
        return x, list(block.columns), _diff(block.table.log_probabilities())
    if isinstance(block, TextBlock):
        return _text_design(block, df)
    raise TypeError(type(block))


def _gaussian_design(block: GaussianBlock, df: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
    mean, var = block.mean, block.variance()
    x = block._values(df) if len(df) else np.zeros((0, len(block.columns)))
    names, weights, cols = [], [], []
    for a, col in enumerate(block.columns):
        m0, m1, v0, v1 = mean[0, a], mean[1, a], var[0, a], var[1, a]
        observed = ~np.isnan(x[:, a])
        value = np.where(observed, x[:, a], 0.0)
        names += [f"{col} observed", col]
        weights += [-0.5 * np.log(v1 / v0) - m1**2 / (2 * v1) + m0**2 / (2 * v0), m1 / v1 - m0 / v0]
        cols += [observed.astype(float), value]
        if v0 != v1:
            names.append(f"{col}^2")
            weights.append(-1 / (2 * v1) + 1 / (2 * v0))
            cols.append(value**2)
    matrix = np.column_stack(cols) if cols else np.zeros((len(df), 0))
    return sparse.csr_matrix(matrix), names, np.array(weights, dtype=float)


def _text_design(block: TextBlock, df: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
    params = block._params()
    names = [f"{block.column}: {t}" for t in block.vocabulary_terms()]
    weights = [_diff(params["weights"])]
    n = len(df)
    if n and block.column in df:
        docs = _documents(df[block.column], block.column)
        observed = ~pd.isna(docs).to_numpy()
        x = sparse.lil_matrix((n, len(names)))
        x[np.flatnonzero(observed)] = block._design(docs[observed], params)
        x = x.tocsr()
    else:
        observed = np.zeros(n, dtype=bool)
        x = sparse.csr_matrix((n, len(names)))
    extra_names, extra_cols = [], []
    if params["unk"] is not None:
        extra_names.append(f"{block.column}: UNK tokens")
        weights.append(np.array([params["unk"][1] - params["unk"][0]]))
        unseen = np.zeros(n)
        if observed.any():
            from nbapp import text

            unseen[observed] = text.unseen_counts(list(docs[observed]), params["vocab_map"], block._unpruned())
        extra_cols.append(unseen)
    if block.spec.event_model == "bernoulli":
        extra_names.append(f"{block.column} observed")
        weights.append(np.array([params["constant"][1] - params["constant"][0]]))
        extra_cols.append(observed.astype(float))
    if extra_cols:
        x = sparse.hstack([x, sparse.csr_matrix(np.column_stack(extra_cols))], format="csr")
    return x, names + extra_names, np.concatenate(weights)
