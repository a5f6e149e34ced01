"""Moving a class prior without refitting; prior ratio vs likelihood ratios (seed 004)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nbapp
from nbapp.errors import DataError
from nbapp.examples import example, load_example
from nbapp.lessons.prior_evidence import (log_likelihoods, moved_priors, posterior_with_priors,
                                  prior_sweep, prior_vs_evidence)


def _fitted(key: str, **settings) -> nbapp.NaiveBayes:
    ex = example(key)
    model = nbapp.NaiveBayes(features=ex.features, **{"alpha": ex.alpha, **settings})
    return model.fit(load_example(key), target=ex.target, weight=ex.weight)


@pytest.fixture(scope="module")
def bikes() -> nbapp.Explanation:
    return _fitted("bikes").explain({"color": "teal"})


def test_bikes_teal_is_a_veoride_at_the_seed_prior(bikes):
    assert bikes.posterior["veoride"] == pytest.approx(0.19 / 0.21)       # 0.905


def test_moving_the_prior_to_2_percent_flips_the_bikes_answer(bikes):
    # seed 004: "only 2% of the bikes are veorides. Now a teal bike is more likely private"
    priors = moved_priors(bikes, "veoride", 0.02)
    assert priors.to_dict() == pytest.approx({"private": 0.98, "veoride": 0.02})
    post = posterior_with_priors(bikes, priors)
    assert post["veoride"] == pytest.approx(0.019 / (0.019 + 0.98 * 2 / 80))
    assert post.idxmax() == "private"


def test_new_prior_without_refit_equals_a_refit_with_that_prior(bikes):
    refit = _fitted("bikes", priors={"veoride": 0.02, "private": 0.98})
    expected = refit.explain({"color": "teal"}).posterior
    post = posterior_with_priors(bikes, {"veoride": 0.02, "private": 0.98})
    np.testing.assert_allclose(post[expected.index], expected, rtol=1e-12)


def test_break_even_prior_is_where_the_bikes_answer_flips(bikes):
    split = prior_vs_evidence(bikes, "veoride", "private")
    # likelihood ratio P(teal | veoride) / P(teal | private) = 0.95 / 0.025 = 38
    assert split.log_likelihood_ratio == pytest.approx(math.log(38))
    assert split.break_even_prior == pytest.approx(1 / 39)
    at = posterior_with_priors(bikes, {"veoride": 1 / 39, "private": 38 / 39})
    assert at["veoride"] == pytest.approx(0.5)


def test_tennis_at_l1_is_decided_by_the_prior():
    e = _fitted("tennis14", alpha=1.0).explain(example("tennis14").query)
    split = prior_vs_evidence(e)
    assert (split.cls, split.other) == ("Yes", "No")
    assert split.log_prior_ratio == pytest.approx(math.log(9 / 5))
    by_hand = [math.log((5 / 12) / (1 / 8)), math.log((1 / 4) / (3 / 8)),
               math.log((4 / 11) / (5 / 7)), math.log((4 / 11) / (4 / 7))]
    np.testing.assert_allclose(split.log_likelihood_ratios.to_numpy(), by_hand)
    assert split.evidence_weight == pytest.approx(sum(abs(v) for v in by_hand))
    assert split.log_posterior_ratio == pytest.approx(e.joint_log["Yes"] - e.joint_log["No"])
    # net evidence favours No (-0.33) but the prior ratio (+0.59) is larger: the prior
    # decides, and with a uniform prior the answer flips.
    assert split.prior_dominates
    assert posterior_with_priors(e, {"Yes": 0.5, "No": 0.5}).idxmax() == "No"


def test_a_zero_factor_outweighs_any_prior():
    e = _fitted("tennis14", alpha=0.0).explain(example("tennis14").query)
    split = prior_vs_evidence(e, "Yes", "No")
    assert split.log_likelihood_ratios["Outlook"] == math.inf      # P(Overcast | No) = 0/5
    assert split.break_even_prior == 0.0
    post = posterior_with_priors(e, {"Yes": 0.001, "No": 0.999})
    assert post["Yes"] == 1.0


def test_prior_sweep_runs_from_zero_to_one_and_rises(bikes):
    sweep = prior_sweep(bikes, "veoride", points=51)
    assert sweep.index[0] == 0.0 and sweep.index[-1] == 1.0
    assert sweep["veoride"].iloc[0] == 0.0 and sweep["veoride"].iloc[-1] == 1.0
    assert (np.diff(sweep["veoride"].to_numpy()) >= 0).all()
    np.testing.assert_allclose(sweep.sum(axis=1), 1.0)
    at_02 = sweep.loc[np.isclose(sweep.index, 0.2)].iloc[0]
    assert at_02["veoride"] == pytest.approx(bikes.posterior["veoride"])


def test_three_class_sweep_keeps_the_other_priors_in_proportion():
    e = _fitted("penguins").explain(example("penguins").query)
    priors = moved_priors(e, "Gentoo", 0.5)
    old = e.probabilities.loc["prior"]
    assert priors["Adelie"] / priors["Chinstrap"] == pytest.approx(old["Adelie"] / old["Chinstrap"])
    sweep = prior_sweep(e, "Gentoo", points=11)
    row = sweep.loc[np.isclose(sweep.index, 0.5)].iloc[0]
    np.testing.assert_allclose(row.to_numpy(), posterior_with_priors(e, priors).to_numpy())


def test_skipped_factors_are_not_evidence():
    e = _fitted("penguins").explain(example("penguins").query)      # sex is missing
    assert "sex" not in log_likelihoods(e).index
    np.testing.assert_allclose(log_likelihoods(e).sum().to_numpy(),
                               (e.joint_log - e.logs.loc["prior"]).to_numpy())


def test_priors_must_sum_to_one(bikes):
    with pytest.raises(DataError, match="sum to 1"):
        posterior_with_priors(bikes, {"veoride": 0.5, "private": 0.6})
    with pytest.raises(DataError, match="between 0 and 1"):
        moved_priors(bikes, "veoride", 1.5)
    with pytest.raises(DataError, match="Class 'bird' is not one of"):
        moved_priors(bikes, "bird", 0.5)


def test_a_prior_agreeing_with_stronger_evidence_does_not_dominate(bikes):
    # teal says veoride (log 38 = 3.6); a prior of 0.99 for veoride points the same way and
    # its ratio (log 99 = 4.6) is larger, but it decides nothing the evidence had not.
    e = _fitted("bikes", priors={"veoride": 0.99, "private": 0.01}).explain({"color": "teal"})
    split = prior_vs_evidence(e, "veoride", "private")
    assert abs(split.log_prior_ratio) > abs(split.log_likelihood_ratio)
    assert not split.prior_dominates
    flipped = prior_vs_evidence(_fitted("bikes", priors={"veoride": 0.02, "private": 0.98})
                                .explain({"color": "teal"}), "veoride", "private")
    assert flipped.prior_dominates                    # seed 004: private wins at 2%


def test_new_priors_are_checked_as_naive_bayes_checks_them(bikes):
    off = {"veoride": 0.5, "private": 0.500005}       # 1.000005: outside nbapp.priors' 1e-6
    with pytest.raises(DataError, match=r"sum to 1\.00001, not 1; scale them"):
        nbapp.NaiveBayes(features={"color": "categorical"}, priors=off)
    with pytest.raises(DataError, match=r"sum to 1\.00001, not 1; scale them"):
        posterior_with_priors(bikes, off)
    with pytest.raises(DataError, match=r"name 'scooter', which is not a class of the target"):
        posterior_with_priors(bikes, {"veoride": 0.5, "private": 0.5, "scooter": 0.0})
