"""The Gaussian epsilon (issue 13): which column sets it, the real variances it swamps, and a
per-feature epsilon that keeps one huge column (biopsy's ID) from blurring the others;
scikit-learn's global epsilon stays the default."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB

import nbapp
from conftest import biopsy_like
from nbapp import DataError, NaiveBayes
from nbapp.evaluate import cross_validate

SCORES = [f"V{j}" for j in range(1, 10)]


def _fit(frame: pd.DataFrame, **kwargs) -> NaiveBayes:
    return NaiveBayes({c: "gaussian" for c in ["ID", *SCORES]}, **kwargs).fit(frame, "class")


def test_epsilon_names_the_column_that_set_it_and_its_value():
    frame = biopsy_like()
    eps = _fit(frame).gaussian_epsilon()
    assert eps.column == "ID" and eps.mode == "global"
    assert eps.value == pytest.approx(1e-9 * frame["ID"].var(ddof=0), rel=1e-12)
    assert eps.value > 100                                  # biopsy: about 380
    assert (eps.by_column == eps.value).all()


def test_a_global_epsilon_above_real_variances_is_warned():
    eps = _fit(biopsy_like()).gaussian_epsilon()
    assert set(eps.swamped["column"]) == set(SCORES)        # every score, in both classes
    assert (eps.swamped["variance"] < eps.swamped["epsilon"]).all()
    assert len(eps.notes) == 1 and "set by column 'ID'" in eps.notes[0]
    assert "per_feature" in eps.notes[0]


def test_per_feature_epsilon_scales_each_column_by_its_own_variance():
    frame = biopsy_like()
    m = _fit(frame, var_smoothing_mode="per_feature")
    eps = m.gaussian_epsilon()
    expected = 1e-9 * frame[["ID", *SCORES]].var(ddof=0)
    np.testing.assert_allclose(eps.by_column.to_numpy(), expected.to_numpy(), rtol=1e-10)
    assert eps.swamped.empty and eps.notes == ()
    # the variance table adds the column's own epsilon
    table = m.gaussian("V1")
    np.testing.assert_allclose(table["var"], table["var_raw"] + expected["V1"], rtol=1e-12)


def test_per_feature_epsilon_keeps_the_accuracy_the_global_one_loses():
    frame = biopsy_like()
    features = {c: "gaussian" for c in ["ID", *SCORES]}
    glob = cross_validate(lambda: NaiveBayes(features), frame, "class", k=5).scores.accuracy
    own = cross_validate(lambda: NaiveBayes(features, var_smoothing_mode="per_feature"),
                         frame, "class", k=5).scores.accuracy
    without_id = cross_validate(lambda: NaiveBayes({c: "gaussian" for c in SCORES}),
                                frame, "class", k=5).scores.accuracy
    assert own > glob + 0.03
    assert own == pytest.approx(without_id, abs=0.01)


def test_the_default_still_equals_gaussiannb_on_the_dominated_data():
    frame = biopsy_like()
    cols = ["ID", *SCORES]
    ref = GaussianNB().fit(frame[cols].to_numpy(dtype=float), frame["class"].to_numpy())
    m = _fit(frame)
    assert m.gaussian_epsilon().value == pytest.approx(ref.epsilon_, rel=1e-12)
    np.testing.assert_allclose(m.predict_proba(frame).to_numpy(),
                               ref.predict_proba(frame[cols].to_numpy(dtype=float)), atol=1e-10)


def test_the_mode_survives_a_model_file_and_old_files_read_as_global():
    m = _fit(biopsy_like(), var_smoothing_mode="per_feature")
    back = NaiveBayes.from_json(m.to_json())
    assert back.var_smoothing_mode == "per_feature"
    doc = json.loads(m.to_json())
    del doc["settings"]["var_smoothing_mode"]
    assert NaiveBayes.from_json(json.dumps(doc)).var_smoothing_mode == "global"


def test_an_unknown_mode_and_a_model_without_gaussians_are_refused():
    with pytest.raises(DataError, match="var_smoothing_mode must be one of global, per_feature"):
        NaiveBayes({"a": "gaussian"}, var_smoothing_mode="local")
    tennis = nbapp.load_example("tennis14")
    m = NaiveBayes({"Outlook": "categorical"}).fit(tennis, "Play")
    with pytest.raises(DataError, match="no Gaussian features"):
        m.gaussian_epsilon()
