"""Issue 31, item 3: an n-gram range is a few bytes that name a size. TextOptions bounds max_n by the
one constant the app's choices use, and the n-gram builders count the terms and characters they
would make before they make a string."""

from __future__ import annotations


import numpy as np
import pytest

from nbapp.errors import DataError
from nbapp.text import MAX_NGRAM_N, NgramsTooLarge, TextOptions, TooManyTerms, term_occurrences
from nbapp.text._document import _word_ngrams, analyze
from nbapp.text._tokenising import _Pass, _with_ngrams
from nbapp.text.matching import tokenising_job
from ui.views.text import NGRAMS
from peak_memory import peak_mb


def _words(n: int, seed: int = 0) -> list[str]:
    """n random lowercase words of 3-8 letters (nearly all distinct)."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return ["".join(rng.choice(letters, size=rng.integers(3, 9))) for _ in range(n)]


@pytest.mark.parametrize("ngram_range", [(1, 1500), [1, 1500], (1, 4), (4, 4)])
def test_text_options_refuse_n_grams_beyond_the_bound_and_say_the_range(ngram_range):
    with pytest.raises(DataError, match=r"n-grams go up to 3 words \(1 <= min_n <= max_n <= 3\), e\.g\. \(1, 2\)"):
        TextOptions(ngram_range=ngram_range)
    with pytest.raises(DataError, match=r"n-grams go up to 3 words"):
        TextOptions.from_dict({"ngram_range": list(ngram_range)})


def test_the_app_offers_exactly_the_n_grams_the_library_allows():
    assert MAX_NGRAM_N == 3
    assert list(NGRAMS) == list(range(1, MAX_NGRAM_N + 1))
    assert TextOptions(ngram_range=(1, MAX_NGRAM_N)).ngram_range == (1, 3)


def test_one_1500_word_document_with_a_1500_gram_range_is_refused_before_its_strings_are_built():
    # issue 31: 339 -> 3,344 MB in 5 s in the server; the builders must count first
    words = _words(1500)
    peak, caught = peak_mb(lambda: _word_ngrams(words, (1, 1500)))
    assert isinstance(caught, NgramsTooLarge), caught
    assert "use an ngram_range with max_n at most 3, e.g. (1, 2)" in str(caught)
    assert peak < 2, f"{peak:.1f} MB"


def test_the_chunk_builder_refuses_a_1500_gram_range_before_its_strings_are_built():
    with tokenising_job():
        terms = _Pass(TextOptions()).terms([" ".join(_words(1500))])
    peak, caught = peak_mb(lambda: _with_ngrams(terms, (1, 1500)))
    assert isinstance(caught, NgramsTooLarge), caught
    assert peak < 2, f"{peak:.1f} MB"


def test_trigrams_stay_within_the_budget_and_equal_the_reference():
    doc = " ".join(_words(1500))
    with tokenising_job():
        terms = _Pass(TextOptions(ngram_range=(1, 3))).terms([doc])
    built = sorted(terms.types[i] for i in terms.type_id.tolist())
    assert built == sorted(analyze(doc, TextOptions(ngram_range=(1, 3))))


def test_a_chunk_past_max_terms_is_refused_before_its_n_gram_strings_are_made():
    # 150,000 distinct words: unigrams alone pass max_terms once their bigrams are counted; the
    # bigram and trigram strings (~300,000 Python strings, some 25 MB) must never be made
    doc = " ".join(_words(150_000, seed=1))
    options = TextOptions(ngram_range=(1, 3))
    with tokenising_job():
        base, _ = peak_mb(lambda: list(term_occurrences([doc], TextOptions(), {})))
        peak, caught = peak_mb(lambda: list(term_occurrences([doc], options, {}, max_terms=200_000)))
    assert isinstance(caught, TooManyTerms) and caught.limit == 200_000, caught
    assert peak < base + 8, f"{peak:.1f} MB with n-grams, {base:.1f} MB for the words alone"
