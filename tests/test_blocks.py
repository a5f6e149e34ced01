"""Each block's statistics and parameters on their own (issue 10): statistics add exactly, move
with the classes, are read-only and round-trip through their JSON state; each block's numbers
against a hand computation from the seeds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import poisson

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.blocks import REGISTRY
from nbapp.blocks.base import BlockSettings
from nbapp.smoothing import Lidstone
from nbapp.text import TextOptions

COLUMNS = {"categorical": "colour", "bernoulli": "flag", "multinomial": "n", "gaussian": "size", "text": "words",
           "poisson": "visits", "kde": "income", "discretized": "score"}


def frame(seed: int, rows: int = 25) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "colour": rng.choice(["red", "green", "blue", None], rows),
        "flag": rng.choice(["yes", "no"], rows),
        "n": rng.integers(0, 5, rows).astype(float),
        "size": rng.normal(2, 1, rows),
        "words": rng.choice(["a b c", "b c d", "free money", None], rows),
        "visits": rng.poisson(2, rows).astype(float),
        "income": rng.lognormal(0, 1, rows),
        "score": np.where(rng.random(rows) < 0.1, np.nan, rng.normal(50, 10, rows)),
    })


def summarize(kind: str, df: pd.DataFrame, y: np.ndarray, w: np.ndarray, k: int = 3):
    cls = REGISTRY[kind]
    return cls.summarize((COLUMNS[kind],), (cls.spec_type(),), df, y, w, k)


def states_equal(a, b) -> None:
    sa, sb = a.to_state(), b.to_state()
    assert sa.keys() == sb.keys()
    for key in sa:
        if isinstance(sa[key], list) and sa[key] and isinstance(sa[key][0], str):
            assert sa[key] == sb[key], key
        else:
            np.testing.assert_allclose(np.asarray(sa[key], dtype=float), np.asarray(sb[key], dtype=float),
                                       rtol=1e-12, atol=1e-12, err_msg=key)


@pytest.mark.parametrize("kind", list(REGISTRY))
def test_statistics_of_two_parts_add_up_to_the_statistics_of_both(kind):
    a, b = frame(1), frame(2)
    ya, yb = np.arange(25) % 3, (np.arange(25) + 1) % 3
    wa, wb = np.ones(25), np.arange(25) % 4 + 0.5
    both = summarize(kind, pd.concat([a, b], ignore_index=True), np.r_[ya, yb], np.r_[wa, wb])
    added = summarize(kind, a, ya, wa) + summarize(kind, b, yb, wb)
    if kind == "text":      # terms are united in the order first seen; compare by term
        order = [added.terms.index(t) for t in both.terms]
        np.testing.assert_array_equal(added.word_counts[order], both.word_counts)
        np.testing.assert_array_equal(added.n_docs, both.n_docs)
    else:
        states_equal(added, both)


@pytest.mark.parametrize("kind", list(REGISTRY))
def test_statistics_move_with_the_classes_and_are_read_only(kind):
    stats = summarize(kind, frame(3), np.arange(25) % 3, np.ones(25))
    moved = stats.reindex_classes(np.array([2, -1, 0, 1]))      # new class 1 has no rows
    state, new = stats.to_state(), moved.to_state()
    for key, value in new.items():
        if key == "keys":                  # a grid's bins are not per class: they stay as they were
            assert value == state[key]
            continue
        if isinstance(value, list) and value and not isinstance(value[0], str):
            old, now = np.asarray(state[key], dtype=float), np.asarray(value, dtype=float)
            axis = 0 if kind in ("gaussian", "poisson") or key == "n_docs" or np.ndim(value) == 1 else 1
            np.testing.assert_array_equal(np.take(now, [0, 2, 3], axis=axis), np.take(old, [2, 0, 1], axis=axis))
            assert not np.take(now, [1], axis=axis).any()
    arrays = [v for v in vars(stats).values() if isinstance(v, np.ndarray)]
    assert arrays
    for array in arrays:
        with pytest.raises(ValueError):
            array.flat[0] = 1.0


@pytest.mark.parametrize("kind", list(REGISTRY))
def test_json_state_round_trips_and_a_negative_cell_is_named(kind):
    cls = REGISTRY[kind]
    stats = summarize(kind, frame(4), np.arange(25) % 3, np.ones(25))
    columns = 1
    back = cls.stats_type.from_state(stats.to_state(), 3, "feature 'x'", columns=columns)
    states_equal(back, stats)
    state = stats.to_state()
    key = {"gaussian": "m2", "poisson": "total", "text": "word_counts", "kde": "mass", "discretized": "mass"}.get(kind, "counts")
    cell = state[key]
    while isinstance(cell[0], list):
        cell = cell[0]
    cell[0] = -3
    with pytest.raises(DataError, match=rf"feature 'x': {key}\[0\](\[0\])? is -3; counts cannot be negative"):
        cls.stats_type.from_state(state, 3, "feature 'x'", columns=columns)


def test_a_block_is_built_from_statistics_and_settings_only():
    cls = REGISTRY["categorical"]
    stats = summarize("categorical", frame(5), np.arange(25) % 3, np.ones(25))
    one = cls.from_stats(("colour",), (cls.spec_type(),), BlockSettings(Lidstone(1), 1e-9, "mle"), stats)
    zero = cls.from_stats(("colour",), (cls.spec_type(),), BlockSettings(Lidstone(0), 1e-9, "mle"), stats)
    counts = stats.counts
    np.testing.assert_allclose(one.probabilities(), (counts + 1) / (counts.sum(axis=0) + len(counts)))
    np.testing.assert_allclose(zero.probabilities(), counts / counts.sum(axis=0))
    assert one.stats is zero.stats          # shared, never copied or changed


# -- each block's numbers by hand --------------------------------------------------------------


def test_categorical_tennis_cell_with_laplace_is_seed_000_eq_7(tennis):
    # P(Outlook = Overcast | No) = (0 + 1) / (5 + 3) = 1/8   [seed 000, Eq. 7]
    m = NaiveBayes({"Outlook": "categorical"}, alpha=1).fit(tennis, "Play")
    assert m.cpt("Outlook", exact=True).loc["Overcast", "No"] == nbapp.explain.Fraction(1, 8)


def test_bernoulli_pair_is_decided_from_the_merged_statistics():
    # a part that only saw "yes" and a part that only saw "no" merge into one binary feature
    a = pd.DataFrame({"f": ["yes", "yes"], "y": ["p", "q"]})
    b = pd.DataFrame({"f": ["no", "no"], "y": ["p", "q"]})
    merged = nbapp.merge([NaiveBayes({"f": "bernoulli"}).partial_fit(a, "y"), NaiveBayes({"f": "bernoulli"}).partial_fit(b, "y")])
    assert list(merged.cpt("f").index) == ["no", "yes"]
    # P(f = yes | p) = (1 + 1) / (2 + 2)   [seed 002]
    assert merged.cpt("f").loc["yes", "p"] == 0.5


def test_gaussian_moments_are_seed_000_eq_13_14(gender):
    m = NaiveBayes({"Height": "gaussian"}, var_smoothing=0).fit(gender, "Gender")
    male = gender.loc[gender["Gender"] == "male", "Height"]
    assert m.gaussian("Height").loc["male", "mean"] == pytest.approx(male.mean())
    assert m.gaussian("Height").loc["male", "var"] == pytest.approx(male.var(ddof=0))


def test_multinomial_theta_is_seed_000_eq_10():
    df = pd.DataFrame({"a": [2, 0, 1], "b": [1, 3, 0], "y": ["p", "q", "p"]})
    m = NaiveBayes({"a": "multinomial", "b": "multinomial"}, alpha=1).fit(df, "y")
    # theta_a,p = (3 + 1) / (4 + 2)
    assert m.cpt("a", exact=True).loc["a", "p"] == nbapp.explain.Fraction(4, 6)


def test_text_unk_is_seed_004():
    df = pd.DataFrame({"t": ["a a b", "c"], "y": ["p", "q"]})
    m = NaiveBayes({"t": nbapp.Text(vocabulary="per_class_unk")}, alpha=1).fit(df, "y")
    block = m.block_of("t")
    # P(UNK | p) = 1 / (3 + 1 (2 + 1))   [seed 004]
    assert np.exp(block.params()["unk"][0]) == pytest.approx(1 / 6)


def test_poisson_rate_and_pmf_by_hand():
    df = pd.DataFrame({"v": [0, 2, 4, 1], "y": ["p", "p", "q", "q"]})
    m = NaiveBayes({"v": nbapp.Poisson(a=0.5, b=1)}).fit(df, "y")
    # lambda_p = (2 + 0.5) / (2 + 1), lambda_q = (5 + 0.5) / (2 + 1)
    assert m.parameters("v")["lambda"].tolist() == pytest.approx([2.5 / 3, 5.5 / 3])
    e = m.explain({"v": 3})
    assert e.logs.loc["v"].tolist() == pytest.approx([poisson.logpmf(3, 2.5 / 3), poisson.logpmf(3, 5.5 / 3)])
    assert m.parameters("v")["lambda_fraction"].tolist() == [nbapp.explain.Fraction(5, 6), nbapp.explain.Fraction(11, 6)]
    with pytest.raises(DataError, match="row 1 holds 1.5"):
        m.predict(pd.DataFrame({"v": [1, 1.5]}))
    with pytest.raises(DataError, match="Poisson a must be a number"):
        nbapp.Poisson(a=-1)


# -- merge of random partitions == one fit ------------------------------------------------------

KINDS = {"colour": "categorical", "flag": "bernoulli", "n": "multinomial", "size": "gaussian",
         "words": nbapp.Text(TextOptions(min_df=2, max_features=4)), "visits": "poisson", "income": "kde",
         "score": nbapp.Discretized(bins=3, strategy="mdl")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), parts=st.integers(2, 4), chosen=st.sets(st.sampled_from(sorted(KINDS)), min_size=1),
       alpha=st.sampled_from([0.0, 0.5, 1.0]), weighted=st.booleans())
def test_merge_of_random_partitions_equals_one_fit(seed, parts, chosen, alpha, weighted):
    rng = np.random.default_rng(seed)
    df = frame(seed, rows=40).assign(y=rng.choice(["p", "q", "r"], 40), w=rng.integers(1, 4, 40))
    features = {c: KINDS[c] for c in sorted(chosen)}
    weight = "w" if weighted else None
    cuts = np.sort(rng.choice(np.arange(1, 40), parts - 1, replace=False))
    pieces = [df.iloc[a:b] for a, b in zip([0, *cuts], [*cuts, len(df)])]

    def fit(rows):
        return NaiveBayes(features, alpha=alpha).partial_fit(rows, "y", weight=weight)   # one class is fine here

    try:
        one = NaiveBayes(features, alpha=alpha).fit(df, "y", weight=weight)
    except DataError:
        return                                      # e.g. no words left: then the parts cannot do better
    merged = nbapp.merge([fit(p) for p in pieces])
    np.testing.assert_array_equal(merged.class_counts_, one.class_counts_)
    for column, kind in features.items():
        kind = getattr(kind, "kind", kind)
        if kind == "gaussian":
            pd.testing.assert_frame_equal(merged.gaussian(column), one.gaussian(column), rtol=1e-9)
        elif kind in ("poisson", "kde"):
            pd.testing.assert_frame_equal(merged.parameters(column), one.parameters(column), rtol=1e-9)
        else:
            pd.testing.assert_frame_equal(merged.counts(column), one.counts(column))
    np.testing.assert_allclose(merged.predict_proba(df).to_numpy(), one.predict_proba(df).to_numpy(), rtol=0, atol=1e-12)
