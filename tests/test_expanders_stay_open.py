"""Expanders stay open under their own controls (issue 33, item 5): the board's "Start again"
(step 0) closed the board, as its section's default followed the step; Evaluate's "Find them"
sits in a section that now keeps its own open state."""

from __future__ import annotations

from apptest_helpers import clear_caches, no_exception, open_page, start  # noqa: F401 (autouse fixture)


def _step_lines(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("**Step ")]


def test_start_again_leaves_the_board_open_at_its_first_step():
    at = open_page(start(), "Explain")
    at.session_state["explain.board"] = True            # the visitor opens the section
    no_exception(at.run())
    while not at.button(key="board.next").disabled:
        at.button(key="board.next").click().run()
    assert _step_lines(at)[0].startswith("**Step 14 of 14:**")
    no_exception(at.button(key="board.all").click().run())          # "Start again"
    assert at.session_state["explain.board"] is True
    assert _step_lines(at)[0].startswith("**Step 1 of 14:**")


def test_find_them_leaves_the_log_loss_rows_open_and_finds_them():
    at = open_page(start("penguins"), "Evaluate")      # log-loss not dominated: the rows wait for "Find them"
    at.session_state["eval.log_loss_section"] = True
    no_exception(at.run())
    at.toggle(key="eval.log_loss_find").set_value(True).run()
    no_exception(at)
    assert at.session_state["eval.log_loss_section"] is True
    assert any("share" in d.value.columns for d in at.dataframe)       # the rows found, in the open section
