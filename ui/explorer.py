"""The what-if explorer on Explain (issue 32, item 2): the model's score card
(:meth:`nbapp.NaiveBayes.score_card`) goes to the browser once per model and row, and the
browser adds its numbers at every change of an input, without a script run.

A component of Streamlit's own (``st.components.v2.component``), with its HTML, CSS and
JavaScript inline here: no build step, nothing fetched. The browser only adds what the card
gives it (the log prior, the log factor of each chosen value) and normalises with the largest
log subtracted first; the library stays the one source of the numbers.

Labels and values are data, set with ``textContent``, never as HTML. The DOM contract the
tests read (through the component's shadow root):

* each input carries ``data-nb-feature="<column>"``: a category's is a ``<select>`` whose
  option values are the categories (and an option "missing", ``data-nb-missing``); a
  number's or a count's is a slider over the card's values (``input type=range``, a
  position) carrying the number it stands for in ``data-nb-value`` (empty when missing);
  a text column's document is a fixed term (an ``<output>`` with ``data-nb-fixed``);
* each class's probability is in an element ``data-nb-class="<class>"`` holding its
  full-precision value (JavaScript's ``String(p)``) in ``data-nb-probability``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Mapping

import pandas as pd
import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.ordering import python_scalar

__all__ = ["ExplorerCard", "explorer_card", "settled_row", "row_key", "explorer_ui", "COMPONENT_NAME"]

COMPONENT_NAME = "nbapp_explorer"

_HTML = """<div class="nb-explorer">
  <div class="nb-inputs"></div>
  <div class="nb-posterior" role="status" aria-live="polite"></div>
  <div class="nb-contributions"></div>
</div>"""

_CSS = """
.nb-explorer { font-family: var(--st-font, sans-serif); color: var(--st-text-color, inherit); }
.nb-inputs { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.6rem 1.2rem; }
.nb-field { display: flex; flex-direction: column; gap: 0.2rem; }
.nb-field .nb-name { font-weight: 600; font-size: 0.9rem; }
.nb-field .nb-shown { font-size: 0.85rem; opacity: 0.8; }
.nb-field output[data-nb-fixed] { font-size: 0.85rem; overflow-wrap: anywhere; max-height: 4.5rem; overflow: auto; }
.nb-field label.nb-missing { font-size: 0.8rem; }
.nb-posterior { margin-top: 0.8rem; display: flex; flex-wrap: wrap; gap: 0.4rem 1.4rem; }
.nb-class { display: flex; gap: 0.4rem; align-items: baseline; }
.nb-contributions { margin-top: 0.6rem; font-size: 0.85rem; }
.nb-contributions table { border-collapse: collapse; }
.nb-contributions td { padding: 0.05rem 0.6rem 0.05rem 0; }
.nb-contributions td.nb-log-odds { text-align: right; font-variant-numeric: tabular-nums; }
.nb-class .nb-bar { display: inline-block; height: 0.6rem; background: var(--st-primary-color, #ff4b4b);
  min-width: 1px; }
"""

_JS = r"""
const MISSING = -1;

function logOf(v) { return v === null ? -Infinity : v; }

function shownNumber(v) { return String(Number(v.toPrecision(6))); }

// log P(c) + the chosen values' log factors, then a softmax with the largest subtracted first;
// every class impossible (P(x) = 0): the prior stands in, as predict_proba gives it.
function posterior(card, chosen) {
  const joint = card.log_prior.map(logOf);
  card.features.forEach((f, a) => {
    const at = chosen[a];
    if (at === MISSING) return;
    const logs = f.log_factors[at];
    for (let c = 0; c < joint.length; c++) joint[c] += logOf(logs[c]);
  });
  let scores = joint;
  let top = Math.max(...scores);
  if (top === -Infinity) { scores = card.log_prior.map(logOf); top = Math.max(...scores); }
  const shifted = scores.map((s) => Math.exp(s - top));
  const total = shifted.reduce((x, y) => x + y, 0);
  return shifted.map((s) => s / total);
}

function field(root, f) {
  const box = document.createElement("div");
  box.className = "nb-field";
  const name = document.createElement("span");
  name.className = "nb-name";
  name.textContent = f.column;
  box.appendChild(name);
  root.appendChild(box);
  return box;
}

function categoryInput(box, f, start, changed) {
  const select = document.createElement("select");
  select.setAttribute("data-nb-feature", f.column);
  select.setAttribute("aria-label", f.column);
  f.values.forEach((v) => {
    const option = document.createElement("option");
    option.value = String(v);
    option.textContent = String(v);
    select.appendChild(option);
  });
  const missing = document.createElement("option");
  missing.value = "";
  missing.textContent = "(missing)";
  missing.setAttribute("data-nb-missing", "true");
  select.appendChild(missing);
  select.selectedIndex = start === MISSING ? f.values.length : start;
  select.addEventListener("input", () => {
    changed(select.selectedIndex === f.values.length ? MISSING : select.selectedIndex);
  });
  box.appendChild(select);
}

function numberInput(box, f, start, changed) {
  const slider = document.createElement("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(Math.max(f.values.length - 1, 0));
  slider.step = "1";
  slider.setAttribute("data-nb-feature", f.column);
  slider.setAttribute("aria-label", f.column);
  const shown = document.createElement("span");
  shown.className = "nb-shown";
  const missingBox = document.createElement("label");
  missingBox.className = "nb-missing";
  const missing = document.createElement("input");
  missing.type = "checkbox";
  missing.setAttribute("data-nb-missing-for", f.column);
  missingBox.appendChild(missing);
  missingBox.appendChild(document.createTextNode(" missing"));
  let position = start === MISSING ? Math.floor(f.values.length / 2) : start;
  const show = () => {
    const value = f.values[position];
    slider.value = String(position);
    slider.setAttribute("data-nb-value", missing.checked ? "" : String(value));
    slider.setAttribute("aria-valuetext", missing.checked ? "missing" : String(value));
    shown.textContent = missing.checked ? "missing" : shownNumber(value);
  };
  missing.checked = start === MISSING || f.values.length === 0;
  show();
  slider.addEventListener("input", () => {
    position = Number(slider.value);
    missing.checked = false;
    show();
    changed(position);
  });
  missing.addEventListener("input", () => {
    show();
    changed(missing.checked ? MISSING : position);
  });
  box.appendChild(slider);
  box.appendChild(shown);
  box.appendChild(missingBox);
}

function fixedTerm(box, f, start) {
  const out = document.createElement("output");
  out.setAttribute("data-nb-feature", f.column);
  out.setAttribute("data-nb-fixed", "true");
  out.textContent = start === MISSING ? "(no document)" : String(f.values[start]);
  box.appendChild(out);
}

// The class weighed (the person's choice, else the most probable) against the most probable
// other class (the first in class order on a tie): the prior's and each feature's term of
// log P(c | x) / P(c' | x), which add up to it: the notes' linear form, Eq. 17-20.
function rival(probabilities, c) {
  let best = -1;
  probabilities.forEach((p, k) => { if (k !== c && (best < 0 || p > probabilities[best])) best = k; });
  return best;
}

function mostProbable(probabilities) {
  return probabilities.reduce((best, p, k) => (p > probabilities[best] ? k : best), 0);
}

function term(logs, c, other) { return logOf(logs[c]) - logOf(logs[other]); }

function drawContributions(root, card, chosen, probabilities, picked) {
  if (card.classes.length < 2) return;
  if (root.childElementCount === 0) {
    const line = document.createElement("div");
    const choose = document.createElement("select");
    choose.setAttribute("data-nb-class-choice", "true");
    choose.setAttribute("aria-label", "class weighed");
    const first = document.createElement("option");
    first.value = "";
    first.textContent = "the most probable class";
    choose.appendChild(first);
    card.classes.forEach((cls) => {
      const option = document.createElement("option");
      option.value = String(cls);
      option.textContent = String(cls);
      choose.appendChild(option);
    });
    const words = document.createElement("span");
    words.className = "nb-against";
    line.append("Log-odds of ", choose, words);
    const table = document.createElement("table");
    const body = document.createElement("tbody");
    const rowOf = (name, attribute, value) => {
      const tr = document.createElement("tr");
      const label = document.createElement("td");
      label.textContent = name;
      const cell = document.createElement("td");
      cell.className = "nb-log-odds";
      cell.setAttribute(attribute, value);
      tr.append(label, cell);
      body.appendChild(tr);
    };
    rowOf("prior", "data-nb-prior", "true");
    card.features.forEach((f) => rowOf(f.column, "data-nb-contribution", f.column));
    rowOf("total: the log-odds", "data-nb-total", "true");
    table.appendChild(body);
    root.append(line, table);
    choose.addEventListener("input", () => picked.changed());
  }
  const choose = root.querySelector("select[data-nb-class-choice]");
  const c = choose.selectedIndex > 0 ? choose.selectedIndex - 1 : mostProbable(probabilities);
  const other = rival(probabilities, c);
  const against = root.querySelector(".nb-against");
  against.textContent = " (" + String(card.classes[c]) + ") against " + String(card.classes[other]) + ":";
  against.setAttribute("data-nb-weighed", String(card.classes[c]));
  against.setAttribute("data-nb-against", String(card.classes[other]));
  const cells = root.querySelectorAll("td.nb-log-odds");
  const terms = [term(card.log_prior, c, other)];
  card.features.forEach((f, a) => terms.push(chosen[a] === MISSING ? 0 : term(f.log_factors[chosen[a]], c, other)));
  terms.push(terms.reduce((x, y) => x + y, 0));
  terms.forEach((v, i) => {
    cells[i].setAttribute("data-nb-log-odds", String(v));
    cells[i].textContent = Number.isFinite(v) ? (v >= 0 ? "+" : "") + v.toFixed(4) : String(v);
  });
}

function drawPosterior(root, card, probabilities) {
  if (root.childElementCount === 0) {
    card.classes.forEach((cls) => {
      const row = document.createElement("div");
      row.className = "nb-class";
      const label = document.createElement("span");
      label.textContent = "P(" + String(cls) + " | x)";
      const value = document.createElement("span");
      value.className = "nb-value";
      value.setAttribute("data-nb-class", String(cls));
      const bar = document.createElement("span");
      bar.className = "nb-bar";
      row.append(label, value, bar);
      root.appendChild(row);
    });
  }
  root.querySelectorAll(".nb-class").forEach((row, c) => {
    const p = probabilities[c];
    const value = row.querySelector(".nb-value");
    value.setAttribute("data-nb-probability", String(p));
    value.textContent = p.toFixed(4);
    row.querySelector(".nb-bar").style.width = (6 * p).toFixed(3) + "rem";
  });
}

// What each mounted explorer keeps between calls: the card's id, the chosen positions, the
// timer of a row not yet handed to the server, and whether a handed row awaits its echo.
const KEPT = new WeakMap();
const SETTLE_MS = 300;

function sameRow(card, chosen) {
  return card.features.every((f, a) => (f.current === null ? MISSING : f.current) === chosen[a]);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const top = parentElement.querySelector(".nb-explorer");
  if (!data || !top) return;
  const card = data.card;
  const kept = KEPT.get(top);
  // The same card again: the server's echo of a row the browser handed it, or a rerun of the
  // page; a row still moving (a timer pending) stays the browser's until it settles, and a row
  // handed to the server stays until the server echoes it (a run begun before the hand-off may
  // still draw the page's earlier row: it is not a change the person made).
  if (kept && kept.id === data.id) {
    if (kept.timer !== null) return;
    if (sameRow(card, kept.chosen)) { kept.handed = false; return; }
    if (kept.handed) return;
  }
  if (kept && kept.timer !== null) clearTimeout(kept.timer);
  const state = { id: data.id, chosen: card.features.map((f) => (f.current === null ? MISSING : f.current)),
                  timer: null, handed: false };
  KEPT.set(top, state);
  const inputs = top.querySelector(".nb-inputs");
  const result = top.querySelector(".nb-posterior");
  inputs.replaceChildren();
  result.replaceChildren();
  const terms = top.querySelector(".nb-contributions");
  terms.replaceChildren();
  const picked = {};
  const update = () => {
    const probabilities = posterior(card, state.chosen);
    drawPosterior(result, card, probabilities);
    drawContributions(terms, card, state.chosen, probabilities, picked);
  };
  picked.changed = update;
  // The row goes to the server when it settles: the pointer released, or SETTLE_MS without a change.
  const settle = () => {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    const row = {};
    card.features.forEach((f, a) => {
      if (!f.fixed) row[f.column] = state.chosen[a] === MISSING ? null : state.chosen[a];
    });
    state.handed = true;
    setTriggerValue("settled", { card: data.id, row: row });
  };
  const soon = () => {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = setTimeout(settle, SETTLE_MS);
  };
  card.features.forEach((f, a) => {
    const box = field(inputs, f);
    const changed = (at) => { state.chosen[a] = at; update(); soon(); };
    if (f.fixed) fixedTerm(box, f, state.chosen[a]);
    else if (f.value_kind === "category") categoryInput(box, f, state.chosen[a], changed);
    else numberInput(box, f, state.chosen[a], changed);
  });
  inputs.addEventListener("pointerup", (event) => {
    if (state.timer !== null && event.target.type === "range") settle();
  });
  update();
}
"""

_EXPLORER = st.components.v2.component(COMPONENT_NAME, html=_HTML, css=_CSS, js=_JS, isolate_styles=True)


@dataclass(frozen=True)
class ExplorerCard:
    """A row's card for the explorer: ``data``, what the browser receives (the card as JSON
    values, each input starting at the row's value, and ``id``); ``values``, the card's own
    values per column a person chooses, which a rested row is read off (a category that JSON
    cannot carry reaches the browser as its text, and comes back as itself). The id names the
    card's values and numbers but not the row's positions: the card the server makes for a row
    the browser handed it has the browser's id, and the browser keeps its inputs as they are."""

    id: str
    data: dict[str, Any]
    values: Mapping[str, tuple[Any, ...]]


def explorer_card(model: Any, row: Mapping[str, Any]) -> ExplorerCard:
    card = model.score_card(pd.DataFrame({c: pd.Series([row.get(c)], dtype=object) for c in model.features_}))
    data = card.to_data(row=0)
    content = {**data, "features": [{k: v for k, v in f.items() if k != "current"} for f in data["features"]]}
    card_id = hashlib.sha256(json.dumps(content, sort_keys=True, allow_nan=False).encode()).hexdigest()[:20]
    values = {f.column: tuple(python_scalar(v) for v in f.values) for f in card.features if not f.fixed}
    return ExplorerCard(card_id, {"id": card_id, "card": data}, values)


def settled_row(card: ExplorerCard, payload: Any) -> dict[str, Any] | None:
    """The row the browser handed back (``payload``: {"card": id, "row": {column: position or
    None}}) as {column: value, or None for missing}, read off ``card``; None when the payload
    is not a row of that card (another card's, or not a row at all: anything a browser sends
    is checked, and only the card's own values come back)."""
    if not isinstance(payload, Mapping) or payload.get("card") != card.id:
        return None
    if not isinstance(payload.get("row"), Mapping):
        return None
    out: dict[str, Any] = {}
    for column, at in payload["row"].items():
        values = card.values.get(column)
        if values is None or not (at is None or (isinstance(at, int) and not isinstance(at, bool)
                                                 and 0 <= at < len(values))):
            return None
        out[column] = None if at is None else values[at]
    return out


@st.cache_resource(show_spinner=False, max_entries=64)
def _cached_card(key: tuple, row_key: str, _model: Any, _row: Mapping[str, Any]) -> ExplorerCard:
    """The card of one model (``key``: ``ui.model_key()``) and row, shared by every rerun and
    session (never changed after it is made)."""
    return explorer_card(_model, _row)


_KEY = "explain.explorer"
EXPANDER = "What if: move a value and watch the posterior, computed in your browser"
SECTION = "explain.explorer_section"  # the expander: open (True) or closed
_CARDS = "explain.explorer_cards"     # the cards this session's browser may hand a row back on
_KEPT_CARDS = 4


def _settled() -> None:
    """The browser's settled row becomes the page's row (the tables, fractions and board follow)."""
    payload = (st.session_state.get(_KEY) or {}).get("settled")
    for card in reversed(st.session_state.get(_CARDS, [])):
        row = settled_row(card, payload)
        if row is not None:
            for column, value in row.items():
                ui.set_query(column, value, missing=value is None)
            return


def row_key(row: Mapping[str, Any]) -> str:
    """A row as a cache key: each value's repr (NaN, 1 and "1" stay apart), by column."""
    return json.dumps({repr(c): repr(v) for c, v in row.items()}, sort_keys=True)


def explorer_ui(model: Any, row: Mapping[str, Any], key: tuple) -> None:
    """The explorer: an input per feature and each class's posterior, recomputed in the browser;
    a settled row comes back to the page (:func:`_settled`). Closed until asked for (open, its
    inputs carry the features' names beside the page's own), and drawn only once opened: closed,
    a click of the page sends no card and redraws no component (issue 32, item 3)."""
    section = st.expander(EXPANDER, key=SECTION, on_change="rerun")
    if not section.open:
        return
    with section:
        try:
            card = _cached_card(key, row_key(row), model, row)
        except DataError as err:          # the row's own refusal: explain says it above
            ui.show_error(err)
            return
        cards = [c for c in st.session_state.get(_CARDS, []) if c.id != card.id]
        st.session_state[_CARDS] = [*cards, card][-_KEPT_CARDS:]
        _EXPLORER(key=_KEY, data=card.data, on_settled_change=_settled)
        st.caption("The browser adds the model's score card: log P(c) and each chosen value's log P(x_a | c), "
                   "then normalises; when the values rest, the row below takes them.")
