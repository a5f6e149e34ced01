"""Charts a click redraws, drawn as SVG images that arrive with the page (issue 32, item 3):
Explain's log-odds waterfall and Model's Poisson fit (bars of the data, the fitted P(x | c) as
dotted lines over them).

Plotly redrew such a chart 50-120 ms after the rest of a click had settled in Chromium here
(``bench/bench_clicks.py --trace``; a chart whose figure did not change was not redrawn): it was
the page's last change. A component of Streamlit's own (``st.components.v2``) drawing the same
marks still came 15-30 ms after the rest: its script runs in an effect after React's commit, then
the browser lays the page out again. So the SVG is written here, in Python, and shown with
``st.image`` (:func:`ui.charts.show_svg`: a ``data:`` URL, nothing fetched): it is part of the
commit that draws the rest of the click. What is drawn is read off the plotly figure :mod:`ui.charts` builds, so a chart, its
words (:func:`ui.charts.describe`, the caption and the image's ``alt``) and its figure stay one
thing. Classes keep their colour, line dash, marker and bar pattern (issue 33, item 8).

An image cannot take the page's colours, so each chart brings its own background, in the
theme's tone (``st.context.theme``): its text and marks keep their contrast even on the first
run of a session, when the theme is not yet known. Text is XML-escaped by ElementTree.

The document the tests read (the image's SVG):

* the waterfall: one ``<g data-nb-step="<label>">`` per step, carrying its value
  (``data-nb-step-value``, Python's ``repr``, which reads back to the same float) and
  ``data-nb-step-total="true"`` on the total;
* the bars-and-lines chart: one ``<g data-nb-trace="<name>" data-nb-kind="bar|line">`` per
  trace, and in it one element per point carrying ``data-nb-x`` and ``data-nb-y``.
"""

from __future__ import annotations

import html
import math
import xml.etree.ElementTree as ET
from typing import Any, Mapping, NamedTuple

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui.charts import describe

__all__ = ["Palette", "palette", "waterfall_data", "waterfall_svg", "overlay_data", "overlay_svg"]


class Palette(NamedTuple):
    """A chart's own colours: its background, its text (and grid lines), the waterfall's bars."""
    background: str
    text: str
    up: str
    down: str
    total: str


# Streamlit's own light and dark backgrounds and text; bars at 3:1 or more against their background
_LIGHT = Palette(background="#ffffff", text="#31333f", up="#2a9d8f", down="#e76f51", total="#264653")
_DARK = Palette(background="#0e1117", text="#fafafa", up="#2a9d8f", down="#e76f51", total="#a8dadc")
_FONT = "'Source Sans Pro', 'Source Sans 3', sans-serif"
WATERFALL_WIDTH, OVERLAY_WIDTH = 720, 600        # the drawing's width in pixels (narrower columns shrink it)


def palette() -> Palette:
    """The colours for the page's theme (light until the browser has said otherwise)."""
    return _DARK if st.context.theme.type == "dark" else _LIGHT


def _n(v: float) -> str:
    """A coordinate: two decimals are finer than a pixel."""
    return f"{v:.2f}"


def _el(parent: ET.Element | None, name: str, attributes: Mapping[str, Any] | None = None,
        text: str | None = None) -> ET.Element:
    node = ET.Element(name) if parent is None else ET.SubElement(parent, name)
    for k, v in (attributes or {}).items():
        node.set(k, _n(v) if isinstance(v, float) else str(v))
    if text is not None:
        node.text = text
    return node


def _ticks(lo: float, hi: float, count: int) -> list[float]:
    """Round ticks over [lo, hi], about ``count`` of them (steps of 1, 2 or 5 times a power of ten)."""
    span = hi - lo
    if not span > 0:
        return [lo]
    raw = span / count
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    out, t = [], math.ceil(lo / step) * step
    while t <= hi + step * 1e-9:
        out.append(0.0 if abs(t) < step * 1e-9 else t)
        t += step
    return out


def _tick_text(t: float) -> str:
    return f"{float(f'{t:.6g}'):g}"


def _svg(width: int, height: float, words: str, colours: Palette) -> ET.Element:
    svg = _el(None, "svg", {"xmlns": "http://www.w3.org/2000/svg", "width": width, "height": round(height),
                            "viewBox": f"0 0 {width} {_n(height)}", "role": "img", "aria-label": words,
                            "font-family": _FONT, "font-size": 12, "fill": colours.text})
    _el(svg, "title", text=words)
    _el(svg, "rect", {"width": "100%", "height": "100%", "fill": colours.background})
    return svg


def _text_of(svg: ET.Element) -> str:
    return ET.tostring(svg, encoding="unicode")


def _signed(v: float) -> str:
    return ("+" if v >= 0 else "\u2212") + f"{abs(v):.3f}"


def waterfall_svg(data: Mapping[str, Any], colours: Palette = _LIGHT, width: int = WATERFALL_WIDTH) -> str:
    """The waterfall of :func:`waterfall_data` as an SVG document: a bar per step from where the
    sum stood, the total from 0, value labels, round ticks and the axis title."""
    steps = data["steps"]
    label_w, right, top, row, axis = min(170, width * 0.3), 24, 34, 30, 44
    height = top + row * len(steps) + axis
    at, spans = 0.0, []
    for s in steps:
        start = 0.0 if s["total"] else at
        end = s["value"] if s["total"] else at + s["value"]
        if not s["total"]:
            at = end
        spans.append((start, end))
    ends = [v for span in spans for v in span] + [0.0]
    lo, hi = min(ends), max(ends)
    pad = (hi - lo or 1) * 0.16
    lo, hi = lo - pad, hi + pad
    x = lambda v: label_w + (v - lo) / (hi - lo) * (width - label_w - right)   # noqa: E731
    svg = _svg(width, height, data["words"], colours)
    _el(svg, "text", {"x": 8, "y": 18, "font-size": 14, "font-weight": 600, "class": "nb-title"}, data["title"])
    bottom = top + row * len(steps)
    for t in _ticks(lo, hi, 8):
        _el(svg, "line", {"x1": x(t), "x2": x(t), "y1": top - 4, "y2": bottom, "stroke": colours.text,
                          "stroke-opacity": 0.6 if t == 0 else 0.15})
        _el(svg, "text", {"x": x(t), "y": bottom + 16, "text-anchor": "middle"}, _tick_text(t))
    _el(svg, "text", {"x": (label_w + width - right) / 2, "y": bottom + 36, "text-anchor": "middle",
                      "class": "nb-x-title"}, data["axis"])
    for i, (s, (start, end)) in enumerate(zip(steps, spans)):
        y = top + row * i
        g = _el(svg, "g", {"data-nb-step": s["label"], "data-nb-step-value": repr(float(s["value"]))})
        if s["total"]:
            g.set("data-nb-step-total", "true")
        _el(g, "text", {"x": label_w - 8, "y": y + row / 2 + 4, "text-anchor": "end"}, s["label"])
        left, w = x(min(start, end)), max(1.0, abs(x(end) - x(start)))
        fill = colours.total if s["total"] else colours.up if s["value"] >= 0 else colours.down
        _el(g, "rect", {"x": left, "y": y + 5, "width": w, "height": row - 10, "fill": fill})
        after = end >= start
        _el(g, "text", {"x": left + w + 4 if after else left - 4, "y": y + row / 2 + 4,
                        "text-anchor": "start" if after else "end"}, _signed(s["value"]))
        if i + 1 < len(steps) and not steps[i + 1]["total"]:
            _el(g, "line", {"x1": x(end), "x2": x(end), "y1": y + row - 5, "y2": y + row + 5, "stroke": colours.text,
                            "stroke-opacity": 0.4, "stroke-dasharray": "2 2"})
    return _text_of(svg)


# plotly's dashes and bar patterns as SVG strokes and 8 x 8 hatch tiles
_DASHES = {"solid": "", "dash": "6 4", "dot": "2 3", "dashdot": "6 3 2 3", "longdash": "10 4", "longdashdot": "10 4 2 4"}
_HATCH = {"/": "M0,8 L8,0", "\\": "M0,0 L8,8", "x": "M0,8 L8,0 M0,0 L8,8", "-": "M0,4 L8,4", "|": "M4,0 L4,8",
          "+": "M0,4 L8,4 M4,0 L4,8", ".": "M3,4 a1,1 0 1,0 2,0 a1,1 0 1,0 -2,0"}
_MARKERS = {"square": [(-1, -1), (1, -1), (1, 1), (-1, 1)], "diamond": [(0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)],
            "triangle-up": [(0, -1.3), (1.2, 1), (-1.2, 1)], "triangle-down": [(0, 1.3), (1.2, -1), (-1.2, -1)]}


def _marker(parent: ET.Element, symbol: str, cx: float, cy: float, colour: str) -> ET.Element:
    r = 3.5
    if symbol not in _MARKERS:
        return _el(parent, "circle", {"cx": cx, "cy": cy, "r": r, "fill": colour})
    points = " ".join(f"{_n(cx + dx * r)},{_n(cy + dy * r)}" for dx, dy in _MARKERS[symbol])
    return _el(parent, "polygon", {"points": points, "fill": colour})


def overlay_svg(data: Mapping[str, Any], colours: Palette = _LIGHT, width: int = OVERLAY_WIDTH) -> str:
    """The chart of :func:`overlay_data` as an SVG document: a legend in rows, the bars overlaid
    (each class its colour and pattern), the lines with their dash and markers, ticks and titles."""
    traces = data["traces"]
    height, left, right, bottom = float(data["height"]), 60, 16, 48
    svg = _svg(width, height, data["words"], colours)
    defs = _el(svg, "defs")
    for i, t in enumerate(traces):
        if t["kind"] == "bar" and t["pattern"] in _HATCH:
            tile = _el(defs, "pattern", {"id": f"nb-hatch-{i}", "width": 8, "height": 8, "patternUnits": "userSpaceOnUse"})
            _el(tile, "path", {"d": _HATCH[t["pattern"]], "stroke": t["colour"], "stroke-width": 1.2, "fill": "none"})
    lx, ly = left, 14
    legend = _el(svg, "g")
    for i, t in enumerate(traces):
        w = 34 + 7 * len(t["name"])
        if lx + w > width - right and lx > left:
            lx, ly = left, ly + 18
        entry = _el(legend, "g")
        if t["kind"] == "bar":
            box = {"x": lx, "y": ly - 9, "width": 22, "height": 10}
            _el(entry, "rect", {**box, "fill": t["colour"], "fill-opacity": t["opacity"]})
            if t["pattern"] in _HATCH:
                _el(entry, "rect", {**box, "fill": f"url(#nb-hatch-{i})"})
        else:
            _el(entry, "line", {"x1": lx, "x2": lx + 22, "y1": ly - 4, "y2": ly - 4, "stroke": t["colour"],
                                "stroke-width": 2, "stroke-dasharray": _DASHES.get(t["dash"], "")})
            if t["markers"]:
                _marker(entry, t["symbol"], lx + 11, ly - 4, t["colour"])
        _el(entry, "text", {"x": lx + 28, "y": ly}, t["name"])
        lx += w
    top = ly + 18
    xs = [v for t in traces for v in t["x"]]
    ys = [v for t in traces for v in t["y"]] + [0.0]
    bar_xs = sorted({v for t in traces if t["kind"] == "bar" for v in t["x"]})
    gaps = [d for d in np.diff(bar_xs) if d > 0]
    unit = float(min(gaps)) if gaps else 1.0
    x0, x1 = min(xs) - unit / 2, max(xs) + unit / 2
    y1 = max(ys) * 1.08 or 1.0
    x = lambda v: left + (v - x0) / (x1 - x0) * (width - left - right)       # noqa: E731
    y = lambda v: height - bottom - v / y1 * (height - bottom - top)          # noqa: E731
    for t in _ticks(0.0, y1, 5):
        _el(svg, "line", {"x1": left, "x2": width - right, "y1": y(t), "y2": y(t), "stroke": colours.text,
                          "stroke-opacity": 0.6 if t == 0 else 0.15})
        _el(svg, "text", {"x": left - 6, "y": y(t) + 4, "text-anchor": "end"}, _tick_text(t))
    for t in _ticks(x0, x1, 8):
        _el(svg, "text", {"x": x(t), "y": height - bottom + 16, "text-anchor": "middle"}, _tick_text(t))
    _el(svg, "text", {"x": (left + width - right) / 2, "y": height - 8, "text-anchor": "middle", "class": "nb-x-title"},
        data["x_title"])
    middle = (top + height - bottom) / 2
    _el(svg, "text", {"x": 14, "y": middle, "text-anchor": "middle", "transform": f"rotate(-90 14 {_n(middle)})",
                      "class": "nb-y-title"}, data["y_title"])
    band = (width - left - right) * unit * 0.8 / (x1 - x0)
    for i, t in enumerate(traces):
        g = _el(svg, "g", {"data-nb-trace": t["name"], "data-nb-kind": t["kind"]})
        points = list(zip(t["x"], t["y"]))
        if t["kind"] == "bar":
            for v, h in points:
                top_v = y(max(h, 0.0))
                box = {"x": x(v) - band / 2, "y": top_v, "width": band, "height": max(0.0, y(0.0) - top_v)}
                _el(g, "rect", {**box, "fill": t["colour"], "fill-opacity": t["opacity"], "data-nb-x": repr(v),
                                "data-nb-y": repr(h)})
                if t["pattern"] in _HATCH:
                    _el(g, "rect", {**box, "fill": f"url(#nb-hatch-{i})"})
            continue
        _el(g, "polyline", {"points": " ".join(f"{_n(x(v))},{_n(y(h))}" for v, h in points), "fill": "none",
                            "stroke": t["colour"], "stroke-width": 2, "stroke-dasharray": _DASHES.get(t["dash"], "")})
        for v, h in points:
            point = (_marker(g, t["symbol"], x(v), y(h), t["colour"]) if t["markers"]
                     else _el(g, "circle", {"cx": x(v), "cy": y(h), "r": 0}))
            point.set("data-nb-x", repr(v))
            point.set("data-nb-y", repr(h))
    return _text_of(svg)


def _text(value: Any) -> str:
    """A figure's text as it reads: written for plotly, which reads tags, with ``&``, ``<`` and
    ``>`` as entities (ui.text.plot_text); the browser sets it as text."""
    return html.unescape(str(value or ""))


def _numbers(values: Any) -> list[float]:
    return [float(v) for v in np.asarray(values, dtype=float)]


def waterfall_data(fig: go.Figure) -> dict[str, Any]:
    """What the browser draws, read off a figure of :func:`ui.charts.waterfall` (its one trace:
    labels, signed sizes, which bars are totals), with the figure's title, axis title and words."""
    trace = fig.data[0]
    steps = [{"label": _text(label), "value": value, "total": measure == "total"}
             for label, value, measure in zip(trace.y, _numbers(trace.x), trace.measure)]
    return {"title": _text(fig.layout.title.text), "axis": _text(fig.layout.xaxis.title.text),
            "steps": steps, "words": describe(fig)}


def overlay_data(fig: go.Figure) -> dict[str, Any]:
    """What the browser draws, read off a figure of bars (overlaid) and lines: each trace's kind,
    name, points, colour, opacity and bar pattern or line dash and marker; the axes' titles, the
    figure's height and words."""
    traces = []
    for t in fig.data:
        common = {"name": _text(t.name), "x": _numbers(t.x), "y": _numbers(t.y)}
        if t.type == "bar":
            traces.append({**common, "kind": "bar", "colour": t.marker.color, "opacity": t.opacity or 1.0,
                           "pattern": t.marker.pattern.shape or ""})
        else:
            traces.append({**common, "kind": "line", "colour": t.line.color, "dash": t.line.dash or "solid",
                           "markers": "markers" in (t.mode or ""), "symbol": t.marker.symbol or "circle"})
    return {"traces": traces, "x_title": _text(fig.layout.xaxis.title.text),
            "y_title": _text(fig.layout.yaxis.title.text), "height": fig.layout.height or 360, "words": describe(fig)}
