"""Issue 14 (the lecture on one screen): library pieces behind the teaching views."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

import nbapp
from nbapp.examples import example, load_example
from nbapp.smoothing import cell_terms


def _tennis(**settings) -> nbapp.NaiveBayes:
    return nbapp.NaiveBayes(example("tennis14").features, **settings).fit(load_example("tennis14"), target="Play")


def test_m_estimate_with_given_p_is_seed_003_form_by_default():
    # (n_y + m p) / (n + m): Overcast | No = (0 + 1) / (5 + 2) = 1/7, Overcast | Yes = (4 + 1) / (9 + 2) = 5/11
    cpt = _tennis(smoothing=nbapp.MEstimate(2, p=0.5)).cpt("Outlook", exact=True)
    assert cpt.loc["Overcast", "No"] == F(1, 7)
    assert cpt.loc["Overcast", "Yes"] == F(5, 11)
    assert _tennis(smoothing=nbapp.MEstimate(2, p=0.5)).cpt("Outlook").loc["Overcast", "No"] == pytest.approx(1 / 7)


def test_normalised_m_estimate_divides_by_n_plus_k_m_p():
    cpt = _tennis(smoothing=nbapp.MEstimate(2, p=0.5, normalised=True)).cpt("Outlook", exact=True)
    assert cpt.loc["Overcast", "No"] == F(1, 8)
    assert cpt.loc["Overcast", "Yes"] == F(5, 12)
    assert sum(cpt["No"]) == 1


def test_m_estimate_forms_agree_when_p_is_one_over_k():
    a = _tennis(smoothing=nbapp.MEstimate(3)).cpt("Outlook", exact=True)
    b = _tennis(smoothing=nbapp.MEstimate(3, normalised=True)).cpt("Outlook", exact=True)
    assert a.equals(b)


def test_m_estimate_form_survives_json_and_old_files_keep_their_meaning():
    model = _tennis(smoothing=nbapp.MEstimate(2, p=0.5))
    again = nbapp.NaiveBayes.from_json(model.to_json())
    assert again.smoothing == nbapp.MEstimate(2, p=0.5)
    data = json.loads(model.to_json())
    del data["settings"]["smoothing"]["normalised"]          # a file written before the option existed
    old = nbapp.NaiveBayes.from_json(json.dumps(data))
    assert old.smoothing.normalised is True
    assert old.cpt("Outlook", exact=True).loc["Overcast", "No"] == F(1, 8)


def test_m_estimate_refuses_a_non_boolean_normalised():
    with pytest.raises(nbapp.DataError, match="normalised"):
        nbapp.MEstimate(2, p=0.5, normalised="yes")


def test_cell_terms_keep_the_counts_unreduced():
    import numpy as np

    terms = cell_terms(np.array([[3.0, 4.0], [6.0, 1.0]]), 0, 0, nbapp.Lidstone(0))
    assert (terms.numerator, terms.denominator, terms.value) == (3, 9, F(1, 3))
    terms = cell_terms(np.array([[0.0, 4.0], [5.0, 1.0], [0.0, 4.0]]), 0, 0, nbapp.MEstimate(2, p=0.5))
    assert (terms.numerator, terms.denominator) == (1, 7)
