"""Plotly figures of the workbench. They draw numbers computed by nbapp; labels pass plot_text.

Every figure reaches the page through :func:`show`, which writes beside it a caption that states
what it shows in words and numbers (:func:`describe`, read from the figure's own data, so the two
cannot drift); classes are told apart by name, marker and dash as well as by colour (issue 33, item 8).
"""

from __future__ import annotations

import html
import re
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from nbapp.densities import GaussianFitPlot
from ui.text import fmt_number, md, plot_text

__all__ = ["COLOURS", "colour", "symbol", "dash", "pattern", "layout", "show", "show_svg", "words_caption", "describe", "spoken", "CAPTION_START", "priors_bar", "gaussian_fit", "density_curves", "top_words_bars",
           "waterfall", "confusion_heatmap", "fit_comparison", "CurveStyle", "cmi_heatmap", "roc_chart", "pr_chart"]

#: One colour per class (plotly's default cycle), shared by every figure of the app.
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_MARGIN = dict(l=10, r=10, t=40, b=10)


def colour(i: int) -> str:
    """The i-th class colour (the cycle repeats after eight)."""
    return COLOURS[i % len(COLOURS)]


#: What tells classes apart besides colour (issue 33, item 8: colour is never the only carrier of a
#: class): a marker symbol, a line dash and a bar pattern per class, with the class's name in the legend.
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "cross", "triangle-down")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
PATTERNS = ("", "/", "\\", "x", "-", "|", "+", ".")
_MARKED_POINTS = 12          # markers drawn along a dense curve: enough to read the symbol, few enough not to hide the line


def symbol(i: int) -> str:
    """The i-th class's marker symbol (the cycle repeats after eight)."""
    return SYMBOLS[i % len(SYMBOLS)]


def dash(i: int) -> str:
    """The i-th class's line dash (the cycle repeats after six)."""
    return DASHES[i % len(DASHES)]


def pattern(i: int) -> str:
    """The i-th class's bar pattern (none for the first; the cycle repeats after eight)."""
    return PATTERNS[i % len(PATTERNS)]


def layout(height: int = 320) -> dict:
    """The layout every figure shares: tight margins and a height."""
    return dict(margin=_MARGIN, height=height)


def priors_bar(priors: pd.Series) -> go.Figure:
    """P(c) per class."""
    fig = go.Figure(go.Bar(x=[plot_text(c) for c in priors.index], y=priors.to_numpy(dtype=float),
                           text=[f"{p:.3g}" for p in priors], textposition="auto"))
    fig.update_layout(title="Class prior P(c)", yaxis_title="P(c)", yaxis_range=[0, 1], **layout())
    return fig


def gaussian_fit(plot: GaussianFitPlot, fits: pd.DataFrame, column: str) -> go.Figure:
    """Per class, the data's histogram (as a density) and the fitted normal N(mean, var).

    ``plot`` is nbapp's ``gaussian_fit_plot`` (binned on the server); ``fits`` is ``model.gaussian(col)``.
    """
    fig = go.Figure()
    for i, (cls, row) in enumerate(fits.iterrows()):
        shade = colour(i)
        name = plot_text(cls)
        bars = plot.histogram[plot.histogram["class"] == cls]
        fig.add_trace(go.Bar(x=(bars["left"] + bars["right"]) / 2, y=bars["density"],
                             width=(bars["right"] - bars["left"]), name=f"{name} data", opacity=0.45,
                             marker=dict(color=shade, pattern_shape=pattern(i)), legendgroup=name))
        curve = plot.curves[plot.curves["class"] == cls]
        fig.add_trace(go.Scatter(x=curve["x"], y=curve["density"], mode="lines",
                                 name=f"{name}: N({row['mean']:.4g}, {row['var']:.4g})",
                                 line=dict(color=shade, width=2, dash=dash(i)), legendgroup=name))
        marks = plot.marks[plot.marks["class"] == cls] if plot.marks is not None else None
        if marks is not None and len(marks):
            fig.add_trace(go.Scatter(x=marks["x"], y=marks["density"], mode="markers+text",
                                     text=[f"p(x* | {name}) = {v:.4g}" for v in marks["density"]],
                                     textposition="top right", marker=dict(color=shade, size=11, symbol=symbol(i)),
                                     name=f"{name} at x*", legendgroup=name))
    if plot.marks is not None and len(plot.marks):
        fig.add_vline(x=float(plot.marks["x"].iloc[0]), line_dash="dash", line_color="#555",
                      annotation_text="x*", annotation_position="top")
    fig.update_layout(barmode="overlay", xaxis_title=plot_text(column), yaxis_title="density",
                      **layout(360))
    return fig


def poisson_fit(plot: Any, fits: pd.DataFrame, column: str) -> go.Figure:
    """Per class, the share of rows with each count (bars) and the fitted Poisson P(x | c) (dots).
    Made anew for every l (the dots move): the traces go into one Figure call, half the time of
    adding them one by one (add_trace and update_layout check the whole figure again)."""
    traces = []
    for i, (cls, row) in enumerate(fits.iterrows()):
        shade, name = colour(i), plot_text(cls)
        bars = plot.observed[plot.observed["class"] == cls]
        traces.append(go.Bar(x=bars["x"], y=bars["share"], name=f"{name} data", opacity=0.45,
                             marker=dict(color=shade, pattern_shape=pattern(i)), legendgroup=name))
        dots = plot.fitted[plot.fitted["class"] == cls]
        traces.append(go.Scatter(x=dots["x"], y=dots["probability"], mode="lines+markers",
                                 name=f"{name}: Poisson(λ = {row['lambda']:.4g})",
                                 line=dict(color=shade, width=2, dash=dash(i)), marker=dict(symbol=symbol(i), size=7),
                                 legendgroup=name))
    return go.Figure(data=traces, layout=dict(barmode="overlay", xaxis_title=plot_text(column), yaxis_title="P(x | c)",
                                              **layout(360)))


class CurveStyle(NamedTuple):
    """How one type's fitted density is drawn beside the others: its name, its line, markers or not."""

    name: str
    dash: str = "solid"
    markers: bool = False


def fit_comparison(plot: Any, column: str, styles: Mapping[str, CurveStyle]) -> go.Figure:
    """Per class, the data's histogram (as a density) with each type's fit over it (``plot`` is
    nbapp.choices.fit_comparison_plot; ``styles``: type name -> how its curve is drawn)."""
    fig = go.Figure()
    for i, cls in enumerate(dict.fromkeys(plot.histogram["class"])):
        shade, name = colour(i), plot_text(cls)
        bars = plot.histogram[plot.histogram["class"] == cls]
        fig.add_trace(go.Bar(x=(bars["left"] + bars["right"]) / 2, y=bars["density"],
                             width=(bars["right"] - bars["left"]), name=f"{name} data", opacity=0.35,
                             marker=dict(color=shade, pattern_shape=pattern(i)), legendgroup=name))
        for kind, curve in plot.curves[plot.curves["class"] == cls].groupby("type", sort=False):
            style = styles.get(kind, CurveStyle(str(kind)))
            # the dash tells the types apart, the marker symbol the classes (a count type marks every point)
            fig.add_trace(go.Scatter(x=curve["x"], y=curve["density"], mode="lines+markers",
                                     name=f"{name}: {plot_text(style.name)}",
                                     line=dict(color=shade, width=2, dash=style.dash), legendgroup=name,
                                     marker=dict(symbol=symbol(i), size=7,
                                                 maxdisplayed=0 if style.markers else _MARKED_POINTS)))
    drawn = dict.fromkeys(plot.curves["type"])
    title = ", ".join(f"{styles[k].name} ({_DASH_WORDS.get(styles[k].dash, styles[k].dash)})" for k in drawn
                      if k in styles)
    fig.update_layout(barmode="overlay", xaxis_title=plot_text(column), yaxis_title="density",
                      title=plot_text(f"Data and fits: {title}", limit=120), **layout(380))
    return fig


_DASH_WORDS = {"solid": "solid", "dash": "dashed", "dot": "dotted"}


def density_curves(grid: np.ndarray, density: pd.DataFrame, column: str) -> go.Figure:
    """The fitted density p(x | c) of each class (a column of ``density``) over ``grid``."""
    fig = go.Figure()
    for i, cls in enumerate(density.columns):
        fig.add_trace(go.Scatter(x=grid, y=density[cls].to_numpy(dtype=float), mode="lines", name=plot_text(cls),
                                 line=dict(color=colour(i), width=2, dash=dash(i))))
    fig.update_layout(xaxis_title=plot_text(column), yaxis_title="density p(x | c)", **layout(340))
    return fig


def cmi_heatmap(cmi: pd.DataFrame) -> go.Figure:
    """I(X_a; X_b | C) in nats per pair of features (the diagonal, H(X_a | C), left blank)."""
    values = cmi.to_numpy(dtype=float).copy()
    values[np.diag_indices_from(values)] = np.nan
    names = [plot_text(c) for c in cmi.index]
    fig = go.Figure(go.Heatmap(z=values, x=names, y=names, colorscale="Reds", zmin=0,
                               colorbar=dict(title="nats"), hovertemplate="%{y} · %{x}: %{z:.3g} nats<extra></extra>"))
    fig.update_layout(title="Conditional mutual information I(X_a; X_b | C)", yaxis_autorange="reversed",
                      **layout(380))
    return fig


def top_words_bars(words: pd.DataFrame, *, value_label: str) -> go.Figure:
    """Horizontal bars of ``model.top_words``: each word's probability, grouped by class."""
    fig = go.Figure()
    for i, (cls, part) in enumerate(words.groupby("class", sort=False)):
        part = part.iloc[::-1]
        fig.add_trace(go.Bar(x=part["probability"].to_numpy(dtype=float), y=[plot_text(w) for w in part["term"]],
                             orientation="h", name=plot_text(cls),
                             marker=dict(color=colour(i), pattern_shape=pattern(i))))
    fig.update_layout(barmode="group", xaxis_title=value_label, **layout(max(320, 22 * len(words))))
    return fig


def waterfall(contrib: pd.Series, *, title: str, total: float | None,
              total_label: str = "log-odds") -> go.Figure:
    """Contributions to a log-odds, bar by bar, ending in ``total`` (the explanation's
    log P(a | x) / P(b | x)); no total bar when ``total`` is None (a factor decides alone)."""
    labels = [plot_text(i) for i in contrib.index]
    values = [float(v) for v in contrib.to_numpy(dtype=float)]
    ends = [] if total is None else [float(total)]
    fig = go.Figure(go.Waterfall(
        orientation="h",
        measure=["relative"] * len(values) + ["total"] * len(ends),
        y=labels + [total_label] * len(ends),
        x=values + ends,
        text=[f"{v:+.3f}" for v in values + ends],
        textposition="outside",
        increasing=dict(marker=dict(color="#2a9d8f")),
        decreasing=dict(marker=dict(color="#e76f51")),
        totals=dict(marker=dict(color="#264653")),
    ))
    fig.update_layout(title=plot_text(title, limit=120), xaxis_title="log-odds (natural log)",
                      yaxis=dict(autorange="reversed"), **layout(120 + 40 * (len(values) + len(ends))))
    return fig


# Cells keep their number written in them up to this many classes; beyond, the hover shows it.
_CONFUSION_TEXT_CLASSES = 20


def confusion_heatmap(confusion: pd.DataFrame, *, normalise: bool = False) -> go.Figure:
    """Counts of true (rows) against predicted (columns) classes, in the order given; with
    ``normalise``, each true class's row as shares of its rows (the recall on the diagonal).
    Every class keeps its label up to 50 classes: the figure grows with the classes."""
    counts = confusion.to_numpy(dtype=float)
    total = counts.sum(axis=1, keepdims=True)
    z = np.divide(counts, total, out=np.zeros_like(counts), where=total > 0) if normalise else counts
    k = max(len(confusion.index), len(confusion.columns))
    text = [[f"{v:.0%}" if normalise else f"{v:,.0f}" for v in row] for row in z]
    x = [plot_text(c) for c in confusion.columns]
    y = [plot_text(c) for c in confusion.index]
    fig = go.Figure(go.Heatmap(
        z=z, x=x, y=y, colorscale="Blues", text=text, showscale=False,
        texttemplate="%{text}" if k <= _CONFUSION_TEXT_CLASSES else None,
        hovertemplate="true %{y}<br>predicted %{x}<br>%{text}<extra></extra>",
    ))
    tick = dict(type="category", tickmode="array", tickfont=dict(size=12 if k <= 20 else 9))
    fig.update_layout(title="Confusion matrix" + (" (share of each true class)" if normalise else ""),
                      xaxis=dict(title="predicted", tickvals=x, tickangle=-45 if k > 8 else 0, **tick),
                      yaxis=dict(title="true", autorange="reversed", tickvals=y, **tick),
                      **layout(max(320, 60 + 18 * k)))
    return fig


def roc_chart(roc: pd.DataFrame, point: pd.Series, positive: Any, auc: float) -> go.Figure:
    """The ROC curve of one class against the rest, with the slider's threshold marked."""
    fig = go.Figure([
        go.Scatter(x=roc["fpr"], y=roc["tpr"], mode="lines", name=f"ROC (AUC {auc:.3f})"),
        go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(dash="dot", color="#999"), name="chance"),
        go.Scatter(x=[point["false positive rate"]], y=[point["recall"]], mode="markers",
                   marker=dict(size=11, color="#d62728"), name="threshold"),
    ])
    fig.update_layout(title=f"ROC: {plot_text(positive)} against the rest", xaxis_title="false positive rate",
                      yaxis_title="true positive rate (recall)", **layout(360))
    return fig


def pr_chart(pr: pd.DataFrame, point: pd.Series, positive: Any, average_precision: float) -> go.Figure:
    """The precision-recall curve of one class against the rest, with the threshold marked."""
    fig = go.Figure([
        go.Scatter(x=pr["recall"], y=pr["precision"], mode="lines", line_shape="hv",
                   name=f"precision-recall (AP {average_precision:.3f})"),
        go.Scatter(x=[point["recall"]], y=[point["precision"]], mode="markers",
                   marker=dict(size=11, color="#d62728"), name="threshold"),
    ])
    fig.update_layout(title=f"Precision-recall: {plot_text(positive)}", xaxis_title="recall",
                      yaxis_title="precision", yaxis_range=[0, 1.05], **layout(360))
    return fig



# --------------------------------------------------------------------------- the figure in words
# (issue 33, item 8: every chart has a text alternative beside it)

#: How every chart's caption starts, so a reader (and a test) knows it is the chart in words.
CAPTION_START = "Chart in words:"
_ITEMS = 12           # values listed per series; beyond, the largest of them by size
_SERIES = 12          # series described per figure; beyond, how many more there are
_CELLS = 36           # heatmap cells listed one by one; beyond, the range and where its ends are
_TAG = re.compile(r"<[^>]*>")


def show(where: Any, fig: go.Figure, *, words: Callable[[go.Figure], str] | None = None, **kwargs: Any) -> Any:
    """``where.plotly_chart(fig, **kwargs)`` (``where``: st or a column) followed by the figure in
    words as a caption: :func:`describe`, or ``words`` for a chart that reads better its own way
    (the nomogram); returns what plotly_chart returns (a selection event)."""
    event = where.plotly_chart(fig, **kwargs)
    words_caption(where, (words or describe)(fig))
    return event


def show_svg(where: Any, svg: str, words: str) -> None:
    """An SVG chart of :mod:`ui.svg_charts` as an image in ``where`` (a ``data:`` URL, part of the
    page's commit), its words as its ``alt`` and, as :func:`show` writes them, its caption."""
    where.image(svg, alt=words)
    words_caption(where, words)


def words_caption(where: Any, words: str) -> None:
    """A chart's words under it, as every chart of the app says them ("Chart in words: ...")."""
    where.caption(md(f"{CAPTION_START} {words}"))


def describe(fig: go.Figure) -> str:
    """The figure as sentences: its title, then one sentence per series from the numbers the
    series draws (one helper per kind of trace), the marked lines and the notes written on it."""
    axes = (_axis_title(fig.layout.xaxis), _axis_title(fig.layout.yaxis))
    drawn = [t for t in fig.data if t.visible is not False]
    sentences = [_SENTENCES[t.type](t, axes) for t in drawn[:_SERIES]]
    if len(drawn) > _SERIES:
        sentences.append(f"{len(drawn) - _SERIES} more series are drawn")
    sentences += _marks(fig)
    title = spoken(fig.layout.title.text or "")
    return " ".join(f"{s}." for s in [title, *sentences] if s)


def bars_sentence(trace: Any, axes: tuple[str, str]) -> str:
    """Bars: each bar's label and value (``text`` when the bar prints one); beyond _ITEMS bars,
    the largest ones by size."""
    horizontal = trace.orientation == "h"
    labels, values = (trace.y, trace.x) if horizontal else (trace.x, trace.y)
    values = _numbers(values)
    labels = _labels(labels, len(values))
    return _named(trace, "bars", _pairs(labels, values, _texts(trace, len(values))))


def waterfall_sentence(trace: Any, axes: tuple[str, str]) -> str:
    """A waterfall: each step's label and signed size, the totals named as such."""
    values = _numbers(trace.x if trace.orientation == "h" else trace.y)
    labels = _labels(trace.y if trace.orientation == "h" else trace.x, len(values))
    measures = list(trace.measure or ["relative"] * len(values))
    steps = [f"{'total ' if m == 'total' else ''}{label} {value:+.3f}"
             for label, value, m in zip(labels, values, measures)]
    return _named(trace, "steps", ", ".join(steps))


#: plotly's scatter mode of text alone (a mode, not a feature type).
_TEXT_ONLY = "text"


def scatter_sentence(trace: Any, axes: tuple[str, str]) -> str:
    """Points or a line: labelled points by their labels, a few points one by one, a line or a
    cloud by where it starts, ends, peaks and spans."""
    mode = trace.mode or "lines"
    y = _numbers(trace.y)
    texts = _texts(trace, len(y))
    if mode == _TEXT_ONLY:                                    # words placed on a grid
        return _named(trace, "labels", ", ".join(texts[:_ITEMS * 4]) + _more(len(texts), _ITEMS * 4))
    x = _numbers(trace.x) if _is_numeric(trace.x) else None
    what = "line" if "lines" in mode else "points"
    if _TEXT_ONLY in mode and texts and len(y) <= _ITEMS:     # labelled points: a scale's values
        return _named(trace, what, ", ".join(f"{t} at {_num(v)}" for t, v in zip(texts, x if x is not None else y)))
    if x is None:
        return _named(trace, what, _pairs(_labels(trace.x, len(y)), y, None))
    if len(y) <= _ITEMS:
        return _named(trace, what, ", ".join(f"({_num(a)}, {_num(b)})" for a, b in zip(x, y)))
    return _named(trace, what, _course(x, y, axes) if "lines" in mode else _cloud(x, y, axes))


def heatmap_sentence(trace: Any, axes: tuple[str, str]) -> str:
    """A grid of cells: each cell (row, column: value) when there are few, else the range and
    the cells at its two ends."""
    z = np.atleast_2d(np.asarray(pd.DataFrame(trace.z).apply(pd.to_numeric, errors="coerce"), dtype=float))
    rows, cols = _labels(trace.y, z.shape[0]), _labels(trace.x, z.shape[1])
    text = np.asarray(trace.text, dtype=object) if trace.text is not None and np.ndim(trace.text) == 2 else None
    shown = [(i, j) for i in range(z.shape[0]) for j in range(z.shape[1]) if np.isfinite(z[i, j])]
    row_axis, col_axis = (f"{a} " if a else "" for a in (axes[1], axes[0]))

    def cell(i: int, j: int) -> str:
        value = spoken(text[i, j]) if text is not None else _num(z[i, j])
        return f"{row_axis}{rows[i]}, {col_axis}{cols[j]}: {value}"

    if not shown:
        return _named(trace, "cells", "none drawn")
    if len(shown) <= _CELLS:
        return _named(trace, "cells", "; ".join(cell(i, j) for i, j in shown))
    low = np.unravel_index(np.nanargmin(z), z.shape)
    high = np.unravel_index(np.nanargmax(z), z.shape)
    return _named(trace, "cells", f"{len(shown)} of {z.size} cells drawn, from {cell(*low)} to {cell(*high)}")


def contour_sentence(trace: Any, axes: tuple[str, str]) -> str:
    """Contour lines over a grid: where the surface peaks, and its value there."""
    z = np.asarray(trace.z, dtype=float)
    i, j = np.unravel_index(np.nanargmax(z), z.shape)
    x, y = _numbers(trace.x), _numbers(trace.y)
    return _named(trace, "contours", f"highest {_num(z[i, j])} at ({_num(x[j])}, {_num(y[i])})")


def histogram_sentence(trace: Any, axes: tuple[str, str]) -> str:
    """Raw values that plotly bins: numbers by their count, range and mean; categories by their shares."""
    values = pd.Series(np.asarray(trace.x, dtype=object)).dropna()
    numeric = pd.to_numeric(values, errors="coerce")
    if len(values) and numeric.notna().all():
        return _named(trace, "values", f"{len(values)} values from {_num(numeric.min())} to {_num(numeric.max())}, "
                                       f"mean {_num(numeric.mean())}")
    shares = values.astype(str).value_counts(normalize=True, sort=True)
    return _named(trace, "shares", _pairs(_labels(shares.index, len(shares)), shares.to_numpy(dtype=float), None))


_SENTENCES: dict[str, Callable[[Any, tuple[str, str]], str]] = {
    "bar": bars_sentence, "waterfall": waterfall_sentence, "scatter": scatter_sentence,
    "heatmap": heatmap_sentence, "contour": contour_sentence, "histogram": histogram_sentence,
}


def _course(x: np.ndarray, y: np.ndarray, axes: tuple[str, str]) -> str:
    """A line's course: start, end, highest and lowest point ((x, y) pairs, NaN skipped)."""
    finite = np.isfinite(x) & np.isfinite(y)
    if not finite.any():
        return "no finite point"
    x, y = x[finite], y[finite]
    at = f"{axes[0]} " if axes[0] else "x "
    ends = [0, len(y) - 1]
    said = [f"from {_num(y[0])} at {at}{_num(x[0])} to {_num(y[-1])} at {at}{_num(x[-1])}"]
    for word, k in (("highest", int(np.argmax(y))), ("lowest", int(np.argmin(y)))):
        if y[k] not in (y[0], y[-1]) and k not in ends:       # a peak or a dip between the ends
            said.append(f"{word} {_num(y[k])} at {at}{_num(x[k])}")
    return ", ".join(said)


def _cloud(x: np.ndarray, y: np.ndarray, axes: tuple[str, str]) -> str:
    """A cloud of points: how many, and the span of each axis."""
    finite = np.isfinite(x) & np.isfinite(y)
    if not finite.any():
        return "no finite point"
    x, y = x[finite], y[finite]
    across, up = (a or fallback for a, fallback in zip(axes, ("x", "y")))
    return (f"{len(x)} points, {across} from {_num(x.min())} to {_num(x.max())}, "
            f"{up} from {_num(y.min())} to {_num(y.max())}")


def _pairs(labels: list[str], values: np.ndarray, texts: list[str] | None) -> str:
    """``label value`` pairs in drawing order: all of them, or the _ITEMS largest by size when there are more."""
    order = np.arange(len(values))
    if len(values) > _ITEMS:
        order = np.sort(np.argsort(-np.abs(np.nan_to_num(values, nan=0.0)), kind="stable")[:_ITEMS])
    shown = [f"{labels[i]}: {texts[i] if texts else _num(values[i])}" for i in order]
    head = f"the {_ITEMS} largest of {len(values)}: " if len(values) > _ITEMS else ""
    return head + ", ".join(shown)


def _named(trace: Any, what: str, body: str) -> str:
    name = spoken(trace.name or "")
    return f"{name} ({what}): {body}" if name else f"{what.capitalize()}: {body}"


def _marks(fig: go.Figure) -> list[str]:
    """Vertical marker lines and the notes written on the figure (an annotation's own words)."""
    notes = [(a.x if a.xref == "x" else None, spoken(a.text)) for a in fig.layout.annotations if a.text]
    lines = []
    for shape in fig.layout.shapes:
        if shape.type == "line" and shape.x0 is not None and shape.x0 == shape.x1 and shape.xref == "x":
            named = [note for note in notes if note[0] == shape.x0][:1]      # the line's own label
            notes = [note for note in notes if note not in named]
            lines.append(f"a line marks {named[0][1] + ' at ' if named else ''}x = {_num(shape.x0)}")
    return lines + ([f"written on the chart: {', '.join(text for _, text in notes)}"] if notes else [])


def _axis_title(axis: Any) -> str:
    return spoken(axis.title.text or "") if axis is not None and axis.title is not None else ""


def spoken(text: Any) -> str:
    """Plotly label text as plain words: our markup (<sup>, <br>) dropped, plot_text's escapes undone."""
    return html.unescape(_TAG.sub(" ", str(text))).strip()


def _texts(trace: Any, n: int) -> list[str]:
    text = trace.text
    if text is None or isinstance(text, str) or np.ndim(text) != 1 or len(text) != n:
        return []
    return [spoken(t) for t in text]


def _labels(values: Any, n: int) -> list[str]:
    if values is None:
        return [str(i) for i in range(n)]
    return [_num(v) if isinstance(v, (int, float, np.number)) and not isinstance(v, bool) else spoken(v)
            for v in values]


def _is_numeric(values: Any) -> bool:
    return values is not None and pd.api.types.is_numeric_dtype(pd.Series(np.asarray(values, dtype=object)).infer_objects())


def _numbers(values: Any) -> np.ndarray:
    if values is None:
        return np.array([], dtype=float)
    return pd.to_numeric(pd.Series(np.asarray(values, dtype=object)), errors="coerce").to_numpy(dtype=float)


def _num(v: Any) -> str:
    return fmt_number(v, digits=3)


def _more(n: int, shown: int) -> str:
    return f" and {n - shown} more" if n > shown else ""
