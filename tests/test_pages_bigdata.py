"""AppTest: big data in the app (issue 11.4-11.5) — an upload read and fitted under a progress
status, and a local path fitted out of core on every row while the pages show a sample."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import nbapp
from apptest_helpers import open_page, start, texts, unescape, upload
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from ui.sources import Example

TIMEOUT = 120     # seconds a run may take: twice the other AppTest files' (the files here are bigger)


def _csv(path: Path, rows: int) -> Path:
    rng = np.random.default_rng(0)
    y = rng.choice(["stay", "leave"], rows)
    pd.DataFrame({"city": rng.choice(["Paris", "Rome", "Oslo"], rows),
                  "income": np.round(rng.normal(50, 10, rows) + 5 * (y == "stay"), 2),
                  "churn": y}).to_csv(path, index=False)
    return path


@pytest.fixture()
def data_root(tmp_path, monkeypatch) -> Path:
    """The server's data folder (NBAPP_DATA_ROOT) is tmp_path: "Open a local path" is on, under it."""
    monkeypatch.setenv("NBAPP_DATA_ROOT", str(tmp_path))
    return tmp_path


def open_path(at: AppTest, path: Path | str) -> AppTest:
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
    counted = _count_passes(monkeypatch)
    at.selectbox(key="_data_target").set_value("churn").run()     # a click that changes nothing
    at.run()
    assert not at.exception
    assert not at.status                                 # the upload is read once, not on every rerun
    assert counted == []                                 # cached: a click re-reads and refits nothing


def _count_passes(monkeypatch) -> list[int]:
    """Every pass over rows the app makes from now on: NaiveBayes.fit, .summarize, and
    nbapp.scale.fit_file (the local path's engine fit), one entry each."""
    import nbapp.scale

    counted: list[int] = []
    for owner, name in ((nbapp.NaiveBayes, "fit"), (nbapp.NaiveBayes, "summarize"), (nbapp.scale, "fit_file")):
        original = getattr(owner, name)
        monkeypatch.setattr(owner, name, lambda *a, _f=original, **k: counted.append(1) or _f(*a, **k))
    return counted


def test_a_smoothing_click_on_an_upload_reads_no_row_again(tmp_path, monkeypatch):
    """Smoothing and priors are applied to the statistics: changing l refits from the counted
    statistics (issue 25: a click on l with a million rows must not count them again)."""
    at = upload(start(timeout=TIMEOUT), "people.csv", _csv(tmp_path / "people.csv", 400).read_bytes())
    open_page(at, "Model")
    counted = _count_passes(monkeypatch)
    at.number_input(key="_model_alpha").set_value(0.25).run()
    assert not at.exception, [e.value for e in at.exception]
    assert counted == []
    model = at.session_state["model"]
    assert model.alpha == 0.25
    data = pd.read_csv(tmp_path / "people.csv")
    expected = nbapp.NaiveBayes(dict(model.features_), alpha=0.25).fit(data, "churn")
    pd.testing.assert_frame_equal(model.predict_proba(data), expected.predict_proba(data), rtol=0, atol=1e-12)


def test_a_smoothing_click_on_a_local_path_reads_the_file_once(tmp_path, data_root, monkeypatch):
    path = _csv(tmp_path / "big.csv", 3_000)
    at = open_path(start(timeout=TIMEOUT), path)
    open_page(at, "Model", check_title=False)
    counted = _count_passes(monkeypatch)
    at.number_input(key="_model_alpha").set_value(2.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert counted == []                                 # the file's statistics are kept, not counted again
    model = at.session_state["model"]
    expected = nbapp.NaiveBayes(dict(model.features_), alpha=2.0).fit(pd.read_csv(path), "churn")
    pd.testing.assert_frame_equal(model.cpt("city"), expected.cpt("city"), rtol=0, atol=1e-15)
    assert any("fitted on all 3,000 rows" in s for s in texts(at, "info"))


def test_a_local_path_is_fitted_on_every_row_and_the_pages_say_so(tmp_path, data_root):
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


def test_switching_from_a_path_to_uploads_does_not_claim_an_upload(tmp_path, data_root):
    at = open_path(start(timeout=TIMEOUT), _csv(tmp_path / "d.csv", 300))
    at.radio(key="_data_mode").set_value("Upload a file").run()
    assert not at.exception
    assert not any("Loaded" in s for s in texts(at, "success"))
    assert any("local path" in s and "is in use" in s for s in texts(at, "info"))
    at.radio(key="_data_mode").set_value("Built-in example").run()
    assert isinstance(at.session_state["work"].source, Example)


def test_a_path_that_is_not_a_table_is_refused_in_place(tmp_path, data_root):
    secret = tmp_path / "notes.md"
    secret.write_text("not a table")
    at = open_path(start(timeout=TIMEOUT), secret)
    assert any("not named like a CSV" in s for s in texts(at, "error"))
    at = open_path(start(timeout=TIMEOUT), tmp_path / "missing.csv")
    assert any("There is no file or folder" in s for s in texts(at, "error"))


# -- issue 21: the mode is the server's choice, and confined to its data folder --------------------------------
def test_without_a_data_root_the_data_page_does_not_offer_local_paths(monkeypatch):
    monkeypatch.delenv("NBAPP_DATA_ROOT", raising=False)
    at = start(timeout=TIMEOUT)
    assert "Open a local path" not in at.radio(key="_data_mode").options
    assert any("NBAPP_DATA_ROOT" in c.value for c in at.caption)
    monkeypatch.setenv("NBAPP_DATA_ROOT", "/no/such/folder")        # a root that is not a folder: off too
    assert "Open a local path" not in start(timeout=TIMEOUT).radio(key="_data_mode").options


def test_with_a_data_root_local_paths_are_offered_and_confined_to_it(tmp_path, monkeypatch):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    monkeypatch.setenv("NBAPP_DATA_ROOT", str(inside))
    _csv(inside / "ok.csv", 100)
    _csv(outside / "secret.csv", 100)
    (outside / "passwd").write_text("root,x\nuser,y\n")
    (inside / "link.csv").symlink_to(outside / "secret.csv")
    at = start(timeout=TIMEOUT)
    assert "Open a local path" in at.radio(key="_data_mode").options
    refusals = set()
    for typed in (outside / "secret.csv", outside / "passwd", outside / "none.csv", str(outside / "passw[d]"),
                  inside / "link.csv", "../outside/secret.csv"):
        at = open_path(start(timeout=TIMEOUT), typed)
        assert isinstance(at.session_state["work"].source, Example)
        refusals |= {s.replace("\\", "").replace(str(typed), "PATH") for s in texts(at, "error")}
    assert len(refusals) == 1 and "under this server's data folder" in refusals.pop()
    at = open_path(start(timeout=TIMEOUT), "ok.csv")          # relative to the data folder
    assert at.session_state["work"].source.files == (os.path.realpath(inside / "ok.csv"),)


def test_the_files_opened_are_the_files_fitted_and_cross_validated(tmp_path, data_root):
    parts = tmp_path / "parts"
    parts.mkdir()
    _csv(parts / "p1.csv", 300)
    at = open_path(start(timeout=TIMEOUT), " parts/*.csv ")
    assert at.session_state["work"].source.files == (os.path.realpath(parts / "p1.csv"),)
    _csv(parts / "p2.csv", 500)                          # matches the glob only after it was opened
    at.selectbox(key="_data_target").set_value("city").run()   # a refit, on the files opened
    at.selectbox(key="_data_target").set_value("churn").run()
    assert any("Model fitted on all 300 rows" in s for s in texts(at, "success")), texts(at, "success")
    open_page(at, "Evaluate", check_title=False)
    assert [m.value for m in at.metric if m.label == "Test cases"] == ["300"]
