"""AppTest: the board, step by step, on the Explain page (issue 23, item 2): every line shown is
the library's (nbapp.lessons.board), and its number the library's exact Fraction, for tennis at
l = 0 and l = 1; "unreduced fractions" writes 3/9 as the notes do, else 1/3."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import pytest
from streamlit.testing.v1 import AppTest

from apptest_helpers import no_exception, open_page, start, unescape
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from nbapp.lessons.board import board_steps

SEED_003_X = {"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High", "Wind": "Strong"}
_RESULT = re.compile(r"= (-?\d+(?:/\d+)?)(?: ≈ [^ ]+)?$")


def shown_step(at: AppTest) -> tuple[int, int, str]:
    """(step, of steps, the line in words) as the board shows it."""
    lines = [unescape(m.value) for m in at.markdown if m.value.startswith("**Step ")]
    assert len(lines) == 1, lines
    m = re.match(r"\*\*Step (\d+) of (\d+):\*\* (.*)$", lines[0], re.S)
    return int(m.group(1)), int(m.group(2)), words(m.group(3))


def words(text: str) -> str:
    return " ".join(text.replace("\\_", "_").split())


def explain_with_board() -> AppTest:
    """The Explain page with the board's section opened (it is worked out only while open)."""
    at = open_page(start(), "Explain")
    assert not any(m.value.startswith("**Step ") for m in at.markdown)      # closed: no line computed
    at.session_state["explain.board"] = True
    return no_exception(at.run())


def with_alpha(at: AppTest, alpha: float, **changes) -> AppTest:
    work = at.session_state["work"]
    at.session_state["work"] = work.replace(settings=dataclasses.replace(work.settings, alpha=alpha), **changes)
    return no_exception(at.run())


def library_steps(at: AppTest, *, unreduced: bool = True) -> list:
    model, work = at.session_state["model"], at.session_state["work"]
    return board_steps(model, work.row(model.features_), unreduced=unreduced, classes=["Yes", "No"])


@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_each_step_of_the_board_is_the_library_s_line_and_fraction_for_tennis(alpha):
    at = with_alpha(explain_with_board(), alpha)
    expected = library_steps(at)
    assert len(expected) == 14          # 2 classes x (prior + 4 factors), P(x), 2 posteriors, the argmax
    for k, step in enumerate(expected):
        number, total, text = shown_step(at)
        assert (number, total) == (k + 1, len(expected))
        assert text == words(step.text)
        result = _RESULT.search(text)
        if step.fraction is not None and step.kind != "decision":
            assert result is not None, text
            assert Fraction(result.group(1)) == step.fraction
        assert any(el.value.strip("$ \n") == step.latex for el in at.latex), step.latex
        if k + 1 < len(expected):
            at.button(key="board.next").click().run()
            no_exception(at)
    assert at.button(key="board.next").disabled
    assert text == words(expected[-1].text) and text.startswith("argmax")


def test_the_notes_numbers_at_l_0_and_the_reduced_option():
    at = with_alpha(explain_with_board(), 0.0, query=SEED_003_X, missing=frozenset())
    for _ in range(4):
        at.button(key="board.next").click().run()
    _, _, text = shown_step(at)
    assert text.endswith("9/14 × 2/9 × 3/9 × 3/9 × 3/9 = 1/189 ≈ 0.005291")
    at.toggle(key="_board_unreduced").set_value(False).run()
    assert at.session_state["work"].choices["board.unreduced"] is False
    _, _, text = shown_step(at)
    assert text.endswith("9/14 × 2/9 × 1/3 × 1/3 × 1/3 = 1/189 ≈ 0.005291")
    assert text == words(library_steps(at, unreduced=False)[4].text)
    at.button(key="board.previous").click().run()
    assert shown_step(at)[0] == 4
    at.button(key="board.all").click().run()
    assert shown_step(at)[0] == 14


def test_the_step_is_kept_in_the_work_and_a_shorter_row_shows_its_last_line():
    at = explain_with_board()
    at.button(key="board.all").click().run()
    assert at.session_state["work"].choices["board.step"] == 13
    work = at.session_state["work"]
    at.session_state["work"] = work.replace(missing=frozenset(["Wind", "Humidity"]))
    no_exception(at.run())
    number, total, text = shown_step(at)
    assert number == total and text.startswith("argmax")


def test_a_work_past_the_first_step_opens_the_board_by_itself():
    """A link to step 3 opens the board there; a plain visit leaves it closed and uncomputed."""
    at = start()
    work = at.session_state["work"]
    at.session_state["work"] = work.replace(choices={**work.choices, "board.step": 2})
    at.switch_page("pages/3_Explain.py").run()
    no_exception(at)
    assert shown_step(at)[0] == 3
