"""A lecture you can share (issue 23, item 4): the page's address holds the example, the
settings, the Explain row, the board's step and its unreduced switch, the presentation mode and
the exercise sheet's seed; a fresh session opened on it shows the same board line."""

from __future__ import annotations

import dataclasses

from apptest_helpers import no_exception, open_page, start, unescape
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)
from ui.remember import decode_work, encode_work


def reload(at):
    params = {k: at.query_params[k] for k in at.query_params}
    return start(query={k: v[0] if isinstance(v, list) else v for k, v in params.items()})


def board_line(at) -> str:
    lines = [unescape(m.value) for m in at.markdown if m.value.startswith("**Step ")]
    assert len(lines) == 1
    return lines[0]


def test_the_lecture_s_choices_survive_encoding_and_decoding():
    at = start()
    work = at.session_state["work"]
    lecture = work.replace(settings=dataclasses.replace(work.settings, alpha=1.0),
                           query={"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High", "Wind": "Strong"},
                           choices={"app.presentation": True, "board.step": 4, "board.unreduced": False,
                                    "exercises.seed": 7, "exercises.n": 3, "exercises.kinds": "prior,cpt"})
    blank = work.replace(settings=dataclasses.replace(work.settings, alpha=0.0), query={}, choices={})
    back, notes = decode_work(encode_work(lecture), blank)
    assert not notes
    assert back.settings.alpha == 1.0 and dict(back.query) == dict(lecture.query)
    assert dict(back.choices) == dict(lecture.choices)


def test_a_fresh_session_on_the_link_shows_the_same_board_line_in_presentation_mode():
    at = open_page(start(), "Explain")
    at.session_state["explain.board"] = True          # the board's section, opened
    no_exception(at.run())
    at.button(key="board.next").click().run()
    at.button(key="board.next").click().run()
    at.toggle(key="_board_unreduced").set_value(False).run()
    line = board_line(at)
    assert line.startswith("**Step 3 of 14:**")
    at.toggle(key="_presentation").set_value(True).run()
    fresh = reload(at)
    fresh.switch_page("pages/3_Explain.py").run()
    no_exception(fresh)
    assert fresh.session_state["work"].choices["app.presentation"] is True
    assert board_line(fresh) == line                     # the board's tab, same step, reduced fractions
    assert fresh.toggle(key="_present_board_unreduced").value is False


def test_a_link_with_odd_values_opens_with_the_defaults_instead_of_failing():
    at = start()
    work = at.session_state["work"]
    odd = work.replace(choices={"app.presentation": "false", "board.step": "x", "board.unreduced": 0,
                                "exercises.seed": 10**12, "exercises.n": -3, "exercises.kinds": "nonsense"})
    fresh = start(query={"example": "tennis14", "target": "Play", "work": encode_work(odd)})
    assert "exercises.seed" not in fresh.session_state["work"].choices       # out of the widget's range: dropped
    note = " ".join(w.value.replace("\\", "") for w in fresh.sidebar.warning)
    assert "Seed (1000000000000) is out of range 0–2,147,483,647; using 0" in note
    assert "Questions (-3) is out of range" in note and "presentation mode ('false') is not true or false" in note
    fresh.switch_page("pages/7_Exercises.py").run()
    no_exception(fresh)
    assert not fresh.sidebar.toggle(key="_presentation").value          # "false" is no yes
    assert fresh.number_input(key="_exercises_seed").value == 0
    assert fresh.number_input(key="_exercises_n").value == 6
    fresh.switch_page("pages/3_Explain.py").run()
    no_exception(fresh)
    fresh.session_state["explain.board"] = True        # "x" is no step: the board opens on its first line
    no_exception(fresh.run())
    assert board_line(fresh).startswith("**Step 1 of 14:**")
