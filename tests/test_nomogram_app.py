"""The nomogram on the Explain page (issue 25, item 5): the section appears when opened with the
row's probability equal to predict_proba; reading the drawn figure back (the row's marked points
plus the prior's, then the printed probability ticks) is within 1 percentage point of it; a
slider moves a number, a click on a category's point takes its value; the PNG and SVG are the
same figure exported."""

from __future__ import annotations

import shutil

import pandas as pd
import plotly.io as pio
import pytest

import nbapp
from nbapp.examples import example, load_example
from nbapp.nomogram import nomogram_row, nomogram_scales
from ui import nomogram as view

from apptest_helpers import metric, no_exception, open_page, start
from apptest_helpers import clear_caches, downloads  # noqa: F401 (fixtures)

SECTION = "explain.nomogram"


def open_nomogram(at):
    at.session_state[SECTION] = True
    return no_exception(at.run())


def drawn(at):
    """The nomogram's figure as the page sent it (the chart with a probability axis)."""
    figures = [pio.from_json(c.proto.spec) for c in at.get("plotly_chart")]
    found = [f for f in figures if any(t.name == view.AXIS_TRACE for t in f.data)]
    assert found, "no nomogram on screen"
    return found[-1]


def proba(model, row, cls) -> float:
    return float(model.predict_proba(pd.DataFrame([row]))[cls].iloc[0])


def test_the_nomogram_is_computed_only_when_its_section_is_opened():
    at = open_page(start(), "Explain")
    assert not [m for m in at.metric if "nomogram" in m.label]
    open_nomogram(at)
    assert [m for m in at.metric if "nomogram" in m.label]


def test_tennis_nomogram_shows_predict_proba_and_reads_back_within_a_point():
    at = open_page(start(), "Model")
    at.number_input(key="_model_alpha").set_value(1.0).run()
    open_nomogram(open_page(at, "Explain"))
    model = at.session_state["model"]
    row = at.session_state["work"].row(model.features_)
    cls = "Yes"                                       # the first class in the notes' order
    exact = proba(model, row, cls)
    assert metric(at, f"P({cls} | x) read off the nomogram") == f"{exact:.4f}"
    assert abs(view.read_probability(drawn(at)) - exact) <= 0.01


def test_penguins_slider_moves_the_number_and_the_probability():
    at = open_page(start("penguins"), "Explain")
    open_nomogram(at)
    model = at.session_state["model"]
    assert at.slider(key="_nomogram::1").label.replace("\\", "") == "bill_length_mm"
    at.slider(key="_nomogram::1").set_value(50.0).run()
    no_exception(at)
    work = at.session_state["work"]
    assert work.query["bill_length_mm"] == 50.0
    row = work.row(model.features_)
    cls = model.classes_[0]                           # the class shown: the first, until one is chosen
    exact = proba(model, row, cls)
    assert metric(at, f"P({cls} | x) read off the nomogram") == f"{exact:.4f}"
    assert abs(view.read_probability(drawn(at)) - exact) <= 0.01       # against the rest: the row's own points


def test_penguins_against_one_class_reads_back_within_a_point_for_every_row():
    frame = load_example("penguins")
    spec = example("penguins")
    model = nbapp.NaiveBayes(spec.features, alpha=1).fit(frame, target="species")
    rows = frame.drop(columns="species").iloc[::25].to_dict("records")
    for against in ("Chinstrap", "rest"):
        scales = nomogram_scales(model, "Adelie", against=against, frame=frame)
        for row in rows:
            fig = view.figure(scales, nomogram_row(scales, model, row))
            if against == "rest":
                exact = proba(model, row, "Adelie")
            else:                                        # P(Adelie | x, Adelie or Chinstrap)
                p = model.predict_proba(pd.DataFrame([row]))
                exact = float(p["Adelie"].iloc[0] / (p["Adelie"].iloc[0] + p["Chinstrap"].iloc[0]))
            assert abs(view.read_probability(fig) - exact) <= 0.01, (against, row)


def test_clicking_a_category_point_makes_it_the_rows_value():
    frame = load_example("tennis14")
    spec = example("tennis14")
    model = nbapp.NaiveBayes(spec.features, alpha=1).fit(frame, target="Play")
    scales = nomogram_scales(model, "Yes", frame=frame)
    fig = view.figure(scales, nomogram_row(scales, model, spec.query))
    number = next(i for i, t in enumerate(fig.data) if t.name == "scale::Outlook")
    rain = list(scales.scale("Outlook").values).index("Rain")
    event = {"selection": {"points": [{"curve_number": number, "point_index": rain}], "point_indices": [rain],
                           "box": [], "lasso": []}}
    assert view.picked_value(fig, event, scales) == ("Outlook", "Rain")
    prior = next(i for i, t in enumerate(fig.data) if t.name == view.PRIOR_TRACE)
    assert view.picked_value(fig, {"selection": {"points": [{"curve_number": prior, "point_index": 0}]}},
                             scales) is None


@pytest.mark.skipif(shutil.which("chromium") is None, reason="kaleido exports through Chromium")
def test_png_and_svg_are_the_figure_exported(downloads):
    at = open_page(start(), "Explain")
    open_nomogram(at)
    at.button(key="explain.nomogram_export").click().run()
    no_exception(at)
    png, png_name = downloads["Download PNG"]
    svg, svg_name = downloads["Download SVG"]
    assert png.startswith(b"\x89PNG") and png_name == "tennis14_nomogram_Yes.png"
    assert svg_name == "tennis14_nomogram_Yes.svg"
    probability = [m.value for m in at.metric if "nomogram" in m.label][0]
    assert f"this row: {float(probability):.3f}".encode() in svg   # the title carries the row's probability


def test_against_the_runner_up_the_nomogram_reads_the_two_class_probability():
    at = open_page(start("penguins"), "Explain")
    open_nomogram(at)
    at.selectbox(key="_explain_nomogram_against").set_value("runner_up").run()
    no_exception(at)
    model = at.session_state["model"]
    row = at.session_state["work"].row(model.features_)
    p = model.predict_proba(pd.DataFrame([row])).iloc[0]
    cls = model.classes_[0]
    runner_up = p.drop(cls).idxmax()
    exact = float(p[cls] / (p[cls] + p[runner_up]))
    assert metric(at, f"P({cls} | x) read off the nomogram") == f"{exact:.4f}"
    assert abs(view.read_probability(drawn(at)) - exact) <= 0.01
    assert at.session_state["work"].choice(view.AGAINST_CHOICE) == "runner_up"


def test_without_a_chromium_the_export_says_so_at_once(monkeypatch):
    from choreographer.browsers.chromium import Chromium

    monkeypatch.delenv("BROWSER_PATH", raising=False)
    monkeypatch.setattr(Chromium, "find_browser", classmethod(lambda cls, **kwargs: None))
    with pytest.raises(RuntimeError, match="no Chromium"):
        view.images(view.go.Figure())
