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
from dataclasses import dataclass
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
from ui.kept import kept
from ui.text import plot_text

__all__ = ["figure", "in_words", "read_probability", "picked_value", "images", "nomogram_ui", "cached_scales",
           "ROW_TRACE", "AXIS_TRACE", "PRIOR_TRACE", "WIDTH", "number_text"]

ROW_TRACE, AXIS_TRACE, PRIOR_TRACE, TOTAL_TRACE = "this row", "probability axis", "prior", "this row's total"
# A category scale prints its values' names up to this many values (beyond: on hover).
_LABELLED_VALUES = 12
# A number's curve is labelled at this many of its values.
_CURVE_LABELS = 5
# Half the height of a feature's band, in which a number's curve rises with its value.
_BAND = 0.32
# The figure is laid out for this width in pixels: the PNG's and SVG's (images()) and about the
# page's column; labels are placed so that none overlaps another at it (issue 33, item 4).
WIDTH = 700
# Font sizes (px) of the labels on the scales and of the probability ticks, the width of a
# character in em (Open Sans and its fallbacks stay under it for digits and most letters), the
# least gap (px) between two labels and the markers' sizes (px): a label's box is estimated
# from these.
_FONT, _TICK_FONT, _EM, _GAP = 12, 10, 0.62, 4
_CATEGORY_MARKER, _MARK_MARKER, _TICK_MARKER, _ROW_MARKER, _TOTAL_MARKER = 9, 5, 12, 14, 13
_MARGIN_TOP, _MARGIN_RIGHT, _MARGIN_BOTTOM = 50, 20, 40
_TOP, _BOTTOM = "top center", "bottom center"


def number_text(v: float) -> str:
    """A number for people: 3 significant digits, thousands separated, never e-notation between
    1e-4 and 1e6 (a body mass of 6300 g is "6,300", not "6.3e+03"; issue 33, item 4)."""
    v = float(v)
    if not np.isfinite(v) or v == 0 or not 1e-4 <= abs(v) < 1e6:
        return f"{v:.3g}"
    rounded = float(f"{v:.3g}")
    decimals = max(0, 2 - int(np.floor(np.log10(abs(rounded)))))
    text = f"{rounded:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _text_width(text: str, font: float) -> float:
    return len(text) * font * _EM


def figure(scales: NomogramScales, row: NomogramRow, *, name: Callable[[Any], str] = str) -> go.Figure:
    """The nomogram of ``scales`` with ``row`` marked. ``name`` labels classes.

    Laid out for :data:`WIDTH` pixels: the axes' ranges leave room for the labels at their ends,
    a scale's labels are put above or below their points where they fit and left out where
    neither does (a category's name stays on hover), and the total's label opens to the side with
    room (issue 33, item 4)."""
    features = list(scales.scales)
    n = len(features)
    height = 200 + 60 * (n + 1) + 140
    left = min(20 + 7 * max(len(t) for t in ["prior"] + [plot_text(s.feature) for s in features]), 220)
    fig = make_subplots(rows=2, cols=1, row_heights=[n + 1, 2.0], vertical_spacing=0.1)
    plot_width, plot_height = WIDTH - left - _MARGIN_RIGHT, height - _MARGIN_TOP - _MARGIN_BOTTOM
    labels = [_Labels.of(s, -i) for i, s in enumerate(features, start=1)]
    prior_text = f"{scales.prior_points:+.1f}"
    row_xs, row_ys = _row_marks(scales, row, features)
    x_range = _padded_range([scales.prior_points, *row_xs.values(), *(x for lab in labels for x in lab.x)],
                            [_text_width(prior_text, _FONT) / 2, *[_ROW_MARKER / 2] * len(row_xs),
                             *(h for lab in labels for h in lab.halves())], plot_width)
    low, high = fig.layout.yaxis.domain
    upper = _Pixels(x_range, (0.6, -n - 0.6), plot_width, plot_height * (high - low))
    # the prior on top (y = 0), then the features down the page
    fig.add_trace(go.Scatter(x=[scales.prior_points], y=[0], mode="markers+text", name=PRIOR_TRACE,
                             text=[prior_text], textposition=_TOP,
                             marker=dict(size=11, color="#264653", symbol="diamond"),
                             hovertemplate="prior: %{x:.2f} points<extra></extra>"), row=1, col=1)
    for s, lab in zip(features, labels):
        for trace in _scale_traces(s, lab, upper, row_xs, row_ys):
            fig.add_trace(trace, row=1, col=1)
    fig.add_trace(_row_trace(row, features, row_xs, row_ys), row=1, col=1)
    low, high = fig.layout.yaxis2.domain
    for trace in _total_traces(scales, row, plot_width, plot_height * (high - low)):
        fig.add_trace(trace, row=2, col=1)
    cls = plot_text(name(scales.cls))
    rivals = " and ".join(plot_text(name(c)) for c in scales.against)
    against = f"against {rivals}" if len(scales.against) == 1 else "against the rest"
    fig.update_yaxes(tickvals=[-i for i in range(n + 1)],
                     ticktext=["prior"] + [plot_text(s.feature) for s in features],
                     range=[-n - 0.6, 0.6], showgrid=False, zeroline=False, row=1, col=1)
    fig.update_yaxes(visible=False, range=[_TOTAL_Y[1], _TOTAL_Y[0]], row=2, col=1)
    fig.update_xaxes(title_text=f"points (1 nat of log-odds = {scales.points_per_nat:.3g} points)",
                     range=list(x_range), zeroline=True, zerolinecolor="#999", row=1, col=1)
    fig.update_xaxes(title_text="total points: the prior's plus the row's; the probability is printed above",
                     range=list(_total_range(scales, plot_width)), showgrid=False, zeroline=False, row=2, col=1)
    fig.update_layout(title=plot_text(f"Nomogram: P({cls} | x) {against}; this row: {row.probability:.3f}",
                                      limit=140),
                      showlegend=False, height=height,
                      margin=dict(l=left, r=_MARGIN_RIGHT, t=_MARGIN_TOP, b=_MARGIN_BOTTOM), clickmode="event+select")
    return fig


@dataclass(frozen=True)
class _Pixels:
    """Where a panel's (x, y) lands in pixels from its top left corner, at :data:`WIDTH`."""

    x_range: tuple[float, float]
    y_range: tuple[float, float]      # (top, bottom)
    width: float
    height: float

    def x(self, x: Any) -> np.ndarray:
        low, high = self.x_range
        return (np.asarray(x, dtype=float) - low) * self.width / (high - low)

    def y(self, y: Any) -> np.ndarray:
        top, bottom = self.y_range
        return (top - np.asarray(y, dtype=float)) * self.height / (top - bottom)


@dataclass(frozen=True)
class _Labels:
    """A scale's labelled points: a category's values, or a number's marks on its curve."""

    centre: float                     # the scale's line (y)
    x: np.ndarray
    y: np.ndarray
    text: list[str]
    values: np.ndarray

    @classmethod
    def of(cls, s: FeatureScale, y: float) -> "_Labels":
        finite = np.isfinite(s.points)
        if not finite.any():
            return cls(y, np.array([]), np.array([]), [], np.array([]))
        if not s.curve:
            values, points = s.values[finite], s.points[finite]
            text = [plot_text(v, limit=24) for v in values] if len(values) <= _LABELLED_VALUES else []
            return cls(y, points, np.full(len(points), y), text, values)
        x, points = s.values[finite].astype(float), s.points[finite]
        marks = np.unique(np.quantile(x, np.linspace(0, 1, _CURVE_LABELS), method="nearest"))
        return cls(y, np.interp(marks, x, points), _heights(s, marks) + y, [number_text(v) for v in marks], marks)

    def halves(self) -> list[float]:
        """Half of each point's label's width (px; 0 without a label)."""
        return [_text_width(t, _FONT) / 2 for t in self.text] if self.text else [0.0] * len(self.x)


def _padded_range(xs: list[float], halves: list[float], width: float) -> tuple[float, float]:
    """The least range of an axis ``width`` px wide on which every label (centred at its x, half
    as wide as ``halves``, px) lies inside: the points span the middle, the ends leave room."""
    x, half = np.asarray(xs, dtype=float), np.asarray(halves, dtype=float) + _GAP
    keep = np.isfinite(x)
    x, half = x[keep], half[keep]
    if not x.size:
        return -1.0, 1.0
    low, high = float(x.min()), float(x.max())
    span = high - low if high > low else 1.0
    room_low = room_high = 0.0
    for _ in range(50):                  # the room grows as the scale shrinks: a few steps settle it
        scale = (width - room_low - room_high) / span
        need_low = max(0.0, float(np.max(half - (x - low) * scale)))
        need_high = max(0.0, float(np.max(half - (high - x) * scale)))
        # the labels never take more than half the width: a very long name is then cut, not the scales
        need_low, need_high = min(need_low, width / 4), min(need_high, width / 4)
        if need_low <= room_low + 0.1 and need_high <= room_high + 0.1:
            break
        room_low, room_high = max(room_low, need_low), max(room_high, need_high)
    scale = (width - room_low - room_high) / span
    return low - room_low / scale, high + room_high / scale


def _placed(x: np.ndarray, y: np.ndarray, text: list[str], order: list[int], *, font: float, marker: float,
            taken: list[tuple[float, float, float, float]] = ()) -> list[str | None]:
    """Where each label goes (pixels ``x``, ``y`` of its point): above its point, else below, else
    nowhere (None) when both would overlap a label placed before it (in ``order``) or a box in
    ``taken``. A box is estimated from the label's characters and the font."""
    boxes = list(taken)
    where: list[str | None] = [None] * len(text)
    tall = font * 1.15
    for i in order:
        half = _text_width(text[i], font) / 2 + _GAP / 2
        for position in (_TOP, _BOTTOM):
            top = y[i] - marker / 2 - tall if position == _TOP else y[i] + marker / 2
            box = (x[i] - half, x[i] + half, top, top + tall)
            if not any(_overlap(box, other) for other in boxes):
                boxes.append(box)
                where[i] = position
                break
    return where


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _box(x: float, y: float, size: float) -> tuple[float, float, float, float]:
    return x - size / 2, x + size / 2, y - size / 2, y + size / 2


def _scale_traces(s: FeatureScale, labels: _Labels, px: _Pixels, row_xs: dict[str, float],
                  row_ys: dict[str, float]) -> list[go.Scatter]:
    finite = np.isfinite(s.points)
    if not finite.any():
        return []
    x_px, y_px = px.x(labels.x), px.y(labels.y)
    if not s.curve:
        shown = [plot_text(v, limit=24) for v in labels.values]
        order = list(np.argsort(x_px, kind="stable")) if labels.text else []
        where = _placed(x_px, y_px, labels.text, order, font=_FONT, marker=_CATEGORY_MARKER)
        return [go.Scatter(x=[labels.x.min(), labels.x.max()], y=[labels.centre] * 2, mode="lines", hoverinfo="skip",
                           line=dict(color="#bbb", width=2), name=f"line::{s.feature}"),
                go.Scatter(x=labels.x, y=labels.y, mode="markers+text" if labels.text else "markers",
                           text=[t if w else "" for t, w in zip(labels.text, where)] or None,
                           textposition=[w or _TOP for w in where] or None,
                           customdata=shown, name=f"scale::{s.feature}",
                           marker=dict(size=_CATEGORY_MARKER, color=colour(0)),
                           hovertemplate="%{customdata}: %{x:.1f} points (click: use it)<extra></extra>")]
    x, points = s.values[finite].astype(float), s.points[finite]
    # the ends first, then the middle: a curve's range is what its marks must say
    m = len(labels.text)
    order = list(dict.fromkeys([0, m - 1, m // 2, *range(m)]))
    # a mark's number keeps clear of the row's ring (its line adds 3 px around the marker); a
    # category's name cannot, its own point being under the ring
    taken = ([_box(float(px.x(row_xs[s.feature])), float(px.y(row_ys[s.feature])), _ROW_MARKER + 4)]
             if s.feature in row_xs else [])
    hover = f"{plot_text(s.feature)} = %{{customdata:,.4~r}}: %{{x:.1f}} points<extra></extra>"
    where = _placed(x_px, y_px, labels.text, order, font=_FONT, marker=_MARK_MARKER, taken=taken)
    kept = [i for i in range(m) if where[i]]
    return [go.Scatter(x=points, y=_heights(s, x) + labels.centre, mode="lines", name=f"scale::{s.feature}",
                       line=dict(color=colour(0), width=2), customdata=x,
                       hovertemplate=hover),
            go.Scatter(x=labels.x[kept], y=labels.y[kept], mode="markers+text", hoverinfo="skip",
                       text=[labels.text[i] for i in kept], textposition=[where[i] for i in kept],
                       name=f"marks::{s.feature}", marker=dict(size=_MARK_MARKER, color=colour(0)))]


def _heights(s: FeatureScale, x: np.ndarray) -> np.ndarray:
    """Where a number's value sits within its band: its low end at the bottom, its high at the top."""
    low, high = float(s.values[0]), float(s.values[-1])
    share = (x - low) / (high - low) if high > low else np.full(len(x), 0.5)
    return (np.asarray(share, dtype=float) - 0.5) * 2 * _BAND


def _row_marks(scales: NomogramScales, row: NomogramRow, features: list[FeatureScale]
               ) -> tuple[dict[str, float], dict[str, float]]:
    """Where the row's point sits on each scale it has a value for (x: points, y: the band's height)."""
    xs, ys = {}, {}
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
        xs[s.feature], ys[s.feature] = points, -i + height
    return xs, ys


def _row_trace(row: NomogramRow, features: list[FeatureScale], xs: dict[str, float],
               ys: dict[str, float]) -> go.Scatter:
    """The row's points, one marker per feature with a value (a missing one has no point)."""
    shown = [s.feature for s in features if s.feature in xs]
    texts = [f"{plot_text(row.values[f], limit=24)}: {xs[f]:+.1f}" for f in shown]
    return go.Scatter(x=[xs[f] for f in shown], y=[ys[f] for f in shown], mode="markers", name=ROW_TRACE,
                      text=texts, marker=dict(size=_ROW_MARKER, color="#d62728", symbol="circle-open",
                                              line=dict(width=3)),
                      hovertemplate="this row, %{text} points<extra></extra>")


def _axis_ticks(scales: NomogramScales) -> tuple[np.ndarray, np.ndarray]:
    axis = scales.probability_axis
    return axis["points"].to_numpy(dtype=float), axis["probability"].to_numpy(dtype=float)


# The lower panel's y: the probability ticks at 0, the row's total above them.
_TOTAL_Y, _TOTAL_AT = (0.9, -0.6), 0.55


def _total_range(scales: NomogramScales, width: float) -> tuple[float, float]:
    """The axis of totals spans its probability ticks, with room for their labels: a total beyond
    them is marked at the end (P is then below the first tick or above the last), so that an
    extreme row cannot squeeze the ticks into a corner."""
    points, probability = _axis_ticks(scales)
    return _padded_range(list(points), [_text_width(number_text(p), _TICK_FONT) / 2 for p in probability], width)


def _tick_order(probability: np.ndarray) -> list[int]:
    """The ticks in the order they claim room: round ones first (0.5, 0.1, 0.01 before 0.25,
    0.075), the middle before the tails."""
    digits = [len(number_text(min(p, 1 - p)).replace("0.", "", 1).lstrip("0")) for p in probability]
    return sorted(range(len(probability)), key=lambda i: (digits[i], abs(probability[i] - 0.5)))


def _total_traces(scales: NomogramScales, row: NomogramRow, width: float, height: float) -> list[go.Scatter]:
    points, probability = _axis_ticks(scales)
    px = _Pixels(_total_range(scales, width), _TOTAL_Y, width, height)
    text = [number_text(p) for p in probability]
    where = _placed(px.x(points), px.y(np.zeros(len(points))), text, _tick_order(probability), font=_TICK_FONT,
                    marker=_TICK_MARKER)
    # every tick is drawn (a ruler's unlabelled marks); only those with room carry their probability
    traces = [go.Scatter(x=points, y=[0] * len(points), mode="markers+text", name=AXIS_TRACE,
                         customdata=probability, text=[t if w else "" for t, w in zip(text, where)],
                         textposition=[w or _TOP for w in where],
                         textfont=dict(size=_TICK_FONT), marker=dict(symbol="line-ns-open", size=_TICK_MARKER,
                                                                      color="#333"),
                         hovertemplate="%{x:.1f} points: P = %{customdata:.4g}<extra></extra>")]
    if np.isfinite(row.total_points):
        at = min(max(row.total_points, points[0]), points[-1])
        beyond = "" if at == row.total_points else ", beyond the axis"
        label = f"total {row.total_points:+.1f}{beyond}: P = {row.probability:.3f}"
        # the label opens towards the side with room, so that it stays inside the image
        right = float(px.x(at)) <= width / 2
        traces.append(go.Scatter(x=[at], y=[_TOTAL_AT], mode="markers+text", name=TOTAL_TRACE,
                                 text=[label], textposition="middle right" if right else "middle left",
                                 marker=dict(size=_TOTAL_MARKER, color="#d62728", symbol="triangle-down")))
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
    printed ticks (beyond the last printed tick, its probability; a tick without a label, left
    out where labels would overlap, is not read)."""
    total = float(_numbers(_trace(fig, PRIOR_TRACE).x)[0]) + float(np.sum(_numbers(_trace(fig, ROW_TRACE).x)))
    axis = _trace(fig, AXIS_TRACE)
    printed = [i for i, t in enumerate(axis.text) if t]
    return float(np.interp(total, _numbers(axis.x)[printed], [float(axis.text[i]) for i in printed]))


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
        return fig.to_image(format="png", width=WIDTH), fig.to_image(format="svg", width=WIDTH)


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
    ready = all(kept(f"download.{n}", key) is not None for n in names)
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
            cell.download_button(f"Download {file.rsplit('.', 1)[1].upper()}", kept(f"download.{file}", key), file_name=file,
                                 mime=mime, on_click="ignore", key=f"explain.nomogram_{mime}")
