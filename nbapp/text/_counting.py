"""A corpus's term occurrences given ids (growing an index of terms, or over a fixed
vocabulary), and what is counted from them: the vocabulary, count matrices, UNK counts, the
term budget. Part of :mod:`nbapp.text.pipeline`, which holds the public names."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from nbapp.text import matching
from nbapp.text._options import TextOptions, TooManyTerms
from nbapp.text._tokenising import _Pass

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


@dataclass(frozen=True)
class Occurrences:
    """The term occurrences of the documents ``docs[start:stop]`` (one chunk): for each, its
    document (counted from ``start``) and its term's id; -1 for a term outside a fixed
    vocabulary. Unigrams come in document order, n-grams after them."""

    start: int
    stop: int
    doc: np.ndarray
    term: np.ndarray


def term_occurrences(
    docs: Sequence[str | None], options: TextOptions, index: dict[str, int], *, max_terms: int | None = None
) -> Iterator[Occurrences]:
    """Chunk by chunk (about two million characters), the term occurrences of ``docs``, with ids
    from ``index`` (term -> id), which each term not yet in it joins, in the order first seen.
    With ``max_terms``, raises :class:`TooManyTerms` after the first chunk that takes ``index``
    beyond it, or while a chunk's n-grams are counted, before their strings are made. Run it
    inside a tokenising job (:func:`nbapp.text.matching.tokenising_job`, which holds the pass's
    one deadline; a generator cannot hold it, as it may be left open)."""
    for start, stop, terms in _Pass(options, max_terms=max_terms).chunks(docs):
        lookup = _lookup(index, terms.types)
        for i in np.flatnonzero(lookup < 0).tolist():  # only the chunk's new terms
            lookup[i] = index.setdefault(terms.types[i], len(index))
        if max_terms is not None and len(index) > max_terms:
            raise TooManyTerms(len(index), max_terms)
        yield Occurrences(start, stop, terms.doc, lookup[terms.type_id])


def vocabulary_occurrences(
    docs: Sequence[str | None], vocabulary: Mapping[str, int], options: TextOptions
) -> Iterator[Occurrences]:
    """Chunk by chunk, the term occurrences of ``docs`` with their columns in ``vocabulary``
    (term -> column), -1 for terms outside it (scikit-learn ignores those; seed 004 counts
    them as UNK). Run it inside a tokenising job, as :func:`term_occurrences`."""
    for start, stop, terms in _Pass(options).chunks(docs):
        yield Occurrences(start, stop, terms.doc, _lookup(vocabulary, terms.types)[terms.type_id])


def fit_vocabulary(
    docs: Sequence[str | None], options: TextOptions = TextOptions(), *, max_terms: int | None = None
) -> tuple[list[str], sp.csr_matrix]:
    """The sorted vocabulary and the (n_docs x V) int64 count matrix, in one pass.

    count[d, w] = number of times term w occurs in document d; summed over a class's
    documents these are the multinomial counts count(w, c)   [seed 000, Eq. 9-11].
    Pruning as scikit-learn: terms in fewer than ``min_df`` documents are dropped, then the
    ``max_features`` most frequent remain (ties alphabetically). A corpus without any term
    gives an empty vocabulary and an (n_docs x 0) matrix. With ``max_terms``, raises
    :class:`TooManyTerms` after the first chunk (about two million characters) that takes the
    distinct terms, before pruning, beyond it.
    """
    index: dict[str, int] = {}
    with matching.tokenising_job(docs):
        blocks = [_csr_rows(found.doc, found.term, found.stop - found.start)
                  for found in term_occurrences(docs, options, index, max_terms=max_terms)]
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
        for found in vocabulary_occurrences(docs, vocabulary, options):
            seen = found.term >= 0
            unseen[found.start:found.stop] = np.bincount(found.doc[~seen], minlength=found.stop - found.start)
            blocks.append(_csr_rows(found.doc[seen], found.term[seen], found.stop - found.start))
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
