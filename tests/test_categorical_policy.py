"""Declared categories and the unseen-value policy of categorical columns (issue 12): K of seed 000
Eq. 7 is the declared domain (scikit-learn's CategoricalNB(min_categories), R e1071 with factor
levels), and "skip" / "error" / "smooth" for values never seen in training."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import CategoricalNB

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.explain import Fraction

LEVELS = {"a": ["r", "g", "b", "k"], "b": [0, 1, 2, 3, 4]}


def data(seed: int = 1, n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"a": rng.choice(["r", "g"], n), "b": rng.choice([0, 1, 2], n), "y": rng.choice(["p", "q"], n)})


def declared(**options) -> NaiveBayes:
    return NaiveBayes({c: nbapp.Categorical(categories=v, **options) for c, v in LEVELS.items()}, alpha=1)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0])
def test_declared_categories_equal_sklearn_categorical_nb_with_min_categories(alpha):
    df = data()
    m = NaiveBayes({c: nbapp.Categorical(categories=v) for c, v in LEVELS.items()}, alpha=alpha).fit(df, "y")
    encode = lambda f: np.column_stack([pd.Categorical(f["a"], categories=LEVELS["a"]).codes, f["b"]])  # noqa: E731
    sk = CategoricalNB(alpha=alpha, min_categories=[4, 5]).fit(encode(df), df["y"])
    test = pd.DataFrame({"a": ["k", "r", "b", "g"], "b": [4, 3, 0, 2]})      # k, b, 3, 4 never seen
    np.testing.assert_allclose(m.predict_proba(test).to_numpy(), sk.predict_proba(encode(test)), atol=1e-12)
    np.testing.assert_allclose(np.log(m.cpt("a").to_numpy().T), sk.feature_log_prob_[0], atol=1e-12)


def test_a_declared_value_never_seen_in_a_class_gets_l_over_n_c_plus_l_k():
    df = data()
    m = declared().fit(df, "y")
    n_p = int((df["y"] == "p").sum())
    # e1071 with levels r, g, b, k: P(a = k | p) = (0 + 1) / (n_p + 1 * 4)   [seed 000, Eq. 7]
    assert m.cpt("a", exact=True).loc["k", "p"] == Fraction(1, n_p + 4)
    assert list(m.cpt("a").index) == LEVELS["a"]                     # the declared order
    assert m.explain({"a": "k", "b": 4}).factors.loc["a", "status"] == "used"


def test_a_training_value_outside_the_declared_categories_is_refused_by_row():
    df = data()
    df.loc[7, "a"] = "purple"
    with pytest.raises(DataError, match=r"Column 'a' holds 'purple' in row 7, which is not among its declared"):
        declared().fit(df, "y")


def test_skip_leaves_an_unseen_value_out_and_says_so():
    m = NaiveBayes({"a": nbapp.Categorical()}).fit(data(), "y")
    e = m.explain({"a": "zz"})
    assert e.factors.loc["a", "status"] == "unseen" and "unseen='skip'" in e.factors.loc["a", "detail"]
    np.testing.assert_allclose(e.posterior.to_numpy(), m.priors_.to_numpy())


def test_error_refuses_an_unseen_value_naming_column_value_and_row():
    m = NaiveBayes({"a": nbapp.Categorical(unseen="error")}).fit(data(), "y")
    with pytest.raises(DataError, match=r"Column 'a' holds 'zz' in row 1, a value never seen in training"):
        m.predict(pd.DataFrame({"a": ["r", "zz"]}))
    with pytest.raises(DataError, match="unseen policy is 'error'"):
        m.explain({"a": "zz"})
    assert m.predict(pd.DataFrame({"a": ["r", None]})).notna().all()     # missing is not unseen


def test_smooth_scores_an_unseen_value_as_one_more_pseudo_category():
    df = data()
    m = NaiveBayes({"a": nbapp.Categorical(unseen="smooth")}, alpha=1).fit(df, "y")
    n = df["y"].value_counts()
    # K = 2 seen values + 1 pseudo-category: P(unseen | c) = (0 + 1) / (n_c + 3)
    assert m.cpt("a", exact=True).loc["(unseen)", "p"] == Fraction(1, int(n["p"]) + 3)
    assert m.cpt("a", exact=True).loc["r", "p"] == Fraction(int(((df.y == "p") & (df.a == "r")).sum()) + 1,
                                                             int(n["p"]) + 3)
    e = m.explain({"a": "zz"})
    assert e.factors.loc["a", "status"] == "unseen → smoothed"
    assert "a" in e.used
    expected = np.log(m.priors_.to_numpy()) + np.log([1 / (n["p"] + 3), 1 / (n["q"] + 3)])
    np.testing.assert_allclose(m.predict_log_proba(pd.DataFrame({"a": ["zz"]})).to_numpy()[0],
                               expected - np.logaddexp(*expected))
    np.testing.assert_allclose(e.posterior.to_numpy(), np.exp(expected - np.logaddexp(*expected)))
    assert set(m.sample(500, random_state=0)["a"]) <= {"r", "g"}      # the pseudo-category is no value


def test_spec_options_round_trip_through_json_and_merge():
    df = data(3)
    m = declared(unseen="smooth").fit(df, "y")
    back = NaiveBayes.from_json(m.to_json())
    assert back.features_ == m.features_
    assert back.features_["a"].categories == ("r", "g", "b", "k") and back.features_["a"].unseen == "smooth"
    pd.testing.assert_frame_equal(back.cpt("a"), m.cpt("a"))
    merged = nbapp.merge([declared(unseen="smooth").partial_fit(df.iloc[:20], "y"),
                          declared(unseen="smooth").partial_fit(df.iloc[20:], "y")])
    pd.testing.assert_frame_equal(merged.cpt("b"), m.cpt("b"))
    with pytest.raises(DataError, match="unseen must be one of"):
        nbapp.Categorical(unseen="ignore")
    with pytest.raises(DataError, match="declared twice"):
        nbapp.Categorical(categories=["a", "a"])


# -- many declared categories: checked with hashing, not a list scan (issue 21) -------------------
class Counted(str):
    """A category name that counts its equality comparisons (a list scan makes n^2 / 2 of them;
    a set or dict makes about none: equal hashes are rare)."""

    comparisons = 0

    def __eq__(self, other):
        type(self).comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_declared_categories_are_checked_without_comparing_every_pair():
    Counted.comparisons = 0
    nbapp.Categorical(categories=[Counted(f"c{i}") for i in range(2_000)])
    assert Counted.comparisons < 2_000              # a list scan made 1,999,000


def test_category_statistics_find_a_repeat_without_comparing_every_pair():
    from nbapp.blocks.categorical import CategoricalStats

    values = [Counted(f"c{i}") for i in range(2_000)] + [Counted("c1999")]
    Counted.comparisons = 0
    with pytest.raises(DataError, match="the category 'c1999' is listed twice"):
        CategoricalStats.from_state({"categories": values, "counts": [[1.0, 0.0]] * len(values)}, 2, "feature 'a'")
    assert Counted.comparisons < 2_000


def test_a_model_file_with_100000_declared_categories_loads_and_a_repeat_is_named():
    levels = [f"level {i}" for i in range(100_000)]
    train = pd.DataFrame({"a": levels[:6], "y": ["p", "q"] * 3})
    m = NaiveBayes({"a": nbapp.Categorical(categories=levels)}, alpha=1).fit(train, "y")
    back = NaiveBayes.from_json(m.to_json())
    assert back.cpt("a").shape == (100_000, 2)
    assert back.predict_proba(train).round(12).equals(m.predict_proba(train).round(12))
    doubled = m.to_json().replace('"level 99999"]', '"level 99999", "level 5"]', 1)
    with pytest.raises(DataError, match="'level 5' is declared twice"):
        NaiveBayes.from_json(doubled)
