"""A worked example as Markdown + LaTeX, and a Python snippet that reproduces it."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.errors import DataError
from nbapp.examples import example, load_example
from nbapp.lessons.worked_example import latex_text, worked_example_markdown, worked_example_snippet


def _fitted(key: str, **settings):
    ex = example(key)
    model = nbapp.NaiveBayes(features=ex.features, **{"alpha": ex.alpha, **settings})
    return model.fit(load_example(key), target=ex.target, weight=ex.weight), ex


@pytest.fixture(scope="module")
def tennis():
    model, ex = _fitted("tennis14", alpha=1.0)
    return model, ex, model.explain(ex.query)


def test_markdown_shows_the_seed_fractions_and_the_exact_posterior(tennis):
    model, ex, e = tennis
    md = worked_example_markdown(e, model=model)
    assert r"P(\text{Play}=\text{No}) = \frac{5}{14}" in md
    assert r"\frac{5}{12}" in md and r"\frac{1}{8}" in md          # P(Overcast | Yes), (| No)
    assert r"= \frac{15}{1694} \approx 0.008855" in md             # the joint of Yes at l = 1
    assert r"\frac{784}{1389} \approx 0.5644" in md                # exact posterior
    assert "**Prediction: Yes**" in md
    for step in ("### 1. Prior", "### 2.", "### 3.", "### 4. Evidence", "### 5. Posterior"):
        assert step in md


def test_markdown_at_l0_shows_the_zero_and_its_note():
    model, ex = _fitted("tennis14", alpha=0.0)
    md = worked_example_markdown(model.explain(ex.query), model=model)
    assert r"\cdot 0 \cdot" in md                  # P(Overcast | No) = 0 in the product
    assert r"= -\infty$$" in md
    assert "with no smoothing (l = 0)" in md


def test_markdown_of_gaussian_factors_gives_mean_and_variance():
    model, ex = _fitted("gender")
    md = worked_example_markdown(model.explain(ex.query), model=model)
    mean = model.gaussian("Height").at["male", "mean"]
    assert rf"\mathcal{{N}}(6;\ \mu={mean:.4g}" in md
    assert "**Prediction: female**" in md


def test_markdown_writes_joints_far_below_the_smallest_float():
    # 2,000 tokens: every joint is ~1e-5000, which is 0.0 as a float
    model, ex = _fitted("sentiment", alpha=1.0)
    e = model.explain({"text": " ".join(["awesome book"] * 1000)})
    assert (np.exp(e.joint_log) == 0.0).all()
    md = worked_example_markdown(e, model=model)
    assert r"\times 10^{-" in md
    exponents = [int(x) for x in re.findall(r"10\^\{(-\d+)\}", md)]
    assert min(exponents) < -1000


def test_labels_are_escaped_for_latex_and_markdown():
    assert latex_text("a_b & 50%") == r"\text{a\_b \& 50\%}"
    df = pd.DataFrame({"col|x": ["<b>1</b>", "2", "2", "1"], "y_1": ["a_b", "c", "c", "a_b"]})
    model = nbapp.NaiveBayes(features={"col|x": "categorical"}).fit(df, target="y_1")
    md = worked_example_markdown(model.explain({"col|x": "<b>1</b>"}), model=model)
    assert "<b>" not in md and r"\<b\>1\</b\>" in md
    assert r"col\|x" in md
    assert r"\text{a\_b}" in md


def test_snippet_from_a_built_in_example_runs_and_reproduces_tennis(tennis):
    model, ex, e = tennis
    code = worked_example_snippet(model, ex.query, example="tennis14")
    assert "load_example('tennis14')" in code and len(code.splitlines()) < 15
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)
    np.testing.assert_allclose(namespace["e"].posterior.to_numpy(), e.posterior.to_numpy())
    assert namespace["e"].posterior["Yes"] == pytest.approx(784 / 1389)


def test_snippet_with_settings_and_weights_reproduces_bikes():
    model, ex = _fitted("bikes", alpha=0.5, smoothing=nbapp.MEstimate(m=2.0),
                        priors={"veoride": 0.02, "private": 0.98})
    code = worked_example_snippet(model, ex.query, example="bikes")
    assert "weight='count'" in code and "nbapp.MEstimate(m=2.0, p=None, normalised=False)" in code
    namespace: dict = {}
    exec(code, namespace)
    np.testing.assert_allclose(namespace["e"].posterior.to_numpy(),
                               model.explain(ex.query).posterior.to_numpy())


def test_snippet_writes_a_spec_with_its_type_s_defaults_as_the_type_s_name():
    # the defaults came from a hand list of the text spec's options: a KDE() or Discretized()
    # was written out option by option
    from nbapp.lessons.worked_example import _features_literal

    literal = _features_literal({"a": nbapp.KDE(), "b": nbapp.Discretized(), "c": nbapp.Text(),
                                 "d": nbapp.Discretized(bins=3)})
    assert literal == "{'a': 'kde', 'b': 'discretized', 'c': 'text', 'd': nbapp.Discretized(bins=3, " \
                      "strategy='quantile', alpha=None)}"


def test_snippet_without_data_embeds_the_json_model():
    model, ex = _fitted("gender")
    row = {**ex.query, "Weight": np.float64(130.0)}
    code = worked_example_snippet(model, row)
    assert "from_json" in code and "np.float64" not in code
    namespace: dict = {}
    exec(code, namespace)
    np.testing.assert_allclose(namespace["e"].posterior.to_numpy(),
                               model.explain(row).posterior.to_numpy())


def test_snippet_from_a_csv_path(tmp_path):
    model, ex = _fitted("stolen_cars")
    path = tmp_path / "cars.csv"
    load_example("stolen_cars").to_csv(path, index=False)
    namespace: dict = {}
    exec(worked_example_snippet(model, ex.query, data_path=str(path)), namespace)
    assert namespace["e"].prediction == model.explain(ex.query).prediction == "No"


def test_missing_value_in_the_row_becomes_none():
    model, ex = _fitted("penguins")
    row = {**ex.query, "sex": np.nan}
    code = worked_example_snippet(model, row, example="penguins")
    assert "'sex': None" in code
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["e"].factors.at["sex", "status"] == "missing"


def test_unfitted_model_is_refused():
    with pytest.raises(DataError, match="Fit the model"):
        worked_example_snippet(nbapp.NaiveBayes(features={"a": "categorical"}), {"a": 1})


def test_posterior_shown_is_the_explanations_own_even_for_huge_joint_logs():
    # A long document gives joint logs near -1e15, where joint - evidence keeps only 1/8 of
    # a unit; the Markdown must show e.posterior (nbapp.logspace), as the app does.
    import dataclasses

    model, ex = _fitted("gender")
    e = model.explain(ex.query)
    far = dataclasses.replace(e, joint_log=e.joint_log - 1e15 - 0.3, log_evidence=e.log_evidence - 1e15 - 0.3)
    md = worked_example_markdown(far, model=model)
    for c in far.classes:
        line = next(l for l in md.splitlines() if rf"P(\text{{Gender}}=\text{{{c}}} \mid x)" in l)
        shown = float(line.rsplit("= ", 1)[1].rstrip("$").replace(r" \times 10^{", "e").rstrip("}"))
        assert shown == pytest.approx(e.posterior[c], rel=1e-3)


def test_snippet_reads_a_data_file_with_the_apps_reader(tmp_path):
    # Semicolons, decimal commas and an "N/A" token: pd.read_csv would read one column.
    path = tmp_path / "gender.csv"
    text = load_example("gender").to_csv(sep=";", decimal=",", index=False)
    path.write_text(text + "male;N/A;180;12\n")
    data = nbapp.load_table(path.read_bytes(), str(path)).frame
    ex = example("gender")
    model = nbapp.NaiveBayes(features=ex.features).fit(data, target=ex.target)
    code = worked_example_snippet(model, ex.query, data_path=str(path))
    assert "from pathlib import Path" in code and "nbapp.load_table(Path(p).read_bytes(), p).frame" in code
    namespace: dict = {}
    exec(code, namespace)
    np.testing.assert_allclose(namespace["e"].posterior.to_numpy(), model.explain(ex.query).posterior.to_numpy())


def test_snippet_reads_a_corpus_with_load_corpus(tmp_path):
    path = tmp_path / "corpus.tsv"
    path.write_text("spam\tWIN a free prize now\nham\tsee you at lunch\nspam\tfree cash\nham\tlunch now?\n")
    data = nbapp.load_corpus(path.read_bytes(), str(path)).frame
    model = nbapp.NaiveBayes(features={"text": "text"}).fit(data, target="label")
    row = {"text": "free lunch"}
    code = worked_example_snippet(model, row, data_path=str(path), corpus=True)
    assert "nbapp.load_corpus(Path(p).read_bytes(), p).frame" in code
    namespace: dict = {}
    exec(code, namespace)
    np.testing.assert_allclose(namespace["e"].posterior.to_numpy(), model.explain(row).posterior.to_numpy())
