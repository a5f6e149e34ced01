"""A text column as a bag of words, scaled with scipy.sparse end to end.

Statistics (:class:`TextStats`): for every term ever seen (before pruning), its count per
class N_wc, its document frequency per class D_wc, and the number of documents per class.
They add over any split of the documents (terms are united by name); the pruned vocabulary
(min_df, max_features) is derived from the merged statistics, so a merge of parts has the
vocabulary of one ``fit``.

Event models and vocabulary conventions (each cited where it is computed):

* multinomial, global vocabulary (default; scikit-learn's CountVectorizer + MultinomialNB):
  P(w | c) = (N_wc + l) / (N_c + l V); words outside the vocabulary are ignored
  [seed 000, Eq. 10].
* multinomial, per-class vocabulary with UNK [seed 004]:
  P(w | c) = (N_wc + a) / (n_c + a (V_c + 1)), P(UNK | c) = a / (n_c + a (V_c + 1)),
  V_c = word types seen in class c; every token not seen in class c scores as UNK.
* Bernoulli (presence / absence of every vocabulary word) [seed 002]:
  P(w present | c) = (D_wc + l) / (N_c + 2 l); absent words contribute log(1 - P).
* Complement NB (Rennie et al. 2003, as scikit-learn's ComplementNB, norm=False):
  weights -log((sum_{c' != c} N_wc' + l) / sum_w (...)). These are not likelihoods.

The multinomial coefficient (Eq. 9) is class-independent and left out of the joint.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp import text as _pipeline
from nbapp.blocks.base import (BAG_OF_WORDS, TEXT, Block, NotesTerms, Spec, Stats, check_table_budget, frozen,
                               state_matrix, state_vector, subtract_counts, take_classes)
from nbapp.blocks.categorical import log_ratio
from nbapp._derived import derived
from nbapp._limits import MAX_BYTES
from nbapp.errors import DataError
from nbapp.exact import to_fraction
from nbapp.factor import MISSING, UNDEFINED, USED, Factor
from nbapp.smoothing import check_alpha, exact_denominators, smoothed, smoothed_fraction, smoothed_share
from nbapp.text.matching import tokenising_job
from nbapp.blocks.base import CardValues, ParameterCount, document_card
from nbapp.smoothing import CellTerms
from nbapp.exact import exact_sum

__all__ = ["Text", "TextStats", "TextBlock", "documents"]

# Exact fractions of a document's factor are computed only for short documents: the
# product of hundreds of fractions has denominators too long to show anyone.
_MAX_TOKENS_FOR_FRACTIONS = 60

#: The most distinct terms (before min_df and max_features, which choose the vocabulary from
#: them) a text column's statistics may hold, whatever the number of classes: the cell budget
#: (terms x classes) never stops a 2-class model. A 2-class model this large writes a file of
#: about 22 MB with the 1-3-grams of unique 8-letter tokens (test_text_budget checks it stays
#: under the 32 MB a model file may have, ``nbapp._limits.MAX_BYTES``) and takes a few hundred
#: MB while it is fitted.
MAX_TERMS = 500_000


@dataclass(frozen=True)
class Text(Spec):
    """A text column as a bag of words   [seed 000, Eq. 9-11; seed 002; seed 004].

    ``options`` is a :class:`nbapp.text.TextOptions` (tokenising, stop words, stemming,
    n-grams, pruning). ``event_model``: "multinomial" (word counts) or "bernoulli"
    (presence / absence of every vocabulary word). ``vocabulary``: "global" (scikit-learn:
    words unseen in training are ignored) or "per_class_unk" (seed 004: one UNK word per
    class, V = word types seen in that class). ``complement``: Complement NB (Rennie et
    al. 2003) as scikit-learn's ComplementNB.
    """

    kind: ClassVar[str] = "text"
    options: Any = None
    event_model: Literal["multinomial", "bernoulli"] = "multinomial"
    vocabulary: Literal["global", "per_class_unk"] = "global"
    complement: bool = False
    alpha: float | None = None

    def __post_init__(self) -> None:
        check_alpha(self.alpha)
        if self.options is not None and not isinstance(self.options, _pipeline.TextOptions):
            raise DataError(f"Text options must be nbapp.text.TextOptions, not {type(self.options).__name__}.")
        if not isinstance(self.complement, bool):
            raise DataError(f"Text complement must be true or false, not {self.complement!r}.")
        if self.event_model not in ("multinomial", "bernoulli"):
            raise DataError(f"Text event_model must be 'multinomial' or 'bernoulli', not {self.event_model!r}.")
        if self.vocabulary not in ("global", "per_class_unk"):
            raise DataError(f"Text vocabulary must be 'global' or 'per_class_unk', not {self.vocabulary!r}.")
        if self.complement and (self.event_model != "multinomial" or self.vocabulary != "global"):
            raise DataError("Complement NB works with the multinomial event model and the global vocabulary only.")

    def to_dict(self) -> dict[str, Any]:
        """The spec's JSON form, its TextOptions as their own JSON form."""
        out = super().to_dict()
        out["options"] = None if self.options is None else self.options.to_dict()
        return out

    @classmethod
    def _options_from_dict(cls, options: dict[str, Any], where: str) -> dict[str, Any]:
        if options.get("options") is None:
            return options
        return {**options, "options": _pipeline.TextOptions.from_dict(options["options"])}


@dataclass(frozen=True, eq=False)
class TextStats(Stats):
    """terms (in the order first seen), word_counts and doc_freq (terms x classes), n_docs per class."""

    terms: tuple[str, ...]
    word_counts: np.ndarray
    doc_freq: np.ndarray
    n_docs: np.ndarray

    def __post_init__(self) -> None:
        for name in ("word_counts", "doc_freq", "n_docs"):
            object.__setattr__(self, name, frozen(getattr(self, name)))

    def __add__(self, other: "TextStats") -> "TextStats":
        index = pd.Index(self.terms, dtype=object)
        position = index.get_indexer(pd.Index(other.terms, dtype=object))
        new = position < 0
        terms = self.terms + tuple(np.asarray(other.terms, dtype=object)[new])
        position[new] = len(self.terms) + np.arange(new.sum())
        shape = (len(terms), self.word_counts.shape[1])
        word_counts, doc_freq = np.zeros(shape), np.zeros(shape)
        word_counts[: len(self.terms)] = self.word_counts
        doc_freq[: len(self.terms)] = self.doc_freq
        word_counts[position] += other.word_counts
        doc_freq[position] += other.doc_freq
        return TextStats(terms, word_counts, doc_freq, self.n_docs + other.n_docs)

    def __sub__(self, other: "TextStats") -> "TextStats":
        position = pd.Index(self.terms, dtype=object).get_indexer(pd.Index(other.terms, dtype=object))
        if (position < 0).any():
            raise ValueError("subtracting statistics with words that are not in the total")
        taken_words, taken_docs = np.zeros_like(self.word_counts), np.zeros_like(self.doc_freq)
        taken_words[position], taken_docs[position] = other.word_counts, other.doc_freq
        word_counts = subtract_counts(self.word_counts, taken_words)
        doc_freq = subtract_counts(self.doc_freq, taken_docs)
        gone = np.zeros(len(self.terms), dtype=bool)
        gone[position] = ~(word_counts[position].any(axis=1) | doc_freq[position].any(axis=1))
        kept = np.flatnonzero(~gone)
        return TextStats(tuple(self.terms[i] for i in kept), word_counts[kept], doc_freq[kept],
                         subtract_counts(self.n_docs, other.n_docs))

    def reindex_classes(self, take: np.ndarray) -> "TextStats":
        return TextStats(self.terms, take_classes(self.word_counts, take, axis=1),
                         take_classes(self.doc_freq, take, axis=1), take_classes(self.n_docs, take, axis=0))

    def to_state(self) -> dict[str, Any]:
        """The terms written in sorted order (they are kept in the order first seen, which
        depends on the order the rows came in), so equal statistics write equal files."""
        order = sorted(range(len(self.terms)), key=self.terms.__getitem__)
        return {"terms": [self.terms[i] for i in order], "word_counts": self.word_counts[order].tolist(),
                "doc_freq": self.doc_freq[order].tolist(), "n_docs": self.n_docs.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "TextStats":
        terms = state.get("terms")
        if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
            raise DataError(f"{where}: 'terms' should be a list of strings.")
        if len(set(terms)) != len(terms):
            seen: set[str] = set()
            repeated = next(t for t in terms if t in seen or seen.add(t))
            raise DataError(f"{where}: the term {repeated!r} is listed twice.")
        shape = (len(terms), n_classes)
        word_counts = state_matrix(state.get("word_counts"), shape, f"{where}: word_counts")
        doc_freq = state_matrix(state.get("doc_freq"), shape, f"{where}: doc_freq")
        n_docs = state_vector(state.get("n_docs"), n_classes, f"{where}: n_docs")
        return cls(tuple(terms), word_counts, doc_freq, n_docs)


class TextBlock(Block):
    """A text column. It states no aggregates (``Block.aggregates``): its tokens must equal
    scikit-learn's, which only nbapp's own tokeniser gives, so DuckDB and Spark stream its rows
    into :meth:`summarize` and PostgreSQL refuses it by name (:mod:`nbapp.scale._aggregates`)."""

    kind = "text"
    title = "Text"
    description = "a bag of words: P(w | c) for each word of the vocabulary"
    value_kind = TEXT
    baseline = BAG_OF_WORDS
    spec_type = Text
    stats_type = TextStats

    def __init__(self, columns: Sequence[str], specs: Sequence[Any], settings: Any, stats: TextStats) -> None:
        super().__init__(columns, specs, settings, stats)
        self.spec = self.specs[0]
        self.options = options_of(self.spec)
        self.terms = list(stats.terms)
        self.word_counts, self.doc_freq, self.n_docs = stats.word_counts, stats.doc_freq, stats.n_docs

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> TextStats:
        """N_wc, D_wc and the documents per class, counted from the term occurrences chunk by
        chunk (terms in the order first seen)."""
        column, unpruned = columns[0], _unpruned(options_of(specs[0]))
        series = frame[column]
        index: dict[str, int] = {}
        sums = _ClassSums(n_classes)
        n_docs = np.zeros(n_classes)
        with tokenising_job(series):          # one deadline for the column's token pattern
            for start in range(0, len(series), _DOCS_PER_STEP):
                part = slice(start, start + _DOCS_PER_STEP)
                docs = documents(series.iloc[part], column)
                observed = ~pd.isna(docs).to_numpy()
                y_part, w_part = y[part], w[part]
                try:
                    for found in _pipeline.term_occurrences(docs.tolist(), unpruned, index, max_terms=MAX_TERMS):
                        check_table_budget(len(index), n_classes, column, "distinct terms")
                        sums.add(found.start + found.doc, found.term, y_part, w_part, len(index))
                except _pipeline.TooManyTerms as err:
                    raise _too_many_terms(column, unpruned, err.found, start + len(docs), len(series)) from None
                n_docs += np.bincount(y_part[observed], weights=w_part[observed], minlength=n_classes)
        counts, present = sums.tables(len(index))
        return TextStats(tuple(index), counts, present, n_docs)

    def check(self) -> None:
        if not len(self.vocabulary()):
            raise DataError(f"Column {self.column!r} has no words left after preprocessing (every token is a "
                            "stop word, pruned, or the documents are empty); relax the stop words or pruning.")

    def _unpruned(self):
        return _unpruned(self.options)

    # -- the vocabulary and parameters -----------------------------------------------------
    @derived
    def vocabulary(self) -> np.ndarray:
        """Indices (into self.terms) of the pruned vocabulary, in alphabetical term order."""
        keep = np.flatnonzero(self.doc_freq.sum(axis=1) >= self.options.min_df)
        if self.options.max_features is not None and len(keep) > self.options.max_features:
            totals = self.word_counts[keep].sum(axis=1)
            names = np.array(self.terms, dtype=object)[keep]
            order = np.lexsort((names, -totals))
            keep = keep[order[: self.options.max_features]]
        names = np.array(self.terms, dtype=object)[keep]
        return keep[np.argsort(names, kind="stable")]

    @derived
    def params(self) -> dict[str, Any]:
        weights = self._weights()
        defined = not np.isnan(weights["weights"]).any() and not (
            weights["unk"] is not None and np.isnan(weights["unk"]).any())
        return {**weights, "defined": defined,
                "vocab_map": {self.terms[i]: j for j, i in enumerate(self.vocabulary())}}

    def _weights(self) -> dict[str, Any]:
        vocab = self.vocabulary()
        counts = self.word_counts[vocab]
        v = len(vocab)
        a = float(self.smoothing.pseudo_counts(max(v, 1))[0]) if v else 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.spec.event_model == "bernoulli":
                theta = smoothed_share(self.doc_freq[vocab], self.n_docs, a, 2 * a)   # P(w present | c)
                log_on, log_off = np.log(theta), np.log1p(-theta)
                return {"vocab": vocab, "alpha": a, "log_on": log_on, "log_off": log_off,
                        "weights": log_on - log_off, "constant": log_off.sum(axis=0), "unk": None}
            if self.spec.complement:
                comp = counts.sum(axis=1, keepdims=True) - counts + a
                weights = -np.log(comp / comp.sum(axis=0))
                return {"vocab": vocab, "alpha": a, "weights": weights, "constant": 0.0, "unk": None}
            if self.spec.vocabulary == "per_class_unk":
                n_c = counts.sum(axis=0)
                v_c = (counts > 0).sum(axis=0)
                den = n_c + a * (v_c + 1)
                weights = np.log(counts + a) - np.log(den)
                return {"vocab": vocab, "alpha": a, "weights": weights, "constant": 0.0,
                        "unk": np.log(a) - np.log(den)}
            total = float(self.smoothing.pseudo_total(v)) if v else 0.0   # l V, or seed 003's m
            theta = smoothed(counts, np.full(v, a), total)
            return {"vocab": vocab, "alpha": a, "weights": np.log(theta), "constant": 0.0, "unk": None}

    def defined(self, params: dict[str, Any]) -> bool:
        return params["defined"]

    def _design(self, docs: pd.Series, params: dict[str, Any]) -> sparse.csr_matrix:
        x = _pipeline.count_matrix(docs.tolist(), params["vocab_map"], self._unpruned())
        if self.spec.event_model == "bernoulli":
            x = sparse.csr_matrix((np.ones(x.nnz), x.indices, x.indptr), shape=x.shape)
        return x

    # -- prediction ------------------------------------------------------------------------
    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        out = np.zeros((len(frame), n_classes))
        if self.column not in frame:
            return out
        params = self.params()
        if not self.defined(params):
            return out
        column = frame[self.column]
        with tokenising_job(column):          # one deadline for scoring the column
            for start in range(0, len(column), _DOCS_PER_STEP):
                docs = documents(column.iloc[start:start + _DOCS_PER_STEP], self.column)
                observed = ~pd.isna(docs).to_numpy()
                if observed.any():
                    out[start:start + len(docs)][observed] = self._document_log_likelihood(docs[observed], params)
        return out

    def _document_log_likelihood(self, docs: pd.Series, params: dict[str, Any]) -> np.ndarray:
        """sum over the document's term occurrences of the term's weight per class (the
        count x log theta of each distinct term, summed: seed 000 Eq. 11), plus the UNK
        tokens' (seed 004) and the Bernoulli constant; one tokenising pass, no count matrix."""
        weights, n = params["weights"], len(docs)
        jll = np.zeros((n, weights.shape[1]))
        jll += params["constant"]
        for found in _pipeline.vocabulary_occurrences(docs.tolist(), params["vocab_map"], self._unpruned()):
            rows = slice(found.start, found.stop)
            seen = found.term >= 0
            jll[rows] += _occurrences_matrix(found.doc[seen], found.term[seen], found.stop - found.start,
                                             weights.shape[0], once=self.spec.event_model == "bernoulli") @ weights
            if params["unk"] is not None:
                unseen = np.bincount(found.doc[~seen], minlength=found.stop - found.start)
                jll[rows] += unseen[:, None] * params["unk"][None, :]
        return jll

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        n_classes = len(classes)
        value = row.get(self.column)
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            return [Factor.skipped(self.column, self.kind, value, MISSING, n_classes,
                                   "no document: left out of the product (seed 000, Eq. 22)")]
        params = self.params()
        if not self.defined(params):
            return [Factor.skipped(self.column, self.kind, value, UNDEFINED, n_classes,
                                   "some class has no words at all and l = 0 gives 0/0")]
        terms = Counter(_pipeline.analyze(str(value), self.options))
        words, log = self.words_table(terms, params, classes)
        detail = "the sum over the document's words (table in Explanation.words); the multinomial coefficient cancels"
        return [Factor(self.column, self.kind, value, USED, log, self._fractions(terms, params), detail, words)]

    def words(self, doc: str, classes: list[Any] | None = None) -> pd.DataFrame:
        """Each distinct term of one document: its count, status and log-weight per class."""
        return self.words_table(Counter(_pipeline.analyze(doc, self.options)), self.params(), classes)[0]

    def words_table(self, terms: Counter, params: dict[str, Any],
                    classes: list[Any] | None) -> tuple[pd.DataFrame, np.ndarray]:
        """Rows: the document's distinct terms (status used / UNK / unseen) and, for the Bernoulli
        event model, one row for all absent vocabulary words; and the sum of their contributions,
        which is the text factor's log-likelihood per class."""
        n_classes = params["weights"].shape[1]
        names = classes if classes is not None else list(range(n_classes))
        bernoulli = self.spec.event_model == "bernoulli"
        per_term = params["log_on"] if bernoulli else params["weights"]
        vocab_map = params["vocab_map"]
        counts = np.fromiter(terms.values(), dtype=float, count=len(terms))
        positions = np.array([vocab_map.get(t, -1) for t in terms], dtype=int)
        known = positions >= 0
        logs = np.full((len(terms), n_classes), np.nan)
        logs[known] = per_term[positions[known]]
        status = np.where(known, USED, "UNK" if params["unk"] is not None else "unseen").astype(object)
        if params["unk"] is not None:
            logs[~known] = params["unk"]
        used_counts = np.where(known | (params["unk"] is not None), 1.0 if bernoulli else counts, 0.0)
        with np.errstate(invalid="ignore"):
            contributions = np.where(used_counts[:, None] > 0, used_counts[:, None] * logs, 0.0)
        table = {"term": list(terms), "count": counts.astype(int), "status": status}
        table.update({f"log[{c}]": logs[:, j] for j, c in enumerate(names)})
        table.update({f"contribution[{c}]": contributions[:, j] for j, c in enumerate(names)})
        total = contributions.sum(axis=0)
        words = pd.DataFrame(table)
        if bernoulli:
            absent = params["constant"] - params["log_off"][positions[known]].sum(axis=0)
            total = total + absent
            words.loc[len(words)] = {"term": "(absent vocabulary words)", "count": 0, "status": "absent",
                                     **{f"log[{c}]": np.nan for c in names},
                                     **{f"contribution[{c}]": v for c, v in zip(names, absent)}}
        return words, total

    def _fractions(self, terms: Counter, params: dict[str, Any]) -> tuple[Fraction | None, ...] | None:
        if (self.spec.event_model != "multinomial" or self.spec.complement or params["unk"] is not None
                or sum(terms.values()) > _MAX_TOKENS_FOR_FRACTIONS):
            return None
        vocab, vocab_map = params["vocab"], params["vocab_map"]
        counts = self.word_counts[vocab]
        a = to_fraction(params["alpha"])
        out = []
        for c, den in enumerate(self._denominators()):
            if den == 0:
                return None
            total = Fraction(1)
            for term, count in terms.items():
                if term in vocab_map:
                    total *= smoothed_fraction(counts[vocab_map[term], c], a, den) ** int(count)
            out.append(total)
        return tuple(out)

    @derived
    def _denominators(self) -> list[Fraction]:
        """N_c + l V per class, exactly (the multinomial theta's denominator, seed 000 Eq. 10)."""
        params = self.params()
        counts = self.word_counts[params["vocab"]]
        pseudo = [to_fraction(params["alpha"])] * len(params["vocab"])
        total = self.smoothing.pseudo_total(len(params["vocab"])) if params["vocab"].size else None
        return exact_denominators(counts, pseudo, total)

    # -- tables ----------------------------------------------------------------------------
    def top_words(self, column: str, classes: list[Any], n: int = 10) -> pd.DataFrame:
        """The n most probable words per class: probability is P(w | c) (multinomial, with UNK:
        seed 000 Eq. 10, seed 004) or P(w present | c) (Bernoulli, seed 002). For Complement NB
        the words are ranked by the class's own smoothed P(w | c); log_weight is then the
        complement weight the model scores with (not a log-probability)."""
        params = self.params()
        vocab = params["vocab"]
        names = np.array(self.terms, dtype=object)[vocab]
        bernoulli = self.spec.event_model == "bernoulli"
        counts = self.doc_freq[vocab] if bernoulli else self.word_counts[vocab]
        if bernoulli:
            probability = np.exp(params["log_on"])
        elif self.spec.complement:
            probability = smoothed(counts, np.full(len(vocab), params["alpha"]))
        else:
            probability = np.exp(params["weights"])
        rows = []
        for c, label in enumerate(classes):
            order = np.lexsort((names, -probability[:, c]))[:n]
            for rank, j in enumerate(order, start=1):
                rows.append({"class": label, "rank": rank, "term": names[j], "count": counts[j, c],
                             "probability": probability[j, c], "log_weight": params["weights"][j, c]})
        return pd.DataFrame(rows, columns=["class", "rank", "term", "count", "probability", "log_weight"])

    def vocabulary_terms(self) -> list[str]:
        return [self.terms[i] for i in self.vocabulary()]

    def cpt(self, column: str, classes: list[Any], exact: bool = False) -> pd.DataFrame:
        """P(w | c) (or P(w present | c)) of each vocabulary word; exact for the multinomial."""
        params = self.params()
        index = pd.Index(self.vocabulary_terms(), name=column)
        if exact and self.spec.event_model == "multinomial" and not self.spec.complement and params["unk"] is None:
            counts = self.word_counts[params["vocab"]]
            a = to_fraction(params["alpha"])
            dens = self._denominators()
            cells = [[smoothed_fraction(counts[j, c], a, den) for c, den in enumerate(dens)]
                     for j in range(len(index))]
            return pd.DataFrame(cells, index=index, columns=classes, dtype=object)
        return pd.DataFrame(np.exp(params["log_on"] if "log_on" in params else params["weights"]),
                            index=index, columns=classes)

    def counts(self, column: str, classes: list[Any]) -> pd.DataFrame:
        source = self.doc_freq if self.spec.event_model == "bernoulli" else self.word_counts
        return pd.DataFrame(source[self.vocabulary()], index=pd.Index(self.vocabulary_terms(), name=column),
                            columns=classes)

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The rows' documents, each one fixed term (the sum of its words' factors)."""
        return document_card(seen)

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """Word counts (or presences), w = log theta_c1 / theta_c0   [seed 000, Eq. 19; seed 002];
        plus the UNK-token count (seed 004) and, for the Bernoulli event model, an "observed" term
        carrying the absent words' constant."""
        params = self.params()
        names = [f"{self.column}: {t}" for t in self.vocabulary_terms()]
        weights = [log_ratio(params["weights"])]
        n = len(frame)
        if n and self.column in frame:
            docs = documents(frame[self.column], self.column)
            observed = ~pd.isna(docs).to_numpy()
            x = sparse.lil_matrix((n, len(names)))
            x[np.flatnonzero(observed)] = self._design(docs[observed], params)
            x = x.tocsr()
        else:
            observed = np.zeros(n, dtype=bool)
            x = sparse.csr_matrix((n, len(names)))
        extra_names, extra_cols = [], []
        if params["unk"] is not None:
            extra_names.append(f"{self.column}: UNK tokens")
            weights.append(np.array([params["unk"][1] - params["unk"][0]]))
            unseen = np.zeros(n)
            if observed.any():
                unseen[observed] = _pipeline.unseen_counts(list(docs[observed]), params["vocab_map"], self._unpruned())
            extra_cols.append(unseen)
        if self.spec.event_model == "bernoulli":
            extra_names.append(f"{self.column} observed")
            weights.append(np.array([params["constant"][1] - params["constant"][0]]))
            extra_cols.append(observed.astype(float))
        if extra_cols:
            x = sparse.hstack([x, sparse.csr_matrix(np.column_stack(extra_cols))], format="csr")
        return x, names + extra_names, np.concatenate(weights)

    def cell_values_symbol(self, column: str) -> str:
        """V, the vocabulary, for word counts (seed 000, Eq. 10); K = 2 values (present or not)
        for the Bernoulli event model."""
        return "V" if self.spec.event_model == "multinomial" else "K"

    def cell_terms(self, column: str, row: Any, c: int) -> CellTerms | None:
        """The numbers of P(w | c) for the word ``row``, unreduced: (N_wc + l) / (N_c + l V)
        [seed 000, Eq. 10]; with the per-class vocabulary (N_wc + a) / (n_c + a (V_c + 1)), and for
        a word outside the vocabulary P(UNK | c) = (0 + a) / (n_c + a (V_c + 1))   [seed 004];
        P(w present | c) = (D_wc + l) / (N_c + 2 l) for the Bernoulli event model   [seed 002].
        None for Complement NB (its weights are not probabilities) and for a word the model ignores."""
        params = self.params()
        position = params["vocab_map"].get(row)
        if self.spec.complement or (position is None and params["unk"] is None):
            return None
        a = to_fraction(params["alpha"])
        if self.spec.event_model == "bernoulli":
            return CellTerms(to_fraction(self.doc_freq[params["vocab"][position], c]), a,
                             to_fraction(self.n_docs[c]), 2 * a)
        counts = self.word_counts[params["vocab"], c]
        count = Fraction(0) if position is None else to_fraction(counts[position])
        if params["unk"] is not None:
            return CellTerms(count, a, exact_sum(counts), a * (int((counts > 0).sum()) + 1))
        return CellTerms(count, a, exact_sum(counts), self.smoothing.pseudo_total(len(params["vocab"])))

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """Over the vocabulary of V words: C (V - 1) for the multinomial (and Complement NB), each
        class's P(w | c) summing to 1   [seed 000, Eq. 10]; C V for the Bernoulli event model (one
        P(w present | c) per word and class, seed 002); with the per-class vocabulary, V_c word
        types and UNK per class, sum_c V_c   [seed 004]."""
        params = self.params()
        v = len(params["vocab"])
        if self.spec.event_model == "bernoulli":
            return [ParameterCount((self.column,), n_classes * v, "C V", f"{n_classes} × {v}",
                                   f"P(w present | c) for each of the V = {v} words and C = {n_classes} classes")]
        if params["unk"] is not None:
            per_class = [int(n) for n in (self.word_counts[params["vocab"]] > 0).sum(axis=0)]
            return [ParameterCount((self.column,), sum(per_class), "Σ_c V_c", " + ".join(map(str, per_class)),
                                   "per class, P(w | c) for each of its V_c word types and P(UNK | c), "
                                   "which sum to 1")]
        return [ParameterCount((self.column,), n_classes * (v - 1), "C (V − 1)", f"{n_classes} × ({v} − 1)",
                               f"P(w | c) for each of the V = {v} words and C = {n_classes} classes; "
                               "each class's V probabilities sum to 1")]

    def notes_terms(self, column: str, weights: pd.Series) -> NotesTerms:
        """Word counts, w_MULT = log theta+ / theta- (Eq. 19); or, for the Bernoulli event model,
        word presences with the absent words' constant in b_BER (seed 002, seed 000 Eq. 18)."""
        bernoulli = self.spec.event_model == "bernoulli"
        return dataclasses.replace(super().notes_terms(column, weights), label="BER" if bernoulli else "MULT")

    # -- sampling --------------------------------------------------------------------------
    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        with np.errstate(invalid="ignore", divide="ignore"):
            lengths = rng.poisson(np.nan_to_num(self.word_counts.sum(axis=0) / self.n_docs)[y])
        params = self.params()
        names = np.array([self.terms[i] for i in params["vocab"]], dtype=object)
        theta = np.nan_to_num(np.exp(params["weights"] if self.spec.event_model != "bernoulli" else params["log_on"]))
        if self.spec.event_model == "bernoulli":
            present = rng.random((len(y), len(names))) < theta[:, y].T
            return {self.column: np.array([" ".join(names[row]) for row in present], dtype=object)}
        probs = theta / theta.sum(axis=0, keepdims=True)
        counts = rng.multinomial(lengths.astype(int), probs[:, y].T)
        return {self.column: np.array([" ".join(np.repeat(names, row)) for row in counts], dtype=object)}


def options_of(spec: Text) -> Any:
    """A text spec's pipeline options (the defaults when it gives none)."""
    return spec.options if spec.options is not None else _pipeline.TextOptions()


def _too_many_terms(column: str, options: Any, found: int, read: int, n_docs: int) -> DataError:
    """The refusal of a column whose distinct terms pass :data:`MAX_TERMS`."""
    lo, hi = options.ngram_range
    kind = "words" if (lo, hi) == (1, 1) else f"{lo}- to {hi}-grams of words" if lo < hi else f"{lo}-grams"
    smaller = "words only, ngram_range (1, 1)" if hi > 2 else "words only" if hi > 1 else "stop words or stemming"
    return DataError(
        f"Column {column!r} has more than {MAX_TERMS:,} distinct terms ({kind}; {found:,} counted in the "
        f"first {read:,} of its {n_docs:,} documents). A model keeps the counts of every distinct term, "
        "so that models merge exactly (min_df and max_features choose the vocabulary from these counts and "
        f"do not lower them); beyond {MAX_TERMS:,} its file would pass the {MAX_BYTES // 2**20} MB a model file may "
        "have. "
        f"Use fewer distinct terms: {smaller}, or fewer documents."
    )


def _unpruned(options: Any) -> Any:
    """The options without pruning: statistics keep every term; pruning is derived after merging."""
    return dataclasses.replace(options, min_df=1, max_features=None)


# Documents per step: Python strings are made for one step at a time (a pandas text column
# is stored compactly; 100,000 documents as Python strings would take another copy).
_DOCS_PER_STEP = 10_000

class _ClassSums:
    """Per term and class, the weighted word count N_wc and the weighted number of documents
    holding the term D_wc, summed over chunks of term occurrences; the tables grow with the
    terms (terms x classes, flat, doubling their room)."""

    def __init__(self, n_classes: int) -> None:
        self.n_classes = n_classes
        self.counts = np.zeros(0)
        self.present = np.zeros(0)

    def add(self, doc: np.ndarray, term: np.ndarray, y: np.ndarray, w: np.ndarray, n_terms: int) -> None:
        """Occurrences of ``term`` in documents ``doc`` (positions into ``y`` and ``w``)."""
        cells = n_terms * self.n_classes
        if cells > len(self.counts):
            room = max(cells, 2 * len(self.counts))
            self.counts = np.concatenate([self.counts, np.zeros(room - len(self.counts))])
            self.present = np.concatenate([self.present, np.zeros(room - len(self.present))])
        _add_weights(self.counts, term * self.n_classes + y[doc], w[doc], cells)
        pairs = pd.unique(doc * n_terms + term)          # each (document, term) once
        doc_once, term_once = np.divmod(pairs, n_terms)
        _add_weights(self.present, term_once * self.n_classes + y[doc_once], w[doc_once], cells)

    def tables(self, n_terms: int) -> tuple[np.ndarray, np.ndarray]:
        cells = n_terms * self.n_classes
        return (self.counts[:cells].reshape(n_terms, self.n_classes),
                self.present[:cells].reshape(n_terms, self.n_classes))


def _add_weights(table: np.ndarray, cell: np.ndarray, weight: np.ndarray, used: int) -> None:
    """table[cell[i]] += weight[i] for every i (cells repeat, all below ``used``), in time
    linear in len(cell): one bincount over the used cells when they are few, else over the
    distinct cells."""
    if used <= 4 * len(cell):
        table[:used] += np.bincount(cell, weights=weight, minlength=used)
        return
    ids, cells = pd.factorize(cell)
    table[cells] += np.bincount(ids, weights=weight, minlength=len(cells))


def _occurrences_matrix(doc: np.ndarray, term: np.ndarray, n_docs: int, n_terms: int, *, once: bool) -> sparse.csr_matrix:
    """Documents x terms, one entry per occurrence (a product with it sums the occurrences), or
    with ``once`` one entry of 1 per distinct (document, term): presence (seed 002)."""
    if len(doc) and np.any(doc[1:] < doc[:-1]):      # n-grams come after the unigrams
        order = np.argsort(doc, kind="stable")
        doc, term = doc[order], term[order]
    indptr = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(np.bincount(doc, minlength=n_docs), out=indptr[1:])
    x = sparse.csr_matrix((np.ones(len(term)), term, indptr), shape=(n_docs, n_terms))
    if once:
        x.sum_duplicates()
        x.data[:] = 1.0
    return x


def documents(series: pd.Series, column: str) -> pd.Series:
    """Documents as str (missing stays missing); a numeric column is refused by name."""
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series) and series.notna().any():
        raise DataError(f"Column {column!r} is text but holds numbers (e.g. {series.dropna().iloc[0]!r}); "
                        "type it Gaussian or categorical.")
    return series.astype(object).where(series.notna(), None)
