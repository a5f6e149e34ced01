"""Evaluation an analyst can trust (issue 13): exact and clipped log-loss against scikit-learn,
the rows that dominate it and their real cause, ROC / PR curves against scikit-learn, feature
importance, the predictions with their inputs, and logistic regression on the same folds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import (average_precision_score, confusion_matrix, log_loss, precision_recall_curve,
                             roc_auc_score, roc_curve)

import nbapp
from nbapp import NaiveBayes
from nbapp.diagnostics import (MISSING_CLASS, TINY_VARIANCE, ZERO_COUNT, curves, feature_importance,
                               log_loss_report, predictions_with_inputs)
from nbapp.evaluate import CLIP_EPS, cross_validate, holdout


def weather(n: int = 300, seed: int = 0) -> pd.DataFrame:
    """Like Seattle weather: no precipitation on sunny days, except one drizzly 'sun' day."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["sun", "rain", "fog"], size=n, p=[0.5, 0.35, 0.15])
    precipitation = np.where(y == "rain", rng.gamma(2.0, 3.0, n), np.where(y == "fog", rng.gamma(1.0, 0.5, n), 0.0))
    temp = rng.normal(np.select([y == "sun", y == "rain"], [18.0, 11.0], 9.0), 4.0)
    wind = rng.choice(["calm", "breezy", "windy"], size=n)
    frame = pd.DataFrame({"date_id": np.arange(1000, 1000 + n), "precipitation": precipitation,
                          "temp_max": temp, "wind": wind, "weather": y})
    sunny = np.flatnonzero(y == "sun")
    frame.loc[sunny[0], "precipitation"] = 0.3
    return frame


FEATURES = {"precipitation": "gaussian", "temp_max": "gaussian", "wind": "categorical"}


def make():
    return NaiveBayes(FEATURES)


def _probabilities(result) -> tuple[np.ndarray, np.ndarray]:
    classes = list(result.classes)
    p = result.predictions[[f"P({c})" for c in classes]].fillna(0.0).to_numpy()
    return p, result.predictions["true"].to_numpy(dtype=object)


def test_clipped_log_loss_is_scikit_learns_and_the_exact_one_is_far_larger():
    frame = weather()
    result = cross_validate(make, frame, "weather", k=5)
    p, truth = _probabilities(result)
    assert result.scores.log_loss_clipped == pytest.approx(log_loss(truth, p, labels=list(result.classes)),
                                                           rel=1e-12)
    assert result.scores.log_loss > 10 * result.scores.log_loss_clipped       # one drizzly sunny day
    exact = -result.predictions["log P(true)"].mean()
    assert result.scores.log_loss == pytest.approx(exact, rel=1e-12)
    assert CLIP_EPS == np.finfo(float).eps


def test_the_dominating_row_is_listed_with_a_tiny_variance_as_its_cause():
    frame = weather()
    result = cross_validate(make, frame, "weather", k=5)
    report = log_loss_report(result, make, frame, top=5)
    first = report.rows.iloc[0]
    drizzle = frame.index[(frame["weather"] == "sun") & (frame["precipitation"] > 0)][0]
    assert first["row"] == drizzle and first["true"] == "sun"
    assert first["cause"] == TINY_VARIANCE and "'precipitation'" in first["detail"]
    assert first["share"] > 0.9 and report.rows["-log P(true)"].is_monotonic_decreasing
    assert first["-log P(true)"] == pytest.approx(-np.log(first["P(true)"]) if first["P(true)"] > 0
                                                  else first["-log P(true)"])
    assert any("var_smoothing" in a for a in report.advice)
    assert not any("l = 0" in a for a in report.advice)


def test_a_class_missing_from_a_training_fold_is_named_not_blamed_on_l():
    frame = weather()
    frame.loc[frame.index[5], "weather"] = "snow"              # one row: no training rows in its fold
    result = cross_validate(lambda: NaiveBayes(FEATURES, alpha=1.0), frame, "weather", k=5)
    assert np.isinf(result.scores.log_loss)
    report = log_loss_report(result, lambda: NaiveBayes(FEATURES, alpha=1.0), frame, top=3)
    first = report.rows.iloc[0]
    assert first["true"] == "snow" and first["cause"] == MISSING_CLASS
    assert "fewer folds" in report.advice[0] and "l = 0" not in report.advice[0]


def test_a_zero_count_at_l_zero_is_named_as_such():
    tennis = nbapp.load_example("tennis14")
    features = {"Outlook": "categorical", "Temperature": "categorical", "Humidity": "categorical",
                "Wind": "categorical"}
    result = holdout(lambda: NaiveBayes(features, alpha=0.0), tennis, "Play")
    report = log_loss_report(result, lambda: NaiveBayes(features, alpha=0.0), tennis)
    assert np.isinf(result.scores.log_loss)
    assert report.rows.iloc[0]["cause"] == ZERO_COUNT
    assert any("Smoothing (l > 0)" in a for a in report.advice)


def test_roc_and_precision_recall_match_scikit_learn():
    frame = weather()
    two = frame.assign(weather=np.where(frame["weather"] == "rain", "rain", "dry"))
    result = cross_validate(make, two, "weather", k=5)
    c = curves(result, "rain")
    truth, score = c.truth, c.score
    fpr, tpr, thr = roc_curve(truth, score, drop_intermediate=False)
    np.testing.assert_array_equal(c.roc["fpr"], fpr)
    np.testing.assert_array_equal(c.roc["tpr"], tpr)
    np.testing.assert_array_equal(c.roc["threshold"], thr)
    precision, recall, pthr = precision_recall_curve(truth, score)
    np.testing.assert_array_equal(c.pr["precision"], precision)
    np.testing.assert_array_equal(c.pr["recall"], recall)
    np.testing.assert_array_equal(c.pr["threshold"].to_numpy()[:-1], pthr)
    assert c.roc_auc == pytest.approx(roc_auc_score(truth, score), rel=1e-12)
    assert c.average_precision == pytest.approx(average_precision_score(truth, score), rel=1e-12)


@pytest.mark.parametrize("threshold", [0.1, 0.5, 0.9])
def test_the_threshold_counts_match_a_confusion_matrix(threshold):
    result = cross_validate(make, weather(), "weather", k=5)
    c = curves(result, "fog")                                    # one-vs-rest of three classes
    at = c.at(threshold)
    tn, fp, fn, tp = confusion_matrix(c.truth, c.score >= threshold, labels=[False, True]).ravel()
    assert (at["TP"], at["FP"], at["FN"], at["TN"]) == (tp, fp, fn, tn)
    assert at["recall"] == pytest.approx(tp / (tp + fn))


def test_mean_absolute_log_odds_is_the_feature_s_term_by_hand():
    frame = weather().query("weather != 'fog'")
    m = NaiveBayes(FEATURES).fit(frame, "weather")
    table = feature_importance(m, frame, cross_validated=False)
    g = m.gaussian("temp_max")
    x = frame["temp_max"].to_numpy()

    def log_density(c):
        return -0.5 * np.log(2 * np.pi * g.loc[c, "var"]) - (x - g.loc[c, "mean"]) ** 2 / (2 * g.loc[c, "var"])

    assert table.loc["temp_max", "mean_abs_log_odds"] == pytest.approx(
        np.mean(np.abs(log_density("rain") - log_density("sun"))), rel=1e-10)
    cpt = m.cpt("wind")
    by_hand = np.abs(np.log(cpt.loc[frame["wind"], "rain"].to_numpy() / cpt.loc[frame["wind"], "sun"].to_numpy()))
    assert table.loc["wind", "mean_abs_log_odds"] == pytest.approx(by_hand.mean(), rel=1e-10)
    assert table.index[0] == "precipitation"                       # sorted, largest first


def test_log_loss_increase_is_cross_validation_without_the_feature():
    frame = weather()
    m = NaiveBayes(FEATURES, alpha=1.0).fit(frame, "weather")
    table = feature_importance(m, frame, k=4, seed=3)
    full = cross_validate(lambda: NaiveBayes(FEATURES), frame, "weather", k=4, seed=3).scores
    rest = {c: t for c, t in FEATURES.items() if c != "temp_max"}
    without = cross_validate(lambda: NaiveBayes(rest), frame, "weather", k=4, seed=3).scores
    assert table.loc["temp_max", "log_loss_increase"] == pytest.approx(without.log_loss - full.log_loss, rel=1e-12)
    assert table.loc["temp_max", "accuracy_drop"] == pytest.approx(full.accuracy - without.accuracy)
    assert table.loc["wind", "clipped_log_loss_increase"] < 0.05        # noise does not help


def test_the_predictions_table_keeps_the_id_and_every_input_column():
    frame = weather().set_index(pd.RangeIndex(10, 310))
    result = cross_validate(make, frame, "weather", k=5)
    table = predictions_with_inputs(result, frame)
    assert list(table.columns[:6]) == ["row", "date_id", "precipitation", "temp_max", "wind", "fold"]
    np.testing.assert_array_equal(table["date_id"], frame.loc[table["row"], "date_id"])
    np.testing.assert_array_equal(table["true"], frame.loc[table["row"], "weather"])
    csv = nbapp.safe_csv_bytes(table).decode()
    assert csv.lstrip("\ufeff").splitlines()[0].startswith("row,date_id,precipitation")


def test_predictions_with_inputs_follow_expanded_weights():
    frame = pd.DataFrame({"x": ["a", "b", "a", "b"], "n": [2, 1, 1, 3], "y": ["p", "q", "p", "q"]})
    result = holdout(lambda: NaiveBayes({"x": "categorical"}), frame, "y", test_size=0.5, weight="n")
    table = predictions_with_inputs(result, frame)
    np.testing.assert_array_equal(table["x"], frame.loc[table["row"], "x"])
    assert "n" not in table.columns


def test_logistic_regression_runs_on_the_same_folds():
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    from nbapp.sklearn import logistic_regression_scores

    frame = weather()
    result = cross_validate(make, frame, "weather", k=5)
    lr = logistic_regression_scores(result, frame, FEATURES)
    correct = 0
    for fold in range(5):
        test, train = result.folds == fold, result.folds != fold
        pipe = make_pipeline(ColumnTransformer([
            ("onehot", OneHotEncoder(handle_unknown="ignore"), ["wind"]),
            ("gaussian", make_pipeline(SimpleImputer(strategy="mean"), StandardScaler()),
             ["precipitation", "temp_max"])]), LogisticRegression(max_iter=1000))
        pipe.fit(frame[train], frame["weather"][train])
        correct += (pipe.predict(frame[test]) == frame["weather"][test]).sum()
    assert lr.accuracy == pytest.approx(correct / len(frame))
    assert lr.n == len(frame)


def test_a_streamed_file_evaluation_reports_the_clipped_log_loss_too(tmp_path):
    from nbapp.scale import cross_validate_file

    frame = weather()
    path = tmp_path / "weather.csv"
    frame.to_csv(path, index=False)
    result = cross_validate_file(NaiveBayes(FEATURES), path, "weather", k=5)
    p, truth = _probabilities(result)                      # every row is kept in a small file
    assert result.scores.log_loss_clipped == pytest.approx(log_loss(truth, p, labels=list(result.classes)),
                                                           rel=1e-9)
    assert result.scores.log_loss > 10 * result.scores.log_loss_clipped
