"""Word-level views of a fitted text feature: informative words, Zipf, a document token by token.

All numbers come from the model's text block; pages only draw them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.blocks.text import TextBlock

__all__ = ["informative_words", "zipf_table", "document_tokens", "text_block"]


def text_block(model: Any, column: str) -> TextBlock:
    """The text block of ``column``: these views are of the text type only, and say so here."""
    block = model.block_of(column)
    if block.kind != TextBlock.kind:
        texts = [c for c, spec in model.features_.items() if spec.kind == TextBlock.kind]
        fix = f"choose one of its text columns {texts}" if texts else "give the model a text feature"
        raise DataError(f"Column {column!r} is {block.kind}, not text; {fix}.")
    return block


def informative_words(model: Any, column: str, positive: Any, negative: Any, *, n: int = 15) -> pd.DataFrame:
    """The words whose weights differ most between two classes:

        log_ratio(w) = log P(w | pos) - log P(w | neg)

    each word's weight in the linear form of multinomial Naive Bayes, w_MULT of
    sign(w^T x + b)   [seed 000, Eq. 19] (for a Bernoulli text feature, the ratio of
    P(w present | c)). Rows: the n most positive and the n most negative log-ratios, with
    the raw counts.
    """
    block = text_block(model, column)
    params = block.params()
    i, j = model.classes_.index(positive), model.classes_.index(negative)
    vocab = params["vocab"]
    weights = params["log_on"] if "log_on" in params else params["weights"]
    counts = block.counts(column, model.classes_).to_numpy()       # document frequencies for presence
    table = pd.DataFrame({
        "term": block.vocabulary_terms(),
        f"count[{positive}]": counts[:, i], f"count[{negative}]": counts[:, j],
        "log_ratio": weights[:, i] - weights[:, j],
    })
    table = table[np.isfinite(table["log_ratio"])].sort_values(["log_ratio", "term"], ascending=[False, True])
    return pd.concat([table.head(n), table.tail(n)]).drop_duplicates("term").reset_index(drop=True)


def zipf_table(model: Any, column: str) -> pd.DataFrame:
    """Per class, each word's count against its frequency rank (Zipf's law: a line on log-log axes)."""
    block = text_block(model, column)
    counts = block.word_counts[block.vocabulary()]
    rows = []
    for c, label in enumerate(model.classes_):
        ranked = np.sort(counts[:, c])[::-1]
        ranked = ranked[ranked > 0]
        rows.append(pd.DataFrame({"class": label, "rank": np.arange(1, len(ranked) + 1), "count": ranked}))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=["class", "rank", "count"])


def document_tokens(model: Any, column: str, doc: str, positive: Any, negative: Any) -> pd.DataFrame:
    """Each token of a document in order: the token as it appears after Unicode
    normalisation (what the model reads), the term it became, its status and its
    contribution to log P(positive | x) / P(negative | x).

    Tokens and terms come from :func:`nbapp.text.token_terms`, the model's own pipeline,
    so a word typed decomposed (NFD) is the word the model counted.
    status: "used" (in the vocabulary), "UNK" (seed 004's unknown word), "unseen" (ignored,
    as scikit-learn does) or "removed" (a stop word).
    Word n-grams beyond single words are scored in Explanation.words, not here.
    """
    from nbapp import text

    block = text_block(model, column)
    params = block.params()
    i, j = model.classes_.index(positive), model.classes_.index(negative)
    per_term = params["log_on"] if "log_on" in params else params["weights"]
    rows = []
    for token, term in text.token_terms(doc, block.options):   # one document's tokens
        pos = params["vocab_map"].get(term) if term is not None else None
        if term is None:
            status, odds = "removed", 0.0
        elif pos is not None:
            status, odds = "used", float(per_term[pos, i] - per_term[pos, j])
        elif params["unk"] is not None:
            status, odds = "UNK", float(params["unk"][i] - params["unk"][j])
        else:
            status, odds = "unseen", 0.0
        rows.append({"token": token, "term": term, "status": status, "log_odds": odds})
    return pd.DataFrame(rows, columns=["token", "term", "status", "log_odds"])
