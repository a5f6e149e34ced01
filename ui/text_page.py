"""The Text page's parts: a text column's preprocessing on a sample document, its top and most
informative words, one document explained word by word, and the word frequencies per class
(issue 4). pages/6_Text.py calls :func:`text_page_ui`."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.text import pipeline_steps, tokens_and_types
from nbapp.text.words import document_tokens, informative_words, text_block, zipf_table
from ui import charts, textviews
from ui.classes import label_format, labelled_column, labels_of
from ui.held_patterns import held_patterns_ui
from ui.presentation import frame_ui, projected
from ui.teaching import display_classes
from ui.views.text import is_bernoulli, text_columns, text_settings_ui, word_rows

__all__ = ["text_page_ui"]

ss = st.session_state
TEXT_EXAMPLES = {"sms_spam": "Load the SMS spam corpus", "sentiment": "Load the six sentiment sentences"}
DOC_MODES = ("Type a document", "A row of the data")
PER_ROW = 3  # top-word charts side by side
DOC_MODE, DOC_ROW = "text.doc_mode", "text.row"   # the work's choices of the sample document


def _no_text_ui() -> None:
    st.info("The current data has no text feature. Give a column the type 'text' on the Data page, "
            "or load a built-in corpus:")
    for cell, (key, label) in zip(st.columns(len(TEXT_EXAMPLES)), TEXT_EXAMPLES.items()):
        cell.button(label, key=f"text.load.{key}", on_click=ui.load_example_into_state, args=(key,))
    st.stop()


@st.cache_data(show_spinner="Counting the corpus's tokens and types…", max_entries=16)
def _corpus_tokens_types(digest: str, column: str, options_key: str, _docs: list[Any], _options: Any) -> tuple[int, int]:
    """nbapp's tokens_and_types over the whole column; keyed by the data's sha256 and the options."""
    return tokens_and_types(_docs, _options)


def _options_key(options: Any) -> str:
    return json.dumps(options.to_dict(), sort_keys=True)


def _document_ui(column: str, df: pd.DataFrame) -> str:
    """The sample document: typed (kept per column across pages) or a row of the data."""
    work = ui.work()
    chosen = work.choice(DOC_MODE)
    mode = ui.synced(st.radio, "Sample document", key="_text_doc_mode",
                     value=chosen if chosen in DOC_MODES else DOC_MODES[0], options=DOC_MODES, horizontal=True,
                     on_set=lambda v: ui.set_choice(DOC_MODE, v))
    if mode == DOC_MODES[0]:
        docs = ss.setdefault("text_docs", {})
        default = docs.get(column, work.query.get(column, ""))
        return ui.synced(st.text_area, "Document", key="_text_doc", value=str(default), height=90,
                         on_set=lambda v: ss.update(text_docs={**ss.get("text_docs", {}), column: v}))
    if len(df) == 0:
        st.info("The data has no rows.")
        return ""
    row = ui.synced(st.number_input, f"Row (0 to {len(df) - 1:,})", key="_text_row",
                    value=min(int(work.choice(DOC_ROW, 0)), len(df) - 1), min_value=0, max_value=len(df) - 1,
                    step=1, on_set=lambda v: ui.set_choice(DOC_ROW, int(v)))
    value = df[column].iloc[int(row)]
    if ui.state.is_missing(value):
        st.info(f"Row {int(row):,} has no document (missing): it is left out of the text factor.")
        return ""
    label = df[work.target].iloc[int(row)]
    st.caption(f"Row {int(row):,}, labelled {ui.md(label)}:")
    st.code(str(value), language=None, wrap_lines=True)
    return str(value)


def _tokenising_ui(section: Any, *args: Any) -> None:
    """A section that tokenises the sample document or the corpus with the column's pattern: a
    refusal (the pattern stopped at its time or token budget, issue 31, item 8) is shown in place
    as the library's sentence, and the sections that do not tokenise still follow."""
    try:
        section(*args)
    except DataError as err:
        st.error(ui.md(err))


def _classes_ui(classes: list[Any]) -> tuple[Any, Any]:
    left, right = st.columns(2)
    positive = left.selectbox("Class the log-odds are for", classes, index=len(classes) - 1,
                              format_func=label_format(classes),
                              key="text.positive")
    others = [c for c in classes if c != positive]
    negative = right.selectbox("against", others, index=0, format_func=label_format(classes), key="text.negative")
    return positive, negative


def _pipeline_ui(model: Any, column: str, doc: str, df: pd.DataFrame) -> None:
    st.subheader("The pipeline on the sample document")
    block = text_block(model, column)
    options = block.options
    steps = pipeline_steps(doc, options)
    frame_ui(st, textviews.pipeline_table(steps), hide_index=True, key="text.pipeline", column_config={
        "tokens": st.column_config.ListColumn("tokens after the step"),
        "n_tokens": st.column_config.NumberColumn("number of tokens"),
        "removed": st.column_config.ListColumn("what the step removed or changed"),
    })
    doc_tokens, doc_types = tokens_and_types([doc], options)
    docs = list(df[column]) if column in df else []
    corpus_tokens, corpus_types = _corpus_tokens_types(ui.work().source.sha256, str(column), _options_key(options),
                                                       _docs=docs, _options=options)
    cells = st.columns(5)
    cells[0].metric("Tokens in the document", f"{doc_tokens:,}")
    cells[1].metric("Types in the document", f"{doc_types:,}")
    cells[2].metric("Tokens in the corpus", f"{corpus_tokens:,}")
    cells[3].metric("Types in the corpus", f"{corpus_types:,}")
    cells[4].metric("Vocabulary after pruning", f"{len(block.vocabulary_terms()):,}")
    st.caption("A token is one occurrence of a word, a type a distinct word: \"seven tokens drawn from five "
               f"types\"{ui.ref('seed 004')}. Counted after the whole pipeline; pruning (min_df, maximum "
               "vocabulary size) "
               "is a corpus step that decides which types the model keeps.")


def _top_words_ui(model: Any, column: str, classes: list[Any]) -> None:
    st.subheader("Top words per class")
    n = st.slider("Words per class", 5, 40, 15, key="text.top_n")
    words = model.top_words(column, n)
    name = label_format(model.classes_)
    count_label = ("documents containing the word" if is_bernoulli(text_block(model, column).spec)
                   else "count in the class")
    for start in range(0, len(classes), PER_ROW):
        cells = st.columns(min(PER_ROW, len(classes)))
        for offset, (cell, cls) in enumerate(zip(cells, classes[start:start + PER_ROW])):
            charts.show(cell, projected(textviews.top_words_figure(words, cls, colour_index=start + offset,
                                                                   count_label=count_label, title=name(cls))),
                        key=f"text.top.{start + offset}")
    with st.expander("Top words as a table (ranked by the class's log-weight)"):
        frame_ui(st, labelled_column(words, "class", model.classes_), hide_index=True, key="text.top_table")


def _informative_ui(model: Any, column: str, positive: Any, negative: Any) -> None:
    st.subheader("The most informative words")
    n = st.slider("Words at each end", 5, 30, 10, key="text.informative_n")
    table = informative_words(model, column, positive, negative, n=n)
    left, right = st.columns([3, 2])
    name = label_format(model.classes_)
    charts.show(left, projected(textviews.informative_figure(table, name(positive), name(negative))), key="text.informative_chart")
    frame_ui(right, table, hide_index=True, key="text.informative_table")
    st.caption("Words with a log-ratio of ±∞ (never seen in one class, with l = 0) are left out.")


def _document_explained_ui(model: Any, column: str, doc: str, positive: Any, negative: Any) -> None:
    st.subheader("The document word by word")
    tokens = document_tokens(model, column, doc, positive, negative)
    if len(tokens):
        limit = 400
        name = label_format(model.classes_)
        charts.show(st, projected(textviews.token_strip(tokens, name(positive), name(negative), limit=limit)), key="text.strip")
        if len(tokens) > limit:
            st.caption(f"The first {limit} of {len(tokens):,} tokens.")
    else:
        st.info("The document has no tokens.")
    st.caption("Green pushes towards the first class, red towards the second. Marks: UNK = the unknown "
               f"word{ui.ref('seed 004')}, unseen = not in the vocabulary (ignored), removed = a stop word or nothing "
               "left after "
               "preprocessing; the last two carry no colour.")
    block = text_block(model, column)
    if block.options.ngram_range != (1, 1):
        st.caption("Bigrams are scored in the per-term table below, not in the coloured document.")
    explanation = model.explain({column: doc})
    shown = display_classes(list(model.classes_))
    _word_ui(model, column, explanation.words[column], tokens, shown, positive, negative)
    st.markdown("**Per term and class: training count, status (UNK is per class), P(w | c) and contribution to "
                "log P(document | c)**")
    frame_ui(st, word_rows(model, column, explanation.words[column], shown), hide_index=True, key="text.words")
    st.markdown(f"**n and V per class**, the numbers of P(UNK | c) = α / (n + α(V + 1)){ui.ref('seed 004')}")
    frame_ui(st, textviews.class_sizes_table(model, column, shown), key="text.class_sizes")
    with st.expander("Per term as the library gives it: the log-weight and contribution per class, unrounded"):
        frame_ui(st, explanation.words[column], hide_index=True, key="text.words_raw")
    if is_bernoulli(block.spec):
        st.caption("Bernoulli: each present word adds log P(present | c) once; the last row adds "
                   f"log(1 − P(present | c)) for every vocabulary word the document lacks{ui.ref('seed 002')}.")
    factor = explanation.factors.loc[column]
    labels = labels_of(explanation.classes)          # the explanation's own column names: 1 and '1' apart
    totals = pd.DataFrame({
        "class": labels,
        "text factor log P(document | c)": [float(factor[f"log[{label}]"]) for label in labels],
        "posterior P(c | document)": explanation.posterior.to_numpy(dtype=float),
    })
    st.markdown("**The text factor per class** (the sum of the contributions above) **and the posterior from "
                "this document alone** (other features left out)")
    frame_ui(st, totals, hide_index=True, key="text.factor")
    with st.expander("Every token as typed, with its log-odds"):
        frame_ui(st, tokens, hide_index=True, key="text.tokens")
    if st.button("Use this document on the Explain page", key="text.to_explain"):
        ui.set_query(column, doc, missing=False)
        st.switch_page("pages/3_Explain.py")


MAX_WORDS = 80   # words of the document offered for clicking, in order of first use


@st.fragment
def _word_ui(model: Any, column: str, words: pd.DataFrame, tokens: pd.DataFrame, classes: list[Any],
             positive: Any, negative: Any) -> None:
    """Click a word of the document: its factor in every class, and how far it pulls towards the
    first class. A panel of its own: a click reruns this, not the page."""
    terms = list(dict.fromkeys(t for t in tokens["term"] if isinstance(t, str))) if len(tokens) else []
    if not terms:
        return
    offered = terms[:MAX_WORDS]
    picked = st.pills("Click a word of the document to see its factor per class", offered, selection_mode="single",
                      default=offered[0], key="text.word", format_func=ui.md)
    if len(terms) > MAX_WORDS:
        st.caption(f"The first {MAX_WORDS} of the document's {len(terms):,} words; the table below lists them all.")
    if picked is None:
        return
    row = words[words["term"] == picked]
    if row.empty:        # a word the pipeline keeps but the model does not score (an n-gram's part)
        st.caption(f"{ui.md(picked)} is not scored on its own.")
        return
    table = word_rows(model, column, row, classes).drop(columns="word")
    per_class = {label: {part: table[f"{label} {part}"].iloc[0] for part in
                         ("training count", "status", "P(w | c)", "decimal", "contribution")}
                 for label in labels_of(classes)}
    st.table(ui.md_table(pd.DataFrame(per_class).rename(columns=dict(zip(labels_of(classes), map(label_format(classes), classes))))))
    odds = tokens.loc[tokens["term"] == picked, "log_odds"].to_numpy(dtype=float)
    name = label_format(model.classes_)
    times = len(odds)
    pull = float(odds.sum())
    towards = name(positive) if pull > 0 else name(negative)
    st.markdown(f"**{ui.md(picked)}** ({times} × in the document) adds {ui.fmt_log(pull)} to "
                f"log P({ui.md(name(positive))} | x) / P({ui.md(name(negative))} | x)"
                + (f", towards {ui.md(towards)}." if pull != 0 else ": it does not tell the two apart."))


def _zipf_ui(model: Any, column: str) -> None:
    """Zipf's law over the corpus: drawn only while its section is open (its points are the whole
    vocabulary's counts, and the page's first visit need not wait for them)."""
    section = st.expander("Word frequencies per class (Zipf's law)", key="text.zipf_open", on_change="rerun")
    if not section.open:
        return
    with section:
        _zipf_body(model, column)


def _zipf_body(model: Any, column: str) -> None:
    charts.show(st, projected(textviews.zipf_figure(zipf_table(model, column))), key="text.zipf")
    st.caption("Zipf's law: a word's count falls roughly as 1 / rank, a straight line of slope about −1 on "
               "log-log axes. Most types are rare, so most of the vocabulary rests on a few counts and smoothing "
               "matters.")



def text_page_ui() -> None:
    """The page below its title: the text column, its settings, the sample document and the sections."""
    columns = text_columns(ui.specs())
    if not columns:
        _no_text_ui()
    column = columns[0] if len(columns) == 1 else st.selectbox("Text column", columns, format_func=str,
                                                               key="text.column")
    df = ui.frame()
    held_patterns_ui("text")
    if ui.work().imported is None:
        with st.expander("Text preprocessing (the same settings as on the Model page)"):
            text_settings_ui([column], ui.work().features, prefix="text", heading=False)
    with st.spinner(f"Fitting the model on {len(df):,} documents…"):
        model = ui.require_model()
    classes = list(model.classes_)
    doc = _document_ui(column, df)
    _tokenising_ui(_pipeline_ui, model, column, doc, df)
    if len(classes) < 2:
        st.info("The target has one class: there is nothing to compare words between.")
        st.stop()
    positive, negative = _classes_ui(classes)
    _top_words_ui(model, column, classes)
    _informative_ui(model, column, positive, negative)
    _tokenising_ui(_document_explained_ui, model, column, doc, positive, negative)
    _zipf_ui(model, column)
