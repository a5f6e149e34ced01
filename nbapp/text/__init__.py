"""Text as a bag of words: the tokenising pipeline, stop words and word-level views.

The pipeline (:mod:`nbapp.text.pipeline`) turns documents into terms exactly as the model
counts them; :mod:`nbapp.text.words` holds the views of a fitted text feature (informative
words, Zipf, a document token by token).
"""

from nbapp.text.pipeline import (
    MAX_NGRAM_N,
    NgramsTooLarge,
    Occurrences,
    PipelineStep,
    TextOptions,
    TooManyTerms,
    analyze,
    count_matrix,
    fit_vocabulary,
    pipeline_steps,
    term_occurrences,
    token_terms,
    tokens_and_types,
    unseen_counts,
    vocabulary_occurrences,
)

__all__ = [
    "MAX_NGRAM_N",
    "NgramsTooLarge",
    "Occurrences",
    "PipelineStep",
    "TextOptions",
    "TooManyTerms",
    "analyze",
    "count_matrix",
    "fit_vocabulary",
    "pipeline_steps",
    "term_occurrences",
    "token_terms",
    "tokens_and_types",
    "unseen_counts",
    "vocabulary_occurrences",
]
