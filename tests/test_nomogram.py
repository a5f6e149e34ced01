"""The nomogram (issue 25, item 5; Možina et al. 2004): a person who reads a row's points off
the scales, adds them and reads the axis of totals gets predict_proba within 1 percentage
point; the exact total gives it to rounding; numbers are curves of the log-density ratio over
their range, not bins; the per-model part is computed once and the per-row part is one
explanation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp import DataError, NaiveBayes
from nbapp.blocks import GaussianBlock, register, unregister
from nbapp.nomogram import PROBABILITY_TICKS, nomogram, nomogram_row, nomogram_scales

from conftest import TENNIS_FEATURES
from every_type import EVERY_TYPE, every_type_frame
from new_type import lognormal_type  # noqa: F401  (a fixture: registers a type that lives in the tests)
from renamed import renamed

NUMERIC = {"colour": "categorical", "flag": "bernoulli", "n1": "multinomial", "n2": "multinomial",
           "size": "gaussian", "weight": "gaussian", "visits": "poisson", "skew": "kde",
           "band": nbapp.Discretized(bins=3)}


def read_by_hand(scales, row: dict, printed: int = 1) -> float:
    """What a person does with the printed figure: find each value on its scale and read its
    points (rounded as printed), add the prior's, and read the probability on the axis of
    totals between its two nearest ticks."""
    total = round(scales.prior_points, printed)
    for s in scales.scales:
        value = row.get(s.feature)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            continue                                   # a missing value adds no point
        total += round(s.points_at(value), printed)
    axis = scales.probability_axis
    return float(np.interp(total, axis["points"], axis["probability"]))


def proba(model: NaiveBayes, row: dict, cls) -> float:
    return float(model.predict_proba(pd.DataFrame([row], dtype=object))[cls].iloc[0])


def test_tennis_read_by_hand_is_within_a_percentage_point_and_the_total_is_exact(tennis):
    model = NaiveBayes(TENNIS_FEATURES, alpha=1).fit(tennis, "Play")
    scales = nomogram_scales(model, "Yes", frame=tennis)
    rows = [*tennis[list(TENNIS_FEATURES)].to_dict("records"),
            {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"}]
    for row in rows:
        exact = proba(model, row, "Yes")
        assert abs(read_by_hand(scales, row) - exact) <= 0.01
        on = nomogram_row(scales, model, row)
        assert on.probability == pytest.approx(exact, abs=1e-12)
        assert on.total_points == pytest.approx(on.points.sum(), abs=1e-9)
        for feature in TENNIS_FEATURES:                # one class against one: the scales hold for every row
            assert on.points[feature] == pytest.approx(scales.scale(feature).points_at(row[feature]), abs=1e-9)


def test_tennis_scales_are_the_notes_log_ratios_and_the_widest_spans_100_points(tennis):
    model = NaiveBayes(TENNIS_FEATURES, alpha=1).fit(tennis, "Play")
    scales = nomogram_scales(model, "Yes")
    outlook = scales.scale("Outlook")
    assert list(outlook.values) == ["Overcast", "Rain", "Sunny"] and not outlook.curve
    assert outlook.log_odds[0] == pytest.approx(math.log((5 / 12) / (1 / 8)), abs=1e-14)   # seed 000 at l = 1
    assert scales.prior_log_odds == pytest.approx(math.log(9 / 5), abs=1e-14)
    assert max(np.ptp(s.points) for s in scales.scales) == pytest.approx(100.0)
    assert np.allclose([np.ptp(s.points) / np.ptp(s.log_odds) for s in scales.scales], scales.points_per_nat)


@pytest.mark.parametrize("with_frame", [True, False])
def test_a_mixed_numeric_model_read_by_hand_is_within_a_percentage_point(with_frame):
    frame = every_type_frame(["ham", "spam"], rows=400)
    model = NaiveBayes(NUMERIC).fit(frame, "y")
    scales = nomogram_scales(model, "spam", frame=frame if with_frame else None)
    assert all(s.curve for s in scales.scales if s.value_kind in ("number", "count"))
    read = 0
    for row in frame[list(NUMERIC)].iloc[:80].to_dict("records"):
        exact = proba(model, row, "spam")
        assert nomogram_row(scales, model, row).probability == pytest.approx(exact, abs=1e-12)
        by_hand = read_by_hand(scales, row)
        if np.isnan(by_hand):                          # a value beyond the range drawn from the model
            assert not with_frame
            continue
        assert abs(by_hand - exact) <= 0.01, row
        read += 1
    assert read >= (80 if with_frame else 60)


def test_numbers_are_curves_of_the_log_density_ratio_not_bins():
    frame = every_type_frame(["ham", "spam"], rows=400)
    model = NaiveBayes(NUMERIC).fit(frame, "y")
    scales = nomogram_scales(model, "spam", frame=frame)
    size = scales.scale("size")
    density = model.gaussian_density("size", size.values)
    assert np.allclose(size.log_odds, np.log(density["spam"]) - np.log(density["ham"]), rtol=0, atol=1e-9)
    observed = pd.to_numeric(frame["size"]).dropna()
    assert size.values[0] == observed.min() and size.values[-1] == observed.max()
    assert len(np.unique(size.points)) > 100                       # a curve, not a handful of bins
    visits = scales.scale("visits")                                 # a count: whole numbers
    assert np.array_equal(visits.values, np.arange(visits.values[0], visits.values[-1] + 1))
    band = scales.scale("band")                                     # discretised: a step curve ...
    cuts = [float(s.split(", ")[1].rstrip(")")) for s in model.cpt("band").index[:-1]]
    for cut in cuts:                                                # ... whose jumps are located
        inside = band.values[(band.values > cut - 1e-6) & (band.values < cut + 1e-6)]
        assert len(inside) >= 2


def test_against_the_rest_the_row_s_own_points_give_the_probability_exactly():
    frame = every_type_frame(["a", "b", "c", "d"])
    model = NaiveBayes(EVERY_TYPE).fit(frame, "y")
    scales = nomogram_scales(model, "b", frame=frame)
    assert not scales.exact_for_every_row and scales.against == ("a", "c", "d")
    assert any("say" in n and "alone" in n for n in scales.notes)
    for row in frame.drop(columns="y").iloc[:20].to_dict("records"):
        on = nomogram_row(scales, model, row)
        exact = proba(model, row, "b")
        assert on.probability == pytest.approx(exact, abs=1e-12)
        printed = on.points.round(1).sum()
        axis = scales.probability_axis
        assert abs(np.interp(printed, axis["points"], axis["probability"]) - exact) <= 0.01
        colour = row["colour"]
        if colour is not None:                         # the value's own point: its tick on the scale
            assert on.on_scale["colour"] == pytest.approx(scales.scale("colour").points_at(colour), abs=1e-9)


def test_against_one_class_of_several_the_axis_reads_the_pair_s_share():
    frame = every_type_frame(["a", "b", "c", "d"])
    model = NaiveBayes(NUMERIC).fit(frame, "y")
    scales = nomogram_scales(model, "b", against="d", frame=frame)
    assert scales.exact_for_every_row and scales.against == ("d",)
    row = frame[list(NUMERIC)].iloc[3].to_dict()
    p = model.predict_proba(pd.DataFrame([row], dtype=object)).iloc[0]
    assert nomogram_row(scales, model, row).probability == pytest.approx(p["b"] / (p["b"] + p["d"]), abs=1e-12)
    assert abs(read_by_hand(scales, row) - p["b"] / (p["b"] + p["d"])) <= 0.01


def test_a_missing_value_has_no_point_and_the_total_stays_exact(tennis):
    model = NaiveBayes(TENNIS_FEATURES, alpha=1).fit(tennis, "Play")
    scales = nomogram_scales(model, "No")
    row = {"Outlook": "Sunny", "Temperature": None, "Humidity": "High", "Wind": None}
    on = nomogram_row(scales, model, row)
    assert on.points["Temperature"] == 0 and on.status["Temperature"] == "missing"
    assert on.probability == pytest.approx(proba(model, row, "No"), abs=1e-12)
    assert abs(read_by_hand(scales, row) - proba(model, row, "No")) <= 0.01


def test_a_text_column_has_no_scale_of_values_but_its_row_has_a_point():
    frame = every_type_frame(["ham", "spam"])
    model = NaiveBayes(EVERY_TYPE).fit(frame, "y")
    n = nomogram(model, "spam", frame=frame, row=frame.drop(columns="y").iloc[1])
    words = n.scales.scale("words")
    assert words.value_kind == "text" and words.values.size == 0
    assert n.row.points["words"] != 0
    assert any("text" in note for note in n.scales.notes)


def test_at_l_0_a_value_that_rules_a_side_out_sits_at_infinity(tennis):
    model = NaiveBayes(TENNIS_FEATURES, alpha=0).fit(tennis, "Play")
    scales = nomogram_scales(model, "Yes")
    assert scales.scale("Outlook").points_at("Overcast") == np.inf
    assert np.isfinite(scales.points_per_nat) and any("±∞" in n for n in scales.notes)
    on = nomogram_row(scales, model, {"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Strong"})
    assert on.total_points == np.inf and on.probability == 1.0


def test_the_scales_ask_the_type_how_to_draw_a_feature_not_its_name(tennis, lognormal_type):
    frame = pd.DataFrame({"h": [1.2, 1.5, 2.0, 2.4, 3.1, 3.3, 0.9, 2.8], "y": list("aabbabab")})
    custom = renamed(GaussianBlock, "bell", "Bell")
    register(custom)
    try:
        model = NaiveBayes({"h": "bell", "g": "lognormal"}).fit(frame.assign(g=frame["h"]), "y")
        scales = nomogram_scales(model, "b", frame=frame.assign(g=frame["h"]))
    finally:
        unregister("bell")
    assert scales.scale("h").curve and scales.scale("h").title == "Bell"
    assert scales.scale("g").curve and scales.scale("g").values[0] == 0.9
    row = {"h": 2.2, "g": 2.2}
    assert nomogram_row(scales, model, row).probability == pytest.approx(proba(model, row, "b"), abs=1e-12)


def test_a_row_needs_one_explanation_and_no_scale_work(tennis, monkeypatch):
    frame = every_type_frame(["ham", "spam"])
    model = NaiveBayes(EVERY_TYPE).fit(frame, "y")
    scales = nomogram_scales(model, "spam", frame=frame)

    def no_scale_work(*args, **kwargs):
        raise AssertionError("the per-row part scored values for the scales again")

    for block in model.blocks_:
        monkeypatch.setattr(block, "joint_log", no_scale_work)
    monkeypatch.setattr(model, "sample", no_scale_work)
    on = nomogram_row(scales, model, frame.drop(columns="y").iloc[4])
    assert np.isfinite(on.probability)


def test_reading_any_total_on_the_axis_of_totals_is_within_half_a_percentage_point():
    ticks = np.array(PROBABILITY_TICKS)
    logits = np.log(ticks / (1 - ticks))
    z = np.linspace(-10, 10, 100_001)
    assert np.abs(np.interp(z, logits, ticks) - 1 / (1 + np.exp(-z))).max() < 0.005


def test_the_runner_up_an_unfitted_model_and_a_stranger_class_are_refused(tennis):
    with pytest.raises(DataError, match="not fitted"):
        nomogram_scales(NaiveBayes(TENNIS_FEATURES), "Yes")
    model = NaiveBayes(TENNIS_FEATURES).fit(tennis, "Play")
    with pytest.raises(DataError, match="runner-up changes from row to row"):
        nomogram_scales(model, "Yes", against="runner_up")
    with pytest.raises(DataError, match="'Maybe' is not a class"):
        nomogram(model, "Maybe")
    with pytest.raises(DataError, match="points must be"):
        nomogram_scales(model, "Yes", points=1)
