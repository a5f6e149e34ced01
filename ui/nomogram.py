"""The nomogram drawn (Možina et al. 2004; issue 25, item 5): nbapp.nomogram computes the scales
and the row's points, this module draws them with plotly and reads them back.

One figure, two panels sharing nothing but the idea of points:

* above, a line per factor on one axis of points (log-odds times ``points_per_nat``): the
  prior's point, each category value as a labelled point, each number's log-density ratio as a
  curve over its observed range (the value rises within the feature's band, the points run
  across); the row's own points marked (trace "this row");
* below, the axis of total points with the probability printed at its ticks (trace
  "probability axis"), and the row's total marked with its probability.

A person (or :func:`read_probability`) adds the marked points and the prior's, finds the sum on
the lower axis and reads the probability between its two nearest ticks. The PNG and SVG
downloads are this figure exported, so they carry the same numbers.
"""

from __future__ import annotations

import base64
import os
import threading
import warnings
from typing import Any, Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

import ui
from nbapp.blocks.base import COUNT
from nbapp.nomogram import FeatureScale, NomogramRow, NomogramScales, nomogram_row, nomogram_scales
from ui import charts
from ui.charts import colour
from ui.text import plot_text

__all__ = ["figure", "in_words", "read_probability", "picked_value", "images", "nomogram_ui", "cached_scales", "ROW_TRACE",
           "AXIS_TRACE", "PRIOR_TRACE"]

ROW_TRACE, AXIS_TRACE, PRIOR_TRACE, TOTAL_TRACE = "this row", "probability axis", "prior", "this row's total"
# A category scale prints its values' names up to this many values (beyond: on hover).
_LABELLED_VALUES = 12
# A number's curve is labelled at this many of its values.
_CURVE_LABELS = 5
# Half the height of a feature's band, in which a number's curve rises with its value.
_BAND = 0.32


def _tick_text(p: float) -> str:
    return f"{p:.3g}"


def figure(scales: NomogramScales, row: NomogramRow, *, name: Callable[[Any], str] = str) -> go.Figure:
    """The nomogram of ``scales`` with ``row`` marked. ``name`` labels classes."""
    features = list(scales.scales)
    fig = make_subplots(rows=2, cols=1, row_heights=[len(features) + 1, 2.0], vertical_spacing=0.1)
    # the prior on top (y = 0), then the features down the page
    fig.add_trace(go.Scatter(x=[scales.prior_points], y=[0], mode="markers+text", name=PRIOR_TRACE,
                             text=[f"{scales.prior_points:+.1f}"], textposition="top center",
                             marker=dict(size=11, color="#264653", symbol="diamond"),
                             hovertemplate="prior: %{x:.2f} points<extra></extra>"), row=1, col=1)
    for i, s in enumerate(features, start=1):
        for trace in _scale_traces(s, -i):
            fig.add_trace(trace, row=1, col=1)
    fig.add_trace(_row_trace(scales, row, features), row=1, col=1)
    for trace in _total_traces(scales, row):
        fig.add_trace(trace, row=2, col=1)
    cls = plot_text(name(scales.cls))
    rivals = " and ".join(plot_text(name(c)) for c in scales.against)
    against = f"against {rivals}" if len(scales.against) == 1 else "against the rest"
    fig.update_yaxes(tickvals=[-i for i in range(len(features) + 1)],
                     ticktext=["prior"] + [plot_text(s.feature) for s in features],
                     range=[-len(features) - 0.6, 0.6], showgrid=False, zeroline=False, row=1, col=1)
    fig.update_yaxes(visible=False, range=[-0.6, 0.9], row=2, col=1)
    fig.update_xaxes(title_text=f"points (1 nat of log-odds = {scales.points_per_nat:.3g} points)",
                     zeroline=True, zerolinecolor="#999", row=1, col=1)
    fig.update_xaxes(title_text="total points: the prior's plus the row's; the probability is printed above",
                     range=_total_range(scales, row), showgrid=False, zeroline=False, row=2, col=1)
    left = 20 + 7 * max(len(t) for t in ["prior"] + [plot_text(s.feature) for s in features])
    fig.update_layout(title=plot_text(f"Nomogram: P({cls} | x) {against}; this row: {row.probability:.3f}",
                                      limit=140),
                      showlegend=False, height=200 + 60 * (len(features) + 1) + 140,
                      margin=dict(l=min(left, 220), r=20, t=50, b=40), clickmode="event+select")
    return fig


def _scale_traces(s: FeatureScale, y: float) -> list[go.Scatter]:
    finite = np.isfinite(s.points)
    if not finite.any():
        return []
    if not s.curve:
        values, points = s.values[finite], s.points[finite]
        labelled = len(values) <= _LABELLED_VALUES
        shown = [plot_text(v, limit=24) for v in values]
        return [go.Scatter(x=[points.min(), points.max()], y=[y, y], mode="lines", hoverinfo="skip",
                           line=dict(color="#bbb", width=2), name=f"line::{s.feature}"),
                go.Scatter(x=points, y=[y] * len(points), mode="markers+text" if labelled else "markers",
                           text=shown, textposition=["top center" if k % 2 == 0 else "bottom center"
                                                     for k in range(len(points))],
                           customdata=shown, name=f"scale::{s.feature}",
                           marker=dict(size=9, color=colour(0)),
                           hovertemplate="%{customdata}: %{x:.1f} points (click: use it)<extra></extra>")]
    x, points = s.values[finite].astype(float), s.points[finite]
    heights = _heights(s, x)
    marks = np.unique(np.quantile(x, np.linspace(0, 1, _CURVE_LABELS), method="nearest"))
    mark_points = np.interp(marks, x, points)
    return [go.Scatter(x=points, y=heights + y, mode="lines", name=f"scale::{s.feature}",
                       line=dict(color=colour(0), width=2), customdata=x,
                       hovertemplate=f"{plot_text(s.feature)} = %{{customdata:.4g}}: %{{x:.1f}} points<extra></extra>"),
            go.Scatter(x=mark_points, y=_heights(s, marks) + y, mode="markers+text", hoverinfo="skip",
                       text=[f"{v:.3g}" for v in marks], textposition="top center", name=f"marks::{s.feature}",
                       marker=dict(size=5, color=colour(0)))]


def _heights(s: FeatureScale, x: np.ndarray) -> np.ndarray:
    """Where a number's value sits within its band: its low end at the bottom, its high at the top."""
    low, high = float(s.values[0]), float(s.values[-1])
    share = (x - low) / (high - low) if high > low else np.full(len(x), 0.5)
    return (np.asarray(share, dtype=float) - 0.5) * 2 * _BAND


def _row_trace(scales: NomogramScales, row: NomogramRow, features: list[FeatureScale]) -> go.Scatter:
    """The row's points, one marker per feature with a value (a missing one has no point)."""
    xs, ys, texts = [], [], []
    for i, s in enumerate(features, start=1):
        if row.status.get(s.feature) != "used":
            continue
        points = float(row.points[s.feature])
        if not np.isfinite(points):
            continue
        height = 0.0
        if s.curve and s.values.size:
            value = float(row.values[s.feature])
            height = float(_heights(s, np.array([min(max(value, s.values[0]), s.values[-1])]))[0])
        xs.append(points)
        ys.append(-i + height)
        texts.append(f"{plot_text(row.values[s.feature], limit=24)}: {points:+.1f}")
    return go.Scatter(x=xs, y=ys, mode="markers", name=ROW_TRACE, text=texts,
                      marker=dict(size=14, color="#d62728", symbol="circle-open", line=dict(width=3)),
                      hovertemplate="this row, %{text} points<extra></extra>")


def _axis_ticks(scales: NomogramScales) -> tuple[np.ndarray, np.ndarray]:
    axis = scales.probability_axis
    return axis["points"].to_numpy(dtype=float), axis["probability"].to_numpy(dtype=float)


def _total_range(scales: NomogramScales, row: NomogramRow) -> list[float]:
    points, _ = _axis_ticks(scales)
    low, high = float(points[0]), float(points[-1])
    if np.isfinite(row.total_points):
        low, high = min(low, row.total_points), max(high, row.total_points)
    pad = 0.04 * (high - low)
    return [low - pad, high + pad]


def _total_traces(scales: NomogramScales, row: NomogramRow) -> list[go.Scatter]:
    points, probability = _axis_ticks(scales)
    traces = [go.Scatter(x=points, y=[0] * len(points), mode="markers+text", name=AXIS_TRACE,
                         customdata=probability, text=[_tick_text(p) for p in probability],
                         textposition=["top center" if k % 2 == 0 else "bottom center" for k in range(len(points))],
                         textfont=dict(size=10), marker=dict(symbol="line-ns-open", size=12, color="#333"),
                         hovertemplate="%{x:.1f} points: P = %{customdata:.4g}<extra></extra>")]
    if np.isfinite(row.total_points):
        traces.append(go.Scatter(x=[row.total_points], y=[0.55], mode="markers+text", name=TOTAL_TRACE,
                                 text=[f"total {row.total_points:+.1f}: P = {row.probability:.3f}"],
                                 textposition="middle right", marker=dict(size=13, color="#d62728",
                                                                          symbol="triangle-down")))
    return traces


def in_words(fig: go.Figure) -> str:
    """The nomogram as its caption says it (issue 33, item 8), read off the figure: the points of
    the prior and of each value on each scale, the row's points and its total with the probability."""
    scales = []
    for trace in fig.data:
        kind, _, feature = str(trace.name).partition("::")
        if kind == "scale" and trace.mode != "lines":      # a category's values (a number's curve has marks)
            values = trace.customdata
        elif kind == "marks":
            values = trace.text
        else:
            continue
        scales.append(f"{feature}: " + ", ".join(f"{charts.spoken(v)} {p:+.1f}" for v, p in zip(values, trace.x)))
    prior = _trace(fig, PRIOR_TRACE).text[0]
    row = ", ".join(charts.spoken(t) for t in _trace(fig, ROW_TRACE).text) or "no value with points"
    total = [t.text[0] for t in fig.data if t.name == TOTAL_TRACE]
    return (f"{charts.spoken(fig.layout.title.text)}. Points of each value: prior {prior}; {'; '.join(scales)}. "
            f"This row: {row}" + (f"; {total[0]}." if total else "."))


def _trace(fig: go.Figure, name: str) -> Any:
    return next(t for t in fig.data if t.name == name)


def read_probability(fig: go.Figure) -> float:
    """What a person does with the printed figure: add the prior's point and the row's marked
    points, find the total on the lower axis and read the probability between its two nearest
    printed ticks (beyond the last tick, the last tick's)."""
    total = float(_numbers(_trace(fig, PRIOR_TRACE).x)[0]) + float(np.sum(_numbers(_trace(fig, ROW_TRACE).x)))
    axis = _trace(fig, AXIS_TRACE)
    return float(np.interp(total, _numbers(axis.x), [float(t) for t in axis.text]))


def _numbers(values: Any) -> np.ndarray:
    """A trace's numbers, also from a figure's JSON, where plotly writes an array as a typed
    block ({"dtype": "f8", "bdata": base64})."""
    if isinstance(values, dict) and "bdata" in values:
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).astype(float)
    return np.asarray(values, dtype=float)


def picked_value(fig: go.Figure, event: Any, scales: NomogramScales) -> tuple[str, Any] | None:
    """(feature, value) of a category point clicked in the chart (``event``: the plotly_chart's
    selection state), or None."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return None
    for p in points or []:
        number, index = p.get("curve_number"), p.get("point_index", p.get("point_number"))
        if number is None or index is None or not 0 <= number < len(fig.data):
            continue
        name = str(fig.data[number].name)
        if not name.startswith("scale::"):
            continue
        s = scales.scale(name.removeprefix("scale::"))
        if not s.curve:
            return s.feature, s.values[np.isfinite(s.points)][index]
    return None


def images(fig: go.Figure) -> tuple[bytes, bytes]:
    """The figure as PNG and SVG (kaleido, which drives the machine's Chromium; one browser kept
    for the process, started at the first export)."""
    _check_browser()
    _image_server()
    with warnings.catch_warnings():      # plotly passes options that a kept browser ignores, and says so
        warnings.simplefilter("ignore", UserWarning)
        return fig.to_image(format="png"), fig.to_image(format="svg")


def _check_browser() -> None:
    """RuntimeError when no Chromium can be found: kaleido's kept browser would otherwise fail in
    its own thread and leave the export waiting for ever."""
    from choreographer.browsers.chromium import Chromium

    given = os.environ.get("BROWSER_PATH")
    if given and not os.path.exists(given) or not given and Chromium.find_browser(skip_local=False) is None:
        raise RuntimeError("no Chromium was found on the server (Debian's chromium package provides one)")


_SERVER: list[bool] = []
_SERVER_LOCK = threading.Lock()


def _image_server() -> None:
    """Start kaleido's browser once for the process (sessions export from threads of their own):
    each export then takes a fraction of a second, not a new Chromium's start (seconds).
    kaleido stops it when the process ends."""
    with _SERVER_LOCK:
        if not _SERVER:
            import kaleido

            kaleido.start_sync_server(silence_warnings=True)
            _SERVER.append(True)


# -------------------------------------------------------------------------- the Explain section
CLASS_CHOICE, AGAINST_CHOICE = "explain.nomogram_class", "explain.nomogram_against"
_REST, _RUNNER_UP = "rest", "runner_up"


@st.cache_resource(show_spinner="Drawing the nomogram's scales…", max_entries=32)
def cached_scales(key: tuple, cls: Any, against: Any, _model: Any, _frame: pd.DataFrame | None) -> NomogramScales:
    """The scales of one model (``key``: ``ui.model_key()``) for ``cls`` against ``against``:
    computed once, shared by every click and session (a frozen value, never changed)."""
    return nomogram_scales(_model, cls, against=against, frame=_frame)


def nomogram_ui(model: Any, e: Any, name: Callable[[Any], str]) -> None:
    """The nomogram of the Explain page's row: a class (and what it is weighed against), the
    figure, a slider per number, a click on a category's point, PNG and SVG downloads."""
    cls, against = _classes_ui(e, name)
    frame = ui.frame()
    scales = cached_scales(ui.model_key(), cls, against, _model=model, _frame=frame if len(frame) else None)
    row = nomogram_row(scales, model, ui.work().row(model.features_))
    fig = figure(scales, row, name=name)

    def _clicked() -> None:
        picked = picked_value(fig, st.session_state.get("explain.nomogram_chart"), scales)
        if picked is not None:
            ui.set_query(picked[0], picked[1], missing=False)

    st.metric(f"P({ui.md(name(cls))} | x) read off the nomogram", f"{row.probability:.4f}")
    charts.show(st, fig, words=in_words, key="explain.nomogram_chart", on_select=_clicked, selection_mode="points")
    st.caption("Click a value's point to use it; move a number's slider below. "
               + " ".join(ui.md(ui.lecture.plain(n)) for n in (*scales.notes, *row.notes)))
    _sliders_ui(scales)
    _downloads_ui(fig, cls, against)


def _classes_ui(e: Any, name: Callable[[Any], str]) -> tuple[Any, Any]:
    """The class whose probability the nomogram reads and the class it is weighed against (or
    "rest"); the runner-up is the row's most probable other class, named at each click."""
    from ui.teaching import display_classes

    classes = display_classes(list(e.classes))     # the notes' order (Yes before No)
    work = ui.work()
    chosen = work.choice(CLASS_CHOICE)
    cls_default = chosen if chosen in classes else classes[0]     # stays put while the row changes
    left, right = st.columns(2)
    cls = ui.synced(left.selectbox, "Nomogram of the class", key="_explain_nomogram_class", value=cls_default,
                    options=classes, format_func=name, on_set=lambda v: ui.set_choice(CLASS_CHOICE, v))
    others = [c for c in classes if c != cls]
    if len(others) == 1:
        return cls, others[0]
    options = [_REST, _RUNNER_UP, *others]
    ranked = [c for c in e.posterior.sort_values(ascending=False, kind="stable").index if c != cls]
    labels = {_REST: "the rest (every other class)", _RUNNER_UP: f"the runner-up (now {name(ranked[0])})"}
    against_default = work.choice(AGAINST_CHOICE, _REST)
    against = ui.synced(right.selectbox, "against", key="_explain_nomogram_against",
                        value=against_default if against_default in options else _REST, options=options,
                        format_func=lambda v: labels.get(v, name(v)) if isinstance(v, str) else name(v),
                        on_set=lambda v: ui.set_choice(AGAINST_CHOICE, v))
    if isinstance(against, str) and against == _RUNNER_UP:
        return cls, ranked[0]
    return cls, against


def _sliders_ui(scales: NomogramScales) -> None:
    """A slider per number over its scale's range: moving it moves the row's point."""
    work = ui.work()
    curves = [(i, s) for i, s in enumerate(scales.scales) if s.curve and s.values.size > 1]
    if not curves:
        return
    cells = st.columns(min(len(curves), 3))
    for k, (i, s) in enumerate(curves):
        low, high = float(s.values[0]), float(s.values[-1])
        current = ui.state.as_float(work.query.get(s.feature), (low + high) / 2)
        low, high = min(low, current), max(high, current)
        whole = s.value_kind == COUNT
        step = 1.0 if whole else float(10 ** np.floor(np.log10((high - low) / 200))) if high > low else 1.0
        with cells[k % len(cells)]:
            ui.synced(st.slider, ui.md(s.feature), key=f"_nomogram::{i}", value=float(current),
                      min_value=low, max_value=high, step=step,
                      on_set=lambda v, col=s.feature, whole=whole: ui.set_query(col, int(v) if whole else v,
                                                                                missing=False))


def _downloads_ui(fig: go.Figure, cls: Any, against: Any) -> None:
    """PNG and SVG of this figure, made on request (an export takes a Chromium) and kept for this
    row; without a Chromium on the server the page says so."""
    work = ui.work()
    key = (ui.model_key(), cls, against, work.query, work.missing)
    stem = f"{ui.state.data_stem()}_nomogram_{ui.file_stem(cls)}"
    names = (f"{stem}.png", f"{stem}.svg")
    store = st.session_state.get("download_cache", {})
    ready = all(store.get(n, (None,))[0] == key for n in names)
    if not ready and st.button("Make a PNG and an SVG of this nomogram", key="explain.nomogram_export"):
        try:
            made = images(fig)
        except (RuntimeError, OSError, ImportError, ValueError) as err:
            st.warning(f"The images could not be made here (they need Chromium on the server): {ui.md(err)}")
            return
        for file, data in zip(names, made):
            ui.download_bytes(file, key, lambda data=data: data)
        ready = True
    if ready:
        left, right = st.columns(2)
        for cell, file, mime in ((left, names[0], "image/png"), (right, names[1], "image/svg+xml")):
            cell.download_button(f"Download {file.rsplit('.', 1)[1].upper()}", _kept(file), file_name=file,
                                 mime=mime, on_click="ignore", key=f"explain.nomogram_{mime}")


def _kept(file: str) -> bytes:
    return st.session_state["download_cache"][file][1]
