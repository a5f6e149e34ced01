"""End to end in Chromium: Explain's log-odds waterfall is an SVG the page draws from the row's
contributions (ui/waterfall.py, issue 32, item 3): one step per factor, equal to explain's
contributions, ending in the model's log-odds, named for a screen reader by its words, and
redrawn when the row changes."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import expect

import nbapp
from nbapp.examples import example, load_example

pytestmark = pytest.mark.e2e

TOLERANCE = 1e-12


def _steps(page) -> list[tuple[str, float, bool]]:
    """Each drawn step: its label, its value as the page holds it, whether it is the total."""
    steps = page.locator("g[data-nb-step]")
    return [(s.get_attribute("data-nb-step"), float(s.get_attribute("data-nb-step-value")),
             s.get_attribute("data-nb-step-total") == "true") for s in steps.all()]


def _expected(model: nbapp.NaiveBayes, row: dict) -> list[tuple[str, float, bool]]:
    e = model.explain(row)
    a = e.prediction
    b = max((c for c in e.classes if c != a), key=lambda c: e.joint_log[c])        # the runner-up
    contrib = e.contributions(a, b)
    finite = contrib[np.isfinite(contrib.to_numpy(dtype=float))]
    total = [("log-odds", float(contrib.attrs["log_odds"]), True)] if len(finite) == len(contrib) else []
    return [(str(k), float(v), False) for k, v in finite.items()] + total


def _same(got, expected) -> None:
    assert [(label, total) for label, _, total in got] == [(label, total) for label, _, total in expected]
    np.testing.assert_allclose([v for _, v, _ in got], [v for _, v, _ in expected], rtol=0, atol=TOLERANCE)


def test_the_waterfall_draws_explain_s_contributions_and_follows_the_row(app):
    tennis = example("tennis14")
    model = nbapp.NaiveBayes(tennis.features, alpha=tennis.alpha).fit(load_example("tennis14"), target="Play")
    app.goto()
    app.open_page("Explain")
    page = app.page
    svg = page.locator("figure.nb-waterfall svg")
    expect(svg).to_have_attribute("role", "img")
    words = svg.get_attribute("aria-label")
    assert words.startswith("Contributions to log P(") and "Steps: prior " in words
    expect(page.get_by_text(words, exact=False).first).to_be_attached()          # the caption says the same
    row = dict(tennis.query)
    expect(page.locator("g[data-nb-step]")).to_have_count(len(_expected(model, row)))
    _same(_steps(page), _expected(model, row))

    outlook = page.get_by_test_id("stSelectbox").filter(has=page.get_by_text("Outlook", exact=True)).first
    outlook.get_by_role("combobox").click()
    page.get_by_role("listbox").get_by_role("option", name="Rain", exact=True).click()
    row["Outlook"] = "Rain"
    expected = _expected(model, row)
    expect(page.locator("g[data-nb-step='log-odds']")).to_have_attribute("data-nb-step-value", str(expected[-1][1]))
    _same(_steps(page), expected)
