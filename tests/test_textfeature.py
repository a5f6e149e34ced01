"""The text feature of the model: seed examples by hand, explanations that add up, scale."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.text.stopwords import ENGLISH_STOP_WORDS
from nbapp.text import TextOptions

from conftest import SAMPLES

# A lecture-style stop-word list for seed 000 ex. 2.2 (the seed says "perform stopword filtering").
STOP = frozenset({"this", "is", "these", "are", "me", "they", "my", "off", "of", "a",
                  "just", "had", "ever", "it", "was", "first"})


@pytest.fixture
def sentiment() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "sentiment.csv")


def test_seed000_sentiment_with_stop_words_and_laplace_by_hand(sentiment):
    spec = nbapp.Text(options=TextOptions(stop_words=STOP))
    m = nbapp.NaiveBayes({"text": spec}, alpha=1).fit(sentiment, target="sentiment")
    e = m.explain({"text": "just had my first cheeto ever it was awesome"})
    # After stop words: positive has 6 tokens, negative 13, vocabulary 19; the test text is "cheeto awesome".
    pos = Fraction(2, 6) * Fraction(0 + 1, 6 + 19) * Fraction(1 + 1, 6 + 19)
    neg = Fraction(4, 6) * Fraction(1 + 1, 13 + 19) * Fraction(0 + 1, 13 + 19)
    assert e.joint_fractions["positive"] == pos and e.joint_fractions["negative"] == neg
    assert e.posterior["positive"] == pytest.approx(float(pos / (pos + neg)))
    assert e.prediction == "negative"
    assert set(e.words["text"]["term"]) == {"cheeto", "awesome"}


def test_seed004_per_class_vocabulary_with_unk_by_hand():
    docs = pd.DataFrame({"text": ["a b b", "b c"], "y": ["A", "B"]})
    m = nbapp.NaiveBayes({"text": nbapp.Text(vocabulary="per_class_unk")}, alpha=1).fit(docs, target="y")
    e = m.explain({"text": "a c d"})
    # A: n = 3, V_A = 2 -> denominator 3 + 1 (2 + 1) = 6; B: n = 2, V_B = 2 -> 5.
    joint_a = Fraction(1, 2) * Fraction(1 + 1, 6) * Fraction(1, 6) * Fraction(1, 6)   # a, UNK(c), UNK(d)
    joint_b = Fraction(1, 2) * Fraction(1, 5) * Fraction(1 + 1, 5) * Fraction(1, 5)   # UNK(a), c, UNK(d)
    assert np.exp(e.joint_log["A"]) == pytest.approx(float(joint_a))
    assert np.exp(e.joint_log["B"]) == pytest.approx(float(joint_b))
    statuses = dict(zip(e.words["text"]["term"], e.words["text"]["status"]))
    assert statuses["d"] == "UNK"


@pytest.mark.parametrize("spec", [
    nbapp.Text(), nbapp.Text(event_model="bernoulli"), nbapp.Text(vocabulary="per_class_unk"),
    nbapp.Text(complement=True), nbapp.Text(options=TextOptions(stop_words=STOP, stem=True, ngram_range=(1, 2))),
])
def test_word_contributions_add_up_to_the_factor_and_the_posterior(spec):
    sms = nbapp.load_example("sms_spam").head(800)
    m = nbapp.NaiveBayes({"text": spec}).fit(sms, target="label")
    proba = m.predict_proba(sms.head(20))
    for i in range(20):
        e = m.explain({"text": sms["text"].iloc[i]})
        words = e.words["text"]
        total = words[[f"contribution[{c}]" for c in m.classes_]].sum().to_numpy()
        assert total == pytest.approx(e.logs.loc["text"].to_numpy(), rel=1e-12)
        assert e.posterior.to_numpy() == pytest.approx(proba.iloc[i].to_numpy(), rel=1e-9, abs=1e-12)


def test_missing_and_empty_documents():
    docs = pd.DataFrame({"text": ["good fun", None, "", "bad awful"], "y": ["p", "p", "n", "n"]})
    m = nbapp.NaiveBayes({"text": "text"}).fit(docs, target="y")
    assert m.explain({"text": None}).factors.loc["text", "status"] == "missing"
    assert m.explain({"text": None}).posterior.to_numpy() == pytest.approx(m.priors_.to_numpy())
    assert np.isfinite(m.predict_proba(docs).to_numpy()).all()


def test_a_100000_token_document_does_not_underflow():
    sms = nbapp.load_example("sms_spam")
    m = nbapp.NaiveBayes({"text": "text"}).fit(sms, target="label")
    words = " ".join(sms["text"].head(400)).split()
    doc = " ".join((words * (100_000 // len(words) + 1))[:100_000])
    e = m.explain({"text": doc})
    assert np.isfinite(e.joint_log).all() and e.joint_log.max() < -1e4    # the raw product is 0.0 ...
    assert (e.joint == 0).all()
    assert e.posterior.sum() == pytest.approx(1.0)                          # ... the posterior is not
    assert e.prediction in m.classes_


def test_text_mixes_with_other_feature_types():
    sms = nbapp.load_example("sms_spam").head(500).copy()
    sms["length"] = sms["text"].str.len()
    sms["has_digit"] = sms["text"].str.contains(r"\d").map({True: "yes", False: "no"})
    m = nbapp.NaiveBayes({"text": "text", "length": "gaussian", "has_digit": "bernoulli"}).fit(sms, target="label")
    e = m.explain(sms.drop(columns="label").iloc[0])
    assert list(e.factors.index) == ["prior", "text", "length", "has_digit"]
    assert e.posterior.to_numpy() == pytest.approx(m.predict_proba(sms.head(1)).iloc[0].to_numpy())
    back = nbapp.NaiveBayes.from_json(m.to_json())
    pd.testing.assert_frame_equal(back.predict_proba(sms), m.predict_proba(sms))


def test_partial_fit_of_a_pruned_vocabulary_equals_one_fit():
    sms = nbapp.load_example("sms_spam").head(600)
    spec = nbapp.Text(options=TextOptions(min_df=3, max_features=300))
    one = nbapp.NaiveBayes({"text": spec}).fit(sms, target="label")
    parts = nbapp.NaiveBayes({"text": spec})
    for start in range(0, 600, 150):
        parts.partial_fit(sms.iloc[start:start + 150], target="label")
    pd.testing.assert_frame_equal(parts.cpt("text"), one.cpt("text"))
    np.testing.assert_allclose(parts.predict_proba(sms), one.predict_proba(sms), rtol=1e-12)


def test_top_words_per_class():
    sms = nbapp.load_example("sms_spam")
    m = nbapp.NaiveBayes({"text": nbapp.Text(options=TextOptions(stop_words=ENGLISH_STOP_WORDS))}).fit(
        sms, target="label")
    top = m.top_words("text", n=5)
    assert list(top.columns) == ["class", "rank", "term", "count", "probability", "log_weight"]
    cpt = m.cpt("text")
    first = top.iloc[0]
    assert first["probability"] == pytest.approx(cpt.loc[first["term"], first["class"]])
    spam = top[top["class"] == "spam"]
    assert list(spam["rank"]) == [1, 2, 3, 4, 5] and spam["log_weight"].is_monotonic_decreasing
    assert {"call", "free"} <= set(spam["term"])


def test_a_corpus_of_stop_words_only_is_refused_by_column():
    docs = pd.DataFrame({"text": ["the of a", "is it the"], "y": ["p", "n"]})
    with pytest.raises(nbapp.DataError, match="Column 'text' has no words left"):
        nbapp.NaiveBayes({"text": nbapp.Text(options=TextOptions(stop_words=ENGLISH_STOP_WORDS))}).fit(docs, "y")


@pytest.mark.parametrize("spec", [nbapp.Text(event_model="bernoulli"), nbapp.Text(complement=True),
                                  nbapp.Text(vocabulary="per_class_unk")])
def test_top_words_probabilities_are_probabilities_for_every_event_model(spec):
    m = nbapp.NaiveBayes({"text": spec}).fit(nbapp.load_example("sms_spam"), target="label")
    top = m.top_words("text", n=10)
    assert ((top["probability"] > 0) & (top["probability"] <= 1)).all()
    assert top.groupby("class")["probability"].apply(lambda p: p.is_monotonic_decreasing).all()


def test_missing_columns_names_what_an_imported_model_needs():
    sent = pd.read_csv(SAMPLES / "sentiment.csv")
    m = nbapp.NaiveBayes({"text": "text"}).fit(sent, target="sentiment")
    assert m.missing_columns(sent) == []
    assert m.missing_columns(pd.DataFrame({"x": [1]})) == ["sentiment", "text"]
