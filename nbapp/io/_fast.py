"""The fast path for clean comma-separated files: Arrow's reader, then cheap proofs that each
column reads as the careful path (:mod:`nbapp.io._delimited`) would read it.

The careful path counts every record's fields with the :mod:`csv` module, parses every cell as
text with pandas and tests every cell with regular expressions; a clean 1,000,000-row file
spends ~10 s there. Here the cells are read as Arrow strings by ``pyarrow.csv`` (on every core
while cores are idle, see :func:`_threads_pay`), and each column is *proved* to need none of the
careful path's checks:

* a number column: Arrow's cast (the careful path's own) parses every cell, none is infinite,
  NaN or beyond 1e154 in size, no cell has a leading zero or "0x", none is an integer of more
  than 15 characters (together: every cell matches the loader's number pattern and reads as a
  number, see :func:`_number_column`);
* a text column: its distinct values (a few, usually) hold no missing-value token, no number
  and no infinity; then the careful reader run on the distinct values in order of appearance
  gives the column's notes (only the yes/no note can remain).

A column without such a proof goes through the careful reader (:class:`NumberReader`), cells
and line numbers as the careful path gives them; a file the fast reader cannot take (quotes,
ragged rows, blank names, another delimiter or encoding, ``max_rows``) goes the careful way
whole. ``tests/test_loading_fast.py`` checks that both paths give equal frames and notes.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pandas as pd

from nbapp._number_rule import DOT, INF_TOKENS, INTEGER, MAX_EXACT_DIGITS, NA_TOKENS, SIGNS, ZERO
from nbapp.io._common import TEXT_DTYPE, VARIANCE_OVERFLOW, RowNumbers, _quoted
from nbapp.io._numbers import NumberReader
from nbapp.io._tidy import _clean_names


# The first column of an export's row index (tidy._drop_index_column looks at such a column).
_INDEX_NAMES = r"|Unnamed: ?\d+|index"

# Below this size the careful path takes a few milliseconds and the fast path has nothing to win.
FAST_MIN_BYTES = 1 << 20

# The first cells of a column that decide which casts are worth trying (see _number_column).
HEAD_CELLS = 64
_WHOLE = re.compile(INTEGER)            # a whole number of the loader's grammar

# Arrow reads the file in blocks of this many bytes, one block per thread at a time.
BLOCK_BYTES = 4 << 20


def read_fast(source: Any, filename: str, header: list[str], notes: list[str],
              record_lines: Callable[[], np.ndarray]) -> tuple[pd.DataFrame, list[str]] | None:
    """The table and notes of a clean comma-separated file, as the careful path gives them,
    or None when this file needs the careful path as a whole."""
    if not header or any(not name for name in header) or re.fullmatch(_INDEX_NAMES, header[0], flags=re.I):
        return None
    threads = _threads_pay()
    cells = _arrow_cells(source.data, len(header), threads)
    if cells is None or cells.num_rows == 0:
        return None
    verdicts = _in_threads(lambda column: _number_column(column) or _text_column(column), cells.columns, threads)
    if all(v is None for v in verdicts):
        return None       # no column proves that no row is blank: tidy's row checks are needed
    notes = list(notes)
    names = _clean_names(header, notes)
    careful = [i for i, v in enumerate(verdicts) if v is None]
    reader = _careful_reader(cells, careful, source, record_lines)
    columns = {}
    for position, (name, verdict) in enumerate(zip(names, verdicts)):
        if verdict is None:
            columns[name] = reader.convert(position, name, notes)
        else:
            series, column_notes = verdict
            columns[name] = series
            notes.extend(note.replace(_quoted(_PLACEHOLDER), _quoted(name)) for note in column_notes)
    if reader is not None:
        notes.extend(reader.summary())
    frame = pd.DataFrame(columns, copy=False)     # the columns are new: no need to copy them into blocks
    frame.index = pd.RangeIndex(len(frame))
    return frame, notes


def _in_threads(work: Any, columns: list[Any], threads: bool) -> list[Any]:
    """``work`` on each column, on every core when ``threads``: Arrow's kernels and numpy's
    reductions release the GIL, so the columns' checks run side by side."""
    if not threads:
        return [work(column) for column in columns]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, min(len(columns), os.cpu_count() or 1))) as pool:
        return list(pool.map(work, columns))


def _threads_pay() -> bool:
    """Whether to read on several threads: only while a core is idle (the load average below
    the number of cores less a half).

    On a machine whose cores are busy with other work, threads get no more processor time than
    one thread would (Linux shares the processor fairly between sessions, not threads), and they
    spend part of it waiting for each other. Measured on 2 cores at a load average of 8, issue
    24's mixed file (1,000,000 rows): one thread read it at 0.70x pandas' speed, Arrow's threads
    and a thread per column at 0.62x, using 3% more processor time. On idle cores the threads
    read the 15-column file of bench/bench_ingest.py in 0.24 s for 0.44 s of processor time
    (README, 2026-11-25)."""
    cores = os.cpu_count() or 1
    load_average = getattr(os, "getloadavg", None)
    if cores < 2:
        return False
    try:
        return load_average is None or load_average()[0] < cores - 0.5
    except OSError:          # no load average on this system
        return True


def fast_path_applies(source: Any, max_rows: int | None) -> bool:
    """A comma-separated UTF-8 file without quotes, starting with its header line: the careful
    path's record counting and quote handling then reduce to splitting lines at commas."""
    return (max_rows is None and len(source.data) >= FAST_MIN_BYTES and source.delimiter == "," and source.encoding.codec == "utf-8"
            and source.encoding.errors == "strict" and b'"' not in source.data
            and _first_line(source.data).strip() != b"")


def _first_line(data: bytes) -> bytes:
    ends = [i for i in (data.find(b"\n", 0, 1 << 16), data.find(b"\r", 0, 1 << 16)) if i >= 0]
    return data[:min(ends)] if ends else data[:1 << 16]


def _arrow_cells(data: bytes, width: int, threads: bool) -> Any:
    """Every cell as an Arrow string; None when a line has another number of fields than the
    header (the careful path then finds and names those lines)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    names = [str(i) for i in range(width)]
    try:
        return pcsv.read_csv(
            pa.BufferReader(data),      # Arrow's own reader: no copies through a Python file object
            read_options=pcsv.ReadOptions(column_names=names, skip_rows=1, block_size=BLOCK_BYTES, use_threads=threads),
            parse_options=pcsv.ParseOptions(delimiter=",", quote_char=False, ignore_empty_lines=True),
            # check_utf8=False: fast_path_applies admits only bytes already decoded as strict UTF-8
            # large_string: what a pandas text column holds (pandas would cast other strings to it)
            convert_options=pcsv.ConvertOptions(column_types={n: pa.large_string() for n in names}, null_values=[],
                                                strings_can_be_null=False, quoted_strings_can_be_null=False,
                                                check_utf8=False),
        )
    except (pa.ArrowInvalid, pa.ArrowException):
        return None


def _number_column(column: Any) -> tuple[pd.Series, list[str]] | None:
    """The column as the careful path's int64 / float64 numbers when it provably reads so
    without a note (numbers.py: NumberReader.convert, _kept_as_text, _numbers).

    Arrow's casts are the careful path's own (numbers.py: _cast), tried in its order: whole
    numbers, then decimals. A cell that Arrow parses, that is finite and that has no leading
    zero or "0x" is one the loader's number pattern accepts (checked on every string of up to
    four characters over the characters that matter and 300,000 longer random ones); cells that
    Arrow refuses send the column the careful way (a text column at its first cell)."""
    import pyarrow as pa

    # A failed cast costs ~10 ms however early it fails, so the first cells choose what to try:
    # text columns are then no number at all, and a number column tries whole numbers only when
    # its first cells are whole.
    head = column.chunk(0).slice(0, HEAD_CELLS).to_pylist()
    if not all(DOT.pattern.fullmatch(cell) for cell in head):
        return None
    whole_head = all(_WHOLE.fullmatch(cell) for cell in head)
    parsed = _whole_numbers(column) if whole_head else None
    if parsed is None:
        parsed = _cast(column, pa.float64())
    if parsed is None:
        return None
    # One copy out of Arrow's read-only buffers: a new, writable column, as the careful path's.
    numbers = np.concatenate([chunk.to_numpy() for chunk in parsed.chunks])
    whole = numbers.dtype.kind == "i"
    if not whole and not (-VARIANCE_OVERFLOW <= numbers.min() and numbers.max() <= VARIANCE_OVERFLOW):
        return None                       # NaN (min and max are NaN), inf words, overflow, huge values: notes
    if any(_written_as_code(chunk, whole) for chunk in column.chunks):
        return None
    return pd.Series(numbers, copy=False), []


def _cast(column: Any, kind: Any) -> Any:
    """The column cast by Arrow (the careful path's parser), or None when a cell does not parse."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        return pc.cast(column, kind)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _whole_numbers(column: Any) -> Any:
    """The column as int64 when every cell is a whole number as the careful path reads them
    (numbers.py: _as_integers): Arrow's integer cast, which takes no plus sign, so a plus sign
    before a digit is dropped for it ("+-3" keeps its and fails)."""
    import pyarrow.compute as pc

    parsed = _cast(column, _int64())
    if parsed is None and pc.any(pc.starts_with(column, SIGNS[0])).as_py():
        parsed = _cast(pc.replace_substring_regex(column, "^" + re.escape(SIGNS[0]) + "([0-9])", r"\1"), _int64())
    return parsed


def _int64() -> Any:
    import pyarrow as pa

    return pa.int64()


def _written_as_code(chunk: Any, whole: bool) -> bool:
    """Whether a cell of an Arrow string chunk of numbers (none empty: each parsed as a number)
    is kept as text by the careful path:
    a leading zero or "0x" ("007", "-01.5": an ID or code) or an integer of more than 15
    characters (a float cannot hold it).

    Only the cells that start with "0", "+" or "-" can have a leading zero (in most columns a
    few), so the second and third bytes are looked at for those cells alone."""
    import pyarrow as pa

    width = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    offsets = np.frombuffer(chunk.buffers()[1], dtype=width)[chunk.offset:chunk.offset + len(chunk) + 1]
    if len(offsets) < 2:
        return False
    values = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)
    starts = offsets[:-1]
    first = values[starts]
    maybe = np.flatnonzero(np.isin(first, _BYTES[ZERO + SIGNS]))
    if len(maybe) and _leading_zero(values, starts[maybe], offsets[1:][maybe], first[maybe]):
        return True
    lengths = np.diff(offsets)
    long = lengths > MAX_EXACT_DIGITS
    if not long.any():
        return False
    if whole:
        return True
    cells = values[offsets[0]:offsets[-1]]
    return bool((_fraction_marks(cells, offsets - offsets[0])[long] == 0).any())


def _leading_zero(values: np.ndarray, starts: np.ndarray, ends: np.ndarray, first: np.ndarray) -> bool:
    """Whether a cell (values[starts[i]:ends[i]], first byte first[i]) is a sign or nothing, then
    "0", then a digit or "x" / "X": the loader's leading-zero pattern, and "0x" codes."""
    digit = starts + (first != ord(ZERO))             # where the first digit is, after a sign
    room = np.flatnonzero(digit + 1 < ends)           # cells with a byte after it
    digit = digit[room]
    zero = digit[values[digit] == ord(ZERO)]
    after = values[zero + 1]
    return bool(np.isin(after, _BYTES[_AFTER_ZERO]).any())


def _fraction_marks(cells: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """How many fraction marks of the loader's number form ('.', 'e' or 'E') each cell holds
    (cells are cells[bounds[i]:bounds[i + 1]])."""
    marks = np.isin(cells, _BYTES[DOT.fraction_marks])
    running = np.concatenate([[0], np.cumsum(marks, dtype=np.int64)])
    return running[bounds[1:]] - running[bounds[:-1]]


def _bytes(characters: str) -> np.ndarray:
    return np.frombuffer(characters.encode("ascii"), dtype=np.uint8)


# After a zero (and a sign or nothing): a digit makes the loader's leading zero (LEADING_ZERO), an
# "x" one of the hexadecimal codes Arrow's casts read and the loader's pattern does not.
_AFTER_ZERO = "0123456789xX"
_BYTES = {characters: _bytes(characters) for characters in (ZERO + SIGNS, _AFTER_ZERO, DOT.fraction_marks)}


# The careful reader runs on a column of distinct values under this name; its notes are then
# given the column's real name.
_PLACEHOLDER = "\x00column\x00"


def _text_column(column: Any) -> tuple[pd.Series, list[str]] | None:
    """The column as the careful path's text when none of its distinct values is missing, a
    number or an infinity; its notes are those of the careful reader on the distinct values."""
    import pyarrow.compute as pc

    distinct = _strings(pc.unique(column))      # in order of first appearance, as pandas' unique
    stripped = distinct.str.strip()
    lower = stripped.str.lower()
    if lower.isin(NA_TOKENS | INF_TOKENS).any() or stripped.str.fullmatch(DOT.pattern.pattern).any():
        return None
    notes: list[str] = []
    text = NumberReader(pd.DataFrame({0: distinct}), _no_rows(), ",").convert(0, _PLACEHOLDER, notes)
    if not isinstance(text.dtype, pd.StringDtype):
        return None
    return _strings(column), notes


def _strings(column: Any) -> pd.Series:
    """An Arrow string column as the pandas text column the careful path builds."""
    return pd.Series(column, dtype=TEXT_DTYPE)


def _no_rows() -> RowNumbers:
    def refuse() -> np.ndarray:
        raise AssertionError("a note with line numbers was asked of a column proved to need none")

    return RowNumbers("line", refuse)


def _careful_reader(cells: Any, careful: list[int], source: Any,
                    record_lines: Callable[[], np.ndarray]) -> NumberReader | None:
    """The careful number reader on the columns that need it, with the careful path's line
    numbers (``record_lines``, the delimited reader's, computed only if a note asks for them)."""
    if not careful:
        return None
    frame = pd.DataFrame({i: _strings(cells.column(i)) for i in careful})
    return NumberReader(frame, RowNumbers("line", record_lines), source.delimiter)

