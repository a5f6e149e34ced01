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

Speed. Documents are prepared and processed in chunks of about two million characters.
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

Parts (internal modules; the public names are this module's and :mod:`nbapp.text`'s):
:mod:`nbapp.text._options` (the settings, normalising, stemming), :mod:`nbapp.text._document`
(one document, step by step), :mod:`nbapp.text._tokenising` (a chunk of documents to term
occurrences) and :mod:`nbapp.text._counting` (term ids, the vocabulary and the counts).
"""

from __future__ import annotations

from nbapp.text._counting import (
    Occurrences,
    TooManyTerms,
    count_matrix,
    fit_vocabulary,
    term_occurrences,
    tokens_and_types,
    unseen_counts,
    vocabulary_occurrences,
)
from nbapp.text._document import PipelineStep, analyze, pipeline_steps, token_terms
from nbapp.text._options import MAX_NGRAM_N, NgramsTooLarge, TextOptions
from nbapp.text._re_worker import catastrophic_part

__all__ = [
    "MAX_NGRAM_N",
    "NgramsTooLarge",
    "PipelineStep",
    "TextOptions",
    "TooManyTerms",
    "catastrophic_part",
    "analyze",
    "Occurrences",
    "count_matrix",
    "fit_vocabulary",
    "pipeline_steps",
    "term_occurrences",
    "token_terms",
    "tokens_and_types",
    "unseen_counts",
    "vocabulary_occurrences",
]
