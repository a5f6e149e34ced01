"""The NaiveBayes API: behaviour around the numbers (the numbers themselves are pinned in
test_seeds.py and test_sklearn_equivalence.py)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import DataError, NaiveBayes

from conftest import TENNIS_FEATURES
from mixed_data import mixed_frame

X_STAR = {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"}


MIXED = {"colour": "categorical", "size": "gaussian", "n1": "multinomial", "n2": "multinomial",
         "flag": "bernoulli"}


def test_classes_are_sorted_and_priors_indexed_by_class(tennis):
    m = NaiveBayes(TENNIS_FEATURES).fit(tennis, target="Play")
    assert m.classes_ == ["No", "Yes"]
    assert list(m.priors_.index) == ["No", "Yes"]
    assert m.priors_["Yes"] == pytest.approx(9 / 14)


def test_counts_are_raw_and_cpt_is_smoothed(tennis):
    m = NaiveBayes(TENNIS_FEATURES, alpha=1).fit(tennis, target="Play")
    assert m.counts("Outlook").loc["Overcast", "No"] == 0
    assert m.counts("Outlook").loc["Sunny", "No"] == 3
    assert m.cpt("Outlook", exact=True).loc["Overcast", "No"] == Fraction(1, 8)
    assert m.cpt("Outlook").sum(axis=0).to_numpy() == pytest.approx([1, 1])


def test_predict_proba_ignores_non_feature_columns_and_keeps_index(tennis):
    m = NaiveBayes(TENNIS_FEATURES).fit(tennis, target="Play")
    shifted = tennis.set_index(tennis.index + 100)
    proba = m.predict_proba(shifted)
    assert list(proba.columns) == ["No", "Yes"]
    assert list(proba.index) == list(shifted.index)
    assert proba.sum(axis=1).to_numpy() == pytest.approx(np.ones(len(tennis)))


def test_explain_posterior_equals_predict_proba_row(tennis):
    m = NaiveBayes(TENNIS_FEATURES, alpha=1).fit(tennis, target="Play")
    e = m.explain(X_STAR)
    row = m.predict_proba(pd.DataFrame([X_STAR])).iloc[0]
    assert e.posterior.to_numpy() == pytest.approx(row.to_numpy(), abs=0)
    assert e.log_evidence == pytest.approx(np.log(np.exp(e.joint_log).sum()))
    assert e.logs.loc[e.used].sum().to_numpy() == pytest.approx(e.joint_log.to_numpy())
    assert list(e.factors.index) == ["prior", "Outlook", "Temperature", "Humidity", "Wind"]


def test_mle_zero_probability_gives_posterior_one_and_a_note(tennis):
    m = NaiveBayes(TENNIS_FEATURES, alpha=0).fit(tennis, target="Play")
    e = m.explain(X_STAR)
    assert e.prediction == "Yes" and e.posterior["Yes"] == 1.0
    assert e.logs.loc["Outlook", "No"] == -np.inf
    assert any("impossible" in n for n in e.notes)


def test_every_class_impossible_is_undetermined_not_nan():
    df = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["p", "q", "q", "q"], "c": ["A", "A", "B", "B"]})
    m = NaiveBayes({"a": "categorical", "b": "categorical"}, alpha=0).fit(df, target="c")
    query = pd.DataFrame({"a": ["y"], "b": ["p"]})   # y impossible for A, p impossible for B
    proba = m.predict_proba(query)
    assert np.isfinite(proba.to_numpy()).all()
    assert proba.iloc[0].to_numpy() == pytest.approx(m.priors_.to_numpy())
    assert m.undetermined(query).iloc[0]
    assert pd.isna(m.predict(query).iloc[0])
    e = m.explain(query.iloc[0])
    assert e.undetermined and e.prediction is None
    assert any("undefined" in n for n in e.notes)


def test_missing_and_unseen_values_are_skipped_and_flagged(tennis):
    m = NaiveBayes(TENNIS_FEATURES).fit(tennis, target="Play")
    e = m.explain({"Outlook": "Fog", "Temperature": None, "Humidity": "High", "Wind": "Strong"})
    assert e.factors.loc["Outlook", "status"] == "unseen"
    assert e.factors.loc["Temperature", "status"] == "missing"
    without = NaiveBayes({"Humidity": "categorical", "Wind": "categorical"}).fit(tennis, target="Play")
    expected = without.explain({"Humidity": "High", "Wind": "Strong"}).posterior
    assert e.posterior.to_numpy() == pytest.approx(expected.to_numpy(), rel=1e-12)


def test_missing_training_values_are_not_counted():
    df = pd.DataFrame({"a": ["x", None, "y", "x"], "c": ["A", "A", "B", "B"]})
    m = NaiveBayes({"a": "categorical"}, alpha=0).fit(df, target="c")
    # class A observed 'a' once (the other value is missing): P(x | A) = 1/1
    assert m.cpt("a", exact=True).loc["x", "A"] == 1


def test_partial_fit_with_new_classes_and_categories_equals_fit():
    df = mixed_frame(0, 200)
    one = NaiveBayes(MIXED).fit(df, target="y")
    parts = NaiveBayes(MIXED)
    ordered = df.sort_values("y")      # later batches bring classes and values not seen before
    for start in range(0, len(df), 45):
        parts.partial_fit(ordered.iloc[start:start + 45], target="y")
    assert parts.classes_ == one.classes_
    pd.testing.assert_frame_equal(parts.cpt("colour"), one.cpt("colour"), rtol=1e-12)
    pd.testing.assert_frame_equal(parts.gaussian("size"), one.gaussian("size"), rtol=1e-12)
    np.testing.assert_allclose(parts.predict_proba(df), one.predict_proba(df), rtol=1e-10, atol=1e-14)


def test_weights_equal_repeated_rows():
    df = mixed_frame(0, 60)
    df["n"] = np.arange(60) % 3 + 1
    weighted = NaiveBayes(MIXED).fit(df, target="y", weight="n")
    repeated = NaiveBayes(MIXED).fit(df.loc[df.index.repeat(df["n"])], target="y")
    np.testing.assert_allclose(weighted.predict_proba(df), repeated.predict_proba(df), rtol=1e-10)


def test_json_round_trip_is_exact_and_plain_json():
    df = mixed_frame(0, 200)
    m = NaiveBayes(MIXED, alpha=0.5, priors="uniform").fit(df, target="y")
    text = m.to_json()
    data = json.loads(text)
    assert data["format"] == "nbapp.NaiveBayes" and data["version"] == 3
    back = NaiveBayes.from_json(text)
    pd.testing.assert_frame_equal(back.predict_proba(df), m.predict_proba(df))


@pytest.mark.parametrize("payload, message", [
    (b"\x80\x04\x95", "Pickle files are refused"),
    ('{"format": "nbapp.NaiveBayes", "version": 99}', "version 99"),
    ('{"format": "other"}', "not an nbapp model"),
    ('{"format": "nbapp.NaiveBayes", "format": "x"}', "repeats the key"),
    ('{"format": "nbapp.NaiveBayes", "version": 1, "x": NaN}', "NaN"),
    ("[" * 100000, "nests too deeply|not valid JSON"),
    ('{"format": "nbapp.NaiveBayes", "version": 1}', "no 'settings'"),
])
def test_bad_model_files_are_refused_with_a_reason(payload, message):
    with pytest.raises(DataError, match=message):
        NaiveBayes.from_json(payload)


def test_tampered_counts_are_refused():
    data = json.loads(NaiveBayes(MIXED).fit(mixed_frame(0, 200), target="y").to_json())
    data["blocks"][0]["stats"]["counts"][0][0] = -5
    with pytest.raises(DataError, match=r"counts\[0\]\[0\] is -5; counts cannot be negative"):
        NaiveBayes.from_json(json.dumps(data))


@pytest.mark.parametrize("features, frame, message", [
    ({"h": "gaussian"}, pd.DataFrame({"h": [1.0, "N/A", 2.0], "y": ["a", "b", "a"]}),
     r"Column 'h' is Gaussian but row 1 holds 'N/A'"),
    ({"k": "multinomial"}, pd.DataFrame({"k": [1, -2, 0], "y": ["a", "b", "a"]}),
     r"Column 'k' is a count \(multinomial\) but row 1 holds -2"),
    ({"k": "spline"}, pd.DataFrame({"k": [1], "y": ["a"]}), "unknown feature type 'spline'"),
    ({"k": "categorical"}, pd.DataFrame({"k": [1, 2], "y": ["a", "a"]}), "one class only"),
    ({"k": "categorical"}, pd.DataFrame({"k": [1, 2], "z": ["a", "b"]}), "target column 'y' is not in the data"),
    ({"k": "categorical"}, pd.DataFrame({"k": [], "y": []}), "no rows"),
    ({"k": "categorical"}, pd.DataFrame({"k": [1, 2, 3], "y": ["a", None, "b"]}), "missing in 1 row"),
    ({"f": "bernoulli"}, pd.DataFrame({"f": ["a", "b", "c"], "y": ["a", "b", "a"]}), "3 distinct values"),
    ({"h": "gaussian"}, pd.DataFrame({"h": [1.0, np.inf], "y": ["a", "b"]}), "infinite"),
])
def test_errors_name_the_column_row_and_fix(features, frame, message):
    with pytest.raises(DataError, match=message):
        NaiveBayes(features).fit(frame, target="y")


def test_failed_partial_fit_leaves_the_model_unchanged():
    df = mixed_frame(0, 200)
    m = NaiveBayes(MIXED).fit(df, target="y")
    before = m.predict_proba(df)
    bad = df.head(5).assign(size="tall")
    with pytest.raises(DataError):
        m.partial_fit(bad)
    pd.testing.assert_frame_equal(m.predict_proba(df), before)


def test_bernoulli_reads_which_value_is_one():
    df = pd.DataFrame({"f": ["No", "Yes", "yes", "no"], "y": ["a", "a", "b", "b"]})
    m = NaiveBayes({"f": "bernoulli"}).fit(df, target="y")
    assert list(m.cpt("f").index) == ["No", "Yes"]
    m2 = NaiveBayes({"f": nbapp.Bernoulli(positive="No")}).fit(df, target="y")
    assert m2.cpt("f").index[1] == "No"


def test_beta_prior_and_m_estimate_follow_their_formulas():
    df = pd.DataFrame({"f": [1, 1, 0, 0, 0], "y": ["a", "a", "a", "b", "b"]})
    m = NaiveBayes({"f": "bernoulli"}, smoothing=nbapp.BetaPrior(a=2, b=3)).fit(df, target="y")
    assert m.cpt("f", exact=True).loc[1, "a"] == Fraction(2 + 2, 3 + 2 + 3)       # seed 002
    m = NaiveBayes({"f": "categorical"}, smoothing=nbapp.MEstimate(m=4)).fit(df, target="y")
    assert m.cpt("f", exact=True).loc[1, "a"] == Fraction(2 + 4 * Fraction(1, 2), 3 + 4)   # seed 003


def test_uniform_and_given_priors_and_dirichlet_prior(tennis):
    assert NaiveBayes(TENNIS_FEATURES, priors="uniform").fit(tennis, "Play").priors_.tolist() == [0.5, 0.5]
    given = NaiveBayes(TENNIS_FEATURES, priors={"Yes": 0.3, "No": 0.7}).fit(tennis, "Play")
    assert given.priors_["No"] == 0.7
    smoothed = NaiveBayes(TENNIS_FEATURES, prior_alpha=1).fit(tennis, "Play")
    assert smoothed.prior_fractions()["Yes"] == Fraction(10, 16)
    with pytest.raises(DataError, match="sum to 1.5"):
        NaiveBayes(TENNIS_FEATURES, priors={"Yes": 0.8, "No": 0.7})


def test_zero_variance_is_floored_and_explained():
    df = pd.DataFrame({"h": [1.0, 1.0, 1.0, 1.0], "y": ["a", "a", "b", "b"]})
    m = NaiveBayes({"h": "gaussian"}).fit(df, target="y")
    table = m.gaussian("h")
    assert (table["var"] > 0).all() and table["note"].str.contains("point mass").all()
    assert np.isfinite(m.predict_proba(pd.DataFrame({"h": [1.0, 2.0]})).to_numpy()).all()


def test_unbiased_variance_divides_by_n_minus_one(gender):
    m = NaiveBayes({"Height": nbapp.Gaussian(variance="unbiased")}, var_smoothing=0).fit(gender, "Gender")
    male = gender.loc[gender.Gender == "male", "Height"]
    assert m.gaussian("Height").loc["male", "var"] == pytest.approx(male.var(ddof=1))


def test_linear_form_reproduces_the_log_odds_with_missing_values():
    df = mixed_frame(0, 200)
    two = df[df.y != "eggs"]
    for variance in ("pooled", "mle"):
        m = NaiveBayes(MIXED, variance=variance).fit(two, target="y")
        form = m.linear_form()
        assert form.quadratic == (variance == "mle")
        jll = m.joint_log_likelihood(two)
        np.testing.assert_allclose(form.decision_function(two), jll["spam"] - jll["ham"], rtol=1e-9, atol=1e-9)
        assert ((form.decision_function(two) > 0) == (m.predict(two) == "spam")).all()


def test_sample_draws_rows_of_the_model_shape():
    m = NaiveBayes(MIXED).fit(mixed_frame(0, 200), target="y")
    rows = m.sample(500, random_state=1)
    assert list(rows.columns) == ["y", *MIXED]
    assert set(rows["y"]) <= set(m.classes_)
    assert set(rows["colour"]) <= {"red", "green", "blue"}
    assert (rows[["n1", "n2"]] >= 0).all().all()
    # the sampled class shares follow the priors
    shares = rows["y"].value_counts(normalize=True).reindex(m.classes_).to_numpy()
    assert shares == pytest.approx(m.priors_.to_numpy(), abs=0.08)


def test_with_priors_changes_only_the_prior():
    bikes = pd.read_csv(__import__("conftest").SAMPLES / "bikes.csv")
    m = NaiveBayes({"color": "categorical"}).fit(bikes, target="bike", weight="count")
    assert m.explain({"color": "teal"}).prediction == "veoride"
    moved = m.with_priors({"veoride": 0.02, "private": 0.98})     # seed 004: Veoride pulls its bikes
    assert moved.explain({"color": "teal"}).prediction == "private"
    assert m.priors_["veoride"] == pytest.approx(0.2)               # the original is untouched
    pd.testing.assert_frame_equal(moved.cpt("color"), m.cpt("color"))
    with pytest.raises(DataError, match="no probability for class"):
        m.with_priors({"veoride": 1.0})


def test_smoothing_of_names_the_estimator_of_each_column():
    df = pd.DataFrame({"f": [1, 0, 1, 0], "g": ["x", "y", "x", "x"], "y": ["a", "a", "b", "b"]})
    m = NaiveBayes({"f": "bernoulli", "g": nbapp.Categorical(alpha=2)},
                   smoothing=nbapp.BetaPrior(a=2, b=3)).fit(df, target="y")
    assert m.smoothing_of("f") == nbapp.BetaPrior(a=2, b=3)
    assert m.smoothing_of("g") == nbapp.Lidstone(2)


@pytest.mark.parametrize("change", [dict(alpha=0.0), dict(alpha=2.5), dict(smoothing=nbapp.MEstimate(m=3)),
                                    dict(smoothing=nbapp.BetaPrior(a=2, b=1))])
def test_with_smoothing_equals_a_refit_and_leaves_the_original(change):
    df = mixed_frame(0, 200)
    df["doc"] = np.where(df["y"] == "spam", "good fun day", "bad sad day")
    features = {**MIXED, "doc": "text"}
    m = NaiveBayes(features, alpha=1.0).fit(df, target="y")
    before = m.predict_proba(df)
    moved = m.with_smoothing(**change)
    refit = NaiveBayes(features, **{"alpha": 1.0, **change}).fit(df, target="y")
    np.testing.assert_allclose(moved.predict_proba(df), refit.predict_proba(df), rtol=1e-12, atol=1e-15)
    pd.testing.assert_frame_equal(moved.cpt("colour"), refit.cpt("colour"))
    pd.testing.assert_frame_equal(m.predict_proba(df), before)


def test_typical_value_is_the_mixture_mean_or_the_count_per_row(gender):
    m = NaiveBayes({"Height": "gaussian"}).fit(gender, target="Gender")
    assert m.typical_value("Height") == pytest.approx(gender["Height"].mean())   # equal priors, equal n_c
    counts = NaiveBayes(MIXED).fit(mixed_frame(0, 200), target="y")
    assert counts.typical_value("n1") == pytest.approx(mixed_frame(0, 200)["n1"].mean())
    with pytest.raises(DataError, match="no typical number"):
        counts.typical_value("colour")


def test_cpt_in_logs_has_minus_infinity_for_a_zero_cell(tennis):
    m = NaiveBayes(TENNIS_FEATURES, alpha=0).fit(tennis, target="Play")
    logs = m.cpt("Outlook", log=True)
    assert logs.loc["Overcast", "No"] == -np.inf
    assert logs.loc["Sunny", "No"] == pytest.approx(np.log(3 / 5))
