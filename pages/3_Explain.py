"""Explain: one example's posterior, factor by factor, with the log-odds as a waterfall."""

import ui
from ui import explain_page, presentation

ui.ensure_state()
presenting = presentation.presentation_ui()
if not presenting:
    ui.sidebar_summary()
    ui.page_header("Explain", "Pick a row of the data (click it) or set the values below; the posterior is "
                   "rebuilt step by step: prior, each factor P(x_a | c), joint, evidence, posterior.")
model = ui.require_model()
if presenting:
    presentation.explain_presentation_ui(model)
else:
    ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
    explain_page.row_picker_ui(ui.frame())
    explain_page.explain_ui(model)
