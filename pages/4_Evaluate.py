"""Evaluate: hold-out, k-fold or leave-one-out evaluation, and predictions for a new file."""

from __future__ import annotations

import ui
from ui.evaluation import evaluation_page_ui

ui.ensure_state()
ui.sidebar_summary()
ui.page_header("Evaluate", "How well does this model predict rows it has not seen? Hold some rows out, or "
               "cross-validate; then predict a new file and download the probabilities.")
evaluation_page_ui()
