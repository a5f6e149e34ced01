"""How long the guards against hostile input take: the refusals and linear-time steps whose
behaviour the tests check (by counting the work done: bytes read, names looked at, pseudo-counts
made, keys hashed), timed here instead, where a loaded machine cannot fail a test (issue 22).

    python bench/bench_refusals.py [--repeat 3]

One line per case: the best of --repeat runs in seconds, the test that checks its behaviour, and
the bound that test used to assert in seconds, for reference (a figure above it on a quiet
machine is worth a look).
"""

from __future__ import annotations

import argparse
import io
import struct
import sys
import time
import zipfile
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd  # noqa: E402

from nbapp import DataError, NaiveBayes  # noqa: E402
from nbapp.io import load_table  # noqa: E402
from nbapp.io.tidy import _clean_names  # noqa: E402
from nbapp.persist import MAX_BYTES  # noqa: E402


def refused(call: Callable[[], object]) -> Callable[[], None]:
    """``call``, which must raise a DataError."""

    def run() -> None:
        try:
            call()
        except DataError:
            return
        raise AssertionError("accepted; it should have been refused")

    return run


def wide_headers() -> Callable[[], None]:
    header = b"a," * 80_000
    wide = (",".join(f"c{i}" for i in range(100_000)) + "\n"
            + "\n".join(",".join(["1"] * 100_000) for _ in range(20))).encode()

    def run() -> None:
        refused(lambda: load_table(header, "wide.csv"))()
        refused(lambda: load_table(wide, "wide.csv"))()

    return run


def duplicate_names() -> Callable[[], None]:
    header = ["x"] * 50_000 + ["X "] * 50_000
    return lambda: _clean_names(list(header), [])


def under_declared_xlsx() -> Callable[[], None]:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["a", "b"])
    for i in range(20_000):
        sheet.append([i, "x" * 50])
    raw = io.BytesIO()
    book.save(raw)
    data = bytearray(raw.getvalue())
    entry = next(i for i in zipfile.ZipFile(io.BytesIO(bytes(data))).infolist() if i.filename.endswith("sheet1.xml"))
    central = data.find(b"PK\x01\x02")
    while data[central + 46:central + 46 + struct.unpack_from("<H", data, central + 28)[0]] != entry.filename.encode():
        central = data.find(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", data, central + 24, 1_000)
    struct.pack_into("<I", data, entry.header_offset + 22, 1_000)
    return refused(lambda: load_table(bytes(data), "book.xlsx"))


def id_like_target() -> Callable[[], None]:
    n = 200_000
    ids = pd.DataFrame({"c": [f"v{i}" for i in range(n)], "y": [f"id{i}" for i in range(n)]})
    return refused(lambda: NaiveBayes({"c": "categorical"}).fit(ids, "y"))


def exact_cpt() -> Callable[[], None]:
    n = 99_322
    model = NaiveBayes({"c": "categorical"}).fit(
        pd.DataFrame({"c": [f"v{i}" for i in range(n)], "y": ["a", "b"] * (n // 2)}), "y")
    return lambda: model.cpt("c", exact=True)


def model_over_the_cap(kind: type) -> Callable[[], None]:
    big = " " * (MAX_BYTES + 1)
    document = big.encode() if kind is bytes else big
    return refused(lambda: NaiveBayes.from_json(document))


def repeated_key() -> Callable[[], None]:
    keys = ", ".join(f'"k{i}": 0' for i in range(40_000))
    document = '{"format": "nbapp.NaiveBayes", "version": 2, ' + keys + ', "k0": 1}'
    return refused(lambda: NaiveBayes.from_json(document))


# name, set-up (not timed), the test that checks its behaviour, the seconds that test once asserted
CASES: list[tuple[str, Callable[[], Callable[[], None]], str, float]] = [
    ("CSV headers of 80,000 and 100,000 names refused", wide_headers,
     "test_io_fuzz::test_a_header_of_80000_names_is_refused_at_once_with_the_budget", 5),
    ("100,000 look-alike column names renamed", duplicate_names,
     "test_io_fuzz::test_many_duplicate_names_are_renamed_in_linear_time", 2),
    ("xlsx sheet declaring 1,000 of its 3 MB refused", under_declared_xlsx,
     "test_io_fuzz::test_an_xlsx_entry_that_under_declares_its_size_is_refused_not_read_unbounded", 10),
    ("ID-like target of 200,000 classes refused", id_like_target,
     "test_model_hardening::test_an_id_like_target_is_refused_before_its_tables_are_allocated", 10),
    ("exact CPT of 99,322 categories", exact_cpt,
     "test_model_hardening::test_an_exact_cpt_of_a_hundred_thousand_categories_is_linear", 5),
    ("model file over the 32 MB cap refused, as str", lambda: model_over_the_cap(str),
     "test_persist_schema::test_documents_over_the_cap_are_refused_by_size_before_parsing", 1),
    ("model file over the 32 MB cap refused, as bytes", lambda: model_over_the_cap(bytes),
     "test_persist_schema::test_documents_over_the_cap_are_refused_by_size_before_parsing", 1),
    ("model file of 40,000 keys, one repeated, refused", repeated_key,
     "test_persist_schema::test_the_duplicate_key_check_is_linear", 1),
]


def best_of(run: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'case':52} {'best s':>7} {'once asserted':>14}  checked by")
    for name, setup, test, bound in CASES:
        seconds = best_of(setup(), args.repeat)
        print(f"{name:52} {seconds:7.3f} {f'< {bound:g} s':>14}  tests/{test}")


if __name__ == "__main__":
    main()
