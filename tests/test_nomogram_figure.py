"""The nomogram's figure as a class sees it (issue 33, item 4): in the exported SVG the total's
"P = ..." label lies inside the image, no two labels of one scale overlap (the probability
ticks, 2007/2008/2009, Biscoe/Dream/Torgersen, a curve's marks), and numbers read as people
write them (body mass 6,300, not 6.3e+03). Penguins with ``year`` as a category, against the
rest and against one class, rows whose totals fall left, right and beyond the axis.

Label widths are estimated from their characters (``EM`` of the font size: Open Sans and the
fonts Chromium falls back to stay under it for digits and lower-case letters); the browser test
in tests/e2e/test_nomogram_browser.py measures the same SVG's boxes in Chromium."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.examples import example, load_example
from nbapp.nomogram import nomogram_row, nomogram_scales
from ui import nomogram as view

EM = 0.58
E_NOTATION = re.compile(r"\d[eE][+-]?\d")
SVG = "{http://www.w3.org/2000/svg}"
needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="kaleido exports through Chromium")

# (class, against, the row's changes to the example's query)
CASES = [("Gentoo", "rest", {}),                                # total far right: P = 1.000
         ("Adelie", "rest", {}),                                # total far left
         ("Adelie", "Chinstrap", {}),                           # total inside the axis
         ("Chinstrap", "rest", {"island": "Dream", "bill_length_mm": 49.0, "bill_depth_mm": 18.5,
                                "flipper_length_mm": 196.0, "body_mass_g": 3700.0})]


@lru_cache(maxsize=1)
def penguins():
    frame = load_example("penguins")
    spec = example("penguins")
    model = nbapp.NaiveBayes({**spec.features, "year": "categorical"}, alpha=1).fit(frame, target="species")
    return frame, spec, model


def penguin_figure(cls, against, changes):
    frame, spec, model = penguins()
    scales = nomogram_scales(model, cls, against=against, frame=frame)
    row = {**spec.query, "sex": "male", "year": 2008, **changes}
    return view.figure(scales, nomogram_row(scales, model, row))


@lru_cache(maxsize=None)
def exported_svg(case: int) -> str:
    return view.images(penguin_figure(*CASES[case]))[1].decode()


def _translate(element: ET.Element) -> tuple[float, float]:
    found = re.search(r"translate\(\s*([-\d.e]+)[ ,]*([-\d.e]*)\s*\)", element.get("transform", ""))
    if not found:
        return 0.0, 0.0
    return float(found.group(1)), float(found.group(2) or 0.0)


def svg_texts(svg: str):
    """Every text of the SVG: (its trace's class or None, text, left, right, top, bottom, font) in
    the image's pixels, the ancestors' translations added."""
    found = []

    def walk(element, dx, dy, trace):
        tx, ty = _translate(element)
        dx, dy = dx + tx, dy + ty
        if "trace" in element.get("class", "").split():
            trace = element.get("class")
        if element.tag == f"{SVG}text" and "".join(element.itertext()):
            text = "".join(element.itertext())
            font = float(re.search(r"font-size:\s*([\d.]+)px", element.get("style", "")).group(1))
            x, y = dx + float(element.get("x", 0)), dy + float(element.get("y", 0))
            width = len(text) * font * EM
            left = {"start": x, "middle": x - width / 2, "end": x - width}[element.get("text-anchor", "start")]
            found.append((trace, text, left, left + width, y - 0.8 * font, y + 0.2 * font, font))
        for child in element:
            walk(child, dx, dy, trace)

    walk(ET.fromstring(svg), 0.0, 0.0, None)
    return found


def test_numbers_for_people_have_no_e_notation_between_1e_minus_4_and_1e6():
    assert view.number_text(6300.0) == "6,300"
    assert view.number_text(3000.0) == "3,000"
    assert view.number_text(5853.7) == "5,850"
    assert view.number_text(48.44) == "48.4"
    assert view.number_text(0.00012345) == "0.000123"
    assert view.number_text(0.5) == "0.5"
    assert view.number_text(999_999.0) == "1,000,000"
    assert view.number_text(-2700.0) == "-2,700"
    for v in (1e-4, 3.3e-3, 0.999, 12.0, 123_456.0, 999_000.0):
        assert not E_NOTATION.search(view.number_text(v)), v


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_penguins_figure_prints_no_number_in_e_notation(case):
    fig = penguin_figure(*CASES[case])
    printed = [t for trace in fig.data if trace.text is not None
               for t in ([trace.text] if isinstance(trace.text, str) else trace.text)]
    assert any("," in t for t in printed)                  # body mass's marks: 2,700 ... 6,300
    assert not [t for t in printed if E_NOTATION.search(str(t))]


def test_a_total_beyond_the_axis_is_marked_at_its_end_and_said_so():
    fig = penguin_figure(*CASES[0])
    total = next(t for t in fig.data if t.name == "this row's total")
    axis = next(t for t in fig.data if t.name == view.AXIS_TRACE)
    assert total.x[0] == pytest.approx(max(axis.x))
    assert "beyond the axis" in total.text[0] and "P = 1.000" in total.text[0]
    assert total.textposition == "middle left"             # it opens towards the room, inside the image


@needs_chromium
@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_svg_s_total_label_lies_inside_the_image(case):
    svg = exported_svg(case)
    width = float(ET.fromstring(svg).get("width"))
    label = [t for t in svg_texts(svg) if "P = " in t[1] and t[1].startswith("total")]
    assert len(label) == 1
    _, text, left, right, *_ = label[0]
    assert 0 <= left and right <= width, (text, left, right, width)


@needs_chromium
@pytest.mark.parametrize("case", range(len(CASES)))
def test_no_two_labels_of_one_scale_overlap_in_the_svg(case):
    texts = [t for t in svg_texts(exported_svg(case)) if t[0] is not None]
    by_trace: dict[str, list] = {}
    for t in texts:
        by_trace.setdefault(t[0], []).append(t)
    # the prior, island, four curves' marks, sex, year, the probability ticks and the total are here
    assert len(by_trace) == 10 and max(len(v) for v in by_trace.values()) >= 10
    overlapping = [(a[1], b[1]) for labels in by_trace.values() for i, a in enumerate(labels) for b in labels[i + 1:]
                   if a[2] < b[3] and b[2] < a[3] and a[4] < b[5] and b[4] < a[5]]
    assert not overlapping


def test_the_probability_axis_keeps_its_round_ticks_and_reads_within_a_point():
    fig = penguin_figure(*CASES[2])
    printed = [t for t in next(t for t in fig.data if t.name == view.AXIS_TRACE).text if t]
    assert {"0.01", "0.1", "0.5", "0.9", "0.99"} <= set(printed)
    frame, spec, model = penguins()
    row = {**spec.query, "sex": "male", "year": 2008}
    p = model.predict_proba(pd.DataFrame([row])).iloc[0]
    assert abs(view.read_probability(fig) - p["Adelie"] / (p["Adelie"] + p["Chinstrap"])) <= 0.01


def test_a_scale_of_many_values_and_a_constant_number_are_drawn_with_room_for_their_points():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"c": rng.choice([f"value {i}" for i in range(30)], 300), "k": 5.0,
                          "y": rng.choice(["a", "b"], 300)})
    model = nbapp.NaiveBayes({"c": "categorical", "k": "gaussian"}, alpha=1).fit(frame, target="y")
    scales = nomogram_scales(model, "a", frame=frame)
    fig = view.figure(scales, nomogram_row(scales, model, {"c": "value 3", "k": 5.0}))
    values = next(t for t in fig.data if t.name == "scale::c")
    assert values.mode == "markers" and len(values.customdata) == 30        # 30 names: on hover only
    low, high = fig.layout.xaxis.range
    assert low < min(values.x) and max(values.x) < high
