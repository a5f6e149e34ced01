"""Widgets whose values survive page changes, and the sidebar summary shared by all pages."""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from ui.state import Source, TextSettings, features, settings, text_settings
from ui.text import md

__all__ = ["synced", "sidebar_summary", "page_header", "show_error", "text_label"]


def synced(widget: Callable[..., Any], label: str, *, key: str, value: Any,
           on_set: Callable[[Any], None], **kwargs: Any) -> Any:
    """Render ``widget`` showing ``value`` (held under a permanent key elsewhere).

    The "dummy key" pattern (streamlit-1.67 notes, section 1.2): the permanent value is
    copied into the widget's own key before it is drawn, and a change is copied back by
    ``on_set`` in the widget's callback, so the choice outlives the page.
    """
    st.session_state[key] = value

    def _changed() -> None:
        on_set(st.session_state[key])

    return widget(label, key=key, on_change=_changed, **kwargs)


def page_header(title: str, sentence: str) -> None:
    st.title(title)
    st.write(sentence)


def show_error(err: Exception) -> None:
    """A DataError (or other ValueError) as one sentence in place, never a traceback."""
    st.error(md(err))


def sidebar_summary() -> None:
    """The current dataset and model in a few lines in the sidebar."""
    ss = st.session_state
    source: Source = ss["source"]
    df = ss["frame"]
    config = settings()
    with st.sidebar:
        st.subheader("Current work")
        kind = {"example": "built-in example", "path": "local path, fitted out of core"}.get(source.reader, "upload")
        rows = f"a sample of {len(df):,} rows" if source.reader == "path" else f"{len(df):,} rows"
        st.markdown(f"**Data:** {md(source.name)} ({kind})  \n"
                    f"{rows} × {df.shape[1]} columns")
        st.markdown(f"**Target:** {md(ss['target'])}")
        feats = features()
        counts: dict[str, int] = {}
        for t in feats.values():
            counts[t] = counts.get(t, 0) + 1
        described = ", ".join(f"{n} {t}" for t, n in counts.items()) or "none"
        st.markdown(f"**Features:** {described}")
        if ss.get("weight"):
            st.markdown(f"**Weight:** {md(ss['weight'])}")
        st.markdown(f"**Smoothing:** {md(smoothing_label(config))}  \n"
                    f"**Class prior:** {md(config.priors)}")
        for col in (c for c, t in feats.items() if t == "text"):
            st.markdown(f"**{md(col)} (text):** {md(text_label(text_settings(col, config)))}")
        if ss.get("imported") is not None:
            st.markdown(f"**Model:** imported from {md(ss['imported'].name)}")


def smoothing_label(config: Any) -> str:
    if config.smoothing == "m":
        p = "1/K" if config.p is None else f"{config.p:g}"
        form = ", normalised" if getattr(config, "m_normalised", False) and config.p is not None else ""
        return f"m-estimate m = {config.m:g}, p = {p}{form}"
    if config.smoothing == "beta":
        return f"Beta({config.beta_a:g}, {config.beta_b:g}) for binary features, l = {config.alpha:g} elsewhere"
    return "l = 0 (MLE, no smoothing)" if config.alpha == 0 else f"Lidstone l = {config.alpha:g}"


def text_label(ts: TextSettings) -> str:
    """A text column's settings in a few words, e.g. "multinomial, stop words, stemmed, 1-2-grams"."""
    parts = [ts.event_model + (" (per-class UNK)" if ts.vocabulary == "per_class_unk" else "")
             + (", Complement NB" if ts.complement else "")]
    if ts.stop_words is not None:
        parts.append("stop words")
    if ts.stem:
        parts.append("stemmed")
    if ts.ngram_max > 1:
        parts.append(f"1-{ts.ngram_max}-grams")
    if ts.min_df > 1:
        parts.append(f"min_df {ts.min_df}")
    if ts.max_features:
        parts.append(f"at most {ts.max_features:,} words")
    if not ts.lowercase:
        parts.append("case kept")
    if ts.token_pattern != TextSettings.token_pattern:
        parts.append(f"tokens {ts.token_pattern}")
    return ", ".join(parts)
