"""Model files saved by nbapp before statistics were values (format 1) still load and predict
exactly what they predicted then (issue 10). The files and their predictions were saved by
that version (tests/data/models_v1)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nbapp import NaiveBayes, load_example

DATA = Path(__file__).parent / "data" / "models_v1"
FRAMES = {"tennis": "tennis14", "gender": "gender", "stolen": "stolen_cars", "bikes": "bikes",
          "sentiment": "sentiment"}


def frame_for(name: str) -> pd.DataFrame:
    if name == "mixed_counts":
        return pd.read_csv(DATA / "mixed_counts.csv")
    return load_example(FRAMES[name.split("_")[0]])


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.json") if not p.stem.endswith(".expected")))
def test_a_version_1_file_loads_and_predicts_as_it_did(name):
    text = (DATA / f"{name}.json").read_text()
    assert json.loads(text)["version"] == 1
    expected = json.loads((DATA / f"{name}.expected.json").read_text())
    model = NaiveBayes.from_json(text)
    assert model.classes_ == expected["classes"]
    proba = model.predict_proba(frame_for(name)).to_numpy()
    np.testing.assert_allclose(proba, np.array(expected["proba"]), rtol=0, atol=1e-12)
    again = NaiveBayes.from_json(model.to_json())              # saved again, as today's format
    assert json.loads(again.to_json())["version"] == 3
    np.testing.assert_array_equal(again.predict_proba(frame_for(name)).to_numpy(), proba)
