"""The notes' form of the linear classifier (seed 000, Eq. 17-20) asks each type for its part
(issue 22): every type gets its own label (KDE, Poisson, discretized and text were all "MULT",
text with no weights at all), and w . x + b equals the model's log-odds on observed rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp
from mixed_data import TYPES, mixed_frame
from nbapp import DataError

LINEAR = {c: t for c, t in TYPES.items() if t != "kde"}


@pytest.fixture(scope="module")
def two_classes():
    df = mixed_frame(4, 600)
    df = df[df["y"] != "eggs"].dropna(subset=["colour", "size", "words"])
    return df, nbapp.NaiveBayes(LINEAR, alpha=1).fit(df, "y")


def test_each_type_labels_its_own_part_of_the_notes_form(two_classes):
    _, model = two_classes
    notes = model.linear_form().notes_form()
    assert notes.kinds == ("CAT", "BER", "Poisson", "MULT", "GNB")
    labels = {column: part.label for column, part in zip(model.linear_form()._columns(), notes.terms)}
    assert labels["band"] == "CAT" and labels["visits"] == "Poisson" and labels["words"] == "MULT"
    names = list(notes.weights.index)
    assert [n for n in names if n.startswith("band")] == [f"band = {v}" for v in model.cpt("band").index]
    assert [n for n in names if n.startswith("words")] == [f"words: {w}" for w in model.cpt("words").index]
    assert "visits" in names and "visits observed" not in names     # its constant went into b
    assert notes.ones == {"flag": "yes"}


def test_the_notes_form_is_the_model_s_log_odds_on_observed_rows(two_classes):
    df, model = two_classes
    form = model.linear_form()
    notes = form.notes_form()
    log_odds = model.predict_log_proba(df)
    np.testing.assert_allclose(notes.decision_function(df), log_odds["spam"] - log_odds["ham"], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(notes.decision_function(df), form.decision_function(df), rtol=1e-9, atol=1e-9)


def test_a_bernoulli_text_column_is_ber_with_its_absent_words_in_b():
    df = pd.DataFrame({"t": ["buy now", "free money", "hello friend", "see you now", "buy money", "hi there"],
                       "y": ["spam", "spam", "ham", "ham", "spam", "ham"]})
    model = nbapp.NaiveBayes({"t": nbapp.Text(event_model="bernoulli")}).fit(df, "y")
    notes = model.linear_form().notes_form()
    assert notes.kinds == ("BER",) and "t: buy" in notes.weights.index
    log_odds = model.predict_log_proba(df)
    np.testing.assert_allclose(notes.decision_function(df), log_odds["spam"] - log_odds["ham"], rtol=1e-9)


def test_a_kde_column_makes_the_linear_form_refuse_with_its_sentence():
    df = mixed_frame(4, 200)
    model = nbapp.NaiveBayes({"skew": "kde", "flag": "bernoulli"}).fit(df[df["y"] != "eggs"], "y")
    with pytest.raises(DataError, match="'skew' is a KDE: its log-density ratio is not linear"):
        model.linear_form()
