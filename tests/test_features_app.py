"""The issue-12 feature types in the app: a model with a KDE, a discretised and a declared-categories
column shows their tables on the Model page, the naive-assumption check and the type comparison,
and its factors on the Explain page."""

from __future__ import annotations

import numpy as np
import pandas as pd

import nbapp
from apptest_helpers import import_model, open_page, start, table, upload

rng = np.random.default_rng(12)
N = 120
LABEL = rng.choice(["p", "q"], N)
INCOME = np.round(rng.lognormal(0, 1, N) + (LABEL == "p"), 3)
FRAME = pd.DataFrame({
    "income": INCOME,
    "score": np.round(INCOME * 2 + rng.normal(0, 0.5, N), 3),      # dependent on income
    "colour": rng.choice(["red", "green"], N),
    "visits": rng.poisson(2, N),
    "label": LABEL,
})
TYPES = {"income": nbapp.KDE(bandwidth="silverman"), "score": nbapp.Discretized(bins=3, strategy="quantile"),
         "colour": nbapp.Categorical(categories=["red", "green", "blue"], unseen="smooth"), "visits": "poisson"}


def _app():
    at = upload(start(), "features.csv", FRAME.to_csv(index=False).encode(), check=False)
    if at.selectbox(key="_data_target").value != "label":
        at.selectbox(key="_data_target").set_value("label").run()
    at = open_page(at, "Model")
    model = nbapp.NaiveBayes(TYPES, alpha=1).fit(FRAME, "label")
    import_model(at, "features.json", model)
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["work"].imported is not None
    at = open_page(at, "Model")
    at.session_state["model.choice_open"] = True          # the numeric-type comparison, opened
    at.session_state["model.dependence_open"] = True       # the check of the naive assumption, opened
    at.run()
    return at, model


def test_the_model_page_shows_the_kde_intervals_declared_cpt_and_dependence():
    at, model = _app()
    kde = table(at, lambda t: "h" in t.columns and "n_eff" in t.columns)
    np.testing.assert_allclose(kde["h"].to_numpy(dtype=float), model.parameters("income")["h"].to_numpy(dtype=float))
    intervals = table(at, lambda t: {"from", "to"} <= set(t.columns))
    assert len(intervals) == 3 and intervals.index[1].startswith("[")
    at.selectbox(key="model.cpt_feature").set_value("colour").run()
    cpt = table(at, lambda t: "(unseen)" in map(str, t.index))
    assert list(cpt.index) == ["red", "green", "blue", "(unseen)"]       # declared order, then the pseudo-row
    assert any("3 declared categories" in c.value and "extra row (unseen)" in c.value for c in at.caption)
    pairs = table(at, lambda t: {"a", "b", "cmi"} <= set(t.columns))
    assert {pairs["a"][0], pairs["b"][0]} == {"income", "score"}        # the dependent pair comes first
    titles = [c.proto.spec for c in at.get("plotly_chart")]
    assert any("Conditional mutual information" in s for s in titles)
    assert any("KDE (solid)" in s for s in titles)


def test_the_comparison_buttons_cross_validate():
    at, model = _app()
    at.selectbox(key="model.choice_feature").set_value("visits").run()
    at.button(key="model.choice_cv").click().run()
    assert not at.exception, [e.value for e in at.exception]
    cv = table(at, lambda t: "log_loss" in t.columns)
    assert set(cv.index) == {"gaussian", "kde", "poisson"} and cv.loc["poisson", "current"]
    at.button(key="model.cmi_compare").click().run()
    assert not at.exception, [e.value for e in at.exception]
    posteriors = table(at, lambda t: "with" in map(str, t.index))
    np.testing.assert_allclose(posteriors.sum(axis=1).to_numpy(dtype=float), 1.0)


def test_the_explain_page_shows_each_new_factor():
    at, model = _app()
    at = open_page(at, "Explain")
    factors = table(at, lambda t: "status" in t.columns and "income" in map(str, t.index))
    assert {"income", "score", "colour", "visits"} <= set(map(str, factors.index))
    row = {c: at.session_state["work"].query.get(c) for c in TYPES}
    e = model.explain(row)
    assert e.factors.loc["income", "kind"] == "kde" and e.factors.loc["score", "kind"] == "discretized"
    assert e.factors.loc["score", "detail"].startswith("in the interval")


def test_the_numeric_type_comparison_is_computed_only_when_its_section_is_opened(monkeypatch):
    """Issue 25: a smoothing click on Model does not pay for one fit per type per column unless
    the comparison is on screen."""
    import nbapp.choices

    calls = []
    plot = nbapp.choices.fit_comparison_plot
    monkeypatch.setattr(nbapp.choices, "fit_comparison_plot", lambda *a, **k: calls.append(a[1]) or plot(*a, **k))
    at = upload(start(), "features.csv", FRAME.to_csv(index=False).encode(), check=False)
    if at.selectbox(key="_data_target").value != "label":
        at.selectbox(key="_data_target").set_value("label").run()
    at = open_page(at, "Model")
    assert not at.exception, [e.value for e in at.exception]
    assert calls == [] and not [c for c in at.get("plotly_chart") if "KDE (solid)" in c.proto.spec]
    at.session_state["model.choice_open"] = True
    at.run()
    assert len(calls) == 1 and [c for c in at.get("plotly_chart") if "KDE (solid)" in c.proto.spec]


def test_the_check_of_the_naive_assumption_is_computed_only_when_opened(monkeypatch):
    """Issue 25: the conditional-information check waits behind its section's title; opened, it
    is computed once and kept, and a click on l does not compute it again."""
    import nbapp.dependence

    calls = []
    cmi = nbapp.dependence.conditional_mutual_information
    monkeypatch.setattr(nbapp.dependence, "conditional_mutual_information",
                        lambda *a, **k: calls.append(1) or cmi(*a, **k))
    at = open_page(start(), "Model")
    assert calls == [] and not [c for c in at.get("plotly_chart") if "Conditional mutual information" in c.proto.spec]
    at.session_state["model.dependence_open"] = True
    at.run()
    assert calls == [1] and [c for c in at.get("plotly_chart") if "Conditional mutual information" in c.proto.spec]
    at.number_input(key="_model_alpha").set_value(0.5).run()
    assert not at.exception and calls == [1]
