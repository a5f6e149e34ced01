"""Word-level views: informative words, Zipf ranks, a document token by token."""

from __future__ import annotations

import numpy as np
import pytest

import nbapp
from nbapp.text.stopwords import ENGLISH_STOP_WORDS
from nbapp.text import TextOptions
from nbapp.text.words import document_tokens, informative_words, zipf_table


@pytest.fixture(scope="module")
def spam_model():
    sms = nbapp.load_example("sms_spam")
    spec = nbapp.Text(options=TextOptions(stop_words=ENGLISH_STOP_WORDS))
    return nbapp.NaiveBayes({"text": spec}).fit(sms, target="label")


def test_informative_words_are_log_ratios_of_the_cpt(spam_model):
    table = informative_words(spam_model, "text", "spam", "ham", n=5)
    cpt = spam_model.cpt("text")
    top = table.iloc[0]
    assert top["log_ratio"] == pytest.approx(np.log(cpt.loc[top["term"], "spam"] / cpt.loc[top["term"], "ham"]))
    assert table["log_ratio"].iloc[0] > 0 > table["log_ratio"].iloc[-1]


def test_zipf_counts_fall_with_rank(spam_model):
    table = zipf_table(spam_model, "text")
    for _, group in table.groupby("class"):
        assert group["count"].is_monotonic_decreasing and group["rank"].iloc[0] == 1


def test_document_tokens_mark_removed_and_unseen_and_sum_to_the_log_odds(spam_model):
    doc = "FREE entry in the zzqxw prize"
    tokens = document_tokens(spam_model, "text", doc, "spam", "ham")
    status = dict(zip(tokens["token"], tokens["status"]))
    assert status["the"] == "removed" and status["zzqxw"] == "unseen" and status["FREE"] == "used"
    e = spam_model.explain({"text": doc})
    assert tokens["log_odds"].sum() == pytest.approx(e.logs.loc["text", "spam"] - e.logs.loc["text", "ham"])


def test_document_tokens_read_an_nfd_typed_word_as_the_word_the_model_counted():
    import pandas as pd

    train = pd.DataFrame({"text": ["caf\u00e9 latte", "caf\u00e9 crema", "tea time", "tea cup"],
                          "label": ["coffee", "coffee", "tea", "tea"]})
    model = nbapp.NaiveBayes({"text": "text"}).fit(train, target="label")
    doc = "Cafe\u0301 latte"                                   # typed decomposed (NFD)
    tokens = document_tokens(model, "text", doc, "coffee", "tea")
    assert tokens[["token", "term", "status"]].values.tolist() == [
        ["Caf\u00e9", "caf\u00e9", "used"], ["latte", "latte", "used"]]
    e = model.explain({"text": doc})
    assert tokens["log_odds"].sum() == pytest.approx(e.logs.loc["text", "coffee"] - e.logs.loc["text", "tea"])


def test_informative_words_take_n_by_keyword_only(spam_model):
    with pytest.raises(TypeError):
        informative_words(spam_model, "text", "spam", "ham", 5)
    assert len(informative_words(spam_model, "text", "spam", "ham", n=2)) == 4


def test_a_column_that_is_not_text_is_refused_with_the_fix():
    tennis = nbapp.load_example("tennis14")
    model = nbapp.NaiveBayes({"Outlook": "categorical"}).fit(tennis, target="Play")
    with pytest.raises(nbapp.DataError, match="'Outlook' is categorical, not text; give the model a text feature"):
        zipf_table(model, "Outlook")
