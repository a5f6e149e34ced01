"""A chunk of documents to term occurrences, without a Python string per token: runs of word
characters from a code-point mask (or the regex engine's spans), exact type ids from the
tokens' bytes, then stop words, stems and n-grams per distinct type (the method is told in
:mod:`nbapp.text.pipeline`, which holds the public names)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from nbapp.text import matching
from nbapp.text._options import NgramsTooLarge, TextOptions, TooManyTerms, _prepare, _Stemmer, ngram_char_budget

# Patterns that match exactly the maximal runs of word characters (of at least the given
# length), so they can be tokenised from a character mask instead of by the regex engine
# (they are matching.LINEAR_PATTERNS, the patterns that may run in the server's own process).
_RUN_PATTERNS = {
    r"(?u)\w+": 1,
    r"\w+": 1,
    r"(?u)\b\w\w+\b": 2,
    r"\b\w\w+\b": 2,
}


# About two million characters per chunk: the per-character arrays stay near 2 MB each (one
# byte a character; 16 MB for the uint64 prefix sums of the hashing fallback), and each
# distinct word of a chunk (made a Python string and looked up once per chunk) is shared by
# more tokens: with one million, the per-word work took a third of a pass on a Zipf corpus;
# four million were no faster and doubled the peak memory of a fit.
_CHUNK_CHARS = 1 << 21


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
    is_word = np.zeros(len(codes) + 2, dtype=bool)          # a non-word character either side
    _WordTable.of(codes).take(codes, out=is_word[1:-1])
    edges = np.flatnonzero(is_word[1:] != is_word[:-1])     # a run's start, then its end, ...
    starts, ends = edges[0::2], edges[1::2]
    del is_word
    if min_len > 1:
        long_enough = ends - starts >= min_len
        starts, ends = starts[long_enough], ends[long_enough]
    spans = np.fromiter(map(len, texts), np.int64, count=len(texts)) + 1
    doc = np.searchsorted(np.cumsum(spans) - spans, starts, side="right") - 1
    return _typed_terms(text, codes, starts, ends, doc, powers, nul_free=True)


def _typed_terms(text: str, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray, doc: np.ndarray,
                 powers: _PowerCache, *, nul_free: bool = False) -> _Terms | None:
    """The tokens ``text[starts:ends]`` typed exactly without a Python string per token
    (``codes`` is the text's code points; ``nul_free``: no token holds the code point 0);
    ``None`` if every hash base collides."""
    typed = _packed_types(codes, starts, ends, nul_free=nul_free)
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
    codes: np.ndarray, starts: np.ndarray, ends: np.ndarray, *, nul_free: bool = False
) -> tuple[np.ndarray, np.ndarray] | None:
    """Exact type ids from the tokens' bytes read eight at a time.

    Ids start from the tokens' lengths; level k reads bytes 8k..8k+7 of every token that
    long as one uint64 (bytes past the token's end masked to zero: the lengths keep "a" and
    "a" + NUL apart), and refines the ids by factorising (id so far, word) pairs. With
    ``nul_free`` (no token holds the code point 0, as in runs of word characters) the first
    word alone tells tokens of up to 8 bytes apart (a shorter token's word ends in zeros a
    longer one cannot hold there), so level 0 factorises the words alone. ``None`` when a
    token is longer than ``_PACKED_MAX_BYTES`` (the levels would outnumber the work saved).
    """
    width = codes.itemsize
    lengths = (ends - starts) * width
    if len(lengths) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    longest = int(lengths.max())
    if longest > _PACKED_MAX_BYTES:
        return None
    raw = np.zeros(codes.nbytes + 8, dtype=np.uint8)
    raw[: codes.nbytes] = codes.view(np.uint8)
    words = np.ndarray((codes.nbytes + 1,), dtype="<u8", buffer=raw, strides=(1,))
    byte_starts = starts * width
    if nul_free:
        word = words[byte_starts]
        word &= _LOW_BYTES[np.minimum(lengths, 8)]
        type_id, values = pd.factorize(word)             # ids in the order first seen
        type_id, n_ids, levels = type_id.astype(np.int64), len(values), range(8, longest, 8)
    else:
        type_id, n_ids, levels = lengths.astype(np.int64), longest + 1, range(0, longest, 8)
    for k in levels:
        active = np.flatnonzero(lengths > k)
        word = words[byte_starts[active] + k]
        word &= _LOW_BYTES[np.minimum(lengths[active] - k, 8)]
        word_id, word_values = pd.factorize(word)
        pair_id, pairs = pd.factorize(type_id[active] * len(word_values) + word_id)
        type_id[active] = pair_id + n_ids  # tokens that ended keep ids below n_ids
        n_ids += len(pairs)
    if nul_free and not len(levels):
        return type_id, _first_of_each(type_id, n_ids)
    return _in_order_seen(type_id, n_ids)


def _in_order_seen(type_id: np.ndarray, n_ids: int) -> tuple[np.ndarray, np.ndarray]:
    """Ids below ``n_ids`` (some unused) renumbered 0, 1, ... in the order first seen, and each
    one's first occurrence (as ``pandas.factorize`` would number them, without hashing)."""
    first = np.full(n_ids, -1, dtype=np.int64)
    first[type_id[::-1]] = np.arange(len(type_id) - 1, -1, -1)
    used = np.flatnonzero(first >= 0)
    in_order = used[np.argsort(first[used])]
    renumber = np.empty(n_ids, dtype=np.int64)
    renumber[in_order] = np.arange(len(in_order))
    return renumber[type_id], first[in_order]


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


def _with_ngrams(terms: _Terms, ngram_range: tuple[int, int], *, max_terms: int | None = None) -> _Terms:
    """The n-grams of neighbouring terms in one document, joined by a space.

    An n-gram's id comes from factorising (id of its first n-1 terms) * K + (id of its
    last term), so no key exceeds (number of terms) * K. Every order's ids and string lengths
    are counted before any string is made (:func:`_ngram_orders`), so a range too wide for the
    budget costs integer arrays, not gigabytes of strings (issue 31, item 3).
    """
    lo, hi = ngram_range
    doc, type_id, types = terms.doc, terms.type_id, terms.types
    docs_out = [doc] if lo == 1 else []
    ids_out = [type_id] if lo == 1 else []
    types_out = list(types) if lo == 1 else []
    prefix_types = types
    for n, same_doc, gram_id, head, tail in _ngram_orders(terms, ngram_range, max_terms):
        gram_types = [prefix_types[h] + " " + types[t] for h, t in zip(head.tolist(), tail.tolist())]
        if n >= lo:
            docs_out.append(doc[: len(same_doc)][same_doc])
            ids_out.append(gram_id[same_doc] + len(types_out))
            types_out.extend(gram_types)
        prefix_types = gram_types
    if not ids_out:
        return _Terms(doc[:0], type_id[:0], [])
    return _Terms(np.concatenate(docs_out), np.concatenate(ids_out), types_out)


def _ngram_orders(terms: _Terms, ngram_range: tuple[int, int], max_terms: int | None
                  ) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """For n = 2 .. max_n, the n-grams as ids: (n, whether position i starts an n-gram inside one
    document, each position's n-gram id, and per id its head (the (n-1)-gram's id) and tail (the
    last term's id)). Raises :class:`NgramsTooLarge` as soon as the strings these ids stand for
    would pass :func:`ngram_char_budget` of the terms, and :class:`TooManyTerms` as soon as the
    distinct terms of the chunk pass ``max_terms``: both before a string is made."""
    lo, hi = ngram_range
    doc, type_id, types = terms.doc, terms.type_id, terms.types
    n_types = max(len(types), 1)
    type_len = np.fromiter(map(len, types), np.int64, count=len(types))
    budget = ngram_char_budget(int(type_len[type_id].sum()), len(type_id))
    n_terms = len(types) if lo == 1 else 0
    chars = 0
    orders = []
    prefix_id, prefix_len = type_id, type_len
    for n in range(2, hi + 1):
        m = len(type_id) - n + 1
        if m <= 0:
            break
        same_doc = doc[:m] == doc[n - 1 :]
        key = prefix_id[:m] * n_types + type_id[n - 1 :]
        gram_id = np.full(m, -1, dtype=np.int64)
        gram_id[same_doc], keys = pd.factorize(key[same_doc])
        head, tail = np.divmod(keys, n_types)
        gram_len = prefix_len[head] + 1 + type_len[tail]
        chars += int(gram_len.sum())
        if chars > budget:
            raise NgramsTooLarge(ngram_range, chars, budget)
        if n >= lo:
            n_terms += len(keys)
            if max_terms is not None and n_terms > max_terms:
                raise TooManyTerms(n_terms, max_terms)
        orders.append((n, same_doc, gram_id, head, tail))
        prefix_id, prefix_len = gram_id, gram_len
    return orders


class _Pass:
    """One pass over a corpus: chunks of prepared documents to term occurrences (run it inside
    a :func:`nbapp.text.matching.tokenising_job`, which holds the pass's one deadline)."""

    def __init__(self, options: TextOptions, *, max_terms: int | None = None) -> None:
        self.options = options
        self.max_terms = max_terms
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
            terms = _with_ngrams(terms, o.ngram_range, max_terms=self.max_terms)
        return terms
