"""The Naive Bayes workbench: page config and navigation; each page sets up its own state."""

import os
from pathlib import Path

import streamlit as st

from nbapp.errors import report_internal_error
from ui.session_end import watch_session

ROOT = Path(__file__).resolve().parent

st.set_page_config(page_title="Naive Bayes workbench", page_icon=":material/functions:", layout="wide")
watch_session()  # when the browser goes away for good, the session's memory goes back to the machine

pages = [
    st.Page("pages/1_Data.py", title="Data", icon=":material/table:", default=True),
    st.Page("pages/2_Model.py", title="Model", icon=":material/tune:"),
    st.Page("pages/3_Explain.py", title="Explain", icon=":material/calculate:"),
    st.Page("pages/6_Text.py", title="Text", icon=":material/article:"),
    st.Page("pages/4_Evaluate.py", title="Evaluate", icon=":material/fact_check:"),
]
if (ROOT / "pages" / "5_Lessons.py").exists():
    pages.append(st.Page("pages/5_Lessons.py", title="Lessons", icon=":material/school:"))
pages.append(st.Page("pages/7_Exercises.py", title="Exercises", icon=":material/quiz:"))

try:
    st.navigation(pages).run()
except Exception as exc:  # noqa: BLE001 - the last line of defence: a bug, shown as one and logged
    st.error(str(report_internal_error(exc)), icon=":material/bug_report:")
    if os.environ.get("NBAPP_RAISE_ERRORS"):     # the test suite sets it, so no bug passes a test quietly
        raise
