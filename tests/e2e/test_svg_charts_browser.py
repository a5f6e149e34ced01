"""End to end in Chromium: the charts a click redraws are SVG images that come with the page
(ui/svg_charts.py, issue 32, item 3), read back from each <img>'s data URL. Explain's log-odds
waterfall: one step per factor, equal to explain's contributions, ending in the model's
log-odds, named for a screen reader by its words, and redrawn when the row changes. Model's
Poisson fit: the fitted P(x | c) at every count equal to the Poisson pmf of the model's rates,
before and after a step of l."""

from __future__ import annotations

import re

import numpy as np
import pytest
from playwright.sync_api import expect
from scipy.stats import poisson

import drawn_svg
import nbapp
from nbapp.examples import example, load_example

from e2e.test_journey import choose

pytestmark = pytest.mark.e2e

TOLERANCE = 1e-12


def _chart(page, name: re.Pattern[str]):
    """The chart image whose accessible name (its alt, the chart's words) matches ``name``."""
    image = page.get_by_role("img", name=name)
    expect(image).to_have_count(1)
    return image


def _svg(image):
    """The SVG document the <img> shows, once it has loaded."""
    expect(image).to_have_js_property("complete", True)
    return drawn_svg.parse(image.get_attribute("src"))


def _steps(image) -> list[tuple[str, float, bool]]:
    """Each drawn step: its label, its value as the page holds it, whether it is the total."""
    return [(s["label"], s["value"], s["total"]) for s in drawn_svg.steps(_svg(image))]


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
    image = _chart(page, re.compile(r"^Contributions to log P\("))
    words = image.get_attribute("alt")
    assert "Steps: prior " in words and drawn_svg.words(_svg(image)) == words
    expect(page.get_by_text(words, exact=False).first).to_be_attached()          # the caption says the same
    row = dict(tennis.query)
    _same(_steps(image), _expected(model, row))

    outlook = page.get_by_test_id("stSelectbox").filter(has=page.get_by_text("Outlook", exact=True)).first
    outlook.get_by_role("combobox").click()
    page.get_by_role("listbox").get_by_role("option", name="Rain", exact=True).click()
    row["Outlook"] = "Rain"
    expected = _expected(model, row)
    expect(image).to_have_attribute("alt", re.compile(re.escape(f"total log-odds {expected[-1][1]:+.3f}")))
    _same(_steps(image), expected)


# high: 5 rows, low: 3 rows; visits a count (the rates by hand: (sum + l) / (n_c + l))
VISITS = (b"x,visits,plan,label\n4.0,5,a,high\n4.5,7,b,high\n5.0,6,b,high\n5.5,4,a,high\n6.0,3,b,high\n"
          b"1.0,0,a,low\n1.5,1,a,low\n2.0,1,b,low\n")


def _fitted(image, cls: str) -> dict[float, float]:
    """The fitted P(x | c) the chart draws for ``cls``: count -> probability."""
    line = next(t for t in drawn_svg.traces(_svg(image)) if t["kind"] == "line" and t["name"].startswith(f"{cls}:"))
    return dict(zip(line["x"], line["y"]))


def test_the_poisson_chart_draws_the_fitted_pmf_and_follows_l(app, tmp_path):
    csv = tmp_path / "visits.csv"
    csv.write_bytes(VISITS)
    app.goto()
    app.upload(csv, "8 rows")
    page = app.page
    if page.get_by_role("combobox", name="Type of visits").input_value() != "poisson":
        choose(page, "Type of visits", "poisson")
        app.wait()
    app.open_page("Model")
    image = _chart(page, re.compile("Poisson"))
    image.scroll_into_view_if_needed()
    app.screenshot("model_poisson_chart", viewport_only=True)
    for l, rates in ((1.0, {"high": 26 / 6, "low": 3 / 4}), (1.5, {"high": 26.5 / 6.5, "low": 3.5 / 4.5})):
        if l != 1.0:            # l's step is 0.5
            before = image.get_attribute("src")
            box = page.get_by_test_id("stNumberInput").filter(has=page.get_by_text(re.compile(r"^l \(pseudo-count")))
            box.get_by_test_id("stNumberInputStepUp").click()
            app.wait()
            expect(image).not_to_have_attribute("src", before)
        for cls, rate in rates.items():
            got = _fitted(image, cls)
            assert 0.0 in got, f"no fitted point at 0 for {cls}: {got}"
            np.testing.assert_allclose(list(got.values()), poisson.pmf(list(got), rate), rtol=0, atol=1e-12)
