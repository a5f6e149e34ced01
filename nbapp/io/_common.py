"""What every reader shares: the limits and tokens of the loader, the Table it returns, and the holders of raw cells and row numbers."""

from __future__ import annotations

import csv
import re
import struct
import sys
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


# The csv module refuses a field longer than 131,072 characters by default, and one long
# document (a whole article in a corpus CSV) is a normal field here. The limit is a
# process-wide setting of the csv module (it cannot be set per reader), so it is raised once,
# at import, to the largest value a C long holds on every platform (32 bits on Windows).
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


# The dtype of a table's text cells on every path: pandas 3's default "str" (Arrow strings, NaN
# for missing), named in full because under pandas 2.3, which the project pins while PySpark
# lacks pandas 3 (issue 33, item 7), "str" means Python objects.
TEXT_DTYPE = pd.StringDtype("pyarrow", na_value=np.nan)


BOOLEAN_WORDS = frozenset({"yes", "no", "true", "false", "y", "n", "t", "f"})


DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


# Enough text to see the delimiter and a few dozen records of a typical export.
SAMPLE_BYTES = 1 << 16


DECODE_CHUNK = 1 << 20


# A few stray control characters can be real data; this many means the bytes are not text.
BINARY_CONTROL_SHARE = 0.005


# Beyond this magnitude x**2 overflows float64 (sqrt of the largest double is ~1.34e154).
VARIANCE_OVERFLOW = 1e154


SHOWN = 5


# More columns than this is not a table a person types features for; refused before any
# per-column work (a header of 80,000 names would otherwise take minutes).
MAX_COLUMNS = 10_000


# Archive limits. Plain text and XML compress 3-20 fold; a member that expands far more
# than that is a zip bomb. Small members are exempt because a few kilobytes of repeated
# text can legitimately compress very well and cannot exhaust memory.
RATIO_CHECK_FLOOR = 1 << 20


# Cells a workbook read may build (the sheet's rows times its widest row, empty cells
# included): a cell holds 8 bytes of pointer and tens of bytes as text, so this stays within a
# few hundred MB; a larger sheet is read faster and leaner as CSV. A sheet's declared size (its
# <dimension>, an ODS repeat count, a far-away cell reference) is a few bytes naming a size: the
# reads count the cells they actually build against this, while building (issue 31, item 2).
MAX_SHEET_CELLS = 10_000_000


XLSX_LIMITS = {"max_entries": 10_000, "max_total_bytes": 1 << 30, "max_ratio": 1000.0}


_BINARY_CHARS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


_MAGIC = [
    (b"\x1f\x8b", "gzip-compressed",
     "decompress it (for example with 7-Zip or gunzip) and upload the CSV inside"),
    (b"%PDF", "a PDF document", "export the table as CSV or Excel (.xlsx) and upload that"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel .xls (or other Office) file",
     "save it as Excel .xlsx or CSV and upload that"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "extract it and upload the table inside"),
    (b"Rar!\x1a\x07", "a RAR archive", "extract it and upload the table inside"),
    (b"\xfd7zXZ\x00", "xz-compressed", "decompress it and upload the CSV inside"),
    (b"BZh91AY&SY", "bzip2-compressed", "decompress it and upload the CSV inside"),
    (b"PAR1", "a Parquet file", "fit it with nbapp.fit_file or `nbapp fit` (they read Parquet), or save it as "
     "CSV (pandas: read_parquet(...).to_csv(...)) and upload that"),
]


_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


# What zipfile raises on damaged bytes: besides BadZipFile, a bad offset's negative seek
# (ValueError), a version or method it does not know (NotImplementedError), a cut stream
# (EOFError), broken compressed data (zlib.error), an encrypted member (RuntimeError), a
# truncated field (struct.error). Caught only around zipfile's own calls (issue 31, item 16).
ZIP_ERRORS = (zipfile.BadZipFile, ValueError, OSError, NotImplementedError, EOFError, zlib.error, RuntimeError,
              struct.error)


@dataclass(frozen=True)
class Table:
    """A loaded table and the plain sentences saying how it was read.

    ``notes`` lists what was detected or changed (encoding, delimiter, decimal comma,
    renamed columns, cells read as missing, rows dropped and why), in reading order.
    """

    frame: pd.DataFrame
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "notes", tuple(str(n) for n in self.notes))


@dataclass
class _Raw:
    """Cells read as text, before names are cleaned and numbers converted."""

    header: list[str]
    frame: pd.DataFrame  # columns 0..w-1, every cell a str ("" for blank)
    rows: RowNumbers
    notes: list[str]
    delimiter: str | None = None  # None for Excel
    trailing_delimiter: bool = False
    # Row numbers of a sheet's rows that the file leaves out (Excel writes no empty row): they
    # are never built, and count as empty rows dropped.
    absent_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


class RowNumbers:
    """Maps positions of data rows to the line (or sheet row) numbers a user sees."""

    def __init__(self, word: str, numbers: Callable[[], np.ndarray]) -> None:
        self.word = word
        self._numbers = numbers
        self._cache: np.ndarray | None = None
        self._keep: np.ndarray | None = None

    def keep(self, positions: np.ndarray) -> None:
        self._keep = positions if self._keep is None else self._keep[positions]

    def numbers(self, positions: np.ndarray) -> np.ndarray:
        if self._cache is None:
            self._cache = np.asarray(self._numbers())
        index = np.asarray(positions) if self._keep is None else self._keep[positions]
        return self._cache[index]

    def describe(self, positions: np.ndarray, limit: int = SHOWN) -> str:
        """'line 4' / 'lines 4, 9 and 12' / 'lines 4, 9, 12, 15, 20 and 31 more'."""
        positions = np.asarray(positions)
        return _described(self.word, self.numbers(positions[:limit]), len(positions))


def _described(word: str, numbers: np.ndarray, count: int) -> str:
    """'row 4' / 'rows 4, 9 and 12' / 'rows 4, 9, 12, 15, 20 and 31 more': the first numbers
    of ``count``."""
    shown = [f"{n:,}" for n in numbers]
    rest = count - len(shown)
    word = word if count == 1 else word + "s"
    if rest > 0:
        return f"{word} {', '.join(shown)} and {rest:,} more"
    if len(shown) > 1:
        return f"{word} {', '.join(shown[:-1])} and {shown[-1]}"
    return f"{word} {shown[0]}"


# A message quotes at most this many characters of a cell, a name or a line: they can be
# megabytes long (a refused one-line 50 MB file once sent its whole header to the browser).
QUOTED_CHARS = 30


def _quoted(value: object, limit: int = QUOTED_CHARS) -> str:
    """A cell, name or line as a message quotes it: its repr, cut after ``limit`` characters with
    the length said (issue 31, item 14). Every sentence of the loader that quotes what a file
    holds goes through here."""
    if not isinstance(value, str):
        shown = repr(value)
        return shown if len(shown) <= limit else shown[:limit] + "…"
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit] + '…'!r} ({len(value):,} characters)"


def _clipped(text: str, limit: int = 2 * QUOTED_CHARS) -> str:
    """A reader's own message (an exception's text, which may quote the file) cut as _quoted cuts."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _file_name(name: str) -> str:
    """An uploaded file's name as the messages give it: its start and its end (the extension the
    readers go by) when it is long, for the name is the sender's to choose as well."""
    return name if len(name) <= 3 * QUOTED_CHARS else f"{name[:QUOTED_CHARS]}…{name[-QUOTED_CHARS:]}"


def _shape(frame: pd.DataFrame) -> str:
    rows, columns = frame.shape
    return f"{rows:,} row{'s' * (rows != 1)} x {columns} column{'s' * (columns != 1)}"


def _names(columns: list[str]) -> str:
    shown = ", ".join(_quoted(c) for c in columns[:SHOWN])
    more = f" and {len(columns) - SHOWN} more" if len(columns) > SHOWN else ""
    word = "column" if len(columns) == 1 else "columns"
    return f"{word} {shown}{more}"
