"""Proposed feature types with reasons, the default target, and target checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import biopsy_like
from nbapp.errors import DataError
from nbapp.io import load_table
from nbapp.propose import check_target, propose_feature_types, propose_target

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"


def proposal(frame: pd.DataFrame, target: str) -> dict[str, tuple[str, str]]:
    table = propose_feature_types(frame, target)
    assert list(table.columns) == ["column", "type", "reason"]
    return {row.column: (row.type, row.reason) for row in table.itertuples()}


def test_one_row_per_non_target_column_in_frame_order():
    frame = pd.DataFrame({"b": [1.5, 2.5, 3.5], "y": ["p", "q", "p"], "a": ["u", "v", "u"]})
    assert propose_feature_types(frame, "y")["column"].tolist() == ["b", "a"]


def test_tennis_days_are_ids_and_the_weather_categorical():
    frame = load_table((SAMPLES / "tennis14.csv").read_bytes(), "tennis14.csv").frame
    types = proposal(frame, "Play")
    assert types["Day"] == ("ignore", "ID-like (every value distinct) -> ignore")
    assert types["Outlook"] == ("categorical", "3 distinct values -> categorical")
    assert types["Wind"][0] == "categorical"
    assert propose_target(frame) == "Play"


def test_gender_measurements_are_gaussian_and_target_is_the_text_column():
    frame = load_table((SAMPLES / "gender.csv").read_bytes(), "gender.csv").frame
    types = proposal(frame, "Gender")
    assert types["Height"] == ("gaussian", "float -> Gaussian")
    assert types["Weight"][0] == "gaussian" and types["Foot_Size"][0] == "gaussian"
    assert propose_target(frame) == "Gender"


def test_yes_no_and_zero_one_columns_are_bernoulli():
    frame = pd.DataFrame({"link": ["yes", "no", "yes", "no"], "bit": [0, 1, 1, 0], "y": list("abab")})
    types = proposal(frame, "y")
    assert types["link"] == ("bernoulli", "2 distinct values (no/yes) -> Bernoulli")
    assert types["bit"][0] == "bernoulli"


def test_long_strings_are_text():
    frame = pd.DataFrame({"review": ["a really good film indeed", "bad plot and worse acting"], "y": ["p", "n"]})
    assert proposal(frame, "y")["review"][0] == "text"


def test_constant_dates_and_empty_columns_are_ignored():
    frame = pd.DataFrame({
        "const": ["x"] * 6,
        "when": [f"2024-01-0{i}" for i in range(1, 7)],
        "none": [None] * 6,
        "y": list("ababab"),
    })
    types = proposal(frame, "y")
    assert types["const"] == ("ignore", "constant (always 'x') -> ignore")
    assert types["when"][0] == "ignore" and "dates" in types["when"][1]
    assert types["none"][0] == "ignore"


def test_few_small_integers_are_categorical_and_say_so():
    frame = pd.DataFrame({"stars": [1, 2, 3, 2, 1, 3, 2, 1], "y": list("abababab")})
    kind, reason = proposal(frame, "y")["stars"]
    assert kind == "categorical" and "multinomial if they are counts" in reason


def test_a_block_of_sparse_counts_is_multinomial():
    rng = np.random.default_rng(0)
    counts = {f"w{i}": rng.poisson(0.4, 40) for i in range(4)}
    frame = pd.DataFrame({**counts, "y": ["s", "h"] * 20})
    types = proposal(frame, "y")
    assert {types[c][0] for c in counts} == {"multinomial"}


def test_a_count_column_is_proposed_as_the_row_weight():
    frame = load_table((SAMPLES / "bikes.csv").read_bytes(), "bikes.csv").frame
    assert proposal(frame, "bike")["count"][0] == "ignore"
    assert propose_target(frame) == "bike"


def test_100000_category_id_column_is_ignored_quickly():
    frame = pd.DataFrame({"code": [f"c{i}" for i in range(100_000)], "y": ["a", "b"] * 50_000})
    assert proposal(frame, "y")["code"][0] == "ignore"


def test_propose_target_prefers_a_label_like_name_and_skips_continuous_columns():
    frame = pd.DataFrame({"class": ["a", "b"] * 10, "z": ["u", "v"] * 10, "x": np.linspace(0, 1, 20)})
    assert propose_target(frame) == "class"
    assert propose_target(pd.DataFrame({"x": np.linspace(0, 1, 20)})) is None


# --- check_target -------------------------------------------------------------------------
def test_missing_labels_are_dropped_and_counted():
    frame = pd.DataFrame({"y": ["a", None, "b", " ", "a"], "x": range(5)})
    kept, notes = check_target(frame, "y")
    assert kept["x"].tolist() == [0, 2, 4]
    assert "Dropped 2 row(s) with no label in 'y' (rows 1, 3)." in notes


def test_look_alike_labels_are_named_not_merged():
    frame = pd.DataFrame({"y": ["yes", "Yes ", "YES", "no", "no", "yes"]})
    kept, notes = check_target(frame, "y")
    assert kept["y"].nunique() == 4
    assert any("'YES', 'Yes ', 'yes'" in n or "differ only in case or spaces" in n for n in notes)


def test_one_class_only_is_refused():
    with pytest.raises(DataError, match=r"only one class \('yes'\).*choose another target"):
        check_target(pd.DataFrame({"y": ["yes"] * 4 + [None]}), "y")


def test_continuous_target_is_refused():
    frame = pd.DataFrame({"price": np.linspace(0.5, 99.5, 50)})
    with pytest.raises(DataError, match=r"'price' looks continuous \(50 distinct numbers.*bins"):
        check_target(frame, "price")


def test_single_row_classes_and_many_classes_are_warned():
    frame = pd.DataFrame({"y": [f"c{i}" for i in range(1000)] + ["c0"]})
    kept, notes = check_target(frame, "y")
    assert len(kept) == 1001
    assert any("have a single row" in n for n in notes)
    assert any("has 1,000 classes" in n for n in notes)


def test_unknown_target_column_is_refused_naming_the_columns():
    with pytest.raises(DataError, match=r"'z' is not a column; choose one of 'a'"):
        check_target(pd.DataFrame({"a": [1]}), "z")


def test_a_nearly_unique_integer_id_is_ignored_with_its_numbers():
    frame = biopsy_like()
    distinct = frame["ID"].nunique()
    assert 600 < distinct < 699        # repeated IDs: "every value distinct" does not hold
    kind, reason = proposal(frame, "class")["ID"]
    assert kind == "ignore"
    assert f"{distinct:,} distinct whole numbers in 699 rows" in reason
    assert proposal(frame, "class")["V1"][0] == "gaussian"     # 1-10 scores stay measurements


def test_a_row_number_is_ignored_even_without_an_id_name():
    frame = pd.DataFrame({"n_obs": np.arange(100) * 3 + 7, "y": ["a", "b"] * 50})
    assert proposal(frame, "y")["n_obs"][0] == "ignore"


def test_a_code_with_hundreds_of_values_named_like_a_code_is_ignored():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"zip_code": rng.integers(1000, 1400, size=5000), "y": ["a", "b"] * 2500})
    kind, reason = proposal(frame, "y")["zip_code"]
    assert kind == "ignore" and "a code named 'zip_code'" in reason and "5,000 rows" in reason


def test_numeric_codes_one_to_six_are_categorical():
    frame = pd.DataFrame({"occupation": [1, 2, 3, 4, 5, 6] * 10, "y": ["a", "b", "c"] * 20})
    kind, reason = proposal(frame, "y")["occupation"]
    assert kind == "categorical" and reason.startswith("codes 1 to 6 (6 values)")


def test_a_constant_number_is_printed_as_a_number():
    frame = pd.DataFrame({"year": np.full(10, 2013, dtype=np.int64), "y": ["a", "b"] * 5})
    assert proposal(frame, "y")["year"] == ("ignore", "constant (always 2013) -> ignore")


def test_many_categories_with_many_rows_each_are_not_called_one_per_row():
    rng = np.random.default_rng(2)
    tails = np.array([f"N{i:04d}" for i in range(1_200)])
    frame = pd.DataFrame({"tailnum": rng.choice(tails, size=60_000), "y": ["a", "b"] * 30_000})
    kind, reason = proposal(frame, "y")["tailnum"]
    assert kind == "ignore"
    assert "one per row" not in reason
    assert "1,200 distinct values in 60,000 rows (about 50 rows per value, more than 1,000 categories)" in reason


# -- shapes of numeric columns (issue 12) ---------------------------------------------------------


def test_skewed_and_two_mode_columns_are_kde_and_counts_are_poisson_with_the_reason():
    rng = np.random.default_rng(0)
    n = 400
    income = rng.lognormal(0, 1, n)
    df = pd.DataFrame({"income": income, "wait": np.r_[rng.normal(2, 0.5, n // 2), rng.normal(8, 0.7, n // 2)],
                       "height": rng.normal(170, 10, n), "visits": rng.poisson(2.5, n),
                       "age": rng.integers(18, 90, n), "y": rng.choice(["a", "b"], n)})
    types = propose_feature_types(df, "y").set_index("column")
    from scipy.stats import skew

    assert types.loc["income", "type"] == "kde"
    assert types.loc["income", "reason"] == f"skewness {skew(income):.1f} -> KDE"
    assert types.loc["wait"].tolist() == ["kde", "two modes -> KDE"]
    assert types.loc["height", "type"] == "gaussian" and types.loc["age", "type"] == "gaussian"
    assert types.loc["visits", "type"] == "poisson" and types.loc["visits", "reason"].startswith(
        "non-negative integer counts (mean")
    few = df.head(20)           # under 30 values: no shape rule
    assert propose_feature_types(few, "y").set_index("column").loc["income", "type"] == "gaussian"
