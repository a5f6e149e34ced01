"""The fast paths of categorical and Gaussian scoring give the numbers of the plain paths.

Arrow string columns are coded by pyarrow (nbapp._encode) and their codes remembered while the
array lives; Gaussian rows are scored in blocks. Each is checked against the slow, obvious
computation on the same data.
"""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import nbapp
from mixed_data import ARROW_TEXT
from nbapp import _encode as encode
from nbapp.blocks.categorical import MISSING_CODE, UNSEEN_CODE
from nbapp.blocks import gaussian


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    colour = np.array(["red", "green", "blue", "", "teal"], dtype=object)[(rng.integers(0, 5, n) + y) % 5]
    colour[rng.random(n) < 0.05] = None
    x = rng.normal(y, 1.0, n)
    x[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame({"colour": pd.array(colour, dtype=ARROW_TEXT), "x": x,
                         "y": pd.array(np.array(["a", "b", "c"], dtype=object)[y], dtype=ARROW_TEXT)})


def test_arrow_codes_equal_pandas_factorize_with_missing_values_and_several_chunks():
    chunked = pa.chunked_array([["b", None, "a"], ["a", "c", None, "b"]], type=pa.large_string())
    series = pd.Series(pd.arrays.ArrowStringArray(chunked))
    codes, uniques = encode.factorize(series)
    ref_codes, ref_uniques = pd.factorize(series.astype(object), use_na_sentinel=True)
    assert list(uniques) == list(ref_uniques) == ["b", "a", "c"]
    assert codes.tolist() == ref_codes.tolist() == [0, -1, 1, 1, 2, -1, 0]


def test_string_positions_name_missing_and_unseen_cells_and_skip_numbers_among_the_categories():
    array = pa.chunked_array([["b", None, "zz", "1", "a"]])
    out = encode.string_positions(array, [1, "a", "b"], MISSING_CODE, UNSEEN_CODE)
    # the number 1 never matches the text "1" (as the object path: keys differ)
    assert out.tolist() == [2, MISSING_CODE, UNSEEN_CODE, UNSEEN_CODE, 1]


@pytest.mark.parametrize("rows", [1_000, 60_000])      # below and above the size whose codes are remembered
def test_arrow_and_object_columns_give_the_same_model_and_probabilities(rows):
    arrow = _frame(rows)
    plain = arrow.astype({"colour": object, "y": object})
    features = {"colour": "categorical", "x": "gaussian"}
    m_arrow = nbapp.NaiveBayes(features).fit(arrow, "y")
    m_plain = nbapp.NaiveBayes(features).fit(plain, "y")
    assert m_arrow.to_json() == m_plain.to_json()
    test = arrow.iloc[::7]
    np.testing.assert_array_equal(m_arrow.predict_proba(arrow).to_numpy(), m_plain.predict_proba(plain).to_numpy())
    np.testing.assert_array_equal(m_arrow.predict_proba(test).to_numpy(), m_plain.predict_proba(test.astype(object)).to_numpy())


def test_remembered_codes_follow_a_cell_set_after_the_fit():
    df = _frame(60_000)
    model = nbapp.NaiveBayes({"colour": "categorical", "x": "gaussian"}).fit(df, "y")
    before = model.predict_proba(df)
    df.loc[0, "colour"] = "never seen"          # pandas gives the column a new Arrow array
    df.loc[1, "colour"] = None
    after = model.predict_proba(df)
    plain = model.predict_proba(df.astype({"colour": object}))
    np.testing.assert_array_equal(after.to_numpy(), plain.to_numpy())
    explained = model.explain(df.iloc[0])
    assert explained.factors.loc["colour", "status"] == "unseen"
    np.testing.assert_array_equal(after.iloc[2:].to_numpy(), before.iloc[2:].to_numpy())


def test_remembered_codes_are_forgotten_with_their_array():
    df = _frame(60_000)
    encode._CODES.clear()
    nbapp.NaiveBayes({"colour": "categorical"}).fit(df, "y")
    assert len(encode._CODES) == 2                # colour and the labels
    del df
    import gc

    gc.collect()
    assert len(encode._CODES) == 0


def test_gaussian_scoring_in_blocks_equals_the_sum_of_log_densities():
    df = _frame(3 * gaussian._BLOCK_ROWS + 11, seed=3)
    df["x2"] = np.random.default_rng(1).normal(0, 2, len(df))
    model = nbapp.NaiveBayes({"x": "gaussian", "x2": "gaussian"}).fit(df, "y")
    scored = df.copy()
    scored.loc[5, "x"] = 1e200                    # a far tail: the extended-precision path
    block = model.blocks_[0]
    joint = block.joint_log(scored, 3)
    with np.errstate(over="ignore"):
        dens = block.log_density(scored[["x", "x2"]].to_numpy())
    expected = np.where(np.isnan(dens), 0.0, dens).sum(axis=2)
    rows = np.arange(len(df)) != 5
    np.testing.assert_allclose(joint[rows], expected[rows], rtol=1e-13)
    far = block._extended_log_density(scored[["x", "x2"]].to_numpy()[5:6])[0].sum(axis=1)   # long double
    assert np.isfinite(joint[5]).any() and np.argmax(joint[5]) == np.argmax(far)


def test_remembered_codes_take_one_byte_a_row_and_stay_within_their_budget(monkeypatch):
    frames = [_frame(60_000, seed=s) for s in range(3)]
    encode._CODES.clear()
    monkeypatch.setattr(encode, "_CACHE_BYTES", 2 * 60_000)     # room for two int8 columns
    for df in frames:
        encode.factorize(df["colour"])
    kept = list(encode._CODES.values())
    assert len(kept) == 2 and all(codes.dtype == np.int8 for _, codes, _ in kept)
    assert kept[-1][0]() is encode.arrow_strings(frames[-1]["colour"])     # the oldest went first
    codes, uniques = encode.factorize(frames[-1]["colour"])
    ref_codes, ref_uniques = pd.factorize(frames[-1]["colour"].astype(object), use_na_sentinel=True)
    assert codes.tolist() == ref_codes.tolist() and list(uniques) == list(ref_uniques)
