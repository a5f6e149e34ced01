"""Lesson 10: export (the Lessons page; numbers from nbapp, drawn here)."""

from __future__ import annotations

from typing import Any

import streamlit as st

import ui
from nbapp.errors import DataError
from nbapp.lessons.worked_example import worked_example_latex, worked_example_markdown, worked_example_snippet
from ui import lessons


def render(model: Any) -> None:
    st.subheader("Export a worked example")
    st.write("The test example of the Explain page, step by step"
             f"{ui.ref('seed 000, Eq. 5; seed 004')}, posterior = likelihood × prior / normalisation: prior, "
             "each factor, joint (as a product and as a sum of logs), evidence, posterior. Download it as "
             "Markdown with LaTeX for a slide or a handout, or as a short Python program using nbapp that reproduces "
             "the same numbers.")
    row = lessons.example_row(model)
    source = ui.work().source
    try:
        e = model.explain(row)
        text = ui.lecture.plain(worked_example_markdown(e, model=model, title=f"Worked example: {source.name}"))
        tex = worked_example_latex(e, model=model, title=f"Worked example: {source.name}")
        example_key = source.example_key if ui.work().imported is None else None
        snippet = worked_example_snippet(model, row, example=example_key)
    except DataError as err:
        ui.show_error(err)
        return
    left, middle, right = st.columns(3)
    left.download_button("Download the worked example (Markdown)", text.encode("utf-8"),
                         file_name="worked_example.md", mime="text/markdown", key="lessons.md_download",
                         icon=":material/download:")
    middle.download_button("Download the equations (LaTeX)", tex.encode("utf-8"), file_name="worked_example.tex",
                           mime="application/x-tex", key="lessons.tex_download", icon=":material/download:")
    right.download_button("Download the Python snippet", snippet.encode("utf-8"), file_name="worked_example.py",
                          mime="text/x-python", key="lessons.py_download", icon=":material/download:")
    if example_key is None:
        st.caption("The snippet embeds the fitted model as JSON, so it runs without the data file.")
    st.code(snippet, language="python")
    with st.expander("Preview of the Markdown", expanded=True):
        st.markdown(text)  # nbapp escapes every label and value of the data for Markdown and LaTeX
    with st.expander("The LaTeX: one equation per line"):
        st.code(tex, language="latex")
