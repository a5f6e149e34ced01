"""The logistic-regression baseline uses every modelled column, each as its type declares
(issue 22, item 3): equal to a scikit-learn pipeline built by hand on a table with every type,
a KDE column no longer silently dropped, a column it cannot encode refused by name."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

import nbapp
from mixed_data import TYPES, mixed_frame
from renamed import renamed
from nbapp import DataError
from nbapp.baseline import baseline_encodings, logistic_inputs, logistic_pipeline
from nbapp.blocks import register, unregister
from nbapp.blocks.base import OWN
from nbapp.blocks.gaussian import GaussianBlock
from nbapp.blocks.kde import KDEBlock


def hand_built(df: pd.DataFrame) -> tuple[pd.DataFrame, object]:
    """The mixed table's columns encoded by hand, in the same order, as scikit-learn's docs do it."""
    X = pd.DataFrame(index=df.index)
    parts = []
    for i, (column, kind) in enumerate(TYPES.items()):
        kind = kind if isinstance(kind, str) else kind.kind
        values = df[column]
        if kind in ("categorical", "bernoulli"):
            X[column] = values.astype(object).where(values.notna(), "(missing)").astype(str)
            parts.append((f"c{i}", OneHotEncoder(handle_unknown="ignore"), [column]))
        elif kind == "text":
            X[column] = values.fillna("").astype(str)
            parts.append((f"c{i}", CountVectorizer(token_pattern=r"(?u)\w+"), column))
        elif kind in ("multinomial", "poisson"):
            X[column] = pd.to_numeric(values).fillna(0.0)
            parts.append((f"c{i}", StandardScaler(), [column]))
        else:                                            # gaussian, kde, discretized
            X[column] = pd.to_numeric(values)
            parts.append((f"c{i}", make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()), [column]))
    return X, make_pipeline(ColumnTransformer(parts), LogisticRegression(C=1.0, max_iter=1000))


def test_the_baseline_on_every_type_is_the_pipeline_built_by_hand():
    df = mixed_frame(11, 400)
    train, test = df.iloc[:300], df.iloc[300:]
    ours = logistic_pipeline(TYPES).fit(logistic_inputs(train, TYPES), train["y"])
    X, theirs = hand_built(df)
    theirs.fit(X.iloc[:300], train["y"])
    np.testing.assert_allclose(ours.predict_proba(logistic_inputs(test, TYPES)), theirs.predict_proba(X.iloc[300:]),
                               rtol=1e-9, atol=1e-12)
    assert [c for _, _, c in ours[0].transformers_] == [c for _, _, c in theirs[0].transformers_]


def test_every_modelled_column_is_listed_with_its_encoding():
    table = baseline_encodings(TYPES)
    assert list(table["column"]) == list(TYPES)
    assert dict(zip(table["column"], table["type"])) == {
        "colour": "Categorical", "shape": "Categorical", "flag": "Bernoulli", "size": "Gaussian",
        "weight": "Gaussian", "skew": "KDE", "band": "Discretized", "n1": "Multinomial", "n2": "Multinomial",
        "visits": "Poisson", "words": "Text"}
    assert table.set_index("column").loc["skew", "encoding"] == "the number, standardised (missing: the training mean)"
    assert table.set_index("column").loc["words", "encoding"].startswith("word counts")


def weather(n: int = 240, seed: int = 2) -> pd.DataFrame:
    """Like the issue's weather table: four numeric columns, precipitation mostly zeros (KDE)."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["sun", "rain", "drizzle"], n, p=[0.5, 0.3, 0.2])
    rain = np.where(y == "sun", 0.0, rng.gamma(np.where(y == "rain", 3.0, 0.6), 2.0))
    return pd.DataFrame({"precipitation": np.where(rng.random(n) < 0.3, 0.0, rain),
                         "temp_max": rng.normal(np.where(y == "sun", 20, 14), 4), "temp_min": rng.normal(8, 3, n),
                         "wind": rng.gamma(2, 1.5, n), "weather": y})


def test_a_kde_column_is_no_longer_silently_dropped_from_the_baseline():
    df = weather()
    types = {"precipitation": "kde", "temp_max": "gaussian", "temp_min": "gaussian", "wind": "gaussian"}
    result = nbapp.evaluate.cross_validate(lambda: nbapp.NaiveBayes(types), df, "weather", k=5)
    from nbapp.sklearn import logistic_regression_scores

    with_all = logistic_regression_scores(result, df, types)
    without = logistic_regression_scores(result, df, {c: t for c, t in types.items() if c != "precipitation"})
    assert with_all.log_loss < without.log_loss - 0.05       # precipitation carries the class
    X = df[list(types)]
    by_hand = make_pipeline(ColumnTransformer([(c, make_pipeline(SimpleImputer(), StandardScaler()), [c])
                                               for c in types]), LogisticRegression(max_iter=1000))
    folds = result.folds
    log_p = np.zeros(len(df))
    for f in range(5):
        fitted = by_hand.fit(X[folds != f], df["weather"][folds != f])
        p = fitted.predict_proba(X[folds == f])
        truth = df["weather"][folds == f].to_numpy()
        log_p[folds == f] = np.log(p[np.arange(len(p)), [list(fitted.classes_).index(t) for t in truth]])
    assert with_all.log_loss == pytest.approx(-log_p.mean(), rel=1e-9)


OpaqueBlock = renamed(KDEBlock, "opaque", "Opaque", baseline=None)
LoggedBlock = renamed(GaussianBlock, "logged", "Logged", baseline=OWN, baseline_transform=classmethod(
    lambda cls, values, spec: np.log(pd.to_numeric(values).to_numpy(dtype=float))))


def test_a_column_the_baseline_cannot_encode_is_refused_by_name():
    register(OpaqueBlock)
    try:
        with pytest.raises(DataError, match="Column 'skew' is Opaque, which declares no encoding for logistic"):
            logistic_pipeline({**TYPES, "skew": "opaque"})
        with pytest.raises(DataError, match="Column 'skew' is Opaque"):
            baseline_encodings({**TYPES, "skew": "opaque"})
    finally:
        unregister("opaque")


def test_a_type_s_own_transform_is_standardised_like_a_number():
    register(LoggedBlock)
    try:
        df = weather().assign(wind=lambda d: d["wind"] + 0.1)
        types = {"wind": "logged", "temp_max": "gaussian"}
        ours = logistic_pipeline(types).fit(logistic_inputs(df, types), df["weather"])
        assert baseline_encodings(types)["encoding"][0].startswith("the type's own transform")
    finally:
        unregister("logged")
    X = pd.DataFrame({"wind": np.log(df["wind"]), "temp_max": df["temp_max"]})
    by_hand = make_pipeline(ColumnTransformer([(c, make_pipeline(SimpleImputer(), StandardScaler()), [c])
                                               for c in X]), LogisticRegression(max_iter=1000)).fit(X, df["weather"])
    np.testing.assert_allclose(ours[-1].coef_, by_hand[-1].coef_, rtol=1e-9)


def test_the_bag_of_words_uses_the_model_s_own_words():
    options = nbapp.text.TextOptions(stop_words=["now"], stem=True, ngram_range=(1, 2))
    df = pd.DataFrame({"t": ["buying now cheap", "hello friends", "cheap buys now", "see friends"],
                       "y": list("sqsq")})
    types = {"t": nbapp.Text(options)}
    pipeline = logistic_pipeline(types).fit(logistic_inputs(df, types), df["y"])
    words = pipeline[0].named_transformers_["column 0"].vocabulary_
    assert set(words) == set(nbapp.NaiveBayes(types).fit(df, "y").cpt("t").index)
