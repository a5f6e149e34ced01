"""The text type in the app: its preprocessing and model choices (the Model and Text pages), its
words on Explain (one factor per word, per class), its summary in the sidebar, and the text
event models' words (seed 000, Eq. 9-11; seed 002; seed 004). The Text page is about this type
only: it finds its columns here (:func:`text_columns`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from nbapp.text import MAX_NGRAM_N, TextOptions
from nbapp.text.stopwords import ENGLISH_STOP_WORDS
from ui import formulas
from ui.classes import labels_of
from ui.lecture import ref
from ui.state import offer_change, refused
from ui.text import counted, fmt_log, fmt_number, md
from ui.views.base import CountedView
from ui.widgets import synced

__all__ = ["TextView", "text_columns", "text_options", "changed", "summary", "probability_label", "is_bernoulli",
           "word_rows", "text_settings_ui", "BUILT_IN_STOP_WORDS"]

BUILT_IN_STOP_WORDS = tuple(sorted(ENGLISH_STOP_WORDS))
STOP_MODES = {"off": "off", "english": "built-in English list (editable)"}
_NGRAM_NAMES = {1: "words (1-grams)", 2: "words and bigrams (1-2-grams)", 3: "words, bigrams and trigrams (1-3-grams)"}
NGRAMS = {n: _NGRAM_NAMES.get(n, f"1- to {n}-grams") for n in range(1, MAX_NGRAM_N + 1)}   # the library's bound
EVENT_MODELS = {"multinomial": "multinomial (word counts)", "bernoulli": "Bernoulli (presence / absence)"}
VOCABULARIES = {"global": "global vocabulary, unseen words ignored (scikit-learn)",
                "per_class_unk": "per-class vocabulary with an UNK word"}
_OPTION_FIELDS = frozenset(TextOptions.__dataclass_fields__)


class TextView(CountedView):
    repeatable = True
    @property
    def in_cpt_section(self) -> bool:
        return False

    def data_note(self, columns: Sequence[Any]) -> str | None:
        return ("Text columns: set the preprocessing (stop words, stemming, n-grams) and the event model on the "
                "Model page; the Text page shows each step and explains a document word by word.")

    def summary(self, spec: Any) -> str | None:
        return summary(spec)

    def options_section(self, columns: Sequence[Any], work: Any, frame: pd.DataFrame) -> None:
        text_settings_ui(columns, work.features, prefix="model")

    def words_label(self, spec: Any) -> str:
        return probability_label(spec)

    def factor_counts(self, model: Any, column: Any, value: Any, cls: Any, counts: pd.DataFrame | None) -> str:
        return "∏ words (below)"

    def repeated(self, value: Any, times: int) -> Any:
        return " ".join([value] * times) if isinstance(value, str) else value


def text_columns(specs: Mapping[Any, Any]) -> list[Any]:
    """The text columns among ``specs`` (column -> spec), in their order."""
    return [c for c, s in specs.items() if getattr(s, "kind", None) == "text"]


def text_options(spec: Any) -> TextOptions:
    """The column's preprocessing (the library's defaults when none was set)."""
    return spec.options if spec.options is not None else TextOptions()


def is_bernoulli(spec: Any) -> bool:
    """Does the text column use the Bernoulli event model (presence / absence of words, seed 002)?"""
    return spec.event_model == "bernoulli"


def changed(spec: Any, **changes: Any) -> Any:
    """``spec`` with some of its settings changed: preprocessing options (lowercase, token_pattern,
    stop_words, stem, ngram_range, min_df, max_features, unicode_form) or the model's (event_model,
    vocabulary, complement). Raises DataError for settings nbapp refuses (a token pattern that is not
    a regular expression); a change of the event model or the vocabulary that Complement NB cannot
    follow turns Complement NB off rather than being refused."""
    options = {k: v for k, v in changes.items() if k in _OPTION_FIELDS}
    own = {k: v for k, v in changes.items() if k not in _OPTION_FIELDS}
    new_options = dataclasses.replace(text_options(spec), **options) if options else spec.options
    try:
        return dataclasses.replace(spec, options=new_options, **own)
    except DataError:
        if not spec.complement or "complement" in own:
            raise
        return dataclasses.replace(spec, options=new_options, **own, complement=False)


def summary(spec: Any) -> str:
    """A text column's settings in a few words, e.g. "multinomial, stop words, stemmed, 1-2-grams"."""
    o = text_options(spec)
    parts = [spec.event_model + (" (per-class UNK)" if spec.vocabulary == "per_class_unk" else "")
             + (", Complement NB" if spec.complement else "")]
    if o.stop_words is not None:
        parts.append("stop words")
    if o.stem:
        parts.append("stemmed")
    if o.ngram_range[1] > 1:
        parts.append(f"1-{o.ngram_range[1]}-grams")
    if o.min_df > 1:
        parts.append(f"min_df {o.min_df}")
    if o.max_features:
        parts.append(f"at most {o.max_features:,} words")
    if not o.lowercase:
        parts.append("case kept")
    if o.token_pattern != TextOptions.token_pattern:
        parts.append(f"tokens {o.token_pattern}")
    return ", ".join(parts)


def probability_label(spec: Any) -> str:
    """What ``top_words``' probability column holds for a text block: P(w present | c) for the
    Bernoulli event model (seed 002), else P(w | c) (seed 000, Eq. 10)."""
    return "P(w present | c)" if is_bernoulli(spec) else "P(w | c)"


# --------------------------------------------------------------------------- the settings


def text_settings_ui(columns: Sequence[Any], features: Mapping[Any, Any], *, prefix: str,
                     heading: bool = True) -> None:
    """The "Text preprocessing" section: every text setting of one text column (a select
    chooses the column when there are several).

    Values live in the column's spec in the work (they key the fitting cache); a setting nbapp
    refuses (a bad regular expression) is kept in its box and answered with its DataError sentence.
    """
    if heading:
        st.subheader("Text preprocessing")
    column = columns[0]
    if len(columns) > 1:
        column = st.selectbox("Text column", list(columns), format_func=str, key=f"{prefix}.text_column")
    index = list(columns).index(column)
    spec = features[column]
    key = f"_{prefix}_text::{index}"
    left, middle, right = st.columns(3)
    with left:
        _tokenising_ui(column, spec, key)
    with middle:
        _stop_words_ui(column, spec, key)
    with right:
        _model_choice_ui(column, spec, key)
    error = refused(column)
    if error is not None:
        st.error(md(error[1]))


def _set(column: Any, spec: Any, **changes: Any) -> None:
    """Store a change, or keep the refused value and its sentence for the page to show."""
    offer_change(column, changes, changed)


def _refused(column: Any, name: str, fallback: Any) -> Any:
    """The value the user typed and nbapp refused (so it stays in its box), else ``fallback``."""
    error = refused(column)
    return error[0].get(name, fallback) if error is not None else fallback


def _tokenising_ui(column: Any, spec: Any, key: str) -> None:
    o = text_options(spec)
    st.markdown("**Tokens**")
    synced(st.checkbox, "Lowercase", key=f"{key}::lowercase", value=o.lowercase,
           on_set=lambda v: _set(column, spec, lowercase=bool(v)))
    synced(st.checkbox, "Unicode NFC normalisation", key=f"{key}::nfc", value=o.unicode_form == "NFC",
           on_set=lambda v: _set(column, spec, unicode_form="NFC" if v else None))
    synced(st.text_input, "Token pattern (regular expression)", key=f"{key}::pattern",
           value=_refused(column, "token_pattern", o.token_pattern),
           on_set=lambda v: _set(column, spec, token_pattern=str(v)),
           help=r"Each match is a token. (?u)\w+ is word characters, as scikit-learn's CountVectorizer "
                r"with token_pattern=r'(?u)\w+'; scikit-learn's own default (?u)\b\w\w+\b drops 1-letter words.")
    synced(st.checkbox, f"Stemming (Snowball English, Porter's revised algorithm){ref('seed 004')}",
           key=f"{key}::stem", value=o.stem, on_set=lambda v: _set(column, spec, stem=bool(v)))
    synced(st.radio, "n-grams", key=f"{key}::ngrams", value=o.ngram_range[1], options=list(NGRAMS),
           format_func=NGRAMS.get, on_set=lambda v: _set(column, spec, ngram_range=(1, int(v))))


def _stop_words_ui(column: Any, spec: Any, key: str) -> None:
    words = text_options(spec).stop_words
    st.markdown(f"**Stop words**{ref('seed 000, ex. 2.2')}")
    mode = synced(st.radio, "Stop words", key=f"{key}::stop", value="off" if words is None else "english",
                  options=list(STOP_MODES), format_func=STOP_MODES.get, label_visibility="collapsed",
                  on_set=lambda v: _set(column, spec, stop_words=None if v == "off" else BUILT_IN_STOP_WORDS))
    if mode == "off" or words is None:
        return
    listed = sorted(words)
    synced(st.text_area, "Stop-word list (separate words by spaces, commas or new lines)",
           key=f"{key}::stop_list", value=" ".join(listed), height=150,
           on_set=lambda v: _set(column, spec, stop_words=_parse_words(v)))
    added = sorted(set(words) - set(BUILT_IN_STOP_WORDS))
    dropped = sorted(set(BUILT_IN_STOP_WORDS) - set(words))
    if added or dropped:
        st.caption(f"{counted(len(words), 'word')}: {len(added)} added to and {len(dropped)} taken from the built-in list.")
        st.button("Reset to the built-in list", key=f"{key}::stop_reset",
                  on_click=lambda: _set(column, spec, stop_words=BUILT_IN_STOP_WORDS))
    else:
        st.caption(f"The built-in list: {counted(len(words), 'word')}. Stop words are matched after lowercasing.")


def _parse_words(text: str) -> tuple[str, ...]:
    return tuple(sorted({w for w in text.replace(",", " ").split() if w}))


def _model_choice_ui(column: Any, spec: Any, key: str) -> None:
    o = text_options(spec)
    st.markdown("**Vocabulary and model**")
    synced(st.number_input, "Minimum document frequency (min_df)", key=f"{key}::min_df", value=int(o.min_df),
           min_value=1, step=1, on_set=lambda v: _set(column, spec, min_df=int(v)))
    synced(st.number_input, "Maximum vocabulary size (0 = no limit)", key=f"{key}::max_features",
           value=int(o.max_features or 0), min_value=0, step=100,
           on_set=lambda v: _set(column, spec, max_features=int(v) or None))
    synced(st.radio, "Event model", key=f"{key}::event_model", value=spec.event_model, options=list(EVENT_MODELS),
           format_func=EVENT_MODELS.get, on_set=lambda v: _set(column, spec, event_model=v))
    if spec.event_model == "multinomial":
        synced(st.radio, "Vocabulary convention", key=f"{key}::vocabulary", value=spec.vocabulary,
               options=list(VOCABULARIES), format_func=VOCABULARIES.get,
               on_set=lambda v: _set(column, spec, vocabulary=v))
    if spec.event_model == "multinomial" and spec.vocabulary == "global":
        synced(st.checkbox, "Complement Naive Bayes (Rennie et al. 2003; for imbalanced classes)",
               key=f"{key}::complement", value=spec.complement,
               on_set=lambda v: _set(column, spec, complement=bool(v)))
    st.caption(_formula_caption(spec))


def _formula_caption(spec: Any) -> str:
    if is_bernoulli(spec):
        return ("P(w present | c) = (D_wc + l) / (N_c + 2l); every vocabulary word absent from a document "
                f"adds log(1 − P){ref('seed 002')}.")
    if spec.complement:
        return ("Complement NB scores class c with the word counts of all other classes, as scikit-learn's "
                "ComplementNB; its weights are not likelihoods.")
    if spec.vocabulary == "per_class_unk":
        return ("P(w | c) = (count(w) + a) / (n + a(V + 1)), P(UNK | c) = a / (n + a(V + 1)), V = word types "
                f"seen in class c; any token unseen in c counts as UNK{ref('seed 004')}.")
    return f"P(w | c) = (N_wc + l) / (N_c + l V); words outside the vocabulary are ignored{ref('seed 000, Eq. 10')}."


# --------------------------------------------------------------------------- Explain's words


def word_rows(model: Any, column: Any, words: pd.DataFrame, classes: list[Any]) -> pd.DataFrame:
    """One row per distinct word of a document: its count in the document, then per class its
    training count, status (used, UNK or unseen, per class: seed 004's UNK is per class),
    P(w | c) as counted and reduced (the block's own numbers, :meth:`cell_terms`: P(UNK | c) =
    (0 + a) / (n_c + a (V_c + 1)) for a word UNK in the class), and the contribution
    count × log P(w | c)."""
    spec = model.features_[column]
    per_class_unk = spec.vocabulary == "per_class_unk"
    block = model.block_of(column)
    position = {c: j for j, c in enumerate(model.classes_)}
    counts = model.counts(column)
    labels = labels_of(classes)
    out: dict[str, list[Any]] = {"word": [], "× in doc": []}
    for label in labels:
        for part in ("training count", "status", "P(w | c)", "decimal", "contribution"):
            out[f"{label} {part}"] = []
    for _, w in words.iterrows():
        term = w["term"]
        known = term in counts.index
        out["word"].append(term)
        out["× in doc"].append(int(w["count"]))
        for c, label in zip(classes, labels):
            n = float(counts.loc[term, c]) if known else 0.0
            if not known:
                status = w["status"]
            elif per_class_unk and n == 0:
                status = "UNK"
            else:
                status = "used"
            log = w.get(f"log[{label}]", np.nan)
            terms = block.cell_terms(column, term, position[c]) if status in ("used", "UNK") else None
            out[f"{label} training count"].append(formulas.num(n) if known else "–")
            out[f"{label} status"].append(status)
            out[f"{label} P(w | c)"].append(formulas.unreduced(terms) if terms is not None else "")
            out[f"{label} decimal"].append(fmt_number(np.exp(log)) if np.isfinite(log) else "")
            out[f"{label} contribution"].append(fmt_log(w.get(f"contribution[{label}]", np.nan)))
    return pd.DataFrame(out)
