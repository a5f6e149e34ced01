"""The nbapp command line: fit, predict, explain; bad input is one line and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
TENNIS = ROOT / "sample_data" / "tennis14.csv"


def nbapp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nbapp", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_fit_predict_and_explain_the_tennis_example(tmp_path):
    fit = nbapp("fit", str(TENNIS), "--target", "Play", "--types", "Day=ignore", "--out", "m.json", cwd=tmp_path)
    assert fit.returncode == 0, fit.stderr
    model = json.loads((tmp_path / "m.json").read_text())
    assert model["classes"] == ["No", "Yes"] and model["version"] == 2
    predict = nbapp("predict", "m.json", str(TENNIS), "--out", "p.csv", cwd=tmp_path)
    assert predict.returncode == 0, predict.stderr
    out = pd.read_csv(tmp_path / "p.csv")
    assert len(out) == 14 and out.filter(like="P(").sum(axis=1).round(12).eq(1).all()
    row = '{"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High", "Wind": "Strong"}'
    explain = nbapp("explain", "m.json", "--row", row, cwd=tmp_path)
    assert explain.returncode == 0, explain.stderr
    assert "prediction: No" in explain.stdout and "Outlook" in explain.stdout


@pytest.mark.parametrize("args, message", [
    (("fit", "missing.csv", "--target", "y", "--out", "m.json"), "No such file"),
    (("fit", str(TENNIS), "--target", "Nope", "--out", "m.json"), "Nope"),
    (("fit", str(TENNIS), "--target", "Play", "--types", "Outlook", "--out", "m.json"), "has no '='"),
    (("explain", str(TENNIS), "--row", "{}"), "not valid JSON"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    result = nbapp(*args, cwd=tmp_path)
    assert result.returncode == 2
    error = result.stderr.strip().splitlines()[-1]       # notes on reading the file may come first
    assert message in error and error.startswith("nbapp: ")
    assert "Traceback" not in result.stderr
