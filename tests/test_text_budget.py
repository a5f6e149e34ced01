"""A text column's distinct terms are budgeted whatever the number of classes, and no model file is
written that the loader would refuse (issue 21: a 26 MB corpus of unique tokens, 1-3-grams,
2 classes took 4.7 GB and wrote a 369 MB model the app then refused to open)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from nbapp import DataError, NaiveBayes, Text
from nbapp.blocks import text as text_block
from nbapp.blocks.text import TextStats
from nbapp.persist import MAX_BYTES
from nbapp.stats import ModelStats
from nbapp.text import TextOptions, TooManyTerms, fit_vocabulary
from nbapp.text import pipeline

TRIGRAMS = TextOptions(ngram_range=(1, 3))


def unique_tokens(n: int, seed: int = 0) -> np.ndarray:
    """n distinct-looking 8-letter tokens (random letters: repeats are negligible)."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return letters[np.random.default_rng(seed).integers(0, 26, (n, 8))].view("<U8").ravel()


def corpus(n_tokens: int, per_doc: int = 50) -> pd.DataFrame:
    tokens = unique_tokens(n_tokens)
    docs = [" ".join(tokens[i:i + per_doc]) for i in range(0, n_tokens, per_doc)]
    return pd.DataFrame({"text": docs, "label": ["ham", "spam"] * (len(docs) // 2) + ["ham"] * (len(docs) % 2)})


def counted(message: str) -> int:
    return int(re.search(r"; ([\d,]+) counted in the first", message).group(1).replace(",", ""))


def test_two_classes_reach_the_term_budget_and_the_sentence_says_what_to_do(monkeypatch):
    monkeypatch.setattr(text_block, "MAX_TERMS", 3_000)
    frame = corpus(3_000)                                   # about 9,000 distinct 1-3-grams
    with pytest.raises(DataError) as caught:
        NaiveBayes({"text": Text(TRIGRAMS)}).fit(frame, "label")
    message = str(caught.value)
    assert message.startswith("Column 'text' has more than 3,000 distinct terms (1- to 3-grams of words;")
    assert "min_df and max_features choose the vocabulary from these counts and do not lower them" in message
    assert "Use fewer distinct terms: words only, ngram_range (1, 1), or fewer documents." in message


def test_the_refusal_comes_after_the_first_chunk_past_the_budget(monkeypatch):
    # terms are counted chunk by chunk as they are found: the fit stops within one chunk of the budget
    monkeypatch.setattr(text_block, "MAX_TERMS", 3_000)
    monkeypatch.setattr(pipeline, "_CHUNK_CHARS", 4_500)     # 10 documents of 50 tokens: 1,470 terms
    chunks = []
    original = pipeline._Pass.terms

    def spy(self, texts):
        chunks.append(len(texts))
        return original(self, texts)

    monkeypatch.setattr(pipeline._Pass, "terms", spy)
    with pytest.raises(DataError) as caught:
        NaiveBayes({"text": Text(TRIGRAMS)}).fit(corpus(50_000), "label")   # 1,000 documents
    assert 3_000 < counted(str(caught.value)) <= 3_000 + 1_470
    assert sum(chunks) <= 40                                  # of 1,000 documents


def test_steps_under_the_budget_are_refused_when_together_they_pass_it(monkeypatch):
    monkeypatch.setattr(text_block, "MAX_TERMS", 3_000)
    monkeypatch.setattr(text_block, "_DOCS_PER_STEP", 10)    # 10 documents: 1,470 terms a step
    with pytest.raises(DataError, match=r"more than 3,000 distinct terms .* counted in the first 30 of its"):
        NaiveBayes({"text": Text(TRIGRAMS)}).fit(corpus(10_000), "label")


def test_a_fit_under_the_budget_is_unchanged(monkeypatch):
    monkeypatch.setattr(text_block, "MAX_TERMS", 3_000)
    frame = corpus(900)                                       # 2,640 distinct terms
    model = NaiveBayes({"text": Text(TRIGRAMS)}).fit(frame, "label")
    assert len(model.block_of("text").terms) == len(fit_vocabulary(frame["text"].tolist(), TRIGRAMS)[0])


def test_fit_vocabulary_stops_at_max_terms():
    docs = corpus(3_000)["text"].tolist()
    with pytest.raises(TooManyTerms) as caught:
        fit_vocabulary(docs, TRIGRAMS, max_terms=100)
    assert caught.value.limit == 100 and caught.value.found > 100
    assert len(fit_vocabulary(docs, TRIGRAMS, max_terms=10_000)[0]) > 8_000


def two_class_model(terms: list[str]) -> NaiveBayes:
    n = len(terms)
    counts = np.zeros((n, 2))
    counts[np.arange(n), np.arange(n) % 2] = 1.0
    stats = ModelStats(("ham", "spam"), np.array([5_000.0, 5_000.0]),
                       (TextStats(tuple(terms), counts, counts.copy(), np.array([5_000.0, 5_000.0])),))
    return NaiveBayes({"text": Text(TRIGRAMS)}).fit_stats(stats, "label")


def test_the_default_budget_gives_a_two_class_model_the_loader_accepts():
    # a model at the budget holds the 1-3-grams of unique 8-letter tokens in 2 classes; its file
    # grows by the same bytes per term, so its size is measured on 1% and 2% of them (writing
    # the whole 22 MB file takes a quarter of a minute on a loaded machine)
    n = text_block.MAX_TERMS
    tokens = unique_tokens(n // 3 + 2).tolist()
    terms = (tokens + [f"{a} {b}" for a, b in zip(tokens, tokens[1:])]
             + [f"{a} {b} {c}" for a, b, c in zip(tokens, tokens[1:], tokens[2:])])[:n]
    one, two = (len(two_class_model(terms[::step]).to_json()) for step in (100, 50))
    per_term = (two - one) / (n // 50 - n // 100)
    size = one + (n - n // 100) * per_term
    assert 35 <= per_term <= 50                  # "abcdefgh ijklmnop", [1.0, 0.0] twice
    assert size < 0.75 * MAX_BYTES, f"{size / 2**20:.1f} MB"


def test_a_model_the_loader_would_refuse_is_never_written(monkeypatch, tmp_path):
    frame = corpus(600)
    model = NaiveBayes({"text": Text(TRIGRAMS), "n": "gaussian"}).fit(frame.assign(n=1.0 * np.arange(len(frame))),
                                                                        "label")
    text = model.to_json()
    monkeypatch.setattr("nbapp.persist.MAX_BYTES", len(text) - 1)
    with pytest.raises(DataError, match=r"beyond the 0 MB a model file may have, so nbapp would not open it again; "
                                        r"it was not saved\. Column 'text' takes"):
        model.to_json()
    monkeypatch.setattr("nbapp.persist.MAX_BYTES", len(text))
    assert NaiveBayes.from_json(model.to_json()).predict(frame).tolist() == model.predict(frame).tolist()


def test_the_model_page_shows_the_sentence_instead_of_a_file_the_loader_would_refuse(monkeypatch):
    from apptest_helpers import open_page, start

    monkeypatch.setattr("nbapp.persist.MAX_BYTES", 1_000)
    at = open_page(start("sms_spam"), "Model")
    assert any("it was not saved. Column 'text' takes" in re.sub(r"\\(.)", r"\1", e.value) for e in at.error)
    assert not [b for b in at.get("download_button") if "model" in str(b.proto.label).lower()]
