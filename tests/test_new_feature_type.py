"""The promise of the registry, proved (issue 22, item 2): a feature type defined entirely in
the tests (``tests/new_type.py``: a log-normal density) and registered with one line works in
fit, merge, cross-validation, fit_file, the JSON round trip, explain, the linear form, the
logistic-regression baseline, the density choices, dependence and the command line, with no
file of nbapp changed. The app's pages are walked by the app's test module with the same
fixture (see tests/new_type.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import lognorm

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.blocks import feature_types
from new_type import KIND, LogNormal, lognormal_type  # noqa: F401  (lognormal_type: the fixture)

ROOT = Path(__file__).resolve().parents[1]
TYPES = {"income": KIND, "region": "categorical"}


def table(n: int = 240, seed: int = 1) -> pd.DataFrame:
    """Income is log-normal per class (a few values missing); region is categorical."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["low", "high"], n, p=[0.6, 0.4])
    income = np.exp(rng.normal(np.where(y == "high", 11.0, 10.2), np.where(y == "high", 0.4, 0.6)))
    income[rng.random(n) < 0.05] = np.nan
    region = rng.choice(["north", "south", "east"], n)
    return pd.DataFrame({"income": income, "region": region, "y": y})


def test_a_new_feature_type_is_one_registry_line(lognormal_type):
    assert feature_types()[-2:] == (KIND, "ignore")
    assert NaiveBayes(TYPES).features_["income"] == LogNormal()
    sources = [p for d in ("nbapp", "ui", "pages") for p in (ROOT / d).rglob("*.py")] + [ROOT / "app.py"]
    names = (f'"{KIND}"', f"'{KIND}'", "LogNormal")
    naming = [str(p.relative_to(ROOT)) for p in sources if any(n in p.read_text(encoding="utf-8") for n in names)]
    assert naming == []                 # no file of the library or the app knows the type


def test_fit_and_explain_are_the_log_normal_density(lognormal_type):
    df = table()
    model = NaiveBayes(TYPES).fit(df, "y")
    # the posterior is that of a Gaussian on log x: the Jacobian 1/x is the same for every class
    logs = df.assign(income=np.log(df["income"]))
    gaussian = NaiveBayes({**TYPES, "income": "gaussian"}, var_smoothing=0).fit(logs, "y")
    np.testing.assert_allclose(model.predict_proba(df), gaussian.predict_proba(logs), rtol=1e-10, atol=1e-14)
    e = model.explain({"income": 30000.0, "region": "north"})
    fit = model.parameters("income")
    for c in model.classes_:
        expected = lognorm.logpdf(30000.0, s=np.sqrt(fit.at[c, "varlog"]), scale=np.exp(fit.at[c, "meanlog"]))
        assert e.logs.at["income", c] == pytest.approx(expected, rel=1e-12)
    assert e.factors.at["income", "kind"] == KIND and e.factors.at["income", "status"] == "used"
    assert model.explain({"income": None, "region": "north"}).factors.at["income", "status"] == "missing"
    assert np.allclose(model.predict_proba(df).sum(axis=1), 1.0) and model.predict(df).isin(["low", "high"]).all()


def test_merge_partial_fit_and_cross_validation_add_and_subtract_its_statistics(lognormal_type):
    df = table()
    one = NaiveBayes(TYPES).fit(df, "y")
    parts = [NaiveBayes(TYPES).fit(df.iloc[:100], "y"), NaiveBayes(TYPES).fit(df.iloc[100:], "y")]
    merged = nbapp.merge(parts)
    pd.testing.assert_frame_equal(merged.parameters("income"), one.parameters("income"), rtol=1e-12)
    partial = NaiveBayes(TYPES).fit(df.iloc[:100], "y").partial_fit(df.iloc[100:])
    np.testing.assert_allclose(partial.predict_proba(df), one.predict_proba(df), rtol=1e-10)
    cv = nbapp.evaluate.cross_validate(lambda: NaiveBayes(TYPES), df, "y", k=4)    # total minus each fold
    truth = df["y"].to_numpy()
    losses = np.zeros(len(df))
    for f in range(4):
        test = cv.folds == f
        log_p = NaiveBayes(TYPES).fit(df[~test], "y").predict_log_proba(df[test])
        losses[test] = -log_p.to_numpy()[np.arange(test.sum()), [list(log_p.columns).index(t) for t in truth[test]]]
    assert cv.scores.log_loss == pytest.approx(losses.mean(), rel=1e-9) and cv.scores.accuracy > 0.7


def test_fit_file_reads_its_column_as_numbers_and_equals_the_fit(lognormal_type, tmp_path):
    df = table()
    df.to_csv(tmp_path / "t.csv", index=False, na_rep="?")
    from nbapp.scale import cross_validate_file, fit_file, predict_file

    model = fit_file(NaiveBayes(TYPES), tmp_path / "t.csv", "y", batch_rows=50)
    one = NaiveBayes(TYPES).fit(df, "y")
    pd.testing.assert_frame_equal(model.parameters("income"), one.parameters("income"), rtol=1e-12)
    out = predict_file(model, tmp_path / "t.csv", tmp_path / "p.csv")
    np.testing.assert_allclose(pd.read_csv(out)["P(high)"], one.predict_proba(df)["high"], rtol=1e-9)
    assert cross_validate_file(NaiveBayes(TYPES), tmp_path / "t.csv", "y", k=3).scores.n == len(df)


def test_the_model_file_round_trip_is_exact_and_checked(lognormal_type):
    df = table()
    model = NaiveBayes(TYPES).fit(df, "y")
    text = model.to_json()
    back = NaiveBayes.from_json(text)
    assert back.to_json() == text
    pd.testing.assert_frame_equal(back.predict_proba(df), model.predict_proba(df))
    doc = json.loads(text)
    block = next(b for b in doc["blocks"] if b["kind"] == KIND)
    block["stats"]["s2"][0] = -1.0
    with pytest.raises(DataError, match=r"feature 'income': s2\[0\] is -1; counts cannot be negative"):
        NaiveBayes.from_json(json.dumps(doc))
    doc = json.loads(text)
    doc["settings"]["features"]["income"]["min_variance"] = 0
    with pytest.raises(DataError, match="LogNormal min_variance must be a number > 0, not 0"):
        NaiveBayes.from_json(json.dumps(doc))


def test_a_file_of_the_type_is_refused_by_name_once_the_type_is_gone(lognormal_type):
    text = NaiveBayes(TYPES).fit(table(), "y").to_json()
    from nbapp.blocks import register, unregister

    unregister(KIND)
    try:
        with pytest.raises(DataError, match="names the unknown feature type 'lognormal'"):
            NaiveBayes.from_json(text)
    finally:
        register(lognormal_type)


def test_bad_values_are_refused_naming_the_column_and_row(lognormal_type):
    df = table().assign(income=lambda d: d["income"].where(d.index != 7, -5.0))
    with pytest.raises(DataError, match="Column 'income' is log-normal but row 7 holds -5"):
        NaiveBayes(TYPES).fit(df, "y")


def test_the_linear_form_and_the_notes_form_hold(lognormal_type):
    df = table().dropna()
    model = NaiveBayes(TYPES).fit(df, "y")
    form = model.linear_form()
    log_odds = model.predict_log_proba(df)
    np.testing.assert_allclose(form.decision_function(df), log_odds["low"] - log_odds["high"], rtol=1e-9)
    notes = form.notes_form()
    assert notes.kinds == ("Log-normal", "CAT")
    assert {"log income", "(log income)^2"} <= set(notes.weights.index)
    np.testing.assert_allclose(notes.decision_function(df), form.decision_function(df), rtol=1e-9)


def test_the_baseline_takes_the_type_s_own_transform(lognormal_type):
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    from nbapp.baseline import baseline_encodings, logistic_inputs, logistic_pipeline

    df = table()
    ours = logistic_pipeline(TYPES).fit(logistic_inputs(df, TYPES), df["y"])
    X = pd.DataFrame({"income": np.log(df["income"]), "region": df["region"]})
    theirs = make_pipeline(ColumnTransformer([
        ("a", make_pipeline(SimpleImputer(), StandardScaler()), ["income"]),
        ("b", OneHotEncoder(handle_unknown="ignore"), ["region"])]), LogisticRegression(max_iter=1000)).fit(X, df["y"])
    np.testing.assert_allclose(ours.predict_proba(logistic_inputs(df, TYPES)), theirs.predict_proba(X), rtol=1e-9)
    assert list(baseline_encodings(TYPES)["type"]) == ["Log-normal", "Categorical"]


def test_it_is_a_density_choice_for_positive_columns_and_its_dependence_is_coded(lognormal_type):
    from nbapp.choices import fit_comparison_plot, numeric_choices

    df = table().dropna()
    assert numeric_choices(df, "income") == ["gaussian", "kde", KIND]
    assert KIND not in numeric_choices(df.assign(income=np.log(df["income"]) - 10.5), "income")
    curves = fit_comparison_plot(NaiveBayes(TYPES).fit(df, "y"), "income", df).curves
    assert (curves.loc[curves["type"] == KIND, "density"] >= 0).all() and KIND in set(curves["type"])
    cmi = nbapp.conditional_mutual_information(df, "y", TYPES)
    assert list(cmi.index) == ["income", "region"] and cmi.loc["income", "income"] > 0


def test_the_command_line_fits_predicts_and_explains_it(lognormal_type, tmp_path, capsys):
    from nbapp.cli import main

    df = table()
    df.to_csv(tmp_path / "t.csv", index=False)
    assert main(["fit", str(tmp_path / "t.csv"), "--target", "y", "--types", "income=lognormal,region=categorical",
                 "--out", str(tmp_path / "m.json")]) == 0
    model = NaiveBayes.from_json((tmp_path / "m.json").read_text())
    assert model.features_["income"] == LogNormal()
    assert main(["predict", str(tmp_path / "m.json"), str(tmp_path / "t.csv"), "--out", str(tmp_path / "p.csv")]) == 0
    assert len(pd.read_csv(tmp_path / "p.csv")) == len(df)
    capsys.readouterr()
    assert main(["explain", str(tmp_path / "m.json"), "--row", '{"income": 30000, "region": "north"}']) == 0
    assert KIND in capsys.readouterr().out
