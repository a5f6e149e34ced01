"""Shared fixtures: the seeds' worked examples as frames."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"
# The app shows a bug as "internal error — please report" (app.py); under test it also raises,
# so no page can fail quietly behind that message.
os.environ.setdefault("NBAPP_RAISE_ERRORS", "1")
# scikit-learn's estimator checks include one of array-API input, which runs only when SciPy's
# array-API mode is on; it must be set before SciPy is first imported (as scikit-learn's own CI does).
os.environ.setdefault("SCIPY_ARRAY_API", "1")
# The AppTest helpers' asserts explain themselves on failure as a test module's do.
pytest.register_assert_rewrite("apptest_helpers")
TENNIS_FEATURES = {c: "categorical" for c in ["Outlook", "Temperature", "Humidity", "Wind"]}


@pytest.fixture
def tennis() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "tennis14.csv")


@pytest.fixture
def gender() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "gender.csv")


def biopsy_like(rows: int = 699, seed: int = 0) -> pd.DataFrame:
    """Like MASS's biopsy: a patient ID (645 distinct integers in 699 rows, some repeated),
    nine 1-10 scores and a benign / malignant class."""
    rng = np.random.default_rng(seed)
    patients = rng.choice(np.arange(60_000, 13_500_000), size=645, replace=False)
    ids = rng.permutation(np.concatenate([patients, rng.choice(patients, size=rows - 645)]))
    y = rng.choice(["benign", "malignant"], size=rows, p=[0.655, 0.345])
    base = np.where(y == "malignant", 7.0, 2.0)
    scores = {f"V{j}": np.clip(np.round(base + rng.normal(0, 2.0, rows)), 1, 10).astype(np.int64)
              for j in range(1, 10)}
    return pd.DataFrame({"ID": ids, **scores, "class": y})
