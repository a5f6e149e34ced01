"""Properties every fitted model has, on random small mixed data (hypothesis).

Probabilities sum to one; row order does not matter; partial_fit on any split equals one
fit; a JSON round trip predicts identically; a missing value equals a model without that
feature (seed 000, Eq. 22).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import nbapp

FEATURES = {"colour": "categorical", "size": "categorical", "flag": "bernoulli", "height": "gaussian"}
DISCRETE = ["colour", "size", "flag"]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TIGHT = {"rtol": 1e-12, "atol": 1e-12}


def values(options, *, missing: bool):
    choice = st.sampled_from(options)
    return st.one_of(st.none(), choice) if missing else choice


def rows(*, missing: bool, unseen: bool):
    """One row; a query row may also hold values never seen in training."""
    extra = ["purple"] if unseen else []
    return st.tuples(
        values(["red", "green", "blue", *extra], missing=missing),
        values(["S", "M", "L", "XL"], missing=missing),
        values(["yes", "no"], missing=missing),
        st.one_of(st.none(), st.integers(-50, 50).map(lambda v: v / 4))
        if missing
        else st.integers(-50, 50).map(lambda v: v / 4),
        st.sampled_from(["a", "b", "c"]),
    )


def as_frame(data) -> pd.DataFrame:
    frame = pd.DataFrame(data, columns=["colour", "size", "flag", "height", "y"])
    return frame.astype({"height": float})


@st.composite
def training_frames(draw, min_rows: int = 4, max_rows: int = 30) -> pd.DataFrame:
    """Training data: two or more classes; a few missing values in the feature columns."""
    n = draw(st.integers(min_rows, max_rows))
    frame = as_frame(draw(st.lists(rows(missing=draw(st.booleans()), unseen=False), min_size=n, max_size=n)))
    assume(frame["y"].nunique() >= 2)
    assume(frame["flag"].nunique() == 2)
    assume(frame["height"].nunique() >= 2)
    return frame


def query_frames(max_rows: int = 8):
    """Rows to predict: any values, including missing ones and unseen categories."""
    return st.lists(rows(missing=True, unseen=True), min_size=1, max_size=max_rows).map(as_frame)


alphas = st.sampled_from([0.5, 1.0, 2.0])


def fit(frame: pd.DataFrame, alpha: float, features=FEATURES, **settings) -> nbapp.NaiveBayes:
    model = nbapp.NaiveBayes(features=features, alpha=alpha, **settings)
    model.fit(frame, target="y")
    return model


def assert_same_parameters(a: nbapp.NaiveBayes, b: nbapp.NaiveBayes) -> None:
    assert list(a.classes_) == list(b.classes_)
    pd.testing.assert_series_equal(a.priors_, b.priors_, **TIGHT)
    for column in DISCRETE:
        left = a.cpt(column)
        right = b.cpt(column).loc[left.index, left.columns]
        pd.testing.assert_frame_equal(left, right, **TIGHT)
        pd.testing.assert_frame_equal(a.counts(column), b.counts(column).loc[left.index, left.columns], **TIGHT)
        assert a.cpt(column, exact=True).equals(b.cpt(column, exact=True).loc[left.index, left.columns])
    pd.testing.assert_frame_equal(a.gaussian("height"), b.gaussian("height"), **TIGHT)


@SETTINGS
@given(frame=training_frames(), alpha=alphas, query=query_frames())
def test_probabilities_are_finite_and_sum_to_one(frame, alpha, query):
    m = fit(frame, alpha)
    proba = m.predict_proba(query)
    assert list(proba.columns) == list(m.classes_)
    assert list(proba.index) == list(query.index)
    values = proba.to_numpy(float)
    assert np.isfinite(values).all() and (values >= 0).all()
    np.testing.assert_allclose(values.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.exp(m.predict_log_proba(query).to_numpy(float)), values, rtol=1e-12, atol=1e-15)


@SETTINGS
@given(frame=training_frames(), alpha=alphas, seed=st.integers(0, 2**32 - 1))
def test_row_order_does_not_matter(frame, alpha, seed):
    shuffled = frame.sample(frac=1.0, random_state=np.random.RandomState(seed))
    a, b = fit(frame, alpha), fit(shuffled, alpha)
    assert_same_parameters(a, b)
    pd.testing.assert_frame_equal(a.predict_proba(frame), b.predict_proba(frame), **TIGHT)


@SETTINGS
@given(frame=training_frames(min_rows=6), alpha=alphas, data=st.data())
def test_partial_fit_on_any_split_equals_one_fit(frame, alpha, data):
    # The first chunk must be fittable on its own (two classes); later chunks may bring new
    # classes and new categories.
    cuts = sorted(data.draw(st.lists(st.integers(1, len(frame) - 1), min_size=1, max_size=3, unique=True)))
    chunks = [frame.iloc[i:j] for i, j in zip([0, *cuts], [*cuts, len(frame)])]
    assume(chunks[0]["y"].nunique() >= 2)
    whole = fit(frame, alpha, var_smoothing=1e-3)
    step = fit(chunks[0], alpha, var_smoothing=1e-3)
    for chunk in chunks[1:]:
        step.partial_fit(chunk)
    assert_same_parameters(whole, step)
    pd.testing.assert_frame_equal(whole.predict_proba(frame), step.predict_proba(frame), **TIGHT)


@SETTINGS
@given(frame=training_frames(), alpha=st.sampled_from([0.0, 0.5, 1.0]), query=query_frames())
def test_json_round_trip_predicts_identically(frame, alpha, query):
    m = fit(frame, alpha)
    text = m.to_json()
    assert isinstance(text, str)
    loaded = nbapp.NaiveBayes.from_json(text)
    pd.testing.assert_frame_equal(loaded.predict_proba(query), m.predict_proba(query), check_exact=True)
    pd.testing.assert_series_equal(loaded.predict(query), m.predict(query))
    assert loaded.to_json() == text


@SETTINGS
@given(
    frame=training_frames(),
    alpha=alphas,
    query=query_frames(max_rows=5),
    dropped=st.sampled_from(list(FEATURES)),
)
def test_missing_value_equals_model_without_that_feature(frame, alpha, query, dropped):
    # Eq. 22: the product runs over the observed features only. "height" is the only Gaussian
    # column, so dropping it changes no other feature's variance epsilon.
    full = fit(frame, alpha)
    without = fit(frame, alpha, features={k: v for k, v in FEATURES.items() if k != dropped})
    holes = query.assign(**{dropped: np.nan})
    pd.testing.assert_frame_equal(full.predict_proba(holes), without.predict_proba(query), **TIGHT)
    e = full.explain(holes.iloc[0])
    assert e.factors.loc[dropped, "status"] == "missing"


@SETTINGS
@given(frame=training_frames(max_rows=15), alpha=alphas, weights=st.lists(st.integers(0, 3), min_size=15, max_size=15))
def test_integer_weights_equal_repeated_rows(frame, alpha, weights):
    w = np.array(weights[: len(frame)])
    repeated = frame.loc[frame.index.repeat(w)].reset_index(drop=True)
    assume(repeated["y"].nunique() >= 2 and repeated["flag"].nunique() == 2)
    # a category seen only in rows of weight 0 is unseen in the repeated data: keep those out
    for column in ["colour", "size"]:
        assume(set(repeated[column]) == set(frame[column]))
    assume(set(repeated["y"]) == set(frame["y"]))
    weighted = nbapp.NaiveBayes(features=FEATURES, alpha=alpha, var_smoothing=0)
    weighted.fit(frame.assign(w=w), target="y", weight="w")
    plain = fit(repeated, alpha, var_smoothing=0)
    for column in DISCRETE:
        pd.testing.assert_frame_equal(weighted.cpt(column), plain.cpt(column).loc[weighted.cpt(column).index], **TIGHT)
    pd.testing.assert_frame_equal(weighted.predict_proba(frame), plain.predict_proba(frame), rtol=1e-9, atol=1e-12)


def test_partial_fit_after_a_chunk_without_any_bernoulli_value_equals_one_fit():
    # The smallest split hypothesis finds: the first chunk has no observed value of the
    # Bernoulli column, so the model cannot know its two values yet; the later chunk brings
    # "yes" / "no". One fit on all rows learns yes / no, so partial_fit must too.
    first = pd.DataFrame({"flag": [None, None], "colour": ["red", "blue"], "y": ["a", "b"]})
    later = pd.DataFrame({"flag": ["yes", "no", "yes"], "colour": ["red", "red", "blue"], "y": ["a", "a", "b"]})
    features = {"flag": "bernoulli", "colour": "categorical"}
    whole = nbapp.NaiveBayes(features=features, alpha=1)
    whole.fit(pd.concat([first, later], ignore_index=True), target="y")
    step = nbapp.NaiveBayes(features=features, alpha=1)
    step.fit(first, target="y")
    step.partial_fit(later)
    pd.testing.assert_frame_equal(step.cpt("flag"), whole.cpt("flag"), **TIGHT)
    pd.testing.assert_frame_equal(step.predict_proba(later), whole.predict_proba(later), **TIGHT)
