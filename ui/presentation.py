"""Presentation mode on every teaching page (issue 23, item 1), and formulas that fit their column
on every page (item 6).

One switch, a choice of the work (:data:`PRESENTATION`), so the mode survives a page change and a
link opens in it. It sits in the sidebar; in the mode the sidebar is hidden and the switch stays
in the top right corner of the page. The mode's look is fixed CSS (:data:`PRESENTATION_CSS`):
no user text is ever put into it, and it is the only HTML this module writes. Type scales with
the width of the screen (``clamp(min, vw, max)``): 1280 px wide gives the usual 16-18 px, 1920
px gives 24 px and more for tables, equations and the posterior.
"""

from __future__ import annotations

import streamlit as st

from ui.state import set_choice, work
from ui.widgets import synced

__all__ = ["PRESENTATION", "PRESENTATION_CSS", "FORMULA_CSS", "presenting", "presentation_ui", "formula_css_ui",
           "PREDICTION_KEY", "CORNER_KEY"]

#: The work's choice of presentation mode (on or off).
PRESENTATION = "app.presentation"
#: Keys of the containers the CSS places and enlarges (Streamlit gives a keyed container the class st-key-<key>).
PREDICTION_KEY = "presentation_prediction"
CORNER_KEY = "presentation_corner"

#: Long display formulas break after a relation or an operator (KaTeX splits a formula into
#: ".base" boxes there; display mode only forbids the break) and scroll, never cut, where one
#: part alone is wider than the column (issue 23, item 6).
FORMULA_CSS = """<style>
.katex-display { max-width: 100%; overflow-x: auto; overflow-y: hidden; }
.katex-display > .katex { white-space: normal; }
.katex-display > .katex > .katex-html { white-space: normal; }
.katex-display .base { margin: 0.12em 0; }
</style>"""

#: Fixed CSS (no user text is ever interpolated): hide the sidebar, the header and the toolbar,
#: use the whole width, and let type grow with the screen's width for a projector.
PRESENTATION_CSS = """<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="collapsedControl"],
header[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"],
[data-testid="stStatusWidget"], footer { display: none !important; }
[data-testid="stMainBlockContainer"], .block-container { padding: 0.5rem 1.2rem 0.5rem 1.2rem !important;
  max-width: 100% !important; }
[data-testid="stMain"] { font-size: clamp(16px, 1.3vw, 36px); }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li,
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stWidgetLabel"] p,
[data-testid="stMain"] [data-testid="stTable"] th, [data-testid="stMain"] [data-testid="stTable"] td
  { font-size: clamp(14px, 1.3vw, 36px) !important; line-height: 1.35; }
[data-testid="stMain"] [data-testid="stTable"] td, [data-testid="stMain"] [data-testid="stTable"] th
  { padding: 0.15em 0.5em !important; }
[data-testid="stMain"] h1 { font-size: clamp(26px, 2.2vw, 60px) !important; padding: 0.2rem 0 !important; }
[data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: clamp(20px, 1.7vw, 46px) !important; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: clamp(24px, 2.2vw, 60px) !important; }
[data-testid="stMain"] .katex-display { margin: 0.3rem 0 !important; font-size: clamp(14px, 1.3vw, 36px); }
[data-testid="stMain"] .katex { font-size: 1.1em !important; }
[data-testid="stVerticalBlock"] { gap: 0.4rem !important; }
.st-key-presentation_prediction p { font-size: clamp(22px, 2.3vw, 64px) !important; font-weight: 600;
  line-height: 1.2 !important; }
.st-key-presentation_corner { position: fixed; top: 0.3rem; right: 1rem; z-index: 999990; width: auto !important;
  background: var(--background-color, white); padding: 0 0.4rem; border-radius: 0.4rem; }
</style>"""


def presenting() -> bool:
    """Whether the work is in presentation mode."""
    return bool(work().choice(PRESENTATION, False))


def presentation_ui() -> bool:
    """The presentation-mode switch (in the sidebar; in the mode, in the page's top right corner
    since the sidebar is hidden), the mode's CSS when on, and the formula CSS of every page.
    True when the mode is on: the page then leaves out its sidebar summary and its asides."""
    on = presenting()
    where = st.container(key=CORNER_KEY) if on else st.sidebar
    with where:
        synced(st.toggle, "Presentation mode", key="_presentation", value=on,
               on_set=lambda v: set_choice(PRESENTATION, bool(v)),
               help="Large type that grows with the screen, no sidebar: for a projector. The choice travels "
                    "with the page's address.")
    st.html(FORMULA_CSS)
    if on:
        st.html(PRESENTATION_CSS)
    return on


def formula_css_ui() -> None:
    """Long formulas break or scroll within their column (every page; issue 23, item 6)."""
    st.html(FORMULA_CSS)
