"""Workbooks (issue 13): any sheet can be chosen, .xls (xlrd) and .ods (odfpy) are read like
.xlsx, and a missing reader is refused with the fix."""

from __future__ import annotations

import builtins
import io

import pandas as pd
import pytest

from conftest import ROOT
from nbapp import DataError
from nbapp.io import load_table, workbook_sheets

XLS = (ROOT / "tests" / "data" / "two_sheets.xls").read_bytes()   # written once with xlwt: notes, days
FIRST = pd.DataFrame({"x": [1, 2, 3], "y": ["a", "b", "a"]})
SECOND = pd.DataFrame({"h": [1.5, 2.5], "cls": ["p", "q"]})


def workbook(engine: str) -> bytes:
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine=engine) as writer:
        FIRST.to_excel(writer, sheet_name="first", index=False)
        SECOND.to_excel(writer, sheet_name="second", index=False)
    return buffer.getvalue()


@pytest.mark.parametrize("engine, name", [("openpyxl", "book.xlsx"), ("odf", "book.ods")])
def test_every_sheet_can_be_chosen_by_name_or_position(engine, name):
    data = workbook(engine)
    assert workbook_sheets(data, name) == ["first", "second"]
    first = load_table(data, name)
    pd.testing.assert_frame_equal(first.frame, FIRST, check_dtype=False)
    assert any("also has 'second'" in n for n in first.notes)
    for sheet in ("second", 1):
        pd.testing.assert_frame_equal(load_table(data, name, sheet=sheet).frame, SECOND, check_dtype=False)


def test_an_ods_is_read_as_an_opendocument_spreadsheet():
    table = load_table(workbook("odf"), "book.ods")
    assert table.notes[0] == "Read 'book.ods' as an OpenDocument spreadsheet: 3 rows x 2 columns."
    assert table.frame["x"].dtype.kind == "i"


def test_an_old_excel_xls_is_read_with_its_sheets():
    assert workbook_sheets(XLS, "two_sheets.xls") == ["notes", "days"]
    table = load_table(XLS, "two_sheets.xls", sheet="days")
    assert list(table.frame.columns) == ["Outlook", "Temp", "Day", "Play"]
    assert table.frame["Temp"].tolist() == [85.0, 83.5, 70.0]
    assert table.frame["Day"].tolist() == ["2020-01-01", "2020-01-02", "2020-01-03"]


def test_a_sheet_without_a_table_points_to_the_other_sheets():
    with pytest.raises(DataError, match=r"no data rows.*also has 'days' \(choose another sheet"):
        load_table(XLS, "two_sheets.xls")


def test_an_unknown_sheet_is_refused_naming_the_sheets():
    with pytest.raises(DataError, match=r"has no sheet 'third'; its sheets are 'first', 'second'"):
        load_table(workbook("openpyxl"), "book.xlsx", sheet="third")


@pytest.mark.parametrize("module, package, data, name", [("xlrd", "xlrd", XLS, "old.xls"),
                                                         ("odf", "odfpy", None, "book.ods")])
def test_a_missing_reader_is_refused_with_the_install_line(monkeypatch, module, package, data, name):
    data = data if data is not None else workbook("odf")
    real_import = builtins.__import__

    def no_reader(mod, *args, **kwargs):
        if mod == module or mod.startswith(module + "."):
            raise ImportError(mod)
        return real_import(mod, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_reader)
    with pytest.raises(DataError, match=rf"needs the Python package '{package}'.*pip install {package}.*\.xlsx or CSV"):
        load_table(data, name)


def test_a_damaged_xls_is_refused_as_damaged():
    with pytest.raises(DataError, match="is damaged"):
        load_table(XLS[:2000], "cut.xls")


def test_other_files_have_no_sheets():
    assert workbook_sheets(b"a,b\n1,2\n", "t.csv") == []


@pytest.mark.parametrize("kind", ["xls", "ods"])
def test_damaged_xls_and_ods_files_are_refused_never_an_internal_error(kind):
    import logging
    import random

    from nbapp.errors import InternalError

    base = XLS if kind == "xls" else workbook("odf")
    rng = random.Random(7)
    logging.disable(logging.CRITICAL)          # the internal-error path logs its traceback
    try:
        for i in range(300):
            data = bytearray(base)
            if i % 2:
                data = data[:rng.randrange(8, len(data))]
            else:
                for _ in range(rng.randrange(1, 20)):
                    data[rng.randrange(8, len(data))] = rng.randrange(256)
            assert isinstance(workbook_sheets(bytes(data), f"f.{kind}"), list)
            try:
                load_table(bytes(data), f"f.{kind}", sheet=rng.choice([None, 1]))
            except DataError:
                pass
            except InternalError as err:              # pragma: no cover - the failure being tested
                pytest.fail(f"case {i}: {type(err.__cause__).__name__}: {err.__cause__}")
    finally:
        logging.disable(logging.NOTSET)


def test_a_workbook_reads_its_text_cells_as_the_same_csv_does():
    # Both readers hand their cells to one number reader as Arrow strings, whatever pandas'
    # default text dtype (objects under pandas 2.3): '+4' and ' 3' are then the same numbers,
    # and text columns the same dtype.
    cells = pd.DataFrame({"n": ["+4", "2", " 3", "1"], "t": ["a", "b", "a", "c"]})
    book = io.BytesIO()
    cells.to_excel(book, index=False)
    from_book = load_table(book.getvalue(), "t.xlsx").frame
    from_csv = load_table(cells.to_csv(index=False).encode(), "t.csv").frame
    pd.testing.assert_frame_equal(from_book, from_csv)
