"""The text views of issue 4: the text settings section and the figures of the Text page.

Every number drawn here comes from nbapp (``nbapp.text``, ``nbapp.text.words``, the model's
``top_words`` and ``explain``); this module only lays them out. User text (tokens, class
labels) reaches plotly through :func:`ui.text.plot_text` and markdown through :func:`ui.text.md`;
nothing is rendered as HTML.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from nbapp.errors import DataError
from nbapp.text.stopwords import ENGLISH_STOP_WORDS
from ui.charts import colour, layout
from ui.lecture import ref
from ui.state import TextSettings, set_text_settings, text_settings
from ui.text import md, plot_text
from ui.widgets import synced

__all__ = [
    "text_settings_ui",
    "pipeline_table",
    "top_words_figure",
    "informative_figure",
    "token_strip",
    "zipf_figure",
    "TOKEN_MARKS",
]

BUILT_IN_STOP_WORDS = tuple(sorted(ENGLISH_STOP_WORDS))
STOP_MODES = {"off": "off", "english": "built-in English list (editable)"}
NGRAMS = {1: "words (1-grams)", 2: "words and bigrams (1-2-grams)"}
EVENT_MODELS = {"multinomial": "multinomial (word counts)", "bernoulli": "Bernoulli (presence / absence)"}
VOCABULARIES = {"global": "global vocabulary, unseen words ignored (scikit-learn)",
                "per_class_unk": "per-class vocabulary with an UNK word"}
# How a token's status is marked in the coloured document (the colour is its log-odds).
TOKEN_MARKS = {"used": "", "UNK": "UNK", "unseen": "unseen", "removed": "removed"}



# --------------------------------------------------------------------------- settings


def text_settings_ui(columns: Sequence[str], *, prefix: str, heading: bool = True) -> None:
    """The "Text preprocessing" section: every text setting of one text column (a select
    chooses the column when there are several).

    Values live in ``Settings.text`` (they key the fitting cache); a setting nbapp refuses
    (a bad regular expression) is kept in its box and answered with its DataError sentence.
    """
    if heading:
        st.subheader("Text preprocessing")
    column = columns[0]
    if len(columns) > 1:
        column = st.selectbox("Text column", list(columns), format_func=str, key=f"{prefix}.text_column")
    index = list(columns).index(column)
    ts = text_settings(column)
    key = f"_{prefix}_text::{index}"
    left, middle, right = st.columns(3)
    with left:
        _tokenising_ui(column, ts, key)
    with middle:
        _stop_words_ui(column, ts, key)
    with right:
        _model_choice_ui(column, ts, key)
    error = st.session_state.get("text_errors", {}).get(column)
    if error is not None:
        st.error(md(error[1]))


def _set(column: str, **changes: Any) -> None:
    """Store a change, or keep the refused value and its sentence for the page to show."""
    errors = dict(st.session_state.get("text_errors", {}))
    try:
        set_text_settings(column, **changes)
    except DataError as err:
        errors[column] = (changes, str(err))
    else:
        errors.pop(column, None)
    st.session_state["text_errors"] = errors


def _refused(column: str, name: str, fallback: Any) -> Any:
    """The value the user typed and nbapp refused (so it stays in its box), else ``fallback``."""
    error = st.session_state.get("text_errors", {}).get(column)
    return error[0].get(name, fallback) if error is not None else fallback


def _tokenising_ui(column: str, ts: TextSettings, key: str) -> None:
    st.markdown("**Tokens**")
    synced(st.checkbox, "Lowercase", key=f"{key}::lowercase", value=ts.lowercase,
           on_set=lambda v: _set(column, lowercase=bool(v)))
    synced(st.checkbox, "Unicode NFC normalisation", key=f"{key}::nfc", value=ts.unicode_nfc,
           on_set=lambda v: _set(column, unicode_nfc=bool(v)))
    synced(st.text_input, "Token pattern (regular expression)", key=f"{key}::pattern",
           value=_refused(column, "token_pattern", ts.token_pattern),
           on_set=lambda v: _set(column, token_pattern=str(v)),
           help=r"Each match is a token. (?u)\w+ is word characters, as scikit-learn's CountVectorizer "
                r"with token_pattern=r'(?u)\w+'; scikit-learn's own default (?u)\b\w\w+\b drops 1-letter words.")
    synced(st.checkbox, f"Stemming (Snowball English, Porter's revised algorithm){ref('seed 004')}", key=f"{key}::stem",
           value=ts.stem, on_set=lambda v: _set(column, stem=bool(v)))
    synced(st.radio, "n-grams", key=f"{key}::ngrams", value=ts.ngram_max, options=list(NGRAMS),
           format_func=NGRAMS.get, on_set=lambda v: _set(column, ngram_max=int(v)))


def _stop_words_ui(column: str, ts: TextSettings, key: str) -> None:
    st.markdown(f"**Stop words**{ref('seed 000, ex. 2.2')}")
    mode = synced(st.radio, "Stop words", key=f"{key}::stop", value="off" if ts.stop_words is None else "english",
                  options=list(STOP_MODES), format_func=STOP_MODES.get, label_visibility="collapsed",
                  on_set=lambda v: _set(column, stop_words=None if v == "off" else BUILT_IN_STOP_WORDS))
    if mode == "off" or ts.stop_words is None:
        return
    synced(st.text_area, "Stop-word list (separate words by spaces, commas or new lines)",
           key=f"{key}::stop_list", value=" ".join(ts.stop_words), height=150,
           on_set=lambda v: _set(column, stop_words=_parse_words(v)))
    added = sorted(set(ts.stop_words) - set(BUILT_IN_STOP_WORDS))
    dropped = sorted(set(BUILT_IN_STOP_WORDS) - set(ts.stop_words))
    if added or dropped:
        st.caption(f"{len(ts.stop_words)} words: {len(added)} added to and {len(dropped)} taken from the "
                   "built-in list.")
        st.button("Reset to the built-in list", key=f"{key}::stop_reset",
                  on_click=lambda: _set(column, stop_words=BUILT_IN_STOP_WORDS))
    else:
        st.caption(f"The built-in list: {len(ts.stop_words)} words. Stop words are matched after lowercasing.")


def _parse_words(text: str) -> tuple[str, ...]:
    return tuple(sorted({w for w in text.replace(",", " ").split() if w}))


def _model_choice_ui(column: str, ts: TextSettings, key: str) -> None:
    st.markdown("**Vocabulary and model**")
    synced(st.number_input, "Minimum document frequency (min_df)", key=f"{key}::min_df", value=int(ts.min_df),
           min_value=1, step=1, on_set=lambda v: _set(column, min_df=int(v)))
    synced(st.number_input, "Maximum vocabulary size (0 = no limit)", key=f"{key}::max_features",
           value=int(ts.max_features or 0), min_value=0, step=100,
           on_set=lambda v: _set(column, max_features=int(v) or None))
    synced(st.radio, "Event model", key=f"{key}::event_model", value=ts.event_model, options=list(EVENT_MODELS),
           format_func=EVENT_MODELS.get, on_set=lambda v: _set(column, event_model=v))
    if ts.event_model == "multinomial":
        synced(st.radio, "Vocabulary convention", key=f"{key}::vocabulary", value=ts.vocabulary,
               options=list(VOCABULARIES), format_func=VOCABULARIES.get,
               on_set=lambda v: _set(column, vocabulary=v))
    if ts.event_model == "multinomial" and ts.vocabulary == "global":
        synced(st.checkbox, "Complement Naive Bayes (Rennie et al. 2003; for imbalanced classes)",
               key=f"{key}::complement", value=ts.complement, on_set=lambda v: _set(column, complement=bool(v)))
    st.caption(_formula_caption(ts))


def _formula_caption(ts: TextSettings) -> str:
    if ts.event_model == "bernoulli":
        return ("P(w present | c) = (D_wc + l) / (N_c + 2l); every vocabulary word absent from a document "
                f"adds log(1 − P){ref('seed 002')}.")
    if ts.complement:
        return ("Complement NB scores class c with the word counts of all other classes, as scikit-learn's "
                "ComplementNB; its weights are not likelihoods.")
    if ts.vocabulary == "per_class_unk":
        return ("P(w | c) = (count(w) + a) / (n + a(V + 1)), P(UNK | c) = a / (n + a(V + 1)), V = word types "
                f"seen in class c; any token unseen in c counts as UNK{ref('seed 004')}.")
    return f"P(w | c) = (N_wc + l) / (N_c + l V); words outside the vocabulary are ignored{ref('seed 000, Eq. 10')}."


# --------------------------------------------------------------------------- tables


def pipeline_table(steps: Sequence[Any]) -> pd.DataFrame:
    """nbapp's PipelineStep list as a table: step, tokens after it, their number, what it removed."""
    return pd.DataFrame({
        "step": [s.name for s in steps],
        "tokens": [list(s.tokens) for s in steps],
        "n_tokens": [len(s.tokens) for s in steps],
        "removed": [list(s.removed) for s in steps],
    })


# --------------------------------------------------------------------------- figures


def top_words_figure(words: pd.DataFrame, cls: Any, *, colour_index: int, count_label: str) -> go.Figure:
    """One class's top words from ``model.top_words``: bars of the count, the log-weight on hover."""
    part = words[words["class"] == cls].iloc[::-1]
    fig = go.Figure(go.Bar(
        x=part["count"].to_numpy(dtype=float), y=[plot_text(t, limit=30) for t in part["term"]], orientation="h",
        marker_color=colour(colour_index),
        customdata=part["log_weight"].to_numpy(dtype=float), hovertemplate="%{y}: %{x:g}<br>log-weight %{customdata:.4f}"
        "<extra></extra>"))
    fig.update_layout(title=plot_text(cls, limit=40), xaxis_title=count_label,
                      **layout(max(260, 60 + 22 * len(part))))
    return fig


def informative_figure(table: pd.DataFrame, positive: Any, negative: Any) -> go.Figure:
    """nbapp's informative_words: log P(w | pos) / P(w | neg) per word, both ends of the ranking."""
    part = table.iloc[::-1]
    ratio = part["log_ratio"].to_numpy(dtype=float)
    fig = go.Figure(go.Bar(
        x=ratio, y=[plot_text(t, limit=30) for t in part["term"]], orientation="h",
        marker_color=np.where(ratio >= 0, "#2a9d8f", "#e76f51"),
        hovertemplate="%{y}: %{x:.4f}<extra></extra>"))
    fig.update_layout(title=f"log P(w | {plot_text(positive, 30)}) / P(w | {plot_text(negative, 30)})",
                      xaxis_title="log-ratio (natural log)", **layout(max(300, 60 + 20 * len(part))))
    return fig


def token_strip(tokens: pd.DataFrame, positive: Any, negative: Any, *, per_line: int = 10,
                limit: int = 400) -> go.Figure:
    """The document as a grid of its tokens, each cell coloured by its log-odds contribution
    (nbapp's ``document_tokens``): green towards ``positive``, red towards ``negative``.

    Tokens that score nothing (removed, unseen) have no colour; UNK, unseen and removed tokens
    carry a superscript mark. Tokens pass through plot_text, so plotly shows them as text.
    """
    shown = tokens.head(limit)
    n = len(shown)
    lines = max(1, -(-n // per_line))
    x = np.arange(n) % per_line
    y = np.arange(n) // per_line
    status = shown["status"].to_numpy(dtype=object)
    odds = shown["log_odds"].to_numpy(dtype=float)
    scored = (status == "used") | (status == "UNK")
    z = np.full((lines, per_line), np.nan)
    z[y[scored], x[scored]] = odds[scored]
    bound = float(np.nanmax(np.abs(z))) if scored.any() else 1.0
    labels = [_token_label(tok, st_) for tok, st_ in zip(shown["token"], status)]
    hover = [f"{plot_text(tok, 40)} → {plot_text(term, 40) if isinstance(term, str) else '(nothing)'}"
             f"<br>{st_}, log-odds {v:+.4f}" for tok, term, st_, v in zip(shown["token"], shown["term"], status, odds)]
    fig = go.Figure()
    fig.add_trace(go.Heatmap(z=z, x=np.arange(per_line), y=np.arange(lines), zmid=0, zmin=-bound, zmax=bound,
                             colorscale=[[0, "#e76f51"], [0.5, "#f7f7f7"], [1, "#2a9d8f"]], xgap=3, ygap=3,
                             hoverinfo="skip",
                             colorbar=dict(title=dict(text="log-odds"), thickness=12)))
    fig.add_trace(go.Scatter(x=x, y=y, mode="text", text=labels, hovertext=hover, hoverinfo="text",
                             textfont=dict(color=np.where(scored, "#111111", "#888888").tolist(), size=13),
                             showlegend=False))
    fig.update_layout(title=f"Each token's log P(token | {plot_text(positive, 30)}) / "
                            f"P(token | {plot_text(negative, 30)})",
                      xaxis=dict(visible=False), yaxis=dict(visible=False, autorange="reversed"),
                      plot_bgcolor="white", **layout(90 + 38 * lines))
    return fig


def _token_label(token: Any, status: str) -> str:
    text = plot_text(token, limit=14)
    mark = TOKEN_MARKS.get(status, "")
    return f"{text}<sup>{mark}</sup>" if mark else text


def zipf_figure(zipf: pd.DataFrame, *, points: int = 2000) -> go.Figure:
    """nbapp's zipf_table: each word's count against its rank per class, on log-log axes.

    Long tails are thinned to about ``points`` log-spaced ranks per class (drawing only; every
    plotted point is a row of the table)."""
    fig = go.Figure()
    for i, (cls, part) in enumerate(zipf.groupby("class", sort=False)):
        keep = np.unique(np.geomspace(1, len(part), min(points, len(part))).astype(int) - 1)
        part = part.iloc[keep]
        fig.add_trace(go.Scatter(x=part["rank"], y=part["count"], mode="markers+lines", name=plot_text(cls),
                                 marker=dict(size=4, color=colour(i)), line=dict(width=1)))
    fig.update_layout(xaxis=dict(type="log", title="rank of the word in the class"),
                      yaxis=dict(type="log", title="count in the class"),
                      title="Word frequency against rank (Zipf)", **layout(380))
    return fig
