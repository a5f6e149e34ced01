"""AppTest: the Exercises page (issue 23, item 3): questions drawn from the current model with a
seed, answers graded against the library's exact values, the sheet downloadable with and without
the answers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import downloads, no_exception, start, unescape  # noqa: F401 (fixture)
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from nbapp.exercises import exercises

PAGE = "pages/7_Exercises.py"


def open_exercises(example: str | None = None) -> AppTest:
    at = start(example)
    at.switch_page(PAGE).run()
    no_exception(at)
    assert at.title[0].value == "Exercises"
    return at


def library_set(at: AppTest, n: int = 6, seed: int = 0):
    """The set the library draws for the session's model and data."""
    frame = at.session_state["frame"]
    return exercises(at.session_state["model"], frame, n=n, seed=seed)


def answer_fields(at: AppTest) -> list:
    return [t for t in at.text_input if t.key.startswith("exercises.answer::")]


def test_the_page_shows_the_library_s_questions_for_the_seed_and_a_new_seed_draws_another_set():
    at = open_exercises()
    expected = library_set(at)
    assert len(answer_fields(at)) == len(expected.questions) == 6
    shown = [unescape(m.value).replace("\\_", "_") for m in at.markdown if m.value.startswith("**")]
    for i, q in enumerate(expected.questions, start=1):
        assert any(s.startswith(f"**{i}.** {q.text[:30]}") for s in shown), (i, q.text)
    at.number_input(key="_exercises_seed").set_value(7).run()
    assert at.session_state["work"].choices["exercises.seed"] == 7
    other = library_set(at, seed=7)
    assert [q.text for q in other.questions] != [q.text for q in expected.questions]
    assert len(answer_fields(at)) == 6
    at.number_input(key="_exercises_n").set_value(3).run()
    assert len(answer_fields(at)) == 3


def _question_of(at: AppTest, kind: str):
    questions = library_set(at).questions
    return next((i, q) for i, q in enumerate(questions) if q.kind == kind)


@pytest.mark.parametrize("typed, right", [("18/28", True), ("0.64", True), ("64.3%", True), ("1/2", False),
                                          ("0.6", False)])
def test_a_typed_prior_is_judged_exactly_and_the_worked_line_shown(typed, right):
    at = open_exercises()
    i, q = _question_of(at, "prior")
    assert isinstance(q.answer, Fraction) and q.answer in (Fraction(9, 14), Fraction(5, 14))
    typed = {"18/28": "18/28" if q.answer == Fraction(9, 14) else "10/28",
             "0.64": "0.64" if q.answer == Fraction(9, 14) else "0.36",
             "64.3%": "64.3%" if q.answer == Fraction(9, 14) else "35.7%"}.get(typed, typed)
    answer_fields(at)[i].set_value(typed).run()
    no_exception(at)
    if right:
        assert [unescape(s.value) for s in at.success] and not at.error
        assert unescape(at.success[0].value).startswith(f"Right: {typed}")
    else:
        assert not at.success and unescape(at.error[0].value).startswith(f"Not right: {typed}")
        assert str(q.answer) in unescape(at.error[0].value)
    assert any(unescape(m.value).startswith("*Worked:*") and str(q.answer.numerator) in m.value for m in at.markdown)
    assert at.metric[0].value == f"{int(right)} of 1 answered (6 questions)"


def test_the_winner_and_the_parameters_are_graded_and_a_wrong_class_is_not_right():
    at = open_exercises()
    i, q = _question_of(at, "winner")
    answer_fields(at)[i].set_value(str(q.answer).lower()).run()
    assert len(at.success) == 1
    j, p = _question_of(at, "parameters")
    answer_fields(at)[j].set_value(str(p.answer + 1)).run()
    assert len(at.success) == 1 and len(at.error) == 1
    assert at.metric[0].value == "1 of 2 answered (6 questions)"


def test_the_sheet_downloads_as_markdown_and_latex_with_and_without_answers(downloads):
    at = open_exercises()
    expected = library_set(at)
    assert set(downloads) == {"Sheet (Markdown)", "Sheet with answers (Markdown)", "Sheet (LaTeX)",
                              "Sheet with answers (LaTeX)"}
    plain, answered = downloads["Sheet (Markdown)"][0], downloads["Sheet with answers (Markdown)"][0]
    assert "**Answer:**" in answered and "**Answer:**" not in plain
    assert plain.count("\n1. ") == 1 and "\n6. " in plain and "\n7. " not in plain
    tex, tex_answers = downloads["Sheet (LaTeX)"][0], downloads["Sheet with answers (LaTeX)"][0]
    assert r"\begin{enumerate}" in tex and tex.count(r"\item ") == 6
    assert r"\textbf{Answer:}" in tex_answers and r"\textbf{Answer:}" not in tex
    for q in expected.questions:
        assert q.answer_text.split(" ")[0].replace("_", r"\_") in answered.replace("\\", "")
    assert downloads["Sheet (LaTeX)"][1] == "exercises_tennis14_csv_seed0.tex"


def test_a_text_model_asks_for_unk_words_and_gaussian_data_says_why_there_is_no_cpt_question():
    at = open_exercises("sentiment")
    kinds = at.multiselect(key="_exercises_kinds")
    assert "unk" in kinds.options or "UNK words" in kinds.options
    at = open_exercises("gender")
    assert any("a CPT cell" in c.value for c in at.caption)
    assert len(answer_fields(at)) == 6


def test_an_answer_box_holds_no_more_than_the_grader_reads_and_a_huge_number_is_simply_wrong():
    """Issue 31, item 1: the box is capped (max_chars) at what grade() reads, and "1e99999999"
    (10^(10^8), minutes of work before) is judged wrong in the same run."""
    at = open_exercises()
    questions = library_set(at).questions
    fields = answer_fields(at)
    for q, field in zip(questions, fields):
        assert field.max_chars == (100 if q.kind in ("cpt", "prior", "posterior", "parameters") else 5000), q.kind
    i, q = _question_of(at, "prior")
    fields[i].set_value("1e99999999").run(timeout=10)
    no_exception(at)
    assert unescape(at.error[0].value).startswith("Not right: 1e99999999; the answer is")


def test_the_page_shows_the_sheets_data_numbered_as_its_questions_number_the_rows():
    at = open_exercises()
    expected = library_set(at)
    (table,) = [d for d in at.dataframe if d.value.index.name == "Row"]
    assert list(table.value.index) == list(range(1, 15))
    assert table.value.equals(expected.data)
    assert any(e.label.startswith("The sheet's data: 14 of 14 rows") for e in at.expander)
