"""Model files of format 2, whose KDE and discretized columns list every bin of a dense grid
(nbapp before the sparse grid of issue 21), still load and predict what they predicted then.
The file and its predictions were saved by that version (tests/data/models_v2)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

from nbapp import NaiveBayes, load_example
from nbapp.blocks.grid import MAX_BINS, GridStats

DATA = Path(__file__).parent / "data" / "models_v2"


def test_a_version_2_file_with_dense_grids_loads_and_predicts_as_it_did():
    text = gzip.decompress((DATA / "penguins_kde_discretized.json.gz").read_bytes()).decode()
    saved = json.loads(text)
    dense = [b["stats"] for b in saved["blocks"] if "exponent" in b["stats"]]
    assert saved["version"] == 2 and dense and all("keys" not in s for s in dense)
    assert max(len(s["mass"]) for s in dense) > MAX_BINS       # format 2's cap was 4096 bins, empty ones too
    expected = json.loads((DATA / "penguins_kde_discretized.expected.json").read_text())
    model = NaiveBayes.from_json(text)
    df = load_example("penguins")
    proba = model.predict_proba(df).to_numpy()
    # The bins are the file's; the KDE's evaluation grid is today's (runs of nodes around the
    # bins): the densities agree to the KDE's stated approximation error.
    np.testing.assert_allclose(proba, np.array(expected["proba"]), rtol=0, atol=1e-9)
    grids = [b for b in model.blocks_ if isinstance(b.stats, GridStats)]
    assert grids and all((b.stats.mass.sum(axis=1) > 0).all() for b in grids)      # the empty bins are left out
    again = json.loads(model.to_json())
    assert again["version"] == 3
    np.testing.assert_array_equal(NaiveBayes.from_json(model.to_json()).predict_proba(df).to_numpy(), proba)
    assert len(model.to_json()) < len(text) / 4        # the empty bins of the dense grid are not written
