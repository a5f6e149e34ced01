"""Statistics are values (issue 10): copies never share mutable state, tables are keyed by the
class values, and a merge of parts is one fit. Each test failed before the change."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import DataError, NaiveBayes

FEATURES = {"colour": "categorical", "size": "gaussian", "words": "text", "n": "multinomial", "visits": "poisson"}


def frame(seed: int, rows: int = 30) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.choice(["spam", "ham", "eggs"], rows)
    return pd.DataFrame({
        "colour": rng.choice(["red", "green", None], rows),
        "size": np.where(rng.random(rows) < 0.1, np.nan, rng.normal(3, 1, rows) + (y == "spam")),
        "words": rng.choice(["buy now", "hello friend", "free money now", None], rows),
        "n": rng.integers(0, 4, rows),
        "visits": rng.poisson(2, rows),
        "y": y,
    })


@pytest.mark.parametrize("derive", [lambda m: m.with_priors("uniform"), lambda m: m.with_smoothing(alpha=0.5)])
def test_a_partial_fit_of_a_derived_model_leaves_the_original_untouched(derive):
    m = NaiveBayes(FEATURES).fit(frame(0), "y")
    before = m.to_json()
    proba = m.predict_proba(frame(1))
    copy = derive(m)
    copy.partial_fit(frame(2))
    assert m.to_json() == before
    pd.testing.assert_frame_equal(m.predict_proba(frame(1)), proba)
    assert copy.class_counts_.sum() == 60 and m.class_counts_.sum() == 30


def test_fitted_statistics_are_read_only():
    m = NaiveBayes(FEATURES).fit(frame(0), "y")
    for stats in m.stats_.blocks:
        for value in vars(stats).values():
            if isinstance(value, np.ndarray):
                with pytest.raises(ValueError):
                    value[...] = 0
    with pytest.raises(ValueError):
        m.class_counts_[0] = 99


def test_classes_one_and_string_one_are_two_columns_of_every_table():
    df = pd.DataFrame({"x": ["a", "a", "a", "b"], "y": pd.Series([1, 1, 1, "1"], dtype=object)})
    m = NaiveBayes({"x": "categorical"}).fit(df, "y")
    assert m.classes_ == [1, "1"]
    e = m.explain({"x": "a"})
    expected = m.predict_proba(pd.DataFrame({"x": ["a"]})).iloc[0]
    assert list(e.probabilities.columns) == [1, "1"]
    # P(c) P(x = a | c): (3/4)(4/5) and (1/4)(1/3) with l = 1, normalised: 36/41 and 5/41
    assert e.posterior.tolist() == pytest.approx([36 / 41, 5 / 41])
    assert e.posterior.tolist() == pytest.approx(expected.tolist())
    assert e.probabilities.loc["x"].tolist() == pytest.approx([4 / 5, 1 / 3])
    assert e.fractions.loc["prior"].tolist() == [nbapp.explain.Fraction(3, 4), nbapp.explain.Fraction(1, 4)]


def test_numbers_and_booleans_share_one_class_order_in_the_model_and_the_app():
    from nbapp.ordering import classes_of

    df = pd.DataFrame({"x": ["a", "b", "a", "b"], "y": pd.Series([True, 0, True, 0], dtype=object)})
    m = NaiveBayes({"x": "categorical"}).fit(df, "y")
    assert m.classes_ == [0, True] == classes_of(df["y"])
    assert NaiveBayes.from_json(m.to_json()).classes_ == [0, True]      # booleans survive the model file


def test_merge_of_parts_equals_one_fit_and_leaves_the_parts_unchanged():
    parts = [frame(s) for s in (3, 4, 5)]
    whole = pd.concat(parts, ignore_index=True)
    fitted = [NaiveBayes(FEATURES, alpha=0.5).fit(p, "y") for p in parts]
    saved = [m.to_json() for m in fitted]
    merged = nbapp.merge(fitted)
    one = NaiveBayes(FEATURES, alpha=0.5).fit(whole, "y")
    assert [m.to_json() for m in fitted] == saved
    np.testing.assert_array_equal(merged.class_counts_, one.class_counts_)
    for column in ("colour", "words", "n"):
        pd.testing.assert_frame_equal(merged.counts(column), one.counts(column))
    pd.testing.assert_frame_equal(merged.gaussian("size"), one.gaussian("size"), rtol=1e-12)
    pd.testing.assert_frame_equal(merged.parameters("visits"), one.parameters("visits"))
    np.testing.assert_allclose(merged.predict_proba(whole), one.predict_proba(whole), rtol=0, atol=1e-12)
    assert fitted[0].merge(fitted[1]).class_counts_.sum() == 60


def test_models_with_other_settings_do_not_merge():
    a = NaiveBayes(FEATURES, alpha=1).fit(frame(0), "y")
    b = NaiveBayes(FEATURES, alpha=2).fit(frame(1), "y")
    with pytest.raises(DataError, match=r"other settings than model 0 \(alpha: 2\.0 vs 1\.0\)"):
        nbapp.merge([a, b])
    with pytest.raises(DataError, match="not fitted"):
        a.merge(NaiveBayes(FEATURES))


def test_statistics_travel_as_checked_json():
    from nbapp.persist import stats_from_json, stats_to_json

    m = NaiveBayes(FEATURES).fit(frame(7), "y")
    back = stats_from_json(NaiveBayes(FEATURES), stats_to_json(m.stats_))
    rebuilt = NaiveBayes(FEATURES).fit_stats(back, "y")
    assert rebuilt.to_json() == m.to_json()
    with pytest.raises(DataError, match="counts cannot be negative"):
        stats_from_json(NaiveBayes(FEATURES), stats_to_json(m.stats_).replace('"counts": [[', '"counts": [[-', 1))


def test_a_merge_in_any_order_writes_the_very_file_of_one_fit():
    # text terms are kept in the order first seen: the file writes them sorted. (Counts add
    # exactly; Gaussian moments merged in another order may differ in the last bit, so not here.)
    counted = {c: t for c, t in FEATURES.items() if t != "gaussian"}
    df = frame(8, 60)
    hello = (df["words"] == "hello friend").to_numpy()     # its words sort after the others' "buy", "free"
    first, second = df[~hello], df[hello]
    one = NaiveBayes(counted).fit(df, "y").to_json()
    assert nbapp.merge([NaiveBayes(counted).fit(second, "y"), NaiveBayes(counted).fit(first, "y")]).to_json() == one


def test_blocks_summarised_on_threads_give_the_same_statistics_and_errors(monkeypatch):
    """Large frames are summarised one block per thread; the statistics and the first block's
    error must be those of the one-thread pass."""
    import nbapp.threads as threads
    from nbapp.persist import stats_to_json

    rng = np.random.default_rng(3)
    n = 5_000
    df = pd.DataFrame({"a": rng.choice(["x", "y", "z"], n), "b": rng.normal(size=n),
                       "c": rng.integers(0, 5, n), "d": rng.choice(["p", "q"], n),
                       "y": rng.choice(["no", "yes"], n)})
    types = {"a": "categorical", "b": "gaussian", "c": "multinomial", "d": "bernoulli"}

    def stats(threshold: int) -> str:
        monkeypatch.setattr(threads, "THREADED_ROWS", threshold)
        return stats_to_json(NaiveBayes(types).summarize(df, "y"))

    assert stats(1) == stats(10**9)
    bad = df.assign(b=df["b"].astype(object).where(df.index != 7, "N/A?"), c=df["c"] - 10)
    messages = []
    for threshold in (1, 10**9):
        monkeypatch.setattr(threads, "THREADED_ROWS", threshold)
        with pytest.raises(DataError) as err:
            NaiveBayes(types).summarize(bad, "y")
        messages.append(str(err.value))
    assert messages[0] == messages[1] and "'b'" in messages[0]   # the Gaussian block comes first
