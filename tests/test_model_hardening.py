"""The model under hostile input (issue 15): float64 edges, huge weights and settings, ID-like
targets, repeated column names, labels that would break the Markdown export."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nbapp import DataError, NaiveBayes, evaluate

FRAME = pd.DataFrame({"x": [0.0, 1.0, 2.0, 10.0, 14.0, 18.0], "y": ["a", "a", "a", "b", "b", "b"]})


def test_a_value_far_beyond_the_data_still_ranks_the_classes():
    # (1e160 - mu)^2 / var overflows float64 for both classes; before, every class became
    # impossible and the row was "undetermined". Class b has the wider spread (var 10.67 vs
    # 0.67), so its density falls off more slowly: it wins by far.
    m = NaiveBayes({"x": "gaussian"}).fit(FRAME, "y")
    far = pd.DataFrame({"x": [1e160, -1e160, 5.0]})
    assert not m.undetermined(far).any()
    assert m.predict(far).tolist()[:2] == ["b", "b"]
    proba = m.predict_proba(far).to_numpy()
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1.0)
    assert m.explain({"x": 1e160}).prediction == "b"


def test_values_so_small_that_their_variance_underflows_are_refused_by_name():
    tiny = pd.DataFrame({"x": [1e-300, 2e-300, 3e-300, 5e-300], "y": ["a", "a", "b", "b"]})
    with pytest.raises(DataError, match=r"Column 'x' holds values so small .* multiply by a power of ten"):
        NaiveBayes({"x": "gaussian"}).fit(tiny, "y")


def test_weights_beyond_the_stated_bound_are_refused_before_they_overflow():
    heavy = FRAME.assign(w=[1e200, 1, 1, 1, 1, 1])
    with pytest.raises(DataError, match=r"weights must be numbers between 0 and 1e\+15"):
        NaiveBayes({"x": "gaussian"}).fit(heavy, "y", weight="w")


def test_bad_numbers_are_named_as_the_user_wrote_them_not_as_numpy_reprs():
    with pytest.raises(DataError, match=r"holds -3\.0 in row 2;"):
        NaiveBayes({"x": "gaussian"}).fit(FRAME.assign(w=[1, 1, -3.0, 1, 1, 1]), "y", weight="w")
    with pytest.raises(DataError, match=r"row 1 holds inf \(infinite\)"):
        NaiveBayes({"x": "gaussian"}).fit(FRAME.assign(x=[1.0, np.inf, 2, 3, 4, 5]), "y")
    with pytest.raises(DataError, match=r"but row 1 holds 2\.5; fix it"):
        evaluate.cross_validate(lambda: NaiveBayes({"x": "gaussian"}), FRAME.assign(w=[1, 2.5, 1, 1, 1, 1]), "y",
                                k=2, weight="w")


@pytest.mark.parametrize("setting", [{"alpha": 1e308}, {"prior_alpha": 1e308}, {"var_smoothing": 1e308}])
def test_huge_settings_are_refused_at_construction(setting):
    with pytest.raises(DataError, match="between 0 and"):
        NaiveBayes({"x": "gaussian"}, **setting)


def test_an_id_like_target_is_refused_before_its_tables_are_allocated():
    import tracemalloc

    n = 200_000
    ids = pd.DataFrame({"c": [f"v{i}" for i in range(n)], "y": [f"id{i}" for i in range(n)]})
    tracemalloc.start()                 # numpy reports its buffers to tracemalloc
    try:
        with pytest.raises(DataError, match=r"200,000 values and the target 200,000 classes.*ID column"):
            NaiveBayes({"c": "categorical"}).fit(ids, "y")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the table would take n * n * 8 bytes = 320 GB; the refusal costs what the codes of the rows do
    # (about 34 MB, mostly the frame's strings hashed once); bench/bench_refusals.py times it
    assert peak < 100 * 2**20


def test_two_columns_of_one_name_at_predict_are_refused_by_name():
    m = NaiveBayes({"x": "gaussian"}).fit(FRAME, "y")
    twice = pd.DataFrame([[1.0, 2.0]], columns=["x", "x"])
    with pytest.raises(DataError, match="two columns named 'x'"):
        m.predict(twice)


def test_a_label_with_a_newline_or_a_url_stays_inside_its_formula_in_the_markdown_export():
    from nbapp.lessons.worked_example import worked_example_markdown

    frame = pd.DataFrame({"x": [0.0, 1.0, 2.0, 10.0], "y": ["line one\nline two", "line one\nline two",
                                                             "see https://evil.example", "see https://evil.example"]})
    m = NaiveBayes({"x": "gaussian"}).fit(frame, "y")
    text = worked_example_markdown(m.explain({"x": 1.0}), model=m)
    for block in text.split("$$")[1::2]:
        assert "\n" not in block
    prose = "".join(text.split("$$")[0::2])          # outside math, a bare URL would become a link
    assert "evil.example" in prose and "https://evil" not in prose


def test_an_exact_cpt_of_a_hundred_thousand_categories_is_linear(monkeypatch):
    from nbapp.smoothing import Lidstone

    n = 99_322
    df = pd.DataFrame({"c": [f"v{i}" for i in range(n)], "y": ["a", "b"] * (n // 2)})
    m = NaiveBayes({"c": "categorical"}).fit(df, "y")
    # linear: the K pseudo-counts are made a fixed number of times, not once per row (before: K^2
    # of them, 7.2 s; bench/bench_refusals.py times it)
    made = 0
    pseudo_fractions = Lidstone.pseudo_fractions

    def counted(self, k: int) -> list:
        nonlocal made
        made += k
        assert made <= 3 * n, "the pseudo-counts were made more than 3 times: not linear"
        return pseudo_fractions(self, k)

    monkeypatch.setattr(Lidstone, "pseudo_fractions", counted)
    table = m.cpt("c", exact=True)
    assert made > 0 and table.shape == (n, 2)
    assert str(table.loc["v0", "a"]) == f"2/{n // 2 + n}"


@pytest.mark.parametrize("value", ["1_000", "heavy", [1]])
def test_explain_and_predict_read_numbers_by_one_rule(value):
    m = NaiveBayes({"x": "gaussian"}).fit(FRAME, "y")
    with pytest.raises(DataError, match="not a number"):
        m.explain({"x": value})
    with pytest.raises(DataError, match="not a number"):
        m.predict(pd.DataFrame({"x": pd.Series([value], dtype=object)}))
    assert m.explain({"x": True}).logs.loc["x"].tolist() == pytest.approx(
        m.joint_log_likelihood(pd.DataFrame({"x": [1.0]})).iloc[0].to_numpy() - m.log_prior_)


def test_a_row_of_weight_zero_does_not_count_as_spread():
    # found by the weights property test: the values that count are all 0.25
    df = pd.DataFrame({"x": [0.0, 0.25, 0.25, 0.25], "y": ["a", "a", "b", "b"], "w": [0, 1, 1, 1]})
    m = NaiveBayes({"x": "gaussian"}).fit(df, "y", weight="w")
    assert m.gaussian("x")["mean"].tolist() == [0.25, 0.25]


def _tiny_model_document() -> dict:
    import json

    return json.loads(NaiveBayes({"x": "gaussian"}).fit(FRAME, "y").to_json())


def test_a_model_file_with_a_30_mb_class_name_is_refused_at_parse_with_a_short_message(monkeypatch):
    import json

    from nbapp.persist import MAX_BYTES, MAX_NAME_CHARS

    doc = _tiny_model_document()
    doc["classes"][1] = "b" * 30_000_000            # under the 32 MB cap of the file
    text = json.dumps(doc).encode()
    assert len(text) < MAX_BYTES

    def never(*args, **kwargs):
        raise AssertionError("a model was built from the file")

    # quickly: refused by the parse's checks, before any model, table or page is built from it
    monkeypatch.setattr(NaiveBayes, "from_settings", never)
    with pytest.raises(DataError, match=r"classes\[1\] is a name of 30,000,000 characters, starting 'bbbb") as err:
        NaiveBayes.from_json(text)
    message = str(err.value)
    assert len(message) < 400 and message.count("b" * 41) == 0   # quotes 40 characters of the name at most
    assert f"at most {MAX_NAME_CHARS:,} characters" in message


@pytest.mark.parametrize("where", ["column", "category", "target", "weight"])
def test_long_names_anywhere_in_a_model_file_are_refused_by_field(where):
    import json

    frame = pd.DataFrame({"x": [0.0, 1.0, 2.0, 10.0], "c": ["u", "v", "u", "v"], "y": ["a", "a", "b", "b"]})
    doc = json.loads(NaiveBayes({"x": "gaussian", "c": "categorical"}).fit(frame, "y").to_json())
    long = "n" * 5000
    if where == "column":
        doc["settings"]["features"][long] = doc["settings"]["features"].pop("x")
        expected = r"settings\.features has a key of 5,000 characters"
    elif where == "category":
        block = next(b for b in doc["blocks"] if b["columns"] == ["c"])
        key = next(k for k, v in block["stats"].items() if v == ["u", "v"])
        block["stats"][key][0] = long
        expected = rf"blocks\[\d\]\.stats\.{key}\[0\] is a name of 5,000 characters"
    elif where == "target":
        doc["target"] = long
        expected = r"target is a name of 5,000 characters"
    else:
        doc["weight"] = long
        expected = r"weight is a name of 5,000 characters"
    with pytest.raises(DataError, match=expected):
        NaiveBayes.from_json(json.dumps(doc))


def test_a_model_with_a_name_the_loader_would_refuse_is_not_saved():
    from nbapp.persist import MAX_NAME_CHARS

    long = "y" * (MAX_NAME_CHARS + 1)
    m = NaiveBayes({"x": "gaussian"}).fit(FRAME.assign(y=["a", "a", "a", long, long, long]), "y")
    with pytest.raises(DataError, match=r"^The model cannot be saved: classes\[1\] is a name of 1,001 characters"):
        m.to_json()
    ok = NaiveBayes({"x": "gaussian"}).fit(FRAME.assign(y=["a"] * 3 + ["y" * MAX_NAME_CHARS] * 3), "y")
    assert NaiveBayes.from_json(ok.to_json()).classes_ == ok.classes_       # the cap itself is allowed


def test_the_longest_token_pattern_fits_in_a_model_file():
    from nbapp.persist import MAX_NAME_CHARS
    from nbapp.text._options import _MAX_PATTERN_LENGTH

    assert _MAX_PATTERN_LENGTH <= MAX_NAME_CHARS
