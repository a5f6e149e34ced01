"""nbapp agrees with scikit-learn (a test-only reference) where the two overlap, to 1e-9.

Generated data (numpy, fixed seeds, a few hundred rows); for every model the fitted
parameters and predict_proba / predict_log_proba are compared. scikit-learn's
sample_weight is checked against nbapp's weight column through repeated rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB
from sklearn.preprocessing import OrdinalEncoder

import nbapp

RTOL = 1e-9
CLASSES = np.array(["a", "b", "c"])


def labels(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.choice(CLASSES, size=n, p=[0.5, 0.3, 0.2])


def gaussian_frame(seed: int, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = labels(rng, n)
    shift = {"a": 0.0, "b": 1.5, "c": -2.0}
    offsets = np.array([shift[c] for c in y])
    return pd.DataFrame(
        {
            "g0": rng.normal(offsets, 1.0),
            "g1": rng.normal(10 + 3 * offsets, 5.0),
            "g2": rng.gamma(2.0, 2.0 + offsets.clip(0), n),
            "y": y,
        }
    )


def categorical_frame(seed: int, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = labels(rng, n)
    columns = {}
    for j, k in enumerate([2, 4, 6]):
        values = np.array([f"v{j}_{i}" for i in range(k)])
        columns[f"c{j}"] = values[(rng.integers(0, k, n) + (y == "b") * (j + 1)) % k]
    return pd.DataFrame({**columns, "y": y})


def count_frame(seed: int, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = labels(rng, n)
    rates = {"a": [3, 1, 0.5, 2, 0.1], "b": [0.5, 2, 2, 1, 0.1], "c": [1, 1, 1, 1, 3]}
    counts = np.vstack([rng.poisson(rates[c]) for c in y])
    return pd.DataFrame({**{f"w{j}": counts[:, j] for j in range(5)}, "y": y})


def binary_frame(seed: int, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = labels(rng, n)
    p = {"a": [0.8, 0.1, 0.5, 0.3], "b": [0.2, 0.6, 0.5, 0.9], "c": [0.5, 0.5, 0.05, 0.4]}
    bits = (rng.random((n, 4)) < np.vstack([p[c] for c in y])).astype(int)
    return pd.DataFrame({**{f"b{j}": bits[:, j] for j in range(4)}, "y": y})


def fit(frame, features, *, weight=None, **settings) -> nbapp.NaiveBayes:
    model = nbapp.NaiveBayes(features=features, **settings)
    model.fit(frame, target="y", weight=weight)
    return model


def assert_proba_equal(model: nbapp.NaiveBayes, reference, X, frame: pd.DataFrame) -> None:
    assert list(model.classes_) == list(reference.classes_)
    np.testing.assert_allclose(model.predict_proba(frame).to_numpy(float), reference.predict_proba(X), rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(
        model.predict_log_proba(frame).to_numpy(float), reference.predict_log_proba(X), rtol=RTOL, atol=1e-12
    )
    assert (model.predict(frame).to_numpy() == reference.predict(X)).all()


def repeat_rows(frame: pd.DataFrame, weights: np.ndarray) -> pd.DataFrame:
    return frame.loc[frame.index.repeat(weights)].reset_index(drop=True)


def integer_weights(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 4, n)


# --------------------------------------------------------------------------------------
# GaussianNB
# --------------------------------------------------------------------------------------

GAUSS = {"g0": "gaussian", "g1": "gaussian", "g2": "gaussian"}


@pytest.mark.parametrize("var_smoothing", [1e-9, 1e-3, 0.1, 0.0])
def test_gaussian_matches_gaussiannb_parameters_and_probabilities(var_smoothing):
    train, test = gaussian_frame(1), gaussian_frame(2, n=100)
    cols = list(GAUSS)
    ref = GaussianNB(var_smoothing=var_smoothing).fit(train[cols].to_numpy(), train["y"].to_numpy())
    m = fit(train, GAUSS, var_smoothing=var_smoothing)
    for j, col in enumerate(cols):
        table = m.gaussian(col).loc[list(ref.classes_)]
        np.testing.assert_allclose(table["mean"].to_numpy(float), ref.theta_[:, j], rtol=RTOL)
        np.testing.assert_allclose(table["var"].to_numpy(float), ref.var_[:, j], rtol=RTOL)
    np.testing.assert_allclose(m.priors_.loc[list(ref.classes_)].to_numpy(float), ref.class_prior_, rtol=RTOL)
    assert_proba_equal(m, ref, test[cols].to_numpy(), test)


def test_gaussian_integer_weights_equal_repeated_rows_in_gaussiannb():
    # scikit-learn computes epsilon from unweighted X, so compare against repeated rows.
    train, test = gaussian_frame(3), gaussian_frame(4, n=100)
    w = integer_weights(len(train), 5)
    cols = list(GAUSS)
    repeated = repeat_rows(train, w)
    ref = GaussianNB(var_smoothing=1e-2).fit(repeated[cols].to_numpy(), repeated["y"].to_numpy())
    m = fit(train.assign(w=w), GAUSS, weight="w", var_smoothing=1e-2)
    for j, col in enumerate(cols):
        table = m.gaussian(col).loc[list(ref.classes_)]
        np.testing.assert_allclose(table["mean"].to_numpy(float), ref.theta_[:, j], rtol=RTOL)
        np.testing.assert_allclose(table["var"].to_numpy(float), ref.var_[:, j], rtol=RTOL)
    assert_proba_equal(m, ref, test[cols].to_numpy(), test)


# --------------------------------------------------------------------------------------
# CategoricalNB via OrdinalEncoder
# --------------------------------------------------------------------------------------

CATS = {"c0": "categorical", "c1": "categorical", "c2": "categorical"}


def categorical_reference(train: pd.DataFrame, alpha: float, sample_weight=None):
    cols = list(CATS)
    encoder = OrdinalEncoder().fit(train[cols])
    ref = CategoricalNB(alpha=alpha).fit(encoder.transform(train[cols]), train["y"], sample_weight=sample_weight)
    return encoder, ref


def assert_cpts_match_categoricalnb(m: nbapp.NaiveBayes, encoder: OrdinalEncoder, ref: CategoricalNB) -> None:
    for j, col in enumerate(CATS):
        cpt = m.cpt(col).loc[list(encoder.categories_[j]), list(ref.classes_)]
        np.testing.assert_allclose(cpt.to_numpy(float), np.exp(ref.feature_log_prob_[j]).T, rtol=RTOL)
        counts = m.counts(col).loc[list(encoder.categories_[j]), list(ref.classes_)]
        np.testing.assert_allclose(counts.to_numpy(float), ref.category_count_[j].T, rtol=RTOL)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0])
def test_categorical_matches_categoricalnb_through_ordinal_encoder(alpha):
    train, test = categorical_frame(10), categorical_frame(11, n=100)
    encoder, ref = categorical_reference(train, alpha)
    m = fit(train, CATS, alpha=alpha)
    assert_cpts_match_categoricalnb(m, encoder, ref)
    np.testing.assert_allclose(m.priors_.loc[list(ref.classes_)].to_numpy(float), np.exp(ref.class_log_prior_), rtol=RTOL)
    assert_proba_equal(m, ref, encoder.transform(test[list(CATS)]), test)


def test_categorical_weights_match_categoricalnb_sample_weight():
    train, test = categorical_frame(12), categorical_frame(13, n=100)
    w = integer_weights(len(train), 14)
    encoder, ref = categorical_reference(train, 1.0, sample_weight=w)
    m = fit(train.assign(w=w), CATS, weight="w", alpha=1.0)
    assert_cpts_match_categoricalnb(m, encoder, ref)
    assert_proba_equal(m, ref, encoder.transform(test[list(CATS)]), test)
    repeated = fit(repeat_rows(train, w), CATS, alpha=1.0)
    pd.testing.assert_frame_equal(repeated.predict_proba(test), m.predict_proba(test), rtol=1e-12)


# --------------------------------------------------------------------------------------
# MultinomialNB: all count columns form one multinomial block
# --------------------------------------------------------------------------------------

COUNTS = {f"w{j}": "multinomial" for j in range(5)}


def multinomial_theta(m: nbapp.NaiveBayes, classes) -> np.ndarray:
    """theta[c, a] = P(word a | c) of the multinomial block, read through m.cpt."""
    return np.vstack([m.cpt(col).loc[col, list(classes)].to_numpy(float) for col in COUNTS]).T


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0])
def test_multinomial_block_matches_multinomialnb(alpha):
    train, test = count_frame(20), count_frame(21, n=100)
    cols = list(COUNTS)
    ref = MultinomialNB(alpha=alpha).fit(train[cols].to_numpy(), train["y"])
    m = fit(train, COUNTS, alpha=alpha)
    np.testing.assert_allclose(multinomial_theta(m, ref.classes_), np.exp(ref.feature_log_prob_), rtol=RTOL)
    assert_proba_equal(m, ref, test[cols].to_numpy(), test)


def test_multinomial_weights_match_multinomialnb_sample_weight():
    train, test = count_frame(22), count_frame(23, n=100)
    cols = list(COUNTS)
    w = integer_weights(len(train), 24)
    ref = MultinomialNB(alpha=1.0).fit(train[cols].to_numpy(), train["y"], sample_weight=w)
    m = fit(train.assign(wt=w), COUNTS, weight="wt", alpha=1.0)
    np.testing.assert_allclose(multinomial_theta(m, ref.classes_), np.exp(ref.feature_log_prob_), rtol=RTOL)
    assert_proba_equal(m, ref, test[cols].to_numpy(), test)


# --------------------------------------------------------------------------------------
# BernoulliNB on 0/1 columns (binarize=None)
# --------------------------------------------------------------------------------------

BITS = {f"b{j}": "bernoulli" for j in range(4)}


def bernoulli_theta(m: nbapp.NaiveBayes, classes) -> np.ndarray:
    """theta[c, d] = P(x_d = 1 | c), read through m.cpt (the row of value 1)."""
    return np.vstack([m.cpt(col).loc[1, list(classes)].to_numpy(float) for col in BITS]).T


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0])
def test_bernoulli_matches_bernoullinb(alpha):
    train, test = binary_frame(30), binary_frame(31, n=100)
    cols = list(BITS)
    ref = BernoulliNB(alpha=alpha, binarize=None).fit(train[cols].to_numpy(), train["y"])
    m = fit(train, BITS, alpha=alpha)
    np.testing.assert_allclose(bernoulli_theta(m, ref.classes_), np.exp(ref.feature_log_prob_), rtol=RTOL)
    assert_proba_equal(m, ref, test[cols].to_numpy(), test)


def test_bernoulli_weights_match_bernoullinb_sample_weight():
    train, test = binary_frame(32), binary_frame(33, n=100)
    cols = list(BITS)
    w = integer_weights(len(train), 34)
    ref = BernoulliNB(alpha=1.0, binarize=None).fit(train[cols].to_numpy(), train["y"], sample_weight=w)
    m = fit(train.assign(wt=w), BITS, weight="wt", alpha=1.0)
    np.testing.assert_allclose(bernoulli_theta(m, ref.classes_), np.exp(ref.feature_log_prob_), rtol=RTOL)
    assert_proba_equal(m, ref, test[cols].to_numpy(), test)


# --------------------------------------------------------------------------------------
# A mixed model is the product of the separate models' likelihoods
# --------------------------------------------------------------------------------------


def sklearn_types_frame(seed: int, n: int = 300) -> pd.DataFrame:
    """The frames of the four scikit-learn types side by side (one target): a mixed model's data."""
    g = gaussian_frame(seed, n)
    return pd.concat(
        [
            g,
            categorical_frame(seed, n).drop(columns="y"),
            count_frame(seed, n).drop(columns="y"),
            binary_frame(seed, n).drop(columns="y"),
        ],
        axis=1,
    )


def test_mixed_model_is_product_of_separate_sklearn_models():
    # log P(c | x) = log P(c) + sum over blocks of log P(x_block | c) - log P(x)   [seed 000, Eq. 5, 22].
    train, test = sklearn_types_frame(40), sklearn_types_frame(41, n=100)
    alpha, var_smoothing = 0.7, 1e-3
    features = {**GAUSS, **CATS, **COUNTS, **BITS}
    m = fit(train, features, alpha=alpha, var_smoothing=var_smoothing)
    y = train["y"]
    gauss = GaussianNB(var_smoothing=var_smoothing).fit(train[list(GAUSS)].to_numpy(), y)
    encoder = OrdinalEncoder().fit(train[list(CATS)])
    cat = CategoricalNB(alpha=alpha).fit(encoder.transform(train[list(CATS)]), y)
    mult = MultinomialNB(alpha=alpha).fit(train[list(COUNTS)].to_numpy(), y)
    bern = BernoulliNB(alpha=alpha, binarize=None).fit(train[list(BITS)].to_numpy(), y)
    jll = (
        gauss.predict_joint_log_proba(test[list(GAUSS)].to_numpy())
        + cat.predict_joint_log_proba(encoder.transform(test[list(CATS)]))
        + mult.predict_joint_log_proba(test[list(COUNTS)].to_numpy())
        + bern.predict_joint_log_proba(test[list(BITS)].to_numpy())
        - 3 * mult.class_log_prior_  # four models each add log P(c); keep one
    )
    log_posterior = jll - logsumexp(jll, axis=1, keepdims=True)
    np.testing.assert_allclose(m.predict_log_proba(test).to_numpy(float), log_posterior, rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(m.predict_proba(test).to_numpy(float), np.exp(log_posterior), rtol=RTOL, atol=1e-12)
    e = m.explain(test.iloc[0])
    np.testing.assert_allclose(e.joint_log.loc[list(gauss.classes_)].to_numpy(float), jll[0], rtol=RTOL)
    np.testing.assert_allclose(e.log_evidence, logsumexp(jll[0]), rtol=RTOL)


# --------------------------------------------------------------------------------------
# A text column with the library defaults = CountVectorizer(\w+) + MultinomialNB
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.5, 1.0])
def test_text_defaults_match_countvectorizer_and_multinomialnb(alpha):
    from sklearn.feature_extraction.text import CountVectorizer

    from nbapp.examples import load_example

    sms = load_example("sms_spam")
    train, test = sms.iloc[:600].rename(columns={"label": "y"}), sms.iloc[600:800]
    vectorizer = CountVectorizer(token_pattern=r"(?u)\w+").fit(train["text"])
    ref = MultinomialNB(alpha=alpha).fit(vectorizer.transform(train["text"]), train["y"])
    m = fit(train, {"text": "text"}, alpha=alpha)
    assert_proba_equal(m, ref, vectorizer.transform(test["text"]), test)
