"""Token patterns that arrive in a link wait for the visitor's word (issue 21).

A link's ``work=`` carries the text settings, token patterns included, and whoever opens it
would fit with them at once. A pattern is a program: even bounded in time (nbapp.text.matching)
it should not run before the visitor has seen it. So when the address is restored, every token
pattern that needs the regex engine (anything but the linear ``(?u)\\w+`` and
``(?u)\\b\\w\\w+\\b``) is put aside and the default is used; the Data and Text pages show each
one with "Use this token pattern" and "Use the default", and the sidebar says one is waiting.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import streamlit as st

from nbapp.errors import DataError
from nbapp.text.matching import LINEAR_PATTERNS
from ui.state import TextSettings, set_text_settings
from ui.text import md

__all__ = ["HELD", "hold_linked_patterns", "held_note", "held_patterns_ui"]

#: session key: text column -> the token pattern a link carried, not yet confirmed
HELD = "held_token_patterns"


def hold_linked_patterns(config: Any) -> Any:
    """``config`` (a ui.state.Settings restored from an address) with each token pattern that
    needs the regex engine replaced by the default; the patterns are kept under :data:`HELD`."""
    held, text = {}, []
    for column, ts in config.text:
        if ts.token_pattern not in LINEAR_PATTERNS:
            held[column] = ts.token_pattern
            ts = dataclasses.replace(ts, token_pattern=TextSettings.token_pattern)
        text.append((column, ts))
    st.session_state[HELD] = held
    return dataclasses.replace(config, text=tuple(text))


def held_note() -> str | None:
    """The sidebar's sentence while a linked pattern waits, else None (plain text: the sidebar
    shows it as markdown-escaped text)."""
    held = st.session_state.get(HELD) or {}
    if not held:
        return None
    columns = ", ".join(f"'{c}'" for c in held)
    return (f"This link sets its own token pattern for the text column {columns}. It has not been run: "
            f"confirm it on the Data or Text page. Until then the default {TextSettings.token_pattern} "
            "is used.")


def _settle(column: str, pattern: str | None) -> None:
    """Use ``pattern`` for ``column`` (None: keep the default) and stop holding it."""
    ss = st.session_state
    note = held_note()
    if pattern is not None:
        try:
            set_text_settings(column, token_pattern=pattern)
        except DataError as err:
            ss["text_errors"] = {**ss.get("text_errors", {}), column: ({"token_pattern": pattern}, str(err))}
    ss[HELD] = {c: p for c, p in (ss.get(HELD) or {}).items() if c != column}
    if ss.get("restore_note") == note:
        ss["restore_note"] = held_note()


def held_patterns_ui(prefix: str) -> None:
    """Each token pattern a link carried and the visitor has not confirmed, with the two choices."""
    for i, (column, pattern) in enumerate((st.session_state.get(HELD) or {}).items()):
        with st.container(border=True, key=f"{prefix}_held_{i}"):
            st.warning(f"The link you opened sets the token pattern of the text column '{md(column)}' to the "
                       "regular expression below. It has not been run: a pattern can take very long on some "
                       "texts (it is then stopped after a few seconds). Until you choose, the default "
                       f"{md(TextSettings.token_pattern)} (words) is used.")
            st.code(pattern, language=None)
            left, right = st.columns(2)
            left.button("Use this token pattern", key=f"{prefix}.held.{i}.use", on_click=_settle,
                        args=(column, pattern))
            right.button("Use the default", key=f"{prefix}.held.{i}.default", on_click=_settle, args=(column, None))
