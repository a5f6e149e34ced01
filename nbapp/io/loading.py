"""Reading uploaded files into tables, with a note for every interpretation.

Analysts upload what their tools export: semicolons and decimal commas, Windows-1252,
UTF-16 from Excel, ragged rows, "N/A" in number columns, IDs with leading zeros. pandas
accepts many of these silently and gives wrong answers (a short row is padded, a trailing
delimiter shifts every column). Here every file either loads with plain sentences saying what
was detected or changed (:attr:`Table.notes`), or is refused with one :class:`DataError`
that names the file, line, column or value and says what to do.

How a delimited file is read:

1. the container is checked (gzip, PDF, ZIP and other binaries are refused; an Excel
   workbook is read as Excel whatever its name);
2. the encoding is found (byte-order mark, else strict UTF-8, else Windows-1252 / a guess);
3. the delimiter is the one of ``, ; TAB |`` that splits a sample most consistently;
4. the fields of every record are counted with the :mod:`csv` module (pandas pads short
   rows silently), and unclosed quotes or ragged rows are refused with line numbers;
5. pandas' C parser reads every cell as text, and columns that are cleanly numeric are
   converted afterwards (so "007" stays an ID and "N/A" is reported, never guessed).
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
import sys
import unicodedata
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError, report_internal_error

__all__ = ["Table", "load_table", "load_corpus"]

# The csv module refuses a field longer than 131,072 characters by default, and one long
# document (a whole article in a corpus CSV) is a normal field here. The limit is a
# process-wide setting of the csv module (it cannot be set per reader), so it is raised once,
# at import, to the largest value a C long holds on every platform (32 bits on Windows).
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))

# Cells read as missing in a numeric column (compared after strip + lower-case).
NA_TOKENS = frozenset({"", "n/a", "na", "#n/a", "?", "-", "null", "none", "nan"})
# In a text column only these unambiguous ones are (R and Excel write them for missing);
# "?", "-" and "none" can be real answers there, so they stay values, with a note.
TEXT_NA_TOKENS = frozenset({"", "n/a", "na", "#n/a", "null", "nan"})
INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
BOOLEAN_WORDS = frozenset({"yes", "no", "true", "false", "y", "n", "t", "f"})
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}

# Enough text to see the delimiter and a few dozen records of a typical export.
SAMPLE_BYTES = 1 << 16
DECODE_CHUNK = 1 << 20
# A few stray control characters can be real data; this many means the bytes are not text.
BINARY_CONTROL_SHARE = 0.005
# Beyond this magnitude x**2 overflows float64 (sqrt of the largest double is ~1.34e154).
VARIANCE_OVERFLOW = 1e154
# float64 holds integers exactly up to 2**53 (about 9.007e15): longer digit strings stay text.
MAX_EXACT_DIGITS = 15
SHOWN = 5
# More columns than this is not a table a person types features for; refused before any
# per-column work (a header of 80,000 names would otherwise take minutes).
MAX_COLUMNS = 10_000

# Archive limits. Plain text and XML compress 3-20 fold; a member that expands far more
# than that is a zip bomb. Small members are exempt because a few kilobytes of repeated
# text can legitimately compress very well and cannot exhaust memory.
RATIO_CHECK_FLOOR = 1 << 20
XLSX_LIMITS = {"max_entries": 10_000, "max_total_bytes": 1 << 30, "max_ratio": 1000.0}

_DOT_NUMBER = re.compile(
    r"[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
)
_COMMA_NUMBER = re.compile(r"[+-]?(?:(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d*)?|,\d+)(?:[eE][+-]?\d+)?")
_LEADING_ZERO = r"[+-]?0\d"
_INTEGER = r"[+-]?\d+"
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
]
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


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


# ------------------------------------------------------------------------------------------
# public entry points
# ------------------------------------------------------------------------------------------
def load_table(data: bytes, filename: str, *, max_rows: int | None = None) -> Table:
    """Read a CSV / TSV / semicolon / pipe file or an Excel .xlsx workbook into a Table.

    Every cell is read as text first; a column becomes numeric only when each value is a
    number (after NA tokens such as "N/A", "?" or "-" are read as missing, which is noted
    with the lines). ``max_rows`` reads only the first data rows (noted when more exist).
    Raises :class:`DataError`, and nothing else, on a file that cannot be read faithfully.
    """
    if max_rows is not None:
        if isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)) or max_rows < 1:
            raise DataError(
                f"max_rows must be a whole number of rows of at least 1 (or None for all rows), "
                f"not {max_rows!r}."
            )
        max_rows = int(max_rows)
    return _guarded(filename, lambda: _load_table(bytes(data), str(filename), max_rows))


def load_corpus(
    data: bytes,
    filename: str,
    *,
    max_entries: int = 60_000,
    max_total_bytes: int = 300 << 20,
    max_ratio: float = 100.0,
) -> Table:
    """Read a labelled text corpus into a Table with columns ``text`` and ``label``.

    Accepted: a CSV / Excel table with a text column and a label column; a ``.zip`` with
    one folder per class holding ``.txt`` files (limits on entries, unpacked size and
    compression ratio are checked before anything is decompressed; nothing touches the
    disk); a ``label<TAB>text`` lines file. Text is NFC-normalised (noted when that
    changes anything); empty documents are kept and counted in the notes.
    """
    limits = {"max_entries": max_entries, "max_total_bytes": max_total_bytes, "max_ratio": max_ratio}
    return _guarded(filename, lambda: _load_corpus(bytes(data), str(filename), limits))


def _guarded(filename: str, read: Callable[[], Table]) -> Table:
    """Bad files raise DataError where they are found. Anything else is a bug, and is not
    disguised as the user's mistake: it becomes an InternalError ("internal error — please
    report", with an id under which the traceback is logged). The fuzz tests assert that no
    input reaches it."""
    try:
        return read()
    except DataError:
        raise
    except MemoryError:
        raise DataError(
            f"The file {filename!r} is too large to read in memory here; upload a smaller "
            "sample of its rows."
        ) from None
    except Exception as exc:  # noqa: BLE001 - the last line of defence, see the docstring
        raise report_internal_error(exc) from exc


def _load_table(data: bytes, filename: str, max_rows: int | None) -> Table:
    _refuse_empty(data, filename)
    if data.startswith(_ZIP_MAGIC):
        return _read_workbook(data, filename, max_rows)
    _refuse_known_binary(data, filename)
    return _read_delimited(data, filename, max_rows)


# ------------------------------------------------------------------------------------------
# containers and encodings
# ------------------------------------------------------------------------------------------
def _refuse_empty(data: bytes, filename: str) -> None:
    if not data.strip(b" \t\r\n\xef\xbb\xbf\xff\xfe\x00"):
        raise DataError(f"The file {filename!r} is empty; upload a file with a header row and data rows.")


def _refuse_known_binary(data: bytes, filename: str) -> None:
    for magic, what, fix in _MAGIC:
        if data.startswith(magic):
            raise DataError(f"The file {filename!r} is {what}, not a text table; {fix}.")


@dataclass(frozen=True)
class _Encoding:
    codec: str  # a Python codec name that also strips a byte-order mark
    label: str  # how the note names it
    errors: str = "strict"  # "replace" when a few invalid bytes of a UTF-8 file become U+FFFD


_BYTE_ORDER_MARKS = (   # longest first: a UTF-32 mark starts like a UTF-16 one
    ((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"), _Encoding("utf-32", "UTF-32 (with a byte-order mark)")),
    ((b"\xef\xbb\xbf",), _Encoding("utf-8-sig", "UTF-8 (with a byte-order mark)")),
    ((b"\xff\xfe", b"\xfe\xff"), _Encoding("utf-16", "UTF-16 (with a byte-order mark)")),
)
# A file that is UTF-8 but for a few damaged bytes is read as UTF-8 with those bytes replaced;
# beyond this many it is not UTF-8.
MAX_INVALID_UTF8 = 20
# NUL bytes beyond this share of the file mean binary data (or UTF-16); fewer are stripped.
MAX_NUL_SHARE = 0.01
MIN_NUL_ALLOWANCE = 8     # so one stray NUL in a small file is stripped too


def _detect_encoding(data: bytes, filename: str) -> tuple[_Encoding, list[str], bytes]:
    """The encoding, its notes, and the bytes to read (NUL bytes removed when a few stray
    ones were found). Order: byte-order mark; UTF-16 without one (every other byte NUL);
    stray NULs stripped; strict UTF-8; UTF-8 with a few damaged bytes replaced (when the rest
    holds valid multi-byte UTF-8); Windows-1252; a guess; Latin-1."""
    for marks, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(marks):
            if not _decodes(data, encoding.codec):
                raise DataError(
                    f"The file {filename!r} starts with a {encoding.label.split(' (')[0]} byte-order mark but is not "
                    f"valid {encoding.label.split(' (')[0]} (it is cut short or damaged); save it again as UTF-8 "
                    "CSV and upload that."
                )
            return encoding, [], data
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return utf16, [f"Read as {utf16.label}: every other byte of the file is 0, as in UTF-16 text."], data
    notes: list[str] = []
    nul = data.find(b"\x00")
    if nul >= 0:
        count = data.count(b"\x00")
        if count > max(MAX_NUL_SHARE * len(data), MIN_NUL_ALLOWANCE):
            raise DataError(
                f"The file {filename!r} is binary data, not a text table: {count:,} of its {len(data):,} bytes "
                f"are NUL (the first at byte {nul:,}); upload a CSV, TSV or Excel .xlsx file."
            )
        line = data.count(b"\n", 0, nul) + 1
        data = data.replace(b"\x00", b"")
        notes.append(f"Removed {count:,} NUL byte(s) (invisible; the first on line {line:,}), which are not text.")
    if _decodes(data, "utf-8"):
        return _Encoding("utf-8", "UTF-8"), notes, data
    damaged = _damaged_utf8(data)
    if damaged is not None:
        offsets, valid = damaged
        lines = sorted({data.count(b"\n", 0, o) + 1 for o in offsets})
        shown_lines = ", ".join(f"{n:,}" for n in lines[:SHOWN])
        shown_offsets = ", ".join(f"{o:,}" for o in offsets[:SHOWN])
        return _Encoding("utf-8", "UTF-8", errors="replace"), [*notes,
            f"The file is UTF-8 ({valid:,} valid multi-byte characters) except for {len(offsets)} invalid "
            f"byte(s) on line(s) {shown_lines} (byte offset(s) {shown_offsets}); each was replaced by \ufffd. "
            "Fix those bytes in the file if they matter."], data
    if _decodes(data, "cp1252"):
        return _Encoding("cp1252", "Windows-1252"), [*notes,
            "The file is not UTF-8 (its bytes above 127 do not form UTF-8 characters); read it as "
            "Windows-1252 (Western European). Check accented letters in the preview; if they look "
            "wrong, save the file as UTF-8."], data
    guess = _guess_encoding(data)
    if guess is not None:
        return _Encoding(guess, guess), [*notes,
            f"The file is neither UTF-8 nor Windows-1252; read it as {guess} (a guess from its "
            "bytes). Check the text in the preview; if it looks wrong, save the file as UTF-8."], data
    return _Encoding("latin-1", "Latin-1"), [*notes,
        "The file is not valid UTF-8; read it as Latin-1, which accepts any bytes. Check the "
        "text in the preview; if it looks wrong, save the file as UTF-8."], data


def _utf16_without_bom(data: bytes) -> _Encoding | None:
    """UTF-16 text without a byte-order mark: ASCII characters leave a NUL in every other byte."""
    head = data[: 2 * SAMPLE_BYTES // 2 * 2]
    if len(head) < 4:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    half = len(head) // 2
    for zeros, other, codec, label in ((odd, even, "utf-16-le", "UTF-16 little-endian"),
                                       (even, odd, "utf-16-be", "UTF-16 big-endian")):
        if zeros > 0.6 * half and other < 0.05 * half and len(data) % 2 == 0 and _decodes(data, codec):
            return _Encoding(codec, f"{label} (without a byte-order mark)")
    return None


_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")


def _damaged_utf8(data: bytes) -> tuple[list[int], int] | None:
    """The byte offsets of invalid bytes in a file that is otherwise UTF-8, and how many valid
    multi-byte characters it has (the evidence); None if it is not UTF-8 with a few faults."""
    offsets: list[int] = []
    valid = 0
    for run in _NON_ASCII_RUN.finditer(data):
        piece = run.group()
        decoded = piece.decode("utf-8", errors="replace")
        bad = decoded.count("\ufffd") - piece.decode("utf-8", errors="ignore").count("\ufffd")
        valid += len(decoded) - bad
        if bad:
            position = run.start()
            while piece:               # locate each invalid byte within the run
                try:
                    piece.decode("utf-8")
                    break
                except UnicodeDecodeError as err:
                    offsets.append(position + err.start)
                    position += err.end
                    piece = piece[err.end:]
            if len(offsets) > MAX_INVALID_UTF8:
                return None
    return (offsets, valid) if offsets and valid >= 2 * len(offsets) else None


def _decodes(data: bytes, codec: str) -> bool:
    """Strictly decode in chunks, so a large file is never held twice as text."""
    decoder = codecs.getincrementaldecoder(codec)()
    view = memoryview(data)
    try:
        for start in range(0, len(data), DECODE_CHUNK):
            decoder.decode(view[start : start + DECODE_CHUNK])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _guess_encoding(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(data[: 4 * SAMPLE_BYTES]).best()
    if best is None:
        return None
    codec = codecs.lookup(best.encoding).name
    return codec if _decodes(data, codec) else None


def _sample_text(data: bytes, encoding: _Encoding) -> tuple[str, bool]:
    """The first SAMPLE_BYTES decoded, cut after the last complete line; and whether cut."""
    decoder = codecs.getincrementaldecoder(encoding.codec)(errors="replace")  # a sample only
    truncated = len(data) > SAMPLE_BYTES
    text = decoder.decode(data[:SAMPLE_BYTES], final=not truncated)
    if truncated:
        cut = max(text.rfind("\n"), text.rfind("\r"))
        text = text[: cut + 1] if cut > 0 else text
    return text, truncated


def _refuse_binary_text(sample: str, filename: str) -> None:
    controls = len(_BINARY_CHARS.findall(sample))
    if controls > BINARY_CONTROL_SHARE * max(len(sample), 1):
        raise DataError(
            f"The file {filename!r} looks like binary data, not text ({controls} control "
            "characters in its first part); upload a CSV, TSV or Excel .xlsx file."
        )


# ------------------------------------------------------------------------------------------
# delimited text
# ------------------------------------------------------------------------------------------
class _Source:
    """The bytes of a delimited file, re-readable as text or bytes streams."""

    def __init__(self, data: bytes, encoding: _Encoding, delimiter: str) -> None:
        self.data = data
        self.encoding = encoding
        self.delimiter = delimiter

    def text(self) -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BytesIO(self.data), encoding=self.encoding.codec, newline="",
                                errors=self.encoding.errors)

    def reader(self, *, strict: bool = False) -> Any:
        return csv.reader(self.text(), delimiter=self.delimiter, strict=strict)

    def record_start_lines(self) -> np.ndarray | None:
        """Physical line where each csv record starts (records can span lines in quotes);
        None when the file has no quotes, so record k is simply line k + 1."""
        if b'"' not in self.data:
            return None
        reader = self.reader()
        ends = np.fromiter((reader.line_num for _ in reader), dtype=np.int64)
        starts = np.ones_like(ends)
        starts[1:] = ends[:-1] + 1
        return starts


def _detect_delimiter(sample: str, truncated: bool) -> str:
    """The delimiter that splits the sample into the most consistent number of fields."""

    def score(delimiter: str) -> tuple[bool, float, int]:
        reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
        try:
            counts = [len(r) for r in itertools.islice(reader, 200) if r]
        except csv.Error:
            return (False, 0.0, 0)
        if truncated and len(counts) > 2:
            counts = counts[:-1]  # the last record may be cut in half
        if not counts:
            return (False, 0.0, 0)
        mode, freq = max(Counter(counts).items(), key=lambda kv: (kv[1], kv[0]))
        return (mode > 1, freq / len(counts), mode)

    scores = {d: score(d) for d in DELIMITER_NAMES}
    best = max(scores.values())
    tied = [d for d, s in scores.items() if s == best]
    if len(tied) > 1:
        try:
            sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITER_NAMES)).delimiter
        except csv.Error:
            sniffed = None
        if sniffed in tied:
            return sniffed
    return tied[0]


@dataclass
class _Raw:
    """Cells read as text, before names are cleaned and numbers converted."""

    header: list[str]
    frame: pd.DataFrame  # columns 0..w-1, every cell a str ("" for blank)
    rows: _RowNumbers
    notes: list[str]
    delimiter: str | None = None  # None for Excel
    trailing_delimiter: bool = False


class _RowNumbers:
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
        shown = [f"{n:,}" for n in self.numbers(positions[:limit])]
        rest = len(positions) - len(shown)
        word = self.word if len(positions) == 1 else self.word + "s"
        if rest > 0:
            return f"{word} {', '.join(shown)} and {rest:,} more"
        if len(shown) > 1:
            return f"{word} {', '.join(shown[:-1])} and {shown[-1]}"
        return f"{word} {shown[0]}"


def _read_delimited(data: bytes, filename: str, max_rows: int | None) -> Table:
    encoding, notes, data = _detect_encoding(data, filename)
    sample, truncated = _sample_text(data, encoding)
    _refuse_binary_text(sample, filename)
    delimiter = _detect_delimiter(sample, truncated)
    _refuse_wide(sample, delimiter, filename)
    source = _Source(data, encoding, delimiter)
    raw = _read_records(source, filename, max_rows, notes)
    table = _tidy(raw, filename)
    shape = _shape(table.frame)
    how = f"{DELIMITER_NAMES[delimiter]}-separated" if table.frame.shape[1] > 1 else "one column"
    lead = f"Read {filename!r} as {encoding.label} text, {how}{_line_endings(sample)}: {shape}."
    return Table(table.frame, (lead, *table.notes))


def _refuse_wide(sample: str, delimiter: str, filename: str) -> None:
    """Count the header's fields in the sample (a header longer than the sample has more)."""
    end = min((i for i in (sample.find("\n"), sample.find("\r")) if i >= 0), default=len(sample))
    fields = sample.count(delimiter, 0, end) + 1
    if fields > MAX_COLUMNS:
        more = "at least " if end == len(sample) else ""
        raise DataError(
            f"The file {filename!r} has {more}{fields:,} columns; nbapp reads tables of up to {MAX_COLUMNS:,} "
            "columns. Keep the columns you need (or transpose the table so that rows are examples) and "
            "upload again."
        )


def _shape(frame: pd.DataFrame) -> str:
    rows, columns = frame.shape
    return f"{rows:,} row{'s' * (rows != 1)} x {columns} column{'s' * (columns != 1)}"


def _line_endings(sample: str) -> str:
    if "\r" in sample and "\n" not in sample:
        return ", old Mac line endings (CR only)"
    return ""


def _read_records(source: _Source, filename: str, max_rows: int | None, notes: list[str]) -> _Raw:
    counts, more = _count_fields(source, filename, max_rows)
    blank = counts == 0
    if (counts == 1).any():
        blank |= _whitespace_only_records(source, len(counts))
    records = np.flatnonzero(~blank)
    if len(records) == 0:
        raise DataError(f"The file {filename!r} is empty; upload a file with a header row and data rows.")
    header = _first_record(source)
    data_records = records[1:]
    width, trailing = _check_widths(source, filename, header, counts[data_records], data_records)
    if width < len(header):
        notes.append(
            f"The header line ends with a {DELIMITER_NAMES[source.delimiter]} but the data lines "
            "do not; ignored the empty name after it."
        )
    header = (header + [""])[:width]

    starts: list[np.ndarray | None] = []

    def line_numbers() -> np.ndarray:
        if not starts:
            starts.append(source.record_start_lines())
        record_lines = starts[0] if starts[0] is not None else np.arange(1, len(counts) + 1)
        return record_lines[data_records]

    frame = _parse_cells(source, width, max_rows, len(data_records))
    if more:
        notes.append(f"Read only the first {len(frame):,} data rows (max_rows); the file has more.")
    return _Raw(header, frame, _RowNumbers("line", line_numbers), notes, source.delimiter, trailing)


def _count_fields(source: _Source, filename: str, max_rows: int | None) -> tuple[np.ndarray, bool]:
    """Fields per record, counted by the csv module at C speed (blank lines count 0)."""
    reader = source.reader(strict=True)
    try:
        if max_rows is None:
            return np.fromiter(map(len, reader), dtype=np.int64), False
        chunks, nonblank, wanted = [], 0, max_rows + 1
        while nonblank < wanted:
            chunk = np.fromiter(map(len, itertools.islice(reader, wanted - nonblank)), dtype=np.int64)
            if len(chunk) == 0:
                break
            chunks.append(chunk)
            nonblank += int((chunk > 0).sum())
        more = any(len(r) for r in itertools.islice(reader, 1000))
        return np.concatenate(chunks) if chunks else np.zeros(0, np.int64), more
    except csv.Error as exc:
        raise _csv_problem(source, filename, exc, reader.line_num) from None


def _csv_problem(source: _Source, filename: str, exc: csv.Error, line: int) -> DataError:
    message = str(exc)
    if "unexpected end of data" in message:
        opening = int(source.record_start_lines()[-1])
        return DataError(
            f"The file {filename!r} has a quoted value that is never closed: the '\"' on "
            f"line {opening:,} opens a value that runs to the end of the file; close the quote "
            "(or remove it) and upload again."
        )
    if "expected after" in message:
        return DataError(
            f"Line {line:,} of {filename!r} has text right after a closing quote (like "
            '"abc"def); put the whole value inside the quotes and upload again.'
        )
    return DataError(f"Line {line:,} of {filename!r} could not be read as CSV ({message}); fix it and upload again.")


def _whitespace_only_records(source: _Source, n_records: int) -> np.ndarray:
    """Records holding only spaces: pandas skips them as blank lines, so must we."""
    flags = np.zeros(n_records, dtype=bool)
    for i, record in enumerate(itertools.islice(source.reader(), n_records)):
        if len(record) == 1 and not record[0].strip():
            flags[i] = True
    return flags


def _first_record(source: _Source) -> list[str]:
    for record in source.reader():
        if record and (len(record) > 1 or record[0].strip()):
            return [name.strip() for name in record]
    return []


def _check_widths(
    source: _Source, filename: str, header: list[str], counts: np.ndarray, records: np.ndarray
) -> tuple[int, bool]:
    """The number of columns, and whether the data lines have one trailing delimiter more.

    pandas pads short rows with missing values and, when every row has one field more than
    the header, silently turns the first column into the index; both are refused here. A
    delimiter ending only the header (or only the data lines) leaves an empty last column.
    """
    header_width = len(header)
    if len(counts) == 0 or (counts == header_width).all():
        return header_width, False
    if (counts == header_width + 1).all():
        return header_width + 1, True
    if header_width > 1 and not header[-1] and (counts == header_width - 1).all():
        return header_width - 1, False
    bad = np.flatnonzero(counts != header_width)
    starts = source.record_start_lines()
    lines = starts[records[bad]] if starts is not None else records[bad] + 1
    shown = ", ".join(f"line {line:,} has {count}" for line, count in zip(lines[:SHOWN], counts[bad][:SHOWN]))
    more = f" (and {len(bad) - SHOWN:,} more lines)" if len(bad) > SHOWN else ""
    delimiter = DELIMITER_NAMES[source.delimiter]
    raise DataError(
        f"The file {filename!r} has rows with the wrong number of fields: the header has "
        f"{header_width}, but {shown}{more}. Fix those lines (a missing or extra {delimiter}, "
        "or a value containing the delimiter that needs quotes) and upload again."
    )


def _parse_cells(source: _Source, width: int, max_rows: int | None, expected: int) -> pd.DataFrame:
    """Every cell as text with pandas' C parser (fast, memory-lean Arrow-backed strings)."""
    try:
        with warnings.catch_warnings():
            # A header longer than the data (its trailing delimiter) is expected here.
            warnings.simplefilter("ignore", pd.errors.ParserWarning)
            frame = pd.read_csv(
                io.BytesIO(source.data),
                sep=source.delimiter,
                header=0,
                names=list(range(width)),
                index_col=False,
                dtype=str,
                keep_default_na=False,
                na_filter=False,
                encoding=source.encoding.codec,
                encoding_errors=source.encoding.errors,
                engine="c",
                nrows=max_rows,
                skip_blank_lines=True,
            )
    except (pd.errors.ParserError, ValueError):
        frame = None
    if frame is None or len(frame) != expected:
        # The C parser and the csv module disagree on this file (rare quoting corner
        # cases); trust the csv module, whose counts were checked, at Python speed.
        frame = _cells_from_csv(source, width, expected)
    return frame


def _cells_from_csv(source: _Source, width: int, expected: int) -> pd.DataFrame:
    records = (r for r in source.reader() if r and (len(r) > 1 or r[0].strip()))
    next(records, None)  # the header
    rows = [r + [""] * (width - len(r)) for r in itertools.islice(records, expected)]
    return pd.DataFrame(rows, columns=list(range(width)), dtype=str)


# ------------------------------------------------------------------------------------------
# Excel
# ------------------------------------------------------------------------------------------
def _read_workbook(data: bytes, filename: str, max_rows: int | None) -> Table:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise DataError(
            f"The file {filename!r} starts like a ZIP/Excel file but is damaged; re-export it "
            "and upload again."
        ) from None
    names = set(archive.namelist())
    if "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
        raise DataError(_not_a_workbook(archive, names, filename))
    _check_archive(archive, filename, **XLSX_LIMITS)
    notes = []
    if not filename.lower().endswith((".xlsx", ".xlsm")):
        notes.append(
            f"The file {filename!r} is an Excel workbook despite its name; read it as Excel."
        )
    raw = _read_sheet(data, filename, max_rows, notes)
    table = _tidy(raw, filename)
    lead = f"Read {filename!r} as an Excel workbook: {_shape(table.frame)}."
    return Table(table.frame, (lead, *table.notes))


def _not_a_workbook(archive: zipfile.ZipFile, names: set[str], filename: str) -> str:
    if "mimetype" in names and b"opendocument" in archive.read("mimetype")[:100]:
        return (
            f"The file {filename!r} is an OpenDocument file (LibreOffice .ods/.odt); save it "
            "as Excel .xlsx or CSV and upload that."
        )
    if any(n.startswith("word/") for n in names):
        return f"The file {filename!r} is a Word document, not a table; export the table as CSV or .xlsx."
    return (
        f"The file {filename!r} is a ZIP archive, not a table; unzip it and upload the CSV or "
        "Excel file inside (a zip of class folders of .txt files is read as a text corpus)."
    )


def _read_sheet(data: bytes, filename: str, max_rows: int | None, notes: list[str]) -> _Raw:
    try:
        header_row, header, body, more = _sheet_rows(data, filename, max_rows, notes)
    except DataError:
        raise
    except _workbook_errors() as exc:
        raise DataError(
            f"The workbook {filename!r} is damaged (the Excel reader stopped with "
            f"{type(exc).__name__}: {exc}); open it in Excel or LibreOffice, save it again as "
            ".xlsx (or export it as CSV) and upload that."
        ) from exc
    if header_row > 1:
        notes.append(f"The header is on sheet row {header_row}; the empty rows above it were skipped.")
    if more:
        notes.append(f"Read only the first {len(body):,} data rows (max_rows); the sheet has more.")
    width = max([len(header), *map(len, body)])
    cells = pd.DataFrame(body, columns=list(range(width)), dtype=object) if body else pd.DataFrame(
        columns=list(range(width)), dtype=object
    )
    frame = pd.DataFrame({c: cells[c].map(_cell_text).astype(str) for c in cells.columns}, index=cells.index)
    names = [_cell_text(v).strip() for v in header] + [""] * (width - len(header))
    first = header_row + 1
    return _Raw(names, frame, _RowNumbers("row", lambda: np.arange(first, first + len(body))), notes)


def _workbook_errors() -> tuple[type[BaseException], ...]:
    """What openpyxl raises on a damaged .xlsx: a missing part (KeyError), no sheet
    (IndexError), broken XML (ElementTree's ParseError is a SyntaxError), bad values."""
    from openpyxl.utils.exceptions import InvalidFileException

    return (InvalidFileException, zipfile.BadZipFile, LookupError, SyntaxError, ValueError,
            TypeError, AttributeError)


def _sheet_rows(
    data: bytes, filename: str, max_rows: int | None, notes: list[str]
) -> tuple[int, tuple[Any, ...], list[tuple[Any, ...]], bool]:
    """The first sheet's header row number, header cells, data rows and whether more exist.

    openpyxl's read-only mode parses the sheet lazily, so errors of a damaged file surface
    while iterating too; the caller turns them into one DataError.
    """
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        sheet = workbook.worksheets[0]
        if len(workbook.sheetnames) > 1:
            others = ", ".join(repr(s) for s in workbook.sheetnames[1:])
            notes.append(f"Read the first sheet {sheet.title!r}; the workbook also has {others}.")
        rows = sheet.iter_rows(values_only=True)
        header_row = 0
        for header_row, header in enumerate(rows, start=1):
            if any(v is not None and str(v).strip() for v in header):
                break
        else:
            raise DataError(
                f"The workbook {filename!r} has no cells with values in its first sheet; put the "
                "table on the first sheet and upload again."
            )
        body = list(itertools.islice(rows, max_rows))
        more = max_rows is not None and next(rows, None) is not None
    finally:
        workbook.close()
    return header_row, header, body, more


def _cell_text(value: Any) -> str:
    """An Excel cell as the text a CSV export would hold."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if hasattr(value, "isoformat"):
        text = value.isoformat(sep=" ") if hasattr(value, "hour") else value.isoformat()
        return text[:-9] if text.endswith(" 00:00:00") else text
    return str(value)


# ------------------------------------------------------------------------------------------
# tidying: names, empty rows and columns, index columns, numbers
# ------------------------------------------------------------------------------------------
def _tidy(raw: _Raw, filename: str) -> Table:
    notes = list(raw.notes)
    frame = raw.frame
    header = list(raw.header)
    frame, header = _drop_empty_columns(frame, header, raw, notes)
    frame = _drop_empty_rows(frame, raw.rows, notes)
    if len(frame) == 0:
        shown = ", ".join(repr(h) for h in header[:8])
        raise DataError(
            f"The file {filename!r} has a header row ({shown}) but no data rows; upload a file "
            "with at least one row of values under the header."
        )
    frame, header = _drop_index_column(frame, header, notes)
    names = _clean_names(header, notes)
    frame.columns = range(frame.shape[1])
    converter = _NumberReader(frame, raw.rows, raw.delimiter)
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
    empty = [i for i, name in enumerate(header) if not name and _blank(frame[frame.columns[i]]).all()]
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
        shown = ", ".join(str(i + 1) for i in empty[:SHOWN])
        notes.append(f"Dropped {len(empty)} column(s) with neither a name nor any value (position {shown}).")
    keep = [i for i in range(len(header)) if i not in set(empty)]
    return frame.iloc[:, keep].copy(), [header[i] for i in keep]


def _drop_empty_rows(frame: pd.DataFrame, rows: _RowNumbers, notes: list[str]) -> pd.DataFrame:
    if frame.shape[1] == 0:
        return frame.iloc[:0]
    empty = np.ones(len(frame), dtype=bool)
    for column in frame.columns:
        empty &= _blank(frame[column]).to_numpy(dtype=bool)
        if not empty.any():
            return frame
    notes.append(f"Dropped {int(empty.sum()):,} row(s) with every cell empty ({rows.describe(np.flatnonzero(empty))}).")
    keep = np.flatnonzero(~empty)
    rows.keep(keep)
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
    name = repr(header[0]) if header[0] else "with no name"
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
        shown = "; ".join(f"{name!r} (column {i + 1}) -> {new!r}" for i, name, new, _ in renamed[:SHOWN])
        notes.append(f"Duplicate column names renamed: {shown}.")
    for i, name, new, first in alike[:SHOWN]:
        notes.append(f"Column names {first!r} and {name!r} look the same (they differ only in Unicode form, "
                     f"case or spaces); kept both and renamed the second (column {i + 1}) to {new!r}.")
    return names


def _look(name: str) -> str:
    """How a column name looks to a person: NFC, case-folded, trimmed."""
    return unicodedata.normalize("NFC", name).casefold().strip()


class _NumberReader:
    """Turns a text column into numbers when, and only when, every value is a number.

    The decimal mark is chosen per file: a comma when the delimiter is not a comma and the
    values say so ('3,5'), else a point; thousands separators are the other mark. Blank
    cells in text columns become missing; NA tokens in numeric columns become NaN, noted
    with their lines.
    """

    def __init__(self, frame: pd.DataFrame, rows: _RowNumbers, delimiter: str | None) -> None:
        self.frame = frame
        self.rows = rows
        self.stripped = {c: frame[c].str.strip() for c in frame.columns}
        self.decimal_comma = delimiter not in (",", None) and self._file_uses_decimal_comma(delimiter)
        self.decimal_columns: list[str] = []
        self.thousands_columns: list[str] = []

    def _file_uses_decimal_comma(self, delimiter: str) -> bool:
        clearly_comma = False
        for c, values in self.stripped.items():
            present = values[~values.str.lower().isin(NA_TOKENS)]
            if present.empty:
                continue
            comma = present.str.fullmatch(_COMMA_NUMBER.pattern).all()
            dot = present.str.fullmatch(_DOT_NUMBER.pattern).all()
            if comma and not dot:
                clearly_comma = True
            elif dot and not comma:
                return False  # a point decimal elsewhere in the file: stay with points
        return clearly_comma or delimiter == ";"

    def convert(self, position: int, name: str, notes: list[str]) -> pd.Series:
        raw = self.frame[position]
        values = self.stripped[position]
        lower = values.str.lower()
        missing = lower.isin(NA_TOKENS).to_numpy(dtype=bool)
        infinite = lower.isin(INF_TOKENS).to_numpy(dtype=bool)
        present = values[~missing & ~infinite] if (missing | infinite).any() else values
        if present.empty and not infinite.any():
            notes.append(f"Column {name!r} is empty: every cell is blank or a missing-value token.")
            return pd.Series(np.nan, index=raw.index, dtype="float64")
        numeric = present.str.fullmatch(self._number_pattern()).to_numpy(dtype=bool)
        if not numeric.all():
            return self._text(raw, values, present, numeric, name, notes)
        reason = self._kept_as_text(present)
        if reason:
            notes.append(f"Column {name!r} kept as text: {reason}.")
            return self._text_column(raw, values, name, notes)
        return self._numbers(values, missing, infinite, name, notes)

    def _number_pattern(self) -> str:
        return (_COMMA_NUMBER if self.decimal_comma else _DOT_NUMBER).pattern

    @staticmethod
    def _kept_as_text(present: pd.Series) -> str:
        """Numbers that are really codes: leading zeros, or more digits than a float holds."""
        zero = present.str.match(_LEADING_ZERO).to_numpy(dtype=bool)
        if zero.any():
            return f"values like {present[zero].iloc[0]!r} have leading zeros (an ID or code)"
        long = (present.str.len() > MAX_EXACT_DIGITS).to_numpy(dtype=bool)
        if long.any() and present[long].str.fullmatch(_INTEGER).any():
            return (
                f"integers with more than {MAX_EXACT_DIGITS} digits cannot be held exactly as "
                "numbers (an ID?)"
            )
        return ""

    def _numbers(
        self, values: pd.Series, missing: np.ndarray, infinite: np.ndarray, name: str, notes: list[str]
    ) -> pd.Series:
        cleaned = values.where(~(missing | infinite), None) if (missing | infinite).any() else values
        cleaned = self._plain_decimals(cleaned, name)
        self._note_missing(values, missing, name, notes)
        if not (missing | infinite).any():
            whole = _as_integers(cleaned)
            if whole is not None:
                return whole
        result = _as_floats(cleaned)
        bad = infinite | np.isinf(result.to_numpy())
        if bad.any():
            examples = ", ".join(repr(v) for v in values[bad].unique()[:3])
            notes.append(
                f"Column {name!r}: {int(bad.sum()):,} infinite value(s) ({examples}; "
                f"{self.rows.describe(np.flatnonzero(bad))}) read as missing; a likelihood cannot use infinity."
            )
            result[bad] = np.nan
        huge = np.abs(result.to_numpy()) > VARIANCE_OVERFLOW
        if huge.any():
            notes.append(
                f"Column {name!r} holds values beyond 1e154 in size ({self.rows.describe(np.flatnonzero(huge))}); "
                "their squares overflow, so rescale the column before using it as Gaussian."
            )
        return result

    def _plain_decimals(self, cleaned: pd.Series, name: str) -> pd.Series:
        """Decimal point, no thousands separators, as a float parser reads them."""
        if self.decimal_comma:
            has_comma = bool(cleaned.str.contains(",", regex=False).any())
            has_dot = bool(cleaned.str.contains(".", regex=False).any())
            if has_comma:
                self.decimal_columns.append(name)
            if has_dot:
                self.thousands_columns.append(name)
                cleaned = cleaned.str.replace(".", "", regex=False)
            return cleaned.str.replace(",", ".", regex=False) if has_comma else cleaned
        if cleaned.str.contains(",", regex=False).any():
            self.thousands_columns.append(name)
            return cleaned.str.replace(",", "", regex=False)
        return cleaned

    def _note_missing(self, values: pd.Series, missing: np.ndarray, name: str, notes: list[str]) -> None:
        if not missing.any():
            return
        tokens = values[missing].value_counts()
        shown = ", ".join(f"{t!r} x{n:,}" if t else f"blank x{n:,}" for t, n in tokens.items())
        notes.append(
            f"Column {name!r}: {int(missing.sum()):,} cell(s) read as missing ({shown}; "
            f"{self.rows.describe(np.flatnonzero(missing))})."
        )

    def _text(
        self, raw: pd.Series, values: pd.Series, present: pd.Series, numeric: np.ndarray, name: str, notes: list[str]
    ) -> pd.Series:
        if numeric.mean() >= 0.5:
            positions = np.flatnonzero(values.index.isin(present.index[~numeric]))
            examples = ", ".join(repr(v) for v in present[~numeric].unique()[:3])
            notes.append(
                f"Column {name!r} mixes numbers with text ({examples} on "
                f"{self.rows.describe(positions)}); kept as text. Blank those cells to use it as numbers."
            )
        lower = present.str.lower()
        distinct = set(lower.unique()[:3])
        if len(distinct) == 2 and distinct <= BOOLEAN_WORDS:
            shown = " / ".join(repr(v) for v in present.unique()[:4])
            notes.append(f"Column {name!r} looks yes/no ({shown}); kept as its text values.")
        tokens = values[values.str.lower().isin(NA_TOKENS - TEXT_NA_TOKENS)]
        if not tokens.empty:
            shown = ", ".join(repr(v) for v in tokens.unique()[:3])
            notes.append(
                f"Column {name!r} is text and holds {shown} in {len(tokens):,} cell(s); kept as a "
                "value of its own. Blank those cells if they mean missing."
            )
        return self._text_column(raw, values, name, notes)

    def _text_column(self, raw: pd.Series, values: pd.Series, name: str, notes: list[str]) -> pd.Series:
        missing = values.str.lower().isin(TEXT_NA_TOKENS).to_numpy(dtype=bool)
        self._note_missing(values, missing, name, notes)
        return raw.where(~missing, None)

    def summary(self) -> list[str]:
        notes = []
        if self.decimal_columns:
            notes.append(
                "Decimal commas read as decimal points in " + _names(self.decimal_columns) + " ('3,5' -> 3.5)."
            )
        if self.thousands_columns:
            mark = "." if self.decimal_comma else ","
            notes.append(f"Thousands separators ({mark!r}) removed in {_names(self.thousands_columns)}.")
        return notes


def _as_integers(cleaned: pd.Series) -> pd.Series | None:
    """int64 when every value is a whole number written without a decimal point."""
    try:
        return _cast(cleaned, "int64")
    except (ValueError, TypeError, OverflowError, ArithmeticError):
        return None


def _as_floats(cleaned: pd.Series) -> pd.Series:
    try:
        return _cast(cleaned, "float64")  # "1e309" -> inf, reported by the caller
    except (ValueError, TypeError, ArithmeticError):
        return pd.to_numeric(cleaned.astype(object)).astype("float64")


def _cast(cleaned: pd.Series, dtype: str) -> pd.Series:
    """Arrow's number parser when the strings are Arrow-backed (several times faster than
    going through Python objects), else pandas'. Missing values become NaN."""
    if not hasattr(cleaned.array, "__arrow_array__"):
        return cleaned.astype(dtype)
    import pyarrow as pa
    import pyarrow.compute as pc

    parsed = pc.cast(pa.array(cleaned.array), getattr(pa, dtype)())
    return pd.Series(parsed.to_numpy(zero_copy_only=False), index=cleaned.index)


def _names(columns: list[str]) -> str:
    shown = ", ".join(repr(c) for c in columns[:SHOWN])
    more = f" and {len(columns) - SHOWN} more" if len(columns) > SHOWN else ""
    word = "column" if len(columns) == 1 else "columns"
    return f"{word} {shown}{more}"


# ------------------------------------------------------------------------------------------
# text corpora
# ------------------------------------------------------------------------------------------
TEXT_NAMES = ("text", "message", "msg", "sms", "review", "document", "doc", "content", "body",
              "sentence", "comment", "tweet", "email", "description", "title")
LABEL_NAMES = ("label", "class", "category", "target", "y", "sentiment", "tag", "topic", "spam", "labels")
# A text column's values average at least this many characters; a label column has few values.
MIN_TEXT_LENGTH = 20
MAX_LABELS = 100
MAX_LABEL_LENGTH = 40
NESTED_ARCHIVES = (".zip", ".gz", ".tgz", ".tar", ".7z", ".rar", ".bz2", ".xz", ".jar")
ARCHIVE_MAGIC = (*_ZIP_MAGIC, b"\x1f\x8b", b"7z\xbc\xaf\x27\x1c", b"Rar!", b"BZh", b"\xfd7zXZ")


def _load_corpus(data: bytes, filename: str, limits: dict[str, Any]) -> Table:
    _refuse_empty(data, filename)
    if data.startswith(_ZIP_MAGIC):
        if _is_workbook(data):
            return _corpus_from_table(load_table(data, filename), filename)
        return _finish_corpus(*_read_zip_corpus(data, filename, **limits))
    _refuse_known_binary(data, filename)
    if not filename.lower().endswith((".csv", ".xlsx")):
        lines = _try_label_lines(data, filename)
        if lines is not None:
            return _finish_corpus(*lines)
    return _corpus_from_table(load_table(data, filename), filename)


def _is_workbook(data: bytes) -> bool:
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return False
    return "[Content_Types].xml" in names


def _try_label_lines(data: bytes, filename: str) -> tuple[pd.DataFrame, list[str], _RowNumbers] | None:
    """A `label<TAB>text` file, one document per line, no quoting (text may hold quotes).

    Returns None when the first fields do not look like labels (then it is read as a table).
    """
    encoding, notes, data = _detect_encoding(data, filename)
    text = data.decode(encoding.codec, errors=encoding.errors)
    _refuse_binary_text(text[:SAMPLE_BYTES], filename)
    lines = pd.Series(re.split(r"\r\n|\r|\n", text), dtype=str)
    del text
    line_numbers = np.arange(1, len(lines) + 1)
    keep = (lines.str.strip() != "").to_numpy()
    lines, line_numbers = lines[keep], line_numbers[keep]
    has_tab = lines.str.contains("\t", regex=False).to_numpy()
    if len(lines) == 0 or has_tab.mean() < 0.5:
        return None
    parts = lines.str.split("\t", n=1, expand=True)
    labels = parts[0].str.strip()
    header = _is_header(labels.iloc[0], parts[1].iloc[0])
    if not header and not _label_like(labels.iloc[1:] if len(labels) > 1 else labels):
        return None
    if not has_tab.all():
        bad = line_numbers[~has_tab]
        shown = ", ".join(f"{n:,}" for n in bad[:SHOWN])
        raise DataError(
            f"The file {filename!r} looks like label<TAB>text lines, but line(s) {shown} have no "
            "tab; put a tab between the label and the text on every line and upload again."
        )
    frame = pd.DataFrame({"text": parts[1].fillna(""), "label": labels}).reset_index(drop=True)
    if header:
        notes.append(f"The first line ({labels.iloc[0]!r}, {parts[1].iloc[0]!r}) is a header; skipped it.")
        frame, line_numbers = frame.iloc[1:].reset_index(drop=True), line_numbers[1:]
    if len(frame) == 0:
        raise DataError(
            f"The file {filename!r} holds only the header line ({labels.iloc[0]!r}, "
            f"{parts[1].iloc[0]!r}) and no documents; add one label<TAB>text line per document "
            "and upload again."
        )
    lead = f"Read {filename!r} as {encoding.label} label<TAB>text lines: {len(frame):,} documents."
    rows = _RowNumbers("line", lambda: line_numbers)
    return frame, [lead, *notes], rows


def _label_like(labels: pd.Series) -> bool:
    """Short values, few of them (a small file may have as many labels as lines)."""
    distinct = labels.nunique()
    short = bool((labels.str.len() <= MAX_LABEL_LENGTH).all())
    return short and distinct <= MAX_LABELS and (len(labels) < 10 or distinct <= len(labels) / 2)


def _is_header(label: str, text: str) -> bool:
    return label.strip().lower() in LABEL_NAMES and str(text).strip().lower() in TEXT_NAMES


def _corpus_from_table(table: Table, filename: str) -> Table:
    frame = table.frame
    text_column, label_column, how = _pick_text_and_label(frame, filename)
    notes = list(table.notes)
    ignored = [c for c in frame.columns if c not in (text_column, label_column)]
    note = f"Used column {text_column!r} as the text and {label_column!r} as the label ({how})"
    notes.append(note + (f"; ignored {_names(ignored)}." if ignored else "."))
    corpus = pd.DataFrame({"text": frame[text_column], "label": frame[label_column]})
    rows = _RowNumbers("row", lambda: np.arange(1, len(corpus) + 1))
    return _finish_corpus(corpus, notes, rows)


def _pick_text_and_label(frame: pd.DataFrame, filename: str) -> tuple[str, str, str]:
    """The text column is the one with long strings; the label has few distinct values.

    Columns literally named like text/label (or message/category ...) win when the shape of
    the values does not decide.
    """
    lower = {str(c).strip().lower(): c for c in frame.columns}
    named_text = next((lower[n] for n in TEXT_NAMES if n in lower), None)
    named_label = next((lower[n] for n in LABEL_NAMES if n in lower), None)
    if named_text is not None and named_label is not None and named_text != named_label:
        return named_text, named_label, "by their names"
    lengths = {c: _mean_length(frame[c]) for c in frame.columns}
    texts = [c for c, n in lengths.items() if n >= MIN_TEXT_LENGTH]
    if named_text is not None and named_text not in texts:
        texts.append(named_text)
    distinct = {c: frame[c].nunique() for c in frame.columns}
    limit = min(MAX_LABELS, max(2, len(frame) // 2))
    labels = [c for c in frame.columns if c not in texts and 2 <= distinct[c] <= limit]
    if len(texts) == 1 and named_label is not None and named_label != texts[0]:
        return texts[0], named_label, "long strings; label by its name"
    if len(texts) == 1 and len(labels) == 1:
        return texts[0], labels[0], "long strings; few distinct values"
    if len(texts) == 1 and len(labels) > 1:
        fewest = min(labels, key=lambda c: (distinct[c], list(frame.columns).index(c)))
        if [distinct[c] for c in labels].count(distinct[fewest]) == 1:
            return texts[0], fewest, "long strings; fewest distinct values"
    shown = ", ".join(repr(c) for c in frame.columns[:10])
    raise DataError(
        f"Could not tell which column of {filename!r} holds the text and which the label "
        f"(columns: {shown}); rename the text column to 'text' and the label column to "
        "'label' and upload again."
    )


def _mean_length(column: pd.Series) -> float:
    if not (pd.api.types.is_string_dtype(column) or column.dtype == object):
        return 0.0
    lengths = column.dropna().astype(str).str.len()
    return float(lengths.mean()) if len(lengths) else 0.0


def _finish_corpus(frame: pd.DataFrame, notes: list[str], rows: _RowNumbers) -> Table:
    """NFC-normalise, count empty documents and missing labels; keep every row."""
    notes = list(notes)
    text = frame["text"].astype(object).where(frame["text"].notna(), "").astype(str)
    normalised = text.str.normalize("NFC")
    changed = int((normalised != text).sum())
    label = frame["label"]
    if pd.api.types.is_string_dtype(label) or label.dtype == object:
        label = label.astype("str").str.normalize("NFC").where(label.notna(), None)
        label = label.where(label.str.strip() != "", None)
    if changed:
        notes.append(
            f"Normalised the Unicode of {changed:,} document(s) to NFC (composed accents), so "
            "the same word is always spelled with the same characters."
        )
    empty = (normalised.str.strip() == "").to_numpy()
    if empty.any():
        notes.append(
            f"{int(empty.sum()):,} document(s) are empty or missing ({rows.describe(np.flatnonzero(empty))}); "
            "they carry no words."
        )
    no_label = label.isna().to_numpy()
    if no_label.any():
        notes.append(
            f"{int(no_label.sum()):,} document(s) have no label ({rows.describe(np.flatnonzero(no_label))}); "
            "choosing the label as target drops them."
        )
    corpus = pd.DataFrame({"text": normalised.astype(str), "label": label}).reset_index(drop=True)
    return Table(corpus, tuple(notes))


# --- zip of class folders -----------------------------------------------------------------
def _check_archive(
    archive: zipfile.ZipFile, filename: str, *, max_entries: int, max_total_bytes: int, max_ratio: float
) -> None:
    """Refuse zip bombs before decompressing a byte: entry count, unpacked size, ratio."""
    infos = archive.infolist()
    if len(infos) > max_entries:
        raise DataError(
            f"The archive {filename!r} has {len(infos):,} entries, more than the {max_entries:,} "
            "allowed; upload fewer files (for example a sample per class)."
        )
    total = sum(i.file_size for i in infos)
    if total > max_total_bytes:
        raise DataError(
            f"The archive {filename!r} would unpack to {total / 2**20:,.0f} MiB, more than the "
            f"{max_total_bytes / 2**20:,.0f} MiB allowed; upload a smaller archive."
        )
    for info in infos:
        if info.file_size > RATIO_CHECK_FLOOR and info.file_size > max_ratio * max(info.compress_size, 1):
            ratio = info.file_size / max(info.compress_size, 1)
            raise DataError(
                f"The archive {filename!r} holds {info.filename!r}, which expands {ratio:,.0f}-fold "
                f"(more than {max_ratio:,.0f}); that is how zip bombs look, so it was not unpacked."
            )


def _read_zip_corpus(
    data: bytes, filename: str, *, max_entries: int, max_total_bytes: int, max_ratio: float
) -> tuple[pd.DataFrame, list[str], _RowNumbers]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise DataError(f"The file {filename!r} is not a readable ZIP archive; re-create it and upload again.") from None
    _check_archive(archive, filename, max_entries=max_entries, max_total_bytes=max_total_bytes, max_ratio=max_ratio)
    members, notes = _corpus_members(archive, filename)
    if not members:
        raise DataError(
            f"The archive {filename!r} holds no .txt files in class folders; put one folder per "
            "class (e.g. spam/, ham/) with one .txt file per document, and zip that."
        )
    labels, paths, notes2 = _class_folders(members, filename)
    notes.extend(notes2)
    texts, decode_notes = _read_members(archive, members, filename)
    notes.extend(decode_notes)
    frame = pd.DataFrame({"text": texts, "label": labels})
    counts = frame["label"].value_counts().sort_index()
    per_class = ", ".join(f"{label!r}: {n:,}" for label, n in counts.items())
    lead = f"Read {filename!r} as a zip of class folders: {len(frame):,} documents ({per_class})."
    paths_array = np.array(paths, dtype=object)
    rows = _FileNames(paths_array)
    return frame, [lead, *notes], rows


class _FileNames(_RowNumbers):
    """Row positions described by the member file names of a zip corpus."""

    def __init__(self, paths: np.ndarray) -> None:
        super().__init__("file", lambda: paths)

    def describe(self, positions: np.ndarray, limit: int = SHOWN) -> str:
        positions = np.asarray(positions)
        shown = ", ".join(repr(p) for p in self.numbers(positions[:limit]))
        rest = len(positions) - min(len(positions), limit)
        return shown + (f" and {rest:,} more" if rest > 0 else "")


def _unsafe_name(name: str) -> bool:
    path = name.replace("\\", "/")
    return (
        path.startswith("/")
        or re.match(r"^[A-Za-z]:", path) is not None
        or ".." in PurePosixPath(path).parts
        or "\x00" in path
    )


def _corpus_members(archive: zipfile.ZipFile, filename: str) -> tuple[list[zipfile.ZipInfo], list[str]]:
    """The .txt members, after refusing unsafe names and nested archives, skipping junk."""
    members, junk, other = [], [], []
    for info in archive.infolist():
        name = info.filename
        if _unsafe_name(name):
            raise DataError(
                f"The archive {filename!r} contains the unsafe path {name!r} (absolute or with "
                "'..'); re-create the zip from the class folders themselves and upload again."
            )
        if info.is_dir():
            continue
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if parts[0] == "__MACOSX" or any(p.startswith(".") for p in parts):
            junk.append(name)
            continue
        if name.lower().endswith(NESTED_ARCHIVES):
            raise DataError(
                f"The archive {filename!r} contains another archive {name!r}; nested archives are "
                "not opened, so unzip it and zip the class folders of .txt files directly."
            )
        if info.flag_bits & 0x1:
            raise DataError(f"The archive {filename!r} is password-protected ({name!r}); upload an unencrypted zip.")
        if PurePosixPath(name).suffix.lower() not in (".txt", ""):
            other.append(name)
            continue
        members.append(info)
    notes = []
    if junk:
        notes.append(f"Skipped {len(junk):,} macOS / hidden file(s) such as {junk[0]!r} (__MACOSX, dotfiles).")
    if other:
        shown = ", ".join(repr(n) for n in other[:3])
        notes.append(f"Skipped {len(other):,} file(s) that are not .txt, such as {shown}.")
    members.sort(key=lambda i: i.filename)
    return members, notes


def _class_folders(members: list[zipfile.ZipInfo], filename: str) -> tuple[list[str], list[str], list[str]]:
    """The class of a file is its folder under the common top folder (if all share one)."""
    dirs = [PurePosixPath(m.filename.replace("\\", "/")).parts[:-1] for m in members]
    depth = 0
    while all(len(d) > depth + 1 for d in dirs) and len({d[depth] for d in dirs}) == 1:
        depth += 1
    in_class = [len(d) > depth for d in dirs]
    if not any(in_class):
        raise DataError(
            f"The archive {filename!r} has no class folders (its files, such as "
            f"{members[0].filename!r}, sit at the top); put the .txt files of each class in a "
            "folder named after the class and zip those folders."
        )
    notes = []
    at_root = [m.filename for m, inside in zip(members, in_class) if not inside]
    if at_root:
        notes.append(
            f"Skipped {len(at_root):,} file(s) outside any class folder, such as {at_root[0]!r}."
        )
    if any(len(d) > depth + 1 for d in dirs):
        notes.append("Some class folders have subfolders; their files count for the class folder above them.")
    members[:] = [m for m, inside in zip(members, in_class) if inside]
    labels = [unicodedata.normalize("NFC", d[depth]) for d, inside in zip(dirs, in_class) if inside]
    return labels, [m.filename for m in members], notes


def _read_members(
    archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], filename: str
) -> tuple[list[str], list[str]]:
    texts, fallback = [], []
    for info in members:
        with archive.open(info) as handle:
            raw = handle.read(info.file_size + 1)
        if len(raw) > info.file_size:
            raise DataError(f"The archive {filename!r} is damaged: {info.filename!r} is larger than it declares.")
        codec = _bom_codec(raw)
        # UTF-16/32 text is full of NUL bytes, so only a file without a byte-order mark is
        # judged binary by them.
        if raw.startswith(ARCHIVE_MAGIC) or (codec is None and b"\x00" in raw[:SAMPLE_BYTES]):
            raise DataError(
                f"The archive {filename!r} holds {info.filename!r}, which is binary data or another "
                "archive, not text; keep only .txt documents in the class folders."
            )
        texts.append(_member_text(raw, codec, info.filename, fallback))
    notes = []
    if fallback:
        notes.append(
            f"{len(fallback):,} file(s) are not UTF-8 (such as {fallback[0]!r}); read them as Windows-1252."
        )
    return texts, notes


# UTF-32 first: its little-endian mark begins with UTF-16's.
_TEXT_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def _bom_codec(raw: bytes) -> str | None:
    """The codec a UTF-16 / UTF-32 byte-order mark announces (it also strips the mark)."""
    return next((codec for bom, codec in _TEXT_BOMS if raw.startswith(bom)), None)


def _member_text(raw: bytes, codec: str | None, name: str, fallback: list[str]) -> str:
    if codec is not None:
        return raw.decode(codec, errors="replace")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        fallback.append(name)
        return raw.decode("cp1252", errors="replace")
