"""Issue 14 (the lecture on one screen): library pieces behind the teaching views."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

import nbapp
from nbapp.examples import example, load_example
from nbapp.smoothing import cell_terms


def _tennis(**settings) -> nbapp.NaiveBayes:
    return nbapp.NaiveBayes(example("tennis14").features, **settings).fit(load_example("tennis14"), target="Play")


def test_m_estimate_with_given_p_is_seed_003_form_by_default():
    # (n_y + m p) / (n + m): Overcast | No = (0 + 1) / (5 + 2) = 1/7, Overcast | Yes = (4 + 1) / (9 + 2) = 5/11
    cpt = _tennis(smoothing=nbapp.MEstimate(2, p=0.5)).cpt("Outlook", exact=True)
    assert cpt.loc["Overcast", "No"] == F(1, 7)
    assert cpt.loc["Overcast", "Yes"] == F(5, 11)
    assert _tennis(smoothing=nbapp.MEstimate(2, p=0.5)).cpt("Outlook").loc["Overcast", "No"] == pytest.approx(1 / 7)


def test_normalised_m_estimate_divides_by_n_plus_k_m_p():
    cpt = _tennis(smoothing=nbapp.MEstimate(2, p=0.5, normalised=True)).cpt("Outlook", exact=True)
    assert cpt.loc["Overcast", "No"] == F(1, 8)
    assert cpt.loc["Overcast", "Yes"] == F(5, 12)
    assert sum(cpt["No"]) == 1


def test_m_estimate_forms_agree_when_p_is_one_over_k():
    a = _tennis(smoothing=nbapp.MEstimate(3)).cpt("Outlook", exact=True)
    b = _tennis(smoothing=nbapp.MEstimate(3, normalised=True)).cpt("Outlook", exact=True)
    assert a.equals(b)


def test_m_estimate_form_survives_json_and_old_files_keep_their_meaning():
    model = _tennis(smoothing=nbapp.MEstimate(2, p=0.5))
    again = nbapp.NaiveBayes.from_json(model.to_json())
    assert again.smoothing == nbapp.MEstimate(2, p=0.5)
    data = json.loads(model.to_json())
    del data["settings"]["smoothing"]["normalised"]          # a file written before the option existed
    old = nbapp.NaiveBayes.from_json(json.dumps(data))
    assert old.smoothing.normalised is True
    assert old.cpt("Outlook", exact=True).loc["Overcast", "No"] == F(1, 8)


def test_m_estimate_refuses_a_non_boolean_normalised():
    with pytest.raises(nbapp.DataError, match="normalised"):
        nbapp.MEstimate(2, p=0.5, normalised="yes")


def test_cell_terms_keep_the_counts_unreduced():
    import numpy as np

    terms = cell_terms(np.array([[3.0, 4.0], [6.0, 1.0]]), 0, 0, nbapp.Lidstone(0))
    assert (terms.numerator, terms.denominator, terms.value) == (3, 9, F(1, 3))
    terms = cell_terms(np.array([[0.0, 4.0], [5.0, 1.0], [0.0, 4.0]]), 0, 0, nbapp.MEstimate(2, p=0.5))
    assert (terms.numerator, terms.denominator) == (1, 7)


# ----------------------------------------------------------------------------- lessons: the claimed direction


def test_linear_lesson_notes_form_is_w_ber_b_ber_on_stolen_cars():
    import math

    import numpy as np

    ex, df = example("stolen_cars"), load_example("stolen_cars")
    model = nbapp.NaiveBayes(ex.feature_specs(), alpha=1).fit(df, target="Stolen")
    notes = model.linear_form().notes_form()
    assert notes.positive == "Yes" and notes.kinds == ("BER",)
    assert dict(notes.ones) == {"Color": "Red", "Type": "SUV", "Origin": "Domestic"}
    # theta = (N + 1) / (N_c + 2): Red | Yes 4/7, Red | No 3/7 -> w = log (4/7 * 4/7) / (3/7 * 3/7)
    assert notes.weights["Color"] == pytest.approx(math.log(16 / 9))
    theta = {"Yes": {"Color": 4 / 7, "Type": 2 / 7, "Origin": 3 / 7}, "No": {"Color": 3 / 7, "Type": 4 / 7, "Origin": 4 / 7}}
    b = math.log(1) + sum(math.log((1 - theta["Yes"][c]) / (1 - theta["No"][c])) for c in theta["Yes"])
    assert notes.bias == pytest.approx(b)
    np.testing.assert_allclose(notes.decision_function(df), model.linear_form().decision_function(df))


def test_linear_lesson_notes_form_is_w_gnb_b_gnb_with_shared_variance():
    import math

    import numpy as np

    ex, df = example("gender"), load_example("gender")
    model = nbapp.NaiveBayes(ex.features, variance="pooled").fit(df, target="Gender")
    notes = model.linear_form().notes_form()
    assert notes.kinds == ("GNB",) and notes.positive == "male"
    b = math.log(1.0)
    for column in ex.features:
        fit = model.gaussian(column)
        var = float(fit.loc["male", "var"])
        assert float(fit.loc["female", "var"]) == pytest.approx(var)
        mu_p, mu_n = float(fit.loc["male", "mean"]), float(fit.loc["female", "mean"])
        assert notes.weights[column] == pytest.approx((mu_p - mu_n) / var)
        b += (mu_n**2 - mu_p**2) / (2 * var)
    assert notes.bias == pytest.approx(b) and abs(notes.bias) > 1      # a number, not +0.0000
    np.testing.assert_allclose(notes.decision_function(df), model.linear_form().decision_function(df))


def test_duplicate_lesson_pushes_the_posterior_towards_the_copied_feature_s_class():
    # tennis at l = 1 (posterior 0.56): every copy of a feature moves P(favoured | x) towards 1
    from nbapp.lessons.covariance import duplicate_feature_effect, favoured_class

    ex, df = example("tennis14"), load_example("tennis14")
    model = nbapp.NaiveBayes(ex.features, alpha=1).fit(df, target="Play")
    assert favoured_class(model, ex.query, "Outlook") == "Yes"
    assert favoured_class(model, ex.query, "Humidity") == "No"
    for column in ex.features:
        side = favoured_class(model, ex.query, column)
        effect = duplicate_feature_effect(model, df, ex.query, column, copies=(0, 1, 2, 3, 5))
        path = effect.posterior[side].to_numpy()
        assert (path[1:] > path[:-1]).all() and path[-1] > 0.85, column
        assert effect.mean_confidence.iloc[-1] > effect.mean_confidence.iloc[0]


def test_prior_lesson_shows_signed_log_odds_and_never_an_infinite_total():
    import math

    from nbapp.lessons.prior_evidence import moved_priors, prior_vs_evidence
    from ui.lessons import prior_evidence_bar

    ex, df = example("bikes"), load_example("bikes")
    model = nbapp.NaiveBayes(ex.features, alpha=0).fit(df, target="bike", weight="count")
    e = model.explain(ex.query)
    split = prior_vs_evidence(e, "veoride", "private")
    assert split.log_prior_ratio == pytest.approx(math.log(20 / 80))          # the prior says private
    assert split.log_likelihood_ratio > 0 and split.log_posterior_ratio > 0   # teal says veoride, and wins
    fig = prior_evidence_bar(split.log_prior_ratio, split.log_likelihood_ratios, "veoride", "private")
    bars = list(fig.data[0].y) + list(fig.data[1].y)
    assert bars[0] < 0 < bars[1] and bars[-1] == pytest.approx(split.log_posterior_ratio)
    two_percent = model.with_priors(dict(moved_priors(e, "veoride", 0.02))).explain(ex.query)
    assert prior_vs_evidence(two_percent, "veoride", "private").prior_dominates      # seed 004: now private
    tennis = nbapp.NaiveBayes(example("tennis14").features, alpha=0).fit(load_example("tennis14"), target="Play")
    t = tennis.explain(example("tennis14").query)
    split = prior_vs_evidence(t, "Yes", "No")
    fig = prior_evidence_bar(split.log_prior_ratio, split.log_likelihood_ratios, "Yes", "No")
    assert "inf" not in fig.layout.title.text and "decides alone for Yes" in fig.layout.title.text
    assert all(math.isfinite(v) for trace in fig.data for v in trace.y)


def test_beta_prior_mode_is_seed_002_map_beside_the_mean():
    # Red | Yes: N = 3 of 5, Beta(2, 1): mean (3 + 2)/(5 + 3) = 5/8 (used), mode (3 + 1)/(5 + 1) = 2/3
    prior = nbapp.BetaPrior(2, 1)
    assert prior.mode(3, 5) == F(2, 3)
    assert nbapp.BetaPrior(1, 1).mode(3, 5) == F(3, 5)          # a = b = 1: the mode is the MLE
    assert nbapp.BetaPrior(0.5, 0.5).mode(0, 5) is None          # shape below 1: no interior mode


def test_three_way_split_is_stratified_and_disjoint():
    import numpy as np

    from nbapp.lessons.three_way import three_way_split

    y = np.array(["a"] * 50 + ["b"] * 30)
    part = three_way_split(y, dev_size=0.2, test_size=0.2, seed=3)
    for cls, n in (("a", 50), ("b", 30)):
        counts = {p: int(((part == p) & (y == cls)).sum()) for p in ("train", "development", "test")}
        assert counts == {"train": n - 2 * round(0.2 * n), "development": round(0.2 * n), "test": round(0.2 * n)}
    with pytest.raises(nbapp.DataError, match="sum to less than 1"):
        three_way_split(y, dev_size=0.5, test_size=0.5)


def test_development_data_chooses_l_and_the_test_data_is_scored_once_after():
    # seed 004: train estimates, development tunes, test evaluates the chosen model only
    from nbapp.evaluate import log_proba_for_scoring, score
    from nbapp.lessons.three_way import three_way_split, tune_on_development

    ex, df = example("tennis14"), load_example("tennis14")
    make = lambda l: nbapp.NaiveBayes(ex.features, alpha=l)  # noqa: E731
    tuning = tune_on_development(make, df, "Play", candidates=(0.0, 1.0, 5.0), seed=0)
    best = tuning.table["dev_accuracy"].max()
    assert tuning.table.loc[tuning.chosen, "dev_accuracy"] == best
    assert sum(tuning.sizes.values()) == 14
    part = three_way_split(df["Play"], seed=0)
    final = make(tuning.chosen).fit(df[part == "train"], target="Play")
    test = df[part == "test"]
    assert tuning.test_accuracy == score(test["Play"], log_proba_for_scoring(final, test)).accuracy


def test_export_puts_each_equation_on_its_own_line_in_markdown_and_latex():
    from nbapp.lessons.worked_example import worked_example_latex, worked_example_markdown

    ex = example("tennis14")
    model = nbapp.NaiveBayes(ex.features, alpha=1).fit(load_example("tennis14"), target="Play")
    e = model.explain(ex.query)
    lines = worked_example_markdown(e, model=model).splitlines()
    equations = [i for i, line in enumerate(lines) if line.startswith("$$")]
    assert len(equations) >= 9
    assert all(line.endswith("$$") for line in (lines[i] for i in equations))
    assert all(lines[i + 1] == "" for i in equations if i + 1 < len(lines))     # a paragraph each
    tex = worked_example_latex(e, model=model, title="Tennis_100%").splitlines()
    displayed = [line for line in tex if line.startswith(r"\[")]
    assert len(displayed) == len(equations) and all(line.endswith(r"\]") for line in displayed)
    assert r"\section*{Tennis\_100\%}" in tex and r"\subsection*{5. Posterior}" in tex
    assert any(r"\frac{784}{1389}" in line for line in displayed)


def test_declared_order_orders_the_display_only_and_undeclared_values_keep_the_model_order():
    from nbapp.ordering import in_declared_order, sort_values

    assert in_declared_order(["No", "Yes"], ("Yes", "No")) == ["Yes", "No"]
    assert in_declared_order(["No", "Yes"], ()) == ["No", "Yes"]                  # an upload: the model's order
    assert in_declared_order([1, 2, 10], ("10",)) == [1, 2, 10]                    # keys compare by type
    assert in_declared_order(["a", "b", "c"], ("c", "zz")) == ["c", "a", "b"]
    model = _tennis(alpha=0)
    assert list(model.classes_) == sort_values(["Yes", "No"]) == ["No", "Yes"]    # one class-order rule


def test_direct_estimate_counts_rows_equal_to_x_star_seed_000_eq_1_2():
    from nbapp.lessons.direct import direct_estimate

    for key in ("tennis14", "tennis6"):        # no training day equals either query: |B| = 0
        ex = example(key)
        direct = direct_estimate(load_example(key), ex.target, ex.query)
        assert (direct["matches"] == 0).all() and (direct["total"] == 0).all()
        assert direct["estimate"].isna().all()
    ex = example("bikes")                       # 21 teal bikes of 100, 19 of them Veorides
    direct = direct_estimate(load_example("bikes"), "bike", ex.query, weight="count")
    assert direct.loc["veoride", "estimate"] == F(19, 21) and direct["total"].iloc[0] == 21


def test_word_factors_have_a_status_per_class_with_seed_004_s_per_class_unk():
    # "awesome" occurs only in positive sentences: with a vocabulary per class it is UNK for negative
    from ui.views.text import word_rows

    ex = example("sentiment")
    model = nbapp.NaiveBayes({"text": nbapp.Text(vocabulary="per_class_unk")}, alpha=1).fit(
        load_example("sentiment"), target="sentiment")
    e = model.explain(ex.query)
    rows = word_rows(model, "text", e.words["text"], ["positive", "negative"]).set_index("word")
    assert rows.loc["awesome", "positive status"] == "used"
    assert rows.loc["awesome", "negative status"] == "UNK"
    assert rows.loc["awesome", "negative training count"] == "0"
    unk = float(rows.loc["awesome", "negative decimal"])
    n_neg = model.counts("text")["negative"].sum()
    v_neg = int((model.counts("text")["negative"] > 0).sum())
    assert unk == pytest.approx(1 / (n_neg + 1 * (v_neg + 1)), rel=1e-3)     # alpha / (n + alpha (V + 1))
