"""Text: a text column's preprocessing, its top and most informative words, one document
explained word by word, and the word frequencies per class (issue 4)."""

import ui
from ui import text_page
from ui.presentation import presentation_ui

ui.ensure_state()
if not presentation_ui():
    ui.sidebar_summary()
ui.page_header("Text", "A text column as a bag of words: each preprocessing step on a sample document, the "
               "words that mark each class, one document explained token by token, and Zipf's law.")
text_page.text_page_ui()
