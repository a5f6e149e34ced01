"""The log-odds waterfall on Explain, drawn in the page as SVG by a component of Streamlit's own
(issue 32, item 3).

Plotly redrew the waterfall 80-120 ms after the rest of an Explain click had settled in Chromium
here (``bench/bench_clicks.py --trace``): it was the page's last change on every click. This
component (``st.components.v2``, HTML, CSS and JavaScript inline, nothing fetched) draws the same
steps with a few SVG elements in the commit that draws the rest. The steps are read off the figure
:func:`ui.charts.waterfall` builds, so the chart, its words (:func:`ui.charts.describe`, the
caption and the SVG's accessible name) and a figure for export stay one thing.

Labels are data, set with ``textContent``, never as markup. The DOM the tests read (through the
component's shadow root): one ``<g data-nb-step="<label>">`` per step, carrying its value
(``data-nb-step-value``, JavaScript's ``String(v)``) and ``data-nb-step-total="true"`` on the total.
"""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from ui.charts import CAPTION_START, describe
from ui.text import md

__all__ = ["COMPONENT_NAME", "waterfall_data", "waterfall_ui"]

COMPONENT_NAME = "nbapp_waterfall"

_HTML = '<figure class="nb-waterfall"></figure>'

_CSS = """
.nb-waterfall { margin: 0; font-family: var(--st-font, sans-serif); color: var(--st-text-color, inherit); }
.nb-waterfall svg { width: 100%; height: auto; display: block; overflow: visible; }
.nb-waterfall text { fill: currentColor; font-size: 12px; }
.nb-waterfall .nb-title { font-size: 14px; font-weight: 600; }
.nb-waterfall .nb-grid { stroke: currentColor; stroke-opacity: 0.15; }
.nb-waterfall .nb-zero { stroke: currentColor; stroke-opacity: 0.6; }
.nb-waterfall .nb-link { stroke: currentColor; stroke-opacity: 0.4; stroke-dasharray: 2 2; }
"""

# Drawn afresh on every call (a few dozen elements); sizes in SVG units, scaled to the width.
_JS = r"""
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { up: "#2a9d8f", down: "#e76f51", total: "#264653" };

function el(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function ticks(lo, hi) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / 8;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

function signed(v) { return (v >= 0 ? "+" : "\u2212") + Math.abs(v).toFixed(3); }

export default function (component) {
  const { data, parentElement } = component;
  const figure = parentElement.querySelector(".nb-waterfall");
  if (!data || !figure) return;
  const steps = data.steps;
  const W = 720, LABEL = 170, RIGHT = 24, TOP = 34, ROW = 30, AXIS = 44;
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
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": data.words });
  svg.appendChild(el("title", {}, data.words));
  svg.appendChild(el("text", { x: 0, y: 16, class: "nb-title" }, data.title));
  const bottom = TOP + ROW * steps.length;
  for (const t of ticks(lo, hi)) {
    svg.appendChild(el("line", { x1: x(t), x2: x(t), y1: TOP - 4, y2: bottom, class: t === 0 ? "nb-zero" : "nb-grid" }));
    svg.appendChild(el("text", { x: x(t), y: bottom + 16, "text-anchor": "middle" }, String(Number(t.toPrecision(6)))));
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

_WATERFALL = st.components.v2.component(COMPONENT_NAME, html=_HTML, css=_CSS, js=_JS, isolate_styles=True)


def waterfall_data(fig: go.Figure) -> dict[str, Any]:
    """What the browser draws, read off a figure of :func:`ui.charts.waterfall` (its one trace:
    labels, signed sizes, which bars are totals), with the figure's title, axis title and words.
    The figure's texts are written for plotly (``&``, ``<`` and ``>`` as entities, for it reads
    tags): the browser sets them as text, so they go back to what they say."""
    trace = fig.data[0]
    steps = [{"label": html.unescape(str(label)), "value": float(value), "total": measure == "total"}
             for label, value, measure in zip(trace.y, trace.x, trace.measure)]
    return {"title": html.unescape(fig.layout.title.text or ""), "axis": fig.layout.xaxis.title.text or "",
            "steps": steps, "words": describe(fig)}


def waterfall_ui(data: dict[str, Any], *, key: str) -> None:
    """The waterfall of :func:`waterfall_data` drawn in the page, and the same words as its caption."""
    _WATERFALL(key=key, data=data)
    st.caption(md(f"{CAPTION_START} {data['words']}"))
