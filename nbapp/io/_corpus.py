"""Text corpora: a label-and-text table, label<TAB>text lines, or a zip of class folders of .txt files."""

from __future__ import annotations

import io
import re
import unicodedata
import zipfile
from pathlib import PurePosixPath
from typing import Any, Callable

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.io._common import TEXT_DTYPE, ZIP_ERRORS, SAMPLE_BYTES, SHOWN, Table, RowNumbers, _ZIP_MAGIC, _clipped, _names, _quoted
from nbapp.io._sniffing import (
    _check_archive,
    _detect_encoding,
    _refuse_binary_text,
    _refuse_empty,
    _refuse_known_binary,
)


TEXT_NAMES = ("text", "message", "msg", "sms", "review", "document", "doc", "content", "body",
              "sentence", "comment", "tweet", "email", "description", "title")


LABEL_NAMES = ("label", "class", "category", "target", "y", "sentiment", "tag", "topic", "spam", "labels")


# A text column's values average at least this many characters; a label column has few values.
MIN_TEXT_LENGTH = 20


MAX_LABELS = 100


MAX_LABEL_LENGTH = 40


NESTED_ARCHIVES = (".zip", ".gz", ".tgz", ".tar", ".7z", ".rar", ".bz2", ".xz", ".jar")


ARCHIVE_MAGIC = (*_ZIP_MAGIC, b"\x1f\x8b", b"7z\xbc\xaf\x27\x1c", b"Rar!", b"BZh", b"\xfd7zXZ")


def _load_corpus(data: bytes, filename: str, limits: dict[str, Any],
                 read_table: Callable[[bytes, str, Any], Table]) -> Table:
    _refuse_empty(data, filename)
    if data.startswith(_ZIP_MAGIC):
        if _is_workbook(data):
            return _corpus_from_table(read_table(data, filename, None), filename)
        return _finish_corpus(*_read_zip_corpus(data, filename, **limits))
    _refuse_known_binary(data, filename)
    if not filename.lower().endswith((".csv", ".xlsx")):
        lines = _try_label_lines(data, filename)
        if lines is not None:
            return _finish_corpus(*lines)
    return _corpus_from_table(read_table(data, filename, None), filename)


def _is_workbook(data: bytes) -> bool:
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except ZIP_ERRORS:
        return False
    return "[Content_Types].xml" in names


def _try_label_lines(data: bytes, filename: str) -> tuple[pd.DataFrame, list[str], RowNumbers] | None:
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
        notes.append(f"The first line ({_quoted(labels.iloc[0])}, {_quoted(parts[1].iloc[0])}) is a header; skipped it.")
        frame, line_numbers = frame.iloc[1:].reset_index(drop=True), line_numbers[1:]
    if len(frame) == 0:
        raise DataError(
            f"The file {filename!r} holds only the header line ({_quoted(labels.iloc[0])}, "
            f"{_quoted(parts[1].iloc[0])}) and no documents; add one label<TAB>text line per document "
            "and upload again."
        )
    lead = f"Read {filename!r} as {encoding.label} label<TAB>text lines: {len(frame):,} documents."
    rows = RowNumbers("line", lambda: line_numbers)
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
    note = f"Used column {_quoted(text_column)} as the text and {_quoted(label_column)} as the label ({how})"
    notes.append(note + (f"; ignored {_names(ignored)}." if ignored else "."))
    corpus = pd.DataFrame({"text": frame[text_column], "label": frame[label_column]})
    rows = RowNumbers("row", lambda: np.arange(1, len(corpus) + 1))
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
    shown = ", ".join(_quoted(c) for c in frame.columns[:10])
    raise DataError(
        f"Could not tell which column of {filename!r} holds the text and which the label "
        f"(columns: {shown}); rename the text column to 'text' and the label column to "
        "'label' and upload again."
    )


def _mean_length(column: pd.Series) -> float:
    if not (pd.api.types.is_string_dtype(column) or column.dtype == object):
        return 0.0
    lengths = column.dropna().astype(TEXT_DTYPE).str.len()
    return float(lengths.mean()) if len(lengths) else 0.0


def _finish_corpus(frame: pd.DataFrame, notes: list[str], rows: RowNumbers) -> Table:
    """NFC-normalise, count empty documents and missing labels; keep every row."""
    notes = list(notes)
    text = frame["text"].astype(object).where(frame["text"].notna(), "").astype(TEXT_DTYPE)
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
    corpus = pd.DataFrame({"text": normalised.astype(TEXT_DTYPE), "label": label}).reset_index(drop=True)
    return Table(corpus, tuple(notes))


def _read_zip_corpus(
    data: bytes, filename: str, *, max_entries: int, max_total_bytes: int, max_ratio: float
) -> tuple[pd.DataFrame, list[str], RowNumbers]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except ZIP_ERRORS:
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
    per_class = ", ".join(f"{_quoted(label)}: {n:,}" for label, n in counts.items())
    lead = f"Read {filename!r} as a zip of class folders: {len(frame):,} documents ({per_class})."
    paths_array = np.array(paths, dtype=object)
    rows = _FileNames(paths_array)
    return frame, [lead, *notes], rows


class _FileNames(RowNumbers):
    """Row positions described by the member file names of a zip corpus."""

    def __init__(self, paths: np.ndarray) -> None:
        super().__init__("file", lambda: paths)

    def describe(self, positions: np.ndarray, limit: int = SHOWN) -> str:
        positions = np.asarray(positions)
        shown = ", ".join(_quoted(p) for p in self.numbers(positions[:limit]))
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
        if not name:
            raise DataError(f"The archive {filename!r} is damaged: one of its files has no name; zip the class "
                            "folders again and upload that.")
        if _unsafe_name(name):
            raise DataError(
                f"The archive {filename!r} contains the unsafe path {_quoted(name)} (absolute or with "
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
                f"The archive {filename!r} contains another archive {_quoted(name)}; nested archives are "
                "not opened, so unzip it and zip the class folders of .txt files directly."
            )
        if info.flag_bits & 0x1:
            raise DataError(f"The archive {filename!r} is password-protected ({_quoted(name)}); upload an unencrypted zip.")
        if PurePosixPath(name).suffix.lower() not in (".txt", ""):
            other.append(name)
            continue
        members.append(info)
    notes = []
    if junk:
        notes.append(f"Skipped {len(junk):,} macOS / hidden file(s) such as {_quoted(junk[0])} (__MACOSX, dotfiles).")
    if other:
        shown = ", ".join(_quoted(n) for n in other[:3])
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
            f"{_quoted(members[0].filename)}, sit at the top); put the .txt files of each class in a "
            "folder named after the class and zip those folders."
        )
    notes = []
    at_root = [m.filename for m, inside in zip(members, in_class) if not inside]
    if at_root:
        notes.append(
            f"Skipped {len(at_root):,} file(s) outside any class folder, such as {_quoted(at_root[0])}."
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
        raw = _member_bytes(archive, info, filename)
        if len(raw) > info.file_size:
            raise DataError(f"The archive {filename!r} is damaged: {_quoted(info.filename)} is larger than it declares.")
        codec = _bom_codec(raw)
        # UTF-16/32 text is full of NUL bytes, so only a file without a byte-order mark is
        # judged binary by them.
        if raw.startswith(ARCHIVE_MAGIC) or (codec is None and b"\x00" in raw[:SAMPLE_BYTES]):
            raise DataError(
                f"The archive {filename!r} holds {_quoted(info.filename)}, which is binary data or another "
                "archive, not text; keep only .txt documents in the class folders."
            )
        texts.append(_member_text(raw, codec, info.filename, fallback))
    notes = []
    if fallback:
        notes.append(
            f"{len(fallback):,} file(s) are not UTF-8 (such as {_quoted(fallback[0])}); read them as Windows-1252."
        )
    return texts, notes


def _member_bytes(archive: zipfile.ZipFile, info: zipfile.ZipInfo, filename: str) -> bytes:
    """The member's bytes (one more than it declares, to catch a lie); a member that cannot be
    read (a damaged header, data or checksum; an unknown compression) is refused by name."""
    try:
        with archive.open(info) as handle:
            return handle.read(info.file_size + 1)
    except NotImplementedError as exc:
        raise DataError(
            f"The archive {filename!r} stores {_quoted(info.filename)} with a compression nbapp cannot read ({_clipped(str(exc))}); "
            "zip the class folders again with ordinary (Deflate) compression and upload that."
        ) from None
    except ZIP_ERRORS as exc:
        raise DataError(
            f"The archive {filename!r} is damaged: {_quoted(info.filename)} cannot be read ({_clipped(str(exc))}); zip the class "
            "folders again and upload that."
        ) from None


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
