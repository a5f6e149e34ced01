"""Text options that arrive in a link wait for the visitor's word (issue 21; issue 31, items 3 and 8).

A link's ``work=`` carries the text columns' options, token patterns included, and whoever opens
it would fit with them at once; so does a model file the link opens alone. A pattern is a program:
even bounded in time (nbapp.text.matching) it should not run before the visitor has seen it; an
n-gram range of (1, 1500) would count every run of up to 1500 words. So when the address is
restored, every text option the text settings cannot themselves produce (a token pattern that
needs the regex engine, an n-gram range or a Unicode form they do not offer:
``ui.link_rules.unusual_text_options``) is put aside (``ui.remember.hold_text_options``) and the
default is used; the Data and Text pages show each column's held options with "Use these
options" and "Use the defaults", and the sidebar says they wait.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from nbapp.text import TextOptions
from ui.remember import held_note, held_option_names
from ui.state import HELD, offer_change
from ui.text import md
from ui.views.text import changed

__all__ = ["held_patterns_ui"]


def _settle(column: str, options: dict[str, Any] | None) -> None:
    """Use ``options`` for ``column`` (None: keep the defaults) and stop holding them; nbapp may
    still refuse them (said under the text settings)."""
    ss = st.session_state
    note = held_note(ss.get(HELD))
    if options is not None:
        offer_change(column, options, changed)
    ss[HELD] = {c: o for c, o in (ss.get(HELD) or {}).items() if c != column}
    shown = ss.get("restore_note")
    if note and shown and note in shown:          # the sidebar's sentence on what waits, brought up to date
        ss["restore_note"] = shown.replace(note, held_note(ss[HELD]) or "").strip() or None


def _warning(column: Any, options: dict[str, Any]) -> str:
    names = held_option_names(options)
    lines = [f"The link you opened sets the {names} of the text column '{md(column)}' to values the text "
             "settings do not offer. They have not been used"
             + (": a pattern can take very long on some texts (it is then stopped after a few seconds)"
                if "token_pattern" in options else "") + ". Until you choose, the defaults are used."]
    lines += [f"- {held_option_names({name: None})}: {md(value)} (default {md(getattr(TextOptions, name))})"
              for name, value in options.items() if name != "token_pattern"]
    if "token_pattern" in options:
        lines.append(f"- token pattern (below; default {md(TextOptions.token_pattern)}, words)")
    return "\n".join(lines)


def held_patterns_ui(prefix: str) -> None:
    """Each column's text options a link carried and the visitor has not confirmed, with the two choices."""
    for i, (column, options) in enumerate((st.session_state.get(HELD) or {}).items()):
        with st.container(border=True, key=f"{prefix}_held_{i}"):
            st.warning(_warning(column, options))
            if "token_pattern" in options:
                st.code(options["token_pattern"], language=None)
            left, right = st.columns(2)
            left.button("Use these options" if len(options) > 1 else f"Use this {held_option_names(options)}",
                        key=f"{prefix}.held.{i}.use", on_click=_settle, args=(column, options))
            right.button("Use the defaults" if len(options) > 1 else "Use the default",
                         key=f"{prefix}.held.{i}.default", on_click=_settle, args=(column, None))
