"""The Naive Bayes workbench: page config and navigation; each page sets up its own state."""

from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent

st.set_page_config(page_title="Naive Bayes workbench", page_icon=":material/functions:", layout="wide")

pages = [
    st.Page("pages/1_Data.py", title="Data", icon=":material/table:", default=True),
    st.Page("pages/2_Model.py", title="Model", icon=":material/tune:"),
    st.Page("pages/3_Explain.py", title="Explain", icon=":material/calculate:"),
    st.Page("pages/6_Text.py", title="Text", icon=":material/article:"),
    st.Page("pages/4_Evaluate.py", title="Evaluate", icon=":material/fact_check:"),
]
if (ROOT / "pages" / "5_Lessons.py").exists():
    pages.append(st.Page("pages/5_Lessons.py", title="Lessons", icon=":material/school:"))

st.navigation(pages).run()
