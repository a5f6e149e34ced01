"""The board, step by step (issue 23, item 2): seed 000's Eq. 4-8 for the Explain page's row, one
line at a time as a lecturer writes them: the prior, each factor with its count fraction and the
running product, P(x), the posterior, the argmax.

Every line is the library's (:func:`nbapp.lessons.board.board_steps`); this module keeps the step
and the choice of unreduced fractions in the work (a link opens on the same step) and draws.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.errors import DataError
from nbapp.lessons.board import board_steps
from ui.lecture import ref
from ui.state import set_choice, work
from ui.teaching import display_classes
from ui.text import md
from ui.widgets import show_error, synced

__all__ = ["STEP", "UNREDUCED", "board_ui", "board_expander_ui", "steps_of", "chosen_step"]

#: The work's choices: the step shown (0 = the first line) and whether fractions are written as counted.
STEP, UNREDUCED = "board.step", "board.unreduced"


def steps_of(model: Any, row: dict[str, Any]) -> list[Any]:
    """The board's lines for ``row``, in the notes' class order, unreduced or not as chosen."""
    return board_steps(model, row, unreduced=_unreduced(), classes=display_classes(list(model.classes_)))


def _step(count: int) -> int:
    """The chosen step, within the board's lines (a row with fewer lines shows its last)."""
    return min(max(chosen_step(), 0), count - 1)


def board_ui(model: Any, row: dict[str, Any], *, key: str = "board") -> None:
    """"Previous step" / "Next step" over the board's lines; the lines so far as equations, the
    current one last and also in words. ``key`` tells two boards of one page apart."""
    try:
        steps = steps_of(model, row)
    except DataError as err:
        show_error(err)
        return
    k = _step(len(steps))
    back, forward, everything, unreduced = st.columns([1, 1, 1, 2], vertical_alignment="center")
    # A presenter's clicker sends Page Down / Page Up (issue 33, item 6), or the arrows (ARROW_KEYS)
    back.button("Previous step", key=f"{key}.previous", icon=":material/arrow_back:", disabled=k == 0,
                on_click=set_choice, args=(STEP, k - 1), width="stretch", shortcut="PageUp")
    forward.button("Next step", key=f"{key}.next", icon=":material/arrow_forward:", disabled=k == len(steps) - 1,
                   on_click=set_choice, args=(STEP, k + 1), width="stretch", shortcut="PageDown")
    everything.button("Start again" if k == len(steps) - 1 else "All steps", key=f"{key}.all",
                      on_click=set_choice, args=(STEP, 0 if k == len(steps) - 1 else len(steps) - 1),
                      width="stretch")
    with unreduced:
        synced(st.toggle, "Unreduced fractions (as the notes write them)", key=f"_{key}_unreduced",
               value=_unreduced(), on_set=lambda v: set_choice(UNREDUCED, bool(v)),
               help="3/9 as counted, or 1/3 reduced; the numbers are the same.")
    current = steps[k]
    st.markdown(f"**Step {k + 1} of {len(steps)}:** {md(current.text)}")
    for step in steps[: k + 1]:
        st.latex(step.latex)
    st.caption(f"P(c | x) = P(c) ∏ P(x_a | c) / P(x), one factor at a time{ref('seed 000, Eq. 4-8')}.")
    _ARROW_KEYS(key=f"{key}.arrows")


# A button takes one shortcut (Page Up / Page Down above); a clicker may send the arrow keys
# instead (issue 33, item 6). Left and Right press "Previous step" and "Next step" of the board
# on the page, except where the arrows already mean something: typing in an input, a select,
# a slider, tabs, radio buttons, a data grid. One listener a page, whatever the reruns. A
# component of Streamlit's own (as the explorer is): a fixed script, no HTML of the page's.
_ARROW_KEYS_JS = """export default function () {
  if (window.nbBoardArrows) return;
  window.nbBoardArrows = true;
  const OWN_ARROWS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role=slider], '
    + '[role=tab], [role=radio], [role=listbox], [role=option], [role=combobox], [role=spinbutton], '
    + '[role=grid], [role=menu], [role=menuitem]';
  document.addEventListener('keydown', (event) => {
    const step = {ArrowLeft: 'previous', ArrowRight: 'next'}[event.key];
    if (!step || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target instanceof Element && event.target.closest(OWN_ARROWS)) return;
    const button = document.querySelector(`[class*="board-${step}"] button`);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
}
"""
_ARROW_KEYS = st.components.v2.component("nbapp_board_arrows", html="<span hidden></span>", js=_ARROW_KEYS_JS)


def board_expander_ui(model: Any, row: dict[str, Any]) -> None:
    """The board in an expander (the Explain page), open once a step beyond the first is chosen;
    its lines are worked out only while it is open (exact fractions cost more than the click)."""
    # The default must not change while the section is open: a new default is a new widget, which
    # "Start again" (step 0) closed (issue 33, item 5).
    opened = chosen_step() > 0 or bool(st.session_state.get("explain.board"))
    section = st.expander(f"The board, step by step{ref('seed 000, Eq. 4-8')}", expanded=opened,
                          key="explain.board", on_change="rerun")
    if section.open:
        with section:
            board_ui(model, row)


def _unreduced() -> bool:
    """The fractions as counted unless the work says False (the notes' way is the default)."""
    return work().choice(UNREDUCED) is not False


def chosen_step() -> int:
    """The board step the work carries (0 when it carries none or no whole number)."""
    chosen = work().choice(STEP, 0)
    return chosen if isinstance(chosen, int) and not isinstance(chosen, bool) else 0
