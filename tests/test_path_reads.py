"""Reading a local path cannot be turned against the server (issue 31): one path names at most
MAX_FILES files, counted while listing (item 10); a read whose caller no longer waits stops,
DuckDB's query included (item 10); and under a data root, what was checked is what is read,
even when a folder or a file is swapped for a link in between (item 11)."""

from __future__ import annotations

import itertools
import os
import threading
from pathlib import Path

import pandas as pd
import pytest

import nbapp
from nbapp.scale import _files
from nbapp.scale import cross_validate_file, sample_rows
from nbapp.scale._files import MAX_FILES, Stopped, resolve_sources


def _table(path: Path, label: str, rows: int = 6) -> Path:
    """A small CSV whose every x cell names where it lies (x = label)."""
    pd.DataFrame({"x": [label] * rows, "y": ["a", "b"] * (rows // 2)}).to_csv(path, index=False)
    return path


def _fitted_x(model: nbapp.NaiveBayes) -> dict[str, float]:
    return model.counts("x").sum(axis=1).to_dict()


def _model() -> nbapp.NaiveBayes:
    return nbapp.NaiveBayes({"x": "categorical"})


# -- item 10: the files one path may name ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def crowded(tmp_path_factory) -> Path:
    """A data root whose folder 'many' holds MAX_FILES + 1 tiny CSVs."""
    root = tmp_path_factory.mktemp("root")
    many = root / "many"
    many.mkdir()
    for i in range(MAX_FILES + 1):
        (many / f"part{i:05d}.csv").write_bytes(b"x,y\nq,a\n")
    return root


@pytest.mark.parametrize("typed", ["many", "many/*.csv", "many/part*"])
def test_a_path_naming_more_than_max_files_is_refused_before_any_file_is_read(crowded, typed, monkeypatch):
    read = []
    monkeypatch.setattr(_files, "_connect", lambda: read.append(True))
    with pytest.raises(nbapp.DataError, match=r"names more than 10,000 table files; one path may name at most "
                                              r"10,000: name a narrower glob"):
        resolve_sources(typed, root=crowded)
    with pytest.raises(nbapp.DataError, match="more than 10,000 table files"):
        nbapp.fit_file(_model(), str(crowded / typed), "y")
    assert read == [], "refused at the listing, not after checking every file"


def test_a_list_of_more_than_max_files_is_refused_saying_how_many(crowded):
    files = sorted(str(p) for p in (crowded / "many").iterdir())
    files.append(files[0].replace("part00000", "extra"))
    with pytest.raises(nbapp.DataError, match=r"The list of files given names 10,002 table files; one path may name "
                                              r"at most"):
        resolve_sources(files)


def test_the_listing_stops_at_the_first_file_beyond_the_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(_files, "MAX_FILES", 3)
    taken = []

    def counted(pattern):
        for name in (str(tmp_path / f"p{i}.csv") for i in itertools.count()):
            taken.append(name)
            yield name

    monkeypatch.setattr(_files.glob, "iglob", counted)             # an endless folder
    monkeypatch.setattr(_files.os.path, "isfile", lambda f: not _files.glob.has_magic(f))
    with pytest.raises(nbapp.DataError, match="names more than 3 table files"):
        resolve_sources(str(tmp_path / "p*.csv"))
    assert len(taken) == 4


def test_a_path_at_the_bound_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(_files, "MAX_FILES", 3)
    for i in range(3):
        _table(tmp_path / f"p{i}.csv", f"p{i}")
    assert _fitted_x(nbapp.fit_file(_model(), str(tmp_path), "y")) == {"p0": 6, "p1": 6, "p2": 6}


# -- item 10: a read whose caller has gone stops ----------------------------------------------------------------
def test_a_read_whose_caller_has_gone_stops_before_it_opens_anything(tmp_path, monkeypatch):
    _table(tmp_path / "a.csv", "a")
    opened = []
    monkeypatch.setattr(_files, "_connect", lambda: opened.append(True))
    sources = resolve_sources(str(tmp_path / "a.csv"), root=tmp_path, stop=lambda: True)
    for read in (lambda: nbapp.fit_file(_model(), sources, "y"), lambda: sample_rows(sources, 5),
                 lambda: cross_validate_file(_model(), sources, "y", k=2)):
        with pytest.raises(Stopped):
            read()
    assert opened == []


def test_the_checks_of_many_files_stop_between_files_when_told(tmp_path, monkeypatch):
    for i in range(300):
        _table(tmp_path / f"p{i:03d}.csv", f"p{i}")
    checked = []
    columns = _files._columns
    monkeypatch.setattr(_files, "_columns", lambda con, sources, file: checked.append(file) or columns(con, sources,
                                                                                                     file))
    with pytest.raises(Stopped):
        nbapp.fit_file(_model(), resolve_sources(str(tmp_path), stop=lambda: len(checked) >= 5), "y")
    assert len(checked) == 5, "stopped at the next file, not after 300"


# A query of tens of seconds on any machine: it ends with its count unless interrupted.
LONG_QUERY = "SELECT count(*) FROM range(30000000000) t(i) WHERE i % 7 = 3"


def test_a_running_duckdb_query_is_interrupted_once_stop_says_so():
    told = threading.Event()
    sources = _files._Sources(("f.csv",), "csv", stop=told.is_set)
    threading.Timer(0.3, told.set).start()
    with _files._connected(sources) as con:
        with pytest.raises(Stopped):
            _files._rows(con, LONG_QUERY, "f.csv")


def test_an_interrupted_aggregate_query_stops_the_fit_instead_of_retrying_or_streaming(tmp_path, monkeypatch):
    _table(tmp_path / "a.csv", "a")
    told = threading.Event()
    streamed = []
    monkeypatch.setattr(_files, "_fit_streamed", lambda *args: streamed.append(True))

    def endless(model, source, *args, **kwargs):
        told.set()
        source.run(LONG_QUERY, None)

    monkeypatch.setattr(_files, "model_statistics", endless)
    with pytest.raises(Stopped):
        nbapp.fit_file(_model(), resolve_sources(str(tmp_path / "a.csv"), stop=told.is_set), "y")
    assert streamed == []


def test_a_stop_raised_by_progress_interrupts_the_query_it_watched():
    import duckdb

    from nbapp.scale._engines import duckdb_run

    con = duckdb.connect()

    def progress(share):
        raise KeyboardInterrupt("the caller went away")   # as Streamlit's StopException would

    with pytest.raises(KeyboardInterrupt):
        duckdb_run(con, LONG_QUERY, progress, "q")
    assert not [t for t in threading.enumerate() if t.name == "nbapp-duckdb"], "the query's thread ended"
    con.close()


# -- item 11: what was checked is what is read --------------------------------------------------------------
@pytest.fixture
def swap(tmp_path):
    """A data root with data/a.csv (x = 'inside') and, outside the root, away/a.csv (x = 'outside'),
    and a function that swaps the folder data for a link to away (as a visitor with write access in
    the root could, between the check and the read)."""
    root, away = tmp_path / "root", tmp_path / "away"
    (root / "data").mkdir(parents=True)
    away.mkdir()
    _table(root / "data" / "a.csv", "inside")
    _table(away / "a.csv", "outside")

    def swap_folder() -> None:
        (root / "data").rename(root / "data_before")
        (root / "data").symlink_to(away, target_is_directory=True)

    def swap_file() -> None:
        (root / "data" / "a.csv").rename(root / "data" / "before.csv")
        (root / "data" / "a.csv").symlink_to(away / "a.csv")

    return root, swap_folder, swap_file


@pytest.mark.parametrize("which", ["folder", "file"])
def test_a_folder_or_file_swapped_for_a_link_after_the_check_is_refused_never_read(swap, which, monkeypatch):
    root, swap_folder, swap_file = swap
    sources = resolve_sources("data", root=root)         # checked: data/a.csv, under the root
    (swap_folder if which == "folder" else swap_file)()
    read = []
    connect = _files._connect
    monkeypatch.setattr(_files, "_connect", lambda: read.append(True) or connect())
    for reading in (lambda: nbapp.fit_file(_model(), sources, "y"), lambda: sample_rows(sources, 5),
                    lambda: cross_validate_file(_model(), sources, "y", k=2)):
        with pytest.raises(nbapp.DataError, match="is no longer the file that was checked") as caught:
            reading()
        assert "outside" not in str(caught.value) and "away" not in str(caught.value)
    assert read == [], "refused before any read"


def test_a_swap_after_the_files_are_opened_reads_the_files_that_were_checked(swap, monkeypatch):
    root, swap_folder, _ = swap
    sources = resolve_sources("data", root=root)
    check_files = _files._check_files

    def swap_then_check(*args):
        swap_folder()                     # between the open and every read
        return check_files(*args)

    monkeypatch.setattr(_files, "_check_files", swap_then_check)
    assert _fitted_x(nbapp.fit_file(_model(), sources, "y")) == {"inside": 6}


def test_a_path_read_without_a_root_reads_by_name(tmp_path):
    _table(tmp_path / "a.csv", "here")
    sources = resolve_sources(str(tmp_path / "a.csv"))
    with _files._opened(sources) as opened:
        assert opened.paths == (str(tmp_path / "a.csv"),)
    assert _fitted_x(nbapp.fit_file(_model(), sources, "y")) == {"here": 6}


def test_the_descriptors_of_a_read_are_closed_after_it(swap):
    root, _, _ = swap
    before = len(os.listdir("/proc/self/fd"))
    sources = resolve_sources("data", root=root)
    for _ in range(3):
        assert _fitted_x(nbapp.fit_file(_model(), sources, "y")) == {"inside": 6}
    assert len(os.listdir("/proc/self/fd")) <= before + 1


def test_parquet_files_under_a_root_are_read_through_their_descriptors(tmp_path):
    (tmp_path / "data").mkdir()
    for part in ("p0", "p1"):
        pd.DataFrame({"x": [part] * 20, "y": ["a", "b"] * 10}).to_parquet(tmp_path / "data" / f"{part}.parquet")
    sources = resolve_sources("data", root=tmp_path)
    with _files._opened(sources) as opened:
        assert all(p.startswith("/proc/self/fd/") for p in opened.paths)
    assert _fitted_x(nbapp.fit_file(_model(), sources, "y")) == {"p0": 20, "p1": 20}
    assert sample_rows(sources, 2)["x"].tolist() == ["p0", "p0"]
    assert cross_validate_file(_model(), sources, "y", k=2).scores.n == 40
