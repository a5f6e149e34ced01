"""From raw cells to a table: column names (blank, repeated, look-alike), empty rows and columns, index columns, then numbers per column."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.io._common import DELIMITER_NAMES, SHOWN, Table, _Raw, _described, _quoted
from nbapp._number_rule import NumberForm
from nbapp.io._numbers import NumberReader


def _tidy(raw: _Raw, filename: str, form: NumberForm | None = None) -> Table:
    """``form``: the file's number form when decided on more rows than these (see NumberReader)."""
    notes = list(raw.notes)
    frame = raw.frame
    header = list(raw.header)
    frame, header = _drop_empty_columns(frame, header, raw, notes)
    frame = _drop_empty_rows(frame, raw, notes)
    if len(frame) == 0:
        shown = ", ".join(_quoted(h) for h in header[:SHOWN])
        raise DataError(
            f"The file {filename!r} has a header row ({shown}) but no data rows; upload a file "
            "with at least one row of values under the header."
        )
    frame, header = _drop_index_column(frame, header, notes)
    names = _clean_names(header, notes)
    frame.columns = range(frame.shape[1])
    converter = NumberReader(frame, raw.rows, raw.delimiter, form)
    columns = {name: converter.convert(position, name, notes) for position, name in enumerate(names)}
    result = pd.DataFrame(columns)
    result.index = pd.RangeIndex(len(result))
    notes.extend(converter.summary())
    return Table(result, tuple(notes))


def _blank(column: pd.Series) -> pd.Series:
    return column.str.strip() == ""


def _drop_empty_columns(
    frame: pd.DataFrame, header: list[str], raw: _Raw, notes: list[str]
) -> tuple[pd.DataFrame, list[str]]:
    """Columns with neither a name nor a value: trailing delimiters, Excel's ghost columns."""
    empty = _empty_columns(frame, [i for i, name in enumerate(header) if not name])
    if not empty:
        return frame, header
    last_only = empty == [len(header) - 1]
    if raw.delimiter is not None and last_only:
        where = "every data line" if raw.trailing_delimiter else "every line"
        notes.append(
            f"{where.capitalize()} ends with a {DELIMITER_NAMES[raw.delimiter]}; dropped the "
            "empty last column that this creates."
        )
    elif len(header) - len(empty) > 0:
        notes.append(_ghost_columns_note(empty))
    dropped = set(empty)
    keep = [i for i in range(len(header)) if i not in dropped]
    return frame.iloc[:, keep].copy(), [header[i] for i in keep]


def _ghost_columns_note(empty: list[int]) -> str:
    shown = ", ".join(str(i + 1) for i in empty[:SHOWN])
    return f"Dropped {len(empty)} column(s) with neither a name nor any value (position {shown})."


def _empty_columns(frame: pd.DataFrame, positions: list[int]) -> list[int]:
    """Which of the columns at ``positions`` hold only blank cells: one string test over their
    cells together, not one per column (a sheet with one cell in its 10,000th column has 9,998
    such columns, and a test per column took 20 s; issue 31, item 2)."""
    if not positions:
        return []
    cells = pd.Series(frame.iloc[:, positions].to_numpy(dtype=object).ravel(order="F"), dtype="str")
    blank = _blank(cells).to_numpy(dtype=bool).reshape(len(positions), len(frame))
    return [p for p, all_blank in zip(positions, blank.all(axis=1)) if all_blank]


def _drop_empty_rows(frame: pd.DataFrame, raw: _Raw, notes: list[str]) -> pd.DataFrame:
    """Rows with every cell empty, noted with the rows a sheet leaves out of its file."""
    if frame.shape[1] == 0:
        return frame.iloc[:0]
    empty = np.ones(len(frame), dtype=bool)
    for column in frame.columns:
        empty &= _blank(frame[column]).to_numpy(dtype=bool)
        if not empty.any():
            break
    absent = raw.absent_rows
    if not empty.any() and not len(absent):
        return frame
    positions = np.flatnonzero(empty)
    count = len(positions) + len(absent)
    first = np.sort(np.concatenate([raw.rows.numbers(positions[:SHOWN]), absent[:SHOWN]]))[:SHOWN]
    notes.append(f"Dropped {count:,} row(s) with every cell empty ({_described(raw.rows.word, first, count)}).")
    keep = np.flatnonzero(~empty)
    raw.rows.keep(keep)
    return frame.iloc[keep].reset_index(drop=True)


def _drop_index_column(
    frame: pd.DataFrame, header: list[str], notes: list[str]
) -> tuple[pd.DataFrame, list[str]]:
    """A first column numbering the rows 0..n-1 (or 1..n) under a blank or 'Unnamed: 0' name."""
    if frame.shape[1] < 2 or not re.fullmatch(r"|Unnamed: ?\d+|index", header[0], flags=re.I):
        return frame, header
    values = frame[frame.columns[0]].str.strip()
    if not values.str.fullmatch(r"\d{1,18}").all():
        return frame, header
    numbers = values.astype("int64").to_numpy()
    start = int(numbers[0])
    if start not in (0, 1) or not np.array_equal(numbers, np.arange(start, start + len(numbers))):
        return frame, header
    name = _quoted(header[0]) if header[0] else "with no name"
    notes.append(
        f"Dropped the first column ({name}): it numbers the rows {start}..{start + len(numbers) - 1}, "
        "a row index left over from an export (pandas to_csv writes one by default)."
    )
    return frame.iloc[:, 1:].copy(), header[1:]


def _clean_names(header: list[str], notes: list[str]) -> list[str]:
    """Blank names become column_<position>; repeated names get _2, _3 ...; names that only look
    alike (equal after Unicode NFC normalisation, case folding and trimming: "café" typed two
    ways, "Age" and "age ") are kept apart and renamed the same way. All noted; linear time."""
    names = [name if name else f"column_{i + 1}" for i, name in enumerate(header)]
    blanks = [i + 1 for i, name in enumerate(header) if not name]
    if blanks:
        shown = ", ".join(f"column_{i}" for i in blanks[:SHOWN])
        notes.append(f"{len(blanks)} column(s) had no name in the header; named them {shown}.")
    taken = {_look(name) for name in names}
    first_of: dict[str, str] = {}
    next_suffix: Counter[str] = Counter()
    renamed, alike = [], []
    for i, name in enumerate(names):
        look = _look(name)
        if look not in first_of:
            first_of[look] = name
            continue
        k = max(next_suffix[look], 2)
        while _look(f"{name}_{k}") in taken:
            k += 1
        next_suffix[look] = k + 1
        new = f"{name}_{k}"
        taken.add(_look(new))
        (renamed if first_of[look] == name else alike).append((i, name, new, first_of[look]))
        names[i] = new
    if renamed:
        shown = "; ".join(f"{_quoted(name)} (column {i + 1}) -> {_quoted(new)}" for i, name, new, _ in renamed[:SHOWN])
        notes.append(f"Duplicate column names renamed: {shown}.")
    for i, name, new, first in alike[:SHOWN]:
        notes.append(f"Column names {_quoted(first)} and {_quoted(name)} look the same (they differ only in Unicode form, "
                     f"case or spaces); kept both and renamed the second (column {i + 1}) to {_quoted(new)}.")
    return names


def _look(name: str) -> str:
    """How a column name looks to a person: NFC, case-folded, trimmed."""
    return unicodedata.normalize("NFC", name).casefold().strip()


