"""An analyst's journey in Chromium (issue 13): a 19-class upload explained class by class, a
reload that brings the work back, and a model file opened alone that predicts a new file.

The screenshots of the README's walk-through (docs/screenshots/analyst_*.png) are taken here.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

import nbapp
from nbapp.examples import example, load_example

from .test_journey import choose

pytestmark = pytest.mark.e2e


def nineteen_classes() -> bytes:
    """19 kinds of day; the most frequent, "sunny", sorts last of all."""
    rng = np.random.default_rng(13)
    kinds = [f"kind {chr(ord('a') + i)}" for i in range(18)] + ["sunny"]
    rows = []
    for i, kind in enumerate(kinds):
        for _ in range(30 if kind == "sunny" else 8):
            rows.append({"station": f"S{int(rng.integers(1, 900)):03d}", "temp": round(float(rng.normal(i, 1.5)), 2),
                         "wind": round(float(rng.normal(3 * (i % 5), 2.0)), 2), "sky": f"sky{i % 6}",
                         "weather": kind})
    return pd.DataFrame(rows).sample(frac=1.0, random_state=1).to_csv(index=False).encode()


def sidebar(app):
    return app.page.get_by_test_id("stSidebar")


def test_a_19_class_upload_is_explained_class_by_class_and_survives_a_reload(app, tmp_path):
    csv = tmp_path / "days.csv"
    csv.write_bytes(nineteen_classes())
    app.goto()
    app.upload(csv, "174 rows × 5 columns")
    page = app.page
    # the station code is one more feature an analyst would not use: leave it out
    choose(page, "Type of station", "ignore")
    app.wait()
    expect(page.get_by_text(re.compile(r"Model fitted: 19 classes, 3 features"))).to_be_visible()
    app.screenshot("analyst_1_data", publish=True)

    app.open_page("Model")
    app.screenshot("analyst_2_model", publish=True)

    app.open_page("Explain")
    expect(page.get_by_text("All 19 classes, the predicted one first, then by posterior:")).to_be_visible()
    prediction = app.metric("Prediction (argmax)")
    assert prediction in ["sunny"] + [f"kind {chr(ord('a') + i)}" for i in range(18)]
    first = page.get_by_test_id("stMetric").nth(1).get_by_test_id("stMetricLabel").inner_text()
    assert first.strip() == f"P({prediction} | x)", "the predicted class comes first"
    expect(page.get_by_role("heading", name="Which feature pushed where")).to_be_visible()
    app.screenshot("analyst_3_explain", publish=True)

    app.open_page("Evaluate")
    expect(page.get_by_test_id("stMetricValue").first).to_be_visible()
    app.screenshot("analyst_4_evaluate", publish=True)

    # a reload: the upload, its target and the type chosen above come back from the address
    assert "data=" in page.url and "work=" in page.url
    page.reload()
    app.wait(initial_wait=1000)
    expect(sidebar(app).get_by_text(re.compile(r"days\.csv \(upload\)"))).to_be_visible()
    app.open_page("Data")
    expect(page.get_by_text(re.compile(r"Model fitted: 19 classes, 3 features"))).to_be_visible()


def test_a_model_file_alone_predicts_a_new_file_and_survives_a_reload(app, tmp_path):
    ex = example("tennis14")
    model = nbapp.NaiveBayes(features=ex.features, alpha=2.0).fit(load_example("tennis14"), target=ex.target)
    model_file = tmp_path / "tennis_l2.json"
    model_file.write_text(model.to_json())
    new_days = tmp_path / "new_days.csv"
    new_days.write_text("Outlook,Temperature,Humidity,Wind\nSunny,Hot,High,Weak\nOvercast,Cool,Normal,Strong\n"
                        "Rain,Mild,High,Strong\n")
    app.goto()
    page = app.page
    choose(page, "Example", example("gender").title)   # data without the model's columns
    app.wait()
    app.open_page("Model")
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Load a model file")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(model_file))
    app.wait(initial_wait=1500)
    expect(page.get_by_text(re.compile(r"tennis_l2\.json is open without data"))).to_be_visible()
    expect(sidebar(app).get_by_text("Lidstone l = 2")).to_be_visible()

    app.open_page("Explain")
    assert app.metric("Prediction (argmax)") in ("Yes", "No")

    app.open_page("Evaluate")
    batch = page.get_by_test_id("stFileUploader").filter(has_text="File to predict")
    batch.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(new_days))
    app.wait(initial_wait=1000)
    expect(page.get_by_text("Predicted 3 rows.")).to_be_visible()
    app.screenshot("analyst_5_predict", publish=True)

    page.reload()
    app.wait(initial_wait=1000)
    expect(sidebar(app).get_by_text(re.compile(r"the model file tennis_l2\.json is open alone"))).to_be_visible()
    expect(sidebar(app).get_by_text("Lidstone l = 2")).to_be_visible()
