"""Tests for nbapp.text: scikit-learn equivalence, each pipeline step, pruning, scale."""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import CountVectorizer

from nbapp.errors import DataError
from nbapp.text.stopwords import ENGLISH_STOP_WORDS
from nbapp.text import (
    PipelineStep,
    TextOptions,
    analyze,
    count_matrix,
    fit_vocabulary,
    pipeline_steps,
    token_terms,
    tokens_and_types,
    unseen_counts,
)

SMS = Path("/work/shared/data/sms_spam_collection.tsv")

UNICODE_DOCS = [
    "Café crème, naïve façade — ÉCOLE d'été",
    "Straße STRASSE ǅemal İstanbul ΟΔΟΣ όδος",
    "日本語のテキスト と 中文 文本, 한국어 텍스트",
    "emoji 🙂 mixed_with_underscores 42 ٣٤ ²³ ½",
    "Ünïcödé   tabs\tand\nnewlines\r\n and NUL\x00inside",
    "",
    "x" * 300 + " long token then short",
    "résumé RÉSUMÉ resume",
]


@pytest.fixture(scope="module")
def sms_docs() -> list[str]:
    if not SMS.exists():
        pytest.skip("the SMS corpus is not available")
    lines = SMS.read_text(encoding="utf-8").splitlines()
    return [line.split("\t", 1)[1] for line in lines if "\t" in line]


def assert_same_as_sklearn(docs: list[str], options: TextOptions, **sk_kwargs) -> None:
    vocabulary, counts = fit_vocabulary(docs, options)
    cv = CountVectorizer(token_pattern=options.token_pattern, **sk_kwargs)
    expected = cv.fit_transform(docs)
    assert vocabulary == list(cv.get_feature_names_out())
    assert counts.dtype == np.int64
    assert counts.shape == expected.shape
    assert (counts != expected).nnz == 0
    again = count_matrix(docs, {t: i for i, t in enumerate(vocabulary)}, options)
    assert (again != cv.transform(docs)).nnz == 0


def test_default_options_match_countvectorizer_on_sms(sms_docs):
    assert_same_as_sklearn(sms_docs, TextOptions())


def untied_limit(docs: list[str], options: TextOptions, limit: int) -> int:
    """The largest max_features <= limit whose cut falls between two different counts:
    scikit-learn breaks count ties with an unstable argsort, we break them alphabetically."""
    _, counts = fit_vocabulary(docs, options)
    totals = np.sort(np.asarray(counts.sum(axis=0)).ravel())[::-1]
    while totals[limit - 1] == totals[limit]:
        limit -= 1
    return limit


def test_bigrams_min_df_max_features_and_stop_words_match_countvectorizer_on_sms(sms_docs):
    stop = sorted(ENGLISH_STOP_WORDS)
    unpruned = TextOptions(ngram_range=(1, 2), min_df=2, stop_words=ENGLISH_STOP_WORDS)
    limit = untied_limit(sms_docs, unpruned, 1000)
    assert 900 < limit <= 1000
    options = TextOptions(
        ngram_range=(1, 2), min_df=2, max_features=limit, stop_words=ENGLISH_STOP_WORDS
    )
    assert_same_as_sklearn(
        sms_docs, options, ngram_range=(1, 2), min_df=2, max_features=limit, stop_words=stop
    )


def test_max_features_1000_on_sms_keeps_the_most_frequent_terms_ties_alphabetically(sms_docs):
    unpruned = TextOptions(ngram_range=(1, 2), min_df=2)
    all_terms, counts = fit_vocabulary(sms_docs, unpruned)
    totals = np.asarray(counts.sum(axis=0)).ravel()
    order = sorted(range(len(all_terms)), key=lambda i: (-totals[i], all_terms[i]))[:1000]
    vocabulary, _ = fit_vocabulary(sms_docs, TextOptions(ngram_range=(1, 2), min_df=2, max_features=1000))
    assert vocabulary == sorted(all_terms[i] for i in order)


@pytest.mark.parametrize(
    "options, sk_kwargs",
    [
        (TextOptions(), {}),
        (TextOptions(lowercase=False), {"lowercase": False}),
        (TextOptions(ngram_range=(1, 3)), {"ngram_range": (1, 3)}),
        (TextOptions(ngram_range=(2, 2)), {"ngram_range": (2, 2)}),
        (TextOptions(token_pattern=r"(?u)\b\w\w+\b"), {}),
        (TextOptions(token_pattern=r"\S+"), {}),
        (TextOptions(token_pattern=r"(\w)\w*"), {}),
        (TextOptions(min_df=2), {"min_df": 2}),
        (TextOptions(ngram_range=(1, 2), min_df=2), {"ngram_range": (1, 2), "min_df": 2}),
    ],
    ids=["default", "case", "trigrams", "bigrams-only", "sk-default-pattern",
         "custom-pattern", "capture-group", "min_df", "bigrams-min_df"],
)
def test_options_match_countvectorizer_on_unicode_samples(options, sk_kwargs):
    docs = [unicodedata.normalize("NFC", d) for d in UNICODE_DOCS * 3]
    assert_same_as_sklearn(docs, options, **sk_kwargs)


def test_nfd_documents_give_the_same_terms_as_nfc():
    nfc = [unicodedata.normalize("NFC", d) for d in UNICODE_DOCS]
    nfd = [unicodedata.normalize("NFD", d) for d in UNICODE_DOCS]
    assert nfc != nfd
    v1, x1 = fit_vocabulary(nfc)
    v2, x2 = fit_vocabulary(nfd)
    assert v1 == v2 and (x1 != x2).nnz == 0
    assert analyze(nfd[0]) == analyze(nfc[0])
    assert "café" in analyze(nfd[0])


def test_without_normalisation_nfd_splits_accented_words_like_sklearn():
    doc = unicodedata.normalize("NFD", "café")
    assert analyze(doc, TextOptions(unicode_form=None)) == ["cafe"]


def test_missing_and_empty_documents_give_empty_rows():
    docs = ["spam spam eggs", None, float("nan"), "", "   ,;  ", np.nan, "eggs"]
    vocabulary, counts = fit_vocabulary(docs)
    assert vocabulary == ["eggs", "spam"]
    assert counts.toarray().tolist() == [[1, 2], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [1, 0]]
    assert analyze(None) == [] and analyze(float("nan")) == []


def test_a_corpus_without_terms_gives_an_empty_vocabulary():
    vocabulary, counts = fit_vocabulary([None, "", "!!"])
    assert vocabulary == [] and counts.shape == (3, 0)


def test_stop_words_are_removed_before_bigrams():
    options = TextOptions(stop_words=ENGLISH_STOP_WORDS, ngram_range=(1, 2))
    assert analyze("The movie was not good at all", options) == ["movie", "good", "movie good"]


def test_stemming_maps_inflected_forms_to_one_stem():
    options = TextOptions(stem=True)
    assert analyze("running runs helping helpful happiness", options) == [
        "run", "run", "help", "help", "happi"
    ]
    vocabulary, counts = fit_vocabulary(["Running fast", "he runs", "run!"], options)
    assert vocabulary == ["fast", "he", "run"]
    assert counts[:, 2].toarray().ravel().tolist() == [1, 1, 1]


def test_seed_004_sentence_has_seven_tokens_from_five_types():
    assert tokens_and_types(["The big cat saw the small cat."]) == (7, 5)


def test_min_df_and_max_features_prune_the_vocabulary_with_alphabetical_ties():
    docs = ["b a c", "a b", "d d d d"]
    assert fit_vocabulary(docs, TextOptions(min_df=2))[0] == ["a", "b"]
    # d occurs 4 times; a and b tie on 2 and the tie goes to the alphabetically first
    vocabulary, counts = fit_vocabulary(docs, TextOptions(max_features=2))
    assert vocabulary == ["a", "d"]
    assert counts.toarray().tolist() == [[1, 0], [1, 0], [0, 4]]


def test_count_matrix_ignores_unseen_words_and_unseen_counts_counts_them():
    vocabulary = {"free": 0, "money": 1}
    docs = ["FREE money, free prize!", None, "hello"]
    assert count_matrix(docs, vocabulary).toarray().tolist() == [[2, 1], [0, 0], [0, 0]]
    assert unseen_counts(docs, vocabulary).tolist() == [1, 0, 1]


def test_pipeline_steps_show_what_each_step_removed():
    options = TextOptions(stop_words=ENGLISH_STOP_WORDS, stem=True, ngram_range=(1, 2))
    steps = pipeline_steps("The CATS were running!", options)
    assert [s.name for s in steps] == [
        "tokenise", "unicode NFC", "lowercase", "stop words", "stem", "1-2-grams"
    ]
    assert steps[0] == PipelineStep("tokenise", ("The", "CATS", "were", "running"), ("!",))
    assert steps[2].tokens == ("the", "cats", "were", "running")
    assert steps[2].removed == ("The", "CATS")
    assert steps[3].removed == ("the", "were")
    assert steps[4] == PipelineStep("stem", ("cat", "run"), ("cats", "running"))
    assert steps[-1].tokens == ("cat", "run", "cat run")
    assert list(steps[-1].tokens) == analyze("The CATS were running!", options)


def test_a_100000_token_document_is_counted_exactly():
    words = np.array(["alpha", "beta", "gamma", "delta"])
    doc = " ".join(words[np.arange(100_000) % 4])
    vocabulary, counts = fit_vocabulary([doc, "beta"])
    assert vocabulary == ["alpha", "beta", "delta", "gamma"]
    assert counts.toarray().tolist() == [[25_000] * 4, [0, 1, 0, 0]]


def test_many_documents_spanning_several_chunks_match_sklearn():
    rng = np.random.default_rng(4)
    words = np.array(["w%d" % i for i in range(3000)] + ["Ünï", "ŁÓDŹ", "x" * 70])
    lengths = rng.integers(0, 400, 12_000)
    picks = rng.integers(0, len(words), lengths.sum())
    bounds = np.cumsum(lengths)
    docs = [" ".join(words[picks[a:b]]) for a, b in zip(bounds - lengths, bounds)]
    assert sum(map(len, docs)) > 3 * 2**20  # more than one chunk
    assert_same_as_sklearn(docs, TextOptions())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6), st.sampled_from([(1, 1), (1, 2)]))
def test_vectorised_counts_equal_the_per_document_analyzer(docs, ngram_range):
    options = TextOptions(ngram_range=ngram_range)
    vocabulary, counts = fit_vocabulary(docs, options)
    expected = sorted({t for d in docs for t in analyze(d, options)})
    assert vocabulary == expected
    column = {t: i for i, t in enumerate(vocabulary)}
    for row, doc in enumerate(docs):
        dense = np.zeros(len(vocabulary), dtype=np.int64)
        for t in analyze(doc, options):
            dense[column[t]] += 1
        assert counts[row].toarray().ravel().tolist() == dense.tolist()


def test_options_round_trip_through_json_dicts():
    options = TextOptions(stop_words={"a", "the"}, stem=True, ngram_range=(1, 2), min_df=3)
    d = options.to_dict()
    assert d["stop_words"] == ["a", "the"] and d["ngram_range"] == [1, 2]
    assert TextOptions.from_dict(json.loads(json.dumps(d))) == options


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"min_df": 0}, "min_df 0 must be an integer of at least 1"),
        ({"ngram_range": (2, 1)}, r"ngram_range \(2, 1\) must be"),
        ({"unicode_form": "NFX"}, "unicode_form 'NFX' is not one of"),
        ({"token_pattern": "(a)(b)"}, "has 2 capturing groups"),
        ({"token_pattern": "("}, "is not a valid regular expression"),
        ({"stop_words": "the"}, "stop_words must be a collection of words"),
        ({"max_features": 0}, "max_features 0 must be a positive integer"),
    ],
)
def test_bad_options_raise_data_error_naming_the_setting(kwargs, message):
    with pytest.raises(DataError, match=message):
        TextOptions(**kwargs)


def test_stop_word_list_holds_common_function_words_in_lowercase():
    assert {"the", "and", "of", "is", "not"} <= ENGLISH_STOP_WORDS
    assert all(w == w.lower() and w.isalpha() for w in ENGLISH_STOP_WORDS)
    assert "movie" not in ENGLISH_STOP_WORDS


def test_hashed_typing_of_long_tokens_matches_sklearn(sms_docs, monkeypatch):
    import nbapp.text._tokenising

    monkeypatch.setattr(nbapp.text._tokenising, "_packed_types", lambda *args, **kwargs: None)
    assert_same_as_sklearn(sms_docs[:2000] + UNICODE_DOCS, TextOptions())


def test_typing_runs_of_word_characters_by_their_first_word_equals_the_general_typing():
    # the nul-free shortcut (level 0 factorises the first 8 bytes alone) must give the same
    # types, in the same order first seen, as the typing that starts from the lengths
    from nbapp.text._tokenising import _code_points, _packed_types

    rng = np.random.default_rng(7)
    for alphabet in ("ab", "abcdefgh", "a\u00e9\u4e2d\U0001d400"):    # Latin-1 and UTF-32 code points
        letters = np.array(list(alphabet))
        tokens = ["".join(rng.choice(letters, n)) for n in rng.integers(1, 20, 3000)]
        text = " ".join(tokens)
        ends = np.cumsum([len(t) + 1 for t in tokens]) - 1
        starts = ends - [len(t) for t in tokens]
        codes = _code_points(text)
        fast_id, fast_first = _packed_types(codes, starts, ends, nul_free=True)
        slow_id, slow_first = _packed_types(codes, starts, ends)
        assert np.array_equal(fast_id, slow_id) and np.array_equal(fast_first, slow_first)
        expected_id, expected_types = pd.factorize(pd.Series(tokens, dtype=object))
        assert np.array_equal(fast_id, expected_id)
        assert [tokens[i] for i in fast_first] == list(expected_types)


def test_the_pipeline_module_still_holds_every_public_name_of_nbapp_text():
    # nbapp.text.pipeline is split into internal parts; code importing from it keeps working
    import nbapp.text
    import nbapp.text.pipeline

    assert set(nbapp.text.__all__) <= set(nbapp.text.pipeline.__all__)
    for name in nbapp.text.pipeline.__all__:
        assert getattr(nbapp.text.pipeline, name) is getattr(nbapp.text, name, getattr(nbapp.text.pipeline, name))
    assert nbapp.text.pipeline.fit_vocabulary(["b a", "a"])[0] == ["a", "b"]


def test_hash_collisions_fall_back_to_the_regex_tokeniser(sms_docs, monkeypatch):
    import nbapp.text._tokenising

    monkeypatch.setattr(nbapp.text._tokenising, "_packed_types", lambda *args, **kwargs: None)
    monkeypatch.setattr(nbapp.text._tokenising, "_hash_types", lambda *args: None)
    assert_same_as_sklearn(sms_docs[:2000] + UNICODE_DOCS, TextOptions())


def test_analyze_equals_the_last_pipeline_step_for_every_option_set():
    from nbapp.text.stopwords import ENGLISH_STOP_WORDS

    doc = "The Café’s RUNNING runners ran; naïve cafe\u0301 prices: 10 euros, the end"
    for options in [TextOptions(), TextOptions(lowercase=False), TextOptions(unicode_form=None),
                    TextOptions(stop_words=ENGLISH_STOP_WORDS, stem=True, ngram_range=(1, 2)),
                    TextOptions(token_pattern=r"(?u)\b\w\w+\b", ngram_range=(2, 3))]:
        assert analyze(doc, options) == list(pipeline_steps(doc, options)[-1].tokens)


# -- token_terms: each token with the term it becomes -----------------------------------------

TOKEN_OPTIONS = [
    TextOptions(),
    TextOptions(stop_words=ENGLISH_STOP_WORDS, stem=True),
    TextOptions(lowercase=False, unicode_form=None),
    TextOptions(unicode_form="NFKC", token_pattern=r"(?u)\b\w\w+\b", stop_words=ENGLISH_STOP_WORDS),
    TextOptions(token_pattern=r"(\w+)'s", ngram_range=(1, 2)),       # one capturing group
]


@pytest.mark.parametrize("options", TOKEN_OPTIONS)
@pytest.mark.parametrize("doc", UNICODE_DOCS + ["Helping the HELPFUL helpers, the cafe\u0301's owner"])
def test_token_terms_kept_terms_are_the_unigram_analyzer_terms(doc, options):
    unigrams = dataclasses.replace(options, ngram_range=(1, 1))
    pairs = token_terms(doc, options)
    assert [term for _, term in pairs if term is not None] == analyze(doc, unigrams)
    form = options.unicode_form
    normalised = unicodedata.normalize(form, doc) if form else doc
    assert all(token in normalised for token, _ in pairs)


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=60), st.sampled_from(TOKEN_OPTIONS))
def test_token_terms_agree_with_analyze_on_any_text(doc, options):
    unigrams = dataclasses.replace(options, ngram_range=(1, 1))
    assert [t for _, t in token_terms(doc, options) if t is not None] == analyze(doc, unigrams)


def test_token_terms_show_the_normalised_token_as_typed_and_none_for_stop_words():
    options = TextOptions(stop_words=ENGLISH_STOP_WORDS, stem=True)
    pairs = token_terms("FREE cafe\u0301 in the İstanbul helping", options)
    assert pairs == [("FREE", "free"), ("caf\u00e9", "caf\u00e9"), ("in", None), ("the", None),
                     ("İ", None), ("stanbul", "stanbul"), ("helping", "help")]
