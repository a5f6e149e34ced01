"""MLE vs MAP: CPT cells and a posterior as the smoothing strength moves (seeds 000, 002, 003)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.errors import DataError
from nbapp.examples import example, load_example
from nbapp.lessons.smoothing_path import smoothing_path


def _setup(key: str, alpha: float = 0.0):
    ex = example(key)
    df = load_example(key)
    model = nbapp.NaiveBayes(features=ex.features, alpha=alpha).fit(df, target=ex.target,
                                                                    weight=ex.weight)
    return model, df, ex.query


@pytest.fixture(scope="module")
def tennis_path():
    model, df, query = _setup("tennis14")
    return smoothing_path(model, df, query, strengths=[0.0, 1.0, 2.0, 10.0])


def _cell(path, variant, s, column, cls):
    c = path.cells
    row = c[(c["variant"] == variant) & (c["strength"] == s) & (c["column"] == column)
            & (c["class"] == cls)]
    assert len(row) == 1
    return row.iloc[0]


def test_lidstone_cells_follow_eq_7(tennis_path):
    # P(Overcast | No) = (0 + l) / (5 + 3 l); P(Overcast | Yes) = (4 + l) / (9 + 3 l)
    for l in (0.0, 1.0, 2.0, 10.0):
        assert _cell(tennis_path, "lidstone", l, "Outlook", "No")["probability"] == pytest.approx(l / (5 + 3 * l))
        assert _cell(tennis_path, "lidstone", l, "Outlook", "Yes")["probability"] == pytest.approx((4 + l) / (9 + 3 * l))


def test_zero_count_cell_is_flagged_and_zero_only_under_the_mle(tennis_path):
    zero = tennis_path.zero_cells
    assert zero[["column", "value", "class"]].values.tolist() == [["Outlook", "Overcast", "No"]]
    assert _cell(tennis_path, "lidstone", 0.0, "Outlook", "No")["probability"] == 0.0
    assert _cell(tennis_path, "lidstone", 1.0, "Outlook", "No")["probability"] > 0.0


def test_posterior_at_l0_and_l1_matches_the_seed(tennis_path):
    assert tennis_path.posterior_at(0.0)["Yes"] == 1.0          # P(Overcast | No) = 0
    assert tennis_path.posterior_at(1.0)["Yes"] == pytest.approx(784 / 1389)


def test_m_estimate_with_uniform_p_is_lidstone_with_l_equal_m_over_k(tennis_path):
    # (n_y + m / K) / (n + m) with K = 3 outlook values: m = 3 is l = 1
    model, df, query = _setup("tennis14")
    path = smoothing_path(model, df, query, strengths=[3.0], variants=["m_estimate"])
    assert _cell(path, "m_estimate", 3.0, "Outlook", "No")["probability"] == pytest.approx(1 / 8)
    # Humidity has K = 2 values, so there m = 3 is l = 1.5: (4 + 1.5) / (5 + 3)
    assert _cell(path, "m_estimate", 3.0, "Humidity", "No")["probability"] == pytest.approx(5.5 / 8)


def test_m_estimate_with_a_given_prior_p():
    model, df, query = _setup("tennis14")
    path = smoothing_path(model, df, query, strengths=[2.0], variants=["m_estimate"], m_prior=0.5)
    # seed 003's (n_y + m p) / (n + m) exactly: (0 + 2 * 0.5) / (5 + 2) and (4 + 1) / (9 + 2)
    assert _cell(path, "m_estimate", 2.0, "Outlook", "No")["probability"] == pytest.approx(1 / 7)
    assert _cell(path, "m_estimate", 2.0, "Outlook", "Yes")["probability"] == pytest.approx(5 / 11)


def test_beta_prior_on_stolen_cars_is_seed_002_formula():
    ex, df = example("stolen_cars"), load_example("stolen_cars")
    model = nbapp.NaiveBayes(features={c: "categorical" for c in ex.features}, alpha=0).fit(df, target=ex.target)
    query = ex.query
    path = smoothing_path(model, df, query, strengths=[1.0], variants=["beta"],
                          beta_shape=(2.0, 1.0))
    # Colour: values Red < Yellow, so a (= 2) goes to Yellow and b (= 1) to Red.
    # P(Red | Yes) = (N + b) / (N_c + a + b) = (3 + 1) / (5 + 3)
    assert _cell(path, "beta", 1.0, "Color", "Yes")["probability"] == pytest.approx(4 / 8)
    assert any("fitted as Bernoulli" in n for n in path.notes)


def test_beta_curve_on_the_notes_positives_gives_seed_002_s_5_8():
    # issue 14: stolen cars as Bernoulli with Red, SUV, Domestic as 1; Beta(2, 1): P(Red | Yes) = (3 + 2) / (5 + 3)
    ex, df = example("stolen_cars"), load_example("stolen_cars")
    model = nbapp.NaiveBayes(features=ex.feature_specs(), alpha=0).fit(df, target=ex.target)
    path = smoothing_path(model, df, ex.query, strengths=[0.0, 1.0, 4.0], variants=["beta"], beta_shape=(2.0, 1.0))
    assert _cell(path, "beta", 1.0, "Color", "Yes")["probability"] == pytest.approx(5 / 8)
    assert _cell(path, "beta", 1.0, "Color", "No")["probability"] == pytest.approx(4 / 8)
    yes = path.posterior[(path.posterior["variant"] == "beta") & (path.posterior["class"] == "Yes")]["posterior"]
    assert yes.nunique() == 3      # the curve moves with the strength


def test_beta_curve_on_tennis_moves_instead_of_staying_at_one():
    # issue 14: Outlook (three values) kept l = 0 along the Beta curve, so P(Yes | x*) stayed 1
    model, df, query = _setup("tennis14")
    path = smoothing_path(model, df, query, strengths=[0.0, 1.0, 5.0], variants=["beta"])
    yes = path.posterior[(path.posterior["class"] == "Yes")].set_index("strength")["posterior"]
    assert yes[0.0] == 1.0 and yes[1.0] < 1.0 and yes[5.0] < yes[1.0]
    assert any("l = s" in n for n in path.notes)


def test_beta_variant_is_dropped_without_binary_features():
    # bikes with a third colour: no binary feature left for the Beta prior
    bikes = load_example("bikes")
    three = pd.concat([bikes, pd.DataFrame([{"color": "blue", "bike": "private", "count": 1}])])
    model = nbapp.NaiveBayes(features={"color": "categorical"}, alpha=0).fit(three, "bike", "count")
    path = smoothing_path(model, three, {"color": "teal"}, strengths=[0.0, 1.0])
    assert path.variants == ("lidstone", "m_estimate")
    assert any("binary features only" in n for n in path.notes)


def test_posteriors_sum_to_one_along_the_path(tennis_path):
    sums = tennis_path.posterior.groupby(["variant", "strength"])["posterior"].sum()
    np.testing.assert_allclose(sums.to_numpy(), 1.0)


def test_undetermined_example_is_marked_at_l0():
    ex = example("sentiment")
    df = load_example("sentiment")
    model = nbapp.NaiveBayes(features=ex.features, alpha=0.0).fit(df, target=ex.target)
    path = smoothing_path(model, df, ex.query, strengths=[0.0, 1.0], variants=["lidstone"])
    at0 = path.posterior[path.posterior["strength"] == 0.0]
    at1 = path.posterior[path.posterior["strength"] == 1.0]
    assert at0["undetermined"].all() and at0["prediction"].isna().all()
    assert not at1["undetermined"].any()


def test_chosen_cells_and_errors():
    model, df, query = _setup("tennis14")
    path = smoothing_path(model, df, query, strengths=[1.0], variants=["lidstone"],
                          cells=[("Temperature", "Cool")])
    assert set(path.cells["value"]) == {"Cool"}
    with pytest.raises(DataError, match="'Colour' is not a feature"):
        smoothing_path(model, df, query, cells=[("Colour", "Red")])
    with pytest.raises(DataError, match="Unknown smoothing variant 'kneser_ney'"):
        smoothing_path(model, df, query, variants=["kneser_ney"])
    with pytest.raises(DataError, match=">= 0"):
        smoothing_path(model, df, query, strengths=[-1.0])
