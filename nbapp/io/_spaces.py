"""Values that differ only by spaces at their ends: " north " and "north" are two categories.

The loader reads cells as they are (a space can be data, and :func:`nbapp.fit_file` and the
command line read the same file the same way), so such values stay apart; each column that has
them gets a note (:func:`spaces_note`) naming it and an example. Trimming is the user's
choice: :func:`trim_spaces` (the Data page's "Trim spaces in ..." button) returns a copy with
the chosen columns' values trimmed. A fifth region made of a typo changes K, and so every
smoothed fraction (count + l) / (n_c + l K) of that column   [seed 000, Eq. 7].
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from nbapp.errors import DataError
from nbapp.io._common import _quoted

__all__ = ["space_variants", "trim_spaces", "spaces_note"]


def space_variants(frame: pd.DataFrame) -> dict[str, list[tuple[str, ...]]]:
    """Text column -> its groups of distinct values that are equal once the white space at their
    start and end is removed (each group in order of first appearance, groups likewise);
    columns without such values are left out."""
    found = {}
    for column in frame.columns:
        groups = _groups(frame[column])
        if groups:
            found[column] = groups
    return found


def trim_spaces(frame: pd.DataFrame, columns: Iterable[str]) -> pd.DataFrame:
    """A copy of ``frame`` whose ``columns`` hold their text values without white space at the
    start and end (a cell left empty becomes missing, as the loader reads a blank cell); other
    cells and columns are unchanged."""
    columns = list(columns)
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise DataError(f"There is no column {_quoted(absent[0])} to trim; the columns are [{', '.join(_quoted(c) for c in list(frame.columns)[:10])}].")
    trimmed = frame.copy()
    for column in columns:
        values = frame[column]
        if _text(values):
            text = _stripped(values)
            trimmed[column] = text.where(text != "", None)
    return trimmed


def spaces_note(name: str, groups: list[tuple[str, ...]]) -> str:
    """The loader's sentence for a column with such values."""
    example = " and ".join(_quoted(v) for v in groups[0])
    more = f" ({len(groups):,} such groups)" if len(groups) > 1 else ""
    return (f"Column {_quoted(name)} has values that differ only by spaces at the start or end, such as {example}{more}; "
            "they count as different categories. Trim them if they mean the same (the Data page offers it; in "
            "Python, nbapp.io.trim_spaces).")


def _text(values: pd.Series) -> bool:
    return pd.api.types.is_string_dtype(values) or values.dtype == object


def _stripped(values: pd.Series) -> pd.Series:
    """The values with white space at both ends removed: a text column's own strip (Arrow's for
    the loader's columns, as the loader strips them), str.strip for text among other objects."""
    if values.dtype != object:
        return values.str.strip()
    return values.map(lambda v: v.strip() if isinstance(v, str) else v)


def _groups(values: pd.Series) -> list[tuple[str, ...]]:
    """The column's groups of distinct text values equal after trimming (none for other columns)."""
    if not _text(values):
        return []
    if values.dtype == object:       # text among other objects (numbers, lists): the text only
        values = values[values.map(lambda v: isinstance(v, str)).to_numpy(dtype=bool)]
    distinct = pd.Series(values.dropna().unique())
    keys = _stripped(distinct)
    alike = keys.duplicated(keep=False).to_numpy(dtype=bool)
    if not alike.any():
        return []
    return [tuple(group) for _, group in distinct[alike].groupby(keys[alike].to_numpy(), sort=False)]
