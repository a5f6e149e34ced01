"""One assertion that two fitted models are the same model (the engines, files, streams and
subtraction against ``fit`` in memory), and the JSON comparison it can add."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from nbapp import DataError, NaiveBayes


def assert_same_model(got: NaiveBayes, expected: NaiveBayes, rows: pd.DataFrame, *,
                      columns: Iterable[str] | None = None, rtol: float = 1e-12, atol: float = 1e-12,
                      proba_rtol: float = 0.0, same_json: bool = False) -> None:
    """The same classes and class counts; for every feature (or ``columns``) the same raw counts,
    exactly (the rows in any order: a streamed fit meets a vocabulary in another order), or, for
    a type without counts, the same parameters to ``rtol``; P(c | x) on ``rows`` to ``atol``
    (and ``proba_rtol``); with ``same_json``, the same model file up to that order
    (:func:`assert_same_json`)."""
    assert list(got.classes_) == list(expected.classes_)
    np.testing.assert_array_equal(got.class_counts_, expected.class_counts_)
    for column in expected.features_ if columns is None else columns:
        try:
            want = expected.counts(column)
        except DataError:
            pd.testing.assert_frame_equal(got.parameters(column), expected.parameters(column), rtol=rtol,
                                          obj=f"parameters({column})")
            continue
        have = got.counts(column)
        assert sorted(map(repr, have.index)) == sorted(map(repr, want.index)), f"counts({column}): other rows"
        pd.testing.assert_frame_equal(have.reindex(want.index), want, check_exact=True, obj=f"counts({column})")
    p_got, p_expected = got.predict_proba(rows), expected.predict_proba(rows)
    assert list(p_got.columns) == list(p_expected.columns)
    np.testing.assert_allclose(p_got.to_numpy(float), p_expected.to_numpy(float), rtol=proba_rtol, atol=atol)
    if same_json:
        assert_same_json(got, expected)


def assert_same_json(got: NaiveBayes, expected: NaiveBayes) -> None:
    """The two model files alike: counts equal, other numbers to 1e-12, the listed vocabulary
    (text 'terms', 'categories') compared in sorted order."""
    _assert_json_close(_canonical(json.loads(expected.to_json())), _canonical(json.loads(got.to_json())))


def _assert_json_close(a, b, path="$"):
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{path}: keys {set(a) ^ set(b)}"
        for k in a:
            _assert_json_close(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: lengths {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_json_close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            assert a == b, f"{path}: {a!r} vs {b!r}"
            return
        fa, fb = float(a), float(b)
        if math.isnan(fa) or math.isnan(fb):
            assert math.isnan(fa) and math.isnan(fb), f"{path}: {a} vs {b}"
        elif fa.is_integer() and fb.is_integer():
            assert fa == fb, f"{path}: count {a} vs {b}"
        else:
            assert math.isclose(fa, fb, rel_tol=1e-12, abs_tol=1e-15), f"{path}: {a!r} vs {b!r}"
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


def _canonical(obj):
    """The model JSON with the listed vocabulary (text 'terms', 'categories') in sorted
    order and the per-term rows reordered alike: the order in which a streamed fit meets
    the words is not part of the model (its counts / cpt / predictions are compared too)."""
    if isinstance(obj, list):
        return [_canonical(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    obj = {k: _canonical(v) for k, v in obj.items()}
    for key in ("terms", "categories"):
        keys = obj.get(key)
        if isinstance(keys, list) and keys and all(isinstance(k, (str, int, float)) for k in keys):
            order = sorted(range(len(keys)), key=lambda i: (str(type(keys[i])), keys[i]))
            for k, v in list(obj.items()):
                if isinstance(v, list) and len(v) == len(keys):
                    obj[k] = [v[i] for i in order]
    return obj
