"""What a file is before it is read: empty, a known binary format, its text encoding (BOMs, UTF-16 without a BOM, stray NUL bytes, UTF-8 with a few damaged bytes, Windows-1252 on its evidence) and whether its text looks binary."""

from __future__ import annotations

import codecs
import re
import zipfile
from dataclasses import dataclass

from nbapp.errors import DataError
from nbapp.io._common import (
    BINARY_CONTROL_SHARE,
    DECODE_CHUNK,
    RATIO_CHECK_FLOOR,
    SAMPLE_BYTES,
    SHOWN,
    _BINARY_CHARS,
    _MAGIC,
)


# Any byte that is not white space, a byte-order mark's or NUL (a search that stops at the
# first such byte: stripping a large file would copy it).
CONTENT_BYTE = re.compile(rb"[^ \t\r\n\xef\xbb\xbf\xff\xfe\x00]")


def _refuse_empty(data: bytes, filename: str) -> None:
    if not CONTENT_BYTE.search(data):
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
    if data.isascii() or _decodes(data, "utf-8"):      # ASCII is UTF-8, and checked at memory speed
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
    """The first SAMPLE_BYTES decoded, cut after the last complete line; and whether cut.

    Not cut when only blank lines would be left: the sample then ends in the first part of a
    long header, which still shows its delimiter."""
    decoder = codecs.getincrementaldecoder(encoding.codec)(errors="replace")  # a sample only
    truncated = len(data) > SAMPLE_BYTES
    text = decoder.decode(data[:SAMPLE_BYTES], final=not truncated)
    if truncated:
        cut = max(text.rfind("\n"), text.rfind("\r"))
        text = text[: cut + 1] if cut > 0 and text[:cut].strip() else text
    return text, truncated


def _refuse_binary_text(sample: str, filename: str) -> None:
    controls = len(_BINARY_CHARS.findall(sample))
    if controls > BINARY_CONTROL_SHARE * max(len(sample), 1):
        raise DataError(
            f"The file {filename!r} looks like binary data, not text ({controls} control "
            "characters in its first part); upload a CSV, TSV or Excel .xlsx file."
        )


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
