"""Showing user text (column names, labels, values) safely in markdown, LaTeX and plotly.

Streamlit renders widget labels, st.markdown, st.info and friends as markdown; we never pass
``unsafe_allow_html``, so user text cannot inject HTML, but it could still be *read* as
markdown (a column called ``**x**`` would turn bold). These helpers make it plain text.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

__all__ = ["md", "latex_text", "plot_text", "file_stem", "counted", "fmt_number", "fmt_fraction", "fmt_log", "fmt_count"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&^])")


def md(value: Any) -> str:
    """``value`` as markdown that renders as its literal text."""
    return _MD_SPECIAL.sub(r"\\\1", str(value)).replace("\n", " ")


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\textasciicircum{}", "_": r"\_", "~": r"\textasciitilde{}", "%": r"\%",
}


def latex_text(value: Any, limit: int = 40) -> str:
    r"""``\text{value}`` with LaTeX's special characters escaped and long values shortened."""
    s = str(value)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return r"\text{" + "".join(_LATEX_SPECIAL.get(ch, ch) for ch in s) + "}"


def plot_text(value: Any, limit: int = 60) -> str:
    """A label for plotly, which reads a few HTML tags (<b>, <a href>) inside text."""
    s = str(value)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_NOT_FILENAME = re.compile(r"[^\w-]+")


def file_stem(value: Any, limit: int = 60) -> str:
    """``value`` (a column name) as part of a download's file name: letters, digits, ``_`` and
    ``-`` only, so no path separator, dot or control character reaches the browser's save dialog."""
    stem = _NOT_FILENAME.sub("_", str(value)).strip("_")[:limit]
    return stem or "column"


def fmt_count(x: Any) -> str:
    """A count or a sum of weights: whole numbers with thousands separators (1,490), others with
    4 significant digits (12.5)."""
    v = float(x)
    return f"{v:,.0f}" if v.is_integer() else f"{v:,.4g}"


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` things, the noun agreeing: "1 feature", "2 features", "1,000 rows", "1 class"."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def fmt_number(x: Any, digits: int = 4) -> str:
    """A probability or density for people: 4 significant digits, 0 and 1 exact."""
    if x is None:
        return "–"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "–"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return f"{v:.{digits}g}"


def fmt_fraction(x: Fraction | None) -> str:
    """3/12 stays 1/4 (Fraction reduces); None (not rational) shows as a dash."""
    return "–" if x is None else str(x)


def fmt_log(x: Any) -> str:
    """A natural log with 4 decimals; -inf for probability 0."""
    return fmt_number(x, digits=5)
