"""The command line, run as analysts run it: python -m nbapp in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbapp

ROOT = Path(__file__).resolve().parents[1]
TENNIS = ROOT / "sample_data" / "tennis14.csv"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH")] if p)}
    return subprocess.run([sys.executable, "-m", "nbapp", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


@pytest.fixture
def tennis_model(tmp_path) -> Path:
    done = _run("fit", str(TENNIS), "--target", "Play", "--types",
                "Outlook=categorical,Temperature=categorical,Humidity=categorical,Wind=categorical",
                "--alpha", "1", "--out", "model.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path / "model.json"


def test_cli_fit_writes_the_model_fit_would_make(tennis_model):
    model = nbapp.NaiveBayes.from_json(tennis_model.read_text())
    frame = nbapp.load_table(TENNIS.read_bytes(), TENNIS.name).frame
    expected = nbapp.NaiveBayes({c: "categorical" for c in ["Outlook", "Temperature", "Humidity", "Wind"]},
                                alpha=1).fit(frame, "Play")
    np.testing.assert_allclose(model.predict_proba(frame).to_numpy(), expected.predict_proba(frame).to_numpy(),
                               atol=1e-12)


def test_cli_predict_writes_a_probability_per_class(tennis_model, tmp_path):
    done = _run("predict", str(tennis_model), str(TENNIS), "--out", "p.csv", "--keep", "Day", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = pd.read_csv(tmp_path / "p.csv", encoding="utf-8-sig")
    assert list(written.columns) == ["file", "row", "Day", "predicted", "P(No)", "P(Yes)"]
    assert len(written) == 14 and np.allclose(written["P(No)"] + written["P(Yes)"], 1)


def test_cli_explain_prints_the_factor_table(tennis_model, tmp_path):
    row = {"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High", "Wind": "Strong"}
    done = _run("explain", str(tennis_model), "--row", json.dumps(row), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "prior" in done.stdout and "Outlook" in done.stdout and "prediction: No" in done.stdout


def test_cli_proposes_types_when_none_are_given(tmp_path):
    done = _run("fit", str(TENNIS), "--target", "Play", "--out", "m.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Types proposed" in done.stderr and "Outlook=categorical" in done.stderr
    assert "Outlook" in nbapp.NaiveBayes.from_json((tmp_path / "m.json").read_text()).features_


@pytest.mark.parametrize("args, message", [
    (["fit", "missing.csv", "--target", "y", "--types", "a=gaussian", "--out", "m.json"], "no file or folder"),
    (["fit", str(TENNIS), "--target", "Play", "--types", "Outlook", "--out", "m.json"], "column=type pairs"),
    (["fit", str(TENNIS), "--target", "Play", "--types", "Nope=categorical", "--out", "m.json"],
     "Column 'Nope' is not in"),
    (["explain", "missing.json", "--row", "{}"], "Cannot read the model file"),
    (["fit", str(TENNIS), "--target", "Play", "--weight", "Nope", "--out", "m.json"],
     "The weight column 'Nope' is not in"),
    (["fit", str(TENNIS), "--target", "Play", "--out", "no_folder/m.json"], "the folder 'no_folder' does not exist"),
    (["fit", str(TENNIS), "--target", "Play", "--out", "."], "is a folder"),
])
def test_cli_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    done = _run(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_cli_explain_refuses_a_row_that_is_not_json(tennis_model, tmp_path):
    done = _run("explain", str(tennis_model), "--row", "{Outlook: Sunny}", cwd=tmp_path)
    assert done.returncode == 2 and "--row is not valid JSON" in done.stderr


def test_cli_explain_names_the_row_columns_the_model_does_not_use(tennis_model, tmp_path):
    row = {"Outlook": "Sunny", "Outlok": "Rain", "Play": "No"}     # a misspelt column; the target is fine
    done = _run("explain", str(tennis_model), "--row", json.dumps(row), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "'Outlok' not among the model's features" in done.stderr and "'Play'" not in done.stderr


def test_cli_predict_refuses_an_output_folder_that_does_not_exist_before_reading(tennis_model, tmp_path):
    done = _run("predict", str(tennis_model), str(TENNIS), "--out", "no_folder/p.csv", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "the folder 'no_folder' does not exist" in done.stderr


# -- an output is never an input (issue 21, "the command line destroys its input") ----------------
def _refused_once(done: subprocess.CompletedProcess, message: str) -> None:
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_cli_predict_refuses_to_write_over_its_input(tennis_model, tmp_path):
    data = tmp_path / "t.csv"
    data.write_bytes(TENNIS.read_bytes())
    done = _run("predict", str(tennis_model), "t.csv", "--out", "t.csv", cwd=tmp_path)
    _refused_once(done, "is the input file 't.csv'")
    assert data.read_bytes() == TENNIS.read_bytes()


def test_cli_predict_refuses_to_write_over_its_model(tennis_model, tmp_path):
    before = tennis_model.read_bytes()
    done = _run("predict", str(tennis_model), str(TENNIS), "--out", "./model.json", cwd=tmp_path)
    _refused_once(done, "is the input file")
    assert tennis_model.read_bytes() == before


def test_cli_fit_refuses_to_write_the_model_over_its_training_data(tmp_path):
    data = tmp_path / "t.csv"
    data.write_bytes(TENNIS.read_bytes())
    done = _run("fit", "t.csv", "--target", "Play", "--out", "t.csv", cwd=tmp_path)
    _refused_once(done, "is the input file 't.csv'")
    assert data.read_bytes() == TENNIS.read_bytes()


def test_cli_predict_refuses_an_output_inside_the_input_folder(tennis_model, tmp_path):
    exports = tmp_path / "exports"
    exports.mkdir()
    (exports / "a.csv").write_bytes(TENNIS.read_bytes())
    for out in ("exports/preds.csv", str(exports / "sub" / ".." / "preds.csv")):
        done = _run("predict", str(tennis_model), "exports/", "--out", out, cwd=tmp_path)
        _refused_once(done, "is inside the input folder 'exports/'")
    assert [p.name for p in exports.iterdir()] == ["a.csv"]
    done = _run("predict", str(tennis_model), "exports/", "--out", "preds.csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr       # later runs on the folder still work
    assert len(pd.read_csv(tmp_path / "preds.csv", encoding="utf-8-sig")) == 14


def test_cli_refuses_an_output_its_input_glob_matches(tennis_model, tmp_path):
    (tmp_path / "a.csv").write_bytes(TENNIS.read_bytes())
    done = _run("predict", str(tennis_model), "*.csv", "--out", "preds.csv", cwd=tmp_path)
    _refused_once(done, "matches the input pattern '*.csv'")
    done = _run("fit", str(tmp_path / "[a].csv"), "--target", "Play", "--out", "a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr       # a pattern the output does not match is fine
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "a.json", "model.json"]


@pytest.mark.parametrize("out", ["model.csv", "model", "model.json.bak"])
def test_cli_fit_refuses_a_model_file_not_named_json(tmp_path, out):
    done = _run("fit", str(TENNIS), "--target", "Play", "--out", out, cwd=tmp_path)
    _refused_once(done, f"Write the model file to a .json file, not '{out}'")
    assert list(tmp_path.iterdir()) == []


def test_cli_a_failing_prediction_leaves_no_file_behind(tmp_path):
    train = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": ["a", "a", "b", "b"]})
    train.to_csv(tmp_path / "train.csv", index=False)
    assert _run("fit", "train.csv", "--target", "y", "--types", "x=gaussian", "--out", "m.json",
                cwd=tmp_path).returncode == 0
    (tmp_path / "bad.csv").write_text("x\n1.5\n2.5\nnot a number\n")
    done = _run("predict", "m.json", "bad.csv", "--out", "p.csv", cwd=tmp_path)
    _refused_once(done, "holds a cell that is not a number")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv", "m.json", "train.csv"]


def test_cli_writes_over_an_earlier_output_whole(tennis_model, tmp_path):
    (tmp_path / "p.csv").write_text("an earlier run\n")
    done = _run("predict", str(tennis_model), str(TENNIS), "--out", "p.csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(pd.read_csv(tmp_path / "p.csv", encoding="utf-8-sig")) == 14
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json", "p.csv"]


# The command as run, with its output held open for a minute once it has written a little: a
# real predict of a large file takes that long, and the signal must find it half-written.
SLOW_OUTPUT = """
import sys, time
from contextlib import contextmanager
from nbapp import cli
from nbapp.io import _export

real = _export.atomic_output

@contextmanager
def slowly(path):
    with real(path) as temporary:
        temporary.write_text("half a model")
        print("writing", flush=True)
        time.sleep(60)
        yield temporary

_export.atomic_output = slowly
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_cli_stopped_by_a_signal_removes_its_temporary_output(tmp_path, signal_name):
    """Issue 31, item 13: before, SIGTERM ended the command where it stood and its hidden .tmp
    stayed beside --out (83-90 MB for a large predict)."""
    import signal

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH")] if p)}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_OUTPUT, "fit", str(TENNIS), "--target", "Play", "--types",
                             "Outlook=categorical", "--out", "model.json"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "writing"
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")], "the output is being written"
        proc.send_signal(getattr(signal, signal_name))
        assert proc.wait(30) == 128 + getattr(signal, signal_name)
    finally:
        proc.kill()
        proc.communicate()
    assert list(tmp_path.iterdir()) == []
