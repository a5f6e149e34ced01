"""ui.md, the one rule for data shown in Streamlit's markdown (issue 31, item 5).

Streamlit 1.67 parses markdown with react-markdown, then rewrites the *text nodes*, where the
backslash escapes are already resolved: remark-gfm links bare addresses, remark-emoji and
Streamlit's own plugins turn :name: into an emoji, an icon or an <img>, and free-standing arrows
into signs. ``text_node`` below is what such a plugin sees; the patterns are the ones of
Streamlit 1.67's bundle (static/js/StreamlitMarkdown.*.js and remark-emoji.*.js), so these tests
check md's output against what the browser does to it. tests/e2e/test_markdown_from_data.py
checks the same in Chromium.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.text import WORD_JOINER, md

# The rewrites done on text nodes (mdast-util-gfm-autolink-literal, remark-emoji, Streamlit).
GFM_URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE)
GFM_EMAIL = re.compile(r"(?:^|(?<=[\s\W]))([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)")
EMOJI = re.compile(r":\+1:|:-1:|:[\w-]+:")
STREAMLIT_ICON = re.compile(r":material[/_](\w+):|:streamlit:")
ARROWS = re.compile(r"(^|\s)(<->|->|<-|--|>=|<=|~=)(\s|$)")
REWRITES = {"link": GFM_URL, "e-mail link": GFM_EMAIL, "emoji": EMOJI, "icon or logo": STREAMLIT_ICON,
            "arrow": ARROWS}

# CommonMark: a backslash before an ASCII punctuation character is an escape.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def text_node(markdown: str) -> str:
    """The text a markdown plugin sees once md's output is parsed: escapes resolved."""
    return _ESCAPE.sub(r"\1", markdown)


def shown(markdown: str) -> str:
    """What the reader sees: the text node without the word joiners, which have no width."""
    return text_node(markdown).replace(WORD_JOINER, "")


HOSTILE = [
    "http://127.0.0.1:9/a", "https://example.com/p?a=1", "HTTP://EXAMPLE.COM",
    "www.example.com", "WWW.Example.org", "see www.example.com.", "someone@example.com",
    "a.b+c@mail.example.co.uk", "![c](http://127.0.0.1:9/cls.png)", "[x](http://127.0.0.1:9/)",
    ":smile:", ":+1:", ":streamlit:", ":material/home:", "a -> b", "<->", "x <= 5", "a -- b",
    "row (http://127.0.0.1:9/a) www.example.com, mail a@b.cc :fire:",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_md_leaves_nothing_that_markdown_rewrites_after_parsing(value):
    escaped = md(value)
    for what, pattern in REWRITES.items():
        assert not pattern.search(text_node(escaped)), f"{value!r} -> {escaped!r} still makes a {what}"
    assert shown(escaped) == value


@pytest.mark.parametrize("value", HOSTILE)
def test_the_rewrites_modelled_here_do_match_the_raw_values(value):
    """The patterns above are not vacuous: each hostile value triggers one when not disarmed."""
    assert any(pattern.search(text_node(_escaped_only(value))) for pattern in REWRITES.values())


def _escaped_only(value: str) -> str:
    """md before issue 31, item 5: backslash escapes only."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&^])", r"\\\1", value)


def test_md_escapes_markdown_syntax_so_it_shows_literally():
    assert md("**b**") == r"\*\*b\*\*"
    assert md("$x$") == r"\$x\$"
    assert md("<img src=x>") == r"\<img src\=x\>"
    assert md("[x](y)") == r"\[x\](y)"              # no link: its brackets are escaped


def test_md_adds_no_joiner_where_nothing_is_rewritten():
    """Ordinary values (times, ratios, income bands, addresses without a scheme) stay as they were."""
    for value in ("12:30", "<=50K", ">50K", "a-b", "x@", "e-mail", "C:\\temp", "wwwx.com", "a->b"):
        assert WORD_JOINER not in md(value), value


def test_md_puts_a_new_line_on_the_same_line():
    assert md("a\nb") == "a b"


@given(st.text(alphabet=st.sampled_from(list("aw.:/@+-<>=~ _*[]()!$h tps")), max_size=40))
def test_md_shows_any_text_as_itself_and_never_as_a_link_or_emoji(value):
    escaped = md(value)
    assert shown(escaped) == value.replace("\n", " ")
    for what, pattern in REWRITES.items():
        assert not pattern.search(text_node(escaped)), f"{value!r} -> {escaped!r} makes a {what}"


def test_md_table_escapes_every_part_st_table_renders_as_markdown_and_keeps_numbers():
    import pandas as pd

    from ui.text import md_table

    frame = pd.DataFrame({"**a**": ["www.example.com", 1.5], "b": [2, 3]},
                         index=pd.Index([":smile:", 7], name="http://127.0.0.1:9/a"))
    frame.columns.name = "[x](y)"
    table = md_table(frame)
    assert list(table.columns) == [md("**a**"), "b"]
    assert list(table.index) == [md(":smile:"), "7"]
    assert table.index.name == md("http://127.0.0.1:9/a") and table.columns.name == md("[x](y)")
    assert table.iloc[0, 0] == md("www.example.com") and table.iloc[1, 0] == 1.5 and table["b"].tolist() == [2, 3]
    assert frame.index.name == "http://127.0.0.1:9/a" and list(frame.columns) == ["**a**", "b"]  # a copy


# -- the pages, in AppTest: every text Streamlit renders as markdown holds the file's addresses disarmed


ADDRESSES = ("http://127.0.0.1:9", "www.example.com", "someone@example.com")


def _markdown_texts(at) -> list[str]:
    """Every string on screen that Streamlit 1.67 renders as markdown (checked in Chromium: labels,
    metric labels, values and deltas, radio options, st.table's labels and cells, alerts, captions)."""
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info", "success"):
        texts += [el.value for el in getattr(at, kind)]
    for kind in ("selectbox", "radio", "number_input", "checkbox", "toggle", "text_area", "text_input", "slider",
                 "multiselect", "metric", "expander", "button"):
        texts += [str(el.label) for el in getattr(at, kind) if getattr(el, "label", None) is not None]
    texts += [str(m.value) for m in at.metric] + [str(o) for r in at.radio for o in r.options]
    for table in at.table:
        frame = table.value
        texts += [str(v) for v in [*frame.columns, *frame.index, *frame.index.names, *frame.to_numpy().ravel()]]
    return texts


def test_the_pages_show_a_nasty_files_addresses_disarmed_in_every_markdown_text():
    from apptest_helpers import choose_lesson, open_page, start, upload
    from e2e.test_markdown_from_data import nasty_csv

    at = upload(start(), "nasty.csv", nasty_csv())
    assert not at.error and at.session_state["model"] is not None
    seen = {"Data": _markdown_texts(at)}
    for page in ("Model", "Explain", "Text", "Evaluate", "Lessons"):
        open_page(at, page)
        seen[page] = _markdown_texts(at)
    choose_lesson(at, "prior")
    seen["Lessons: prior"] = _markdown_texts(at)
    for page in ("Model", "Explain"):
        open_page(at, page)
        at.toggle(key="_presentation").set_value(True).run()
        seen[f"{page}, presentation mode"] = _markdown_texts(at)
        at.toggle(key="_presentation").set_value(False).run()
    assert sum(len(v) for v in seen.values()) > 100
    shown_addresses = [t for texts in seen.values() for t in texts if "127" in t]
    assert shown_addresses, "the file's names never reached the screen: nothing was checked"
    linked = {page: [t for t in texts if any(a in text_node(t) for a in ADDRESSES)] for page, texts in seen.items()}
    assert not any(linked.values()), linked


def test_the_exported_worked_example_shows_addresses_of_any_case_and_e_mails_as_text():
    """nbapp's Markdown export (previewed by the export lesson with st.markdown, and read by any
    GFM renderer) disarms what GFM links: http(s)://, www. in any case, e-mail addresses."""
    import pandas as pd

    from nbapp import NaiveBayes
    from nbapp.lessons.worked_example import worked_example_markdown

    values = ["someone@example.com", "WWW.EXAMPLE.COM", "see http://127.0.0.1:9/a"]
    frame = pd.DataFrame({"v": values * 2, "y": ["a@b.co", "a@b.co", "a@b.co", "no", "no", "no"]})
    m = NaiveBayes({"v": "categorical"}).fit(frame, "y")
    for value in values:
        text = worked_example_markdown(m.explain({"v": value}), model=m)
        prose = text_node("".join(text.split("$$")[0::2]))      # math is not linked
        assert value.replace(WORD_JOINER, "") in prose.replace(WORD_JOINER, ""), value
        assert not GFM_URL.search(prose) and not GFM_EMAIL.search(prose), (value, prose)


def test_md_leaves_an_underscore_dot_or_hyphen_inside_a_word_bare():
    """A widget's accessible name is its label's markdown source: a screen reader says
    bill_length_mm, not bill\\_length\\_mm (issue 33, item 5). Inside a word these are no markup;
    where they could be, they stay escaped."""
    assert md("bill_length_mm") == "bill_length_mm"
    assert md("Sepal.Length") == "Sepal.Length" and md("age-group") == "age-group" and md("3.5") == "3.5"
    assert md("_x_") == r"\_x\_" and md("a__b") == r"a\_\_b" and md("1. x") == r"1\. x" and md("- a") == r"\- a"
    assert md("a_*b*") == r"a\_\*b\*"
    assert md("body mass (g)") == "body mass (g)" and md("1) x") == r"1\) x" and md(")") == r"\)"
