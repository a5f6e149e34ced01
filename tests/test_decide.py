"""One argmax rule (issue 22, item 5): the model, an explanation, a prediction file, an
evaluation and the scikit-learn estimator decide alike, ties and undetermined rows included."""

from __future__ import annotations

import numpy as np
import pandas as pd

import nbapp
from nbapp.io import predictions_frame
from nbapp.logspace import decide, decide_codes

TRAIN = pd.DataFrame({"f": ["a", "a", "b", "b"], "g": ["x", "y", "x", "y"], "y": ["A", "B", "B", "A"]})


def test_every_place_that_decides_takes_the_first_most_probable_class_and_none_when_undetermined():
    model = nbapp.NaiveBayes({"f": "categorical", "g": "categorical"}, alpha=0).fit(TRAIN, "y")
    model_rows = pd.DataFrame({"f": ["a", "b"], "g": ["x", "x"]})
    # (a, x): 1/2 * 1/2 for A and 1/2 * 1/2 for B: a tie -> the first class, "A"
    assert model.predict_proba(model_rows.iloc[[0]]).iloc[0].tolist() == [0.5, 0.5]
    predicted = model.predict(model_rows)
    assert predicted.iloc[0] == "A"
    assert list(predictions_frame(model, model_rows)["predicted"]) == list(predicted)
    assert [model.explain(r).prediction for _, r in model_rows.iterrows()] == list(predicted)
    from nbapp.sklearn import NaiveBayesClassifier

    clf = NaiveBayesClassifier({"f": "categorical", "g": "categorical"}, alpha=0).fit(TRAIN[["f", "g"]], TRAIN["y"])
    assert list(clf.predict(model_rows)) == list(predicted)


def test_an_undetermined_row_gets_no_class_in_the_model_the_file_and_the_explanation():
    train = pd.DataFrame({"f": ["a", "b"], "g": ["x", "z"], "y": ["A", "B"]})
    model = nbapp.NaiveBayes({"f": "categorical", "g": "categorical"}, alpha=0).fit(train, "y")
    row = pd.DataFrame({"f": ["a"], "g": ["z"]})            # at l = 0, f rules out B and g rules out A
    assert model.undetermined(row).iloc[0]
    assert pd.isna(model.predict(row).iloc[0]) and pd.isna(predictions_frame(model, row)["predicted"].iloc[0])
    assert model.explain(row.iloc[0]).prediction is None


def test_the_rule_itself():
    logp = np.log(np.array([[0.2, 0.8], [0.5, 0.5]]))
    assert decide_codes(logp).tolist() == [1, 0]
    assert decide_codes(np.full((1, 3), -np.inf), none=3).tolist() == [3]
    assert decide(logp, np.array([False, True]), ["x", "y"]).tolist()[0] == "y"
    wide = np.log(np.full((2, 20), 1 / 20))
    assert decide_codes(wide).tolist() == [0, 0]                       # argmax's first maximum
