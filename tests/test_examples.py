"""The built-in example catalogue: every file loads and matches its entry."""

from __future__ import annotations

import pandas as pd
import pytest

from nbapp.blocks import feature_types
from nbapp.errors import DataError
from nbapp.examples import EXAMPLES, SAMPLE_DATA, Example, example, load_example

KEYS = ["tennis14", "tennis6", "sentiment", "gender", "stolen_cars", "bikes", "word_counts", "sms_spam", "penguins"]


def test_catalogue_has_every_seed_example_and_the_real_datasets():
    assert [ex.key for ex in EXAMPLES] == KEYS


@pytest.mark.parametrize("key", KEYS)
def test_example_file_exists_in_sample_data(key):
    ex = example(key)
    assert ex.path.parent == SAMPLE_DATA
    assert ex.path.is_file()


@pytest.mark.parametrize("key", KEYS)
def test_example_loads_with_target_features_query_and_weight_columns(key):
    ex = example(key)
    frame = load_example(key)
    assert isinstance(frame, pd.DataFrame) and len(frame) > 0
    assert ex.target in frame.columns
    assert set(ex.features) <= set(frame.columns)
    assert ex.target not in ex.features
    assert set(ex.query) <= set(ex.features)
    if ex.weight is not None:
        assert ex.weight in frame.columns
        assert (frame[ex.weight] >= 0).all()


@pytest.mark.parametrize("key", KEYS)
def test_example_target_has_at_least_two_classes_and_no_missing_labels(key):
    frame = load_example(key)
    target = frame[example(key).target]
    assert target.notna().all()
    assert target.nunique() >= 2


@pytest.mark.parametrize("key", KEYS)
def test_example_feature_types_are_known_and_story_is_one_line(key):
    ex = example(key)
    assert set(ex.features.values()) <= set(feature_types()) - {"ignore"}
    assert ex.story and "\n" not in ex.story
    assert ex.title and ex.seed


@pytest.mark.parametrize("key", KEYS)
def test_example_query_values_occur_in_training_data_for_categorical_features(key):
    ex = example(key)
    frame = load_example(key)
    for column, value in ex.query.items():
        if ex.features[column] == "categorical":
            assert value in set(frame[column].dropna())


def test_examples_are_frozen():
    ex = example("tennis14")
    with pytest.raises(AttributeError):
        ex.target = "Day"  # type: ignore[misc]
    assert isinstance(ex, Example)


def test_unknown_example_key_is_a_data_error_listing_the_known_keys():
    with pytest.raises(DataError, match=r"no built-in example 'iris'; choose one of: tennis14, tennis6, .*penguins"):
        example("iris")
    with pytest.raises(DataError, match="choose one of"):
        load_example("iris")


def test_seed_tables_have_the_seed_sizes():
    sizes = {key: len(load_example(key)) for key in KEYS}
    assert sizes == {
        "tennis14": 14,
        "tennis6": 6,
        "sentiment": 6,
        "gender": 8,
        "stolen_cars": 10,
        "bikes": 4,
        "word_counts": 6,
        "sms_spam": 5430,
        "penguins": 344,
    }


def test_bikes_counts_are_the_seed_joint_table_per_100_bikes():
    frame = load_example("bikes").set_index(["color", "bike"])["count"]
    assert frame.sum() == 100
    assert frame[("teal", "veoride")] == 19 and frame[("teal", "private")] == 2
    assert frame[("red", "veoride")] == 1 and frame[("red", "private")] == 78


def test_sms_spam_loads_every_line_as_label_and_text_despite_quote_characters():
    frame = load_example("sms_spam")
    assert list(frame.columns) == ["label", "text"]
    assert frame["label"].value_counts().to_dict() == {"ham": 4716, "spam": 714}
    assert frame["text"].str.contains('"').any()
    assert frame["text"].str.len().gt(0).all()


def test_penguins_has_mixed_types_and_missing_values():
    frame = load_example("penguins")
    assert frame["species"].value_counts().to_dict() == {"Adelie": 152, "Gentoo": 124, "Chinstrap": 68}
    assert frame["sex"].isna().sum() == 11
    assert frame["bill_length_mm"].isna().sum() == 2
    assert pd.api.types.is_float_dtype(frame["bill_length_mm"])


def test_readme_has_a_section_for_every_file():
    readme = (SAMPLE_DATA / "README.md").read_text(encoding="utf-8")
    for ex in EXAMPLES:
        assert f"## {ex.file}" in readme
    assert "CC BY 4.0" in readme and "CC0" in readme


def test_example_queries_are_the_seeds_test_examples():
    assert example("tennis14").query == {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"}
    assert example("gender").query == {"Height": 6, "Weight": 130, "Foot_Size": 8}
    assert example("stolen_cars").query == {"Color": "Red", "Type": "SUV", "Origin": "Domestic"}
    assert example("bikes").query == {"color": "teal"}
    assert example("sentiment").query == {"text": "just had my first cheeto ever it was awesome"}
    assert example("bikes").weight == "count"
    assert example("sentiment").alpha == 1


@pytest.mark.parametrize("key", KEYS)
def test_every_example_fits_and_explains_its_query(key):
    import nbapp

    ex = example(key)
    model = nbapp.NaiveBayes(features=ex.feature_specs(), alpha=ex.alpha)
    model.fit(load_example(key), target=ex.target, weight=ex.weight)
    e = model.explain(ex.query)
    assert e.prediction in model.classes_
    assert e.posterior.sum() == pytest.approx(1.0, abs=1e-12)
    assert set(e.factors.index) == {"prior", *ex.features}


@pytest.mark.parametrize("key", KEYS)
def test_declared_orders_and_positives_name_values_of_the_data(key):
    # issue 14: classes and values in the notes' order (Yes before No), Bernoulli "1" as the notes say
    ex, frame = example(key), load_example(key)
    assert set(ex.class_order) <= set(frame[ex.target])
    assert not ex.class_order or len(ex.class_order) == frame[ex.target].nunique()
    for column, values in ex.value_order.items():
        assert set(values) == set(frame[column].dropna())
    for column, value in ex.positives.items():
        assert ex.features[column] == "bernoulli" and value in set(frame[column])
    assert ex.symbol in ("l", "α", "a, b")


def test_the_notes_order_is_declared_for_the_seed_examples():
    assert example("tennis14").class_order == ("Yes", "No")
    assert example("stolen_cars").positives == {"Color": "Red", "Type": "SUV", "Origin": "Domestic"}
    assert example("tennis6").symbol == "α" and example("tennis14").symbol == "l"


def test_word_counts_is_seed_000_s_multinomial_with_l_1():
    # theta_sport = (7, 7, 2, 2)/18, theta_politics = (2, 1, 7, 7)/17 (Eq. 10 with l = 1, d = 4);
    # x = (1, 1, 2, 0): joints 1/2 (7/18)^2 (2/18)^2 and 1/2 (2/17)(1/17)(7/17)^2 (Eq. 11)
    from fractions import Fraction as F

    import nbapp

    ex = example("word_counts")
    model = nbapp.NaiveBayes(ex.feature_specs(), alpha=ex.alpha).fit(load_example("word_counts"), target="topic")
    e = model.explain(ex.query)
    sport = F(1, 2) * F(7, 18) ** 2 * F(2, 18) ** 2
    politics = F(1, 2) * F(2, 17) * F(1, 17) * F(7, 17) ** 2
    assert e.joint_fractions["sport"] == sport and e.joint_fractions["politics"] == politics
    assert e.posterior_fractions["sport"] == sport / (sport + politics)
    assert e.prediction == "sport" and float(e.posterior["sport"]) == pytest.approx(0.6141, abs=1e-4)
