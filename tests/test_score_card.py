"""The score card (issue 32, item 1): per class the log prior, per feature the values a person
can choose and each value's log factor per class, as the model computes them. Adding a row's
numbers and normalising gives ``predict_proba``; each number is ``explain``'s factor."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.blocks import register, unregister
from nbapp.errors import DataError
from nbapp.examples import EXAMPLES, load_example
from every_type import EVERY_TYPE, every_type_frame
from mixed_data import TYPES, mixed_frame
from new_type import LogNormalBlock, lognormal_type  # noqa: F401  (a pytest fixture: registers the type)

TOLERANCE = 1e-9
EXPLAINED_ROWS = 40        # explain is one row at a time; the sums are checked on every row


def softmax(joint: np.ndarray) -> np.ndarray:
    """A stable softmax of its own (the largest log subtracted first), not the library's."""
    shifted = np.exp(joint - joint.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def assert_card_is_the_model(model: nbapp.NaiveBayes, frame: pd.DataFrame) -> None:
    """Every row: the card's sum, normalised, is predict_proba; each feature's number is explain's."""
    card = model.score_card(frame)
    assert list(card.classes) == model.classes_
    np.testing.assert_allclose(card.log_prior, model.log_prior_, rtol=0, atol=TOLERANCE)
    joint = card.joint_log()
    assert np.isfinite(joint.max(axis=1)).all(), "a row where every class is impossible: the test needs another"
    np.testing.assert_allclose(softmax(joint), model.predict_proba(frame).to_numpy(), rtol=0, atol=TOLERANCE)
    for r in range(min(len(frame), EXPLAINED_ROWS)):
        explained = model.explain(frame.iloc[r])
        for i, f in enumerate(card.features, start=1):
            logs = explained.factor_logs[i]
            expected = np.where(np.isnan(logs), 0.0, logs)      # a factor left out adds nothing
            np.testing.assert_allclose(f.row_log_factors()[r], expected, rtol=0, atol=TOLERANCE,
                                       err_msg=f"row {r}, {f.column}")


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: ex.key)
def test_the_card_of_every_example_adds_up_to_predict_proba_and_explain(ex):
    data = load_example(ex.key)
    model = nbapp.NaiveBayes(ex.feature_specs(), alpha=max(ex.alpha, 1.0) if ex.key == "sentiment" else ex.alpha)
    model.fit(data, target=ex.target, weight=ex.weight)
    assert_card_is_the_model(model, data)


@pytest.mark.parametrize("classes", [["no", "yes"], ["a", "b", "c"], ["p", "q", "r", "s"]])
def test_the_card_of_every_feature_type_adds_up_for_any_number_of_classes(classes):
    frame = every_type_frame(classes)
    model = nbapp.NaiveBayes(EVERY_TYPE).fit(frame, target="y")
    assert_card_is_the_model(model, frame.drop(columns="y"))


def test_the_card_of_mixed_weighted_data_with_three_classes_adds_up():
    frame = mixed_frame(3, 300)
    model = nbapp.NaiveBayes(TYPES, alpha=0.5).fit(frame, target="y", weight="w")
    assert_card_is_the_model(model, frame)


def test_tennis_at_l_0_has_an_impossible_value_on_its_card_and_still_adds_up():
    data = load_example("tennis14")
    model = nbapp.NaiveBayes({c: "categorical" for c in ["Outlook", "Temperature", "Humidity", "Wind"]},
                             alpha=0).fit(data, target="Play")
    card = model.score_card(data)
    outlook = card.feature("Outlook")
    assert outlook.log_factors[outlook.position("Overcast"), model.classes_.index("No")] == -np.inf
    assert_card_is_the_model(model, data)


def test_a_missing_value_adds_nothing_to_the_card():
    classes = ["a", "b", "c"]
    frame = every_type_frame(classes)
    model = nbapp.NaiveBayes(EVERY_TYPE).fit(frame, target="y")
    empty = pd.DataFrame({c: pd.Series([None], dtype=object) for c in EVERY_TYPE})
    card = model.score_card(empty)
    assert all(f.current[0] == -1 for f in card.features)
    np.testing.assert_array_equal(card.joint_log()[0], model.log_prior_)
    # every_type_frame leaves a tenth of each column empty: those rows sit on no position
    for f in model.score_card(frame).features:
        assert (f.current[frame[f.column].isna().to_numpy()] == -1).all()


def test_each_type_offers_the_values_a_person_can_choose():
    frame = every_type_frame(["a", "b"])
    model = nbapp.NaiveBayes(EVERY_TYPE).fit(frame, target="y")
    row = frame.iloc[[2]]
    card = model.score_card(row)
    assert card.feature("colour").values == tuple(model.cpt("colour").index) == ("blue", "green", "red")
    assert set(card.feature("flag").values) == {"no", "yes"}
    visits = card.feature("visits").values
    assert visits[0] == 0 and (np.diff(visits) == 1).all() and visits[-1] >= frame["visits"].dropna().max() / 2
    assert (np.diff(card.feature("n1").values) == 1).all()
    for column in ("size", "weight", "skew", "band"):
        values = card.feature(column).values
        assert len(values) > 100 and (np.diff(values) > 0).all()
        assert values[card.feature(column).current[0]] == row[column].iloc[0]      # the row's own value
    words = card.feature("words")
    assert words.fixed and words.values == (row["words"].iloc[0],) and words.current[0] == 0


def test_a_value_never_seen_in_training_is_on_the_card_and_adds_nothing_under_skip():
    data = load_example("tennis14")
    model = nbapp.NaiveBayes({"Outlook": "categorical", "Wind": "categorical"}, alpha=1).fit(data, target="Play")
    row = pd.DataFrame({"Outlook": ["Snow"], "Wind": ["Weak"]})
    card = model.score_card(row)
    outlook = card.feature("Outlook")
    assert outlook.values[outlook.current[0]] == "Snow"
    np.testing.assert_array_equal(outlook.log_factors[outlook.current[0]], [0.0, 0.0])
    np.testing.assert_allclose(softmax(card.joint_log()), model.predict_proba(row).to_numpy(), rtol=0, atol=TOLERANCE)


def test_a_card_without_rows_offers_values_and_positions_none():
    frame = every_type_frame(["a", "b", "c"])
    model = nbapp.NaiveBayes(EVERY_TYPE).fit(frame, target="y")
    card = model.score_card()
    assert card.joint_log().shape == (0, 3)
    assert card.feature("words").values == ()
    assert len(card.feature("size").values) == 101
    assert all(d["current"] is None for d in card.to_data()["features"])


def test_the_card_goes_to_json_with_impossible_classes_as_null():
    data = load_example("tennis14")
    model = nbapp.NaiveBayes({"Outlook": "categorical"}, alpha=0).fit(data, target="Play")
    data_out = json.loads(json.dumps(model.score_card(data).to_data(row=0), allow_nan=False))
    outlook = data_out["features"][0]
    assert data_out["classes"] == ["No", "Yes"]
    assert outlook["values"] == ["Overcast", "Rain", "Sunny"] and outlook["current"] == 2     # row 0: Sunny
    assert outlook["log_factors"][0][0] is None                                             # P(Overcast | No) = 0
    assert outlook["log_factors"][2][0] == pytest.approx(np.log(3 / 5), abs=1e-15)


def test_a_bad_value_is_refused_naming_the_frames_row():
    frame = every_type_frame(["a", "b"])
    model = nbapp.NaiveBayes(EVERY_TYPE).fit(frame, target="y")
    row = frame.iloc[[3]].copy()
    row.index = [17]
    row["visits"] = -2
    with pytest.raises(DataError, match="row 17"):
        model.score_card(row)


def test_the_test_only_log_normal_type_has_a_card(lognormal_type):
    rng = np.random.default_rng(5)
    y = rng.choice(["s", "t", "u"], 200)
    frame = pd.DataFrame({"income": np.exp(rng.normal(1 + (y == "t"), 0.5)), "colour": rng.choice(["r", "g"], 200),
                          "y": y})
    frame.loc[frame.index[::7], "income"] = np.nan
    model = nbapp.NaiveBayes({"income": "lognormal", "colour": "categorical"}).fit(frame, target="y")
    assert_card_is_the_model(model, frame)
    assert model.score_card().feature("income").values.min() > 0


def test_a_type_that_states_no_card_values_offers_its_rows_values_and_adds_up(lognormal_type):
    class Plain(LogNormalBlock):         # the log-normal type without its card_values
        kind = "plain_lognormal"
        card_values = nbapp.blocks.Block.card_values

    class PlainSpec(LogNormalBlock.spec_type):
        kind = "plain_lognormal"

    Plain.spec_type = PlainSpec
    register(Plain)
    try:
        rng = np.random.default_rng(2)
        frame = pd.DataFrame({"x": np.exp(rng.normal(0, 1, 60)), "y": rng.choice(["a", "b"], 60)})
        model = nbapp.NaiveBayes({"x": "plain_lognormal"}).fit(frame, target="y")
        assert model.score_card().feature("x").values.size == 0
        values = model.score_card(frame).feature("x").values          # the rows' values, a grid over their range
        assert np.isin(frame["x"], values).all() and (values.min(), values.max()) == (frame.x.min(), frame.x.max())
        assert_card_is_the_model(model, frame)
    finally:
        unregister("plain_lognormal")


def test_the_nomogram_draws_its_categories_from_the_score_card():
    data = load_example("tennis14")
    model = nbapp.NaiveBayes({c: "categorical" for c in ["Outlook", "Wind"]}, alpha=1).fit(data, target="Play")
    card = model.score_card()
    outlook = card.feature("Outlook")
    moved = dataclasses.replace(outlook, log_factors=outlook.log_factors + np.array([0.0, 1.0]))   # +1 nat for Yes
    model.score_card = lambda frame=None: dataclasses.replace(card, features=(moved, card.feature("Wind")))
    scale = nbapp.nomogram_scales(model, "Yes", against="No").scale("Outlook")
    assert list(scale.values) == list(outlook.values)
    np.testing.assert_allclose(scale.log_odds, outlook.log_factors[:, 1] - outlook.log_factors[:, 0] + 1.0,
                               rtol=0, atol=1e-12)


def test_the_nomogram_of_a_category_type_that_offers_only_rows_values_draws_the_datas_values():
    from nbapp.blocks.categorical import Categorical, CategoricalBlock

    class PlainCategorical(CategoricalBlock):    # a category type without card_values of its own
        kind = "plain_categorical"
        card_values = nbapp.blocks.Block.card_values

    class PlainSpec(Categorical):
        kind = "plain_categorical"

    PlainCategorical.spec_type = PlainSpec
    register(PlainCategorical)
    try:
        data = load_example("tennis14")
        model = nbapp.NaiveBayes({"Outlook": "plain_categorical"}, alpha=1).fit(data, target="Play")
        assert model.score_card().feature("Outlook").values == ()
        scale = nbapp.nomogram_scales(model, "Yes", against="No", frame=data).scale("Outlook")
        assert list(scale.values) == ["Overcast", "Rain", "Sunny"]
        expected = model.score_card(data).feature("Outlook")
        logs = expected.log_factors[[expected.position(v) for v in scale.values]]
        np.testing.assert_allclose(scale.log_odds, logs[:, 1] - logs[:, 0], rtol=0, atol=1e-12)
    finally:
        unregister("plain_categorical")
