"""End to end in Chromium: the default tennis example, and an upload through the uploader."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

WEATHER = (b"outlook,temp,humidity,windy,play\nsunny,85,85,false,no\nsunny,80,90,true,no\n"
           b"overcast,83,86,false,yes\nrainy,70,96,false,yes\nrainy,68,80,false,yes\n"
           b"rainy,65,70,true,no\novercast,64,65,true,yes\nsunny,72,95,false,no\n")


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label`` (its list opens after a short animation)."""
    box = page.get_by_test_id("stSelectbox").filter(has=page.get_by_role("combobox", name=label))
    box.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # a scroll closes an open list, so let it settle first
    box.click()
    dropdown = page.get_by_test_id("stSelectboxVirtualDropdown")
    expect(dropdown).to_be_visible()
    page.wait_for_timeout(300)
    dropdown.get_by_role("option", name=option, exact=True).click()


def test_the_default_tennis_example_walks_through_every_page(app):
    app.goto()
    page = app.page
    expect(page.get_by_role("heading", name="Data", level=1)).to_be_visible()
    expect(page.get_by_text("Model fitted: 2 classes, 4 features.", exact=False)).to_be_visible()
    app.screenshot("data", publish=True)

    app.open_page("Model")
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
    app.screenshot("model", publish=True)

    app.open_page("Explain")
    assert app.metric("Prediction (argmax)") == "Yes"
    assert app.metric("P(Yes | x)") == "1"
    expect(page.get_by_role("img", name=re.compile(r"^Contributions to log P\("))).to_be_visible()   # the waterfall
    app.screenshot("explain", publish=True)

    app.open_page("Evaluate")
    expect(page.get_by_test_id("stMetricValue").first).to_be_visible()
    assert 0 <= float(app.metric("Accuracy")) <= 1
    app.screenshot("evaluate", publish=True)


def test_upload_set_a_type_and_read_the_posterior(app, tmp_path):
    csv = tmp_path / "weather.csv"
    csv.write_bytes(WEATHER)
    app.goto()
    app.upload(csv, "8 rows × 5 columns")
    page = app.page

    # the proposed type of "windy" (two values) becomes categorical
    choose(page, "Type of windy", "categorical")
    app.wait()
    expect(page.get_by_text(re.compile(r"Model fitted: 2 classes"))).to_be_visible()
    app.screenshot("upload_data")

    app.open_page("Explain")
    prediction = app.metric("Prediction (argmax)")
    assert prediction in ("yes", "no")
    posterior = float(app.metric(f"P({prediction} | x)"))
    assert 0.5 <= posterior <= 1
    app.screenshot("upload_explain")
