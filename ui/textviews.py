"""The text views of issue 4: the tables and figures of the Text page (the text settings are the
text type's view, ``ui.views.text``).

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

from nbapp.exact import exact_sum
from ui import formulas
from ui.charts import colour, layout, symbol
from ui.classes import labels_of
from ui.text import plot_text

__all__ = [
    "pipeline_table",
    "class_sizes_table",
    "top_words_figure",
    "informative_figure",
    "token_strip",
    "zipf_figure",
    "TOKEN_MARKS",
]

# How a token's status is marked in the coloured document (the colour is its log-odds).
TOKEN_MARKS = {"used": "", "UNK": "UNK", "unseen": "unseen", "removed": "removed"}


# --------------------------------------------------------------------------- tables

# A term no tokenizer yields: its P(w | c) is the block's P(UNK | c) (seed 004), or None.
_NO_WORD = "\x00"


def class_sizes_table(model: Any, column: Any, classes: Sequence[Any]) -> pd.DataFrame:
    """Per class, what P(UNK | c) = α / (n + α(V + 1)) is made of (seed 004): n, the tokens of the
    class's training documents, and V, the word types (seen in the class with the per-class
    vocabulary, the model's vocabulary otherwise), both from the model's counts; and P(UNK | c)
    as the block states it (:meth:`cell_terms`), or "–" where the model has no UNK word."""
    counts = model.counts(column)
    per_class = model.features_[column].vocabulary == "per_class_unk"
    block = model.block_of(column)
    position = {c: j for j, c in enumerate(model.classes_)}
    rows = {"n (tokens in the class)": [], "V (word types)": [], "P(UNK | c)": []}
    for c in classes:
        values = counts[c].to_numpy(dtype=float)
        rows["n (tokens in the class)"].append(formulas.num(exact_sum(values)))
        rows["V (word types)"].append(str(int((values > 0).sum()) if per_class else len(values)))
        unk = block.cell_terms(column, _NO_WORD, position[c]) if per_class else None
        rows["P(UNK | c)"].append(formulas.unreduced(unk) if unk is not None else "–")
    return pd.DataFrame(rows, index=pd.Index(labels_of(list(classes)), name="class")).T



def pipeline_table(steps: Sequence[Any]) -> pd.DataFrame:
    """nbapp's PipelineStep list as a table: step, tokens after it, their number, what it removed."""
    return pd.DataFrame({
        "step": [s.name for s in steps],
        "tokens": [list(s.tokens) for s in steps],
        "n_tokens": [len(s.tokens) for s in steps],
        "removed": [list(s.removed) for s in steps],
    })


# --------------------------------------------------------------------------- figures


def top_words_figure(words: pd.DataFrame, cls: Any, *, colour_index: int, count_label: str,
                     title: str | None = None) -> go.Figure:
    """One class's top words from ``model.top_words``: bars of the count, the log-weight on hover;
    ``title`` is the class's label (its text unless given)."""
    part = words[words["class"] == cls].iloc[::-1]
    fig = go.Figure(go.Bar(
        x=part["count"].to_numpy(dtype=float), y=[plot_text(t, limit=30) for t in part["term"]], orientation="h",
        marker_color=colour(colour_index),
        customdata=part["log_weight"].to_numpy(dtype=float), hovertemplate="%{y}: %{x:g}<br>log-weight %{customdata:.4f}"
        "<extra></extra>"))
    fig.update_layout(title=plot_text(cls if title is None else title, limit=40), xaxis_title=count_label,
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
                                 marker=dict(size=6, color=colour(i), symbol=symbol(i)), line=dict(width=1)))
    fig.update_layout(xaxis=dict(type="log", title="rank of the word in the class"),
                      yaxis=dict(type="log", title="count in the class"),
                      title="Word frequency against rank (Zipf)", **layout(380))
    return fig
