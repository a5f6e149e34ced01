"""Every worked example of the seeds, reproduced with numbers computed by hand.

The expected values below are written out from the lecture texts in ../shared/seeds/
(the fractions as the lectures write them, e.g. 9/14 * 2/9 * 3/9 * 3/9 * 3/9), not from
the model's code, and checked against nbapp through its public API only.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.examples import load_example

TENNIS = {"Outlook": "categorical", "Temperature": "categorical", "Humidity": "categorical", "Wind": "categorical"}
X_STAR = {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"}


def fit(frame: pd.DataFrame, features, target: str, *, weight=None, **settings) -> nbapp.NaiveBayes:
    model = nbapp.NaiveBayes(features=features, **settings)
    model.fit(frame, target=target, weight=weight)
    return model


def joint(e) -> dict:
    """exp(joint log) per class: P(c) * prod_a P(x_a | c), the seeds' unnormalised scores."""
    return {c: math.exp(v) for c, v in e.joint_log.items()}


def normalise(scores: dict) -> dict:
    total = sum(scores.values())
    return {c: s / total for c, s in scores.items()}


def assert_close(actual, expected, rel=1e-12):
    assert actual == pytest.approx(expected, rel=rel, abs=1e-300)


def assert_series_close(series: pd.Series, expected: dict, rel=1e-12):
    assert set(series.index) == set(expected)
    for c, value in expected.items():
        assert_close(float(series[c]), float(value), rel=rel)


def row(values: dict) -> pd.DataFrame:
    return pd.DataFrame([values])


# --------------------------------------------------------------------------------------
# seed 000, Exercise 2.1 and seed 003: tennis, 14 days
# --------------------------------------------------------------------------------------

# Seed 003's count table: "Counts of when I played tennis (did not play)".
SEED003_COUNTS = {
    "Outlook": {"Sunny": (2, 3), "Overcast": (4, 0), "Rain": (3, 2)},
    "Temperature": {"Hot": (2, 2), "Mild": (4, 2), "Cool": (3, 1)},
    "Humidity": {"High": (3, 4), "Normal": (6, 1)},
    "Wind": {"Weak": (6, 2), "Strong": (3, 3)},
}

# Seed 003's table, printed as two halves side by side (days 1-7 left, 8-14 right).
SEED003_LEFT = """\
sunny hot high false no
sunny hot high true no
overcast hot high false yes
rainy mild high false yes
rainy cool normal false yes
rainy cool normal true no
overcast cool normal true yes"""
SEED003_RIGHT = """\
sunny mild high false no
sunny cool normal false yes
rainy mild normal false yes
sunny mild normal true yes
overcast mild high true yes
overcast hot normal false yes
rainy mild high true no"""


def seed003_table() -> pd.DataFrame:
    lines = (SEED003_LEFT + "\n" + SEED003_RIGHT).splitlines()
    return pd.DataFrame([line.split() for line in lines], columns=["outlook", "temp", "humidity", "windy", "play"])


@pytest.fixture(scope="module")
def tennis14() -> pd.DataFrame:
    return load_example("tennis14")


def test_tennis14_file_equals_seed003_table(tennis14):
    seed003 = seed003_table()
    ours = pd.DataFrame(
        {
            "outlook": tennis14["Outlook"].str.lower().replace({"rain": "rainy"}),
            "temp": tennis14["Temperature"].str.lower(),
            "humidity": tennis14["Humidity"].str.lower(),
            "windy": tennis14["Wind"].map({"Strong": "true", "Weak": "false"}),
            "play": tennis14["Play"].str.lower(),
        }
    )
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), seed003)


def test_tennis14_priors_are_9_and_5_of_14(tennis14):
    m = fit(tennis14, TENNIS, "Play", alpha=0)
    assert list(m.classes_) == ["No", "Yes"]
    assert_series_close(m.priors_, {"Yes": 9 / 14, "No": 5 / 14})


@pytest.mark.parametrize("column", list(SEED003_COUNTS))
def test_tennis14_counts_are_seed003_count_table(tennis14, column):
    m = fit(tennis14, TENNIS, "Play", alpha=0)
    counts = m.counts(column)
    for value, (yes, no) in SEED003_COUNTS[column].items():
        assert counts.loc[value, "Yes"] == yes
        assert counts.loc[value, "No"] == no
    assert set(counts.index) == set(SEED003_COUNTS[column])


@pytest.mark.parametrize("column", list(SEED003_COUNTS))
def test_tennis14_mle_cpt_is_seed003_likelihood_table_as_exact_fractions(tennis14, column):
    # seed 003: P(x_i | y = yes) = count / 9, P(x_i | y = no) = count / 5; seed 000 Eq. 7 with l = 0.
    m = fit(tennis14, TENNIS, "Play", alpha=0)
    exact = m.cpt(column, exact=True)
    decimal = m.cpt(column)
    for value, (yes, no) in SEED003_COUNTS[column].items():
        assert exact.loc[value, "Yes"] == F(yes, 9)
        assert exact.loc[value, "No"] == F(no, 5)
        assert_close(decimal.loc[value, "Yes"], yes / 9)
        assert_close(decimal.loc[value, "No"], no / 5)


def test_tennis14_mle_predicts_yes_with_posterior_exactly_one(tennis14):
    # P(Overcast | No) = 0/5, so the No score is 0 and P(Yes | x*) = 1   [seed 000, Ex. 2.1].
    m = fit(tennis14, TENNIS, "Play", alpha=0)
    proba = m.predict_proba(row(X_STAR))
    assert proba.loc[0, "Yes"] == 1.0
    assert proba.loc[0, "No"] == 0.0
    assert m.predict(row(X_STAR)).iloc[0] == "Yes"


def test_tennis14_mle_explanation_shows_the_zero_factor(tennis14):
    m = fit(tennis14, TENNIS, "Play", alpha=0)
    e = m.explain(X_STAR)
    assert list(e.factors.index) == ["prior", "Outlook", "Temperature", "Humidity", "Wind"]
    assert e.factors.loc["Outlook", "p[No]"] == 0
    assert e.factors.loc["Outlook", "log[No]"] == -np.inf
    assert e.factors.loc["Outlook", "fraction[No]"] == F(0)
    assert e.factors.loc["Outlook", "status"] == "used"
    scores = joint(e)
    assert_close(scores["Yes"], 9 / 14 * 4 / 9 * 2 / 9 * 3 / 9 * 3 / 9)
    assert scores["No"] == 0.0
    assert e.posterior["Yes"] == 1.0
    assert e.prediction == "Yes"
    assert not e.undetermined


def test_tennis14_explanation_fractions_multiply_to_the_joint(tennis14):
    m = fit(tennis14, TENNIS, "Play", alpha=0)
    e = m.explain(X_STAR)
    yes = [e.factors.loc[f, "fraction[Yes]"] for f in ["prior", "Outlook", "Temperature", "Humidity", "Wind"]]
    assert yes == [F(9, 14), F(4, 9), F(2, 9), F(3, 9), F(3, 9)]
    no = [e.factors.loc[f, "fraction[No]"] for f in ["prior", "Outlook", "Temperature", "Humidity", "Wind"]]
    assert no == [F(5, 14), F(0, 5), F(2, 5), F(4, 5), F(3, 5)]


# Laplace l = 1: (count + 1) / (n_c + K), K = 3, 3, 2, 2   [seed 000, Eq. 7].
LAPLACE_X_STAR = {
    "Outlook": (F(4 + 1, 9 + 3), F(0 + 1, 5 + 3)),  # 5/12, 1/8
    "Temperature": (F(2 + 1, 9 + 3), F(2 + 1, 5 + 3)),  # 3/12, 3/8
    "Humidity": (F(3 + 1, 9 + 2), F(4 + 1, 5 + 2)),  # 4/11, 5/7
    "Wind": (F(3 + 1, 9 + 2), F(3 + 1, 5 + 2)),  # 4/11, 4/7
}


def test_tennis14_laplace_cpt_cell_overcast_given_no_is_one_eighth(tennis14):
    m = fit(tennis14, TENNIS, "Play", alpha=1)
    assert m.cpt("Outlook", exact=True).loc["Overcast", "No"] == F(1, 8)
    assert_close(m.cpt("Outlook").loc["Overcast", "No"], 0.125)


@pytest.mark.parametrize("column", list(SEED003_COUNTS))
def test_tennis14_laplace_cpt_is_count_plus_one_over_n_plus_k(tennis14, column):
    m = fit(tennis14, TENNIS, "Play", alpha=1)
    exact = m.cpt(column, exact=True)
    k = len(SEED003_COUNTS[column])
    for value, (yes, no) in SEED003_COUNTS[column].items():
        assert exact.loc[value, "Yes"] == F(yes + 1, 9 + k)
        assert exact.loc[value, "No"] == F(no + 1, 5 + k)
    # every column of a CPT is a distribution
    assert sum(exact["Yes"]) == 1 and sum(exact["No"]) == 1


def test_tennis14_laplace_posterior_for_x_star(tennis14):
    m = fit(tennis14, TENNIS, "Play", alpha=1)
    yes = F(9, 14) * F(5, 12) * F(3, 12) * F(4, 11) * F(4, 11)
    no = F(5, 14) * F(1, 8) * F(3, 8) * F(5, 7) * F(4, 7)
    e = m.explain(X_STAR)
    assert_series_close(pd.Series(joint(e)), {"Yes": yes, "No": no})
    assert_series_close(e.posterior, {"Yes": yes / (yes + no), "No": no / (yes + no)})
    assert_close(e.log_evidence, math.log(yes + no))
    for column, (p_yes, p_no) in LAPLACE_X_STAR.items():
        assert e.factors.loc[column, "fraction[Yes]"] == p_yes
        assert e.factors.loc[column, "fraction[No]"] == p_no
        assert_close(e.factors.loc[column, "p[No]"], float(p_no))
        assert_close(e.factors.loc[column, "log[No]"], math.log(p_no))
    proba = m.predict_proba(row(X_STAR))
    assert_close(proba.loc[0, "Yes"], float(yes / (yes + no)))
    assert m.predict(row(X_STAR)).iloc[0] == "Yes"


def test_tennis14_explanation_posterior_equals_predict_proba(tennis14):
    m = fit(tennis14, TENNIS, "Play", alpha=1)
    proba = m.predict_proba(tennis14)
    for i in [0, 5, 13]:
        e = m.explain(tennis14.iloc[i])
        for c in m.classes_:
            assert_close(e.posterior[c], proba.iloc[i][c])


def test_seed003_sunny_cool_high_true_is_no_with_005_against_021():
    table = seed003_table()
    features = {"outlook": "categorical", "temp": "categorical", "humidity": "categorical", "windy": "categorical"}
    m = fit(table, features, "play", alpha=0)
    x = {"outlook": "sunny", "temp": "cool", "humidity": "high", "windy": "true"}
    e = m.explain(x)
    scores = joint(e)
    yes = 9 / 14 * 2 / 9 * 3 / 9 * 3 / 9 * 3 / 9
    no = 5 / 14 * 3 / 5 * 1 / 5 * 4 / 5 * 3 / 5
    assert_close(scores["yes"], yes)
    assert_close(scores["no"], no)
    assert round(scores["yes"], 3) == 0.005
    assert round(scores["no"], 3) == 0.021
    assert e.prediction == "no"
    assert m.predict(row(x)).iloc[0] == "no"


# --------------------------------------------------------------------------------------
# seed 000 section 2.4 and seed 003: other smoothings on the tennis data
# --------------------------------------------------------------------------------------


def test_dirichlet_prior_alpha_smooths_class_priors(tennis14):
    # (N_c + a) / (N + K a) with a = 1, K = 2: (9 + 1) / 16 and (5 + 1) / 16   [seed 000, 2.4].
    m = fit(tennis14, TENNIS, "Play", alpha=1, prior_alpha=1)
    assert_series_close(m.priors_, {"Yes": 10 / 16, "No": 6 / 16})
    m3 = fit(tennis14, TENNIS, "Play", alpha=1, prior_alpha=3)
    assert_series_close(m3.priors_, {"Yes": 12 / 20, "No": 8 / 20})


def test_m_estimate_is_n_y_plus_m_p_over_n_plus_m(tennis14):
    # (n_y + m p) / (n + m), p = 1/K   [seed 003]; m = 3.
    m = fit(tennis14, TENNIS, "Play", smoothing=nbapp.MEstimate(m=3))
    outlook = m.cpt("Outlook", exact=True)
    humidity = m.cpt("Humidity", exact=True)
    assert outlook.loc["Overcast", "No"] == (0 + 3 * F(1, 3)) / (5 + 3)  # 1/8
    assert outlook.loc["Sunny", "Yes"] == (2 + 3 * F(1, 3)) / (9 + 3)  # 3/12
    assert humidity.loc["High", "No"] == (4 + 3 * F(1, 2)) / (5 + 3)  # 11/16
    assert humidity.loc["Normal", "Yes"] == (6 + 3 * F(1, 2)) / (9 + 3)  # 15/24
    assert_close(m.cpt("Humidity").loc["High", "No"], 11 / 16)


def test_m_estimate_with_uniform_p_equals_lidstone_m_over_k_on_one_feature(tennis14):
    # (n_y + m/K) / (n + m) = (n_y + l) / (n + l K) with l = m / K.
    m_est = fit(tennis14, {"Outlook": "categorical"}, "Play", smoothing=nbapp.MEstimate(m=6))
    lidstone = fit(tennis14, {"Outlook": "categorical"}, "Play", alpha=2)
    pd.testing.assert_frame_equal(m_est.cpt("Outlook"), lidstone.cpt("Outlook"), rtol=1e-12)


# --------------------------------------------------------------------------------------
# seed 001: tennis, 6 days
# --------------------------------------------------------------------------------------

TENNIS6 = {"outlook": "categorical", "temperature": "categorical", "humidity": "categorical", "wind": "categorical"}
CLOUDED = {"outlook": "clouded", "temperature": "mild", "humidity": "normal", "wind": "weak"}


@pytest.fixture(scope="module")
def tennis6() -> pd.DataFrame:
    return load_example("tennis6")


def test_tennis6_single_feature_weak_wind_is_yes_half_against_sixth(tennis6):
    # P(no|weak) ~ 1/3 * 3/6 = 1/6, P(yes|weak) ~ 3/3 * 3/6 = 1/2   [seed 001, Example 1].
    m = fit(tennis6, {"wind": "categorical"}, "tennis", alpha=0)
    e = m.explain({"wind": "weak"})
    assert_series_close(pd.Series(joint(e)), {"no": F(1, 3) * F(3, 6), "yes": F(3, 3) * F(3, 6)})
    assert_series_close(e.posterior, {"yes": 3 / 4, "no": 1 / 4})
    assert e.prediction == "yes"
    assert e.factors.loc["wind", "fraction[no]"] == F(1, 3)


def test_tennis6_clouded_mild_normal_weak_is_zero_for_no_without_smoothing(tennis6):
    # P(clouded ∧ mild ∧ normal ∧ weak | no) = 0/3 * 0/3 * 1/3 * 1/3 = 0   [seed 001, Example 2].
    m = fit(tennis6, TENNIS6, "tennis", alpha=0)
    e = m.explain(CLOUDED)
    scores = joint(e)
    assert scores["no"] == 0.0
    assert_close(scores["yes"], 3 / 6 * 1 / 3 * 1 / 3 * 1 / 3 * 3 / 3)
    assert e.posterior["yes"] == 1.0
    assert m.predict(row(CLOUDED)).iloc[0] == "yes"


def test_tennis6_alpha_smoothing_uses_distinct_values_of_each_attribute(tennis6):
    # (|t_i = x_i, t in c| + alpha) / (|t in c| + alpha |{t_i}|), alpha = 1; 3 yes and 3 no days;
    # 3 outlooks, 3 temperatures, 2 humidities, 2 winds   [seed 001, "Zero-Probabilities"].
    m = fit(tennis6, TENNIS6, "tennis", alpha=1)
    assert m.cpt("outlook", exact=True).loc["clouded", "no"] == F(0 + 1, 3 + 3)
    assert m.cpt("outlook", exact=True).loc["clouded", "yes"] == F(1 + 1, 3 + 3)
    assert m.cpt("humidity", exact=True).loc["normal", "no"] == F(1 + 1, 3 + 2)
    assert m.cpt("wind", exact=True).loc["weak", "yes"] == F(3 + 1, 3 + 2)
    yes = F(3, 6) * F(1 + 1, 3 + 3) * F(1 + 1, 3 + 3) * F(1 + 1, 3 + 2) * F(3 + 1, 3 + 2)
    no = F(3, 6) * F(0 + 1, 3 + 3) * F(0 + 1, 3 + 3) * F(1 + 1, 3 + 2) * F(1 + 1, 3 + 2)
    assert yes / (yes + no) == F(8, 9)
    proba = m.predict_proba(row(CLOUDED))
    assert_close(proba.loc[0, "yes"], 8 / 9)
    assert_close(proba.loc[0, "no"], 1 / 9)


def test_tennis6_partial_fit_adds_days_as_incremental_learning(tennis6, tennis14):
    # seed 001: "incremental learning: new training instances can easily be added".
    # Days 7-14 in seed 000's spelling are lowercased to seed 001's (Overcast -> clouded).
    later = tennis14.iloc[6:].rename(columns=str.lower).rename(columns={"play": "tennis"})
    later = later.apply(lambda s: s.str.lower()).replace({"overcast": "clouded"})
    everything = pd.concat([tennis6.astype({"day": str}), later], ignore_index=True)
    step = nbapp.NaiveBayes(features=TENNIS6, alpha=1)
    step.fit(tennis6, target="tennis")
    step.partial_fit(later)
    once = fit(everything, TENNIS6, "tennis", alpha=1)
    for column in TENNIS6:
        pd.testing.assert_frame_equal(step.cpt(column), once.cpt(column), rtol=1e-12)
    assert step.counts("outlook").loc["clouded", "yes"] == 4
    assert_series_close(step.priors_, {"yes": 9 / 14, "no": 5 / 14})


# --------------------------------------------------------------------------------------
# seed 000, Exercise 2.3: gender (Gaussian Naive Bayes)
# --------------------------------------------------------------------------------------

GENDER_TABLE = {
    "male": {"Height": ["6.00", "5.92", "5.58", "5.92"], "Weight": [180, 190, 170, 165], "Foot_Size": [12, 11, 12, 10]},
    "female": {"Height": ["5.00", "5.50", "5.42", "5.75"], "Weight": [100, 150, 130, 150], "Foot_Size": [6, 8, 7, 9]},
}
GENDER_FEATURES = {"Height": "gaussian", "Weight": "gaussian", "Foot_Size": "gaussian"}
GENDER_X = {"Height": 6, "Weight": 130, "Foot_Size": 8}


def mle_mean_var(values) -> tuple[F, F]:
    """mu = 1/n_c sum x (Eq. 13), var = 1/n_c sum (x - mu)^2 (Eq. 14), exactly."""
    xs = [F(v) for v in values]
    mean = sum(xs) / len(xs)
    return mean, sum((x - mean) ** 2 for x in xs) / len(xs)


def normal_pdf(x: float, mean: float, var: float) -> float:
    """N(mu, var) density   [seed 000, Eq. 12]."""
    return math.exp(-((x - mean) ** 2) / (2 * var)) / math.sqrt(2 * math.pi * var)


@pytest.fixture(scope="module")
def gender_model() -> nbapp.NaiveBayes:
    return fit(load_example("gender"), GENDER_FEATURES, "Gender", var_smoothing=0)


def test_gender_means_and_mle_variances_by_hand(gender_model):
    # e.g. male height: mu = (6.00 + 5.92 + 5.58 + 5.92) / 4 = 5.855, var = 0.1051 / 4 = 0.026275
    assert mle_mean_var(GENDER_TABLE["male"]["Height"]) == (F("5.855"), F("0.026275"))
    assert mle_mean_var(GENDER_TABLE["female"]["Weight"]) == (F("132.5"), F("418.75"))
    for column in GENDER_FEATURES:
        table = gender_model.gaussian(column)
        for gender, data in GENDER_TABLE.items():
            mean, var = mle_mean_var(data[column])
            assert_close(table.loc[gender, "mean"], float(mean))
            assert_close(table.loc[gender, "var"], float(var))


def test_gender_prediction_for_6_130_8_is_female(gender_model):
    scores = {}
    for gender, data in GENDER_TABLE.items():
        score = 4 / 8  # P(male) = P(female) = 4/8
        for column, x in GENDER_X.items():
            mean, var = mle_mean_var(data[column])
            score *= normal_pdf(x, float(mean), float(var))
        scores[gender] = score
    expected = normalise(scores)
    assert expected["female"] > 0.99  # the well-known answer
    proba = gender_model.predict_proba(row(GENDER_X))
    assert_close(proba.loc[0, "female"], expected["female"], rel=1e-9)
    assert_close(proba.loc[0, "male"], expected["male"], rel=1e-9)
    assert gender_model.predict(row(GENDER_X)).iloc[0] == "female"
    e = gender_model.explain(GENDER_X)
    assert_series_close(pd.Series(joint(e)), scores, rel=1e-9)
    mean, var = mle_mean_var(GENDER_TABLE["male"]["Foot_Size"])
    assert_close(e.factors.loc["Foot_Size", "p[male]"], normal_pdf(8, float(mean), float(var)), rel=1e-9)
    assert e.factors.loc["Foot_Size", "kind"] == "gaussian"


def test_gender_missing_weight_equals_model_without_weight():
    # Eq. 22: the product runs over the observed features only.
    frame = load_example("gender")
    full = fit(frame, GENDER_FEATURES, "Gender", var_smoothing=0)
    without = fit(frame, {"Height": "gaussian", "Foot_Size": "gaussian"}, "Gender", var_smoothing=0)
    x = {"Height": 6, "Weight": np.nan, "Foot_Size": 8}
    pd.testing.assert_frame_equal(full.predict_proba(row(x)), without.predict_proba(row(x)), rtol=1e-12)
    assert full.explain(x).factors.loc["Weight", "status"] == "missing"


# --------------------------------------------------------------------------------------
# seed 002: stolen cars (MLE, Bernoulli, Beta prior)
# --------------------------------------------------------------------------------------

CARS = {"Color": "categorical", "Type": "categorical", "Origin": "categorical"}
CARS_BERNOULLI = {
    "Color": nbapp.Bernoulli(positive="Red"),
    "Type": nbapp.Bernoulli(positive="SUV"),
    "Origin": nbapp.Bernoulli(positive="Domestic"),
}
RED_DOMESTIC_SUV = {"Color": "Red", "Type": "SUV", "Origin": "Domestic"}
YELLOW_IMPORTED_SPORTS = {"Color": "Yellow", "Type": "Sports", "Origin": "Imported"}


@pytest.fixture(scope="module")
def cars() -> pd.DataFrame:
    return load_example("stolen_cars")


def test_stolen_cars_mle_parameters(cars):
    # Exercise 4.a: theta_cd = N_cd / N_c with N_Yes = N_No = 5; pi_c = N_c / N = 5/10.
    m = fit(cars, CARS, "Stolen", alpha=0)
    assert_series_close(m.priors_, {"Yes": 5 / 10, "No": 5 / 10})
    assert m.cpt("Color", exact=True).loc["Red", "Yes"] == F(3, 5)
    assert m.cpt("Type", exact=True).loc["SUV", "Yes"] == F(1, 5)
    assert m.cpt("Origin", exact=True).loc["Domestic", "Yes"] == F(2, 5)
    assert m.cpt("Color", exact=True).loc["Red", "No"] == F(2, 5)
    assert m.cpt("Type", exact=True).loc["SUV", "No"] == F(3, 5)
    assert m.cpt("Origin", exact=True).loc["Domestic", "No"] == F(3, 5)


@pytest.mark.parametrize("features", [CARS, CARS_BERNOULLI], ids=["categorical", "bernoulli"])
def test_stolen_cars_red_domestic_suv_is_not_stolen(cars, features):
    # Exercise 4.b: Yes 1/2 * 3/5 * 1/5 * 2/5 = .024, No 1/2 * 2/5 * 3/5 * 3/5 = .072.
    m = fit(cars, features, "Stolen", alpha=0)
    e = m.explain(RED_DOMESTIC_SUV)
    yes = F(1, 2) * F(3, 5) * F(1, 5) * F(2, 5)
    no = F(1, 2) * F(2, 5) * F(3, 5) * F(3, 5)
    assert (float(yes), float(no)) == (0.024, 0.072)
    assert_series_close(pd.Series(joint(e)), {"Yes": yes, "No": no})
    assert_series_close(e.posterior, {"Yes": 1 / 4, "No": 3 / 4})
    assert e.prediction == "No"
    assert m.predict(row(RED_DOMESTIC_SUV)).iloc[0] == "No"


def test_stolen_cars_bernoulli_negative_value_uses_one_minus_theta(cars):
    # Boxed rule: theta^x (1 - theta)^(1 - x); Yellow/Sports/Imported are the x = 0 values.
    m = fit(cars, CARS_BERNOULLI, "Stolen", alpha=0)
    yes = F(1, 2) * (1 - F(3, 5)) * (1 - F(1, 5)) * (1 - F(2, 5))
    no = F(1, 2) * (1 - F(2, 5)) * (1 - F(3, 5)) * (1 - F(3, 5))
    e = m.explain(YELLOW_IMPORTED_SPORTS)
    assert_series_close(pd.Series(joint(e)), {"Yes": yes, "No": no})
    assert e.factors.loc["Color", "kind"] == "bernoulli"


def test_stolen_cars_beta_prior_map_is_n_cd_plus_a_over_n_c_plus_a_plus_b(cars):
    # (N_cd + a) / (N_c + a + b) with a = 2, b = 3   [seed 002, MAP with a Beta prior].
    a, b = 2, 3
    m = fit(cars, CARS_BERNOULLI, "Stolen", smoothing=nbapp.BetaPrior(a, b))
    theta = {
        "Yes": {"Color": F(3 + a, 5 + a + b), "Type": F(1 + a, 5 + a + b), "Origin": F(2 + a, 5 + a + b)},
        "No": {"Color": F(2 + a, 5 + a + b), "Type": F(3 + a, 5 + a + b), "Origin": F(3 + a, 5 + a + b)},
    }
    e = m.explain(RED_DOMESTIC_SUV)
    for c in ["Yes", "No"]:
        for column in CARS_BERNOULLI:
            assert_close(e.factors.loc[column, f"p[{c}]"], float(theta[c][column]))
    yes = F(1, 2) * theta["Yes"]["Color"] * theta["Yes"]["Type"] * theta["Yes"]["Origin"]
    no = F(1, 2) * theta["No"]["Color"] * theta["No"]["Type"] * theta["No"]["Origin"]
    assert yes / (yes + no) == F(3, 8)
    assert_series_close(e.posterior, {"Yes": 3 / 8, "No": 5 / 8})
    e0 = m.explain(YELLOW_IMPORTED_SPORTS)
    yes0 = F(1, 2) * math.prod(1 - t for t in theta["Yes"].values())
    no0 = F(1, 2) * math.prod(1 - t for t in theta["No"].values())
    assert_series_close(pd.Series(joint(e0)), {"Yes": yes0, "No": no0})


def test_stolen_cars_beta_prior_removes_the_zero_of_a_never_stolen_red_car(cars):
    # seed 002: "what if we never see a red car that is stolen? ... The predicted probability
    # will be 0!" Drop the stolen red cars (examples 1, 3, 10) to get that data set.
    never = cars[~((cars["Color"] == "Red") & (cars["Stolen"] == "Yes"))]
    red_imported_sports = {"Color": "Red", "Type": "Sports", "Origin": "Imported"}
    mle = fit(never, CARS_BERNOULLI, "Stolen", alpha=0)
    assert mle.predict_proba(row(red_imported_sports)).loc[0, "Yes"] == 0.0
    map_ = fit(never, CARS_BERNOULLI, "Stolen", smoothing=nbapp.BetaPrior(1, 1))
    # Yes: 2 cars (ex. 5, 7), none red, 1 SUV, none domestic; No: 5 cars (ex. 2, 4, 6, 8, 9),
    # 2 red, 3 SUVs, 3 domestic. theta = (N_cd + 1) / (N_c + 2), and 1 - theta for x = 0.
    yes = F(2, 7) * F(0 + 1, 2 + 2) * (1 - F(1 + 1, 2 + 2)) * (1 - F(0 + 1, 2 + 2))
    no = F(5, 7) * F(2 + 1, 5 + 2) * (1 - F(3 + 1, 5 + 2)) * (1 - F(3 + 1, 5 + 2))
    proba = map_.predict_proba(row(red_imported_sports))
    assert_close(proba.loc[0, "Yes"], float(yes / (yes + no)))


def test_stolen_cars_beta_1_1_equals_laplace(cars):
    beta = fit(cars, CARS_BERNOULLI, "Stolen", smoothing=nbapp.BetaPrior(1, 1))
    laplace = fit(cars, CARS_BERNOULLI, "Stolen", alpha=1)
    pd.testing.assert_frame_equal(beta.predict_proba(cars), laplace.predict_proba(cars), rtol=1e-12)


# --------------------------------------------------------------------------------------
# seed 004: campus bikes (weights and priors)
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bikes() -> pd.DataFrame:
    return load_example("bikes")


TEAL = {"color": "teal"}


def test_bikes_likelihood_and_prior_from_count_weights(bikes):
    m = fit(bikes, {"color": "categorical"}, "bike", weight="count", alpha=0)
    assert_series_close(m.priors_, {"veoride": 0.20, "private": 0.80})
    assert m.cpt("color", exact=True).loc["teal", "veoride"] == F(19, 20)  # 0.95
    assert m.cpt("color", exact=True).loc["teal", "private"] == F(2, 80)  # 0.025
    assert m.counts("color").loc["red", "private"] == 78


def test_bikes_teal_is_veoride_with_posterior_0905(bikes):
    # P(veoride | teal) = 0.95 x 0.2 / 0.21 = 0.19 / 0.21 = 0.905   [seed 004].
    m = fit(bikes, {"color": "categorical"}, "bike", weight="count", alpha=0)
    e = m.explain(TEAL)
    assert_series_close(pd.Series(joint(e)), {"veoride": 0.95 * 0.2, "private": 0.025 * 0.8})
    assert_close(e.posterior["veoride"], 0.19 / 0.21)
    assert round(e.posterior["veoride"], 3) == 0.905
    assert round(e.posterior["private"], 3) == 0.095
    assert_close(e.log_evidence, math.log(0.21))
    assert m.predict(row(TEAL)).iloc[0] == "veoride"


def test_bikes_prior_of_two_percent_flips_teal_to_private(bikes):
    # P(veoride) = 0.02: 0.95 x 0.02 = 0.019 against 0.025 x 0.98 = 0.0245   [seed 004].
    m = fit(bikes, {"color": "categorical"}, "bike", weight="count", alpha=0, priors={"veoride": 0.02, "private": 0.98})
    assert_series_close(m.priors_, {"veoride": 0.02, "private": 0.98})
    e = m.explain(TEAL)
    assert_series_close(pd.Series(joint(e)), {"veoride": 0.95 * 0.02, "private": 0.025 * 0.98})
    assert_close(e.posterior["private"], 0.0245 / (0.019 + 0.0245))
    assert m.predict(row(TEAL)).iloc[0] == "private"


def test_bikes_uniform_prior_is_the_mle_decision(bikes):
    # MLE: pick the cause maximising P(evidence | cause): 0.95 against 0.025   [seed 004].
    m = fit(bikes, {"color": "categorical"}, "bike", weight="count", alpha=0, priors="uniform")
    assert_series_close(m.priors_, {"veoride": 0.5, "private": 0.5})
    assert_close(m.predict_proba(row(TEAL)).loc[0, "veoride"], 0.95 / (0.95 + 0.025))


def test_bikes_count_weights_equal_repeated_rows(bikes):
    repeated = bikes.loc[bikes.index.repeat(bikes["count"])].drop(columns="count").reset_index(drop=True)
    weighted = fit(bikes, {"color": "categorical"}, "bike", weight="count", alpha=1)
    plain = fit(repeated, {"color": "categorical"}, "bike", alpha=1)
    pd.testing.assert_frame_equal(weighted.cpt("color"), plain.cpt("color"), rtol=1e-12)
    pd.testing.assert_series_equal(weighted.priors_, plain.priors_, rtol=1e-12)


# --------------------------------------------------------------------------------------
# seed 000, Exercise 2.2: sentiment (multinomial over words; default tokenisation)
# --------------------------------------------------------------------------------------

CHEETO = {"text": "just had my first cheeto ever it was awesome"}


@pytest.fixture(scope="module")
def sentiment() -> pd.DataFrame:
    return load_example("sentiment")


def test_sentiment_with_laplace_smoothing_is_negative(sentiment):
    # Default tokenisation (lowercase, \w+ tokens, no stop words). Positive sentences hold
    # 4 + 5 = 9 tokens, negative ones 4 + 6 + 6 + 5 = 21; the vocabulary has 29 types ("is" is
    # in both classes). Of x*, only "my" (negative, once), "cheeto" (negative, once) and
    # "awesome" (positive, once) are in the vocabulary; unseen words are ignored.
    # (count + 1) / (n_c + 29)   [seed 000, Eq. 10].
    m = fit(sentiment, {"text": "text"}, "sentiment", alpha=1)
    positive = F(2, 6) * F(0 + 1, 9 + 29) * F(0 + 1, 9 + 29) * F(1 + 1, 9 + 29)
    negative = F(4, 6) * F(1 + 1, 21 + 29) * F(1 + 1, 21 + 29) * F(0 + 1, 21 + 29)
    e = m.explain(CHEETO)
    assert_series_close(pd.Series(joint(e)), {"positive": positive, "negative": negative})
    total = positive + negative
    assert_series_close(e.posterior, {"positive": positive / total, "negative": negative / total})
    assert e.prediction == "negative"
    assert m.predict(row(CHEETO)).iloc[0] == "negative"


def test_sentiment_without_smoothing_is_undetermined(sentiment):
    # l = 0: P(my | positive) = 0 and P(awesome | negative) = 0, so both scores are 0.
    m = fit(sentiment, {"text": "text"}, "sentiment", alpha=0)
    e = m.explain(CHEETO)
    assert e.undetermined
    assert e.prediction is None
    assert pd.isna(m.predict(row(CHEETO)).iloc[0])
    assert not m.predict_proba(row(CHEETO)).isna().any().any()


# --------------------------------------------------------------------------------------
# seed 000, Eq. 22: missing and unseen values; l = 0 with every class impossible
# --------------------------------------------------------------------------------------


def test_missing_value_gives_the_posterior_of_a_model_without_that_feature(tennis14):
    full = fit(tennis14, TENNIS, "Play", alpha=1)
    without = fit(tennis14, {k: v for k, v in TENNIS.items() if k != "Humidity"}, "Play", alpha=1)
    x = dict(X_STAR, Humidity=np.nan)
    pd.testing.assert_frame_equal(full.predict_proba(row(x)), without.predict_proba(row(x)), rtol=1e-12)
    e = full.explain(x)
    assert e.factors.loc["Humidity", "status"] == "missing"
    # by hand: 9/14 * 5/12 * 3/12 * 4/11 against 5/14 * 1/8 * 3/8 * 4/7
    yes = F(9, 14) * F(5, 12) * F(3, 12) * F(4, 11)
    no = F(5, 14) * F(1, 8) * F(3, 8) * F(4, 7)
    assert_series_close(e.posterior, {"Yes": yes / (yes + no), "No": no / (yes + no)})


def test_unseen_category_is_skipped_and_flagged_unseen(tennis14):
    full = fit(tennis14, TENNIS, "Play", alpha=1)
    without = fit(tennis14, {k: v for k, v in TENNIS.items() if k != "Outlook"}, "Play", alpha=1)
    x = dict(X_STAR, Outlook="Snow")
    pd.testing.assert_frame_equal(full.predict_proba(row(x)), without.predict_proba(row(x)), rtol=1e-12)
    e = full.explain(x)
    assert e.factors.loc["Outlook", "status"] == "unseen"
    assert e.factors.loc["Temperature", "status"] == "used"


def test_mle_with_every_class_impossible_is_undetermined_never_nan(tennis6):
    # tennis6 at l = 0: P(strong | yes) = 0/3 and P(clouded | no) = 0/3.
    m = fit(tennis6, TENNIS6, "tennis", alpha=0)
    impossible = {"outlook": "clouded", "temperature": "hot", "humidity": "high", "wind": "strong"}
    frame = pd.DataFrame([CLOUDED, impossible], index=["possible", "impossible"])
    assert m.undetermined(frame).tolist() == [False, True]
    predicted = m.predict(frame)
    assert predicted["possible"] == "yes"
    assert pd.isna(predicted["impossible"])
    proba = m.predict_proba(frame)
    assert not proba.isna().any().any()
    assert list(proba.index) == ["possible", "impossible"]
    # documented choice: an undetermined row shows the prior (3/6, 3/6) as its posterior
    assert proba.loc["impossible"].to_dict() == {"no": 0.5, "yes": 0.5}
    assert not m.predict_log_proba(frame).isna().any().any()
    e = m.explain(impossible)
    assert e.undetermined
    assert e.prediction is None
    assert joint(e) == {"no": 0.0, "yes": 0.0}
    assert len(e.notes) >= 1


# --------------------------------------------------------------------------------------
# the seeds' settings survive a JSON round trip
# --------------------------------------------------------------------------------------


def test_json_round_trip_keeps_custom_prior_beta_prior_m_estimate_and_text(bikes, cars, tennis14, sentiment):
    models = [
        (fit(bikes, {"color": "categorical"}, "bike", weight="count", alpha=0, priors={"veoride": 0.02, "private": 0.98}), row(TEAL)),
        (fit(cars, CARS_BERNOULLI, "Stolen", smoothing=nbapp.BetaPrior(2, 3)), cars),
        (fit(tennis14, TENNIS, "Play", smoothing=nbapp.MEstimate(m=3), prior_alpha=1), tennis14),
        (fit(sentiment, {"text": "text"}, "sentiment", alpha=1), row(CHEETO)),
    ]
    for model, frame in models:
        loaded = nbapp.NaiveBayes.from_json(model.to_json())
        pd.testing.assert_frame_equal(loaded.predict_proba(frame), model.predict_proba(frame), check_exact=True)
    bikes_loaded = nbapp.NaiveBayes.from_json(models[0][0].to_json())
    assert bikes_loaded.predict(row(TEAL)).iloc[0] == "private"
    cars_loaded = nbapp.NaiveBayes.from_json(models[1][0].to_json())
    assert_series_close(cars_loaded.explain(RED_DOMESTIC_SUV).posterior, {"Yes": 3 / 8, "No": 5 / 8})
