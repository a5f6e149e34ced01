"""What stands behind an evaluation's numbers (issue 13): the rows that dominate the log-loss
and why, ROC and precision-recall curves, each feature's weight over the whole dataset, and
the out-of-sample predictions next to the input columns.

All of it reads an :class:`nbapp.evaluate.Evaluation` (its pooled out-of-sample predictions,
and its folds to refit a fold's model where a cause must be named); nothing here changes how
a model is fitted or scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd

from nbapp.blocks.base import FAR_VALUE, TINY_VARIANCE
from nbapp.errors import DataError
from nbapp.evaluate import CLIP_EPS, Evaluation, Progress, _prepare, cross_validate

__all__ = ["roc_summary", "LogLossReport", "log_loss_report", "Curves", "curves", "feature_importance",
           "predictions_with_inputs", "MISSING_CLASS", "ZERO_COUNT", "TINY_VARIANCE", "FAR_VALUE"]

# The causes a dominating row can have, named once (the advice and the tests use them); a
# feature type may name the far-value causes (Block.far_value_cause).
MISSING_CLASS = "class missing from the training part"
ZERO_COUNT = "value never seen with the class (l = 0)"


@dataclass(frozen=True)
class LogLossReport:
    """The log-loss, exact and clipped, with the rows that make most of it.

    ``rows``: the ``top`` rows of largest -log P(true), with ``row``, ``fold``, ``true``,
    ``predicted``, ``P(true)``, ``-log P(true)``, ``share`` (of the summed loss; NaN when the
    sum is infinite), ``cause`` (one of this module's cause names) and ``detail`` (a
    sentence with the feature and numbers). ``advice``: one sentence per cause found.
    """

    log_loss: float
    log_loss_clipped: float
    clip_eps: float
    rows: pd.DataFrame
    advice: tuple[str, ...]


def log_loss_report(evaluation: Evaluation, make_model: Callable[[], Any], df: pd.DataFrame, *,
                    top: int = 10) -> LogLossReport:
    """The ``top`` rows that dominate the log-loss, each with the cause of its small P(true).

    The fold models of those rows are refitted (``make_model`` as for the evaluation, on the
    same training rows) and each row is explained: a true class with no training rows, a
    zero count at l = 0, a cause the feature's type names (``Block.far_value_cause``: a
    Gaussian class variance so small that the value lies many standard deviations out), or
    simply a value that fits another class much better.
    """
    table = evaluation.predictions
    loss = -table["log P(true)"].to_numpy(dtype=float)
    order = np.argsort(-loss, kind="stable")[: max(int(top), 0)]
    total = loss.sum()
    with np.errstate(under="ignore"):
        rows = pd.DataFrame({
            "row": table["row"].to_numpy(dtype=object)[order], "fold": table["fold"].to_numpy()[order],
            "true": table["true"].to_numpy(dtype=object)[order],
            "predicted": table["predicted"].to_numpy(dtype=object)[order],
            "P(true)": np.exp(-loss[order]), "-log P(true)": loss[order],
            "share": loss[order] / total if np.isfinite(total) and total > 0 else np.nan,
        })
    causes = _causes(evaluation, make_model, df, order) if len(order) else []
    rows["cause"] = [c for c, _ in causes]
    rows["detail"] = [d for _, d in causes]
    scores = evaluation.scores
    return LogLossReport(scores.log_loss, scores.log_loss_clipped, CLIP_EPS, rows,
                         _advice(rows, scores.log_loss))


def _causes(evaluation: Evaluation, make_model: Callable[[], Any], df: pd.DataFrame,
            order: np.ndarray) -> list[tuple[str, str]]:
    if evaluation.folds is None or evaluation.positions is None or evaluation.target is None:
        raise DataError("This evaluation keeps no folds; run nbapp.evaluate.cross_validate or holdout again.")
    data, _ = _prepare(df, evaluation.target, evaluation.weight)
    if len(data) != len(evaluation.folds):
        raise DataError("The data given is not the data that was evaluated; pass the same frame.")
    fold_of = evaluation.predictions["fold"].to_numpy()
    models: dict[int, Any] = {}
    out = []
    for i in order:                       # the few dominating rows only
        fold = int(fold_of[i]) - 1
        if fold not in models:
            train = evaluation.folds == -1 if evaluation.method == "holdout" else evaluation.folds != fold
            models[fold] = make_model().fit(data.iloc[np.flatnonzero(train)], target=evaluation.target)
        row = data.iloc[int(evaluation.positions[i])]
        out.append(_cause(models[fold], row.drop(labels=[evaluation.target]).to_dict(),
                          row[evaluation.target], fold + 1, evaluation.method))
    return out


def _cause(model: Any, row: dict[str, Any], true: Any, fold: int, method: str) -> tuple[str, str]:
    """Why P(true | row) is small under this fold's model, in one of the named causes."""
    where = "the training part" if method == "holdout" else f"the training folds of fold {fold}"
    classes = list(model.classes_)
    if true not in classes or model.class_counts_[classes.index(true)] == 0:
        return MISSING_CLASS, (f"class {true!r} has no rows in {where}, so its prior and probability are 0; "
                               "use fewer folds or merge or drop classes this rare")
    explanation = model.explain(row)
    logs = explanation.logs.drop(index="prior")
    decided = not explanation.undetermined and explanation.prediction != true
    rival = explanation.prediction if decided else _runner_up(explanation, true)
    gap = (logs[true] - logs[rival]).fillna(0.0).to_numpy(dtype=float)
    if not len(gap):
        return FAR_VALUE, "no feature was used for this row"
    worst = logs.index[int(np.nanargmin(np.where(np.isnan(gap), np.inf, gap)))]
    value = row.get(worst)
    if np.isneginf(logs.loc[worst, true]):
        return ZERO_COUNT, (f"{worst!r} = {_shown(value)} never occurs with class {true!r} in {where}, and "
                            "with l = 0 that makes P(true) exactly 0; smoothing (l > 0) avoids it")
    known = model.block_of(worst).far_value_cause(worst, value, true, classes)
    if known is not None:
        return known
    return FAR_VALUE, (f"{worst!r} = {_shown(value)} fits class {rival!r} better than {true!r} by "
                       f"{-gap.min():,.1f} in log-probability")


def _runner_up(explanation: Any, true: Any) -> Any:
    posterior = explanation.posterior.drop(index=[true]) if len(explanation.posterior) > 1 else explanation.posterior
    return posterior.idxmax()


def _shown(value: Any) -> str:
    value = value.item() if isinstance(value, np.generic) else value
    return repr(value) if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value)


def _advice(rows: pd.DataFrame, log_loss: float) -> tuple[str, ...]:
    found = rows.loc[rows["-log P(true)"] > -np.log(0.5), "cause"]      # rows that lose, not every top row
    counts = found.value_counts()
    advice = []
    if MISSING_CLASS in counts:
        advice.append(f"{counts[MISSING_CLASS]} row(s) belong to a class with no rows in their training part: "
                      "that class can never be predicted there. Use fewer folds, or merge or drop rare classes.")
    if ZERO_COUNT in counts:
        advice.append(f"{counts[ZERO_COUNT]} row(s) have a value never seen with their class, which l = 0 "
                      "makes impossible. Smoothing (l > 0) avoids this.")
    if TINY_VARIANCE in counts:
        advice.append(f"{counts[TINY_VARIANCE]} row(s) fall far outside a class whose variance is tiny (a "
                      "nearly constant column in that class). Raise var_smoothing, or type the column otherwise.")
    if not advice and not np.isfinite(log_loss):
        advice.append("Some true class got probability 0.")
    return tuple(advice)


@dataclass(frozen=True)
class Curves:
    """ROC and precision-recall curves of one class against the rest, scored by P(class).

    ``roc``: ``threshold`` (descending, the first +inf), ``fpr``, ``tpr``; ``pr``:
    ``threshold`` (ascending, the last +inf), ``precision``, ``recall``: the points of
    scikit-learn's ``roc_curve(drop_intermediate=False)`` and ``precision_recall_curve``.
    A row counts as positive when P(class) >= threshold.
    """

    positive: Any
    truth: np.ndarray
    score: np.ndarray
    roc: pd.DataFrame
    pr: pd.DataFrame
    roc_auc: float
    average_precision: float

    def at(self, threshold: float) -> pd.Series:
        """The confusion counts and rates when P(positive) >= threshold counts as positive."""
        said = self.score >= threshold
        tp = int(np.sum(said & self.truth))
        fp = int(np.sum(said & ~self.truth))
        fn = int(np.sum(~said & self.truth))
        tn = int(np.sum(~said & ~self.truth))
        return pd.Series({"threshold": threshold, "TP": tp, "FP": fp, "FN": fn, "TN": tn,
                          "precision": tp / (tp + fp) if tp + fp else 0.0,
                          "recall": tp / (tp + fn) if tp + fn else 0.0,
                          "false positive rate": fp / (fp + tn) if fp + tn else 0.0,
                          "accuracy": (tp + tn) / len(self.truth)}, dtype=object)


def curves(evaluation: Evaluation, positive: Any) -> Curves:
    """One-vs-rest curves of ``positive`` from the out-of-sample P(positive) (binary: the
    usual curves)."""
    if positive not in evaluation.classes:
        raise DataError(f"{positive!r} is not a class of this evaluation; its classes are {list(evaluation.classes)}.")
    table = evaluation.predictions
    score = table[f"P({positive})"].to_numpy(dtype=float)
    score = np.where(np.isnan(score), 0.0, score)           # a class missing from a training fold
    truth = (table["true"] == positive).to_numpy(dtype=bool)
    if truth.all() or not truth.any():
        raise DataError(f"Every test row is {'' if truth.all() else 'not '}{positive!r}; a curve needs both.")
    fps, tps, thresholds = _counts_at_thresholds(truth, score)
    fpr, tpr = np.r_[0.0, fps] / fps[-1], np.r_[0.0, tps] / tps[-1]
    roc = pd.DataFrame({"threshold": np.r_[np.inf, thresholds], "fpr": fpr, "tpr": tpr})
    precision = np.divide(tps, tps + fps, out=np.zeros(len(tps)), where=(tps + fps) > 0)
    recall = tps / tps[-1]
    pr = pd.DataFrame({"threshold": np.r_[thresholds[::-1], np.inf], "precision": np.r_[precision[::-1], 1.0],
                       "recall": np.r_[recall[::-1], 0.0]})
    average_precision = float(-np.sum(np.diff(pr["recall"].to_numpy()) * pr["precision"].to_numpy()[:-1]))
    return Curves(positive, truth, score, roc, pr, float(np.trapezoid(tpr, fpr)), average_precision)


def roc_summary(evaluation: Evaluation) -> pd.DataFrame:
    """The multiclass ROC summary: each class's one-vs-rest AUC from the out-of-sample
    P(class), then their plain ("macro") and support-weighted means, as scikit-learn's
    ``roc_auc_score(y, P, multi_class="ovr", average="macro" | "weighted")``. A class that is
    every test row or none has no curve and is left out of the means (its AUC shows NaN).
    Index: the classes, then "macro mean" and "weighted mean"; columns ``roc_auc``, ``support``."""
    aucs, support = [], []
    for c in evaluation.classes:
        truth = (evaluation.predictions["true"] == c).to_numpy(dtype=bool)
        support.append(int(truth.sum()))
        aucs.append(curves(evaluation, c).roc_auc if 0 < truth.sum() < len(truth) else np.nan)
    table = pd.DataFrame({"roc_auc": aucs, "support": support},
                         index=pd.Index(list(evaluation.classes), dtype=object, name="class"))
    scored = table.dropna()
    if scored.empty:
        raise DataError("No class has both positive and negative test rows; a ROC curve needs both.")
    means = pd.DataFrame({"roc_auc": [scored["roc_auc"].mean(), np.average(scored["roc_auc"], weights=scored["support"])],
                          "support": [int(scored["support"].sum())] * 2}, index=["macro mean", "weighted mean"])
    return pd.concat([table, means])


def _counts_at_thresholds(truth: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """False and true positives when every distinct score, highest first, is the threshold."""
    order = np.argsort(score, kind="mergesort")[::-1]
    score, truth = score[order], truth[order]
    last = np.r_[np.flatnonzero(np.diff(score)), len(score) - 1]
    tps = np.cumsum(truth)[last].astype(float)
    fps = 1.0 + last - tps
    return fps, tps, score[last]


def feature_importance(model: Any, df: pd.DataFrame, *, cross_validated: bool = True, k: int = 5,
                       seed: int = 0, weight: str | None = None,
                       progress: Progress | None = None) -> pd.DataFrame:
    """Each feature's weight over the whole dataset, one row per feature, largest first.

    ``mean_abs_log_odds``: the mean over the rows of |log P(x_a | c1) - log P(x_a | c2)|,
    c1 the predicted class and c2 the runner-up (seed 000, Eq. 17: the feature's term in the
    log-odds); rows where the feature rules one of the two out are counted in
    ``rows_ruled_out`` and left out of the mean. With ``cross_validated``, ``log_loss_increase``
    (and ``clipped_log_loss_increase``, ``accuracy_drop``) compare k-fold cross-validation
    without the feature against all of them, same folds, same settings: positive = the
    feature helps.
    """
    model._check_fitted()
    features = list(model.features_)
    joint = model.joint_log_likelihood(df).to_numpy(dtype=float)
    ranked = np.argsort(-np.where(np.isnan(joint), -np.inf, joint), axis=1, kind="stable")
    rows = np.arange(len(df))
    first, second = ranked[:, 0], ranked[:, 1]
    mean_abs, ruled_out = [], []
    n_classes = len(model.classes_)
    for column in features:                 # one vectorised pass per feature, through its block only
        alone = model.block_of(column).joint_log(df[[column]], n_classes)
        with np.errstate(invalid="ignore"):
            gap = np.abs(alone[rows, first] - alone[rows, second])
        infinite = np.isinf(gap)
        ruled_out.append(int(infinite.sum()))
        finite = gap[~infinite & ~np.isnan(gap)]
        mean_abs.append(float(finite.mean()) if finite.size else 0.0)
    out = pd.DataFrame({"type": [model.features_[c].kind for c in features], "mean_abs_log_odds": mean_abs,
                        "rows_ruled_out": ruled_out}, index=pd.Index(features, name="feature", dtype=object))
    if cross_validated:
        out = out.join(_without_each(model, df, features, k=k, seed=seed, weight=weight, progress=progress))
    return out.sort_values("mean_abs_log_odds", ascending=False, kind="stable")


def _without_each(model: Any, df: pd.DataFrame, features: list[str], *, k: int, seed: int,
                  weight: str | None, progress: Progress | None) -> pd.DataFrame:
    from nbapp.model import NaiveBayes

    params = model.params()

    def run(kept: list[str]):
        specs = {c: params["features"][c] for c in kept}
        return cross_validate(lambda: NaiveBayes(**{**params, "features": specs}), df, model.target_,
                              k=k, seed=seed, weight=weight).scores

    full = run(features)
    rows = []
    for i, column in enumerate(features):
        if len(features) == 1:
            rows.append((np.nan, np.nan, np.nan, np.nan))
            continue
        without = run([c for c in features if c != column])
        with np.errstate(invalid="ignore"):
            rows.append((without.log_loss, without.log_loss - full.log_loss,
                         without.log_loss_clipped - full.log_loss_clipped, full.accuracy - without.accuracy))
        if progress is not None:
            progress(i + 1, len(features), f"Cross-validated without {column!r}")
    return pd.DataFrame(rows, columns=["log_loss_without", "log_loss_increase", "clipped_log_loss_increase",
                                       "accuracy_drop"], index=pd.Index(features, name="feature", dtype=object))


def predictions_with_inputs(evaluation: Evaluation, df: pd.DataFrame) -> pd.DataFrame:
    """The out-of-sample predictions with every input column of their row (an ID column
    included) after ``row`` (the row's index label in ``df``): the table to download.

    An input column named like a prediction column is suffixed " (input)".
    """
    if evaluation.positions is None or evaluation.target is None:
        raise DataError("This evaluation keeps no row positions; run the evaluation again.")
    data, _ = _prepare(df, evaluation.target, evaluation.weight)
    inputs = data.iloc[evaluation.positions].drop(columns=[evaluation.target]).reset_index(drop=True)
    predicted = evaluation.predictions.reset_index(drop=True)
    taken = set(predicted.columns)
    inputs.columns = [f"{c} (input)" if c in taken else c for c in inputs.columns]
    return pd.concat([predicted[["row"]], inputs, predicted.drop(columns=["row"])], axis=1)
