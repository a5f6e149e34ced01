"""Text as a bag of words: the tokenising pipeline, stop words and word-level views.

The pipeline (:mod:`nbapp.text.pipeline`) turns documents into terms exactly as the model
counts them; :mod:`nbapp.text.words` holds the views of a fitted text feature (informative
words, Zipf, a document token by token).
"""

from nbapp.text.pipeline import (
    PipelineStep,
    TextOptions,
    TooManyTerms,
    analyze,
    count_matrix,
    fit_vocabulary,
    pipeline_steps,
    token_terms,
    tokens_and_types,
    unseen_counts,
)

__all__ = [
    "PipelineStep",
    "TextOptions",
    "TooManyTerms",
    "analyze",
    "count_matrix",
    "fit_vocabulary",
    "pipeline_steps",
    "token_terms",
    "tokens_and_types",
    "unseen_counts",
]
