"""Token patterns that arrive in a link wait for the visitor's word (issue 21).

A link's ``work=`` carries the text columns' options, token patterns included, and whoever opens
it would fit with them at once. A pattern is a program: even bounded in time (nbapp.text.matching)
it should not run before the visitor has seen it. So when the address is restored, every token
pattern that needs the regex engine (anything but the linear ``(?u)\\w+`` and
``(?u)\\b\\w\\w+\\b``) is put aside (``ui.remember.hold_patterns``) and the default is used; the Data
and Text pages show each one with "Use this token pattern" and "Use the default", and the sidebar
says one is waiting.
"""

from __future__ import annotations

import streamlit as st

from nbapp.text import TextOptions
from ui.remember import held_note
from ui.state import HELD, offer_change
from ui.text import md
from ui.views.text import changed

__all__ = ["held_patterns_ui"]


def _settle(column: str, pattern: str | None) -> None:
    """Use ``pattern`` for ``column`` (None: keep the default) and stop holding it."""
    ss = st.session_state
    note = held_note(ss.get(HELD))
    if pattern is not None:
        offer_change(column, {"token_pattern": pattern}, changed)     # refused: said under the text settings
    ss[HELD] = {c: p for c, p in (ss.get(HELD) or {}).items() if c != column}
    if ss.get("restore_note") == note:
        ss["restore_note"] = held_note(ss[HELD])


def held_patterns_ui(prefix: str) -> None:
    """Each token pattern a link carried and the visitor has not confirmed, with the two choices."""
    for i, (column, pattern) in enumerate((st.session_state.get(HELD) or {}).items()):
        with st.container(border=True, key=f"{prefix}_held_{i}"):
            st.warning(f"The link you opened sets the token pattern of the text column '{md(column)}' to the "
                       "regular expression below. It has not been run: a pattern can take very long on some "
                       "texts (it is then stopped after a few seconds). Until you choose, the default "
                       f"{md(TextOptions.token_pattern)} (words) is used.")
            st.code(pattern, language=None)
            left, right = st.columns(2)
            left.button("Use this token pattern", key=f"{prefix}.held.{i}.use", on_click=_settle,
                        args=(column, pattern))
            right.button("Use the default", key=f"{prefix}.held.{i}.default", on_click=_settle, args=(column, None))
