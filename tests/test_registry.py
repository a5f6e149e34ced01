"""The type protocol (issue 22, design §1): every type declares what the edges need, the
registry is read when asked, specs and settings have one JSON form each."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import DataError
from nbapp.blocks import (IGNORE, REGISTRY, block_class, feature_types, reads_numbers, register,
                          unregister)
from nbapp.blocks.base import BASELINE_ENCODINGS, VALUE_KINDS
from nbapp.blocks.categorical import CategoricalBlock
from nbapp.blocks.gaussian import GaussianBlock
from nbapp.blocks.multinomial import MultinomialBlock
from nbapp.specs import FEATURE_KINDS, parse_features, spec_from_dict
from renamed import renamed

BUILT_IN = ("categorical", "bernoulli", "multinomial", "gaussian", "text", "poisson", "kde", "discretized")


TwinBlock = renamed(GaussianBlock, "twin", "Twin")
Twin = TwinBlock.spec_type
TagBlock = renamed(CategoricalBlock, "tag", "Tag")
TallyBlock = renamed(MultinomialBlock, "tally", "Tally")


@pytest.fixture
def twin():
    register(TwinBlock)
    yield TwinBlock
    unregister("twin")


@pytest.fixture
def tag():
    register(TagBlock)
    yield TagBlock
    unregister("tag")


@pytest.mark.parametrize("kind", BUILT_IN)
def test_every_built_in_type_declares_what_the_edges_need(kind):
    block = REGISTRY[kind]
    assert block.kind == kind == block.spec_type.kind
    assert block.title and block.description.strip()
    assert block.value_kind in VALUE_KINDS
    assert block.baseline is None or block.baseline in BASELINE_ENCODINGS


def test_the_built_in_types_are_registered_in_the_app_s_order():
    assert feature_types() == (*BUILT_IN, IGNORE)


def test_a_registered_type_is_a_choice_everywhere_and_unregistering_forgets_it(twin):
    assert feature_types()[-2:] == ("twin", IGNORE)
    assert FEATURE_KINDS["twin"] is Twin and "twin" in list(FEATURE_KINDS)
    assert parse_features({"h": "twin"}) == {"h": Twin()}
    assert spec_from_dict({"kind": "twin"}) == Twin()
    unregister("twin")
    assert "twin" not in feature_types() and "twin" not in FEATURE_KINDS
    with pytest.raises(DataError, match="unknown feature type 'twin'"):
        parse_features({"h": "twin"})
    register(TwinBlock)          # the fixture unregisters it


def test_register_returns_the_class_and_is_idempotent(twin):
    assert register(TwinBlock) is TwinBlock


def test_register_refuses_a_type_that_does_not_declare_itself():
    class Nameless(GaussianBlock):
        kind = "nameless"
        spec_type = Twin           # whose kind is another

    with pytest.raises(TypeError, match="spec_type must be a Spec class whose kind is 'nameless'"):
        register(Nameless)

    class Clash(GaussianBlock):
        title = "Another Gaussian"

    with pytest.raises(ValueError, match="'gaussian' is registered already"):
        register(Clash)

    class Vague(TwinBlock):
        value_kind = "colour"

    with pytest.raises(TypeError, match="value_kind must be one of"):
        register(Vague)
    assert "nameless" not in REGISTRY and REGISTRY["gaussian"] is GaussianBlock


def test_an_unknown_kind_is_refused_naming_the_known_ones():
    with pytest.raises(DataError, match="'spline' is not a feature type; use one of: categorical, .*, ignore"):
        block_class("spline")


@pytest.mark.parametrize("kind, numbers", [("categorical", False), ("bernoulli", False), ("text", False),
                                           ("gaussian", True), ("kde", True), ("discretized", True),
                                           ("poisson", True), ("multinomial", True)])
def test_reads_numbers_follows_the_value_kind(kind, numbers):
    assert reads_numbers(FEATURE_KINDS[kind]()) is numbers


SPECS = [nbapp.Categorical(alpha=0.5, categories=["a", "b"], unseen="smooth"), nbapp.Bernoulli(positive="yes"),
         nbapp.Multinomial(alpha=2), nbapp.Gaussian(variance="pooled"), nbapp.Poisson(a=1, b=2),
         nbapp.KDE(bandwidth=0.3), nbapp.Discretized(bins=3, strategy="mdl"),
         nbapp.Text(nbapp.text.TextOptions(ngram_range=(1, 2), stop_words=["the"]), event_model="bernoulli")]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.kind)
def test_a_spec_round_trips_through_its_json_form(spec):
    text = json.dumps(spec.to_dict())
    back = type(spec).from_dict(json.loads(text))
    assert back == spec and hash(back) == hash(spec)
    assert spec_from_dict(json.loads(text)) == spec


def test_a_spec_refuses_unknown_and_malformed_options_by_name():
    with pytest.raises(DataError, match=r"feature 'x': the model file gives unknown options \['bins'\] for a gaussian"):
        nbapp.Gaussian.from_dict({"kind": "gaussian", "bins": 3}, "feature 'x'")
    with pytest.raises(DataError, match="KDE bandwidth must be"):
        nbapp.KDE.from_dict({"kind": "kde", "bandwidth": -1})
    with pytest.raises(DataError, match="min_df"):
        nbapp.Text.from_dict({"kind": "text", "options": {"min_df": -3}})


# -- the model's settings as one value -------------------------------------------------------

def test_settings_are_a_frozen_hashable_value_with_a_json_form():
    s = nbapp.Settings(alpha=0, smoothing=nbapp.MEstimate(2, p=0.5), prior_alpha=1,
                       priors={"yes": 0.25, "no": 0.75}, var_smoothing=1e-6, variance="pooled",
                       var_smoothing_mode="per_feature")
    assert s.priors == (("no", 0.75), ("yes", 0.25))                # given priors in class order
    assert s == nbapp.Settings(**{**s.kwargs(), "priors": {"no": 0.75, "yes": 0.25}})
    assert len({s, dataclasses.replace(s)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.alpha = 1                                                  # type: ignore[misc]
    assert nbapp.Settings.from_dict(json.loads(json.dumps(s.to_dict()))) == s


@pytest.mark.parametrize("changes, message", [
    ({"alpha": -1}, "between 0 and"), ({"variance": "bogus"}, "variance must be one of"),
    ({"var_smoothing_mode": "x"}, "var_smoothing_mode must be one of"), ({"smoothing": 3}, "smoothing must be"),
    ({"priors": {"a": 0.4, "b": 0.4}}, "sum to 0.8"), ({"var_smoothing": np.inf}, "var_smoothing must be"),
])
def test_settings_are_checked_where_they_are_made(changes, message):
    with pytest.raises(DataError, match=message):
        nbapp.Settings(**changes)


def test_the_model_gives_its_settings_back_and_is_made_from_them():
    s = nbapp.Settings(alpha=0.5, priors="uniform", variance="unbiased")
    m = nbapp.NaiveBayes.from_settings({"x": "gaussian", "c": "categorical"}, s)
    assert m.settings == s and m.alpha == 0.5 and m.variance == "unbiased"
    assert nbapp.NaiveBayes({"x": "gaussian"}, **s.kwargs()).settings == s
    df = pd.DataFrame({"x": [1.0, 2, 3, 4], "c": list("abab"), "y": list("ppqq")})
    moved = m.fit(df, "y").with_priors({"p": 0.1, "q": 0.9})
    assert moved.settings == dataclasses.replace(s, priors={"p": 0.1, "q": 0.9}) and m.settings == s


def test_the_model_file_writes_and_reads_its_settings_through_the_one_value():
    df = pd.DataFrame({"x": [1.0, 2, 3, 4], "c": list("abab"), "y": list("ppqq")})
    s = nbapp.Settings(smoothing=nbapp.BetaPrior(2, 1), priors={"p": 0.3, "q": 0.7})
    m = nbapp.NaiveBayes.from_settings({"x": "gaussian", "c": "bernoulli"}, s).fit(df, "y")
    saved = json.loads(m.to_json())["settings"]
    assert {k: v for k, v in saved.items() if k != "features"} == s.to_dict()
    assert nbapp.NaiveBayes.from_json(m.to_json()).settings == s


def test_settings_written_before_an_option_existed_still_read():
    old = nbapp.Settings(smoothing=nbapp.MEstimate(2)).to_dict()
    del old["var_smoothing_mode"], old["smoothing"]["normalised"]
    back = nbapp.Settings.from_dict(old)
    assert back.var_smoothing_mode == "global" and back.smoothing.normalised is True
    with pytest.raises(DataError, match=r"settings: unknown key 'colour'"):
        nbapp.Settings.from_dict({**old, "colour": 1})
    with pytest.raises(DataError, match=r"settings has no 'alpha'"):
        nbapp.Settings.from_dict({k: v for k, v in old.items() if k != "alpha"})


# -- the edges ask the type ------------------------------------------------------------------

def test_the_file_scanners_read_a_registered_number_type_as_numbers(twin, tmp_path):
    # scale/files.py listed the numeric types by name: a new one was read as text, and a bad
    # cell was not named by its file line as a number column's is.
    from nbapp.scale import cross_validate_file, fit_file

    df = pd.DataFrame({"h": [1.5, 2.0, 2.5, 7.0, 8.0, np.nan] * 5, "y": list("aaabbb") * 5})
    df.to_csv(tmp_path / "t.csv", index=False, na_rep="?")
    model = fit_file(nbapp.NaiveBayes({"h": "twin"}), tmp_path / "t.csv", "y")
    assert model.to_json() == nbapp.NaiveBayes({"h": "twin"}).fit(df, "y").to_json()
    assert cross_validate_file(nbapp.NaiveBayes({"h": "twin"}), tmp_path / "t.csv", "y", k=3).scores.n == 30
    (tmp_path / "bad.csv").write_text("h,y\n0x10,a\n2,a\n7,b\n8,b\n")
    for kind in ("gaussian", "twin"):
        with pytest.raises(DataError, match=r"Column 'h' is numeric but data row 0 of .*bad.csv' \(line 2"):
            fit_file(nbapp.NaiveBayes({"h": kind}), tmp_path / "bad.csv", "y")


def test_density_choices_are_the_registered_types_that_declare_one(twin):
    from nbapp.choices import fit_comparison_plot, numeric_choices

    df = pd.DataFrame({"v": [0, 1, 1, 2, 3, 5, 4, 6] * 3, "y": list("ppppqqqq") * 3})
    assert numeric_choices(df, "v") == ["gaussian", "poisson", "kde", "twin"]
    assert numeric_choices(df.assign(v=df["v"] - 0.5), "v") == ["gaussian", "kde", "twin"]   # not counts
    m = nbapp.NaiveBayes({"v": "poisson"}).fit(df, "y")
    curves = fit_comparison_plot(m, "v", df).curves
    gaussian, twin_curve = (curves[(curves["type"] == k) & (curves["class"] == "p")] for k in ("gaussian", "twin"))
    np.testing.assert_array_equal(gaussian["density"], twin_curve["density"])
    poisson = curves[curves["type"] == "poisson"]["x"]
    assert (poisson == poisson.round()).all() and poisson.min() >= 0         # a count's points


def test_dependence_codes_a_column_as_its_type_says(tag):
    from nbapp.dependence import conditional_mutual_information

    df = pd.DataFrame({"a": list("uvuvuvuu"), "b": list("uvvvuuvu"), "t": ["hi there"] * 8,
                       "x": [1.0, 2, 3, 4, 5, 6, 7, 8], "y": list("ppppqqqq")})
    types = {"a": "categorical", "b": "categorical", "t": "text", "x": "gaussian"}
    as_tags = conditional_mutual_information(df, "y", {**types, "a": "tag", "b": "tag"})
    pd.testing.assert_frame_equal(as_tags, conditional_mutual_information(df, "y", types))
    assert list(as_tags.index) == ["a", "b", "x"]                                 # text is not coded


def test_the_diagnostics_report_the_cause_a_type_names(twin):
    # diagnostics.py tested kind == "gaussian" for the tiny-variance cause; the type says it now
    from nbapp.diagnostics import TINY_VARIANCE, log_loss_report
    from nbapp.evaluate import cross_validate

    rng = np.random.default_rng(0)
    y = rng.choice(["sun", "rain"], 200)
    frame = pd.DataFrame({"rain_mm": np.where(y == "rain", rng.gamma(2.0, 3.0, 200), 0.0), "y": y})
    frame.loc[np.flatnonzero(y == "sun")[0], "rain_mm"] = 0.3
    make = lambda: nbapp.NaiveBayes({"rain_mm": "twin"})                    # noqa: E731
    first = log_loss_report(cross_validate(make, frame, "y", k=5), make, frame, top=1).rows.iloc[0]
    assert first["cause"] == TINY_VARIANCE and "'rain_mm' has a tiny variance in class 'sun'" in first["detail"]


def test_the_model_asks_its_blocks_for_a_normal_fit_and_its_epsilon(twin):
    # model.gaussian / gaussian_epsilon tested kind == "gaussian"
    df = pd.DataFrame({"h": [1.0, 2, 3, 7, 8, 9.5], "c": list("ababab"), "y": list("pppqqq")})
    as_twin = nbapp.NaiveBayes({"h": "twin", "c": "categorical"}).fit(df, "y")
    as_gaussian = nbapp.NaiveBayes({"h": "gaussian", "c": "categorical"}).fit(df, "y")
    pd.testing.assert_frame_equal(as_twin.gaussian("h"), as_gaussian.gaussian("h"))
    assert as_twin.gaussian_epsilon().value == as_gaussian.gaussian_epsilon().value > 0
    with pytest.raises(DataError, match="Column 'c' is categorical, not Gaussian"):
        as_twin.gaussian("c")
    with pytest.raises(DataError, match="no Gaussian features"):
        nbapp.NaiveBayes({"c": "categorical"}).fit(df, "y").gaussian_epsilon()


def test_the_smoothing_lesson_moves_the_cells_of_any_smoothed_type(tag):
    # smoothing_path listed "categorical", "bernoulli", "multinomial" by name
    from nbapp.examples import example, load_example
    from nbapp.lessons.smoothing_path import smoothing_path

    ex, df = example("tennis14"), load_example("tennis14")
    paths = [smoothing_path(nbapp.NaiveBayes({**ex.features, "Outlook": kind}, alpha=0).fit(df, "Play"), df,
                            ex.query, strengths=(0.0, 1.0)) for kind in ("categorical", "tag")]
    pd.testing.assert_frame_equal(paths[0].cells, paths[1].cells)
    pd.testing.assert_frame_equal(paths[0].posterior, paths[1].posterior)
    assert ("Outlook", "Overcast") in set(zip(paths[1].cells["column"], paths[1].cells["value"]))
    assert paths[1].notes == paths[0].notes


def test_the_underflow_lesson_expands_a_count_power_of_any_type():
    # underflow.py expanded kind == "multinomial" only
    from nbapp.lessons.underflow import explanation_log_factors

    register(TallyBlock)
    try:
        df = pd.DataFrame({"a": [3, 0, 1, 0], "b": [0, 2, 1, 4], "y": list("ppqq")})
        logs = [explanation_log_factors(nbapp.NaiveBayes({"a": k, "b": k}).fit(df, "y").explain({"a": 3, "b": 1}))
                for k in ("multinomial", "tally")]
    finally:
        unregister("tally")
    assert list(logs[1].index) == ["prior", "a", "a", "a", "b"]
    pd.testing.assert_frame_equal(logs[0], logs[1])


def test_the_worked_example_shows_the_density_a_type_writes(twin):
    # worked_example.py wrote N(x; mu, sigma^2) for kind == "gaussian" only
    from nbapp.examples import example, load_example
    from nbapp.lessons.worked_example import worked_example_markdown

    ex, df = example("gender"), load_example("gender")
    texts = []
    for kind in ("gaussian", "twin"):
        model = nbapp.NaiveBayes({c: kind for c in ex.features}).fit(df, ex.target)
        texts.append(worked_example_markdown(model.explain(ex.query), model=model))
    assert r"\mathcal{N}(6;\ \mu=" in texts[1]
    assert texts[1] == texts[0].replace("is Gaussian, a normal density per class (mean and variance)",
                                        "is Twin, Gaussian under another name (a test's type)")


def test_the_command_line_lists_every_registered_type(twin, capsys):
    from nbapp.cli import main

    with pytest.raises(SystemExit):
        main(["fit", "--help"])
    assert "kde, discretized, twin, ignore" in " ".join(capsys.readouterr().out.split())
