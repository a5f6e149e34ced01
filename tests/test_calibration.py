"""Reliability diagrams and Brier scores from cross-validated posteriors (seed 003)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.lessons.calibration import brier_score, calibration_report, reliability
from nbapp.errors import DataError
from nbapp.examples import example, load_example


@pytest.fixture(scope="module")
def penguins() -> pd.DataFrame:
    return load_example("penguins")


def _synthetic(n: int, *, sharpen: float, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """True P(yes) ~ U(0, 1); the reported posterior is that probability pushed towards 0
    or 1 by ``sharpen`` (1 = calibrated)."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    y = np.where(rng.uniform(size=n) < p, "yes", "no")
    logit = np.log(p / (1 - p)) * sharpen
    reported = 1 / (1 + np.exp(-logit))
    return pd.DataFrame({"no": 1 - reported, "yes": reported}), pd.Series(y)


def test_brier_score_matches_scikit_learn_binary_and_multiclass():
    from sklearn.metrics import brier_score_loss

    post, y = _synthetic(500, sharpen=1.0)
    assert brier_score(post, y, positive="yes") == pytest.approx(
        brier_score_loss(y, post["yes"], pos_label="yes"), rel=1e-12)
    three = pd.DataFrame([[.2, .5, .3], [.1, .1, .8], [.6, .3, .1]], columns=list("abc"))
    truth = pd.Series(["a", "c", "b"])
    by_hand = np.mean([(.8**2 + .5**2 + .3**2), (.1**2 + .1**2 + .2**2), (.6**2 + .7**2 + .1**2)])
    assert brier_score(three, truth) == pytest.approx(by_hand)
    assert brier_score(three, truth) == pytest.approx(
        brier_score_loss(truth, three.to_numpy(), labels=list("abc")))


def test_two_class_brier_is_twice_the_one_vs_rest_score():
    post, y = _synthetic(300, sharpen=2.0)
    assert brier_score(post, y) == pytest.approx(2 * brier_score(post, y, positive="yes"))


def test_calibrated_posteriors_lie_on_the_diagonal():
    post, y = _synthetic(40_000, sharpen=1.0)
    rel = reliability(post, y, n_bins=10, positive="yes")
    assert rel.bins["count"].sum() == 40_000
    np.testing.assert_allclose(rel.bins["observed"], rel.bins["mean_predicted"], atol=0.03)
    assert rel.expected_calibration_error < 0.02


def test_overconfident_posteriors_bend_away_from_the_diagonal():
    post, y = _synthetic(40_000, sharpen=4.0)
    rel = reliability(post, y, n_bins=10, positive="yes")
    top, bottom = rel.bins.iloc[-1], rel.bins.iloc[0]
    assert top["observed"] < top["mean_predicted"] - 0.05      # says 0.97, right ~0.85
    assert bottom["observed"] > bottom["mean_predicted"] + 0.05
    assert rel.expected_calibration_error > 0.08


def test_top_label_reliability_scores_the_predicted_class():
    post = pd.DataFrame({"a": [0.9, 0.8, 0.3], "b": [0.1, 0.2, 0.7]})
    rel = reliability(post, pd.Series(["a", "b", "b"]), n_bins=2)
    assert rel.positive is None and rel.label.startswith("confidence")
    upper = rel.bins.iloc[1]            # all three confidences (0.9, 0.8, 0.7) are >= 0.5
    assert upper["count"] == 3
    assert upper["mean_predicted"] == pytest.approx(0.8)
    assert upper["observed"] == pytest.approx(2 / 3)


def test_probability_one_falls_in_the_last_bin():
    post = pd.DataFrame({"a": [1.0, 0.0], "b": [0.0, 1.0]})
    rel = reliability(post, pd.Series(["a", "b"]), n_bins=4, positive="a")
    assert rel.bins["count"].tolist() == [1, 0, 0, 1]
    assert np.isnan(rel.bins.loc[1, "observed"])


def test_report_on_penguins_is_seeded_and_every_row_predicted_once(penguins):
    ex = example("penguins")
    make = lambda: nbapp.NaiveBayes(features=ex.features)  # noqa: E731
    a = calibration_report(make, penguins, "species", k=5, seed=3)
    b = calibration_report(make, penguins, "species", k=5, seed=3)
    assert len(a.posteriors) == len(penguins)
    np.testing.assert_allclose(a.posteriors.sum(axis=1), 1.0)
    assert a.brier == b.brier and 0 < a.brier < 0.2
    assert list(a.posteriors.columns) == ["Adelie", "Chinstrap", "Gentoo"]


def test_duplicated_features_make_naive_bayes_more_confident(penguins):
    # seed 003: correlated features "say the same thing" twice, so the posterior moves
    # towards 0 or 1.
    ex = example("penguins")
    features = dict(ex.features)
    copies = penguins.copy()
    for i in range(3):
        for column in ("bill_length_mm", "flipper_length_mm"):
            copies[f"{column}_{i}"] = copies[column]
            features[f"{column}_{i}"] = "gaussian"
    plain = calibration_report(lambda: nbapp.NaiveBayes(features=ex.features), penguins, "species")
    doubled = calibration_report(lambda: nbapp.NaiveBayes(features=features), copies, "species")
    assert doubled.posteriors.max(axis=1).mean() > plain.posteriors.max(axis=1).mean()
    assert doubled.brier > plain.brier


def test_report_expands_frequency_weights():
    ex = example("bikes")
    report = calibration_report(lambda: nbapp.NaiveBayes(features=ex.features, alpha=1.0),
                                load_example("bikes"), "bike", k=5, weight="count",
                                positive="veoride")
    assert len(report.posteriors) == 100          # 19 + 2 + 1 + 78 bikes
    assert report.reliability.bins["count"].sum() == 100


def test_unknown_positive_class_is_refused():
    post, y = _synthetic(10, sharpen=1.0)
    with pytest.raises(DataError, match="Class 'maybe' is not one of"):
        brier_score(post, y, positive="maybe")


def test_mismatched_lengths_are_refused():
    post, y = _synthetic(10, sharpen=1.0)
    with pytest.raises(DataError, match="10 posterior rows but 9 true labels"):
        reliability(post, y.iloc[:9])
