"""A model of many classes costs work in proportion to its classes, on the library's side and on
the pages' (issue 31, item 6: a valid model file of 100,000 classes kept the Model page busy for
8 minutes, the prior recomputed once per class). Speed itself is measured in
bench/bench_many_classes.py; these tests pin the structure: how often the per-class work is done,
and that a page shows at most ``MAX_SHOWN_CLASSES`` classes and says so."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbapp.priors
from apptest_helpers import clear_caches, open_page, start, tables as on_screen  # noqa: F401 (autouse fixture)
from nbapp import NaiveBayes
from nbapp.explain import class_labels
from ui import classes as classes_ui
from ui.classes import MAX_SHOWN_CLASSES
from ui.sources import ModelFile


def many_classes(k: int, *, seed: int = 0) -> NaiveBayes:
    """A categorical and a Gaussian feature, two rows of each of ``k`` classes (the second twice
    for class 0, so the priors differ)."""
    rng = np.random.default_rng(seed)
    y = [f"class{i:06d}" for i in range(k)] * 2 + ["class000000"]
    frame = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], len(y)),
                          "size": rng.normal(size=len(y)), "y": y})
    return NaiveBayes({"colour": "categorical", "size": "gaussian"}).fit(frame, "y")


def test_the_prior_is_computed_once_however_often_a_page_reads_it(monkeypatch):
    k = 300
    model = many_classes(k)
    made = 0
    smoothed = nbapp.priors.smoothed_fraction

    def counted(*args):
        nonlocal made
        made += 1
        return smoothed(*args)

    monkeypatch.setattr(nbapp.priors, "smoothed_fraction", counted)
    for c in model.classes_:           # as the Model page did: the priors read once per class shown
        assert model.priors_[c] > 0 and model.prior_fractions()[c] > 0
        model.log_prior_
    # one fraction per class, made once (before: every read made all K again, K^2 = 90,000)
    assert made == k
    assert model.prior_fractions()["class000000"] == pytest.approx(3 / (2 * k + 1))


def test_a_model_under_other_priors_computes_its_own():
    model = many_classes(3)
    before = model.priors_.copy()
    uniform = model.with_priors("uniform")
    assert uniform.priors_.tolist() == pytest.approx([1 / 3] * 3)
    assert model.priors_.equals(before)          # the copy's priors did not reach the original
    refit = many_classes(3, seed=1)
    refit.partial_fit(pd.DataFrame({"colour": ["red"] * 4, "size": [0.0] * 4, "y": ["class000001"] * 4}))
    assert refit.prior_fractions()["class000001"] == pytest.approx(6 / 11)   # new counts, new priors


def test_given_priors_checked_against_a_set_still_name_a_class_that_is_not_one():
    # 'c not in classes' on the list of classes was K comparisons per given prior: K^2 in all
    model = many_classes(4)
    given = {c: 0.25 for c in model.classes_}
    assert model.with_priors(given).priors_.tolist() == [0.25] * 4
    with pytest.raises(Exception, match="'other', which is not a class"):
        model.with_priors({**{c: 0.2 for c in model.classes_}, "other": 0.2})


class _Name(str):
    """A class's printed name that counts the comparisons made with it."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        _Name.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class _Class:
    def __init__(self, i: int) -> None:
        self.i = i

    def __str__(self) -> str:
        return _Name(f"c{self.i % 1999}")      # two classes print alike: c0 is class 0 and class 1999

    def __repr__(self) -> str:
        return f"_Class({self.i})"


def test_class_labels_compare_each_name_a_bounded_number_of_times():
    classes = [_Class(i) for i in range(2000)]
    _Name.comparisons = 0
    labels = class_labels(classes)
    assert labels[0] == "_Class(0)" and labels[1999] == "_Class(1999)" and labels[1] == "c1"
    # Counter: about one comparison per name (before, list.count per class: 2000 * 2000)
    assert _Name.comparisons <= 4 * len(classes)


def test_the_factor_table_built_by_groups_of_columns_keeps_their_order_and_values():
    model = many_classes(200)
    e = model.explain({"colour": "red", "size": 0.1})
    table = e.factors
    assert list(table.columns[:4]) == ["kind", "value", "status", "detail"]
    assert list(table.columns[4:7]) == ["p[class000000]", "p[class000001]", "p[class000002]"]
    assert list(table.columns[4 + 200:4 + 201]) == ["log[class000000]"]
    assert table.shape[1] == 4 + 3 * 200
    assert table.loc["colour", "log[class000007]"] == e.logs.loc["colour", "class000007"]
    assert table.loc["colour", "fraction[class000007]"] == e.fractions.loc["colour", "class000007"]
    assert table.loc["size", "fraction[class000007]"] is None      # a density has no fraction


def test_the_explain_helpers_show_the_most_probable_classes_and_weigh_them_all():
    model = many_classes(200)
    e = model.explain({"colour": "red", "size": 0.1})
    ranked = classes_ui.ranked_classes(e)
    shown = classes_ui.shown_classes(e)
    assert len(shown) == MAX_SHOWN_CLASSES and set(shown) == set(ranked[:MAX_SHOWN_CLASSES])
    table = classes_ui.posterior_table(e)
    assert len(table) == MAX_SHOWN_CLASSES and table["class"].iloc[0] == str(e.prediction)
    rest, total = classes_ui.one_vs_rest(e, e.prediction)
    assert rest.shape[1] == MAX_SHOWN_CLASSES
    others = e.joint_log.drop(e.prediction).to_numpy()
    from scipy.special import logsumexp
    assert total == pytest.approx(float(e.joint_log[e.prediction] - logsumexp(others)))   # every class counts
    assert "200 classes" in classes_ui.classes_note(200, "posterior")
    assert classes_ui.classes_note(MAX_SHOWN_CLASSES, "posterior") is None


def test_the_model_page_shows_the_classes_of_highest_prior():
    model = many_classes(200)
    shown = classes_ui.shown_model_classes(model)
    assert len(shown) == MAX_SHOWN_CLASSES and "class000000" in shown     # the one of three rows
    assert shown == sorted(shown)                                            # in the model's order


def test_the_gaussian_fit_plot_draws_the_classes_asked_for_only():
    from nbapp.densities import gaussian_fit_plot

    model = many_classes(200)
    plot = gaussian_fit_plot(model, "size", pd.DataFrame({"size": [], "y": []}), classes=["class000003", "class000009"])
    assert set(plot.curves["class"]) == {"class000003", "class000009"}


def test_a_model_file_of_100000_classes_opens_on_model_and_explain():
    """Within the AppTest timeout of the helpers, each page: before, 8 minutes on Model."""
    text = many_classes(100_000).to_json().encode()
    at = start(timeout=300)          # about 10 s a page on a quiet machine, several times that on a loaded one
    open_page(at, "Model")
    at.file_uploader(key="model.json_upload").set_value(("many.json", text, "application/json")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert isinstance(at.session_state["work"].source, ModelFile)
    note = "The model has 100,000 classes; this shows the 50 with the highest prior P(c)."
    assert any(note in c.value for c in at.caption)
    tables = on_screen(at)
    priors = next(t for t in tables if list(t.columns) == ["n_c", "P(c)", "decimal"])
    assert len(priors) == MAX_SHOWN_CLASSES and "class000000" in priors.index      # the one of 3 rows
    assert all(max(t.shape) <= MAX_SHOWN_CLASSES for t in tables), [t.shape for t in tables]
    open_page(at, "Explain")
    assert not at.error, [e.value for e in at.error]
    tables = on_screen(at)
    posterior = next(t for t in tables if "rank" in t.columns)
    assert len(posterior) == MAX_SHOWN_CLASSES and posterior["rank"].tolist() == list(range(1, 51))
    assert all(t.shape[0] <= MAX_SHOWN_CLASSES for t in tables), [t.shape for t in tables]
    assert any("The model has 100,000 classes; this shows the 50 with the highest posterior" in c.value
               for c in at.caption)
