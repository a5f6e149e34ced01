"""Streamlit helpers shared by the workbench's pages (the work and its state, synced widgets,
the type views, charts, safe text).

Kept outside ``pages/``: every top-level ``.py`` there becomes a page.
"""

from ui.state import (
    DEFAULT_EXAMPLE,
    IGNORE,
    READERS,
    ModelFile,
    Source,
    Work,
    big_data_note,
    class_list,
    current_model,
    download_bytes,
    ensure_state,
    frame,
    import_model,
    load_example_into_state,
    load_path_into_state,
    load_upload_into_state,
    model_key,
    data_key,
    offer_change,
    open_source,
    path_rows,
    refused,
    require_model,
    reset_query,
    set_choice,
    set_feature,
    set_kinds,
    set_query,
    set_query_from_row,
    set_settings,
    set_target,
    set_weight,
    set_work,
    settings,
    sha256,
    specs,
    update_work,
    work,
)
from ui.lecture import cite, ref, show_references
from ui.text import file_stem, fmt_fraction, fmt_log, fmt_number, latex_text, md, md_table, plot_text
from ui.widgets import page_header, show_error, synced
from ui.sidebar import sidebar_summary
from ui.smoothing_control import smoothing_label

__all__ = [
    "DEFAULT_EXAMPLE", "IGNORE", "READERS", "ModelFile", "Source", "Work", "big_data_note",
    "class_list", "current_model", "download_bytes", "ensure_state", "frame", "import_model",
    "load_example_into_state", "load_path_into_state", "load_upload_into_state", "model_key", "data_key", "offer_change", "open_source",
    "path_rows", "refused",
    "require_model", "reset_query", "set_choice", "set_feature", "set_kinds", "set_query", "set_query_from_row",
    "set_settings", "set_target", "set_weight", "set_work", "settings", "sha256", "specs", "update_work", "work",
    "file_stem", "fmt_fraction", "fmt_log", "fmt_number", "latex_text", "md", "plot_text",
    "page_header", "show_error", "sidebar_summary", "smoothing_label", "synced", "cite", "ref", "show_references",
]
