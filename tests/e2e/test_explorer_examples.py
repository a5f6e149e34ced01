"""The explorer on every built-in example, multiclass and text included (issue 32, item 2): in
Chromium, the probabilities the browser computes from the score card for the page's row and for
each move of each input (every category of a select, the ends and middle of a slider) equal
predict_proba of the same row to 1e-9, no script runs while the inputs move, and a move is
drawn within 50 ms at the median (the issue's bound; measured with performance.now())."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

import nbapp
from nbapp.examples import EXAMPLES, load_example

from e2e.explorer_page import RunRequests

pytestmark = pytest.mark.e2e

TOLERANCE = 1e-9
# Every input moved in turn from the page's row (each select through its categories, each slider
# to its first, middle and last number, then back), the classes' probabilities read after each
# move, with the row as the inputs then stand; all in one task of the page.
WALK = """() => {
  const root = [...document.querySelectorAll('*')].map((e) => e.shadowRoot)
    .find((r) => r && r.querySelector('.nb-explorer'));
  const classes = [...root.querySelectorAll('[data-nb-probability]')].map((e) => e.getAttribute('data-nb-class'));
  const read = () => [...root.querySelectorAll('[data-nb-probability]')]
    .map((e) => Number(e.getAttribute('data-nb-probability')));
  const row = () => Object.fromEntries([...root.querySelectorAll('select[data-nb-feature]')]
      .map((s) => [s.getAttribute('data-nb-feature'), s.selectedOptions[0].hasAttribute('data-nb-missing') ? null
                   : s.value])
    .concat([...root.querySelectorAll('input[type=range][data-nb-feature]')]
      .map((s) => [s.getAttribute('data-nb-feature'), s.getAttribute('data-nb-value') === '' ? null
                   : Number(s.getAttribute('data-nb-value'))])));
  const seen = [[row(), read()]], ms = [];
  const move = (input) => {           // input event to the drawn probabilities, in the page's own clock
    const start = performance.now();
    input.dispatchEvent(new Event('input', {bubbles: true}));
    const probabilities = read();
    ms.push(performance.now() - start);
    seen.push([row(), probabilities]);
  };
  for (const select of root.querySelectorAll('select[data-nb-feature]')) {
    const start = select.selectedIndex;
    for (let i = 0; i < select.options.length; i++) {
      select.selectedIndex = i;
      move(select);
    }
    select.selectedIndex = start;
    select.dispatchEvent(new Event('input', {bubbles: true}));
  }
  for (const slider of root.querySelectorAll('input[type=range][data-nb-feature]')) {
    const start = slider.value, last = Number(slider.max);
    for (const position of [0, Math.floor(last / 2), last]) {
      slider.value = String(position);
      move(slider);
    }
    slider.value = start;
    slider.dispatchEvent(new Event('input', {bubbles: true}));
  }
  return [classes, seen, ms];
}"""


def _model(key: str) -> tuple[nbapp.NaiveBayes, dict]:
    ex = next(e for e in EXAMPLES if e.key == key)
    model = nbapp.NaiveBayes(ex.feature_specs(), alpha=ex.alpha).fit(load_example(key), target=ex.target,
                                                                     weight=ex.weight)
    return model, ex.query


@pytest.mark.parametrize("key", [e.key for e in EXAMPLES])
def test_the_explorer_equals_predict_proba_on_every_row_it_moves_to(app, key: str):
    model, query = _model(key)
    page = app.page
    runs = RunRequests(page)
    page.goto(f"{app.url}/?example={key}")
    app.wait()
    app.open_page("Explain")
    page.get_by_text("What if: move a value", exact=False).click()
    expect(page.locator("[data-nb-probability]").first).to_be_attached()
    runs.reset()
    classes, seen, ms = page.evaluate(WALK)
    if ms:                            # the bound for a hand's move (measured: a few ms)
        assert np.median(ms) <= 50, f"{key}: input to drawn, ms per move: {ms}"
    assert classes == [str(c) for c in model.classes_]
    fixed = {c: v for c, v in query.items() if c not in seen[0][0]}      # a text column's document
    assert len(seen) > 1 or not seen[0][0]
    for row, got in seen:
        values = {**fixed, **{c: (np.nan if v is None else v) for c, v in row.items()}}
        frame = pd.DataFrame({c: pd.Series([v], dtype=object) for c, v in values.items()})
        for c in frame.columns:       # numbers as numbers, the rest as the card's text
            if pd.api.types.is_numeric_dtype(load_example(key)[c]):
                frame[c] = frame[c].astype(float)
        expected = model.predict_proba(frame).to_numpy()[0]
        np.testing.assert_allclose(got, expected, rtol=0, atol=TOLERANCE, err_msg=f"{key}: {row}")
    if len(seen) > 1:                 # the moves asked for no run; the row, at rest, for one
        runs.wait_for(1)
        app.wait()
        assert runs.count == 1, f"{key}: {runs.count} script runs for one walk of the inputs"
