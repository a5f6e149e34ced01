"""Data: pick a built-in example or upload a file, choose the target and a type per column."""

import ui
from ui.data_page import data_page_ui

ui.ensure_state()
ui.page_header("Data", "Pick a built-in example or upload your own table or text corpus; then say which "
               "column to predict and how to read every other column.")
data_page_ui()
