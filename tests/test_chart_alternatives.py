"""Every chart has a text alternative (issue 33, item 8): beside each figure a caption states what
it shows in words and numbers, read from the figure's own data (ui.charts.describe), and classes
are told apart by more than colour (a name in the legend and a marker symbol, dash or pattern of
their own)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import ROOT, choose_lesson, clear_caches, no_exception, open_page, start  # noqa: F401
from ui import charts


def _blocks(node) -> list:
    """Every block of the element tree (the page, its columns, expanders, tabs...)."""
    out = [node] if hasattr(node, "children") else []
    for child in getattr(node, "children", {}).values():
        out += _blocks(child)
    return out


def _plain(markdown: str) -> str:
    """A caption's text as shown: md()'s backslash escapes and word joiners undone."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def charts_and_captions(at: AppTest) -> list[tuple[str, str | None, go.Figure]]:
    """Each plotly chart on screen: its title, the text of the element drawn right after it in
    its block (None when that is not a caption) and the figure."""
    found = []
    for block in _blocks(at._tree):
        kids = list(block.children.values())
        for i, kid in enumerate(kids):
            if kid.type == "plotly_chart":
                fig = go.Figure(json.loads(kid.proto.spec))
                title = fig.layout.title.text or "(untitled)"
                after = kids[i + 1] if i + 1 < len(kids) else None
                found.append((title, _plain(after.value) if after is not None and after.type == "caption" else None,
                              fig))
    return found


LESSONS = ("smoothing", "prior", "linear", "naive", "calibration", "generative", "generate", "underflow")


def _every_chart(example: str) -> list[tuple[str, str, str | None, go.Figure]]:
    """(where, chart title, caption after it, figure) for every chart of every page and lesson on ``example``."""
    at = start(example)
    seen = []
    for page in ("Model", "Explain", "Evaluate", "Text"):
        open_page(at, page)
        seen += [(page, *found) for found in charts_and_captions(at)]
    open_page(at, "Lessons", check_title=False)
    for lesson in LESSONS:
        choose_lesson(at, lesson)
        seen += [(f"Lessons, {lesson}", *found) for found in charts_and_captions(at)]
    return seen


@pytest.mark.parametrize("example", ["tennis14", "penguins", "sms_spam"])
def test_every_chart_on_every_page_is_followed_by_its_words_and_numbers(example):
    seen = _every_chart(example)
    assert len(seen) >= 5, f"the walk drew only {len(seen)} charts: it no longer reaches the pages' charts"
    missing = [f"{where}: {title}" for where, title, caption, _ in seen
               if caption is None or not caption.startswith(charts.CAPTION_START) or not re.search(r"\d", caption)]
    assert not missing, "charts without a caption in words and numbers right after them:\n" + "\n".join(missing)


@pytest.mark.parametrize("example", ["tennis14", "penguins", "sms_spam"])
def test_no_chart_on_any_page_tells_classes_apart_by_colour_alone(example):
    found = [f"{where}: {title}: {problem}" for where, title, _, fig in _every_chart(example)
             for problem in colour_alone(fig)]
    assert not found, "\n".join(found)


# -- every chart goes through charts.show ---------------------------------------------------------

DRAWING = re.compile(r"\.(plotly_chart|altair_chart|vega_lite_chart|pyplot|image|line_chart|bar_chart|area_chart|"
                     r"scatter_chart|pydeck_chart|graphviz_chart|bokeh_chart)\(")


def test_no_page_or_view_draws_a_chart_except_through_charts_show():
    """charts.show writes the caption, so a chart drawn any other way would have none (the walk
    above only reaches the charts its examples draw; this reaches every line of code)."""
    sources = [*ROOT.glob("pages/*.py"), *ROOT.glob("ui/**/*.py")]
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in sources if path.name != "charts.py"
             for n, line in enumerate(path.read_text().splitlines(), start=1) if DRAWING.search(line)]
    assert not found, "\n".join(found)


class _Where:
    """A stand-in for st or a column: records what is drawn, in order."""

    def __init__(self) -> None:
        self.drawn: list[tuple[str, object]] = []

    def plotly_chart(self, fig, **kwargs):
        self.drawn.append(("chart", kwargs))
        return {"selection": {}}

    def caption(self, text):
        self.drawn.append(("caption", text))


def test_show_draws_the_chart_then_its_words_and_returns_the_charts_event():
    where = _Where()
    event = charts.show(where, charts.priors_bar(pd.Series({"Yes": 9 / 14, "No": 5 / 14})), key="k")
    assert event == {"selection": {}}
    assert [kind for kind, _ in where.drawn] == ["chart", "caption"]
    assert where.drawn[0][1] == {"key": "k"}
    assert _plain(where.drawn[1][1]) == "Chart in words: Class prior P(c). Bars: Yes: 0.643, No: 0.357."


# -- the sentences state the chart's numbers -------------------------------------------------------

def test_the_priors_bars_are_said_class_by_class_with_their_probability():
    assert charts.describe(charts.priors_bar(pd.Series({"Yes": 9 / 14, "No": 5 / 14}))) == \
        "Class prior P(c). Bars: Yes: 0.643, No: 0.357."


def test_the_waterfall_is_said_step_by_step_with_its_total():
    fig = charts.waterfall(pd.Series({"prior": 0.5878, "Outlook": -1.3218}), title="log-odds of Yes", total=-0.734)
    assert charts.describe(fig) == "log-odds of Yes. Steps: prior +0.588, Outlook -1.322, total log-odds -0.734."


def test_the_confusion_matrix_is_said_cell_by_cell_with_its_count():
    confusion = pd.DataFrame([[6, 3], [4, 1]], index=["Yes", "No"], columns=["Yes", "No"])
    text = charts.describe(charts.confusion_heatmap(confusion))
    assert text == ("Confusion matrix. Cells: true Yes, predicted Yes: 6; true Yes, predicted No: 3; "
                    "true No, predicted Yes: 4; true No, predicted No: 1.")
    shares = charts.describe(charts.confusion_heatmap(confusion, normalise=True))
    assert "true Yes, predicted No: 33%" in shares and "true No, predicted Yes: 80%" in shares


def test_a_big_heatmap_is_said_by_its_range_and_where_its_ends_are():
    cmi = pd.DataFrame(np.arange(64, dtype=float).reshape(8, 8), index=list("abcdefgh"), columns=list("abcdefgh"))
    text = charts.describe(charts.cmi_heatmap(cmi))
    assert "56 of 64 cells drawn" in text                      # the diagonal is left blank
    assert "from a, b: 1 to h, g: 62" in text


def test_a_line_is_said_by_its_ends_and_its_peak_between_them():
    grid = np.linspace(0.0, 2.0, 41)
    density = pd.DataFrame({"Yes": np.exp(-(grid - 1.0) ** 2), "No": grid / 2})
    text = charts.describe(charts.density_curves(grid, density, "Temperature"))
    assert "Yes (line): from 0.368 at Temperature 0 to 0.368 at Temperature 2, highest 1 at Temperature 1." in text
    assert "No (line): from 0 at Temperature 0 to 1 at Temperature 2." in text


def test_the_roc_chart_says_its_area_and_the_thresholds_point():
    roc = pd.DataFrame({"fpr": np.linspace(0, 1, 20), "tpr": np.sqrt(np.linspace(0, 1, 20))})
    point = pd.Series({"false positive rate": 0.25, "recall": 0.8, "precision": 0.7})
    text = charts.describe(charts.roc_chart(roc, point, "Yes", 0.812))
    assert "ROC (AUC 0.812) (line): from 0 at false positive rate 0 to 1 at false positive rate 1" in text
    assert "threshold (points): (0.25, 0.8)" in text


def test_many_bars_are_said_by_the_largest_and_how_many_there_are():
    words = pd.DataFrame({"class": ["spam"] * 20, "term": [f"w{i}" for i in range(20)],
                          "probability": np.arange(1, 21) / 100})
    text = charts.describe(charts.top_words_bars(words, value_label="P(w | c)"))
    assert "the 12 largest of 20: w19: 0.2, w18: 0.19" in text and text.endswith("w8: 0.09.") and "w7" not in text


def test_a_class_scatter_is_said_by_its_count_and_span():
    fig = go.Figure(go.Scatter(x=np.arange(30.0), y=np.arange(30.0) * 2, mode="markers", name="Adelie"))
    fig.update_layout(xaxis_title="bill length", yaxis_title="bill depth")
    assert charts.describe(fig) == "Adelie (points): 30 points, bill length from 0 to 29, bill depth from 0 to 58."


def test_labels_are_said_as_text_not_as_plotlys_markup():
    shown = charts.describe(charts.priors_bar(pd.Series({"<b>A & B</b>": 0.25, "x<sup>2</sup>": 0.75})))
    assert "<b>A & B</b>: 0.25, x<sup>2</sup>: 0.75" in shown   # plot_text's escapes undone, the user's text kept


def test_a_marked_line_is_said_with_its_label():
    fig = go.Figure(go.Scatter(x=[0, 1], y=[1, 0], name="P(No | x)"))
    fig.add_vline(x=0.64, annotation_text="chosen prior")
    assert charts.describe(fig) == "P(No | x) (line): (0, 1), (1, 0). a line marks chosen prior at x = 0.64."


def test_the_nomogram_is_said_as_each_values_points_the_rows_points_and_its_total():
    import nbapp
    from nbapp.examples import load_example
    from nbapp.nomogram import nomogram_row, nomogram_scales
    from ui import nomogram

    tennis = load_example("tennis14")
    model = nbapp.NaiveBayes({c: "categorical" for c in ("Outlook", "Temperature", "Humidity", "Wind")},
                             alpha=1).fit(tennis, "Play")
    scales = nomogram_scales(model, "Yes", frame=tennis)
    row = nomogram_row(scales, model, {"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High", "Wind": "Strong"})
    text = nomogram.in_words(nomogram.figure(scales, row))
    for s in scales.scales:
        said = ", ".join(f"{v} {p:+.1f}" for v, p in zip(s.values, s.points))
        assert f"{s.feature}: {said}" in text
    assert f"prior {scales.prior_points:+.1f}" in text
    assert f"This row: Sunny: {row.points['Outlook']:+.1f}, Cool: {row.points['Temperature']:+.1f}" in text
    assert text.endswith(f"total {row.total_points:+.1f}: P = {row.probability:.3f}.")


# -- colour is never the only carrier of a class ----------------------------------------------------

def _counts_frame() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    y = np.repeat(["Adelie", "Chinstrap", "Gentoo"], 60)
    return pd.DataFrame({"v": rng.poisson(np.repeat([1.0, 4.0, 9.0], 60)).astype(float), "y": y})


def _class_figures() -> dict[str, go.Figure]:
    """Every figure of ui.charts that draws one series per class (three classes each)."""
    import nbapp
    from nbapp.choices import fit_comparison_plot
    from nbapp.densities import gaussian_fit_plot, poisson_fit_plot

    frame = _counts_frame()
    gaussian = nbapp.NaiveBayes({"v": "gaussian"}).fit(frame, "y")
    poisson = nbapp.NaiveBayes({"v": "poisson"}).fit(frame, "y")
    grid = np.linspace(0.0, 15.0, 50)
    styles = {"gaussian": charts.CurveStyle("Gaussian", "dash"), "poisson": charts.CurveStyle("Poisson", "dot", True),
              "kde": charts.CurveStyle("KDE", "solid")}
    words = pd.DataFrame({"class": np.repeat(["Adelie", "Chinstrap", "Gentoo"], 3), "term": list("abcabcabc"),
                          "probability": np.linspace(0.1, 0.9, 9)})
    return {
        "gaussian_fit": charts.gaussian_fit(gaussian_fit_plot(gaussian, "v", frame, x_star=3.0),
                                            gaussian.gaussian("v"), "v"),
        "poisson_fit": charts.poisson_fit(poisson_fit_plot(poisson, "v", frame), poisson.parameters("v"), "v"),
        "fit_comparison": charts.fit_comparison(fit_comparison_plot(poisson, "v", frame), "v", styles),
        "density_curves": charts.density_curves(grid, gaussian.gaussian_density("v", grid), "v"),
        "top_words_bars": charts.top_words_bars(words, value_label="P(w | c)"),
    }


def _colour(trace) -> str | None:
    marker = getattr(trace, "marker", None)
    line = getattr(trace, "line", None)
    colour = marker.color if marker is not None and isinstance(marker.color, str) else None
    return colour or (line.color if line is not None else None)


def _shape(trace) -> tuple:
    """What besides colour a series shows: bar pattern, line dash, marker symbol (when drawn)."""
    if trace.type in ("bar", "histogram"):
        return ("pattern", trace.marker.pattern.shape or "")
    if trace.type == "contour":
        return ("dash", trace.line.dash or "solid")
    mode = trace.mode or "lines"
    return (trace.line.dash or "solid" if "lines" in mode else None,
            trace.marker.symbol or "circle" if "markers" in mode else None)


def colour_alone(fig: go.Figure) -> list[str]:
    """The pairs of series ``fig`` tells apart by colour alone: drawn alike (same kind, same mode)
    in different colours with the same pattern, dash and symbol, and no text written on them."""
    series = [t for t in fig.data if t.type in ("bar", "histogram", "scatter", "contour") and _colour(t) is not None]
    return [f"{a.name!r} and {b.name!r}: {_shape(a)}" for k, a in enumerate(series) for b in series[k + 1:]
            if a.type == b.type and getattr(a, "mode", None) == getattr(b, "mode", None)
            and _colour(a) != _colour(b) and _shape(a) == _shape(b) and "text" not in str(getattr(a, "mode", ""))]


@pytest.mark.parametrize("name", ["gaussian_fit", "poisson_fit", "fit_comparison", "density_curves", "top_words_bars"])
def test_classes_differ_by_legend_name_and_by_pattern_dash_or_symbol_not_by_colour_alone(name):
    fig = _class_figures()[name]
    assert fig.layout.showlegend is not False
    assert all(t.showlegend is not False for t in fig.data), "every class's series is named in the legend"
    names = [t.name for t in fig.data]
    assert len(set(names)) == len(names), names
    assert not colour_alone(fig)
