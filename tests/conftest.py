"""Shared fixtures: the seeds' worked examples as frames."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"
# The app shows a bug as "internal error — please report" (app.py); under test it also raises,
# so no page can fail quietly behind that message.
os.environ.setdefault("NBAPP_RAISE_ERRORS", "1")
TENNIS_FEATURES = {c: "categorical" for c in ["Outlook", "Temperature", "Humidity", "Wind"]}


@pytest.fixture
def tennis() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "tennis14.csv")


@pytest.fixture
def gender() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "gender.csv")
