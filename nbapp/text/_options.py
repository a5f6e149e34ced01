"""The text pipeline's settings (:class:`TextOptions`, checked when made) and the steps on a
document's whole text: Unicode normalisation, lowercasing; and the stemmer, cached per word.
Part of :mod:`nbapp.text.pipeline`, which holds the public names."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd
import snowballstemmer

from nbapp._limits import MAX_NAME_CHARS
from nbapp.errors import DataError
from nbapp.text.matching import check_pattern

_UNICODE_FORMS = ("NFC", "NFD", "NFKC", "NFKD")

#: The largest n of an n-gram range (trigrams), for the library and the app's choices alike. An
#: n-gram range is two numbers that name a size: the n-grams of a k-word document hold about
#: k * n words for each n, so (1, 1500) over one 1,500-word document builds gigabytes of strings
#: (issue 31, item 3), while up to trigrams the terms stay within a few times the text.
MAX_NGRAM_N = 3


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


class TooManyTerms(DataError):
    """The documents hold more distinct terms than a fit was allowed (``max_terms``)."""

    def __init__(self, found: int, limit: int) -> None:
        super().__init__(f"The documents hold more than {limit:,} distinct terms ({found:,} so far).")
        self.found, self.limit = found, limit


class NgramsTooLarge(DataError):
    """The n-grams asked for would hold more characters than :func:`ngram_char_budget` allows."""

    def __init__(self, ngram_range: tuple[int, int], needed: int, budget: int) -> None:
        lo, hi = ngram_range
        super().__init__(
            f"The {lo}- to {hi}-grams of these documents would hold {needed:,} characters or more, beyond the "
            f"{budget:,} that n-grams of up to {MAX_NGRAM_N} words of them hold; use an ngram_range with "
            f"max_n at most {MAX_NGRAM_N}, e.g. (1, 2)."
        )
        self.needed, self.budget = needed, budget


def ngram_char_budget(term_chars: int, n_terms: int) -> int:
    """The characters the n-gram strings built from ``n_terms`` term occurrences holding
    ``term_chars`` characters may take: all that the widest range allowed, (1, MAX_NGRAM_N),
    makes of them (an occurrence is in at most n of the n-grams of order n, and each n-gram adds
    n - 1 spaces). The builders count against it before they make a string (issue 31, item 3)."""
    return sum(n * term_chars + (n - 1) * n_terms for n in range(1, MAX_NGRAM_N + 1))


# Token patterns longer than this are refused: a pattern is a few dozen characters, and compiling
# one is bounded by its length.
_MAX_PATTERN_LENGTH = MAX_NAME_CHARS        # a model file holds no longer string


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
    if lo_hi[1] > MAX_NGRAM_N:
        raise DataError(
            f"ngram_range {lo_hi!r} asks for {lo_hi[1]}-grams; n-grams go up to {MAX_NGRAM_N} words "
            f"(1 <= min_n <= max_n <= {MAX_NGRAM_N}), e.g. (1, 2) for words and bigrams."
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
