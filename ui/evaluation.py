"""The Evaluate page: hold-out, k-fold or leave-one-out evaluation of the current work, its
scores, curves and comparisons, and predictions for a new file (pages/4_Evaluate.py is its title
and one call)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import ui
from nbapp import diagnostics, evaluate
from nbapp.errors import DataError
from nbapp.io import predictions_frame, safe_csv_bytes
from ui import charts
from ui.classes import label_format, labels_of
from ui.kept import keep, kept, kept_key, kept_or_build
from ui.link_rules import CHOICE_RULES
from ui.numbers import number_columns, number_styler
from ui.text import counted

__all__ = ["evaluation_page_ui", "METHODS", "MAX_LEAVE_ONE_OUT"]

ss = st.session_state
METHODS = {"kfold": "k-fold cross-validation (stratified)", "loo": "leave-one-out (k = n)",
           "holdout": "hold-out split (stratified)"}
#: Leave-one-out fits one model per row: beyond this many rows k-fold says nearly as much, far sooner.
MAX_LEAVE_ONE_OUT = 2_000
RULES = {name: CHOICE_RULES[f"evaluate.{name}"] for name in ("method", "k", "test_size", "seed")}   # a link's, checked
DEFAULTS = {name: rule.default for name, rule in RULES.items()}
RESULT = "evaluate.result"      # the evaluation in use (ui.kept), for its work and options
COMPARE = "evaluate.compare"    # the work's choice: logistic regression beside Naive Bayes (kept across pages)


def _options() -> dict[str, Any]:
    """The evaluation's options: the work's choices "evaluate.<name>", else the defaults."""
    work = ui.work()
    opts = {name: work.choice(f"evaluate.{name}", default) for name, default in DEFAULTS.items()}
    return opts if opts["method"] in METHODS else {**opts, "method": DEFAULTS["method"]}


def _options_ui() -> dict[str, Any]:
    opts = _options()

    def setter(name: str):
        return lambda v: ui.set_choice(f"evaluate.{name}", v)

    left, middle, right = st.columns(3)
    with left:
        method = ui.synced(st.radio, "Method", key="_eval_method", value=opts["method"], options=list(METHODS),
                           format_func=METHODS.get, on_set=setter("method"))
    with middle:
        if method == "kfold":
            ui.synced(st.number_input, "Folds k", key="_eval_k", value=int(opts["k"]), min_value=RULES["k"].low,
                      max_value=RULES["k"].high,
                      step=1, on_set=setter("k"))
        elif method == "loo":
            st.caption("Each row is tested by a model fitted on all the others: as many folds as rows.")
        else:
            ui.synced(st.slider, "Test share", key="_eval_test_size", value=float(opts["test_size"]),
                      min_value=RULES["test_size"].low, max_value=RULES["test_size"].high, step=0.05,
                      on_set=setter("test_size"))
    with right:
        ui.synced(st.number_input, "Random seed", key="_eval_seed", value=int(opts["seed"]), min_value=0,
                  max_value=RULES["seed"].high, step=1, on_set=setter("seed"))
    return _options()


def _model_factory() -> Any:
    """The zero-argument factory of unfitted models of the current work (as the evaluation's)."""
    return ui.work().make_model


def _evaluated_data() -> pd.DataFrame:
    from nbapp.propose import check_target

    return check_target(ui.frame(), ui.work().target)[0]


def _run(opts: dict[str, Any]) -> evaluate.Evaluation | None:
    """Evaluate the current configuration; kept in session state until something changes."""
    work = ui.work()
    key = (work.model_key(), tuple(sorted(opts.items())))  # the evaluation refits the work, never an import
    cached = kept(RESULT, key)
    if cached is not None:
        return cached
    target = work.target
    make_model = _model_factory()
    bar = st.progress(0.0, text="Evaluating…")

    def progress(done: int, total: int, message: str) -> None:
        bar.progress(done / total, text=message)

    if work.source.folds_where_stored:        # big data: k-fold where the rows are (out of core)
        return _run_where_stored(key, make_model(), opts, bar)
    try:
        data = _evaluated_data()
        if opts["method"] == "loo" and len(data) > MAX_LEAVE_ONE_OUT:
            raise DataError(f"Leave-one-out would fit {len(data):,} models; it is offered up to "
                            f"{MAX_LEAVE_ONE_OUT:,} rows. Choose k-fold cross-validation (k = 10 is close to it).")
        if opts["method"] in ("kfold", "loo"):
            k = len(data) if opts["method"] == "loo" else int(opts["k"])
            result = evaluate.cross_validate(make_model, data, target, k=k, seed=int(opts["seed"]),
                                             weight=work.weight, progress=progress)
        else:
            result = evaluate.holdout(make_model, data, target, test_size=float(opts["test_size"]),
                                      seed=int(opts["seed"]), weight=work.weight, progress=progress)
    except DataError as err:
        bar.empty()
        ui.show_error(err)
        return None
    bar.empty()
    return keep(RESULT, key, result)


def _cached(name: str, build: Any) -> Any:
    """A result derived from the evaluation in use, computed once per evaluation."""
    return kept_or_build(f"evaluate.{name}", kept_key(RESULT), build)


def _run_where_stored(key: Any, model: Any, opts: dict[str, Any], bar: Any) -> evaluate.Evaluation | None:
    """k-fold on every row where the source keeps them (a local path: two streamed passes, folds by
    a hash of each row's place; a database: the folds' statistics one GROUP BY inside it; each
    fold's model is the total statistics minus the fold's)."""
    from nbapp.scale import Stopped

    work = ui.work()
    source = work.source
    if opts["method"] != "kfold":
        st.info(f"{source.evaluated_where} the Evaluate page cross-validates (k-fold); hold-out is for uploads.")
    k = int(opts["k"])

    def progress(done: int, total: int) -> None:
        step = "summarising the folds" if done <= total // 2 else "predicting each row with its fold's model"
        bar.progress(min(done / max(total, 1), 1.0), text=f"{k}-fold on every row: {step} ({done:,} of {total:,})")

    try:
        result = source.cross_validate(model, work, k=k, progress=progress)
    except DataError as err:
        bar.empty()
        ui.show_error(err)
        return None
    except Stopped:
        st.stop()           # the session was closed: nobody waits for the scores
    bar.empty()
    st.caption(f"Folds are assigned {source.folds_dealt} (the seed is not used); "
               f"the table of predictions keeps the first {len(result.predictions):,} of {result.scores.n:,} rows.")
    return keep(RESULT, key, result)


def _scores_ui(result: evaluate.Evaluation) -> None:
    s = result.scores
    c1, c2, c3, c4, c5, c6 = st.columns(6)
    c1.metric("Accuracy", f"{s.accuracy:.3f}")
    c2.metric("Macro F1", f"{s.macro_f1:.3f}")
    c3.metric("Cohen's kappa", f"{s.kappa:.3f}", help="Agreement with the truth beyond what the class shares "
              "alone give: 0 is chance, 1 every row right.")
    c4.metric("Log-loss", ui.fmt_number(s.log_loss))
    c5.metric("Log-loss, clipped", ui.fmt_number(s.log_loss_clipped))
    c6.metric("Test cases", f"{s.n:,}")
    st.caption(f"Log-loss is −mean log P(true class), exact. The clipped one first clips each probability to "
               f"[ε, 1 − ε] with ε = {evaluate.CLIP_EPS:.3g}, as scikit-learn's log_loss does, so one row "
               "adds at most 36.04 to the sum.")
    if s.undetermined:
        were = "was" if s.undetermined == 1 else "were"
        st.info(f"{counted(s.undetermined, 'test case')} {were} undetermined (every class had probability 0); "
                "they count as wrong.")
    in_memory = result.folds is not None        # a local path is evaluated out of core, without its rows
    if in_memory:
        _log_loss_rows_ui(result)
    _confusion_ui(result)
    _curves_ui(result)
    if in_memory:
        _comparison_ui(result)
        _importance_ui(result)
    predictions_csv = ui.download_bytes("eval_predictions", kept_key(RESULT), lambda: safe_csv_bytes(
        diagnostics.predictions_with_inputs(result, _evaluated_data()) if in_memory else result.predictions))
    st.download_button("Download the out-of-sample predictions (CSV)", predictions_csv,
                       file_name="evaluation_predictions.csv", mime="text/csv", key="eval.download")
    st.caption("One row per test case: its row number in the data, every input column (an ID column included), "
               "the fold, the true and predicted class and the probabilities.")


def _log_loss_rows_ui(result: evaluate.Evaluation) -> None:
    s = result.scores
    dominated = not np.isfinite(s.log_loss) or s.log_loss > 2 * s.log_loss_clipped + 0.01
    # Kept open by its own state, so that its toggle does not close it (issue 33, item 5)
    section = st.expander("Rows that dominate the log-loss", key="eval.log_loss_section", on_change="rerun",
                          expanded=dominated or bool(ss.get("eval.log_loss_section")))
    if not section.open:
        return
    with section:
        if not dominated and not st.toggle("Find them (refits the models of their folds)", key="eval.log_loss_find"):
            return
        try:
            report = _cached("log_loss_report", lambda: diagnostics.log_loss_report(
                result, _model_factory(), _evaluated_data(), top=10))
        except DataError as err:
            ui.show_error(err)
            return
        for advice in report.advice:
            st.warning(ui.md(advice))
        st.dataframe(report.rows, hide_index=True, key="eval.log_loss_rows", column_config=number_columns(
            report.rows, {"share": st.column_config.NumberColumn("share of the loss", format="percent")}))


def _confusion_ui(result: evaluate.Evaluation) -> None:
    s = result.scores
    left, right = st.columns(2)
    with left:
        normalise = st.toggle("Show shares of each true class", key="eval.confusion_normalise")
        by_rows = st.toggle("Most frequent classes first", key="eval.confusion_sorted", value=True)
        confusion = s.confusion
        if by_rows:
            order = list(s.per_class["support"].sort_values(ascending=False, kind="stable").index)
            extra = [c for c in confusion.columns if c not in set(order)]
            confusion = confusion.reindex(index=order, columns=[*order, *extra])
        name = label_format(list(result.classes))
        shown = confusion.rename(index=name, columns=name)       # 1 and "1" stay two rows and columns
        charts.show(st, charts.confusion_heatmap(shown, normalise=normalise), key="eval.confusion")
    with right:
        st.markdown("**Per class**")
        st.dataframe(s.per_class.set_axis(labels_of(s.per_class.index)).style.format(
            {"precision": "{:.3f}", "recall": "{:.3f}", "f1": "{:.3f}", "support": "{:,.0f}"}), key="eval.per_class")
        if result.method == "kfold":
            st.markdown("**Accuracy per fold**")
            folds = pd.DataFrame({"fold": np.arange(1, len(result.fold_scores) + 1),
                                  "accuracy": result.fold_accuracy.to_numpy()})
            st.dataframe(folds, hide_index=True, key="eval.folds", column_config=number_columns(folds))


def _curves_ui(result: evaluate.Evaluation) -> None:
    st.subheader("ROC and precision-recall")
    classes = list(result.classes)
    two = len(classes) == 2
    left, right = st.columns(2)
    positive = left.selectbox("Positive class" if two else "Class (one against the rest)", classes,
                              index=len(classes) - 1 if two else 0, format_func=label_format(classes),
                              key="eval.curve_class")
    threshold = right.slider("Threshold: positive when P(class) ≥", 0.0, 1.0, 0.5, 0.01, key="eval.threshold")
    try:
        found = _cached(f"curves::{classes.index(positive)}", lambda: diagnostics.curves(result, positive))
    except DataError as err:
        st.info(ui.md(err))
        return
    point = found.at(threshold)
    charts.show(left, charts.roc_chart(found.roc, point, positive, found.roc_auc), key="eval.roc")
    charts.show(right, charts.pr_chart(found.pr, point, positive, found.average_precision), key="eval.pr")
    st.dataframe(point.to_frame().T, hide_index=True, key="eval.threshold_table")
    if not two and result.folds is not None:
        st.markdown("**Every class against the rest: the area under each ROC curve**")
        try:
            summary = _cached("roc_summary", lambda: diagnostics.roc_summary(result))
        except DataError as err:
            st.info(ui.md(err))
            return
        st.dataframe(summary.set_axis([*labels_of(summary.index[:-2]), *summary.index[-2:]]), key="eval.roc_summary",
                     column_config={"roc_auc": st.column_config.NumberColumn("ROC AUC", format="%.4f")})
        st.caption("The macro mean weighs every class alike; the weighted mean by its test rows (scikit-learn's "
                   "roc_auc_score with multi_class='ovr').")


def _comparison_ui(result: evaluate.Evaluation) -> None:
    if not ui.synced(st.toggle, "Compare with other classifiers (scikit-learn) on the same folds",
                     key="eval.compare", value=bool(ui.work().choice(COMPARE, False)),
                     on_set=lambda v: ui.set_choice(COMPARE, bool(v))):
        return
    from nbapp.baseline import BASELINES, baseline_encodings
    from nbapp.sklearn import baseline_scores

    chosen = st.multiselect("Classifiers beside Naive Bayes", list(BASELINES), default=["logistic"],
                            format_func=lambda b: BASELINES[b][0], key="eval.baselines")
    specs = ui.specs()
    rows = {"Naive Bayes (nbapp)": result.scores}
    try:
        encodings = baseline_encodings(specs)         # a column the baselines cannot encode is refused here
        for baseline in chosen:
            title = BASELINES[baseline][0]
            with st.spinner(f"Fitting {title.lower()} on each fold…"):
                rows[f"{title} (every column, encoded as listed)"] = _cached(
                    f"baseline::{baseline}", lambda: baseline_scores(result, _evaluated_data(), specs, baseline))
    except DataError as err:
        ui.show_error(err)
        return
    # Tables of the page's width, their text wrapped: side by side in grids, the last scores and
    # the encodings were cut at 1400 px (issue 33, item 5).
    scores = pd.DataFrame({name: {"accuracy": s.accuracy, "macro F1": s.macro_f1, "Cohen's kappa": s.kappa,
                                  "log-loss": s.log_loss, "log-loss, clipped": s.log_loss_clipped}
                           for name, s in rows.items()}).T
    st.table(number_styler(scores))
    st.caption(" ".join(f"{BASELINES[b][0]}: {BASELINES[b][1]}." for b in chosen) + " Cohen's kappa: agreement "
               "with the truth beyond what the class shares alone give (0: chance, 1: every row right).")
    st.markdown("**How the other classifiers read each column**")
    _small_table(encodings, key="eval.encodings")


def _small_table(frame: pd.DataFrame, *, key: str, rows: int = 30) -> None:
    """``frame`` as a table of wrapped text, nothing cut; a grid (which scrolls) beyond ``rows`` rows."""
    if len(frame) <= rows:
        st.table(ui.md_table(frame), hide_index=True)
    else:
        st.dataframe(frame, hide_index=True, key=key)


def _importance_ui(result: evaluate.Evaluation) -> None:
    if not st.toggle("Per-feature importance (cross-validates once without each feature)", key="eval.importance"):
        return
    opts = _options()
    try:
        with st.spinner("Cross-validating without each feature…"):
            table = _cached("importance", lambda: diagnostics.feature_importance(
                ui.current_model(), _evaluated_data(), k=int(opts["k"]) if opts["method"] == "kfold" else 5,
                seed=int(opts["seed"]), weight=ui.work().weight))
    except DataError as err:
        ui.show_error(err)
        return
    st.dataframe(table, key="eval.importance_table", column_config=number_columns(table))
    st.caption("mean_abs_log_odds: how far the feature moves the log-odds between the predicted class and the "
               "runner-up, averaged over the rows. log_loss_increase: cross-validated log-loss without the "
               "feature minus with it (positive: the feature helps).")


def _probability_columns(out: pd.DataFrame, model: Any) -> dict[str, Any]:
    """The P(c) columns of a prediction table with 4 significant digits, tiny ones in scientific
    notation (1.234e-12), never a row of zeros."""
    added = list(out.columns[-len(model.classes_):])
    return {c: st.column_config.NumberColumn(c, format="%.4g") for c in added}


def _batch_ui(model: Any) -> None:
    st.subheader("Predict a new file")
    names = list(model.features_)
    st.caption("A table with the model's feature columns (" + ", ".join(ui.md(c) for c in names[:20])
               + (f" and {len(names) - 20:,} more" if len(names) > 20 else "")
               + "; the target column may be absent). Each row gets the predicted class and one probability "
               "column per class.")
    upload = st.file_uploader("File to predict", type=["csv", "tsv", "txt", "xlsx", "xls", "ods"], key="eval.batch")
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
    st.success(f"Predicted {counted(len(out), 'row')}.")
    st.dataframe(out.head(200), key="eval.batch_table", column_config=_probability_columns(out, model))
    batch_csv = ui.download_bytes("batch_predictions", (ui.model_key(), upload.file_id), lambda: safe_csv_bytes(out))
    st.download_button("Download the predictions (CSV)", batch_csv, file_name="predictions.csv",
                       mime="text/csv", key="eval.batch_download")


def evaluation_page_ui() -> None:
    """The Evaluate page below its title: the evaluation of the current work, the batch prediction
    of a new file, and seed 004's three-way split."""
    model = ui.require_model()
    ui.big_data_note()      # a local path fitted out of core: what the model saw, what the page shows
    if not ui.work().source.has_rows:
        st.info(f"The model file {ui.md(ui.work().source.name)} is open without its data: an evaluation needs "
                "labelled rows (load them on the Data page). A new file can be predicted below.")
    else:
        options = _options_ui()
        if ui.work().imported is not None:
            st.info("The imported model is used for batch prediction below; the evaluation refits the current "
                    "settings on the current data.")
        result = _run(options)
        if result is not None:
            _scores_ui(result)
    _batch_ui(model)

    if ui.work().source.has_rows:      # tuning needs labelled rows: a model opened alone has none
        from ui import teaching      # seed 004's three-way split, a section of its own (issue 14)

        teaching.three_way_ui()
