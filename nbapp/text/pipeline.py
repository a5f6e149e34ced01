"""Text preprocessing: from documents to a bag-of-words count matrix.

A document is turned into *terms* by a fixed pipeline, each step optional:

1. Unicode normalisation (NFC by default), so "café" typed two ways is one word;
2. lowercasing;
3. tokenisation with a regular expression (word tokens ``(?u)\\w+`` by default);
4. stop-word removal (seed 000, ex. 2.2; see :mod:`nbapp.text.stopwords`);
5. stemming with the Snowball English stemmer, Porter's revised algorithm (seed 004,
   "help, helping, helpful -> help");
6. n-grams: (1, 2) adds each pair of neighbouring terms joined by a space (seed 004's
   note on SpamCop's bigrams).

A corpus then gives a vocabulary (sorted, optionally pruned by minimum document frequency
and maximum size) and a sparse document x term count matrix, the sufficient statistics of
the multinomial event model ``count(w, c)``   [seed 000, Eq. 9-11]. With the default
options the vocabulary and counts equal scikit-learn's
``CountVectorizer(token_pattern=r"(?u)\\w+")`` on NFC text.

Speed. Documents are prepared and processed in chunks of about a million characters.
For the maximal-run token patterns (``\\w+``, and scikit-learn's ``\\b\\w\\w+\\b``) a
chunk is tokenised without a Python string per token: its text becomes an array of code
points, word characters are classified with a lookup table built from ``re`` itself, and
token boundaries are where that mask changes. Tokens get exact type ids from their bytes
read eight at a time (``pandas.factorize`` on the words, level by level); a chunk with a
token over 256 bytes uses a 64-bit polynomial hash instead, checked character by
character (a collision tries another base, then the regex path), so results are always
exact. Stop words, stems and n-grams are applied per distinct *type* through look-up
tables; only the chunk's types meet Python dicts, and counts become CSR rows with
``sum_duplicates``. Other token patterns run in :mod:`nbapp.text.matching`: Python's ``re``
in a child process with one time budget per tokenising job, so a pattern that backtracks is
stopped with a sentence naming it while the server's other sessions go on; the tokens at
the spans it returns are typed from the chunk's code points as above.

Size. A fit may be given ``max_terms``: the distinct terms are counted chunk by chunk as
they are found, and the fit stops with :class:`TooManyTerms` as soon as they pass it, before
the statistics of a runaway vocabulary (n-grams of unique tokens) are allocated.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
import snowballstemmer

from nbapp.errors import DataError
from nbapp.text import matching
from nbapp.text._re_worker import catastrophic_part
from nbapp.text.matching import check_pattern

__all__ = [
    "PipelineStep",
    "TextOptions",
    "TooManyTerms",
    "catastrophic_part",
    "analyze",
    "count_matrix",
    "fit_vocabulary",
    "pipeline_steps",
    "token_terms",
    "tokens_and_types",
    "unseen_counts",
]

_UNICODE_FORMS = ("NFC", "NFD", "NFKC", "NFKD")

# Patterns that match exactly the maximal runs of word characters (of at least the given
# length), so they can be tokenised from a character mask instead of by the regex engine
# (they are matching.LINEAR_PATTERNS, the patterns that may run in the server's own process).
_RUN_PATTERNS = {
    r"(?u)\w+": 1,
    r"\w+": 1,
    r"(?u)\b\w\w+\b": 2,
    r"\b\w\w+\b": 2,
}

# About a million characters per chunk keeps the per-character arrays (a few uint64 arrays)
# near 10 MB each while leaving the Python work per chunk negligible.
_CHUNK_CHARS = 1 << 20

# Odd 64-bit bases for the polynomial hash; a second and third are tried only if a chunk
# holds two different tokens with equal hashes.
_HASH_BASES = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9)
_LENGTH_MIX = np.uint64(0xFF51AFD7ED558CCD)
# _LOW_BYTES[n] keeps the n lowest (first, little-endian) bytes of a uint64
_LOW_BYTES = np.array([(1 << 8 * n) - 1 for n in range(9)], dtype=np.uint64)
# Tokens up to 256 bytes (64 characters beyond Latin-1) are typed exactly from their
# bytes; a chunk with a longer token is hashed instead.
_PACKED_MAX_BYTES = 256


@dataclass(frozen=True)
class TextOptions:
    """The preprocessing pipeline's settings (JSON-safe through :meth:`to_dict`).

    The defaults reproduce scikit-learn's ``CountVectorizer(token_pattern=r"(?u)\\w+")``
    on NFC-normalised text: lowercase, word tokens, no stop words, unigrams, no pruning.
    ``stop_words`` may be given as any iterable of words; it is stored as a frozenset.
    """

    lowercase: bool = True
    token_pattern: str = r"(?u)\w+"
    stop_words: frozenset[str] | None = None
    stem: bool = False
    ngram_range: tuple[int, int] = (1, 1)
    min_df: int = 1
    max_features: int | None = None
    unicode_form: str | None = "NFC"

    def __post_init__(self) -> None:
        for name in ("lowercase", "stem"):
            if not isinstance(getattr(self, name), bool):
                raise DataError(f"Text option {name} must be true or false, not {getattr(self, name)!r}.")
        if not isinstance(self.ngram_range, (tuple, list)) or len(self.ngram_range) != 2:
            raise DataError(f"ngram_range {self.ngram_range!r} must be two integers 1 <= min_n <= max_n, e.g. (1, 2).")
        if self.unicode_form is not None and not isinstance(self.unicode_form, str):
            raise DataError(f"unicode_form {self.unicode_form!r} is not one of {_UNICODE_FORMS} or None.")
        if self.stop_words is not None and not isinstance(self.stop_words, (str, frozenset)):
            try:
                words = list(self.stop_words)
            except TypeError:
                raise DataError(f"stop_words must be a collection of words, not {self.stop_words!r}.") from None
            if not all(isinstance(w, str) for w in words):
                raise DataError("stop_words must be a collection of words (strings).")
        if self.stop_words is not None and not isinstance(self.stop_words, frozenset):
            if isinstance(self.stop_words, str):
                raise DataError(
                    "stop_words must be a collection of words, not the string "
                    f"{self.stop_words[:30]!r}; pass e.g. nbapp.text.stopwords.ENGLISH_STOP_WORDS."
                )
            object.__setattr__(self, "stop_words", frozenset(self.stop_words))
        object.__setattr__(self, "ngram_range", tuple(self.ngram_range))
        _validate(self)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (stop words as a sorted list, n-gram range as a list)."""
        d = asdict(self)
        d["stop_words"] = None if self.stop_words is None else sorted(self.stop_words)
        d["ngram_range"] = list(self.ngram_range)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TextOptions:
        """Inverse of :meth:`to_dict`; unknown keys are an error."""
        if not isinstance(d, Mapping):
            raise DataError(f"Text options must be an object of option -> value, not {d!r}.")
        unknown = set(d) - set(cls.__dataclass_fields__)
        if unknown:
            raise DataError(
                f"Text options hold unknown keys {sorted(unknown)}; "
                f"allowed are {sorted(cls.__dataclass_fields__)}."
            )
        return cls(**d)


# Token patterns longer than this are refused: a pattern is a few dozen characters, and compiling
# one is bounded by its length.
_MAX_PATTERN_LENGTH = 1_000


def _validate(o: TextOptions) -> None:
    if o.unicode_form is not None and o.unicode_form not in _UNICODE_FORMS:
        raise DataError(
            f"unicode_form {o.unicode_form!r} is not one of {_UNICODE_FORMS} or None."
        )
    lo_hi = o.ngram_range
    if (
        len(lo_hi) != 2
        or not all(isinstance(n, int) for n in lo_hi)
        or not 1 <= lo_hi[0] <= lo_hi[1]
    ):
        raise DataError(
            f"ngram_range {lo_hi!r} must be two integers 1 <= min_n <= max_n, e.g. (1, 2)."
        )
    if isinstance(o.min_df, bool) or not isinstance(o.min_df, int) or o.min_df < 1:
        raise DataError(f"min_df {o.min_df!r} must be an integer of at least 1.")
    if o.max_features is not None and (
        isinstance(o.max_features, bool) or not isinstance(o.max_features, int) or o.max_features < 1
    ):
        raise DataError(f"max_features {o.max_features!r} must be a positive integer or None.")
    if not isinstance(o.token_pattern, str) or len(o.token_pattern) > _MAX_PATTERN_LENGTH:
        raise DataError(f"token_pattern must be a regular expression of at most {_MAX_PATTERN_LENGTH} "
                        "characters.")
    groups, catastrophic = check_pattern(o.token_pattern)   # compiled in a child process
    if groups > 1:
        raise DataError(
            f"token_pattern {o.token_pattern!r} has {groups} capturing groups; use at most "
            "one, or (?:...) for grouping."
        )
    if catastrophic:
        raise DataError(
            f"token_pattern {o.token_pattern!r} repeats a group that can itself match in more than one "
            "way (such as (a+)+ or (a|aa)+): on some documents it would backtrack for hours. Repeat "
            "single tokens instead, e.g. (?u)\\w+ or \\w+(?:'\\w+)?."
        )


@dataclass(frozen=True)
class PipelineStep:
    """One preprocessing step on one document: the tokens after it and what it removed."""

    name: str
    tokens: tuple[str, ...]
    removed: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------- one document


def _as_text(doc: object) -> str:
    """None, NaN and pandas' NA are empty documents; other non-strings are shown as text."""
    if isinstance(doc, str):
        return doc
    if doc is None or (np.ndim(doc) == 0 and pd.isna(doc)):
        return ""
    return str(doc)


def _prepare(docs: Sequence[object], options: TextOptions) -> list[str]:
    """Normalise and lowercase documents (C-level string methods, one call each)."""
    texts = [d if type(d) is str else _as_text(d) for d in docs]
    if options.unicode_form is not None:
        form = options.unicode_form
        texts = [unicodedata.normalize(form, t) for t in texts]
    if options.lowercase:
        texts = [t.lower() for t in texts]
    return texts


class _Stemmer:
    """Snowball English (Porter2) stems, computed once per word type [seed 004].

    The pure-Python stemmer takes tens of microseconds a word, so stems are kept in a
    process-wide cache (predicting re-uses the stems of fitting); each instance owns its
    stemmer object because those are not thread-safe (Streamlit runs sessions in threads).
    """

    _cache: dict[str, str] = {}
    _cache_limit = 1_000_000

    def __init__(self) -> None:
        self._stemmer = snowballstemmer.stemmer("english")

    def __call__(self, words: Sequence[str]) -> list[str]:
        cache = _Stemmer._cache
        if len(cache) > self._cache_limit:
            cache.clear()
        stems = []
        for w in words:
            stem = cache.get(w)
            if stem is None:
                stem = cache[w] = self._stemmer.stemWord(w)
            stems.append(stem)
        return stems


def _word_ngrams(terms: list[str], ngram_range: tuple[int, int]) -> list[str]:
    """scikit-learn's n-gram order: all unigrams, then bigrams, ... joined by a space."""
    lo, hi = ngram_range
    out = list(terms) if lo == 1 else []
    for n in range(max(lo, 2), hi + 1):
        out.extend(" ".join(terms[i : i + n]) for i in range(len(terms) - n + 1))
    return out


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


# ---------------------------------------------------------------- a chunk of documents


@dataclass(frozen=True)
class _Terms:
    """The terms of a chunk: for each term occurrence its document (chunk-relative) and
    its id into ``types`` (the chunk's distinct term strings, possibly repeated across
    n-gram orders; they are merged by string later)."""

    doc: np.ndarray
    type_id: np.ndarray
    types: list[str]


def _chunks(docs: Sequence[object]) -> Iterator[tuple[int, int]]:
    """(start, stop) of consecutive runs of documents holding about ``_CHUNK_CHARS``
    characters; documents are prepared chunk by chunk so the corpus is never copied whole."""
    lengths = np.fromiter(
        (len(d) if type(d) is str else 0 for d in docs), np.int64, count=len(docs)
    )
    ends = np.cumsum(lengths + 1)
    start = 0
    while start < len(docs):
        base = ends[start - 1] if start else 0
        stop = max(int(np.searchsorted(ends, base + _CHUNK_CHARS, side="right")), start + 1)
        yield start, stop
        start = stop


class _WordTable:
    """Which code points ``re``'s ``\\w`` matches, as a boolean lookup table."""

    _full: np.ndarray | None = None
    _latin1 = np.array([re.match(r"\w", chr(i)) is not None for i in range(256)])

    @classmethod
    def full(cls) -> np.ndarray:
        if cls._full is None:
            everything = "".join(map(chr, range(0x110000)))
            table = np.zeros(0x110000, dtype=bool)
            for m in re.finditer(r"\w+", everything):
                table[m.start() : m.end()] = True
            cls._full = table
        return cls._full

    @classmethod
    def of(cls, codes: np.ndarray) -> np.ndarray:
        return cls._latin1 if codes.dtype == np.uint8 else cls.full()


def _code_points(text: str) -> np.ndarray:
    """The text as an array of code points: one byte each when it fits, else four."""
    try:
        return np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
    except UnicodeEncodeError:
        return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


class _PowerCache:
    """B^j and B^-j (mod 2^64) for j < n, computed once per corpus pass and base."""

    def __init__(self) -> None:
        self._tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def get(self, base: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        cached = self._tables.get(base)
        if cached is None or len(cached[0]) < n:
            size = max(n, _CHUNK_CHARS + 1)
            cached = (_powers(base, size), _powers(pow(base, -1, 1 << 64), size))
            self._tables[base] = cached
        return cached[0][:n], cached[1][:n]


def _powers(base: int, n: int) -> np.ndarray:
    out = np.full(n, np.uint64(base), dtype=np.uint64)
    out[:1] = 1
    return np.cumprod(out, out=out)  # uint64 products wrap: arithmetic mod 2^64


def _run_terms(texts: list[str], min_len: int, powers: _PowerCache) -> _Terms | None:
    """Tokens = maximal runs of word characters (of at least ``min_len``), found without
    the regex engine; ``None`` if every hash base collides (then use the regex path)."""
    text = " ".join(texts)  # a space is no word character, so no token spans two documents
    codes = _code_points(text)
    is_word = _WordTable.of(codes)[codes].view(np.int8)
    edges = np.diff(is_word, prepend=np.int8(0), append=np.int8(0))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    del is_word, edges
    if min_len > 1:
        long_enough = ends - starts >= min_len
        starts, ends = starts[long_enough], ends[long_enough]
    spans = np.fromiter(map(len, texts), np.int64, count=len(texts)) + 1
    doc = np.searchsorted(np.cumsum(spans) - spans, starts, side="right") - 1
    return _typed_terms(text, codes, starts, ends, doc, powers)


def _typed_terms(text: str, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray, doc: np.ndarray,
                 powers: _PowerCache) -> _Terms | None:
    """The tokens ``text[starts:ends]`` typed exactly without a Python string per token
    (``codes`` is the text's code points); ``None`` if every hash base collides."""
    typed = _packed_types(codes, starts, ends)
    for base in _HASH_BASES:
        if typed is not None:
            break
        typed = _hash_types(codes, starts, ends, powers.get(base, len(codes)))
    if typed is None:
        return None
    type_id, first = typed
    types = list(map(text.__getitem__, map(slice, starts[first].tolist(), ends[first].tolist())))
    return _Terms(doc, type_id, types)


def _first_of_each(type_id: np.ndarray, n_types: int) -> np.ndarray:
    """The index of each type's first occurrence."""
    first = np.empty(n_types, dtype=np.int64)
    first[type_id[::-1]] = np.arange(len(type_id) - 1, -1, -1)
    return first


def _packed_types(
    codes: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Exact type ids from the tokens' bytes read eight at a time.

    Ids start from the tokens' lengths; level k reads bytes 8k..8k+7 of every token that
    long as one uint64 (bytes past the token's end masked to zero: the lengths keep "a" and
    "a" + NUL apart), and refines the ids by factorising (id so far, word) pairs. ``None``
    when a token is longer than ``_PACKED_MAX_BYTES`` (the levels would outnumber the work
    saved).
    """
    width = codes.itemsize
    lengths = (ends - starts) * width
    if len(lengths) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if lengths.max() > _PACKED_MAX_BYTES:
        return None
    raw = np.zeros(codes.nbytes + 8, dtype=np.uint8)
    raw[: codes.nbytes] = codes.view(np.uint8)
    words = np.ndarray((codes.nbytes + 1,), dtype="<u8", buffer=raw, strides=(1,))
    byte_starts = starts * width
    type_id, distinct_lengths = pd.factorize(lengths)
    type_id = type_id.astype(np.int64)
    n_ids = len(distinct_lengths)
    for k in range(0, int(lengths.max()), 8):
        active = np.flatnonzero(lengths > k)
        word = words[byte_starts[active] + k]
        word &= _LOW_BYTES[np.minimum(lengths[active] - k, 8)]
        word_id, word_values = pd.factorize(word)
        pair_id, pairs = pd.factorize(type_id[active] * len(word_values) + word_id)
        type_id[active] = pair_id + n_ids  # tokens that ended keep ids below n_ids
        n_ids += len(pairs)
    type_id, kept = pd.factorize(type_id)
    return type_id, _first_of_each(type_id, len(kept))


def _hash_types(
    codes: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    powers: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray] | None:
    """Type ids of the tokens ``codes[starts:ends]`` and each type's first token.

    hash(token) = sum_k code[s + k] * B^k (mod 2^64), from prefix sums of code[j] * B^j
    scaled by B^-s, mixed with the length. Tokens sharing a hash are then compared with
    their type's first token character by character: None on a collision.
    """
    power, inverse = powers
    prefix = np.zeros(len(codes) + 1, dtype=np.uint64)
    np.cumsum(codes * power, out=prefix[1:])
    lengths = ends - starts
    h = (prefix[ends] - prefix[starts]) * inverse[starts]
    h ^= lengths.astype(np.uint64) * _LENGTH_MIX
    del prefix
    type_id, uniques = pd.factorize(h)
    first = _first_of_each(type_id, len(uniques))
    if not np.array_equal(lengths, lengths[first][type_id]):
        return None
    if not _same_text(codes, starts, starts[first][type_id], lengths):
        return None
    return type_id, first


def _same_text(codes: np.ndarray, a: np.ndarray, b: np.ndarray, lengths: np.ndarray) -> bool:
    """Whether codes[a_i : a_i + len_i] == codes[b_i : b_i + len_i] for every i."""
    index = np.int32 if len(codes) < 2**31 else np.int64
    own = codes[_ranges(a, lengths, index)]
    other = codes[_ranges(b, lengths, index)]
    return bool(np.array_equal(own, other))


def _ranges(starts: np.ndarray, lengths: np.ndarray, dtype: type) -> np.ndarray:
    """starts_0, starts_0 + 1, ..., then starts_1, ...: a cumulative sum of unit steps
    that jumps at the head of each range (no Python loop over the ranges)."""
    out = np.ones(int(lengths.sum()), dtype=dtype)
    used = lengths > 0
    s, n = starts[used], lengths[used]
    if len(s):
        heads = np.cumsum(n) - n
        out[0] = s[0]
        out[heads[1:]] = s[1:] - (s[:-1] + n[:-1] - 1)
    return np.cumsum(out, out=out)


def _regex_terms(texts: list[str], pattern: str, powers: _PowerCache) -> _Terms:
    """Tokens as ``re.findall`` gives them per document (spans from :mod:`nbapp.text.matching`,
    within the job's deadline), typed from the chunk's code points as the fast path does
    (with ``pandas.factorize`` on the token strings if every hash base collides)."""
    found = matching.find(pattern, texts)
    lengths = np.fromiter(map(len, texts), np.int64, count=len(texts))
    doc = np.repeat(np.arange(len(texts)), found.counts)
    offset = (np.cumsum(lengths) - lengths)[doc]
    taken = found.tokens[:, 0] >= 0              # a group that did not take part gives ""
    starts = np.where(taken, found.tokens[:, 0], 0) + offset
    ends = np.where(taken, found.tokens[:, 1], 0) + offset
    text = "".join(texts)
    terms = _typed_terms(text, _code_points(text), starts, ends, doc, powers)
    if terms is not None:
        return terms
    flat = np.empty(len(starts), dtype=object)
    flat[:] = list(map(text.__getitem__, map(slice, starts.tolist(), ends.tolist())))
    type_id, uniques = pd.factorize(flat)
    return _Terms(doc, type_id.astype(np.int64), list(uniques))


def _without_stop_words(terms: _Terms, stop: frozenset[str]) -> _Terms:
    is_kept = np.fromiter((t not in stop for t in terms.types), bool, count=len(terms.types))
    keep = is_kept[terms.type_id]
    return _Terms(terms.doc[keep], terms.type_id[keep], terms.types)


def _stemmed(terms: _Terms, stemmer: _Stemmer) -> _Terms:
    stems = np.empty(len(terms.types), dtype=object)
    stems[:] = stemmer(terms.types)
    stem_id, unique_stems = pd.factorize(stems)
    return _Terms(terms.doc, stem_id[terms.type_id], list(unique_stems))


def _with_ngrams(terms: _Terms, ngram_range: tuple[int, int]) -> _Terms:
    """The n-grams of neighbouring terms in one document, joined by a space.

    An n-gram's id comes from factorising (id of its first n-1 terms) * K + (id of its
    last term), so no key exceeds (number of terms) * K.
    """
    lo, hi = ngram_range
    doc, type_id, types = terms.doc, terms.type_id, terms.types
    n_types = max(len(types), 1)
    docs_out = [doc] if lo == 1 else []
    ids_out = [type_id] if lo == 1 else []
    types_out = list(types) if lo == 1 else []
    prefix_id, prefix_types = type_id, types
    for n in range(2, hi + 1):
        m = len(type_id) - n + 1
        if m <= 0:
            break
        same_doc = doc[:m] == doc[n - 1 :]
        key = prefix_id[:m] * n_types + type_id[n - 1 :]
        gram_id = np.full(m, -1, dtype=np.int64)
        gram_id[same_doc], keys = pd.factorize(key[same_doc])
        head, tail = np.divmod(keys, n_types)
        gram_types = [
            prefix_types[h] + " " + types[t] for h, t in zip(head.tolist(), tail.tolist())
        ]
        if n >= lo:
            docs_out.append(doc[:m][same_doc])
            ids_out.append(gram_id[same_doc] + len(types_out))
            types_out.extend(gram_types)
        prefix_id, prefix_types = gram_id, gram_types
    if not ids_out:
        return _Terms(doc[:0], type_id[:0], [])
    return _Terms(np.concatenate(docs_out), np.concatenate(ids_out), types_out)


def _csr_rows(doc: np.ndarray, col: np.ndarray, n_rows: int) -> sp.csr_matrix:
    """Counts of (doc, col) pairs as canonical CSR, in the narrowest integer types (the
    blocks wait for the whole corpus; :func:`_stack_rows` widens them to int64)."""
    if len(doc) and np.any(doc[1:] < doc[:-1]):  # n-grams follow the unigrams
        col = col[np.argsort(doc, kind="stable")]
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(doc, minlength=n_rows), out=indptr[1:])
    width = int(col.max()) + 1 if len(col) else 0
    m = sp.csr_matrix((np.ones(len(col), np.int32), col, indptr), shape=(n_rows, width))
    m.sum_duplicates()
    top = int(m.data.max()) if m.nnz else 0
    m.data = m.data.astype(np.min_scalar_type(top), copy=False)
    return m


class _Pass:
    """One pass over a corpus: chunks of prepared documents to term occurrences (run it inside
    a :func:`nbapp.text.matching.tokenising_job`, which holds the pass's one deadline)."""

    def __init__(self, options: TextOptions) -> None:
        self.options = options
        self.stemmer = _Stemmer() if options.stem else None
        self.powers = _PowerCache()
        self.min_len = _RUN_PATTERNS.get(options.token_pattern)

    def chunks(self, docs: Sequence[object]) -> Iterator[tuple[int, int, _Terms]]:
        for start, stop in _chunks(docs):
            yield start, stop, self.terms(_prepare(docs[start:stop], self.options))

    def terms(self, texts: list[str]) -> _Terms:
        """A chunk's terms after tokenising, stop words, stemming and n-grams."""
        o = self.options
        terms = None
        if self.min_len is not None:
            terms = _run_terms(texts, self.min_len, self.powers)
        if terms is None:
            terms = _regex_terms(texts, o.token_pattern, self.powers)
        if o.stop_words is not None:
            terms = _without_stop_words(terms, o.stop_words)
        if self.stemmer is not None:
            terms = _stemmed(terms, self.stemmer)
        if o.ngram_range != (1, 1):
            terms = _with_ngrams(terms, o.ngram_range)
        return terms


def _stack_rows(
    blocks: list[sp.csr_matrix], n_rows: int, column: np.ndarray, n_cols: int
) -> sp.csr_matrix:
    """Stack CSR row blocks into one int64 matrix, mapping column j to ``column[j]``
    (-1 drops it); blocks are released as they are copied to keep the peak low."""
    nnz = sum(int(np.count_nonzero(column[b.indices] >= 0)) for b in blocks)
    index = np.int32 if max(nnz, n_cols) < 2**31 else np.int64
    data = np.empty(nnz, dtype=np.int64)
    indices = np.empty(nnz, dtype=index)
    indptr = np.zeros(n_rows + 1, dtype=index)
    at = row = 0
    while blocks:
        b = blocks.pop(0)
        kept = column[b.indices] >= 0
        n = int(np.count_nonzero(kept))
        data[at : at + n] = b.data[kept]
        indices[at : at + n] = column[b.indices[kept]]
        rows = np.repeat(np.arange(b.shape[0]), np.diff(b.indptr))
        row_nnz = np.bincount(rows[kept], minlength=b.shape[0])
        np.cumsum(row_nnz, out=indptr[row + 1 : row + 1 + b.shape[0]])
        indptr[row + 1 : row + 1 + b.shape[0]] += at
        at += n
        row += b.shape[0]
    m = sp.csr_matrix((data, indices, indptr), shape=(n_rows, n_cols), copy=False)
    m.sort_indices()
    return m


# ---------------------------------------------------------------- public corpus functions


class TooManyTerms(DataError):
    """The documents hold more distinct terms than a fit was allowed (``max_terms``)."""

    def __init__(self, found: int, limit: int) -> None:
        super().__init__(f"The documents hold more than {limit:,} distinct terms ({found:,} so far).")
        self.found, self.limit = found, limit


def fit_vocabulary(
    docs: Sequence[str | None], options: TextOptions = TextOptions(), *, max_terms: int | None = None
) -> tuple[list[str], sp.csr_matrix]:
    """The sorted vocabulary and the (n_docs x V) int64 count matrix, in one pass.

    count[d, w] = number of times term w occurs in document d; summed over a class's
    documents these are the multinomial counts count(w, c)   [seed 000, Eq. 9-11].
    Pruning as scikit-learn: terms in fewer than ``min_df`` documents are dropped, then the
    ``max_features`` most frequent remain (ties alphabetically). A corpus without any term
    gives an empty vocabulary and an (n_docs x 0) matrix. With ``max_terms``, raises
    :class:`TooManyTerms` after the first chunk (about a million characters) that takes the
    distinct terms, before pruning, beyond it.
    """
    index: dict[str, int] = {}
    blocks = []
    with matching.tokenising_job(docs):
        for start, stop, terms in _Pass(options).chunks(docs):
            lookup = _lookup(index, terms.types)
            for i in np.flatnonzero(lookup < 0).tolist():  # only the chunk's new terms
                lookup[i] = index.setdefault(terms.types[i], len(index))
            if max_terms is not None and len(index) > max_terms:
                raise TooManyTerms(len(index), max_terms)
            blocks.append(_csr_rows(terms.doc, lookup[terms.type_id], stop - start))
    found = list(index)
    alphabetical = np.array(sorted(range(len(found)), key=found.__getitem__), dtype=np.int64)
    doc_freq, term_freq = _frequencies(blocks, len(found))
    keep = _kept_terms(doc_freq[alphabetical], term_freq[alphabetical], options)
    column = np.full(len(found), -1, dtype=np.int64)
    column[alphabetical[keep]] = np.arange(int(keep.sum()))
    vocabulary = [found[i] for i in alphabetical[keep].tolist()]
    return vocabulary, _stack_rows(blocks, len(docs), column, len(vocabulary))


def _lookup(index: Mapping[str, int], types: list[str]) -> np.ndarray:
    """Each type's column in ``index``, -1 when absent (a C-level map, no Python loop)."""
    return np.fromiter(
        map(index.get, types, itertools.repeat(-1)), np.int64, count=len(types)
    )


def _frequencies(blocks: list[sp.csr_matrix], n_terms: int) -> tuple[np.ndarray, np.ndarray]:
    """Document frequency and total count of each term over the row blocks."""
    doc_freq = np.zeros(n_terms, dtype=np.int64)
    term_freq = np.zeros(n_terms, dtype=np.int64)
    for b in blocks:
        doc_freq += np.bincount(b.indices, minlength=n_terms)
        term_freq += np.bincount(b.indices, weights=b.data, minlength=n_terms).astype(np.int64)
    return doc_freq, term_freq


def _kept_terms(doc_freq: np.ndarray, term_freq: np.ndarray, options: TextOptions) -> np.ndarray:
    """min_df, then max_features by total count; terms in alphabetical order, so a stable
    sort breaks count ties alphabetically (as scikit-learn's CountVectorizer)."""
    keep = doc_freq >= options.min_df
    limit = options.max_features
    if limit is not None and keep.sum() > limit:
        candidates = np.flatnonzero(keep)
        chosen = candidates[np.argsort(-term_freq[candidates], kind="stable")[:limit]]
        keep = np.zeros(len(doc_freq), dtype=bool)
        keep[chosen] = True
    return keep


def _counts_and_unseen(
    docs: Sequence[str | None], vocabulary: Mapping[str, int], options: TextOptions
) -> tuple[sp.csr_matrix, np.ndarray]:
    n_terms = len(vocabulary)
    blocks = []
    unseen = np.zeros(len(docs), dtype=np.int64)
    with matching.tokenising_job(docs):
        for start, stop, terms in _Pass(options).chunks(docs):
            col = _lookup(vocabulary, terms.types)[terms.type_id]
            seen = col >= 0
            unseen[start:stop] = np.bincount(terms.doc[~seen], minlength=stop - start)
            blocks.append(_csr_rows(terms.doc[seen], col[seen], stop - start))
    identity = np.arange(n_terms)
    return _stack_rows(blocks, len(docs), identity, n_terms), unseen


def count_matrix(
    docs: Sequence[str | None],
    vocabulary: Mapping[str, int],
    options: TextOptions = TextOptions(),
) -> sp.csr_matrix:
    """Counts over a given vocabulary (term -> column); terms not in it are ignored,
    scikit-learn's convention for unseen words   [seed 000, Eq. 10]."""
    return _counts_and_unseen(docs, vocabulary, options)[0]


def unseen_counts(
    docs: Sequence[str | None],
    vocabulary: Mapping[str, int],
    options: TextOptions = TextOptions(),
) -> np.ndarray:
    """Per document, the number of term occurrences outside the vocabulary: the count of
    seed 004's UNK word, P(UNK | C) = a / (n + a (V + 1))."""
    return _counts_and_unseen(docs, vocabulary, options)[1]


def tokens_and_types(
    docs: Sequence[str | None], options: TextOptions = TextOptions()
) -> tuple[int, int]:
    """(number of tokens, number of distinct types) of the corpus after the pipeline,
    before vocabulary pruning: "seven tokens drawn from five types"   [seed 004]."""
    unpruned = dataclasses.replace(options, min_df=1, max_features=None)
    vocabulary, counts = fit_vocabulary(docs, unpruned)
    return int(counts.sum()), len(vocabulary)
