"""One document through the pipeline, step by step: the reference the chunk path
(:mod:`nbapp.text._tokenising`) equals, and what the app shows of a document. Part of
:mod:`nbapp.text.pipeline`, which holds the public names."""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from nbapp.text import matching
from nbapp.text._options import NgramsTooLarge, TextOptions, _as_text, _Stemmer, ngram_char_budget

@dataclass(frozen=True)
class PipelineStep:
    """One preprocessing step on one document: the tokens after it and what it removed."""

    name: str
    tokens: tuple[str, ...]
    removed: tuple[str, ...] = field(default=())


def _word_ngrams(terms: list[str], ngram_range: tuple[int, int]) -> list[str]:
    """scikit-learn's n-gram order: all unigrams, then bigrams, ... joined by a space.

    The characters of the n-grams are counted from the words' lengths before a string is made,
    and more than :func:`ngram_char_budget` of the words is refused (issue 31, item 3)."""
    lo, hi = ngram_range
    _check_ngram_chars(terms, ngram_range)
    out = list(terms) if lo == 1 else []
    for n in range(max(lo, 2), hi + 1):
        out.extend(" ".join(terms[i : i + n]) for i in range(len(terms) - n + 1))
    return out


def _check_ngram_chars(terms: list[str], ngram_range: tuple[int, int]) -> None:
    """NgramsTooLarge if the n-grams of orders max(lo, 2) .. hi of ``terms`` would hold more
    characters than the budget: order n holds sum_i (cum[i + n] - cum[i]) + (k - n + 1)(n - 1)
    characters, with cum the running total of the word lengths, summed through its own running
    total (no string made, no loop over the words)."""
    lo, hi = ngram_range
    k = len(terms)
    n = np.arange(max(lo, 2), min(hi, k) + 1, dtype=np.int64)
    if not len(n):
        return
    cum = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, terms), np.int64, count=k), out=cum[1:])
    cum_cum = np.zeros(k + 2, dtype=np.int64)
    np.cumsum(cum, out=cum_cum[1:])             # cum_cum[j] = cum[0] + ... + cum[j - 1]
    m = k - n + 1
    chars = int((cum_cum[m + n] - cum_cum[n] - cum_cum[m] + m * (n - 1)).sum())
    budget = ngram_char_budget(int(cum[-1]), k)
    if chars > budget:
        raise NgramsTooLarge(ngram_range, chars, budget)


def analyze(doc: str | None, options: TextOptions = TextOptions()) -> list[str]:
    """The terms of one document, in order (the reference for the vectorised paths).

    The same steps as :func:`pipeline_steps`, without recording what each one removed.
    """
    text = _as_text(doc)
    if options.unicode_form is not None:
        text = unicodedata.normalize(options.unicode_form, text)
    if options.lowercase:
        text = text.lower()
    tokens = _findall(options.token_pattern, [text])[0]
    if options.stop_words is not None:
        tokens = [t for t in tokens if t not in options.stop_words]
    if options.stem:
        tokens = list(_Stemmer()(tokens))
    if options.ngram_range != (1, 1):
        tokens = _word_ngrams(tokens, options.ngram_range)
    return list(tokens)


def token_terms(doc: str | None, options: TextOptions = TextOptions()) -> list[tuple[str, str | None]]:
    """Each token of one document with the unigram term it becomes, in order.

    The steps are :func:`analyze`'s (Unicode normalisation, lowercasing, tokenising, stop
    words, stemming) at the unigram level (``ngram_range`` is ignored): the token is cut
    from the lowercased text exactly as ``analyze`` cuts it, and shown as it appears in the
    normalised text (before lowercasing, so "FREE" stays "FREE"); the term is what it
    becomes, or None when it is a stop word. So the terms that are not None are exactly
    ``analyze(doc, replace(options, ngram_range=(1, 1)))``, and a word typed decomposed
    (NFD "cafe" + U+0301) is the one token "café" the model counted.
    """
    normalised = _as_text(doc)
    if options.unicode_form is not None:
        normalised = unicodedata.normalize(options.unicode_form, normalised)
    text = normalised.lower() if options.lowercase else normalised
    found = matching.find(options.token_pattern, [text])
    spans = [(a, b) for a, b in found.tokens.tolist()]
    tokens = [text[a:b] if a >= 0 else "" for a, b in spans]
    shown = _spans_before_lowercasing(normalised, text, spans) if text is not normalised else tokens
    stop = options.stop_words or frozenset()
    is_stop = [t in stop for t in tokens]
    kept = [t for t, dropped in zip(tokens, is_stop) if not dropped]
    stems = iter(_Stemmer()(kept) if options.stem else kept)
    terms = [None if dropped else next(stems) for dropped in is_stop]
    return list(zip(shown, terms))


def _spans_before_lowercasing(original: str, lowered: str, spans: list[tuple[int, int]]) -> list[str]:
    """The pieces of ``original`` whose lowercase forms are ``lowered[a:b]``.

    Lowercasing keeps each character's place except for the few that grow (Turkish "İ"
    becomes "i" + a combining dot), so positions map one to one unless the lengths differ.
    """
    if len(original) == len(lowered):
        return [original[a:b] if a >= 0 else "" for a, b in spans]
    grown = np.fromiter((len(ch.lower()) for ch in original), np.int64, count=len(original))
    ends = np.cumsum(grown)            # lowered[starts[i]:ends[i]] is original[i].lower()
    starts = ends - grown
    out = []
    for a, b in spans:
        if a < 0 or a == b:
            out.append("")
            continue
        first = int(np.searchsorted(ends, a, side="right"))   # char whose lowercase holds a
        last = int(np.searchsorted(starts, b, side="left"))   # first char starting at/after b
        out.append(original[first:last])
    return out


def pipeline_steps(doc: str | None, options: TextOptions = TextOptions()) -> list[PipelineStep]:
    """Each enabled step's tokens on one document, for showing the pipeline in the app.

    The text-level steps (Unicode normalisation, lowercasing) are shown by tokenising the
    text after them, so every step has a token list; the last step's tokens are
    :func:`analyze`'s terms. ``removed`` lists, in order, the pieces a step dropped:
    the non-token text for "tokenise", the token forms that changed for normalisation,
    lowercasing and stemming, the stop words for "stop words". Vocabulary pruning is a
    corpus-level step and is not shown here.
    """
    texts, names = [_as_text(doc)], []
    if options.unicode_form is not None:
        texts.append(unicodedata.normalize(options.unicode_form, texts[-1]))
        names.append(f"unicode {options.unicode_form}")
    if options.lowercase:
        texts.append(texts[-1].lower())
        names.append("lowercase")
    found = matching.find(options.token_pattern, texts)   # every text step's tokens in one call
    per_text = [(_tokens(t, spans), _between(t, matches)) for t, (matches, spans) in zip(texts, found.per_text())]
    tokens, between = per_text[0]
    steps = [PipelineStep("tokenise", tuple(tokens), tuple(p for p in between if p))]
    for name, (new_tokens, _) in zip(names, per_text[1:]):
        steps.append(PipelineStep(name, tuple(new_tokens), _multiset_minus(tokens, new_tokens)))
        tokens = new_tokens
    if options.stop_words is not None:
        stop = options.stop_words
        steps.append(
            PipelineStep(
                "stop words",
                tuple(t for t in tokens if t not in stop),
                tuple(t for t in tokens if t in stop),
            )
        )
        tokens = list(steps[-1].tokens)
    if options.stem:
        stems = _Stemmer()(tokens)
        changed = tuple(t for t, s in zip(tokens, stems) if t != s)
        steps.append(PipelineStep("stem", tuple(stems), changed))
        tokens = stems
    if options.ngram_range != (1, 1):
        lo, hi = options.ngram_range
        terms = _word_ngrams(tokens, options.ngram_range)
        removed = tuple(tokens) if lo > 1 else ()
        steps.append(PipelineStep(f"{lo}-{hi}-grams", tuple(terms), removed))
    return steps


def _findall(pattern: str, texts: list[str]) -> list[list[str]]:
    """``re.findall(pattern, text)`` of each text, within the tokenising job's deadline."""
    found = matching.find(pattern, texts)
    return [_tokens(t, spans) for t, (_, spans) in zip(texts, found.per_text())]


def _tokens(text: str, spans: np.ndarray) -> list[str]:
    """The tokens at (start, end) spans; "" where a group did not take part (as findall)."""
    return [text[a:b] if a >= 0 else "" for a, b in spans.tolist()]


def _between(text: str, matches: np.ndarray) -> list[str]:
    """The stripped text between matches (``pattern.split`` without the groups)."""
    bounds = [0, *matches.ravel().tolist(), len(text)]
    return [text[a:b].strip() for a, b in zip(bounds[::2], bounds[1::2])]


def _multiset_minus(before: list[str], after: list[str]) -> tuple[str, ...]:
    """The tokens of ``before`` that ``after`` no longer holds (with multiplicity, in order)."""
    left = Counter(after)
    out = []
    for t in before:
        if left[t] > 0:
            left[t] -= 1
        else:
            out.append(t)
    return tuple(out)
