"""Showing user text (column names, labels, values) safely in markdown, LaTeX and plotly.

Streamlit 1.67 renders as markdown: st.markdown, st.caption, st.write, alerts, headers, every
widget label, help tooltips, expander, status and tab labels, st.metric's label, value and delta,
st.radio's options, button labels, st.pills and st.segmented_control options (images only
there), st.table's labels and cells. It does not for st.selectbox and st.multiselect options or
st.dataframe (its column_config labels included): those take the raw text. We never pass
``unsafe_allow_html``, so user text cannot inject HTML, but it could still be *read* as markdown
(a column called ``**x**`` would turn bold, a class called ``![c](http://host/c)`` an image the
browser fetches). ``md`` and ``md_table`` make it plain text (issue 31, item 5).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pandas as pd

from nbapp.decimals import DIGITS, number_text

__all__ = ["md", "md_table", "latex_text", "plot_text", "file_stem", "counted", "fmt_number", "fmt_fraction", "fmt_log",
           "fmt_count"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&^])")
# What is no markup where it stands is left bare, so a widget's accessible name (its label's
# markdown source, as a screen reader says it) reads bill_length_mm, not bill\_length\_mm, and
# "body mass (g)" (issue 33, item 5). In CommonMark an underscore between two letters or digits
# can neither open nor close emphasis, and a dot or hyphen there starts no list or rule (those
# need a line's start and a space after); a parenthesis is a link's only after "]" (always
# escaped), or ends a list number ("1)"), so only ")" after a digit or first stays escaped.
_BARE = re.compile(r"(?<=[^\W_])[_.\-](?=[^\W_])|\(|(?<=\D)\)")

# Streamlit's markdown rewrites some text *after* parsing, on the text nodes, where backslash
# escapes are already gone: remark-gfm links bare addresses (http://x, https://x, www.x, a@b.c),
# remark-emoji and Streamlit read :name: as an emoji, an icon or Streamlit's logo (an <img>), and Streamlit turns
# a free-standing -> <- <-> -- >= <= ~= into an arrow or a sign. A word joiner (U+2060: no width,
# no line break) at one point of each pattern keeps the text as it looks and stops the rewrite.
WORD_JOINER = "\u2060"
_REWRITTEN = re.compile(
    r"(?<=:)(?=//)"              # http://, https://: after the scheme's colon
    r"|(?i:(?<=www))(?=\.)"      # www.example.com
    r"|(?<=@)(?=[-\w])"          # someone@example.com
    r"|(?<=:)(?=[\w+/-]+:)"      # :smile:, :+1:, :streamlit:, :material/home:
)
_SIGNS = re.compile(r"(?<!\S)(?:<->|->|<-|--|>=|<=|~=)(?!\S)")


def md(value: Any) -> str:
    """``value`` as markdown that renders as its literal text: no markup, no link, no image, no
    emoji, no arrow (issue 31, item 5)."""
    text = _REWRITTEN.sub(WORD_JOINER, str(value).replace("\n", " "))
    text = _SIGNS.sub(lambda sign: sign[0][0] + WORD_JOINER + sign[0][1:], text)
    return _MD_SPECIAL.sub(_escaped, text)


def _escaped(special: re.Match) -> str:
    bare = _BARE.match(special.string, special.start())
    return special[0] if bare else "\\" + special[0]


def md_table(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` for ``st.table``, which renders its column labels, index labels, the index's name
    (the corner cell) and text cells as markdown: each of them through :func:`md`; numbers stay
    numbers (st.table formats them)."""
    text = frame.map(lambda v: md(v) if isinstance(v, str) else v).rename(index=md, columns=md)
    for axis in (text.index, text.columns):
        axis.names = [None if n is None else md(n) for n in axis.names]
    return text


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


def fmt_number(x: Any, digits: int = DIGITS) -> str:
    """A probability or density for people: 4 significant digits, 0 and 1 exact, 7e-15 (the
    library's one rule, :func:`nbapp.decimals.number_text`)."""
    return number_text(x, digits)


def fmt_fraction(x: Fraction | None) -> str:
    """3/12 stays 1/4 (Fraction reduces); None (not rational) shows as a dash."""
    return "–" if x is None else str(x)


def fmt_log(x: Any) -> str:
    """A natural log with 4 decimals; -inf for probability 0."""
    return fmt_number(x, digits=5)
