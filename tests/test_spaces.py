"""Values that differ only by spaces at their ends (issue 21, Low): the loader keeps them apart and
notes each column that has them; trimming is offered, and done only when asked."""

from __future__ import annotations

import io

import numpy as np
import openpyxl
import pandas as pd
import pytest

import nbapp
from nbapp import DataError
from nbapp.io import load_table, space_variants, trim_spaces
from nbapp.io.delimited import _read_delimited
from nbapp.io.fast import FAST_MIN_BYTES

REGIONS = b"region,size,y\n north ,1,a\nnorth,2,b\nsouth,3,a\n south,4,b\nnorth ,5,a\neast ,6,b\n"


def spaces_notes(table) -> list[str]:
    return [n for n in table.notes if "differ only by spaces" in n]


def test_the_loader_keeps_spaced_values_apart_and_names_the_column_with_an_example():
    table = load_table(REGIONS, "r.csv")
    assert table.frame["region"].tolist() == [" north ", "north", "south", " south", "north ", "east "]
    assert spaces_notes(table) == [
        "Column 'region' has values that differ only by spaces at the start or end, such as ' north ' and 'north' "
        "and 'north ' (2 such groups); they count as different categories. Trim them if they mean the same (the "
        "Data page offers it; in Python, nbapp.io.trim_spaces)."]


def test_no_note_without_two_values_that_meet_once_trimmed():
    # 'east ' alone is one category however it is written; numbers are numbers
    table = load_table(b"region,size,y\neast ,1,a\nwest,2,b\n 3,x,a\n", "r.csv")
    assert spaces_notes(table) == []


def test_the_fast_path_gives_the_same_note():
    rng = np.random.default_rng(0)
    n = 60_000
    frame = pd.DataFrame({"id": np.arange(n), "region": rng.choice(["north", " north", "south"], n),
                          "x": rng.normal(size=n).round(2), "y": rng.choice(["p", "q"], n)})
    data = frame.to_csv(index=False).encode()
    assert len(data) >= FAST_MIN_BYTES
    fast, careful = _read_delimited(data, "f.csv", None), _read_delimited(data, "f.csv", None, fast=False)
    assert fast.notes == careful.notes and len(spaces_notes(fast)) == 1
    assert "such as 'north' and ' north'" in spaces_notes(fast)[0] or "such as ' north' and 'north'" in \
        spaces_notes(fast)[0]


def test_workbooks_are_noted_too():
    book = openpyxl.Workbook()
    for row in (["region", "y"], ["north", "a"], ["north  ", "b"], ["south", "a"]):
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    table = load_table(buffer.getvalue(), "r.xlsx")
    assert "such as 'north' and 'north  '" in spaces_notes(table)[0]


def test_space_variants_lists_the_groups_of_each_column():
    frame = load_table(REGIONS, "r.csv").frame
    assert space_variants(frame) == {"region": [(" north ", "north", "north "), ("south", " south")]}
    mixed = pd.DataFrame({"a": [" a", "a", 1, None, [1]], "n": [1.0, 2.0, 3.0, 4.0, 5.0]})
    assert space_variants(mixed) == {"a": [(" a", "a")]}      # text among other objects; numbers never


def test_trimming_is_asked_for_and_changes_only_the_columns_named():
    frame = load_table(b"region,city,y\n north ,  Oslo,a\nnorth,Oslo,b\n  ,Rome,a\n", "r.csv").frame
    trimmed = trim_spaces(frame, ["region"])
    assert trimmed["region"].tolist()[:2] == ["north", "north"] and pd.isna(trimmed["region"].iloc[2])
    assert trimmed["city"].tolist() == frame["city"].tolist() == ["  Oslo", "Oslo", "Rome"]
    assert frame["region"].tolist()[:2] == [" north ", "north"]          # a copy: the original is kept
    assert trimmed.dtypes.equals(frame.dtypes) and space_variants(trimmed) == {"city": [("  Oslo", "Oslo")]}


def test_trimming_gives_the_model_one_category_where_the_file_had_two():
    frame = load_table(REGIONS, "r.csv").frame
    before = nbapp.NaiveBayes({"region": "categorical"}).fit(frame, "y")
    after = nbapp.NaiveBayes({"region": "categorical"}).fit(trim_spaces(frame, ["region"]), "y")
    assert len(before.counts("region")) == 6 and sorted(after.counts("region").index) == ["east", "north", "south"]


def test_trimming_a_column_that_is_not_there_is_refused():
    with pytest.raises(DataError, match=r"There is no column 'regoin' to trim"):
        trim_spaces(load_table(REGIONS, "r.csv").frame, ["regoin"])


def test_the_data_page_offers_to_trim_and_the_model_then_counts_one_category(tmp_path):
    from apptest_helpers import clear_caches, no_exception, start, texts, upload  # noqa: F401

    header, *rows = REGIONS.decode().splitlines(keepends=True)
    at = upload(start(), "regions.csv", (header + "".join(rows * 3)).encode())   # not ID-like: categorical
    assert any("Column 'region' has values that differ only by spaces" in s for s in texts(at, "info"))
    assert len(at.session_state["model"].counts("region")) == 6
    buttons = [b for b in at.button if b.key == "data.trim_spaces::region"]
    assert [b.label for b in buttons] == ["Trim spaces in region"]
    buttons[0].click().run()
    no_exception(at)
    assert at.session_state["frame"]["region"].tolist() == ["north", "north", "south", "south", "north", "east"] * 3
    assert sorted(at.session_state["model"].counts("region").index) == ["east", "north", "south"]
    assert any("Trimmed the spaces at the start and end of the values of 'region', as you asked" in s
               for s in texts(at, "info"))
    assert not [b for b in at.button if b.key == "data.trim_spaces::region"]      # done: no more offer
