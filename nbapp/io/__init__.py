"""Reading files into tables, and writing tables back out safely.

``load_table`` and ``load_corpus`` turn the bytes of an upload into a :class:`Table` (a
DataFrame and the loader's notes), raising :class:`nbapp.DataError` with a sentence
that names the line, the column and the fix (or, for a bug in nbapp, an
:class:`InternalError` that says so); ``safe_csv_bytes`` writes a CSV that a
spreadsheet opens without running formulas. ``space_variants`` finds the values that differ
only by spaces at their ends (the loader notes them) and ``trim_spaces`` trims them on request.
"""

from nbapp.errors import InternalError
from nbapp.io.export import neutralise, predictions_frame, safe_csv_bytes
from nbapp.io.loading import Table, load_corpus, load_table, workbook_sheets
from nbapp.io.spaces import space_variants, trim_spaces

__all__ = ["InternalError", "Table", "load_corpus", "load_table", "neutralise", "predictions_frame", "safe_csv_bytes",
           "space_variants", "trim_spaces", "workbook_sheets"]
