"""The loader's last line of defence is never reached (issue 15): random bytes and damaged
tables either load or are refused with a DataError; an InternalError (a bug) fails the test."""

from __future__ import annotations

import io
import struct
import zipfile

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nbapp import DataError
from nbapp.io import InternalError, load_corpus, load_table

CLEAN = "name,age,city,score\nJosé,31,München,2.5\nAna,27,Zürich,3.0\nLi,45,東京,1.25\n".encode()


def loads_or_refuses(data: bytes, name: str, reader=load_table) -> None:
    try:
        reader(data, name)
    except DataError:
        pass
    except InternalError as err:           # pragma: no cover - the failure this test exists for
        raise AssertionError(f"{name}: {data[:80]!r} reached the internal-error path") from err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_random_bytes_never_reach_the_internal_error_path(data):
    loads_or_refuses(data, "random.csv")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(CLEAN) - 1), st.binary(min_size=0, max_size=3)), max_size=6),
       st.sampled_from(["t.csv", "t.tsv", "t.txt", "t.xlsx"]))
def test_damaged_tables_never_reach_the_internal_error_path(edits, name):
    data = bytearray(CLEAN)
    for position, replacement in edits:
        data[position:position + 1] = replacement
    loads_or_refuses(bytes(data), name)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_random_corpora_never_reach_the_internal_error_path(data):
    loads_or_refuses(data, "corpus.txt", reader=load_corpus)


def test_a_few_invalid_bytes_in_a_large_utf8_file_are_replaced_not_the_whole_file_reread():
    rows = [f"José {i},{i % 7}" for i in range(60_000)]
    data = ("name,n\n" + "\n".join(rows) + "\n").encode()
    bad_at = data.index(b"Jos\xc3\xa9 50000")
    data = data[:bad_at] + b"\xff" + data[bad_at + 1:]
    table = load_table(data, "people.csv")
    assert table.frame["name"].iloc[0] == "José 0" and table.frame["name"].iloc[50_000] == "\ufffdosé 50000"
    note = next(n for n in table.notes if "invalid byte" in n)
    assert f"line(s) 50,002 (byte offset(s) {bad_at:,})" in note and "1 invalid" in note
    assert "UTF-8" in table.notes[0]


def test_windows_1252_is_chosen_only_on_its_evidence():
    table = load_table("city;price\nMünchen;3\nCafé €;4\n".encode("cp1252"), "w.csv")
    assert table.frame["city"].tolist() == ["München", "Café €"]
    assert any("do not form UTF-8 characters" in n for n in table.notes)


def test_utf16_without_a_byte_order_mark_is_recognised():
    for codec in ("utf-16-le", "utf-16-be"):
        table = load_table("a,b\n1,Åsa\n2,Örjan\n".encode(codec), "excel.csv")
        assert table.frame["b"].tolist() == ["Åsa", "Örjan"]
        assert "without a byte-order mark" in table.notes[0]


def test_look_alike_column_names_are_kept_apart_and_noted():
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    table = load_table(f"{composed},{decomposed},Age,age ,y\n1,2,3,4,a\n5,6,7,8,b\n".encode(), "t.csv")
    assert list(table.frame.columns) == [composed, f"{decomposed}_2", "Age", "age_2", "y"]
    notes = " ".join(table.notes)
    assert "look the same" in notes and f"renamed the second (column 2) to '{decomposed}_2'" in notes


def test_a_header_of_80000_names_is_refused_at_once_with_the_budget(monkeypatch):
    # "at once": from the file's head, after reading about MAX_COLUMNS fields of the header, before
    # any per-column or per-row work (bench/bench_refusals.py times it)
    from nbapp.io import _delimited as delimited
    from nbapp.io._common import SAMPLE_BYTES

    heads = []
    decode_head = delimited._decode_head

    def spy(head, *args, **kwargs):
        heads.append(len(head))
        return decode_head(head, *args, **kwargs)

    def never(*args, **kwargs):
        raise AssertionError("a header beyond the column budget reached the readers")

    monkeypatch.setattr(delimited, "_decode_head", spy)
    monkeypatch.setattr(delimited, "read_fast", never)
    monkeypatch.setattr(delimited, "_read_records", never)
    try:
        load_table(b"a," * 80_000, "wide.csv")
    except DataError as err:
        assert "has at least" in str(err) and "up to 10,000 columns" in str(err)
    else:
        raise AssertionError("a header of 80,000 names was accepted")
    assert heads == [SAMPLE_BYTES]                    # 32,768 names in the first 64 KiB are enough
    heads.clear()
    wide = ",".join(f"c{i}" for i in range(100_000)) + "\n" + "\n".join(",".join(["1"] * 100_000) for _ in range(20))
    try:
        load_table(wide.encode(), "wide.csv")
    except DataError as err:
        assert "columns" in str(err)
    else:
        raise AssertionError("a table of 100,000 columns was accepted")
    # its header is 688,889 bytes: refused after the first 64 KiB, which hold 10,950 names
    assert heads == [SAMPLE_BYTES]


def test_many_duplicate_names_are_renamed_in_linear_time(monkeypatch):
    from nbapp.io import _tidy as tidy
    from nbapp.io._tidy import _clean_names, _look as look

    header = ",".join(["x"] * 300) + ",y\n"
    row = ",".join(["1"] * 300) + ",a\n"
    table = load_table((header + row + row.replace(",a", ",b")).encode(), "dup.csv")
    assert list(table.frame.columns[:3]) == ["x", "x_2", "x_3"] and table.frame.columns.is_unique
    # linear: each name is looked at a few times (itself, the suffix tried, the name taken), where
    # renaming that tried _2, _3, ... afresh for every copy would look at n^2 / 2 names
    header = ["x"] * 50_000 + ["X "] * 50_000
    looks = 0

    def counted(name: str) -> str:
        nonlocal looks
        looks += 1
        assert looks <= 4 * len(header), "renaming looks at more than 4 names per column: not linear"
        return look(name)

    monkeypatch.setattr(tidy, "_look", counted)
    names = _clean_names(header, [])
    assert len(set(names)) == 100_000 and names[50_000] == "X _50001"


def test_an_xlsx_entry_that_under_declares_its_size_is_refused_not_read_unbounded():
    import io
    import struct
    import zipfile

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["a", "b"])
    for i in range(20_000):
        sheet.append([i, "x" * 50])
    raw = io.BytesIO()
    book.save(raw)
    data = bytearray(raw.getvalue())
    archive = zipfile.ZipFile(io.BytesIO(bytes(data)))
    entry = next(i for i in archive.infolist() if i.filename.endswith("sheet1.xml"))
    central = data.find(b"PK\x01\x02")                               # its central-directory record
    while data[central + 46:central + 46 + struct.unpack_from("<H", data, central + 28)[0]] != entry.filename.encode():
        central = data.find(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", data, central + 24, 1_000)               # declared: 1,000 bytes
    struct.pack_into("<I", data, entry.header_offset + 22, 1_000)
    try:
        load_table(bytes(data), "book.xlsx")
    except DataError as err:
        # the header keeps the CRC of the whole entry: it fails only because the reader stopped at
        # the declared 1,000 bytes (read whole, the entry would have matched it)
        assert "damaged" in str(err) and "Bad CRC-32" in str(err)
    else:
        raise AssertionError("an entry holding more than it declares was read")


# --- Damaged zip headers (issue 31, item 16) ------------------------------------------------------
def corpus_zip(*, descriptors: bool) -> bytes:
    """Three documents in two class folders; with ``descriptors`` written as to a pipe, so each
    member's sizes follow its data in a data descriptor (flag bit 3)."""
    buffer = io.BytesIO()

    class Pipe(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, data) -> int:
            return buffer.write(data)

    with zipfile.ZipFile(Pipe() if descriptors else buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in {"spam/1.txt": "win money now", "spam/2.txt": "free prize", "ham/1.txt": "see you"}.items():
            archive.writestr(name, text * 3)
    return buffer.getvalue()


def small_xlsx() -> bytes:
    book = openpyxl.Workbook()
    for row in (["x", "y"], [1, 2], [3, 4]):
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def header_bytes(data: bytes) -> list[int]:
    """The positions of every byte of the archive's local headers (with their names and extra
    fields), data descriptors, central directory and end record."""
    spans = []
    for info in zipfile.ZipFile(io.BytesIO(data)).infolist():
        names = sum(struct.unpack_from("<HH", data, info.header_offset + 26))
        end = info.header_offset + 30 + names
        spans.append(range(info.header_offset, end))
        if info.flag_bits & 0x08:
            descriptor = end + info.compress_size
            spans.append(range(descriptor, descriptor + (16 if data[descriptor:descriptor + 4] == b"PK\x07\x08" else 12)))
    record = data.rfind(b"PK\x05\x06")
    spans.append(range(struct.unpack_from("<I", data, record + 16)[0], record + 22))
    return [at for span in spans for at in span]


ALTERATIONS = {"inverted": lambda b: b ^ 0xFF, "plus one": lambda b: (b + 1) & 0xFF, "zero": lambda b: 0}


@pytest.mark.parametrize("archive, name, reader, alterations", [
    (corpus_zip(descriptors=False), "c.zip", load_corpus, ["inverted", "plus one", "zero"]),
    (corpus_zip(descriptors=True), "c.zip", load_corpus, ["inverted", "plus one", "zero"]),
    (small_xlsx(), "b.xlsx", load_table, ["inverted", "plus one"]),
], ids=["corpus", "corpus with data descriptors", "xlsx"])
def test_every_damaged_zip_header_byte_is_read_or_refused_naming_the_file(archive, name, reader, alterations):
    # load_corpus on a corpus zip with one byte of its end record changed raised "ValueError:
    # negative seek value -1" from zipfile, shown as an internal error
    positions = header_bytes(archive)
    assert len(positions) > 300
    escaped, outcomes = [], {"read": 0, "refused": 0}
    for at in positions:
        for alteration in alterations:
            damaged = bytearray(archive)
            damaged[at] = ALTERATIONS[alteration](damaged[at])
            try:
                reader(bytes(damaged), name)
                outcomes["read"] += 1
            except DataError as err:
                outcomes["refused"] += 1
                if f"'{name}'" not in str(err):
                    escaped.append((at, alteration, str(err)[:120]))
            except InternalError as err:
                escaped.append((at, alteration, repr(err.__cause__)[:120]))
    assert not escaped, f"{len(escaped)} of {outcomes}: {escaped[:5]}"
    assert outcomes["refused"] > 0 and outcomes["read"] > 0
