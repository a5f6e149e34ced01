"""Lecture references ("seed 000, Eq. 22") in the app's text, shown only when the reader wants them.

Teachers and students follow the lecture notes; an analyst never read them. One toggle in the
sidebar (``ui.widgets.lecture_toggle_ui``) decides for the work: on for the built-in examples
(they come from the lectures), off for uploads, until the user sets it. Every reference in UI
text goes through :func:`ref` (or :func:`cite` for a sentence of its own).
"""

from __future__ import annotations

import re

import streamlit as st

__all__ = ["show_references", "ref", "cite", "plain", "REFERENCES"]

# " (seed 000, Eq. 22)", " [seed 004]", "; seed 004" inside the library's sentences.
_REFERENCE = re.compile(r"\s*[(\[](?:see )?seed \d{3}\b[^()\[\]]*[)\]]|;\s*seed \d{3}\b[^.;()]*", re.IGNORECASE)

#: The work's choice of showing references: True / False once the user chose; absent: follow the data's source.
REFERENCES = "app.references"


def show_references() -> bool:
    """Whether lecture references are shown: the user's choice, else on for built-in examples."""
    work = st.session_state.get("work")
    if work is None:
        return True
    chosen = work.choice(REFERENCES)
    return bool(chosen) if chosen is not None else work.source.lecture_references


def ref(where: str) -> str:
    """`` (seed 000, Eq. 22)`` to append to a sentence, or "" when references are hidden."""
    return f" ({where})" if show_references() else ""


def cite(sentence: str) -> str:
    """A sentence that is a reference in itself ("As in seed 004 ..."), or "" when hidden."""
    return sentence if show_references() else ""


def plain(text: str) -> str:
    """A sentence from the library with its lecture references taken out when they are hidden."""
    return str(text) if show_references() else _REFERENCE.sub("", str(text))
