"""The sidebar every page shares: the current work in a few lines, whether a reload keeps it,
the lecture-references switch, and the CSS that keeps long formulas inside their column."""

from __future__ import annotations

import streamlit as st

from ui.presentation import formula_css_ui
from ui.smoothing_control import smoothing_label
from ui.state import remember_work, work
from ui.text import md
from ui.views import grouped, view_of
from ui.widgets import lecture_toggle_ui

__all__ = ["sidebar_summary"]


def sidebar_summary() -> None:
    """The current dataset and model in a few lines in the sidebar, and whether a reload keeps the
    work. The work is written into the page's address again (ui.state.ensure_state wrote it at the
    top of the page; the page may have loaded new data since, an upload for one)."""
    ss = st.session_state
    remember_work()
    current = work()
    source = current.source
    df = ss["frame"]
    with st.sidebar:
        st.subheader("Current work")
        if ss.get("upload_error"):
            st.warning(f"The upload of {md(ss.get('upload_failed_name') or 'a file')} failed; the data below "
                       "is still in use.")
        st.markdown(source.sidebar_line(df))
        st.markdown(f"**Target:** {md(current.target)}")
        described = ", ".join(f"{len(columns)} {view.kind}" for view, columns in grouped(current.specs)) or "none"
        st.markdown(f"**Features:** {described}")
        if current.weight is not None:
            st.markdown(f"**Weight:** {md(current.weight)}")
        config = current.settings
        priors = config.priors if isinstance(config.priors, str) else "custom"
        st.markdown(f"**Smoothing:** {md(smoothing_label(config))}  \n"
                    f"**Class prior:** {md(priors)}")
        for column, spec in current.specs.items():
            said = view_of(spec.kind).summary(spec)
            if said:
                st.markdown(f"**{md(column)} ({md(spec.kind)}):** {md(said)}")
        if current.imported is not None:
            st.markdown(f"**Model:** imported from {md(current.imported.name)}")
        _kept_ui()
    lecture_toggle_ui()
    formula_css_ui()


def _kept_ui() -> None:
    """Whether a reload keeps this work, and what a link could not restore."""
    ss = st.session_state
    if ss.get("restore_note"):
        st.warning(md(ss["restore_note"]))
    if ss.get("work_not_kept"):
        st.warning(f"A reload of this page loses this work: {md(ss['work_not_kept'])}.", icon=":material/warning:")
    else:
        st.caption("Your data, types and settings are kept in this page's address: a reload or a bookmark "
                   "brings them back.")
