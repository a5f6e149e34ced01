"""AppTest: presentation mode on every teaching page (issue 23, item 1): one switch kept in the
work, the sidebar summary left out, fixed CSS only, and on Explain and Model the smoothing (and
on Explain the row) in view, so l from 0 to 1 is shown live."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import PAGES, no_exception, open_page, shown_table, start, unescape
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from ui.presentation import FORMULA_CSS, PRESENTATION_CSS

TEACHING = {**{name: PAGES[name] for name in ("Model", "Explain", "Lessons", "Text")},
            "Exercises": "pages/7_Exercises.py"}


def presenting(at: AppTest) -> AppTest:
    at.toggle(key="_presentation").set_value(True).run()
    return no_exception(at)


def css(at: AppTest) -> list[str]:
    return [el.proto.body for el in at.get("html")]


@pytest.mark.parametrize("name", list(TEACHING))
def test_every_teaching_page_has_the_switch_and_in_the_mode_only_the_fixed_css_and_no_sidebar_summary(name):
    at = start()
    at.switch_page(TEACHING[name]).run()
    no_exception(at)
    assert at.sidebar.toggle(key="_presentation").value is False
    assert FORMULA_CSS in css(at) and PRESENTATION_CSS not in "".join(css(at))
    presenting(at)
    assert at.session_state["work"].choices["app.presentation"] is True
    assert not at.sidebar.markdown and not at.sidebar.toggle        # the switch moved to the page's corner
    assert at.main.toggle(key="_presentation").value is True
    assert all(body in (PRESENTATION_CSS + FORMULA_CSS, FORMULA_CSS) for body in css(at)), css(at)
    at.main.toggle(key="_presentation").set_value(False).run()
    assert at.session_state["work"].choices["app.presentation"] is False and at.sidebar.markdown


def test_the_mode_is_kept_when_the_page_changes():
    at = presenting(open_page(start(), "Explain"))
    open_page(at, "Model", check_title=False)
    assert at.main.toggle(key="_presentation").value is True and not at.sidebar.markdown


def _prediction(at: AppTest) -> str:
    lines = [unescape(m.value) for m in at.markdown if m.value.startswith("Prediction:")]
    assert len(lines) == 1
    return lines[0]


def test_explain_in_the_mode_changes_l_live_and_the_prediction_line_follows():
    at = presenting(open_page(start(), "Explain"))
    at.selectbox(key="_present_q::0").set_value("Sunny").run()
    at.selectbox(key="_present_q::1").set_value("Cool").run()
    at.selectbox(key="_present_q::2").set_value("High").run()
    at.selectbox(key="_present_q::3").set_value("Strong").run()
    e = at.session_state["model"].explain(at.session_state["work"].row(at.session_state["model"].features_))
    assert _prediction(at).startswith("Prediction: No · P(No | x) = ")
    assert f"P(No | x) = {e.posterior_fractions['No']}" in _prediction(at)
    at.number_input(key="_present_alpha").set_value(1.0).run()
    no_exception(at)
    assert at.session_state["work"].settings.alpha == 1.0
    e1 = at.session_state["model"].explain(at.session_state["work"].row(at.session_state["model"].features_))
    assert e1.posterior_fractions["No"] != e.posterior_fractions["No"]
    assert f"P(No | x) = {e1.posterior_fractions['No']}" in _prediction(at) or \
        f"{float(e1.posterior['No']):.4g}" in _prediction(at)


def test_model_in_the_mode_shows_the_priors_and_every_cpt_counted_in_the_notes_order():
    at = presenting(open_page(start(), "Model", check_title=False))
    tables = [shown_table(t.value) for t in at.table]
    assert len(tables) == 5                                    # the prior and four CPTs
    prior = tables[0]
    assert list(prior.index) == ["Yes", "No"] and list(prior["P(c)"]) == ["9/14", "5/14"]
    outlook = tables[1]
    assert list(outlook.index) == ["Sunny", "Overcast", "Rain"] and list(outlook.columns) == ["Yes", "No"]
    assert outlook.loc["Sunny", "Yes"] == "2/9"
    at.number_input(key="_present_model_alpha").set_value(1.0).run()
    assert shown_table(at.table[1].value).loc["Sunny", "Yes"] == "3/12 = 1/4"


# --------------------------------------------------------------------------- issue 33, item 3


def _in_the_mode(at: AppTest, **choices) -> AppTest:
    """The work of ``at`` in presentation mode with ``choices`` (what a lecture link carries)."""
    work = at.session_state["work"]
    at.session_state["work"] = work.replace(choices={**work.choices, "app.presentation": True, **choices})
    return at


def _board_lines(at: AppTest) -> list[str]:
    return [unescape(m.value) for m in at.markdown if m.value.startswith("**Step ")]


def test_explain_in_the_mode_opens_on_the_board_when_the_work_carries_a_board_step():
    at = open_page(_in_the_mode(start(), **{"board.step": 4}), "Explain", check_title=False)
    assert [line[:18] for line in _board_lines(at)] == ["**Step 5 of 14:** "]
    assert not at.table                                     # the factors' tab is not the one open
    at.switch_page("pages/3_Explain.py").run()              # the open tab is kept while Explain is shown
    assert _board_lines(at) and at.session_state["present.tabs"] == "The board, step by step"


def test_explain_in_the_mode_opens_on_the_factors_without_a_board_step():
    at = open_page(_in_the_mode(start()), "Explain", check_title=False)
    assert not _board_lines(at) and len(at.table) == 2


def test_the_mode_links_every_teaching_page_since_the_sidebar_is_hidden():
    at = open_page(presenting(open_page(start(), "Explain")), "Model", check_title=False)
    links = at.get("page_link")
    assert [link.proto.label for link in links] == ["Model", "Explain", "Text", "Lessons", "Exercises"]
    assert all(link.proto.page_script_hash for link in links)            # each resolved to a page of the app
    assert at.main.toggle(key="_presentation").value is True


def test_a_text_model_in_the_mode_shows_its_top_words_per_class_on_model():
    at = open_page(_in_the_mode(start("sms_spam")), "Model", check_title=False)
    titles = [unescape(m.value) for m in at.markdown if m.value.startswith("**")]
    assert "**spam: top words of text, P(w | c)**" in titles and "**ham: top words of text, P(w | c)**" in titles
    tables = [shown_table(t.value) for t in at.table]
    spam = tables[titles.index("**spam: top words of text, P(w | c)**") - 1]   # the first title is the heading
    model = at.session_state["model"]
    top = model.top_words("text", 10)
    assert list(spam["word"]) == list(top[top["class"] == "spam"]["term"])
    assert float(spam["P(w | c)"].iloc[0]) == pytest.approx(float(top[top["class"] == "spam"]["probability"].iloc[0]),
                                                            rel=1e-3)


def test_a_text_model_in_the_mode_lists_the_document_s_words_below_the_factors_on_explain():
    at = open_page(_in_the_mode(start("sms_spam")), "Explain", check_title=False)
    factors = shown_table(at.table[0].value)
    assert factors.loc["text", "spam counts"] == "∏ words (below)"
    words = [shown_table(t.value) for t in at.table if shown_table(t.value).index.name == "word"]
    assert len(words) == 1
    e = at.session_state["model"].explain(at.session_state["work"].row(at.session_state["model"].features_))
    assert list(words[0].index) == list(e.words["text"]["term"])[:15]
    assert "winner" in words[0].index and {"spam P(w | c)", "ham P(w | c)"} <= set(words[0].columns)


@pytest.mark.parametrize("page", ["pages/6_Text.py", "pages/7_Exercises.py", "pages/5_Lessons.py"])
def test_in_the_mode_the_teaching_pages_show_tables_not_data_grids_whose_type_cannot_grow(page):
    at = _in_the_mode(start("sms_spam"), **{"lessons.view": "incremental"})
    at.switch_page(page).run()
    no_exception(at)
    assert not at.dataframe and at.table
    at.main.toggle(key="_presentation").set_value(False).run()            # without the mode: the grids
    assert at.dataframe
