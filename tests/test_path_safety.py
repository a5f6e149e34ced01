"""Paths typed by a person are resolved in one place (issue 21): the files checked are the files
read, every file is named like a table, an existing name is never a glob, a data folder confines
what can be reached without telling which files exist outside it, and no message quotes a cell
of a file the person did not upload."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.cli import main
from nbapp.scale.files import _sources, sample_rows

SECRET = "hunter2-token"


def _table(path: Path, rows: int = 6, label: str = "t") -> Path:
    """A small CSV whose every cell names the file it came from (x = label)."""
    pd.DataFrame({"x": [label] * rows, "y": ["a", "b"] * (rows // 2)}).to_csv(path, index=False)
    return path


def _fitted_x(model: nbapp.NaiveBayes) -> dict[str, float]:
    """Rows per value of x: which files were read, and how often."""
    counts = model.counts("x")
    return counts.sum(axis=1).to_dict() if counts.shape[0] > 0 else {}


def _secrets(folder: Path) -> None:
    """Files a visitor must never reach: no table suffix, two columns (as a secrets file)."""
    (folder / "passwd").write_text(f"user,{SECRET}\nroot,{SECRET}\n")
    (folder / "credentials").write_text(f"key,{SECRET}\nid,{SECRET}\n")


# -- the suffix rule holds for every file a glob, a folder or a name yields --------------------------------
@pytest.mark.parametrize("pattern", ["passw[d]", "credential[s]", "pass*", "passw?"])
def test_a_glob_never_yields_a_file_not_named_like_a_table(tmp_path, pattern):
    _secrets(tmp_path)
    with pytest.raises(nbapp.DataError, match="No CSV or Parquet files match") as caught:
        nbapp.fit_file(nbapp.NaiveBayes({"user": "categorical"}), str(tmp_path / pattern), "y")
    assert SECRET not in str(caught.value)
    with pytest.raises(nbapp.DataError, match="No CSV or Parquet files match"):
        sample_rows(str(tmp_path / pattern), 10)


def test_a_glob_reads_only_its_table_files(tmp_path):
    _secrets(tmp_path)
    _table(tmp_path / "part.csv", label="part")
    (tmp_path / "parts").write_text(f"x,y\n{SECRET},a\n")
    assert _sources(str(tmp_path / "part*")).files == (str(tmp_path / "part.csv"),)
    model = nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), str(tmp_path / "part*"), "y")
    assert _fitted_x(model) == {"part": 6}


@pytest.mark.parametrize("name", ["maps", "notes.md", "data.csv.bak"])
def test_sample_rows_and_fit_file_refuse_a_file_not_named_like_a_table(tmp_path, name):
    path = tmp_path / name
    path.write_text(f"x,y\n{SECRET},a\n")
    for read in (lambda: sample_rows(path, 10),
                 lambda: nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), path, "y")):
        with pytest.raises(nbapp.DataError, match="is not named like a CSV") as caught:
            read()
        assert SECRET not in str(caught.value)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="Linux's /proc")
def test_sample_rows_does_not_read_proc_self_maps():
    with pytest.raises(nbapp.DataError, match="is not named like a CSV"):
        sample_rows("/proc/self/maps", 10)


def test_a_parquet_file_that_is_no_parquet_or_has_no_rows_is_a_data_error(tmp_path):
    (tmp_path / "fake.parquet").write_text(f"x,y\n{SECRET},a\n")
    with pytest.raises(nbapp.DataError, match="as Parquet") as caught:
        sample_rows(tmp_path / "fake.parquet", 10)
    assert SECRET not in str(caught.value)
    pd.DataFrame({"x": pd.Series([], dtype=str), "y": pd.Series([], dtype=str)}).to_parquet(tmp_path / "e.parquet")
    with pytest.raises(nbapp.DataError, match="has no data rows"):
        sample_rows(tmp_path / "e.parquet", 10)


# -- an existing name is itself, never a pattern; DuckDB is handed names it does not glob --------------------
@pytest.mark.parametrize("name", ["sales [2024].csv", "sales [2].csv", "sales *.csv", "sales ?.csv",
                                  "sales [!x].csv"])
def test_an_existing_file_named_like_a_pattern_is_read_literally(tmp_path, name):
    _table(tmp_path / name, label="literal")
    _table(tmp_path / "sales 2.csv", label="other")
    _table(tmp_path / "sales x.csv", label="other x")
    model = nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), str(tmp_path / name), "y")
    assert _fitted_x(model) == {"literal": 6}
    assert set(sample_rows(str(tmp_path / name), 10)["x"]) == {"literal"}


def test_a_folder_reads_a_bracketed_file_once_and_no_file_twice(tmp_path):
    names = ("sales [2].csv", "sales 2.csv", "sales *.csv", "a?.csv", "ab.csv")
    for name in names:
        _table(tmp_path / name, label=name)
    model = nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), tmp_path, "y")
    assert _fitted_x(model) == {name: 6 for name in names}


def test_a_bracketed_parquet_file_is_read_literally(tmp_path):
    for name, label in (("p[1].parquet", "literal"), ("p1.parquet", "other")):
        pd.DataFrame({"x": [label] * 4, "y": ["a", "b"] * 2}).to_parquet(tmp_path / name, index=False)
    model = nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), str(tmp_path / "p[1].parquet"), "y")
    assert _fitted_x(model) == {"literal": 4}


def test_the_command_line_fits_the_bracketed_file_it_is_given(tmp_path, capsys):
    _table(tmp_path / "sales [2024].csv", label="literal")
    _table(tmp_path / "sales 2.csv", label="other")
    out = tmp_path / "m.json"
    assert main(["fit", str(tmp_path / "sales [2024].csv"), "--target", "y", "--types", "x=categorical",
                 "--out", str(out)]) == 0
    model = nbapp.NaiveBayes.from_json(out.read_text())
    assert _fitted_x(model) == {"literal": 6}


def test_a_list_of_files_is_read_as_listed_never_globbed(tmp_path):
    _table(tmp_path / "a[1].csv", label="literal")
    _table(tmp_path / "a1.csv", label="other")
    files = (str(tmp_path / "a[1].csv"),)
    assert _sources(files).files == files
    assert _fitted_x(nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), files, "y")) == {"literal": 6}
    with pytest.raises(nbapp.DataError, match="no file or folder"):
        _sources([str(tmp_path / "a?.csv")])          # a pattern in a list is a name, and none exists


# -- the files resolved once are the files read ------------------------------------------------------------
def test_the_files_resolved_are_the_files_fitted_even_if_the_folder_changes(tmp_path):
    _table(tmp_path / "p1.csv", label="one")
    files = _sources(str(tmp_path / "p*.csv")).files
    _table(tmp_path / "p2.csv", label="two")            # appears between the check and the fit
    model = nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), files, "y")
    assert _fitted_x(model) == {"one": 6}


def test_cross_validation_reads_in_both_passes_the_files_resolved_once(tmp_path):
    _table(tmp_path / "p1.csv", rows=40, label="one")

    def progress(done: int, total: int) -> None:     # a file appears during the first pass
        _table(tmp_path / "p2.csv", rows=40, label="two")

    result = nbapp.cross_validate_file(nbapp.NaiveBayes({"x": "categorical"}), str(tmp_path / "p*.csv"), "y", k=2,
                                       progress=progress)
    assert result.scores.n == 40


# -- a data folder: containment, and one sentence for everything outside it ----------------------------------
@pytest.fixture()
def rooted(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    _table(root / "inside.csv", label="inside")
    (root / "notes.md").write_text("x\n")
    _table(outside / "out.csv", label="out")
    _secrets(outside)
    (root / "link.csv").symlink_to(outside / "out.csv")
    (root / "linkdir").symlink_to(outside)
    return root, outside


def _message(path: str, root: Path) -> str:
    with pytest.raises(nbapp.DataError) as caught:
        _sources(path, root=str(root))
    return str(caught.value).replace(repr(path), "PATH")


def test_a_data_folder_answers_everything_outside_it_in_one_sentence(rooted):
    root, outside = rooted
    outside_paths = [str(outside / "out.csv"), str(outside / "passwd"), str(outside / "missing.csv"),
                     str(outside), str(outside / "*.csv"), str(outside / "passw[d]"), str(root / "link.csv"),
                     str(root / "linkdir"), str(root / "linkdir" / "passwd"), str(root / "linkdir" / "none.csv"),
                     str(root / ".." / "outside" / "out.csv"), "../outside/out.csv", "/etc/passw[d]", "/nowhere.csv",
                     str(root / "missing.csv"), "missing.csv"]
    messages = {_message(path, root) for path in outside_paths}
    assert len(messages) == 1, messages
    assert "under this server's data folder" in messages.pop()


def test_a_data_folder_keeps_helpful_messages_inside_it(rooted):
    root, _ = rooted
    assert "not named like a CSV" in _message(str(root / "notes.md"), root)
    assert "No CSV or Parquet files match" in _message(str(root / "*.md"), root)


def test_a_data_folder_resolves_relative_paths_under_it_to_real_files(rooted):
    root, _ = rooted
    real = os.path.realpath(root / "inside.csv")
    assert _sources("inside.csv", root=str(root)).files == (real,)
    assert _sources(str(root / "*.csv"), root=str(root)).files == (real,)     # the symlink out is not there
    assert _sources(str(root), root=str(root)).files == (real,)


# -- no message quotes a cell or the header of a file the person did not upload -------------------------------
def test_a_header_only_file_is_refused_without_quoting_its_line(tmp_path):
    path = tmp_path / "resolv.csv"
    path.write_text(f"nameserver {SECRET}\n")
    with pytest.raises(nbapp.DataError, match=r"resolv\.csv.*no data rows") as caught:
        sample_rows(path, 10)
    assert SECRET not in str(caught.value)


def test_a_bad_number_is_located_not_quoted(tmp_path):
    path = tmp_path / "late.csv"
    path.write_text("y,h\na,1\nb,2\na," + SECRET + "\n")
    with pytest.raises(nbapp.DataError, match=r"Column 'h' is numeric but data row 2 of '.*late.csv' \(line 4") \
            as caught:
        nbapp.fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y")
    assert SECRET not in str(caught.value)


def test_a_summary_error_names_the_column_not_the_values(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("y,b\n" + "".join(f"{'ab'[i % 2]},{SECRET}{i % 3}\n" for i in range(40)))
    for run in (lambda: nbapp.fit_file(nbapp.NaiveBayes({"b": "bernoulli"}), path, "y"),
                lambda: nbapp.cross_validate_file(nbapp.NaiveBayes({"b": "bernoulli"}), path, "y", k=2)):
        with pytest.raises(nbapp.DataError, match="'b'") as caught:
            run()
        assert SECRET not in str(caught.value)


def test_a_file_sharing_no_column_with_the_model_does_not_list_its_header(tmp_path):
    _table(tmp_path / "a.csv")
    (tmp_path / "b.csv").write_text(f"{SECRET}\n1\n")
    with pytest.raises(nbapp.DataError, match="b.csv") as caught:
        nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical"}), tmp_path, "y")
    assert SECRET not in str(caught.value)
    with pytest.raises(nbapp.DataError, match=r"Column 'z' is not in .*a.csv'; its columns are \['x', 'y'\]"):
        nbapp.fit_file(nbapp.NaiveBayes({"x": "categorical", "z": "categorical"}), tmp_path / "a.csv", "y")


def test_unquoted_keeps_the_names_it_is_given_and_nothing_else():
    from nbapp.scale.files import _unquoted

    message = "Column 'b' of 'f.csv' holds 'it\\'s', \"x'y\" and 'z'; the model's file isn't 'b'."
    assert _unquoted(message, {"b", "f.csv"}) == ("Column 'b' of 'f.csv' holds '…', '…' and '…'; the model's "
                                                 "file isn't 'b'.")
    assert _unquoted("an unclosed 'quote to the end", set()) == "an unclosed '…"
