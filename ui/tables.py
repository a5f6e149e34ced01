"""Tables that change with a click: static tables, not data grids (issue 32, item 3).

A data grid (``st.dataframe``) draws on a canvas and keeps an accessible mirror of its cells; in
Chromium here each grid of Explain took 0.5-0.7 s to redraw after a click, after the script had
ended, while an ``st.table`` of the same rows redraws with the rest of the page. So a table of at
most :data:`MAX_STATIC_ROWS` rows that a click changes (Explain's posterior, factors and totals,
Model's priors and CPT) is a static table; a grid stays where a person browses rows (longer
tables, the row picker). A static table renders its labels and text cells as markdown: the user
text goes through :func:`ui.text.md_table` (tests/test_markdown_text.py).

A table the caller names by a ``content_key`` (equal keys, equal tables: the model key, the row,
the view) is made into what ``st.table`` sends once, with Streamlit's own conversion, and kept
for every session (:data:`KEPT_TABLES`, the least recently used dropped first): a class clicking
through the same rows sends the same tables without converting them again (issue 32, item 4).
A dict under a lock, not ``st.cache_resource``: Streamlit hashes a cache's key with its own hasher,
about 0.2 ms for a content key holding a model key, against Python's ``hash`` in microseconds, and
a click sends four to six such tables.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Hashable

import numpy as np
import pandas as pd
from streamlit import dataframe_util

from ui.formulas import highlight
from ui.presentation import frame_ui, presenting
from ui.text import md_table

__all__ = ["MAX_STATIC_ROWS", "MAX_STATIC_COLUMNS", "KEPT_TABLES", "table_ui", "forget_kept_tables"]

#: The most rows drawn as a static table; a longer table is a data grid a person scrolls.
MAX_STATIC_ROWS = 50
#: The most columns (the index included) drawn as a static table. A wider one may scroll sideways,
#: and Streamlit 1.67 makes a static table's scrolling box keyboard-focusable only when given a
#: size in pixels (axe: scrollable-region-focusable, tests/e2e/test_accessibility.py); a grid is.
#: Eleven: tennis's factor table (the factor, value, status and four columns per class of two) fits.
MAX_STATIC_COLUMNS = 11
#: Static tables kept converted, by content key, for every session of the process.
KEPT_TABLES = 256

_kept: OrderedDict[Hashable, tuple[Any, bool]] = OrderedDict()
_kept_lock = threading.Lock()


def table_ui(where: Any, data: pd.DataFrame, *, hide_index: bool | None = None, mask: np.ndarray | None = None,
             key: str | None = None, content_key: Hashable | None = None) -> None:
    """``data`` in ``where`` (``st`` or a column): a static table up to :data:`MAX_STATIC_ROWS`
    rows and :data:`MAX_STATIC_COLUMNS` columns (the index counted), else a data grid under ``key``;
    ``mask``: cells marked as zeros (:func:`ui.formulas.highlight`); ``content_key``: names the
    table's content (see the module's note), for a static table converted once.
    Numbers are written as Streamlit writes them (four decimals, or down to the first digit of a
    smaller number); a pandas Styler for other formats would cost about 10 ms of CPU a table."""
    if mask is not None and not mask.any():     # nothing to mark: no Styler (about 10 ms of CPU a table)
        mask = None
    columns = data.shape[1] + (0 if hide_index else data.index.nlevels)
    small = len(data) <= MAX_STATIC_ROWS and columns <= MAX_STATIC_COLUMNS
    if small and mask is None and content_key is not None and _hashable(content_key):
        arrow, hidden = _converted(data, hide_index, content_key)
        where.table(arrow, hide_index=hidden)
        return
    shown = md_table(data) if small else None
    if shown is None or (mask is not None and not (shown.index.is_unique and shown.columns.is_unique)):
        # a grid: rows to browse, or labels that read the same as text (a style needs them apart)
        if presenting():
            frame_ui(where, data, hide_index=hide_index)
        else:
            where.dataframe(data if mask is None else highlight(data, mask), hide_index=hide_index, key=key)
        return
    where.table(shown if mask is None else highlight(shown, mask), hide_index=hide_index)


def _converted(data: pd.DataFrame, hide_index: bool | None, content_key: Hashable) -> tuple[Any, bool]:
    """``data`` as st.table would send it (its markdown text, then Streamlit's own Arrow conversion)
    and whether its index is hidden (as st.table decides: a RangeIndex is), once per content key."""
    with _kept_lock:
        kept = _kept.get(content_key)
        if kept is not None:
            _kept.move_to_end(content_key)
            return kept
    shown = md_table(data)
    made = (dataframe_util.convert_pandas_df_to_arrow_table(shown),
            dataframe_util.has_range_index(shown) if hide_index is None else hide_index)
    with _kept_lock:
        _kept[content_key] = made
        while len(_kept) > KEPT_TABLES:
            _kept.popitem(last=False)
    return made


def _hashable(content_key: Hashable) -> bool:
    """A key a dict can hold (a model key holding a list cannot: its table is converted each time)."""
    try:
        hash(content_key)
    except TypeError:
        return False
    return True


def forget_kept_tables() -> None:
    """Drop every kept table (as ``st.cache_resource.clear()`` drops the cached results)."""
    with _kept_lock:
        _kept.clear()
