"""fit_file / predict_file: streamed batches through DuckDB give the in-memory model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.scale import fit_file, predict_file

from model_asserts import assert_same_model

FEATURES = {
    "colour": "categorical",
    "member": nbapp.Bernoulli(positive="yes"),
    "height": "gaussian",
    "visits": "poisson",
    "w1": "multinomial",
    "w2": "multinomial",
    "review": "text",
}


def _loaded(path: Path) -> pd.DataFrame:
    return nbapp.load_table(path.read_bytes(), path.name).frame


def _mixed_csv(path: Path, n: int = 1500, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    y = rng.choice(["1", "2", "3"], n)
    height = np.round(rng.normal(170, 10, n) + (y == "2") * 5, 2).astype(str).astype(object)
    height[rng.random(n) < 0.05] = "N/A"          # load_table's missing tokens
    height[rng.random(n) < 0.02] = " ?"
    colour = rng.choice(["red", " blue", "green ", "n/a", "-"], n)   # "-" is a value in text
    frame = pd.DataFrame({
        "y": y,
        "colour": colour,
        "member": rng.choice(["yes", "no", ""], n),
        "height": height,
        "visits": rng.poisson(3, n),
        "w1": rng.poisson(2, n),
        "w2": rng.poisson(1, n),
        "review": rng.choice(["great value, would buy", "the worst; never again", "ok I guess", ""], n),
        "unused": rng.random(n),
    })
    frame.to_csv(path, index=False)
    return path


def test_fit_file_equals_fit_on_load_table_for_every_feature_type(tmp_path):
    path = _mixed_csv(tmp_path / "mixed.csv")
    frame = _loaded(path)
    streamed = fit_file(nbapp.NaiveBayes(FEATURES), path, "y", batch_rows=128)
    memory = nbapp.NaiveBayes(FEATURES).fit(frame, "y")
    assert_same_model(streamed, memory, frame)
    assert streamed.classes_ == [1, 2, 3]          # "1" is the number 1, as load_table reads it
    assert "-" in streamed.counts("colour").index   # a text value, not missing, as in load_table
    assert "n/a" not in streamed.counts("colour").index


def test_fit_file_keeps_codes_with_leading_zeros_as_text(tmp_path):
    path = tmp_path / "codes.csv"
    path.write_text("y,code\n01,007\n02,7\n01,010\n02,7\n")
    streamed = fit_file(nbapp.NaiveBayes({"code": "categorical"}), path, "y", batch_rows=1)
    memory = nbapp.NaiveBayes({"code": "categorical"}).fit(_loaded(path), "y")
    assert streamed.classes_ == memory.classes_ == ["01", "02"]
    assert list(streamed.counts("code").index) == list(memory.counts("code").index) == ["007", "010", "7"]


def test_fit_file_reads_a_target_of_decimals_as_numbers(tmp_path):
    path = tmp_path / "decimal.csv"
    path.write_text("y,x\n1.5,a\n2,b\n1.5,b\n")
    streamed = fit_file(nbapp.NaiveBayes({"x": "categorical"}), path, "y")
    assert streamed.classes_ == nbapp.NaiveBayes({"x": "categorical"}).fit(_loaded(path), "y").classes_ == [1.5, 2.0]


def test_fit_file_names_file_row_and_column_of_a_late_bad_number(tmp_path):
    path = tmp_path / "late.csv"
    rows = ["y,h"] + [f"{'ab'[i % 2]},{i}.5" for i in range(3000)] + ["a,tall"]
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(nbapp.DataError, match=r"Column 'h' is numeric but data row 3000 of '.*late.csv' "
                                              r"\(line 3002.*holds a cell that is not a number"):
        fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y", batch_rows=500)


def test_fit_file_names_the_file_of_a_missing_target(tmp_path):
    path = tmp_path / "holes.csv"
    path.write_text("y,x\na,1\n,2\nb,3\n")
    with pytest.raises(nbapp.DataError, match=r"holes.csv.*target 'y' is missing in 1 row\(s\) \(first: 1\)"):
        fit_file(nbapp.NaiveBayes({"x": "categorical"}), path, "y")


def test_fit_file_refuses_a_missing_column_and_a_missing_path(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("y,x\na,1\nb,2\n")
    with pytest.raises(nbapp.DataError, match=r"Column 'z' is not in .*a.csv"):
        fit_file(nbapp.NaiveBayes({"z": "categorical"}), path, "y")
    with pytest.raises(nbapp.DataError, match="no file or folder"):
        fit_file(nbapp.NaiveBayes({"x": "categorical"}), tmp_path / "nope.csv", "y")


def test_fit_file_reads_decimal_commas_in_the_form_load_table_decides_for_the_file(tmp_path):
    """k holds only decimal commas, so load_table reads this semicolon file with decimal commas:
    k is 1.5, 2.5, 3.0 (fit_file refused it as a guess before) and h, whose '1.5' is no number
    of that form, is text. fit_file reads k the same, and refuses h as a Gaussian, naming the row."""
    path = tmp_path / "semi.csv"
    path.write_text("y;h;k\na;1.5;1,5\nb;2,5;2,5\na;3.0;3,0\n")
    loaded = _loaded(path)
    assert loaded["k"].tolist() == [1.5, 2.5, 3.0] and loaded["h"].dtype.kind not in "if"
    with pytest.raises(nbapp.DataError, match=r"Column 'h' is numeric but data row 0 .* holds a number with a decimal "
                                              r"point in a file that writes decimal commas"):
        fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y")
    for kind in ("categorical", "gaussian"):
        streamed = fit_file(nbapp.NaiveBayes({"k": kind}), path, "y")
        memory = nbapp.NaiveBayes({"k": kind}).fit(loaded, "y")
        assert_same_model(streamed, memory, loaded)
    assert list(fit_file(nbapp.NaiveBayes({"k": "categorical"}), path, "y").counts("k").index) == [1.5, 2.5, 3.0]


def test_fit_file_reads_thousands_commas_in_a_tab_separated_file_of_decimal_points(tmp_path):
    """A tab-separated file whose numbers do not say "decimal comma": load_table reads '1,500'
    as 1500 (a thousands comma), and so does fit_file now (it refused the cell before)."""
    path = tmp_path / "tabs.tsv"
    path.write_text("y\th\na\t1,500\nb\t2\na\t3,250\n")
    assert _loaded(path)["h"].tolist() == [1500, 2, 3250]
    streamed = fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y")
    assert_same_model(streamed, nbapp.NaiveBayes({"h": "gaussian"}).fit(_loaded(path), "y"), _loaded(path))


def _large_semicolon_file(path: Path, other: str, delimiter: str = ";") -> Path:
    """A semicolon-separated file larger than fit_file's head (SAMPLE_BYTES): 'h' holds cells such
    as '1.234' (1.234 or 1234, by the file's form), ``other`` the cells of a column 'o'."""
    from nbapp.scale._files import SAMPLE_BYTES

    rows = SAMPLE_BYTES // 10 + 1000
    rng = np.random.default_rng(0)
    lines = [delimiter.join(["ab"[i % 2], f"{int(rng.integers(1, 10))}.{int(rng.integers(100, 1000))}", other])
             for i in range(rows)]
    path.write_text(delimiter.join("yho") + "\n" + "\n".join(lines) + "\n")
    assert path.stat().st_size > SAMPLE_BYTES
    return path


def test_a_large_file_whose_head_decides_decimal_commas_refuses_a_cell_the_other_form_reads_1000x_apart(tmp_path):
    """Beyond its head, fit_file does not read ahead the cells of the columns it does not use, whose
    evidence load_table weighs: in a tab-separated file whose unused column 'o' holds decimal
    commas, '1.234' in 'h' is 1234 for the head, and would be 1.234 for the whole file if a later
    cell of 'o' were text. The cell is refused with its column, row and fix."""
    path = _large_semicolon_file(tmp_path / "big.csv", "3,5", "\t")
    with pytest.raises(nbapp.DataError, match=r"Column 'h': data row 0 of .*big.csv.* \(line 2 if no cell spans "
                                              r"lines\) holds a number such as 1.234.* Write the number so"):
        fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y")


def test_a_large_semicolon_file_without_a_decimal_point_column_reads_as_load_table(tmp_path):
    """A semicolon file is read with decimal commas unless a column says "decimal points": 'h', the
    only column that could say so further down, is read as numbers in the comma form (a cell of
    the other form is refused), so the head's decision holds: '1.234' is 1234, as in load_table."""
    path = _large_semicolon_file(tmp_path / "big.csv", "3,5")
    loaded = _loaded(path)
    assert loaded["h"].min() > 1000 and loaded["o"].iloc[0] == 3.5
    assert_same_model(fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y"),
                      nbapp.NaiveBayes({"h": "gaussian"}).fit(loaded, "y"), loaded.head(100), rtol=1e-9)


def test_a_large_file_whose_form_a_number_column_confirms_reads_as_load_table(tmp_path):
    """'o' is read as numbers by the model and holds '0.5' (a decimal point, no number of the comma
    form): the file is read with decimal points whatever the rest holds, as load_table reads it."""
    path = _large_semicolon_file(tmp_path / "big.csv", "0.5")
    model = nbapp.NaiveBayes({"h": "gaussian", "o": "gaussian"})
    loaded = _loaded(path)
    assert loaded["h"].max() < 10
    assert_same_model(fit_file(model, path, "y"), nbapp.NaiveBayes({"h": "gaussian", "o": "gaussian"}).fit(loaded, "y"),
                      loaded.head(100), rtol=1e-9)


def test_the_path_sample_reads_numbers_in_the_form_the_fit_reads(tmp_path):
    """The sample's first rows hold only '1.234'-like cells, which alone make a semicolon file a
    decimal-comma one (1234); a later row of the head holds '0.5': the file has decimal points.
    sample_rows reads its rows in that form, as fit_file and load_table of the file do."""
    from nbapp.scale import sample_rows

    path = tmp_path / "s.csv"
    path.write_text("y;h\n" + "a;1.234\nb;2.500\n" * 10 + "a;0.5\n")
    assert _loaded(path)["h"].tolist()[:2] == [1.234, 2.5]
    assert sample_rows(path, 4)["h"].tolist() == [1.234, 2.5, 1.234, 2.5]
    assert nbapp.load_table(path.read_bytes(), "s.csv", max_rows=4).frame["h"].tolist()[0] == 1234  # its 4 rows alone
    assert_same_model(fit_file(nbapp.NaiveBayes({"h": "gaussian"}), path, "y"),
                      nbapp.NaiveBayes({"h": "gaussian"}).fit(_loaded(path), "y"), _loaded(path))


def test_files_of_different_number_forms_are_not_read_together(tmp_path):
    (tmp_path / "a.csv").write_text("y;h\na;1,5\nb;2,5\n")
    (tmp_path / "b.csv").write_text("y;h\na;1.5\nb;2.5\n")
    with pytest.raises(nbapp.DataError, match=r"b.csv' writes its numbers with decimal points and .*a.csv' with "
                                              r"decimal commas"):
        fit_file(nbapp.NaiveBayes({"h": "gaussian"}), tmp_path, "y")


def test_fit_file_reads_thousands_separators_in_a_comma_separated_file(tmp_path):
    path = tmp_path / "thousands.csv"
    path.write_text('y,h,k\na,"1,500.5","1,000"\nb,2,"2,000"\na,3,"1,000"\n')
    streamed = fit_file(nbapp.NaiveBayes({"h": "gaussian", "k": "categorical"}), path, "y")
    memory = nbapp.NaiveBayes({"h": "gaussian", "k": "categorical"}).fit(_loaded(path), "y")
    assert list(streamed.counts("k").index) == list(memory.counts("k").index) == [1000, 2000]
    pd.testing.assert_frame_equal(streamed.parameters("h"), memory.parameters("h"))


def test_fit_file_on_a_folder_and_a_glob_equals_fit_on_all_rows(tmp_path):
    folder = tmp_path / "parts"
    folder.mkdir()
    parts = [_mixed_csv(folder / f"part{i}.csv", n=400, seed=i) for i in range(3)]
    frame = pd.concat([_loaded(p) for p in parts], ignore_index=True)
    memory = nbapp.NaiveBayes(FEATURES).fit(frame, "y")
    for source in (folder, str(folder / "part*.csv")):
        assert_same_model(fit_file(nbapp.NaiveBayes(FEATURES), source, "y", batch_rows=100), memory, frame)


def test_fit_file_refuses_a_folder_mixing_csv_and_parquet(tmp_path):
    _mixed_csv(tmp_path / "a.csv", n=10)
    pd.DataFrame({"y": ["a"]}).to_parquet(tmp_path / "b.parquet")
    with pytest.raises(nbapp.DataError, match="both CSV and Parquet"):
        fit_file(nbapp.NaiveBayes(FEATURES), tmp_path, "y")


def test_fit_file_on_parquet_equals_fit_on_read_parquet(tmp_path):
    frame = _loaded(_mixed_csv(tmp_path / "m.csv"))
    frame.to_parquet(tmp_path / "m.parquet")
    streamed = fit_file(nbapp.NaiveBayes(FEATURES), tmp_path / "m.parquet", "y", batch_rows=200)
    memory = nbapp.NaiveBayes(FEATURES).fit(pd.read_parquet(tmp_path / "m.parquet"), "y")
    assert_same_model(streamed, memory, frame)


def test_fit_file_with_weights_equals_weighted_fit(tmp_path):
    path = tmp_path / "w.csv"
    rng = np.random.default_rng(3)
    pd.DataFrame({"y": rng.choice(["a", "b"], 300), "x": rng.choice(["p", "q"], 300),
                  "h": rng.normal(size=300), "w": rng.integers(1, 5, 300)}).to_csv(path, index=False)
    features = {"x": "categorical", "h": "gaussian"}
    streamed = fit_file(nbapp.NaiveBayes(features), path, "y", weight="w", batch_rows=64)
    memory = nbapp.NaiveBayes(features).fit(_loaded(path), "y", weight="w")
    assert_same_model(streamed, memory, _loaded(path))
    assert streamed.weight_ == "w"


def test_fit_file_reports_progress_per_batch_up_to_the_row_count(tmp_path):
    path = _mixed_csv(tmp_path / "p.csv", n=1000)
    calls: list[tuple[int, int]] = []
    fit_file(nbapp.NaiveBayes(FEATURES), path, "y", progress=lambda done, total: calls.append((done, total)),
             batch_rows=300)
    assert calls[-1] == (1000, 1000)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and len(calls) >= 4


def test_fit_file_drops_rows_with_every_cell_blank_as_load_table_does(tmp_path):
    path = tmp_path / "blank.csv"
    path.write_text("y,x\na,1\n,\nb,2\n , \na,2\n")
    streamed = fit_file(nbapp.NaiveBayes({"x": "categorical"}), path, "y")
    np.testing.assert_array_equal(streamed.class_counts_, [2, 1])


# -- predict_file -------------------------------------------------------------------------------
def test_predict_file_to_csv_equals_predict_proba_and_is_spreadsheet_safe(tmp_path):
    path = tmp_path / "in.csv"
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"id": np.arange(500), "y": rng.choice(["=evil", "good"], 500),
                          "x": rng.choice(["p", "q", "r"], 500), "h": rng.normal(size=500)})
    frame.to_csv(path, index=False)
    model = nbapp.NaiveBayes({"x": "categorical", "h": "gaussian"}).fit(_loaded(path), "y")
    out = predict_file(model, path, tmp_path / "out.csv", keep=["id"], batch_rows=64)
    written = pd.read_csv(out, encoding="utf-8-sig")
    assert list(written.columns) == ["file", "row", "id", "predicted", "P(=evil)", "P(good)"]
    expected = model.predict_proba(_loaded(path))
    np.testing.assert_allclose(written[["P(=evil)", "P(good)"]].to_numpy(), expected.to_numpy(), atol=1e-12)
    assert set(written["predicted"]) <= {"'=evil", "good"}
    assert (written["row"] == np.arange(500)).all() and (written["id"] == frame["id"]).all()


def test_predict_file_to_parquet_equals_predict(tmp_path):
    path = _mixed_csv(tmp_path / "in.csv", n=700)
    model = nbapp.NaiveBayes(FEATURES).fit(_loaded(path), "y")
    out = predict_file(model, path, tmp_path / "out.parquet", batch_rows=100)
    written = pd.read_parquet(out)
    assert written["predicted"].tolist() == model.predict(_loaded(path)).tolist()
    np.testing.assert_allclose(written[[f"P({c})" for c in model.classes_]].to_numpy(),
                               model.predict_proba(_loaded(path)).to_numpy(), atol=1e-12)


def test_predict_file_refuses_other_output_suffixes(tmp_path):
    path = _mixed_csv(tmp_path / "in.csv", n=50)
    model = nbapp.NaiveBayes(FEATURES).fit(_loaded(path), "y")
    with pytest.raises(nbapp.DataError, match=r"\.csv or \.parquet"):
        predict_file(model, path, tmp_path / "out.xlsx")


def test_predict_file_refuses_an_unfitted_model(tmp_path):
    path = _mixed_csv(tmp_path / "in.csv", n=20)
    with pytest.raises(nbapp.DataError, match="not fitted"):
        predict_file(nbapp.NaiveBayes(FEATURES), path, tmp_path / "out.csv")


def test_predict_file_refuses_an_output_folder_that_does_not_exist_before_reading(tmp_path):
    model = nbapp.NaiveBayes({"x": "categorical"}).fit(pd.DataFrame({"x": ["a", "b"], "y": ["p", "q"]}), "y")
    with pytest.raises(nbapp.DataError, match=r"the folder '.*no_folder' does not exist; create it"):
        nbapp.predict_file(model, tmp_path / "never_read.csv", tmp_path / "no_folder" / "p.csv")
    with pytest.raises(nbapp.DataError, match="is a folder; give a file name in it"):
        nbapp.predict_file(model, tmp_path / "never_read.csv", tmp_path)
