"""The raw product of probabilities underflows to 0.0; the log-space sum does not (seeds 002, 004)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.errors import DataError
from nbapp.examples import example, load_example
from nbapp.lessons.underflow import (SMALLEST_FLOAT, explanation_log_factors, factors_until_underflow,
                             underflow_trace)


def test_product_of_halves_reaches_zero_at_step_1075_while_log_stays_exact():
    trace = underflow_trace([0.5] * 1200)
    assert trace.underflow_step["p"] == 1075              # 2**-1075 rounds to 0.0
    assert trace.product.loc[1074, "p"] == SMALLEST_FLOAT  # 2**-1074, the last subnormal
    assert trace.precision_lost_step["p"] == 1023          # below 2**-1022, fewer digits
    assert trace.final_product["p"] == 0.0
    assert trace.final_log["p"] == pytest.approx(1200 * math.log(0.5), rel=1e-12)


def test_factors_until_underflow_matches_a_plain_loop():
    for p in (0.5, 0.1, 1e-4, 0.3):
        value, n = 1.0, 0
        while value > 0.0:
            value *= p
            n += 1
        assert factors_until_underflow(p) == n


def test_a_factor_above_one_half_never_reaches_zero():
    # SMALLEST_FLOAT * 0.9 rounds back up to SMALLEST_FLOAT: the product sticks there.
    assert factors_until_underflow(0.9) is None
    with pytest.raises(DataError, match="strictly between 0 and 1"):
        factors_until_underflow(1.0)


def test_two_classes_both_underflow_raw_posterior_is_nan_log_posterior_is_not():
    steps = pd.DataFrame({"ham": [0.01] * 400, "spam": [0.02] * 400})
    trace = underflow_trace(steps)
    assert trace.underflowed
    assert trace.underflow_step.notna().all()
    assert trace.raw_posterior.isna().all()                # 0 / 0
    # exact: P(spam | x) = 1 / (1 + (1/2)**400)
    assert trace.log_posterior["ham"] == pytest.approx(0.5 ** 400, rel=1e-9)
    assert trace.log_posterior["spam"] == 1.0


def test_short_products_agree_with_the_logs():
    trace = underflow_trace([0.2, 0.5, 0.9])
    np.testing.assert_allclose(trace.product["p"], [0.2, 0.1, 0.09])
    np.testing.assert_allclose(np.exp(trace.log_sum["p"]), trace.product["p"])
    assert not trace.underflowed
    assert trace.underflow_step.isna().all()


def test_a_zero_factor_is_not_called_underflow():
    trace = underflow_trace([0.5, 0.0, 0.5])
    assert trace.final_log["p"] == -math.inf
    assert trace.underflow_step.isna().all()


def test_explanation_trace_starts_with_the_prior_and_matches_the_joint():
    ex = example("tennis14")
    model = nbapp.NaiveBayes(features=ex.features, alpha=1.0).fit(load_example("tennis14"),
                                                                  target="Play")
    e = model.explain(ex.query)
    trace = underflow_trace(e)
    assert trace.labels.tolist() == ["prior", "Outlook", "Temperature", "Humidity", "Wind"]
    np.testing.assert_allclose(trace.final_log[e.classes].to_numpy(), e.joint_log.to_numpy())
    assert trace.final_product["Yes"] == pytest.approx(15 / 1694)   # seed 000, ex. 2.1, l = 1
    np.testing.assert_allclose(trace.log_posterior[e.classes], e.posterior)


def test_long_document_expands_to_one_factor_per_token_and_underflows():
    # Counts in a multinomial block: a long "document" of 30 count columns.
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(30)]
    train = pd.DataFrame(rng.poisson(20, size=(60, 30)), columns=words)
    train["y"] = np.repeat(["a", "b"], 30)
    model = nbapp.NaiveBayes(features={w: "multinomial" for w in words}).fit(train, target="y")
    doc = pd.Series(rng.poisson(40, size=30), index=words)
    e = model.explain(doc)
    logs = explanation_log_factors(e)
    assert len(logs) == 1 + int(doc.sum())                  # prior + one row per token
    trace = underflow_trace(e)
    assert trace.underflowed and trace.raw_posterior.isna().all()
    np.testing.assert_allclose(trace.final_log[e.classes].to_numpy(), e.joint_log.to_numpy(),
                               rtol=1e-10)
    np.testing.assert_allclose(trace.log_posterior[e.classes], e.posterior, rtol=1e-9)


def test_negative_probability_is_refused():
    with pytest.raises(DataError, match="finite probability or density >= 0"):
        underflow_trace([0.5, -0.1])
    with pytest.raises(DataError, match="no factors"):
        underflow_trace([])


def test_a_bad_factor_is_named_by_step_and_fix():
    with pytest.raises(DataError, match=r"step 2 \(factor 1, column 'p'\) is nan; replace it, or drop that factor"):
        underflow_trace([0.5, float("nan")])
