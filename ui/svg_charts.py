"""Charts a click redraws, drawn in the page as SVG by components of Streamlit's own (issue 32,
item 3): Explain's log-odds waterfall and Model's Poisson fit (bars of the data, the fitted
P(x | c) as dotted lines over them).

Plotly redrew such a chart 50-120 ms after the rest of a click had settled in Chromium here
(``bench/bench_clicks.py --trace``; a chart whose figure did not change was not redrawn): it was
the page's last change. These components (``st.components.v2``, HTML, CSS and JavaScript inline,
nothing fetched) draw the same marks with a few SVG elements. What they draw is read off the
plotly figure :mod:`ui.charts` builds, so a chart, its words (:func:`ui.charts.describe`, the
caption and the SVG's accessible name) and its figure stay one thing. Classes keep their colour,
line dash, marker and bar pattern (issue 33, item 8), text follows the theme's colour.

Labels are data, set with ``textContent``, never as markup. The DOM the tests read (through the
component's shadow root):

* the waterfall: one ``<g data-nb-step="<label>">`` per step, carrying its value
  (``data-nb-step-value``, JavaScript's ``String(v)``) and ``data-nb-step-total="true"`` on the total;
* the bars-and-lines chart: one ``<g data-nb-trace="<name>" data-nb-kind="bar|line">`` per
  trace, and in it one element per point carrying ``data-nb-x`` and ``data-nb-y``.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui.charts import describe, words_caption

__all__ = ["WATERFALL_COMPONENT", "OVERLAY_COMPONENT", "waterfall_data", "waterfall_ui", "overlay_data",
           "overlay_ui"]

WATERFALL_COMPONENT = "nbapp_waterfall"
OVERLAY_COMPONENT = "nbapp_bars_and_lines"

_HTML = '<figure class="nb-chart"></figure>'

_CSS = """
.nb-chart { margin: 0; font-family: var(--st-font, sans-serif); color: var(--st-text-color, inherit); }
.nb-chart svg { width: 100%; height: auto; display: block; overflow: visible; }
.nb-chart text { fill: currentColor; font-size: 12px; }
.nb-chart .nb-title { font-size: 14px; font-weight: 600; }
.nb-chart .nb-grid { stroke: currentColor; stroke-opacity: 0.15; }
.nb-chart .nb-zero { stroke: currentColor; stroke-opacity: 0.6; }
.nb-chart .nb-link { stroke: currentColor; stroke-opacity: 0.4; stroke-dasharray: 2 2; }
"""

# What both charts share: SVG elements made with text as text, and round ticks over a range.
_SVG_JS = r"""
const SVG = "http://www.w3.org/2000/svg";

function el(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function ticks(lo, hi, count) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

function tickText(t) { return String(Number(t.toPrecision(6))); }

// The drawing's width: the figure's own in pixels, so that text keeps its size (720 before layout).
function widthOf(figure) { return Math.max(320, Math.round(figure.clientWidth) || 720); }

function chartSvg(width, height, words) {
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": words });
  svg.appendChild(el("title", {}, words));
  return svg;
}
"""

# Drawn afresh on every call (a few dozen elements); sizes in SVG units, scaled to the width.
_WATERFALL_JS = _SVG_JS + r"""
const COLOURS = { up: "#2a9d8f", down: "#e76f51", total: "#264653" };

function signed(v) { return (v >= 0 ? "+" : "\u2212") + Math.abs(v).toFixed(3); }

export default function (component) {
  const { data, parentElement } = component;
  const figure = parentElement.querySelector(".nb-chart");
  if (!data || !figure) return;
  const steps = data.steps;
  const W = widthOf(figure), LABEL = Math.min(170, W * 0.3), RIGHT = 24, TOP = 34, ROW = 30, AXIS = 44;
  const H = TOP + ROW * steps.length + AXIS;
  let at = 0;
  const spans = steps.map((s) => {
    const start = s.total ? 0 : at;
    const end = s.total ? s.value : at + s.value;
    if (!s.total) at = end;
    return [start, end];
  });
  const ends = spans.flat().concat([0]);
  let lo = Math.min(...ends), hi = Math.max(...ends);
  const pad = (hi - lo || 1) * 0.16;
  lo -= pad; hi += pad;
  const x = (v) => LABEL + ((v - lo) / (hi - lo)) * (W - LABEL - RIGHT);
  const svg = chartSvg(W, H, data.words);
  svg.appendChild(el("text", { x: 0, y: 16, class: "nb-title" }, data.title));
  const bottom = TOP + ROW * steps.length;
  for (const t of ticks(lo, hi, 8)) {
    svg.appendChild(el("line", { x1: x(t), x2: x(t), y1: TOP - 4, y2: bottom, class: t === 0 ? "nb-zero" : "nb-grid" }));
    svg.appendChild(el("text", { x: x(t), y: bottom + 16, "text-anchor": "middle" }, tickText(t)));
  }
  svg.appendChild(el("text", { x: (LABEL + W - RIGHT) / 2, y: bottom + 36, "text-anchor": "middle" }, data.axis));
  steps.forEach((s, i) => {
    const [start, end] = spans[i];
    const y = TOP + ROW * i;
    const g = el("g", { "data-nb-step": s.label, "data-nb-step-value": String(s.value) });
    if (s.total) g.setAttribute("data-nb-step-total", "true");
    g.appendChild(el("text", { x: LABEL - 8, y: y + ROW / 2 + 4, "text-anchor": "end" }, s.label));
    const left = x(Math.min(start, end)), width = Math.max(1, Math.abs(x(end) - x(start)));
    const colour = s.total ? COLOURS.total : s.value >= 0 ? COLOURS.up : COLOURS.down;
    g.appendChild(el("rect", { x: left, y: y + 5, width: width, height: ROW - 10, fill: colour }));
    const after = end >= start;
    g.appendChild(el("text", { x: after ? left + width + 4 : left - 4, y: y + ROW / 2 + 4,
                               "text-anchor": after ? "start" : "end" }, signed(s.value)));
    if (i + 1 < steps.length && !steps[i + 1].total) {
      g.appendChild(el("line", { x1: x(end), x2: x(end), y1: y + ROW - 5, y2: y + ROW + 5, class: "nb-link" }));
    }
    svg.appendChild(g);
  });
  figure.replaceChildren(svg);
}
"""

# Bars overlaid (plotly's barmode "overlay") and lines with markers, a legend on top.
_OVERLAY_JS = _SVG_JS + r"""
const DASHES = { solid: "", dash: "6 4", dot: "2 3", dashdot: "6 3 2 3", longdash: "10 4", longdashdot: "10 4 2 4" };
const HATCH = { "/": "M0,8 L8,0", "\\": "M0,0 L8,8", "x": "M0,8 L8,0 M0,0 L8,8", "-": "M0,4 L8,4",
                "|": "M4,0 L4,8", "+": "M0,4 L8,4 M4,0 L4,8", ".": "M3,4 a1,1 0 1,0 2,0 a1,1 0 1,0 -2,0" };

function marker(symbol, cx, cy, colour) {
  const r = 3.5;
  const points = {
    square: [[-r, -r], [r, -r], [r, r], [-r, r]],
    diamond: [[0, -r * 1.3], [r * 1.3, 0], [0, r * 1.3], [-r * 1.3, 0]],
    "triangle-up": [[0, -r * 1.3], [r * 1.2, r], [-r * 1.2, r]],
    "triangle-down": [[0, r * 1.3], [r * 1.2, -r], [-r * 1.2, -r]],
  }[symbol];
  if (!points) return el("circle", { cx: cx, cy: cy, r: r, fill: colour });
  return el("polygon", { points: points.map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" "), fill: colour });
}

export default function (component) {
  const { data, parentElement } = component;
  const figure = parentElement.querySelector(".nb-chart");
  if (!data || !figure) return;
  const traces = data.traces;
  const W = widthOf(figure), H = data.height, LEFT = 60, RIGHT = 16, BOTTOM = 48;
  const svg = chartSvg(W, H, data.words);
  const defs = el("defs");
  svg.appendChild(defs);
  // the legend: one entry per trace, in rows
  let lx = LEFT, ly = 14;
  const legend = el("g");
  traces.forEach((t, i) => {
    const width = 34 + 7 * t.name.length;
    if (lx + width > W - RIGHT && lx > LEFT) { lx = LEFT; ly += 18; }
    const entry = el("g");
    if (t.kind === "bar") {
      entry.appendChild(el("rect", { x: lx, y: ly - 9, width: 22, height: 10, fill: t.colour, "fill-opacity": t.opacity }));
      if (HATCH[t.pattern]) entry.appendChild(el("rect", { x: lx, y: ly - 9, width: 22, height: 10, fill: `url(#nb-hatch-${i})` }));
    } else {
      entry.appendChild(el("line", { x1: lx, x2: lx + 22, y1: ly - 4, y2: ly - 4, stroke: t.colour, "stroke-width": 2,
                                     "stroke-dasharray": DASHES[t.dash] || "" }));
      if (t.markers) entry.appendChild(marker(t.symbol, lx + 11, ly - 4, t.colour));
    }
    entry.appendChild(el("text", { x: lx + 28, y: ly }, t.name));
    legend.appendChild(entry);
    lx += width;
  });
  svg.appendChild(legend);
  const TOP = ly + 18;
  const xs = traces.flatMap((t) => t.x), ys = traces.flatMap((t) => t.y).concat([0]);
  const barXs = [...new Set(traces.filter((t) => t.kind === "bar").flatMap((t) => t.x))].sort((a, b) => a - b);
  const gaps = barXs.slice(1).map((v, k) => v - barXs[k]).filter((d) => d > 0);
  const unit = gaps.length ? Math.min(...gaps) : 1;
  const x0 = Math.min(...xs) - unit / 2, x1 = Math.max(...xs) + unit / 2;
  const y1 = Math.max(...ys) * 1.08 || 1;
  const x = (v) => LEFT + ((v - x0) / (x1 - x0)) * (W - LEFT - RIGHT);
  const y = (v) => H - BOTTOM - (v / y1) * (H - BOTTOM - TOP);
  for (const t of ticks(0, y1, 5)) {
    svg.appendChild(el("line", { x1: LEFT, x2: W - RIGHT, y1: y(t), y2: y(t), class: t === 0 ? "nb-zero" : "nb-grid" }));
    svg.appendChild(el("text", { x: LEFT - 6, y: y(t) + 4, "text-anchor": "end" }, tickText(t)));
  }
  for (const t of ticks(x0, x1, 8)) {
    svg.appendChild(el("text", { x: x(t), y: H - BOTTOM + 16, "text-anchor": "middle" }, tickText(t)));
  }
  svg.appendChild(el("text", { x: (LEFT + W - RIGHT) / 2, y: H - 8, "text-anchor": "middle" }, data.x_title));
  svg.appendChild(el("text", { x: 14, y: (TOP + H - BOTTOM) / 2, "text-anchor": "middle",
                               transform: `rotate(-90 14 ${(TOP + H - BOTTOM) / 2})` }, data.y_title));
  const band = ((W - LEFT - RIGHT) * unit * 0.8) / (x1 - x0);
  traces.forEach((t, i) => {
    const g = el("g", { "data-nb-trace": t.name, "data-nb-kind": t.kind });
    if (t.kind === "bar") {
      if (HATCH[t.pattern]) {
        const hatch = el("pattern", { id: `nb-hatch-${i}`, width: 8, height: 8, patternUnits: "userSpaceOnUse" });
        hatch.appendChild(el("path", { d: HATCH[t.pattern], stroke: t.colour, "stroke-width": 1.2, fill: "none" }));
        defs.appendChild(hatch);
      }
      t.x.forEach((v, k) => {
        const top = y(Math.max(t.y[k], 0));
        const box = { x: x(v) - band / 2, y: top, width: band, height: Math.max(0, y(0) - top) };
        const bar = el("rect", { ...box, fill: t.colour, "fill-opacity": t.opacity,
                                 "data-nb-x": String(v), "data-nb-y": String(t.y[k]) });
        g.appendChild(bar);
        if (HATCH[t.pattern]) g.appendChild(el("rect", { ...box, fill: `url(#nb-hatch-${i})` }));
      });
    } else {
      g.appendChild(el("polyline", { points: t.x.map((v, k) => `${x(v)},${y(t.y[k])}`).join(" "), fill: "none",
                                     stroke: t.colour, "stroke-width": 2, "stroke-dasharray": DASHES[t.dash] || "" }));
      t.x.forEach((v, k) => {
        const point = t.markers ? marker(t.symbol, x(v), y(t.y[k]), t.colour)
                                : el("circle", { cx: x(v), cy: y(t.y[k]), r: 0 });
        point.setAttribute("data-nb-x", String(v));
        point.setAttribute("data-nb-y", String(t.y[k]));
        g.appendChild(point);
      });
    }
    svg.appendChild(g);
  });
  figure.replaceChildren(svg);
}
"""

_WATERFALL = st.components.v2.component(WATERFALL_COMPONENT, html=_HTML, css=_CSS, js=_WATERFALL_JS,
                                        isolate_styles=True)
_OVERLAY = st.components.v2.component(OVERLAY_COMPONENT, html=_HTML, css=_CSS, js=_OVERLAY_JS, isolate_styles=True)


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


def waterfall_ui(data: dict[str, Any], *, key: str) -> None:
    """The waterfall of :func:`waterfall_data` drawn in the page, and the same words as its caption."""
    _WATERFALL(key=key, data=data)
    words_caption(st, data["words"])


def overlay_ui(where: Any, data: dict[str, Any], *, key: str) -> None:
    """The chart of :func:`overlay_data` drawn in ``where`` (st or a column), and its words as its caption."""
    with where:
        _OVERLAY(key=key, data=data)
    words_caption(where, data["words"])
