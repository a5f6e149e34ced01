"""The baselines: scikit-learn's logistic regression (discriminative), a decision tree and k
nearest neighbours on the model's own columns.

Seed 000, section 3: Naive Bayes estimates p(x | y) p(y), logistic regression p(y | x)
directly. To compare them fairly (the Evaluate page, the generative-vs-discriminative lesson,
:func:`nbapp.sklearn.logistic_regression_scores`), logistic regression sees *every* modelled
column, each encoded as its feature type declares (``Block.baseline``):

=================  =========================================================================
ONE_HOT            an indicator per value (its text), a missing value a value of its own;
                   values never seen in training add nothing
STANDARDISED       the number, a missing value the training mean, then standardised
COUNTS             the count, a missing count 0, then standardised (unscaled counts of
                   hundreds would dominate the L2 penalty and slow the solver)
BAG_OF_WORDS       word counts whose words are the column's own nbapp text pipeline's
OWN                the type's ``baseline_transform`` (one number per row), then as STANDARDISED
None               refused, naming the column and its type: never silently left out
=================  =========================================================================

:func:`baseline_encodings` lists each column with its encoding in words, to show next to the
result. scikit-learn is imported inside the functions, so ``import nbapp`` never needs it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp.blocks import block_type
from nbapp.blocks.base import BAG_OF_WORDS, COUNTS, ONE_HOT, OWN, STANDARDISED
from nbapp.errors import DataError
from nbapp._numbers import numeric_column
from nbapp.specs import parse_features

__all__ = ["logistic_pipeline", "baseline_pipeline", "BASELINES", "logistic_inputs", "baseline_encodings", "ENCODING_WORDS", "MISSING"]

MISSING = "(missing)"        # a missing categorical value, as its own one-hot value
ENCODING_WORDS = {
    ONE_HOT: "one-hot: an indicator per value, missing as a value of its own",
    STANDARDISED: "the number, standardised (missing: the training mean)",
    COUNTS: "the count, standardised (missing: 0)",
    BAG_OF_WORDS: "word counts, with the column's own text pipeline",
    OWN: "the type's own transform, standardised (missing: the training mean)",
}


def baseline_encodings(specs: Mapping[str, Any]) -> pd.DataFrame:
    """One row per modelled column: ``column``, its type's ``type`` (title) and its ``encoding``
    in words; DataError for a column whose type declares no encoding."""
    rows = [(column, block.title, ENCODING_WORDS[block.baseline])
            for column, (block, _) in _encoded(specs).items()]
    return pd.DataFrame(rows, columns=["column", "type", "encoding"])


def logistic_inputs(data: pd.DataFrame, specs: Mapping[str, Any]) -> pd.DataFrame:
    """The modelled columns as scikit-learn takes them, each by its encoding: categories as
    text with missing as :data:`MISSING`, numbers as floats (NaN where missing), counts with
    missing as 0, documents as text ("" where missing), a type's own transform. Stateless, so
    it may run once before any split of the rows."""
    out = pd.DataFrame(index=data.index)
    for column, (block, spec) in _encoded(specs).items():     # a loop over columns, not rows
        values = data[column]
        if block.baseline == ONE_HOT:
            out[column] = values.astype(object).where(values.notna(), MISSING).astype(str)
        elif block.baseline == BAG_OF_WORDS:
            out[column] = values.astype(object).where(values.notna(), "").astype(str)
        elif block.baseline == OWN:
            out[column] = _own(block, values, spec, column)
        else:
            x = numeric_column(values, column, block.title)
            out[column] = np.nan_to_num(x, nan=0.0) if block.baseline == COUNTS else x
    return out


def logistic_pipeline(specs: Mapping[str, Any], C: float = 1.0, max_iter: int = 1000) -> Any:
    """A scikit-learn pipeline over :func:`logistic_inputs`' frame: one encoder per modelled
    column (as its type declares, see the module docstring), then LogisticRegression(C, max_iter)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    return make_pipeline(_column_encoders(specs), LogisticRegression(C=C, max_iter=max_iter))


#: The baselines the Evaluate page offers beside Naive Bayes, by name: (title, what it is). Each
#: reads every modelled column through the same encoders as logistic regression.
BASELINES = {
    "logistic": ("Logistic regression", "scikit-learn's LogisticRegression (C = 1, L2 penalty)"),
    "tree": ("Decision tree", "scikit-learn's DecisionTreeClassifier (grown until its leaves are pure, seed 0)"),
    "knn": ("k nearest neighbours", "scikit-learn's KNeighborsClassifier (k = 5, or every training row if fewer; "
                                    "Euclidean distance over the encoded columns)"),
}


def baseline_pipeline(specs: Mapping[str, Any], baseline: str = "logistic", *, training_rows: int | None = None) -> Any:
    """The pipeline of the baseline named ``baseline`` (a key of :data:`BASELINES`) over
    :func:`logistic_inputs`' frame: the columns encoded as their types declare, then the
    classifier. ``training_rows`` bounds k nearest neighbours' k by the rows it will see."""
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier

    if baseline == "logistic":
        return logistic_pipeline(specs)
    if baseline == "tree":
        return make_pipeline(_column_encoders(specs), DecisionTreeClassifier(random_state=0))
    if baseline == "knn":
        k = 5 if training_rows is None else max(1, min(5, training_rows))
        return make_pipeline(_column_encoders(specs), KNeighborsClassifier(n_neighbors=k))
    raise DataError(f"{baseline!r} is not a baseline; choose one of {', '.join(BASELINES)}.")


def _column_encoders(specs: Mapping[str, Any]) -> Any:
    """One encoder per modelled column, as its type declares (see the module docstring)."""
    from sklearn.compose import ColumnTransformer
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    from nbapp.blocks.text import options_of
    from nbapp.text import analyze

    parts = []
    for i, (column, (block, spec)) in enumerate(_encoded(specs).items()):
        if block.baseline == ONE_HOT:
            encoder, selected = OneHotEncoder(handle_unknown="ignore"), [column]
        elif block.baseline == BAG_OF_WORDS:
            encoder, selected = CountVectorizer(analyzer=partial(analyze, options=options_of(spec))), column
        elif block.baseline == COUNTS:
            encoder, selected = StandardScaler(), [column]
        else:                                           # STANDARDISED or OWN
            encoder, selected = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()), [column]
        parts.append((f"column {i}", encoder, selected))
    return ColumnTransformer(parts)


def _encoded(specs: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """column -> (block class, spec) of every modelled column; refuses a type with no encoding."""
    out = {}
    for column, spec in parse_features(specs).items():
        block = block_type(spec)
        if block.baseline is None:
            raise DataError(f"Column {column!r} is {block.title}, which declares no encoding for logistic "
                            "regression, so the baseline cannot use it; leave the column out of the "
                            "comparison or type it otherwise.")
        out[column] = (block, spec)
    return out


def _own(block: Any, values: pd.Series, spec: Any, column: str) -> np.ndarray:
    x = np.asarray(block.baseline_transform(values, spec), dtype=float)
    if x.shape != (len(values),):
        raise ValueError(f"The {block.title} type's baseline_transform gave shape {x.shape} for column "
                         f"{column!r}, not one number per row ({len(values)}): a bug in that type.")
    return x
