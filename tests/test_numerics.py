"""Numerical edge cases of nbapp.NaiveBayes (issue 5, "Numerics").

Posteriors are finite, or the row is flagged undetermined (predict gives <NA>); never NaN,
never a silent first-class answer. Library only: no Streamlit here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import nbapp
from nbapp.errors import DataError

TWO_CLASSES = pd.DataFrame({"colour": ["red", "red", "blue", "blue"], "size": ["S", "S", "L", "L"],
                            "y": ["p", "p", "q", "q"]})


def assert_proper_posterior(proba: pd.DataFrame) -> None:
    """Every row a probability distribution: finite, in [0, 1], summing to 1."""
    values = proba.to_numpy(dtype=float)
    assert not np.isnan(values).any(), proba
    assert np.isfinite(values).all(), proba
    assert ((values >= 0) & (values <= 1)).all(), proba
    np.testing.assert_allclose(values.sum(axis=1), 1.0, rtol=1e-9)


# -- l = 0 ---------------------------------------------------------------------------------------


def test_alpha_zero_value_unseen_in_every_class_is_left_out_with_a_note():
    """A value no class ever had is unseen: skipped like a missing value (seed 000, Eq. 22), not 0/0."""
    m = nbapp.NaiveBayes({"colour": "categorical"}, alpha=0).fit(TWO_CLASSES, target="y")
    query = pd.DataFrame({"colour": ["green"]})
    proba = m.predict_proba(query)
    assert_proper_posterior(proba)
    np.testing.assert_allclose(proba.iloc[0].to_numpy(), m.priors_.to_numpy())
    assert not m.undetermined(query).iloc[0]
    e = m.explain({"colour": "green"})
    assert e.factors.loc["colour", "status"] == "unseen"
    assert any("unseen" in note for note in e.notes)


def test_alpha_zero_all_classes_impossible_is_undetermined_not_nan_and_not_the_first_class():
    m = nbapp.NaiveBayes({"colour": "categorical", "size": "categorical"}, alpha=0).fit(TWO_CLASSES, target="y")
    # red only with p, L only with q: each class has one zero factor.
    query = pd.DataFrame({"colour": ["red", "red"], "size": ["L", "S"]}, index=[10, 11])
    assert m.undetermined(query).tolist() == [True, False]
    predicted = m.predict(query)
    assert predicted.loc[10] is pd.NA
    assert predicted.loc[11] == "p"
    proba = m.predict_proba(query)
    assert_proper_posterior(proba)
    log_proba = m.predict_log_proba(query).to_numpy(dtype=float)
    assert not np.isnan(log_proba).any()
    e = m.explain({"colour": "red", "size": "L"})
    assert e.undetermined and e.prediction is None
    assert np.isfinite(e.posterior.to_numpy(dtype=float)).all()


# -- huge magnitudes -----------------------------------------------------------------------------


def test_gaussian_values_near_1e300_give_a_clear_error_or_finite_variances():
    """(1e300)**2 overflows float64: the variance must not silently become inf/NaN.

    Either fit refuses the column with a DataError naming it, or the fitted variances are finite
    and an ordinary value of the small class is still predicted as that class.
    """
    df = pd.DataFrame({"x": [1e300, 1.1e300, 0.9e300, 1.0, 2.0, 3.0], "y": list("aaabbb")})
    try:
        m = nbapp.NaiveBayes({"x": "gaussian"}).fit(df, target="y")
    except DataError as err:
        assert "'x'" in str(err)
        return
    fits = m.gaussian("x")
    assert np.isfinite(fits["var"].to_numpy(dtype=float)).all(), fits
    query = pd.DataFrame({"x": [2.0, 1e300]})
    assert_proper_posterior(m.predict_proba(query))
    assert m.predict(query).iloc[0] == "b"


def test_gaussian_large_but_squarable_values_fit_and_far_queries_are_finite_or_flagged():
    df = pd.DataFrame({"x": [1e150, 2e150, 3e150, 1.0, 2.0, 3.0], "y": list("aaabbb")})
    m = nbapp.NaiveBayes({"x": "gaussian"}).fit(df, target="y")
    assert np.isfinite(m.gaussian("x")["var"].to_numpy(dtype=float)).all()
    query = pd.DataFrame({"x": [2.0, 2e150, -1e308, 1e300]})
    proba = m.predict_proba(query)
    assert_proper_posterior(proba)
    predicted = m.predict(query)
    assert predicted.iloc[0] == "b"
    assert predicted.iloc[1] == "a"
    undetermined = m.undetermined(query)
    for i in (2, 3):  # so far out that both densities underflow: flagged, or a real answer
        assert undetermined.iloc[i] or predicted.iloc[i] in ("a", "b")
        assert (predicted.iloc[i] is pd.NA) == bool(undetermined.iloc[i])


def test_infinite_gaussian_value_is_refused_by_name():
    df = pd.DataFrame({"x": [1.0, np.inf, 3.0, 4.0], "y": list("aabb")})
    with pytest.raises(DataError, match="'x'.*infinite"):
        nbapp.NaiveBayes({"x": "gaussian"}).fit(df, target="y")


# -- size ----------------------------------------------------------------------------------------


def test_ten_million_token_document_has_a_finite_posterior():
    docs = pd.DataFrame({"t": ["cheap pills buy now", "meeting at noon", "buy cheap watches",
                               "lunch meeting tomorrow"], "y": ["spam", "ham", "spam", "ham"]})
    m = nbapp.NaiveBayes({"t": "text"}, alpha=1).fit(docs, target="y")
    document = "cheap pills " * 5_000_000  # 10,000,000 tokens in one string (~60 MB)
    query = pd.DataFrame({"t": [document]})
    proba = m.predict_proba(query)
    assert_proper_posterior(proba)
    assert m.predict(query).iloc[0] == "spam"
    assert not m.undetermined(query).iloc[0]


def test_a_thousand_classes_fit_and_predict():
    rng = np.random.default_rng(0)
    n = 5000
    y = np.arange(n) % 1000
    df = pd.DataFrame({"g": rng.normal(size=n) * 0.001 + y, "c": rng.choice(list("abcde"), n), "y": y})
    m = nbapp.NaiveBayes({"g": "gaussian", "c": "categorical"}).fit(df, target="y")
    assert len(m.classes_) == 1000
    proba = m.predict_proba(df.drop(columns="y"))
    assert proba.shape == (n, 1000)
    assert_proper_posterior(proba)
    assert (m.predict(df.drop(columns="y")).to_numpy() == y).mean() > 0.99


def test_a_class_with_one_row_gets_a_positive_variance_and_finite_posteriors():
    df = pd.DataFrame({"g": [1.0, 2.0, 3.0, 10.0], "c": ["a", "a", "b", "b"], "y": ["x", "x", "x", "solo"]})
    m = nbapp.NaiveBayes({"g": "gaussian", "c": "categorical"}).fit(df, target="y")
    var = m.gaussian("g")["var"]
    assert (var > 0).all() and np.isfinite(var).all()
    query = pd.DataFrame({"g": [10.0, 2.0, 50.0], "c": ["b", "a", "b"]})
    assert_proper_posterior(m.predict_proba(query))
    assert m.predict(query).tolist()[:2] == ["solo", "x"]


def test_posteriors_sum_to_one_when_point_mass_gaussians_push_joint_logs_near_minus_1e15():
    """Each class saw x = 0.0 once (variance 0, a point mass of width ~eps); the query x = 1.0 is
    ~1e15 nats away from both. The log-sum-exp must normalise there too (found by hypothesis below)."""
    train = pd.DataFrame({"num": [np.nan] * 7 + [0.0, 0.0], "y": ["yes"] * 8 + ["no"]})
    m = nbapp.NaiveBayes({"num": "gaussian"}, alpha=0).fit(train, target="y")
    query = pd.DataFrame({"num": [1.0]})
    joint = m.joint_log_likelihood(query).to_numpy(dtype=float)
    assert np.isfinite(joint).all() and joint.max() < -1e15
    assert_proper_posterior(m.predict_proba(query))
    np.testing.assert_allclose(np.exp(m.predict_log_proba(query).to_numpy(dtype=float)).sum(), 1.0, rtol=1e-9)
    posterior = m.explain({"num": 1.0}).posterior
    np.testing.assert_allclose(posterior.sum(), 1.0, rtol=1e-9)


# -- property: never NaN -------------------------------------------------------------------------

CATEGORIES = ["a", "b", "c"]


@st.composite
def mixed_frames(draw):
    n = draw(st.integers(min_value=2, max_value=12))
    label = st.sampled_from(["yes", "no", "maybe"])
    number = st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))
    train = pd.DataFrame({
        "cat": draw(st.lists(st.one_of(st.none(), st.sampled_from(CATEGORIES)), min_size=n, max_size=n)),
        "num": pd.array(draw(st.lists(number, min_size=n, max_size=n)), dtype="Float64").astype(float),
        "flag": draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)),
        "count": draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)),
        "y": draw(st.lists(label, min_size=n, max_size=n)),
    })
    m = draw(st.integers(min_value=1, max_value=6))
    query = pd.DataFrame({
        "cat": draw(st.lists(st.one_of(st.none(), st.sampled_from(CATEGORIES + ["zzz"])), min_size=m, max_size=m)),
        "num": pd.array(draw(st.lists(number, min_size=m, max_size=m)), dtype="Float64").astype(float),
        "flag": draw(st.lists(st.sampled_from([0, 1]), min_size=m, max_size=m)),
        "count": draw(st.lists(st.integers(0, 5), min_size=m, max_size=m)),
    })
    return train, query


FEATURES = {"cat": "categorical", "num": "gaussian", "flag": "bernoulli", "count": "multinomial"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(frames=mixed_frames(), alpha=st.sampled_from([0.0, 0.5, 1.0]))
def test_predict_proba_is_never_nan_on_small_mixed_frames(frames, alpha):
    train, query = frames
    assume(train["y"].nunique() >= 2)
    try:
        m = nbapp.NaiveBayes(FEATURES, alpha=alpha).fit(train, target="y")
    except DataError:
        return  # a refusal with a message is an allowed answer (e.g. a class with no Gaussian values)
    proba = m.predict_proba(query)
    assert_proper_posterior(proba)
    predicted = m.predict(query)
    undetermined = m.undetermined(query)
    assert predicted.isna().tolist() == undetermined.tolist()
    assert alpha == 0 or not undetermined.any(), "with l > 0 no class is ever impossible"
