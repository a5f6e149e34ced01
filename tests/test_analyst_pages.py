"""AppTest of issue 13's analyst parts: the Gaussian epsilon on the Model page, the Evaluate
page's log-loss, curves, comparison and importance, and the workbook sheet picker."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from conftest import biopsy_like
from apptest_helpers import metric, open_page, start, texts, upload
from apptest_helpers import clear_caches, downloads  # noqa: F401 (fixtures)


def _biopsy_with_id_gaussian():
    at = upload(start(), "biopsy.csv", biopsy_like().to_csv(index=False).encode(), check=False)
    assert at.session_state["work"].kinds["ID"] == "ignore"          # the proposal protects the model
    columns = list(at.session_state["work"].kinds)
    at.selectbox(key=f"_type::{columns.index('ID')}").set_value("gaussian").run()
    assert not at.exception
    return at


def test_the_model_page_names_the_column_that_sets_epsilon_and_warns():
    at = open_page(_biopsy_with_id_gaussian(), "Model")
    captions = " ".join(texts(at, "caption"))
    assert "the variance of column ID, the largest" in captions
    assert any("set by column 'ID'" in w for w in texts(at, "warning"))
    at.radio(key="_model_var_smoothing_mode").set_value("per_feature").run()
    assert not at.exception
    assert at.session_state["model"].var_smoothing_mode == "per_feature"
    assert not any("set by column 'ID'" in w for w in texts(at, "warning"))


def _weather_on_evaluate(downloads=None):
    from test_diagnostics import weather

    at = upload(start(), "weather.csv", weather().to_csv(index=False).encode(), check=False)
    assert at.session_state["work"].target == "weather" and at.session_state["work"].kinds["date_id"] == "ignore"
    columns = list(at.session_state["work"].kinds)         # Seattle's case: precipitation read as Gaussian
    at.selectbox(key=f"_type::{columns.index('precipitation')}").set_value("gaussian").run()
    return open_page(at, "Evaluate")


def test_evaluate_shows_exact_and_clipped_log_loss_and_the_row_behind_it():
    from sklearn.metrics import log_loss

    at = _weather_on_evaluate()
    result = at.session_state["kept"]["evaluate.result"][1]
    p = result.predictions[[f"P({c})" for c in result.classes]].fillna(0.0).to_numpy()
    clipped = log_loss(result.predictions["true"], p, labels=list(result.classes))
    assert metric(at, "Log-loss, clipped") == f"{clipped:.4g}"
    assert float(metric(at, "Log-loss")) > 1000
    assert any("[ε, 1 − ε] with ε = 2.22e-16" in c for c in texts(at, "caption"))
    rows = [d.value for d in at.dataframe if "cause" in d.value.columns][0]
    assert rows.iloc[0]["cause"] == "tiny class variance" and rows.iloc[0]["true"] == "sun"
    assert any("tiny" in w and "Raise var" in w for w in texts(at, "warning"))
    assert not any("l = 0" in w for w in texts(at, "warning"))


def test_evaluate_draws_curves_with_a_threshold_and_compares_and_ranks(downloads):
    at = _weather_on_evaluate()
    at.selectbox(key="eval.curve_class").set_value("rain").run()
    at.slider(key="eval.threshold").set_value(0.3).run()
    assert not at.exception
    point = [d.value for d in at.dataframe if "TP" in d.value.columns][0]
    c = at.session_state["kept"]["evaluate.curves::1"][1]
    assert point.iloc[0]["TP"] == int(np.sum((c.score >= 0.3) & c.truth))
    assert len([ch for ch in at.get("plotly_chart")]) >= 3             # confusion, ROC, PR
    at.toggle(key="eval.confusion_normalise").set_value(True).run()
    assert not at.exception
    at.toggle(key="eval.compare").set_value(True).run()
    at.toggle(key="eval.importance").set_value(True).run()
    assert not at.exception and not at.error
    comparison = [d.value for d in at.table if "log-loss, clipped" in d.value.columns][0]
    assert list(comparison.index) == ["Naive Bayes (nbapp)", "Logistic regression (every column, encoded as listed)"]
    importance = [d.value for d in at.dataframe if "mean_abs_log_odds" in d.value.columns][0]
    assert importance.index[0] == "precipitation"
    data, _ = downloads["Download the out-of-sample predictions (CSV)"]
    header = data.decode("utf-8-sig").splitlines()[0]
    assert header.startswith("row,date_id,precipitation,temp_max,wind,fold,true,predicted")


def test_the_confusion_matrix_of_many_classes_keeps_every_label():
    from ui.charts import confusion_heatmap

    classes = [f"class {i:02d}" for i in range(40)]
    counts = pd.DataFrame(np.eye(40, dtype=int) * 5 + 1, index=classes, columns=classes)
    fig = confusion_heatmap(counts, normalise=True)
    assert list(fig.layout.xaxis.tickvals) == classes and list(fig.layout.yaxis.tickvals) == classes
    assert fig.layout.height >= 40 * 18
    np.testing.assert_allclose(np.asarray(fig.data[0].z).sum(axis=1), 1.0)


def test_a_workbook_s_other_sheet_can_be_chosen_on_the_data_page():
    from conftest import ROOT

    data = (ROOT / "tests" / "data" / "two_sheets.xls").read_bytes()
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
        pd.DataFrame({"a": [1, 2], "y": ["p", "q"]}).to_excel(writer, sheet_name="small", index=False)
        biopsy_like().to_excel(writer, sheet_name="biopsy", index=False)
    at = upload(start(), "book.xlsx", buffer.getvalue(),
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", check=False)
    assert at.session_state["frame"].shape == (2, 2)
    first_sha = at.session_state["work"].source.sha256
    at.selectbox(key="_data_sheet").set_value("biopsy").run()
    assert not at.exception and not at.error
    assert at.session_state["frame"].shape == (699, 11)
    assert at.session_state["work"].source.sheet == "biopsy" and at.session_state["work"].source.sha256 != first_sha
    assert at.session_state["work"].target == "class"
    # an old .xls whose first sheet holds no table: refused in place, the other sheet is offered
    at = upload(start(), "two_sheets.xls", data, "application/vnd.ms-excel", check=False)
    assert any("choose another sheet" in e.value for e in at.error)
    at.selectbox(key="_data_sheet").set_value("days").run()
    assert not at.exception and not at.error
    assert list(at.session_state["frame"].columns) == ["Outlook", "Temp", "Day", "Play"]


def test_several_columns_get_one_type_at_once():
    at = upload(start(), "biopsy.csv", biopsy_like().to_csv(index=False).encode(), check=False)
    at.multiselect(key="data.batch_columns").set_value(["V1", "V2", "V3"])
    at.selectbox(key="data.batch_type").set_value("categorical")
    at.button(key="data.batch_set").click().run()
    assert not at.exception
    types = at.session_state["work"].kinds
    assert [types[c] for c in ("V1", "V2", "V3", "V4")] == ["categorical", "categorical", "categorical", "gaussian"]
    assert at.session_state["model"].features_["V2"].kind == "categorical"
