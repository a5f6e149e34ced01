"""The Lessons page: one module per lesson (``smoothing``, ``prior``, ``linear``, ``naive``,
``calibration``, ``generative``, ``generate``, ``underflow``, ``incremental``, ``export``), each
with a ``render(model)``; this package module holds their shared helpers: state, cached nbapp
calls and figures.

Every number comes from ``nbapp``; this module only keys the caches, shapes user input into
rows and draws. Labels from the data pass ``ui.text`` helpers (``plot_text`` in figures).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

import ui
from nbapp.lessons.covariance import DensityGrid, GaussianClassModel
from ui.charts import COLOURS, colour, dash, layout, pattern, symbol
from ui.state import model_key, work
from ui.teaching import query_row
from ui.text import plot_text
from ui.views.gaussian import gaussian_columns

__all__ = [
    "wkey", "example_row", "gaussian_columns", "frozen_row", "offer_example", "seed_example",
    "model_with_priors", "training_data", "cached_smoothing_path", "cached_duplicate_effect",
    "cached_calibration", "cached_learning_curve", "smoothing_figure", "posterior_path_figure",
    "prior_sweep_figure", "prior_evidence_bar", "weights_bar", "boundary_figure", "contour_figure",
    "duplicate_figure", "reliability_figure", "learning_curve_figure", "compare_histogram", "underflow_figure",
]

_HEIGHT = 340
_DASH = {"lidstone": "solid", "m_estimate": "dash", "beta": "dot"}
_BELOW = dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0)
VARIANT_NAMES = {"lidstone": "Lidstone l", "m_estimate": "m-estimate m", "beta": "Beta(s, s)"}


# --------------------------------------------------------------------------- state


def wkey(name: str) -> str:
    """A widget key that changes with the data and settings.

    The page's widgets take their defaults and options from the model (a class's prior, d and
    K, column choices); under a new key a widget starts from the new model's default, in the
    browser too, instead of keeping the value chosen for the previous dataset.
    """
    digest = hashlib.sha256(repr(model_key()).encode("utf-8")).hexdigest()[:10]
    return f"lessons.{name}::{digest}"


def example_row(model: Any) -> dict[str, Any]:
    """The test example of the Explain page for the model's features (missing ones as NaN)."""
    return query_row(model)


def frozen_row(row: Mapping[str, Any]) -> tuple:
    """A row as a hashable cache key."""
    return tuple((str(k), repr(v)) for k, v in row.items())


def training_data() -> pd.DataFrame:
    """The current frame with unusable target rows dropped (as the Evaluate page does)."""
    from nbapp.propose import check_target

    data, _notes = check_target(ui.frame(), work().target)
    return data


def offer_example(reason: str, key: str, *, button_key: str) -> None:
    """Say why the view cannot draw on this data, with a button loading a built-in example that fits."""
    st.info(reason)
    _load_button(key, button_key)


def seed_example(key: str, *, button_key: str) -> None:
    """When another dataset is loaded, a small offer to switch to the seed's own example of the view."""
    from nbapp.examples import example

    if work().source.example_key == key:
        return
    ex = example(key)
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.caption(f"The lecture's example for this idea: {ui.md(ex.title)}{ui.ref(ui.md(ex.seed))}.")
    with right:
        _load_button(key, button_key)


def _load_button(key: str, button_key: str) -> None:
    from nbapp.examples import example

    if st.button(f"Load the built-in example: {example(key).title}", key=button_key, icon=":material/upload:"):
        ui.load_example_into_state(key)
        st.rerun()


def model_with_priors(model: Any, priors: Mapping[Any, float]) -> Any:
    """The fitted model with other class priors, without refitting (nbapp's with_priors)."""
    return model.with_priors({c: float(p) for c, p in priors.items()})


# --------------------------------------------------------------------------- cached nbapp calls


@st.cache_data(show_spinner="Refitting along the smoothing path…", max_entries=16)
def cached_smoothing_path(key: tuple, row_key: tuple, strengths: tuple[float, ...], *, _model: Any,
                          _frame: pd.DataFrame, _row: dict[str, Any]) -> Any:
    from nbapp.lessons.smoothing_path import smoothing_path

    return smoothing_path(_model, _frame, _row, strengths=strengths)


@st.cache_data(show_spinner="Refitting with copies of the feature…", max_entries=16)
def cached_duplicate_effect(key: tuple, row_key: tuple, column: str, *, _model: Any, _frame: pd.DataFrame,
                            _row: dict[str, Any]) -> Any:
    from nbapp.lessons.covariance import duplicate_feature_effect

    return duplicate_feature_effect(_model, _frame, _row, column, copies=(0, 1, 2, 3, 4, 5))


@st.cache_data(show_spinner="Cross-validating…", max_entries=16)
def cached_calibration(key: tuple, target: str, weight: str | None, k: int, n_bins: int, positive: Any, *,
                       _make_model: Callable[[], Any], _frame: pd.DataFrame) -> Any:
    from nbapp.lessons.calibration import calibration_report

    return calibration_report(_make_model, _frame, target, k=k, n_bins=n_bins, positive=positive, weight=weight)


@st.cache_data(show_spinner="Training both models on growing subsets…", max_entries=8)
def cached_learning_curve(key: tuple, target: str, weight: str | None, repeats: int, *,
                          _make_model: Callable[[], Any], _frame: pd.DataFrame, _features: dict[str, Any]) -> Any:
    from nbapp.lessons.curves import learning_curve

    return learning_curve(_frame, target, _features, repeats=repeats, weight=weight, make_model=_make_model)


# --------------------------------------------------------------------------- figures


def _cell_label(column: Any, value: Any, cls: Any) -> str:
    return plot_text(f"P({column} = {value} | {cls})", limit=80)


def smoothing_figure(cells: pd.DataFrame, strength: float, variants: list[str]) -> go.Figure:
    """Chosen CPT cells against the smoothing strength; zero-count cells marked at s = 0."""
    fig = go.Figure()
    shown = cells[cells["variant"].isin(variants)]
    keys = list(dict.fromkeys(zip(shown["column"], shown["value"], shown["class"])))
    for i, (column, value, cls) in enumerate(keys):
        shade = colour(i)
        label = _cell_label(column, value, cls)
        for variant in variants:
            part = shown[(shown["variant"] == variant) & (shown["column"] == column)
                         & (shown["value"] == value) & (shown["class"] == cls)]
            if part.empty:
                continue
            fig.add_trace(go.Scatter(x=part["strength"], y=part["probability"], mode="lines+markers",
                                     name=f"{label}, {VARIANT_NAMES[variant]}", legendgroup=label,
                                     line=dict(color=shade, dash=_DASH[variant]), marker=dict(symbol=symbol(i), size=6)))
    zero = shown[shown["zero_count"] & (shown["strength"] == shown["strength"].min())]
    if len(zero):
        fig.add_trace(go.Scatter(x=zero["strength"], y=zero["probability"], mode="markers",
                                 name="count 0: probability 0 under the MLE",
                                 marker=dict(symbol="x", size=14, color="#d62728")))
    fig.add_vline(x=strength, line_dash="dot", line_color="#555")
    fig.update_layout(title="CPT cells P(x = v | c)", xaxis_title="smoothing strength (l, m or s)",
                      yaxis_title="probability", yaxis_range=[-0.02, 1.02], legend=_BELOW,
                      **layout(460 + 18 * len(fig.data)))
    return fig


def posterior_path_figure(posterior: pd.DataFrame, strength: float, variants: list[str]) -> go.Figure:
    """The test example's posterior of each class against the smoothing strength."""
    fig = go.Figure()
    classes = list(dict.fromkeys(posterior["class"]))
    for i, cls in enumerate(classes):
        for variant in variants:
            part = posterior[(posterior["variant"] == variant) & (posterior["class"] == cls)]
            if part.empty:
                continue
            fig.add_trace(go.Scatter(x=part["strength"], y=part["posterior"], mode="lines+markers",
                                     name=f"P({plot_text(cls)} | x), {VARIANT_NAMES[variant]}",
                                     line=dict(color=colour(i), dash=_DASH[variant]),
                                     marker=dict(size=6, symbol=symbol(i))))
    fig.add_vline(x=strength, line_dash="dot", line_color="#555")
    fig.update_layout(title="Posterior of the test example", xaxis_title="smoothing strength",
                      yaxis_title="P(c | x)", yaxis_range=[-0.02, 1.02], legend=_BELOW,
                      **layout(460 + 18 * len(fig.data)))
    return fig


def prior_sweep_figure(sweep: pd.DataFrame, cls: Any, p: float, break_even: float) -> go.Figure:
    """Posterior of every class as P(cls) runs from 0 to 1."""
    fig = go.Figure()
    for i, c in enumerate(sweep.columns):
        fig.add_trace(go.Scatter(x=sweep.index, y=sweep[c], mode="lines", name=f"P({plot_text(c)} | x)",
                                 line=dict(color=colour(i), dash=dash(i))))
    fig.add_vline(x=p, line_dash="dot", line_color="#555", annotation_text="chosen prior")
    if np.isfinite(break_even):
        fig.add_vline(x=break_even, line_dash="dash", line_color="#d62728", annotation_text="tipping point",
                      annotation_position="bottom right")
    fig.update_layout(title=f"Posterior as P({plot_text(cls)}) moves", xaxis_title=f"P({plot_text(cls)})",
                      yaxis_title="P(c | x)", yaxis_range=[-0.02, 1.02], **layout(_HEIGHT))
    return fig


def prior_evidence_bar(log_prior_ratio: float, ratios: pd.Series, cls: Any = "c1", other: Any = "c0") -> go.Figure:
    """Signed log-odds of ``cls`` against ``other``: the log prior ratio, each feature's log-likelihood
    ratio (up: towards ``cls``, down: towards ``other``) and their sum, the log posterior ratio. A
    ratio of ±∞ (a factor 0 for one class, l = 0) is not drawn as a bar: it decides alone."""
    finite = ratios[np.isfinite(ratios.to_numpy(dtype=float))]
    decisive = ratios.drop(finite.index)
    names = ["log prior ratio", *[plot_text(n) for n in finite.index]]
    values = [float(log_prior_ratio), *finite.astype(float).tolist()]
    fig = go.Figure(go.Bar(x=names, y=values, marker_color=["#264653"] + ["#2a9d8f" if v > 0 else "#e76f51"
                                                                          for v in values[1:]],
                           text=[f"{v:+.3g}" for v in values], textposition="auto", showlegend=False))
    if decisive.empty:
        total = float(sum(values))
        fig.add_trace(go.Bar(x=["log posterior ratio"], y=[total], marker_color="#6c757d", text=[f"{total:+.3g}"],
                             textposition="auto", showlegend=False))
        title = (f"log P({plot_text(cls)} | x) / P({plot_text(other)} | x) = prior {log_prior_ratio:+.3g} "
                 f"+ evidence {float(finite.sum()):+.3g} = {total:+.3g}")
    else:
        side = plot_text(cls if (decisive > 0).all() else other)
        title = (f"{', '.join(plot_text(n) for n in decisive.index)} is 0 for one class: the evidence decides alone "
                 f"for {side}, whatever the prior")
    fig.add_hline(y=0, line_color="#555")
    fig.update_layout(title=title, yaxis_title=f"natural log, + favours {plot_text(cls)}", **layout(_HEIGHT))
    return fig


def weights_bar(weights: pd.Series, *, top: int = 25) -> go.Figure:
    """The largest weights |w| as horizontal bars (green: towards the positive class)."""
    order = weights.abs().sort_values(ascending=False, kind="stable").index[:top]
    shown = weights[order].iloc[::-1]
    fig = go.Figure(go.Bar(x=shown.to_numpy(dtype=float), y=[plot_text(n) for n in shown.index], orientation="h",
                           marker_color=["#2a9d8f" if v > 0 else "#e76f51" for v in shown]))
    fig.update_layout(title="Weights w", xaxis_title="w (log-odds per unit of the feature)",
                      **layout(120 + 24 * len(shown)))
    return fig


def _scatter_points(fig: go.Figure, data: pd.DataFrame, x: str, y: str, target: str, classes: tuple,
                    **where: Any) -> None:
    for i, cls in enumerate(classes):
        part = data[data[target] == cls]
        fig.add_trace(go.Scatter(x=part[x], y=part[y], mode="markers", name=plot_text(cls),
                                 marker=dict(color=colour(i), size=9, symbol=symbol(i),
                                             line=dict(color="white", width=1)),
                                 legendgroup=plot_text(cls), showlegend=not where), **where)


def boundary_figure(grid: DensityGrid, data: pd.DataFrame, target: str, title: str) -> go.Figure:
    """The predicted class over the grid (its edges are the decision boundary), data on top."""
    k = len(grid.classes)
    scale = [[i / max(k - 1, 1), colour(i)] for i in range(k)]
    fig = go.Figure(go.Heatmap(x=grid.x, y=grid.y, z=grid.predicted, colorscale=scale, opacity=0.25,
                               showscale=False, zmin=0, zmax=max(k - 1, 1), hoverinfo="skip"))
    if k == 2:
        fig.add_trace(go.Contour(x=grid.x, y=grid.y, z=grid.posterior[1], showscale=False,
                                 contours=dict(start=0.5, end=0.5, size=1, coloring="lines"),
                                 line=dict(color="black", width=2), name="P = 0.5", hoverinfo="skip"))
    _scatter_points(fig, data, grid.x_column, grid.y_column, target, grid.classes)
    fig.update_layout(title=plot_text(title, limit=120), xaxis_title=plot_text(grid.x_column),
                      yaxis_title=plot_text(grid.y_column), **layout(420))
    return fig


def contour_figure(grid: DensityGrid, model: GaussianClassModel, data: pd.DataFrame, title: str) -> go.Figure:
    """The per-class densities p(x, y | c) as contour lines, with the data."""
    fig = go.Figure()
    for i, cls in enumerate(grid.classes):
        fig.add_trace(go.Contour(x=grid.x, y=grid.y, z=grid.density[i], showscale=False, ncontours=8,
                                 contours=dict(coloring="lines"), line=dict(color=colour(i), dash=dash(i)),
                                 name=f"p(x | {plot_text(cls)})", hoverinfo="skip"))
    _scatter_points(fig, data, grid.x_column, grid.y_column, model.target, grid.classes)
    fig.update_layout(title=plot_text(title, limit=120), xaxis_title=plot_text(grid.x_column),
                      yaxis_title=plot_text(grid.y_column), **layout(420))
    return fig


def duplicate_figure(posterior: pd.DataFrame, confidence: pd.Series, accuracy: pd.Series) -> go.Figure:
    """The example's posterior and the mean confidence against the number of copies."""
    fig = go.Figure()
    for i, c in enumerate(posterior.columns):
        fig.add_trace(go.Scatter(x=posterior.index, y=posterior[c], mode="lines+markers",
                                 name=f"P({plot_text(c)} | x)", line=dict(color=colour(i)),
                                 marker=dict(symbol=symbol(i))))
    fig.add_trace(go.Scatter(x=confidence.index, y=confidence, mode="lines+markers", name="mean confidence (rows)",
                             line=dict(color="#555", dash="dash")))
    fig.add_trace(go.Scatter(x=accuracy.index, y=accuracy, mode="lines+markers", name="accuracy (training rows)",
                             line=dict(color="#999", dash="dot")))
    fig.update_layout(title="Duplicating a feature", xaxis_title="extra copies of the feature",
                      yaxis_title="probability", yaxis_range=[-0.02, 1.02], **layout(_HEIGHT))
    return fig


def reliability_figure(bins: pd.DataFrame, label: str) -> go.Figure:
    """Reliability diagram: mean predicted against observed frequency per bin, and the row counts."""
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.75, 0.25], vertical_spacing=0.05)
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="perfectly calibrated",
                             line=dict(color="#999", dash="dash")), row=1, col=1)
    full = bins[bins["count"] > 0]
    fig.add_trace(go.Scatter(x=full["mean_predicted"], y=full["observed"], mode="lines+markers",
                             name="Naive Bayes", line=dict(color=COLOURS[0]),
                             text=[f"{n} rows" for n in full["count"]]), row=1, col=1)
    fig.add_trace(go.Bar(x=(bins["lower"] + bins["upper"]) / 2, y=bins["count"], width=bins["upper"] - bins["lower"],
                         name="rows per bin", marker_color="#bbb"), row=2, col=1)
    fig.update_xaxes(title_text=plot_text(label), range=[0, 1], row=2, col=1)
    fig.update_yaxes(title_text="observed frequency", range=[-0.02, 1.02], row=1, col=1)
    fig.update_yaxes(title_text="rows", row=2, col=1)
    fig.update_layout(title="Reliability diagram (cross-validated)", **layout(480))
    return fig


def learning_curve_figure(summary: pd.DataFrame, value: str, title: str, *, log_y: bool = False) -> go.Figure:
    """Mean ± standard deviation of one score per model against the training size."""
    fig = go.Figure()
    for i, (name, part) in enumerate(summary.groupby("model", sort=False)):
        fig.add_trace(go.Scatter(x=part["train_size"], y=part[f"{value}_mean"], mode="lines+markers", name=name,
                                 error_y=dict(type="data", array=part[f"{value}_std"].fillna(0.0)),
                                 line=dict(color=colour(i), dash=dash(i)), marker=dict(symbol=symbol(i))))
    fig.update_layout(title=title, xaxis_title="training rows", yaxis_title=value.replace("_", " "),
                      xaxis_type="log", **layout(_HEIGHT))
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def compare_histogram(real: pd.Series, generated: pd.Series, column: str) -> go.Figure:
    """Real and generated values of one column, each as shares (plotly bins and counts)."""
    fig = go.Figure()
    for i, (name, values, shade) in enumerate((("real rows", real, COLOURS[0]), ("generated rows", generated, COLOURS[1]))):
        shown = values.dropna()
        if not pd.api.types.is_numeric_dtype(shown):
            shown = shown.map(plot_text)
        fig.add_trace(go.Histogram(x=shown, histnorm="probability", name=name, opacity=0.6,
                                   marker=dict(color=shade, pattern_shape=pattern(i))))
    fig.update_layout(barmode="group", title=plot_text(f"{column}: real against generated", limit=120),
                      xaxis_title=plot_text(column), yaxis_title="share of rows", **layout(_HEIGHT))
    return fig


def underflow_figure(product: pd.DataFrame, log_sum: pd.DataFrame) -> go.Figure:
    """Running raw product (log axis: it vanishes where it reaches 0.0) next to the running log-sum."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=("raw product in float64", "sum of natural logs"))
    for i, c in enumerate(product.columns):
        shade = colour(i)
        positive = product[c].where(product[c] > 0)
        marker = dict(symbol=symbol(i), size=7, maxdisplayed=12)
        fig.add_trace(go.Scatter(x=product.index, y=positive, mode="lines+markers", name=f"{plot_text(c)}: product",
                                 line=dict(color=shade), marker=marker), row=1, col=1)
        fig.add_trace(go.Scatter(x=log_sum.index, y=log_sum[c], mode="lines+markers", name=f"{plot_text(c)}: log-sum",
                                 line=dict(color=shade, dash="dash"), marker=marker), row=1, col=2)
    fig.update_yaxes(type="log", exponentformat="power", title_text="product (0.0 is not drawn)", row=1, col=1)
    fig.update_yaxes(title_text="log-sum", row=1, col=2)
    fig.update_xaxes(title_text="factors multiplied")
    fig.update_layout(**layout(380))
    return fig
