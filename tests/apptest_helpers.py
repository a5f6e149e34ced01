"""Helpers shared by the AppTest files (streamlit.testing.v1): start the app, open a page, upload a
file, read what is on screen.

Import what a test file needs, the autouse fixture ``clear_caches`` included (a fixture is active in
the modules that import it)::

    from apptest_helpers import clear_caches, open_page, start  # noqa: F401 (autouse fixture)

AppTest runs each page without app.py's navigation (shared/notes/streamlit-1.67.md, 1.1), so every
page must set up its own state.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui.tables import forget_kept_tables

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"Data": "pages/1_Data.py", "Model": "pages/2_Model.py", "Explain": "pages/3_Explain.py",
         "Evaluate": "pages/4_Evaluate.py", "Lessons": "pages/5_Lessons.py", "Text": "pages/6_Text.py"}


@pytest.fixture(autouse=True)
def clear_caches():
    """Streamlit's caches are global to the process: start every test from empty ones (a row's
    explanation is kept in st.cache_resource per model and row, its static tables in ui.tables:
    a test that patches a type sees its own)."""
    st.cache_data.clear()
    st.cache_resource.clear()
    forget_kept_tables()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()
    forget_kept_tables()


def no_exception(at: AppTest) -> AppTest:
    """No traceback on screen."""
    assert not at.exception, [e.value for e in at.exception]
    return at


def start(example: str | None = None, *, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """app.py run once (on the address ``query``, if given), then the built-in ``example`` chosen
    on the Data page, if given (the app opens on tennis14)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if example is not None:
        at.selectbox(key="_data_example").set_value(example).run()
    return no_exception(at)


def open_page(at: AppTest, name: str, *, check_title: bool = True) -> AppTest:
    """The page ``name`` (a key of PAGES) run in the same session; its title must be ``name``."""
    at.switch_page(PAGES[name]).run()
    no_exception(at)
    if check_title:
        assert at.title[0].value == name
    return at


def choose_lesson(at: AppTest, view: str) -> AppTest:
    """The Lessons page (which must be open) switched to ``view``."""
    at.segmented_control(key="_lessons_view").set_value(view).run()
    return no_exception(at)


def upload(at: AppTest, name: str, data: bytes, mime: str = "text/csv", *, check: bool = True) -> AppTest:
    """``data`` uploaded as file ``name`` on the Data page; ``check``: no traceback after it."""
    at.radio(key="_data_mode").set_value("Upload a file").run()
    at.file_uploader(key="data.uploader").set_value((name, data, mime)).run()
    return no_exception(at) if check else at


def import_model(at: AppTest, name: str, model) -> AppTest:
    """A fitted model's JSON uploaded as file ``name`` on the Model page (which must be open)."""
    at.file_uploader(key="model.json_upload").set_value((name, model.to_json().encode(), "application/json"))
    return at.run()


def unescape(text: str) -> str:
    """Markdown backslash escapes and word joiners removed (ui.md escapes user text before it is
    shown, and puts a word joiner where markdown would make a link, an emoji or an arrow)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text).replace("\u2060", "")   # CommonMark: "_" too


def shown_table(frame: pd.DataFrame) -> pd.DataFrame:
    """An st.table's frame as the reader sees it: labels and text cells unescaped (ui.md_table)."""
    def text(v):
        return unescape(v) if isinstance(v, str) else v

    shown = frame.map(text).rename(index=text, columns=text)
    for axis in (shown.index, shown.columns):
        axis.names = [text(n) for n in axis.names]
    return shown


def texts(at: AppTest, kind: str) -> list[str]:
    """The text of every element of one kind, markdown escapes removed."""
    return [unescape(el.value) for el in getattr(at, kind)]


def metric(at: AppTest, label: str) -> str:
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"no metric {label!r}; metrics: {[m.label for m in at.metric]}"
    return values[0]


def tables(at: AppTest) -> list[pd.DataFrame]:
    """Every table of the main area in page order, data grids (``st.dataframe``) and static tables
    (``st.table``, as the reader sees them: :func:`shown_table`) alike: a table of up to 50 rows
    that a click changes is static (ui/tables.py), a longer one a grid."""
    return [node.value if node.type == "dataframe" else shown_table(node.value)
            for node in at.main if node.type in ("dataframe", "table")]


def table(at: AppTest, where) -> pd.DataFrame:
    """The last table on screen, grid or static, for which ``where(frame)`` holds (tables carry
    no key in AppTest)."""
    found = [frame for frame in tables(at) if where(frame)]
    assert found, "no such table on screen"
    return found[-1]


@pytest.fixture
def downloads(monkeypatch):
    """Every st.download_button call of the pages: label -> (data, file_name)."""
    from streamlit.delta_generator import DeltaGenerator

    seen: dict[str, tuple] = {}
    original = DeltaGenerator.download_button

    def record(self, label, data, *args, **kwargs):
        seen[label] = (data, kwargs.get("file_name"))
        return original(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", record)  # columns' buttons
    monkeypatch.setattr(st, "download_button", lambda *a, **k: record(st._main, *a, **k))
    return seen
