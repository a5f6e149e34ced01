"""A table with a column of every feature type, for tests that compare two ways of computing
the same statistics or predictions (one pass against parts, one thread against several)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbapp import Discretized

TYPES = {"colour": "categorical", "shape": "categorical", "flag": "bernoulli", "size": "gaussian",
         "weight": "gaussian", "skew": "kde", "band": Discretized(bins=3), "n1": "multinomial",
         "n2": "multinomial", "visits": "poisson", "words": "text"}

# pandas 3's default text dtype ("str"), spelled out: under pandas 2.3 the alias "str" means NumPy
# strings and would store None as the text 'None'.
ARROW_TEXT = pd.StringDtype("pyarrow", na_value=np.nan)


def mixed_frame(seed: int, rows: int) -> pd.DataFrame:
    """Three classes (one rare), missing values in the Arrow-string, Gaussian and text columns,
    and a frequency weight column ``w`` of 1 to 3."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["spam", "ham", "eggs"], rows, p=[0.45, 0.45, 0.1])
    spam = (y == "spam").astype(float)
    return pd.DataFrame({
        "colour": pd.array(rng.choice(["red", "green", "blue", None], rows), dtype=ARROW_TEXT),
        "shape": rng.choice(["round", "square", "oval"], rows).astype(object),
        "flag": rng.choice(["yes", "no"], rows),
        "size": np.where(rng.random(rows) < 0.1, np.nan, rng.normal(3, 1, rows) + spam),
        "weight": rng.normal(70, 9, rows) - 5 * spam,
        "skew": rng.exponential(1.0, rows) + spam,
        "band": rng.normal(0, 1, rows),
        "n1": rng.integers(0, 4, rows),
        "n2": rng.integers(0, 3, rows),
        "visits": rng.poisson(2, rows),
        "words": rng.choice(["buy now", "hello friend", "free money now", None], rows),
        "w": rng.integers(1, 4, rows).astype(float),
        "y": y,
    })
