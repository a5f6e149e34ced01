"""A table with a column of every feature type whose values depend on the class, for any
number of classes (the adds-up and nomogram tests)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import nbapp

EVERY_TYPE = {"colour": "categorical", "flag": "bernoulli", "n1": "multinomial", "n2": "multinomial",
              "size": "gaussian", "weight": "gaussian", "words": "text", "visits": "poisson",
              "skew": "kde", "band": nbapp.Discretized(bins=3)}
VOCABULARY = np.array(["buy", "now", "free", "money", "hello", "friend", "meeting", "lunch", "report", "today"])


def every_type_frame(classes: list[str], rows: int = 240, seed: int = 0) -> pd.DataFrame:
    """A column of every feature type whose values depend on the class, and a tenth of each
    column missing."""
    rng = np.random.default_rng(seed)
    k = rng.integers(0, len(classes), rows)
    words = [" ".join(rng.choice(VOCABULARY[(2 * c) % 10:(2 * c) % 10 + 4], rng.integers(1, 5))) for c in k]
    frame = pd.DataFrame({
        "colour": np.array(["red", "green", "blue", "grey"])[(k + rng.integers(0, 2, rows)) % 4].astype(object),
        "flag": np.where(rng.random(rows) < 0.3 + 0.1 * k, "yes", "no").astype(object),
        "n1": rng.poisson(1 + k), "n2": rng.poisson(3.0, rows),
        "size": rng.normal(k, 1.0), "weight": rng.normal(70 - 3 * k, 8.0),
        "words": np.array(words, dtype=object), "visits": rng.poisson(2 + k),
        "skew": rng.exponential(1.0, rows) + k, "band": rng.normal(0.5 * k, 1.0),
        "y": np.array(classes, dtype=object)[k],
    })
    for j, column in enumerate(EVERY_TYPE):
        frame[column] = frame[column].astype(object)
        frame.loc[frame.index[j::10], column] = None
    return frame
