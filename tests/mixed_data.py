"""A table with a column of every feature type, for tests that compare two ways of computing
the same statistics or predictions (one pass against parts, one thread against several), and
its counterpart for the engines (DuckDB, PostgreSQL, Spark): every type they compute."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbapp import KDE, Bernoulli, Discretized

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


PUSHABLE = {"city": "categorical", "member": Bernoulli(positive="yes"), "age": "gaussian",
            "score": "gaussian", "visits": "poisson", "n1": "multinomial", "n2": "multinomial",
            "flag": "categorical", "rank": "categorical", "spend": "kde", "tenure": "discretized",
            "days": KDE()}


def pushable_frame(n: int, seed: int = 0, *, holes: bool = True) -> pd.DataFrame:
    """Every type whose statistics an engine computes (PUSHABLE: no text), with missing values of
    each kind the engines hold (NULL, NaN); ``w`` a weight of 1 to 3."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["churn", "stay", "trial"], n, p=[0.3, 0.6, 0.1])
    frame = pd.DataFrame({
        "y": y,
        "city": rng.choice(["Leeds", "York", "Bath", "Ely"], n),
        "member": rng.choice(["yes", "no"], n),
        "age": np.round(rng.normal(40, 12, n) + 5 * (y == "churn"), 2),
        "score": rng.normal(100, 15, n) + 3 * (y == "trial"),
        "visits": rng.poisson(3, n) + 2 * (y == "stay"),
        "n1": rng.integers(0, 5, n),
        "n2": rng.integers(0, 3, n),
        "flag": rng.random(n) < 0.4,
        "rank": rng.integers(1, 6, n),
        "spend": np.round(rng.gamma(2.0, 30.0, n) * (1 + (y == "churn")), 2),    # continuous: a level from the keys
        "tenure": rng.normal(5, 2, n) + 1000.0 * (rng.random(n) < 0.001),        # far values: refined passes
        "days": rng.integers(0, 30, n).astype(float),                            # few values: the values themselves
        "w": rng.integers(1, 4, n).astype(float),
    })
    if holes:
        frame["city"] = frame["city"].where(rng.random(n) > 0.05, None)
        frame["age"] = frame["age"].where(rng.random(n) > 0.05, np.nan)
        frame["score"] = frame["score"].where(rng.random(n) > 0.02, np.nan)
    return frame
