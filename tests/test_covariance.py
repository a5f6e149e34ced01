"""Full-covariance vs naive Gaussian class models (seed 000 Eq. 13-16, Fig. 2, ex. 2.4)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import multivariate_normal

from nbapp.lessons.covariance import (density_grid, fit_gaussian_classes, parameter_breakdown,
                              parameter_count)
from nbapp.errors import DataError
from nbapp.examples import load_example

GENDER_COLUMNS = ["Height", "Weight", "Foot_Size"]
QUERY = pd.DataFrame({"Height": [6.0], "Weight": [130.0], "Foot_Size": [8.0]})


@pytest.fixture(scope="module")
def gender() -> pd.DataFrame:
    return load_example("gender")


@pytest.fixture
def correlated() -> pd.DataFrame:
    """Two classes whose two features are strongly correlated within each class."""
    rng = np.random.default_rng(7)
    cov = np.array([[1.0, 0.9], [0.9, 1.0]])
    a = rng.multivariate_normal([0, 0], cov, size=200)
    b = rng.multivariate_normal([1.5, -1.0], cov, size=200)
    return pd.DataFrame({"x1": np.r_[a[:, 0], b[:, 0]], "x2": np.r_[a[:, 1], b[:, 1]],
                         "y": ["a"] * 200 + ["b"] * 200})


def test_parameter_count_d10_k3_matches_exercise_2_4():
    # naive: d K means + d K variances; full: d K means + K d (d + 1) / 2 covariances
    assert parameter_count(10, 3, naive=True) == 2 * 10 * 3 == 60
    assert parameter_count(10, 3, naive=False) == 10 * 3 + 3 * 10 * 11 // 2 == 195


def test_parameter_count_adds_the_k_minus_1_free_priors_only_when_asked():
    assert parameter_count(10, 3, True, include_priors=True) == 62
    assert parameter_count(10, 3, False, include_priors=True) == 197
    b = parameter_breakdown(10, 3, naive=False)
    assert (b.means, b.covariances, b.priors, b.likelihood, b.total) == (30, 165, 2, 195, 197)


@pytest.mark.parametrize("d", [1, 2, 5, 17])
@pytest.mark.parametrize("K", [1, 2, 4])
def test_full_and_naive_counts_agree_for_one_feature_and_differ_above(d, K):
    naive, full = parameter_count(d, K, True), parameter_count(d, K, False)
    assert full - naive == K * d * (d - 1) // 2   # exactly the off-diagonal covariances


def test_parameter_count_rejects_non_integer_d():
    with pytest.raises(DataError, match="whole numbers"):
        parameter_count(2.5, 3, True)


def test_diagonal_model_matches_scikit_learn_gaussian_nb(gender):
    from sklearn.naive_bayes import GaussianNB

    ours = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="diagonal")
    ref = GaussianNB().fit(gender[GENDER_COLUMNS], gender["Gender"])
    rows = pd.concat([QUERY, gender[GENDER_COLUMNS]], ignore_index=True)
    np.testing.assert_allclose(ours.predict_proba(rows)[list(ref.classes_)].to_numpy(),
                               ref.predict_proba(rows), rtol=1e-9, atol=1e-12)
    assert ours.parameter_count() == 2 * 3 * 2


def test_the_lesson_s_epsilon_is_the_naive_model_s(gender):
    import nbapp

    lesson = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="full", var_smoothing=1e-3)
    model = nbapp.NaiveBayes({c: "gaussian" for c in GENDER_COLUMNS}, var_smoothing=1e-3).fit(gender, "Gender")
    assert lesson.epsilon == model.gaussian_epsilon().value


def test_full_model_fits_eq_15_16_and_matches_scipy_density(gender):
    model = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="full",
                                 var_smoothing=0.0)
    male = gender.loc[gender["Gender"] == "male", GENDER_COLUMNS].to_numpy()
    np.testing.assert_allclose(model.means.loc["male"], male.mean(axis=0))
    sigma = np.cov(male.T, bias=True)                    # 1/n_c, Eq. 16
    np.testing.assert_allclose(model.covariance_matrix("male").to_numpy(), sigma)
    expected = multivariate_normal(male.mean(axis=0), sigma).logpdf(QUERY.to_numpy()[0])
    assert model.log_likelihood(QUERY).loc[0, "male"] == pytest.approx(expected, rel=1e-10)
    assert model.parameter_count() == 3 * 2 + 2 * 6


def test_full_covariance_changes_the_gender_answer(gender):
    # The naive model says female for x* = (6, 130, 8) (seed 000, ex. 2.3); within each
    # class height, weight and foot size are correlated, and the full model disagrees.
    naive = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="diagonal")
    full = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="full")
    assert naive.predict(QUERY).iloc[0] == "female"
    assert full.predict(QUERY).iloc[0] == "male"


def test_posteriors_sum_to_one_for_every_covariance(correlated):
    for covariance in ("full", "diagonal", "shared"):
        model = fit_gaussian_classes(correlated, ["x1", "x2"], "y", covariance=covariance)
        np.testing.assert_allclose(model.predict_proba(correlated).sum(axis=1), 1.0)


def test_full_model_sees_the_correlation_the_naive_one_ignores(correlated):
    full = fit_gaussian_classes(correlated, ["x1", "x2"], "y")
    naive = fit_gaussian_classes(correlated, ["x1", "x2"], "y", covariance="diagonal")
    assert full.correlation("a").loc["x1", "x2"] > 0.8
    assert naive.correlation("a").loc["x1", "x2"] == 0.0
    # the true model is the full one, so it fits the data better
    log_full = full.log_likelihood(correlated).to_numpy().max(axis=1).sum()
    log_naive = naive.log_likelihood(correlated).to_numpy().max(axis=1).sum()
    assert log_full > log_naive


def test_shared_covariance_pools_the_within_class_variances(correlated):
    model = fit_gaussian_classes(correlated, ["x1", "x2"], "y", covariance="shared",
                                 var_smoothing=0.0)
    within = correlated.groupby("y")[["x1", "x2"]].var(ddof=0)
    pooled = (within * correlated["y"].value_counts().sort_index().to_numpy()[:, None]).sum() / 400
    np.testing.assert_allclose(np.diag(model.sigma[0]), pooled.to_numpy())
    np.testing.assert_allclose(model.sigma[0], model.sigma[1])


def test_shared_variance_gives_a_linear_boundary_on_the_grid(correlated):
    # Eq. 20: with variances shared by the classes, log-odds are linear in x, so the
    # boundary column index moves by a constant amount per grid row.
    model = fit_gaussian_classes(correlated, ["x1", "x2"], "y", covariance="shared")
    grid = density_grid(model, "x1", "x2", points=60)
    log_odds = np.log(grid.posterior[1]) - np.log(grid.posterior[0])
    second_diff_x = np.diff(log_odds, n=2, axis=1)
    second_diff_y = np.diff(log_odds, n=2, axis=0)
    assert np.abs(second_diff_x).max() < 1e-8 and np.abs(second_diff_y).max() < 1e-8


def test_density_grid_shapes_and_normalisation(correlated):
    model = fit_gaussian_classes(correlated, ["x1", "x2"], "y")
    grid = density_grid(model, "x1", "x2", points=120, margin=1.5)
    assert grid.density.shape == (2, 120, 120)
    cell = (grid.x[1] - grid.x[0]) * (grid.y[1] - grid.y[0])
    np.testing.assert_allclose(grid.density.sum(axis=(1, 2)) * cell, 1.0, atol=0.02)
    np.testing.assert_allclose(grid.posterior.sum(axis=0), 1.0)
    assert set(np.unique(grid.predicted)) == {0, 1}


def test_density_grid_of_three_columns_is_the_two_column_marginal(gender):
    model = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender")
    two = fit_gaussian_classes(gender, ["Height", "Weight"], "Gender")
    g3 = density_grid(model, "Height", "Weight", points=7)
    g2 = density_grid(two, "Height", "Weight", points=7)
    np.testing.assert_allclose(g3.log_density, g2.log_density, rtol=1e-6)


def test_missing_value_at_prediction_is_marginalised(gender):
    model = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender")
    two = fit_gaussian_classes(gender, ["Height", "Weight"], "Gender")
    query = QUERY.assign(Foot_Size=np.nan)
    # same epsilon? the marginal keeps the three-column epsilon; compare log-likelihoods
    np.testing.assert_allclose(model.log_likelihood(query).to_numpy(),
                               model.marginal(["Height", "Weight"]).log_likelihood(query).to_numpy())
    assert model.predict(query).iloc[0] == two.predict(query).iloc[0]


def test_training_rows_with_a_missing_value_are_skipped_and_counted(gender):
    holes = gender.copy()
    holes.loc[0, "Weight"] = np.nan
    model = fit_gaussian_classes(holes, GENDER_COLUMNS, "Gender", covariance="diagonal")
    assert model.n_rows_dropped == 1
    assert model.class_counts["male"] == 3


def test_full_covariance_with_too_few_rows_is_refused(gender):
    with pytest.raises(DataError, match=r"Class 'female' has 4 complete rows.*at least 5"):
        fit_gaussian_classes(gender.assign(Extra=range(8)), [*GENDER_COLUMNS, "Extra"], "Gender")


def test_full_covariance_of_a_duplicated_column_is_refused(correlated):
    with pytest.raises(DataError, match="linearly dependent"):
        fit_gaussian_classes(correlated.assign(copy=correlated["x1"]), ["x1", "x2", "copy"], "y")


def test_text_in_a_gaussian_column_names_the_row(gender):
    bad = gender.astype({"Weight": object})
    bad.loc[5, "Weight"] = "heavy"
    with pytest.raises(DataError, match=r"Column 'Weight' is numeric.*row 5 holds 'heavy'"):
        fit_gaussian_classes(bad, GENDER_COLUMNS, "Gender")


def test_uniform_and_custom_priors(gender):
    uniform = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", priors="uniform")
    assert uniform.priors.to_dict() == {"female": 0.5, "male": 0.5}
    custom = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender",
                                  priors={"female": 0.1, "male": 0.9})
    assert custom.priors["male"] == 0.9
    with pytest.raises(DataError, match="sum to 1"):
        fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", priors={"female": .5, "male": .6})


def test_unknown_covariance_is_refused(gender):
    with pytest.raises(DataError, match="covariance must be one of"):
        fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="spherical")


def test_duplicating_outlook_makes_the_tennis_posterior_overconfident():
    import nbapp
    from nbapp.lessons.covariance import duplicate_feature_effect
    from nbapp.examples import example

    ex = example("tennis14")
    df = load_example("tennis14")
    model = nbapp.NaiveBayes(features=ex.features, alpha=1.0).fit(df, target="Play")
    effect = duplicate_feature_effect(model, df, ex.query, "Outlook", copies=[0, 1, 3])
    assert effect.posterior.loc[0, "Yes"] == pytest.approx(784 / 1389)
    # each copy multiplies the odds by P(Overcast | Yes) / P(Overcast | No) = (5/12) / (1/8)
    odds = effect.posterior["Yes"] / effect.posterior["No"]
    np.testing.assert_allclose(odds.to_numpy(), (784 / 605) * (10 / 3) ** np.array([0, 1, 3]))
    assert effect.mean_confidence.is_monotonic_increasing
    with pytest.raises(DataError, match="'Colour' is not a feature"):
        duplicate_feature_effect(model, df, ex.query, "Colour")


def test_a_row_far_beyond_the_data_gets_the_prior_here_not_nan_while_naive_bayes_still_ranks(gender):
    # Every density underflows to 0 (its Mahalanobis distance overflows): P(x) = 0, and
    # nbapp.logspace reports the prior for such a row. NaiveBayes computes its Gaussian
    # factors beyond float64's range, so the class with the wider height spread wins there.
    import nbapp

    far = pd.DataFrame({"Height": [1e200], "Weight": [130.0], "Foot_Size": [8.0]})
    model = fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", covariance="diagonal",
                                 priors={"female": 0.3, "male": 0.7})
    proba = model.predict_proba(far)
    assert proba.iloc[0].to_dict() == pytest.approx({"female": 0.3, "male": 0.7})
    nb = nbapp.NaiveBayes(features=dict.fromkeys(GENDER_COLUMNS, "gaussian"),
                          priors={"female": 0.3, "male": 0.7}).fit(gender, target="Gender")
    wider = nb.gaussian("Height")["var"].idxmax()
    assert not nb.undetermined(far).iloc[0]
    assert nb.predict(far).iloc[0] == wider and nb.predict_proba(far)[wider].iloc[0] == 1.0


def test_priors_are_checked_as_naive_bayes_checks_them(gender):
    import nbapp

    off = {"female": 0.5, "male": 0.500005}          # 1.000005: outside nbapp.priors' 1e-6
    with pytest.raises(DataError, match=r"sum to 1\.00001, not 1; scale them"):
        nbapp.NaiveBayes(features={"Height": "gaussian"}, priors=off)
    with pytest.raises(DataError, match=r"sum to 1\.00001, not 1; scale them"):
        fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender", priors=off)
    with pytest.raises(DataError, match=r"name 'other', which is not a class of the target"):
        fit_gaussian_classes(gender, GENDER_COLUMNS, "Gender",
                             priors={"female": 0.5, "male": 0.5, "other": 0.0})


def test_a_missing_column_is_named_with_the_columns_to_choose_from(gender):
    with pytest.raises(DataError, match=r"Column 'Age' is not in the data \(its columns: \['Gender', "
                                        r"'Height'.*\); add it or choose other numeric columns"):
        fit_gaussian_classes(gender, ["Height", "Age"], "Gender")
