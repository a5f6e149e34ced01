"""AppTest: big data in the app (issue 11.4-11.5) — an upload read and fitted under a progress
status, and a local path fitted out of core on every row while the pages show a sample."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

import nbapp
from apptest_helpers import open_page, start, texts, unescape, upload
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)

TIMEOUT = 120     # seconds a run may take: twice the other AppTest files' (the files here are bigger)


def _csv(path: Path, rows: int) -> Path:
    rng = np.random.default_rng(0)
    y = rng.choice(["stay", "leave"], rows)
    pd.DataFrame({"city": rng.choice(["Paris", "Rome", "Oslo"], rows),
                  "income": np.round(rng.normal(50, 10, rows) + 5 * (y == "stay"), 2),
                  "churn": y}).to_csv(path, index=False)
    return path


def open_path(at: AppTest, path: Path) -> AppTest:
    at.radio(key="_data_mode").set_value("Open a local path").run()
    at.text_input(key="_data_path").set_value(str(path)).run()
    at.button(key="data.open_path").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_upload_is_read_and_fitted_under_a_status_and_a_rerun_refits_nothing(tmp_path, monkeypatch):
    data = _csv(tmp_path / "people.csv", 400).read_bytes()
    at = upload(start(timeout=TIMEOUT), "people.csv", data)
    labels = [unescape(s.label) for s in at.status]
    assert "Read people.csv (400 rows) and fitted the model" in labels
    assert any("Model fitted: 2 classes" in s for s in texts(at, "success"))
    fits = []
    fit = nbapp.NaiveBayes.fit
    monkeypatch.setattr(nbapp.NaiveBayes, "fit", lambda self, *a, **k: fits.append(1) or fit(self, *a, **k))
    at.selectbox(key="_data_target").set_value("churn").run()     # a click that changes nothing
    at.run()
    assert not at.exception
    assert not at.status                                 # the upload is read once, not on every rerun
    assert fits == []                                   # cached: a click re-reads and refits nothing


def test_a_local_path_is_fitted_on_every_row_and_the_pages_say_so(tmp_path):
    path = _csv(tmp_path / "big.csv", 30_000)        # more rows than the sample of 20,000
    at = open_path(start(timeout=TIMEOUT), path)
    assert len(at.session_state["frame"]) == 20_000
    successes = texts(at, "success")
    assert any("Model fitted on all 30,000 rows: 2 classes" in s for s in successes), successes
    model = at.session_state["model"]
    expected = nbapp.NaiveBayes({"city": "categorical", "income": "gaussian"}).fit(
        nbapp.load_table(path.read_bytes(), path.name).frame, "churn")
    np.testing.assert_array_equal(model.class_counts_, expected.class_counts_)
    for name in ("Model", "Explain"):
        open_page(at, name, check_title=False)
        assert any("fitted on all 30,000 rows" in s and "sample of 20,000 rows" in s for s in texts(at, "info"))
    open_page(at, "Evaluate", check_title=False)
    assert [m.value for m in at.metric if m.label == "Test cases"] == ["30,000"]


def test_switching_from_a_path_to_uploads_does_not_claim_an_upload(tmp_path):
    at = open_path(start(timeout=TIMEOUT), _csv(tmp_path / "d.csv", 300))
    at.radio(key="_data_mode").set_value("Upload a file").run()
    assert not at.exception
    assert not any("Loaded" in s for s in texts(at, "success"))
    assert any("local path" in s and "is in use" in s for s in texts(at, "info"))
    at.radio(key="_data_mode").set_value("Built-in example").run()
    assert at.session_state["work"].source.reader == "example"


def test_a_path_that_is_not_a_table_is_refused_in_place(tmp_path):
    secret = tmp_path / "notes.md"
    secret.write_text("not a table")
    at = open_path(start(timeout=TIMEOUT), secret)
    assert any("not named like a CSV" in s for s in texts(at, "error"))
    at = open_path(start(timeout=TIMEOUT), tmp_path / "missing.csv")
    assert any("There is no file or folder" in s for s in texts(at, "error"))


def test_a_data_root_keeps_paths_inside_it(tmp_path, monkeypatch):
    inside = tmp_path / "inside"
    inside.mkdir()
    monkeypatch.setenv("NBAPP_DATA_ROOT", str(inside))
    at = open_path(start(timeout=TIMEOUT), _csv(tmp_path / "outside.csv", 100))
    assert any("outside the data folder" in s for s in texts(at, "error"))
