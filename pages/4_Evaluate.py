"""Evaluate: hold-out or k-fold cross-validation, and predictions for a new file."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import ui
from nbapp import evaluate
from nbapp.errors import DataError
from nbapp.io import predictions_frame, safe_csv_bytes
from ui import charts

ui.ensure_state()
ui.sidebar_summary()
ui.page_header("Evaluate", "How well does this model predict rows it has not seen? Hold some rows out, or "
               "cross-validate; then predict a new file and download the probabilities.")

ss = st.session_state
METHODS = {"kfold": "k-fold cross-validation (stratified)", "holdout": "hold-out split (stratified)"}
DEFAULTS = {"method": "kfold", "k": 5, "test_size": 0.3, "seed": 0}


def _options_ui() -> dict[str, Any]:
    opts = ss.setdefault("eval_options", dict(DEFAULTS))

    def setter(name: str):
        return lambda v: ss.update(eval_options={**ss["eval_options"], name: v})

    left, middle, right = st.columns(3)
    with left:
        method = ui.synced(st.radio, "Method", key="_eval_method", value=opts["method"], options=list(METHODS),
                           format_func=METHODS.get, on_set=setter("method"))
    with middle:
        if method == "kfold":
            ui.synced(st.number_input, "Folds k", key="_eval_k", value=int(opts["k"]), min_value=2, max_value=50,
                      step=1, on_set=setter("k"))
        else:
            ui.synced(st.slider, "Test share", key="_eval_test_size", value=float(opts["test_size"]),
                      min_value=0.1, max_value=0.9, step=0.05, on_set=setter("test_size"))
    with right:
        ui.synced(st.number_input, "Random seed", key="_eval_seed", value=int(opts["seed"]), min_value=0,
                  step=1, on_set=setter("seed"))
    return ss["eval_options"]


def _run(opts: dict[str, Any]) -> evaluate.Evaluation | None:
    """Evaluate the current configuration; kept in session state until something changes."""
    feats = ui.features()
    key = (ui.fit_key(), tuple(sorted(opts.items())))  # the evaluation refits the settings, never an import
    cached = ss.get("eval_result")
    if cached is not None and cached[0] == key:
        return cached[1]
    df, target, config = ui.frame(), ss["target"], ui.settings()
    classes = ui.class_list(df, target)

    def make_model() -> Any:
        return ui.make_model(feats, config, classes)

    bar = st.progress(0.0, text="Evaluating…")

    def progress(done: int, total: int, message: str) -> None:
        bar.progress(done / total, text=message)

    if ss["source"].reader == "path":          # big data: k-fold over the whole file, out of core
        return _run_on_path(key, make_model(), opts, bar)
    try:
        from nbapp.propose import check_target

        data, _notes = check_target(df, target)
        if opts["method"] == "kfold":
            result = evaluate.cross_validate(make_model, data, target, k=int(opts["k"]), seed=int(opts["seed"]),
                                             weight=ss.get("weight"), progress=progress)
        else:
            result = evaluate.holdout(make_model, data, target, test_size=float(opts["test_size"]),
                                      seed=int(opts["seed"]), weight=ss.get("weight"), progress=progress)
    except DataError as err:
        bar.empty()
        ui.show_error(err)
        return None
    bar.empty()
    ss["eval_result"] = (key, result)
    return result


def _run_on_path(key: Any, model: Any, opts: dict[str, Any], bar: Any) -> evaluate.Evaluation | None:
    """k-fold on every row of a local path in two streamed passes (folds by a hash of each row's
    place; each fold's model is the total statistics minus the fold's)."""
    from nbapp.scale import cross_validate_file

    source = ss["source"]
    if opts["method"] != "kfold":
        st.info("On a local path the Evaluate page cross-validates (k-fold); hold-out is for uploads.")
    k = int(opts["k"])

    def progress(done: int, total: int) -> None:
        step = "summarising the folds" if done <= total // 2 else "predicting each row with its fold's model"
        bar.progress(min(done / max(total, 1), 1.0), text=f"{k}-fold on every row: {step} ({done:,} of {total:,})")

    try:
        result = cross_validate_file(model, source.path, ss["target"], k=k, weight=ss.get("weight"), progress=progress)
    except DataError as err:
        bar.empty()
        ui.show_error(err)
        return None
    bar.empty()
    st.caption(f"Folds are assigned by a hash of each row's place in the files (the seed is not used); "
               f"the table of predictions keeps the first {len(result.predictions):,} of {result.scores.n:,} rows.")
    ss["eval_result"] = (key, result)
    return result


def _scores_ui(result: evaluate.Evaluation) -> None:
    s = result.scores
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Accuracy", f"{s.accuracy:.3f}")
    c2.metric("Macro F1", f"{s.macro_f1:.3f}")
    c3.metric("Log-loss", ui.fmt_number(s.log_loss))
    c4.metric("Test cases", f"{s.n:,}")
    if not np.isfinite(s.log_loss):
        st.warning(f"{s.zero_probability} test case(s) gave their true class probability 0 (possible with "
                   "l = 0), so the log-loss is infinite. Smoothing (l > 0) avoids this.")
    if s.undetermined:
        st.info(f"{s.undetermined} test case(s) were undetermined (every class had probability 0); "
                "they count as wrong.")
    left, right = st.columns(2)
    left.plotly_chart(charts.confusion_heatmap(s.confusion), key="eval.confusion")
    with right:
        st.markdown("**Per class**")
        st.dataframe(s.per_class.rename(index=str).style.format(
            {"precision": "{:.3f}", "recall": "{:.3f}", "f1": "{:.3f}"}), key="eval.per_class")
        if result.method == "kfold":
            st.markdown("**Accuracy per fold**")
            folds = pd.DataFrame({"fold": np.arange(1, len(result.fold_scores) + 1),
                                  "accuracy": result.fold_accuracy.to_numpy()})
            st.dataframe(folds, hide_index=True, key="eval.folds")
    predictions_csv = ui.download_bytes("eval_predictions", ss["eval_result"][0],
                                        lambda: safe_csv_bytes(result.predictions))
    st.download_button("Download the out-of-sample predictions (CSV)", predictions_csv,
                       file_name="evaluation_predictions.csv", mime="text/csv", key="eval.download")


def _batch_ui(model: Any) -> None:
    st.subheader("Predict a new file")
    names = list(model.features_)
    st.caption("A table with the model's feature columns (" + ", ".join(ui.md(c) for c in names[:20])
               + (f" and {len(names) - 20:,} more" if len(names) > 20 else "")
               + "; the target column may be absent). Each row gets the predicted class and one probability "
               "column per class.")
    upload = st.file_uploader("File to predict", type=["csv", "tsv", "txt", "xlsx"], key="eval.batch")
    if upload is None:
        return
    try:
        from nbapp.io import load_table

        table = load_table(upload.getvalue(), upload.name)
        frame = table.frame
        absent = [c for c in model.features_ if c not in frame.columns]
        if len(absent) == len(model.features_):
            raise DataError(f"{upload.name!r} has none of the model's feature columns "
                            f"({', '.join(map(str, model.features_))}); check the header row.")
        out = predictions_frame(model, frame)
    except DataError as err:
        ui.show_error(err)
        return
    if absent:
        st.warning("Missing feature columns are treated as missing values: " + ", ".join(ui.md(c) for c in absent))
    st.success(f"Predicted {len(out):,} rows.")
    st.dataframe(out.head(200), key="eval.batch_table")
    batch_csv = ui.download_bytes("batch_predictions", (ui.model_key(), upload.file_id), lambda: safe_csv_bytes(out))
    st.download_button("Download the predictions (CSV)", batch_csv, file_name="predictions.csv",
                       mime="text/csv", key="eval.batch_download")


model = ui.require_model()
ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
if ss["source"].reader == "model":
    st.info(f"The model file {ui.md(ss['source'].name)} is open without its data: an evaluation needs labelled "
            "rows (load them on the Data page). A new file can be predicted below.")
else:
    options = _options_ui()
    if ss.get("imported") is not None:
        st.info("The imported model is used for batch prediction below; the evaluation refits the current "
                "settings on the current data.")
    result = _run(options)
    if result is not None:
        _scores_ui(result)
_batch_ui(model)

from ui import teaching  # noqa: E402 - seed 004's three-way split, a section of its own (issue 14)

teaching.three_way_ui()
