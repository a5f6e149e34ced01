"""Streamlit helpers shared by the workbench's pages (state, synced widgets, charts, safe text).

Kept outside ``pages/``: every top-level ``.py`` there becomes a page.
"""

from ui.state import (
    DEFAULT_EXAMPLE,
    FEATURE_TYPES,
    READERS,
    Imported,
    Settings,
    Source,
    big_data_note,
    class_list,
    current_model,
    download_bytes,
    ensure_state,
    features,
    fit_key,
    frame,
    import_model,
    load_example_into_state,
    load_path_into_state,
    load_upload_into_state,
    make_model,
    model_key,
    path_rows,
    model_kwargs,
    require_model,
    reset_query,
    set_query_from_row,
    set_settings,
    set_target,
    set_types,
    set_weight,
    settings,
    sha256,
)
from ui.text import file_stem, fmt_fraction, fmt_log, fmt_number, latex_text, md, plot_text
from ui.widgets import page_header, show_error, sidebar_summary, smoothing_label, synced

__all__ = [
    "DEFAULT_EXAMPLE", "FEATURE_TYPES", "READERS", "Imported", "Settings", "Source", "class_list", "current_model",
    "download_bytes", "ensure_state", "big_data_note", "load_path_into_state", "path_rows", "features", "fit_key", "frame", "import_model", "load_example_into_state",
    "load_upload_into_state", "make_model", "model_key", "model_kwargs", "require_model", "reset_query",
    "set_query_from_row", "set_settings", "set_target", "set_types", "set_weight",
    "settings", "sha256", "file_stem", "fmt_fraction", "fmt_log", "fmt_number", "latex_text", "md", "plot_text",
    "page_header",
    "show_error", "sidebar_summary", "smoothing_label", "synced",
]
