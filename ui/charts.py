"""Plotly figures of the workbench. They draw numbers computed by nbapp; labels pass plot_text."""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from nbapp.densities import GaussianFitPlot
from ui.text import plot_text

__all__ = ["COLOURS", "colour", "layout", "priors_bar", "gaussian_fit", "density_curves", "top_words_bars",
           "waterfall", "confusion_heatmap", "fit_comparison", "CurveStyle", "cmi_heatmap", "roc_chart", "pr_chart"]

#: One colour per class (plotly's default cycle), shared by every figure of the app.
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_MARGIN = dict(l=10, r=10, t=40, b=10)


def colour(i: int) -> str:
    """The i-th class colour (the cycle repeats after eight)."""
    return COLOURS[i % len(COLOURS)]


def layout(height: int = 320) -> dict:
    """The layout every figure shares: tight margins and a height."""
    return dict(margin=_MARGIN, height=height)


def priors_bar(priors: pd.Series) -> go.Figure:
    """P(c) per class."""
    fig = go.Figure(go.Bar(x=[plot_text(c) for c in priors.index], y=priors.to_numpy(dtype=float),
                           text=[f"{p:.3g}" for p in priors], textposition="auto"))
    fig.update_layout(title="Class prior P(c)", yaxis_title="P(c)", yaxis_range=[0, 1], **layout())
    return fig


def gaussian_fit(plot: GaussianFitPlot, fits: pd.DataFrame, column: str) -> go.Figure:
    """Per class, the data's histogram (as a density) and the fitted normal N(mean, var).

    ``plot`` is nbapp's ``gaussian_fit_plot`` (binned on the server); ``fits`` is ``model.gaussian(col)``.
    """
    fig = go.Figure()
    for i, (cls, row) in enumerate(fits.iterrows()):
        shade = colour(i)
        name = plot_text(cls)
        bars = plot.histogram[plot.histogram["class"] == cls]
        fig.add_trace(go.Bar(x=(bars["left"] + bars["right"]) / 2, y=bars["density"],
                             width=(bars["right"] - bars["left"]), name=f"{name} data", opacity=0.45,
                             marker_color=shade, legendgroup=name))
        curve = plot.curves[plot.curves["class"] == cls]
        fig.add_trace(go.Scatter(x=curve["x"], y=curve["density"], mode="lines",
                                 name=f"{name}: N({row['mean']:.4g}, {row['var']:.4g})",
                                 line=dict(color=shade, width=2), legendgroup=name))
        marks = plot.marks[plot.marks["class"] == cls] if plot.marks is not None else None
        if marks is not None and len(marks):
            fig.add_trace(go.Scatter(x=marks["x"], y=marks["density"], mode="markers+text",
                                     text=[f"p(x* | {name}) = {v:.4g}" for v in marks["density"]],
                                     textposition="top right", marker=dict(color=shade, size=11, symbol="x"),
                                     name=f"{name} at x*", legendgroup=name))
    if plot.marks is not None and len(plot.marks):
        fig.add_vline(x=float(plot.marks["x"].iloc[0]), line_dash="dash", line_color="#555",
                      annotation_text="x*", annotation_position="top")
    fig.update_layout(barmode="overlay", xaxis_title=plot_text(column), yaxis_title="density",
                      **layout(360))
    return fig


def poisson_fit(plot: Any, fits: pd.DataFrame, column: str) -> go.Figure:
    """Per class, the share of rows with each count (bars) and the fitted Poisson P(x | c) (dots)."""
    fig = go.Figure()
    for i, (cls, row) in enumerate(fits.iterrows()):
        shade, name = colour(i), plot_text(cls)
        bars = plot.observed[plot.observed["class"] == cls]
        fig.add_trace(go.Bar(x=bars["x"], y=bars["share"], name=f"{name} data", opacity=0.45,
                             marker_color=shade, legendgroup=name))
        dots = plot.fitted[plot.fitted["class"] == cls]
        fig.add_trace(go.Scatter(x=dots["x"], y=dots["probability"], mode="lines+markers",
                                 name=f"{name}: Poisson(λ = {row['lambda']:.4g})",
                                 line=dict(color=shade, width=2), legendgroup=name))
    fig.update_layout(barmode="overlay", xaxis_title=plot_text(column), yaxis_title="P(x | c)", **layout(360))
    return fig


class CurveStyle(NamedTuple):
    """How one type's fitted density is drawn beside the others: its name, its line, markers or not."""

    name: str
    dash: str = "solid"
    markers: bool = False


def fit_comparison(plot: Any, column: str, styles: Mapping[str, CurveStyle]) -> go.Figure:
    """Per class, the data's histogram (as a density) with each type's fit over it (``plot`` is
    nbapp.choices.fit_comparison_plot; ``styles``: type name -> how its curve is drawn)."""
    fig = go.Figure()
    for i, cls in enumerate(dict.fromkeys(plot.histogram["class"])):
        shade, name = colour(i), plot_text(cls)
        bars = plot.histogram[plot.histogram["class"] == cls]
        fig.add_trace(go.Bar(x=(bars["left"] + bars["right"]) / 2, y=bars["density"],
                             width=(bars["right"] - bars["left"]), name=f"{name} data", opacity=0.35,
                             marker_color=shade, legendgroup=name))
        for kind, curve in plot.curves[plot.curves["class"] == cls].groupby("type", sort=False):
            style = styles.get(kind, CurveStyle(str(kind)))
            fig.add_trace(go.Scatter(x=curve["x"], y=curve["density"], mode="lines+markers" if style.markers
                                     else "lines", name=f"{name}: {plot_text(style.name)}",
                                     line=dict(color=shade, width=2, dash=style.dash), legendgroup=name))
    drawn = dict.fromkeys(plot.curves["type"])
    title = ", ".join(f"{styles[k].name} ({_DASH_WORDS.get(styles[k].dash, styles[k].dash)})" for k in drawn
                      if k in styles)
    fig.update_layout(barmode="overlay", xaxis_title=plot_text(column), yaxis_title="density",
                      title=plot_text(f"Data and fits: {title}", limit=120), **layout(380))
    return fig


_DASH_WORDS = {"solid": "solid", "dash": "dashed", "dot": "dotted"}


def density_curves(grid: np.ndarray, density: pd.DataFrame, column: str) -> go.Figure:
    """The fitted density p(x | c) of each class (a column of ``density``) over ``grid``."""
    fig = go.Figure()
    for i, cls in enumerate(density.columns):
        fig.add_trace(go.Scatter(x=grid, y=density[cls].to_numpy(dtype=float), mode="lines", name=plot_text(cls),
                                 line=dict(color=colour(i), width=2)))
    fig.update_layout(xaxis_title=plot_text(column), yaxis_title="density p(x | c)", **layout(340))
    return fig


def cmi_heatmap(cmi: pd.DataFrame) -> go.Figure:
    """I(X_a; X_b | C) in nats per pair of features (the diagonal, H(X_a | C), left blank)."""
    values = cmi.to_numpy(dtype=float).copy()
    values[np.diag_indices_from(values)] = np.nan
    names = [plot_text(c) for c in cmi.index]
    fig = go.Figure(go.Heatmap(z=values, x=names, y=names, colorscale="Reds", zmin=0,
                               colorbar=dict(title="nats"), hovertemplate="%{y} · %{x}: %{z:.3g} nats<extra></extra>"))
    fig.update_layout(title="Conditional mutual information I(X_a; X_b | C)", yaxis_autorange="reversed",
                      **layout(380))
    return fig


def top_words_bars(words: pd.DataFrame, *, value_label: str) -> go.Figure:
    """Horizontal bars of ``model.top_words``: each word's probability, grouped by class."""
    fig = go.Figure()
    for i, (cls, part) in enumerate(words.groupby("class", sort=False)):
        part = part.iloc[::-1]
        fig.add_trace(go.Bar(x=part["probability"].to_numpy(dtype=float), y=[plot_text(w) for w in part["term"]],
                             orientation="h", name=plot_text(cls), marker_color=colour(i)))
    fig.update_layout(barmode="group", xaxis_title=value_label, **layout(max(320, 22 * len(words))))
    return fig


def waterfall(contrib: pd.Series, *, title: str, total: float | None,
              total_label: str = "log-odds") -> go.Figure:
    """Contributions to a log-odds, bar by bar, ending in ``total`` (the explanation's
    log P(a | x) / P(b | x)); no total bar when ``total`` is None (a factor decides alone)."""
    labels = [plot_text(i) for i in contrib.index]
    values = [float(v) for v in contrib.to_numpy(dtype=float)]
    ends = [] if total is None else [float(total)]
    fig = go.Figure(go.Waterfall(
        orientation="h",
        measure=["relative"] * len(values) + ["total"] * len(ends),
        y=labels + [total_label] * len(ends),
        x=values + ends,
        text=[f"{v:+.3f}" for v in values + ends],
        textposition="outside",
        increasing=dict(marker=dict(color="#2a9d8f")),
        decreasing=dict(marker=dict(color="#e76f51")),
        totals=dict(marker=dict(color="#264653")),
    ))
    fig.update_layout(title=plot_text(title, limit=120), xaxis_title="log-odds (natural log)",
                      yaxis=dict(autorange="reversed"), **layout(120 + 40 * (len(values) + len(ends))))
    return fig


# Cells keep their number written in them up to this many classes; beyond, the hover shows it.
_CONFUSION_TEXT_CLASSES = 20


def confusion_heatmap(confusion: pd.DataFrame, *, normalise: bool = False) -> go.Figure:
    """Counts of true (rows) against predicted (columns) classes, in the order given; with
    ``normalise``, each true class's row as shares of its rows (the recall on the diagonal).
    Every class keeps its label up to 50 classes: the figure grows with the classes."""
    counts = confusion.to_numpy(dtype=float)
    total = counts.sum(axis=1, keepdims=True)
    z = np.divide(counts, total, out=np.zeros_like(counts), where=total > 0) if normalise else counts
    k = max(len(confusion.index), len(confusion.columns))
    text = [[f"{v:.0%}" if normalise else f"{v:,.0f}" for v in row] for row in z]
    x = [plot_text(c) for c in confusion.columns]
    y = [plot_text(c) for c in confusion.index]
    fig = go.Figure(go.Heatmap(
        z=z, x=x, y=y, colorscale="Blues", text=text, showscale=False,
        texttemplate="%{text}" if k <= _CONFUSION_TEXT_CLASSES else None,
        hovertemplate="true %{y}<br>predicted %{x}<br>%{text}<extra></extra>",
    ))
    tick = dict(type="category", tickmode="array", tickfont=dict(size=12 if k <= 20 else 9))
    fig.update_layout(title="Confusion matrix" + (" (share of each true class)" if normalise else ""),
                      xaxis=dict(title="predicted", tickvals=x, tickangle=-45 if k > 8 else 0, **tick),
                      yaxis=dict(title="true", autorange="reversed", tickvals=y, **tick),
                      **layout(max(320, 60 + 18 * k)))
    return fig


def roc_chart(roc: pd.DataFrame, point: pd.Series, positive: Any, auc: float) -> go.Figure:
    """The ROC curve of one class against the rest, with the slider's threshold marked."""
    fig = go.Figure([
        go.Scatter(x=roc["fpr"], y=roc["tpr"], mode="lines", name=f"ROC (AUC {auc:.3f})"),
        go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(dash="dot", color="#999"), name="chance"),
        go.Scatter(x=[point["false positive rate"]], y=[point["recall"]], mode="markers",
                   marker=dict(size=11, color="#d62728"), name="threshold"),
    ])
    fig.update_layout(title=f"ROC: {plot_text(positive)} against the rest", xaxis_title="false positive rate",
                      yaxis_title="true positive rate (recall)", **layout(360))
    return fig


def pr_chart(pr: pd.DataFrame, point: pd.Series, positive: Any, average_precision: float) -> go.Figure:
    """The precision-recall curve of one class against the rest, with the threshold marked."""
    fig = go.Figure([
        go.Scatter(x=pr["recall"], y=pr["precision"], mode="lines", line_shape="hv",
                   name=f"precision-recall (AP {average_precision:.3f})"),
        go.Scatter(x=[point["recall"]], y=[point["precision"]], mode="markers",
                   marker=dict(size=11, color="#d62728"), name="threshold"),
    ])
    fig.update_layout(title=f"Precision-recall: {plot_text(positive)}", xaxis_title="recall",
                      yaxis_title="precision", yaxis_range=[0, 1.05], **layout(360))
    return fig

