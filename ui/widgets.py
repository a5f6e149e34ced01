"""Widgets whose values survive page changes, the page header, errors in place, and the
lecture-references switch."""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from ui.lecture import REFERENCES, show_references
from ui.state import set_choice
from ui.text import md

__all__ = ["synced", "page_header", "show_error", "lecture_toggle_ui"]


def synced(widget: Callable[..., Any], label: str, *, key: str, value: Any,
           on_set: Callable[[Any], None], **kwargs: Any) -> Any:
    """Render ``widget`` showing ``value`` (held under a permanent key elsewhere).

    The "dummy key" pattern (streamlit-1.67 notes, section 1.2): the permanent value is
    copied into the widget's own key before it is drawn, and a change is copied back by
    ``on_set`` in the widget's callback, so the choice outlives the page.
    """
    st.session_state[key] = value

    def _changed() -> None:
        on_set(st.session_state[key])

    return widget(label, key=key, on_change=_changed, **kwargs)


def page_header(title: str, sentence: str) -> None:
    st.title(title)
    st.write(sentence)


def show_error(err: Exception) -> None:
    """A DataError (or other ValueError) as one sentence in place, never a traceback."""
    st.error(md(err))


def lecture_toggle_ui() -> None:
    """The sidebar switch of lecture references; the choice travels with the work."""
    synced(st.sidebar.toggle, "Show lecture references", key="_lecture_refs", value=show_references(),
           on_set=lambda v: set_choice(REFERENCES, bool(v)),
           help="References to the lecture notes (seed and equation numbers) beside formulas and settings. "
                "On for the built-in examples, off for your own data, until you choose.")
