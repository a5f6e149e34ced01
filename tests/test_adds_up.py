"""The explanation adds up (issue 25, item 4): the prior's log-odds plus every contribution is
the model's own log-odds (predict_log_proba) to 1e-12, for every feature type, two and four
classes, against one class, the runner-up and the rest, with missing and unseen values, and
with the zero factors of l = 0 kept as -inf / +inf / NaN   [seed 000, Eq. 17-20 and 22]."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.logspace import logsumexp_rows

from conftest import TENNIS_FEATURES
from every_type import EVERY_TYPE, every_type_frame


def queries(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of the training data, each column missing in turn, unseen values, far values."""
    rows = [frame.drop(columns="y").iloc[i].to_dict() for i in range(12)]
    base = rows[0]
    rows += [{**base, column: None} for column in EVERY_TYPE]
    rows.append({column: None for column in EVERY_TYPE} | {"size": 0.5})
    rows.append({**base, "colour": "purple", "flag": "maybe", "words": "zebra quagga buy"})
    rows.append({**base, "size": 40.0, "skew": 30.0, "band": -9.0, "visits": 40, "n1": 30})
    return pd.DataFrame(rows, dtype=object)


def model_log_odds(log_posterior: np.ndarray, classes: list, cls, against: tuple) -> float:
    """log P(cls | x) / P(against | x) from predict_log_proba's row."""
    others = [classes.index(c) for c in against]
    with np.errstate(invalid="ignore"):
        return float(log_posterior[classes.index(cls)] - logsumexp_rows(log_posterior[None, others])[0])


def check_adds_up(model: NaiveBayes, rows: pd.DataFrame) -> dict[str, int]:
    """Every row, class and rival: prior + sum == the model's log-odds. Returns how often each
    outcome (finite, -inf, +inf, nan, undetermined) was met, so a test can say it met them."""
    log_posterior = model.predict_log_proba(rows).to_numpy()
    undetermined = model.undetermined(rows).to_numpy()
    met = dict.fromkeys(["finite", "-inf", "+inf", "nan", "undetermined"], 0)
    for r in range(len(rows)):
        e = model.explain(rows.iloc[r])
        for cls in model.classes_:
            rivals = [c for c in model.classes_ if c != cls]
            for against in ["rest", "runner_up", *rivals]:
                c = e.contributions(cls, against)
                total = c.sum(skipna=False)
                expected = model_log_odds(log_posterior[r], model.classes_, cls, c.attrs["against"])
                assert list(c.index) == ["prior", *model.features_]
                assert (c[e.factors["status"].isin(["missing", "unseen", "undefined"])] == 0).all()
                if undetermined[r]:
                    met["undetermined"] += 1
                    assert np.isnan(total) and any("reports the prior" in n for n in c.attrs["notes"])
                    continue
                if np.isfinite(expected):
                    met["finite"] += 1
                    assert abs(total - expected) <= 1e-12, (r, cls, against, total, expected)
                else:
                    met["nan" if np.isnan(expected) else "-inf" if expected < 0 else "+inf"] += 1
                    assert total == expected or (np.isnan(total) and np.isnan(expected)), (r, cls, against)
                    assert c.attrs["deciding"] and c.attrs["notes"]
                assert c.attrs["log_odds"] == pytest.approx(expected, abs=1e-12, nan_ok=True)
                check_words_add_up(e, c, cls, against)
    return met


def check_words_add_up(e: nbapp.Explanation, c: pd.Series, cls, against) -> None:
    if "words" not in e.words:
        return
    words = e.word_contributions("words", cls, against)
    assert list(words.index) == list(e.words["words"]["term"])
    if np.isfinite(c["words"]):
        assert abs(words.sum() - c["words"]) <= 1e-12
    else:
        assert words.sum(skipna=False) == c["words"] or np.isnan(words.sum(skipna=False)) and np.isnan(c["words"])


@pytest.mark.parametrize("classes", [["ham", "spam"], ["a", "b", "c", "d"]])
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_every_type_adds_up_to_the_models_log_odds(classes, alpha):
    frame = every_type_frame(classes)
    model = NaiveBayes(EVERY_TYPE, alpha=alpha).fit(frame, "y")
    met = check_adds_up(model, queries(frame))
    assert met["finite"] > 0


@pytest.mark.parametrize("classes", [["ham", "spam"], ["a", "b", "c", "d"]])
def test_zero_factors_at_l_0_are_kept_infinite_and_the_sum_follows(classes):
    frame = every_type_frame(classes)
    model = NaiveBayes(EVERY_TYPE, alpha=0.0).fit(frame, "y")
    met = check_adds_up(model, queries(frame))
    assert met["-inf"] > 0 and met["+inf"] > 0        # the zero cases were met, not skipped
    if len(classes) > 2:
        assert met["nan"] > 0                          # two classes impossible, a third possible


def test_a_row_every_class_rules_out_sums_to_nan_and_says_the_model_shows_the_prior():
    frame = pd.DataFrame({"a": ["x", "x", "y", "y", "z"], "b": ["u", "v", "u", "v", "w"],
                          "y": ["p", "p", "q", "q", "r"]})
    model = NaiveBayes({"a": "categorical", "b": "categorical"}, alpha=0).fit(frame, "y")
    impossible = pd.DataFrame([{"a": "x", "b": "w"}])     # a = x rules out q and r, b = w rules out p and q
    assert model.undetermined(impossible).iloc[0]
    met = check_adds_up(model, impossible)
    assert met["undetermined"] == 3 * 4                    # every class, against rest, runner-up, 2 classes
    c = model.explain(impossible.iloc[0]).contributions("p", "q")
    assert np.isnan(c["a"]) and np.isnan(c["b"])           # both p and q are 0 for a = x and for b = w
    assert c.attrs["deciding"] == ("a", "b")


def test_tennis_at_l_0_overcast_rules_out_no_and_decides_alone(tennis):
    model = NaiveBayes(TENNIS_FEATURES, alpha=0).fit(tennis, "Play")
    e = model.explain({"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"})
    c = e.contributions("Yes", "No")
    assert c["Outlook"] == np.inf and c.sum() == np.inf
    assert c.attrs["deciding"] == ("Outlook",)
    assert "Outlook" in c.attrs["notes"][0]
    # the other factors keep their own log-ratios: Humidity = High is 3/9 against 4/5
    assert c["Humidity"] == pytest.approx(np.log((3 / 9) / (4 / 5)), abs=1e-15)
    assert e.contributions("No", "Yes")["Outlook"] == -np.inf


def test_tennis_at_l_1_adds_up_to_the_notes_posterior(tennis):
    model = NaiveBayes(TENNIS_FEATURES, alpha=1).fit(tennis, "Play")
    e = model.explain({"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"})
    c = e.contributions("Yes")
    posterior = e.posterior_fractions["Yes"]
    assert c.attrs["against"] == ("No",) and c.attrs["method"] == "additive"
    assert c.sum() == pytest.approx(math.log(posterior / (1 - posterior)), abs=1e-12)
    assert c["prior"] == pytest.approx(np.log(9 / 5), abs=1e-15)


def test_against_the_rest_of_two_classes_is_against_the_other_class():
    frame = every_type_frame(["ham", "spam"])
    model = NaiveBayes(EVERY_TYPE, alpha=1).fit(frame, "y")
    e = model.explain(frame.drop(columns="y").iloc[3])
    rest, other = e.contributions("spam", "rest"), e.contributions("spam", "ham")
    pd.testing.assert_series_equal(rest, other)
    assert rest.attrs["method"] == "additive"


def test_against_the_rest_the_contributions_do_not_depend_on_the_order_of_the_features():
    frame = every_type_frame(["a", "b", "c", "d"])
    row = frame.drop(columns="y").iloc[5]
    forward = NaiveBayes(EVERY_TYPE, alpha=1).fit(frame, "y").explain(row).contributions("b", "rest")
    backward = NaiveBayes(dict(reversed(EVERY_TYPE.items())), alpha=1).fit(frame, "y").explain(row)
    backward = backward.contributions("b", "rest")
    assert forward.attrs["method"] == "shapley"
    assert np.allclose(forward[backward.index], backward, rtol=0, atol=1e-12)


def test_a_feature_that_cannot_matter_gets_0_against_the_rest_and_symmetric_features_share_alike():
    """Shapley's dummy and symmetry: a column equal for every class adds 0; two copies of a
    column get equal shares."""
    rng = np.random.default_rng(3)
    y = rng.choice(["a", "b", "c"], 300)
    x = rng.normal((y == "b") * 2.0 + (y == "c") * 4.0, 1.0)
    frame = pd.DataFrame({"x": x, "x2": x, "flat": ["same"] * 300, "y": y})
    model = NaiveBayes({"x": "gaussian", "x2": "gaussian", "flat": "categorical"}).fit(frame, "y")
    c = model.explain({"x": 1.0, "x2": 1.0, "flat": "same"}).contributions("b", "rest")
    assert c["flat"] == pytest.approx(0.0, abs=1e-14)
    assert c["x"] == pytest.approx(c["x2"], abs=1e-14)
    assert c["x"] != pytest.approx(0.0, abs=1e-3)


def test_beyond_12_features_the_rest_is_sequential_in_display_order_and_still_adds_up():
    rng = np.random.default_rng(1)
    y = rng.choice(["a", "b", "c"], 200)
    shift = (y == "b") * 1.0 + (y == "c") * 2.0
    frame = pd.DataFrame({f"x{i}": rng.normal(shift * (i % 3), 1.0) for i in range(14)} | {"y": y})
    model = NaiveBayes({f"x{i}": "gaussian" for i in range(14)}).fit(frame, "y")
    rows = frame.drop(columns="y").iloc[:5].astype(object)
    rows.iloc[0, 2] = None
    assert check_adds_up(model, rows)["finite"] > 0
    c = model.explain(rows.iloc[1]).contributions("a", "rest")
    assert c.attrs["method"] == "sequential"
    assert "order shown" in c.attrs["notes"][0]
    # the first feature's term is the change from the prior alone: its value's own log-odds
    logs = model.explain(rows.iloc[1]).logs
    prior, x0 = logs.loc["prior"].to_numpy(), logs.loc["x0"].to_numpy()
    alone = (prior + x0)[0] - np.logaddexp(*(prior + x0)[1:]) - (prior[0] - np.logaddexp(*prior[1:]))
    assert c["x0"] == pytest.approx(alone, abs=1e-12)


def test_the_runner_up_is_the_most_probable_other_class():
    frame = every_type_frame(["a", "b", "c", "d"])
    model = NaiveBayes(EVERY_TYPE).fit(frame, "y")
    e = model.explain(frame.drop(columns="y").iloc[2])
    order = list(e.posterior.sort_values(ascending=False).index)
    assert e.rivals(order[0]) == (order[1],)
    assert e.rivals(order[2]) == (order[0],)
    assert e.rivals(order[0], "rest") == tuple(c for c in model.classes_ if c != order[0])


def test_a_class_named_rest_is_reached_in_a_list_and_bad_rivals_are_refused():
    frame = pd.DataFrame({"a": ["x", "y", "x", "y", "x"], "y": ["rest", "walk", "run", "rest", "walk"]})
    e = NaiveBayes({"a": "categorical"}).fit(frame, "y").explain({"a": "x"})
    assert e.rivals("walk", ["rest"]) == ("rest",)
    assert e.rivals("walk", "rest") == ("rest", "run")
    with pytest.raises(DataError, match="not a class"):
        e.contributions("swim")
    with pytest.raises(DataError, match="against other classes"):
        e.contributions("walk", "walk")


def test_classes_1_and_text_1_stay_apart():
    frame = pd.DataFrame({"a": ["x", "y", "x", "y"], "y": pd.Series([1, "1", 1, "1"], dtype=object)})
    e = NaiveBayes({"a": "categorical"}).fit(frame, "y").explain({"a": "x"})
    assert e.rivals(1) == ("1",) and e.rivals("1") == (1,)
    assert e.contributions(1).sum() == pytest.approx(-e.contributions("1").sum(), abs=1e-12)


def test_words_add_up_to_the_text_column_and_each_word_is_its_count_times_its_log_ratio():
    frame = every_type_frame(["ham", "spam"])
    model = NaiveBayes(EVERY_TYPE).fit(frame, "y")
    e = model.explain({"words": "buy buy now hello zebra"})
    words = e.word_contributions("words", "spam", "ham")
    table = e.words["words"].set_index("term")
    assert words["buy"] == pytest.approx(2 * (table.loc["buy", "log[spam]"] - table.loc["buy", "log[ham]"]))
    assert words.sum() == pytest.approx(e.contributions("spam", "ham")["words"], abs=1e-12)
    with pytest.raises(DataError, match="no words"):
        e.word_contributions("colour", "spam")


def test_classes_that_print_alike_never_get_a_wrong_word_split():
    """The text block's words table names its columns by str(class), so classes 1 and "1"
    share one: the split is refused (RuntimeError) rather than made up; it adds up once the
    table keeps a column per class."""
    frame = pd.DataFrame({"t": ["buy now", "hello friend", "buy cheap", "see friend"],
                          "y": pd.Series([1, "1", 1, "1"], dtype=object)})
    model = NaiveBayes({"t": "text"}).fit(frame, "y")
    e = model.explain({"t": "buy buy friend"})
    c = e.contributions(1, "1")
    assert check_adds_up(model, pd.DataFrame({"t": ["buy buy friend"]}))["finite"] > 0
    try:
        words = e.word_contributions("t", 1, "1")
    except RuntimeError as refused:
        assert "print alike" in str(refused)
    else:
        assert words.sum() == pytest.approx(c["t"], abs=1e-12)
