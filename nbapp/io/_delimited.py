"""Delimited text (CSV, TSV, semicolon, pipe): the delimiter, the records and their line numbers, the cells."""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from nbapp._number_rule import DOT, NumberForm
from nbapp.errors import DataError
from nbapp.io._numbers import file_form
from nbapp.io._fast import fast_path_applies, read_fast
from nbapp.io._common import (DELIMITER_NAMES, MAX_COLUMNS, SAMPLE_BYTES, SHOWN, TEXT_DTYPE, Table, _Raw, RowNumbers,
                              _clipped, _shape)
from nbapp.io._sniffing import _Encoding, _detect_encoding, _refuse_binary_text, _sample_text
from nbapp.io._tidy import _tidy


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
        if _quote_is_its_byte(self.encoding.codec) and b'"' not in self.data:
            return None
        reader = self.reader()
        ends = np.fromiter((reader.line_num for _ in reader), dtype=np.int64)
        starts = np.ones_like(ends)
        starts[1:] = ends[:-1] + 1
        return starts


def _quote_is_its_byte(codec: str) -> bool:
    """Whether the quote character is written as the byte '"' in this encoding, so that a file
    without that byte has no quotes (not so in UTF-16 or EBCDIC, where 0x7F is the quote)."""
    return codec == "utf-8-sig" or '"'.encode(codec) == b'"'


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
    # The Sniffer answers only with a delimiter it sees in the sample, and takes seconds on a
    # sample of one long column: ask it only when a tied delimiter is there to be seen.
    if len(tied) > 1 and any(d in sample for d in tied):
        try:
            sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITER_NAMES)).delimiter
        except csv.Error:
            sniffed = None
        if sniffed in tied:
            return sniffed
    return tied[0]


def _read_delimited(data: bytes, filename: str, max_rows: int | None, *, fast: bool = True,
                    form: NumberForm | None = None) -> Table:
    """``fast=False`` forces the careful path (the tests compare both paths); ``form``: the
    numbers' form decided on more of the file than ``data`` (:func:`file_numbers`)."""
    encoding, notes, data = _detect_encoding(data, filename)
    sample, truncated = _sample_text(data, encoding)
    _refuse_binary_text(sample, filename)
    delimiter = _detect_delimiter(sample, truncated)
    _refuse_wide(data, encoding, delimiter, filename)
    source = _Source(data, encoding, delimiter)
    quick = read_fast(source, filename, _first_record(source), notes, lambda: _data_record_lines(source, filename)) \
        if fast and form is None and fast_path_applies(source, max_rows) else None
    if quick is not None:
        table = Table(*quick)
    else:
        table = _tidy(_read_records(source, filename, max_rows, notes), filename, form)
    shape = _shape(table.frame)
    how = f"{DELIMITER_NAMES[delimiter]}-separated" if table.frame.shape[1] > 1 else "one column"
    lead = f"Read {filename!r} as {encoding.label} text, {how}{_line_endings(sample)}: {shape}."
    return Table(table.frame, (lead, *table.notes))


@dataclass(frozen=True)
class FileNumbers:
    """How load_table reads the numbers of a delimited file (:func:`file_numbers`)."""

    delimiter: str
    form: NumberForm
    evidence: dict[str, str]    # what each column (stripped header name) said: nbapp.io._numbers.column_evidence


def file_numbers(data: bytes, filename: str) -> FileNumbers:
    """The delimiter and number form load_table decides for the delimited file ``data`` (the
    whole file, or the head of one: then what load_table would decide on those rows), with
    what each column's cells said of it. Cells are read as load_table's careful path
    reads them; a comma-separated file is DOT without reading a cell."""
    encoding, _, data = _detect_encoding(data, filename)
    sample, truncated = _sample_text(data, encoding)
    delimiter = _detect_delimiter(sample, truncated)
    if delimiter == ",":
        return FileNumbers(delimiter, DOT, {})
    raw = _read_records(_Source(data, encoding, delimiter), filename, None, [])
    stripped = [raw.frame[c].str.strip() for c in raw.frame.columns]
    form, evidence = file_form(stripped, delimiter, every_column=True)
    header = [*raw.header, *[""] * len(stripped)]
    return FileNumbers(delimiter, form, dict(zip(header, evidence)))


def _refuse_wide(data: bytes, encoding: _Encoding, delimiter: str, filename: str) -> None:
    """Refuse a header of more than MAX_COLUMNS fields before any per-column work.

    The header is the first record that is not blank (as :func:`_first_record` finds it), its
    fields counted by the csv module, quotes and all: blank lines, a line of spaces or a quoted
    line break in a name come first in files that are otherwise ordinary. The head of the file
    read for this grows (64 KiB, then doubling) only while the header has not ended and has
    fewer fields than the limit, so a header that is wide is refused after reading about
    MAX_COLUMNS fields of it.
    """
    size = SAMPLE_BYTES
    while True:
        head = data[:size]
        whole = len(head) == len(data)
        fields, ended = _header_fields(_decode_head(head, encoding, whole), delimiter, whole)
        if fields > MAX_COLUMNS:
            raise _too_wide(filename, fields, exact=ended)
        if ended:
            return
        size *= 2


def _decode_head(head: bytes, encoding: _Encoding, whole: bool) -> str:
    decoder = codecs.getincrementaldecoder(encoding.codec)(errors="replace")
    return decoder.decode(head, final=whole)


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _header_fields(text: str, delimiter: str, whole: bool) -> tuple[int, bool]:
    """Fields of the first non-blank record of ``text``, and whether that record has ended
    within it (its end is certain when another record follows, or ``text`` is the whole file)."""
    # The lines as csv reads them with newline="" (ended by \r\n, \r or \n), one at a time:
    # io.StringIO would hold the whole head as 4 bytes a character (a 50 MB line: 200 MB).
    records = csv.reader((m.group() for m in _LINES.finditer(text)), delimiter=delimiter)
    try:
        for record in records:
            if record and (len(record) > 1 or record[0].strip()):
                return len(record), whole or next(records, None) is not None
    except csv.Error:       # a file the record counting refuses later with its line number
        return 0, True
    return 0, whole


def _too_wide(filename: str, fields: int, *, exact: bool) -> DataError:
    more = "" if exact else "at least "
    return DataError(
        f"The file {filename!r} has {more}{fields:,} columns; nbapp reads tables of up to {MAX_COLUMNS:,} "
        "columns. Keep the columns you need (or transpose the table so that rows are examples) and "
        "upload again."
    )


def _line_endings(sample: str) -> str:
    if "\r" in sample and "\n" not in sample:
        return ", old Mac line endings (CR only)"
    return ""


def _records(source: _Source, filename: str, max_rows: int | None) -> tuple[np.ndarray, bool, np.ndarray]:
    """Fields per record, whether max_rows left rows unread, and which records hold data (the
    records after the header that are not blank or only spaces)."""
    counts, more = _count_fields(source, filename, max_rows)
    blank = counts == 0
    if (counts == 1).any():
        blank |= _whitespace_only_records(source, len(counts))
    records = np.flatnonzero(~blank)
    if len(records) == 0:
        raise DataError(f"The file {filename!r} is empty; upload a file with a header row and data rows.")
    return counts, more, records[1:]


def _data_record_lines(source: _Source, filename: str) -> np.ndarray:
    """The line where each data record starts, as the notes number them."""
    counts, _, data_records = _records(source, filename, None)
    starts = source.record_start_lines()
    return (starts if starts is not None else np.arange(1, len(counts) + 1))[data_records]


def _read_records(source: _Source, filename: str, max_rows: int | None, notes: list[str]) -> _Raw:
    counts, more, data_records = _records(source, filename, max_rows)
    header = _first_record(source)
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
    return _Raw(header, frame, RowNumbers("line", line_numbers), notes, source.delimiter, trailing)


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
    return DataError(f"Line {line:,} of {filename!r} could not be read as CSV ({_clipped(message)}); fix it and upload again.")


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
                dtype=TEXT_DTYPE,
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
    return pd.DataFrame(rows, columns=list(range(width)), dtype=TEXT_DTYPE)
