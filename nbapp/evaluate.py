"""Honest estimates of how well a Naive Bayes configuration predicts unseen rows.

Two seeded ways to hold data out (seed 004, "train / development / test data"):

* :func:`holdout` - one stratified split into a training and a test part;
* :func:`cross_validate` - stratified k-fold cross-validation: every row is predicted
  exactly once, by a model fitted on the other k - 1 folds.

Both fit a fresh model per split from ``make_model`` (a zero-argument callable returning an
unfitted :class:`nbapp.NaiveBayes`, e.g. ``lambda: nbapp.NaiveBayes(features=..., alpha=1)``)
and score the pooled out-of-sample predictions with :func:`score`: accuracy, the confusion
matrix, per-class precision / recall / F1 and the log-loss. Everything is vectorised; the
only Python loop runs over the k folds.

Frequency weights (a count column such as seed 004's bikes) are expanded into that many
identical rows before splitting, so a row that stands for 78 bikes is 78 test cases.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import reduce
from operator import add
from typing import Any, Callable, Protocol

import numpy as np
import pandas as pd

from nbapp._encode import factorize
from nbapp.errors import DataError, shown
from nbapp._logspace import decide_codes
from nbapp.ordering import python_scalar, sort_values

__all__ = [
    "Scores",
    "Evaluation",
    "Progress",
    "score",
    "scores_from_counts",
    "holdout",
    "cross_validate",
    "stratified_folds",
    "holdout_mask",
    "expand_weights",
]

#: Label used in the confusion matrix for rows no class could explain (l = 0, issue 2).
UNDETERMINED = "(undetermined)"
#: scikit-learn's ``log_loss`` clips each probability to [eps, 1 - eps] with float64's machine
#: epsilon; ``Scores.log_loss_clipped`` does the same, so the two agree on the same predictions.
CLIP_EPS = float(np.finfo(float).eps)


class Progress(Protocol):
    """Called after each finished step: ``progress(done, total, message)``."""

    def __call__(self, done: int, total: int, message: str) -> None: ...


@dataclass(frozen=True)
class Scores:
    """Out-of-sample quality of a set of predictions.

    accuracy  = (1/n) sum_i I(y_hat_i = y_i)
    precision = TP_c / (TP_c + FP_c), recall = TP_c / (TP_c + FN_c), F1 = 2 P R / (P + R)
    log_loss  = -(1/n) sum_i log P(y_i | x_i), natural log; infinite as soon as one row's
                true class got probability 0 (possible at l = 0), which is the honest value.
    log_loss_clipped = -(1/n) sum_i log clip(P(y_i | x_i), eps, 1 - eps), eps = ``CLIP_EPS``:
                scikit-learn's ``log_loss`` on the same probabilities. A row's loss is then at
                most -log(eps) = 36.04, so one impossible row cannot make it infinite (nor show).
    """

    n: int
    accuracy: float
    log_loss: float
    confusion: pd.DataFrame  # index: true class, columns: predicted class (+ undetermined)
    per_class: pd.DataFrame  # index: class; columns precision, recall, f1, support
    undetermined: int  # rows where every class had probability 0
    zero_probability: int  # rows whose true class got probability 0
    log_loss_clipped: float = float("nan")  # as scikit-learn's log_loss (see CLIP_EPS)

    @property
    def kappa(self) -> float:
        """Cohen's kappa, (p_o - p_e) / (1 - p_e): the agreement of predictions and truth beyond
        what their class shares alone give (p_o = accuracy, p_e = sum_c share_true(c) share_pred(c)),
        as scikit-learn's cohen_kappa_score; an undetermined row agrees with no class."""
        counts = self.confusion.to_numpy(dtype=float)
        n = counts.sum()
        if n == 0:
            return float("nan")
        classes = list(self.confusion.index)
        predicted = self.confusion.reindex(columns=classes, fill_value=0).to_numpy(dtype=float)
        p_o = np.trace(predicted) / n
        p_e = float(np.dot(counts.sum(axis=1), predicted.sum(axis=0))) / n ** 2
        return float((p_o - p_e) / (1 - p_e)) if p_e < 1 else float("nan")

    @property
    def macro_f1(self) -> float:
        """Unweighted mean of the per-class F1 scores, over the classes that occur in the truth
        or the predictions (as scikit-learn's f1_score(average="macro"))."""
        occurs = (self.per_class["support"] > 0) | (self.confusion.reindex(
            columns=self.per_class.index, fill_value=0).sum(axis=0) > 0)
        return float(self.per_class.loc[occurs, "f1"].mean())


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`holdout` or :func:`cross_validate`.

    ``predictions`` has one row per test case: ``row`` (the index label in the input frame),
    ``fold``, ``true``, ``predicted``, ``log P(true)`` (exact, where P(true) itself may
    underflow to 0) and one column ``P(<class>)`` per class. ``folds`` gives each row of the
    evaluated data (after weights are expanded and unlabelled rows dropped) its fold (-1: in
    training only), ``positions`` each prediction's row there; :mod:`nbapp.diagnostics` uses
    them to refit a fold's model or to score another classifier on the same folds.
    """

    method: str  # "holdout" or "kfold"
    seed: int
    n_splits: int
    scores: Scores  # on all out-of-sample predictions pooled
    fold_scores: tuple[Scores, ...]
    predictions: pd.DataFrame
    classes: tuple[Any, ...]
    target: str | None = None
    weight: str | None = None
    folds: np.ndarray | None = None
    positions: np.ndarray | None = None

    @property
    def fold_accuracy(self) -> pd.Series:
        """Accuracy per fold (one entry for a hold-out split)."""
        return pd.Series([s.accuracy for s in self.fold_scores], name="accuracy", dtype=float)


def log_proba_for_scoring(model: Any, rows: pd.DataFrame, positions: np.ndarray | None = None) -> pd.DataFrame:
    """The model's log posteriors with undetermined rows (every class impossible) set to -inf,
    so :func:`score` counts them as undetermined instead of as the prior's top class. With
    ``positions``, of those rows of ``rows`` only (scored in place, not copied)."""
    log_proba, undetermined = model.log_posterior(rows) if positions is None else \
        model.log_posterior(rows, rows=positions)
    return log_proba.mask(undetermined, -np.inf, axis=0)


def score(y_true: pd.Series | np.ndarray, log_proba: pd.DataFrame) -> Scores:
    """Score predictions given as log-probabilities (one column per class).

    ``y_true`` is aligned by position. A row whose log-probabilities are all -inf or NaN is
    *undetermined*: it counts as wrong and appears in the confusion matrix's extra column.
    Classes seen in ``y_true`` but absent from ``log_proba`` are given probability 0.
    """
    y = pd.Series(np.asarray(y_true, dtype=object))
    if len(y) != len(log_proba):
        raise DataError(f"score needs as many true labels ({len(y)}) as predictions ({len(log_proba)}).")
    if len(y) == 0:
        raise DataError("There are no test rows to score; use more data or a larger test share.")
    classes = list(log_proba.columns)
    extra = [c for c in pd.unique(y) if c not in set(classes)]
    all_classes = classes + sort_values(extra)
    logp = log_proba.reindex(columns=all_classes).to_numpy(dtype=float, na_value=np.nan)
    logp = np.where(np.isnan(logp), -np.inf, logp)

    true_code = pd.Categorical(y, categories=all_classes).codes.astype(np.int64)
    return _score_codes(true_code, logp, all_classes)


def _score_codes(true_code: np.ndarray, logp: np.ndarray, classes: list[Any]) -> Scores:
    """:func:`score` on integer labels: ``true_code`` indexes ``classes`` (the columns of
    ``logp``, which holds -inf, never NaN, for an impossible class). Accuracy, the confusion
    matrix (one bincount) and the log-loss without touching a label object."""
    pred_code = decide_codes(logp, none=len(classes))
    return _scores_of_codes(true_code, pred_code, logp[np.arange(len(true_code)), true_code], classes)


def _scores_of_codes(true_code: np.ndarray, pred_code: np.ndarray, true_logp: np.ndarray,
                     classes: list[Any]) -> Scores:
    """Scores from true and predicted class codes (``len(classes)``: undetermined) and each
    row's log P(true)."""
    k = len(classes)
    counts = np.bincount(true_code * (k + 1) + pred_code, minlength=k * (k + 1)).reshape(k, k + 1)
    with np.errstate(invalid="ignore"):
        log_loss = float(-np.mean(true_logp))
    return scores_from_counts(counts, classes, log_loss, int(np.isneginf(true_logp).sum()),
                              log_loss_clipped=float(np.mean(clipped_losses(true_logp))))


def clipped_losses(true_logp: np.ndarray) -> np.ndarray:
    """-log clip(P(true), eps, 1 - eps) per row, eps = ``CLIP_EPS`` (scikit-learn's log_loss)."""
    with np.errstate(under="ignore"):
        return -np.log(np.clip(np.exp(true_logp), CLIP_EPS, 1 - CLIP_EPS))


def scores_from_counts(counts: np.ndarray, classes: list[Any], log_loss: float, zero_probability: int, *,
                       log_loss_clipped: float = float("nan")) -> Scores:
    """Scores from a confusion table counts[true, predicted] (classes x classes + 1: the last
    column counts undetermined rows), the log-loss (exact and clipped) and the rows whose true
    class got 0. What :func:`score` computes from predictions, and a streamed evaluation from
    its running counts."""
    k = len(classes)
    tp = np.diag(counts[:, :k]).astype(float)
    support = counts.sum(axis=1).astype(float)
    predicted = counts[:, :k].sum(axis=0).astype(float)
    precision = _ratio(tp, predicted)
    recall = _ratio(tp, support)
    f1 = _ratio(2 * precision * recall, precision + recall)
    undetermined = int(counts[:, k].sum())
    columns = [*classes, UNDETERMINED] if undetermined else list(classes)
    confusion = pd.DataFrame(counts[:, : len(columns)], index=pd.Index(classes, name="true"),
                             columns=pd.Index(columns, name="predicted"))
    per_class = pd.DataFrame(
        {"precision": precision, "recall": recall, "f1": f1, "support": support.astype(np.int64)},
        index=pd.Index(classes, name="class"),
    )
    n = int(counts.sum())
    return Scores(
        n=n,
        accuracy=float(tp.sum() / n),
        log_loss=log_loss,
        confusion=confusion,
        per_class=per_class,
        undetermined=undetermined,
        zero_probability=zero_probability,
        log_loss_clipped=log_loss_clipped,
    )


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with 0 where den is 0 (scikit-learn's zero_division=0)."""
    out = np.zeros_like(num, dtype=float)
    np.divide(num, den, out=out, where=den > 0)
    return out


def expand_weights(df: pd.DataFrame, weight: str | None, *, max_rows: int = 5_000_000) -> pd.DataFrame:
    """Repeat each row ``df[weight]`` times (frequency weights -> individual cases).

    The weight column is dropped. Weights must be whole numbers >= 0. More than
    ``max_rows`` rows in all is refused before anything is copied: every repeat is a full
    copy of its row, so 5 million rows of a few dozen columns already take gigabytes, and
    a typo'd weight (1e9) would exhaust memory instead of failing with a sentence.
    """
    if weight is None:
        return df
    if weight not in df.columns:
        raise DataError(f"The weight column {weight!r} is not in the data; pick an existing column or none.")
    w = pd.to_numeric(df[weight], errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0) | (w != np.round(w)))
    if bad.size:
        row, value = df.index[bad[0]], df[weight].iloc[bad[0]]
        raise DataError(
            f"Column {weight!r} must hold whole numbers >= 0 to count as frequency weights, "
            f"but row {shown(row)} holds {shown(value)}; fix it or evaluate without weights."
        )
    total = float(w.sum())
    if total > max_rows:
        raise DataError(
            f"The weights in column {weight!r} add up to {total:,.0f} rows once each row is repeated, "
            f"more than the {max_rows:,} that fit in memory here; evaluate on a sample or without weights."
        )
    out = df.loc[df.index.repeat(w.astype(np.int64))].drop(columns=[weight])
    return out


def _class_codes(y: pd.Series | np.ndarray) -> np.ndarray:
    """Codes of the sorted distinct labels (-1: missing), the order the folds are dealt in.
    A Series is factorised as it is (Arrow strings and numbers sort as their Python objects
    do, without building one object per row); a categorical one, whose own order could differ
    from its values', goes through objects as any other input."""
    if isinstance(y, pd.Series) and not isinstance(y.dtype, pd.CategoricalDtype):
        # The labels hashed once (Arrow strings are remembered, so the model's and the scoring's
        # factorisations of the same column find them), then the few distinct values sorted:
        # the codes of pd.factorize(y, sort=True).
        codes, uniques = factorize(y)
        rank, _ = pd.factorize(_object_array(list(uniques)), sort=True)
        codes = np.append(rank, -1)[codes]           # -1 (missing) stays -1
    else:
        codes, _ = pd.factorize(np.asarray(y, dtype=object), sort=True, use_na_sentinel=True)
    return np.asarray(codes)


def _grouped_order(codes: np.ndarray, seed: int) -> np.ndarray:
    """The rows grouped by class code, shuffled by ``seed`` inside each class: a seeded
    permutation, then a stable sort by code (a radix sort in the smallest integer type)."""
    shuffled = np.random.default_rng(seed).permutation(len(codes))
    small = codes.astype(np.int16) if len(codes) and codes.max() < np.iinfo(np.int16).max else codes
    return shuffled[np.argsort(small[shuffled], kind="stable")]


def stratified_folds(y: pd.Series | np.ndarray, k: int, *, seed: int = 0) -> np.ndarray:
    """Assign each row a fold 0..k-1, stratified by class and shuffled by ``seed``.

    Within each class the (shuffled) rows are dealt out round-robin, starting where the
    previous class stopped, so every fold gets floor or ceil of n_c / k rows of class c and
    fold sizes differ by at most one.
    """
    n = len(y)
    if not isinstance(k, (int, np.integer)) or k < 2:
        raise DataError(f"Cross-validation needs at least 2 folds, not {k!r}.")
    if k > n:
        raise DataError(f"There are {n} rows, too few for {k} folds; choose k <= {n}.")
    order = _grouped_order(_class_codes(y), seed)  # grouped by class, shuffled inside
    folds = np.empty(n, dtype=np.int64)
    folds[order] = np.arange(n) % k  # running position over the grouped rows: round-robin across classes
    return folds


def holdout_mask(y: pd.Series | np.ndarray, *, test_size: float = 0.3, seed: int = 0) -> np.ndarray:
    """Boolean mask of test rows: round(test_size * n_c) shuffled rows of each class c.

    A class keeps at least one training row, so the model has seen every class.
    """
    if not 0 < test_size < 1:
        raise DataError(f"The test share must lie strictly between 0 and 1, not {test_size!r}.")
    n = len(y)
    codes = _class_codes(y)
    order = _grouped_order(codes, seed)
    sorted_codes = codes[order]
    class_sizes = np.bincount(sorted_codes + 1)[1:] if n else np.array([], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(class_sizes)[:-1]])
    valid = sorted_codes >= 0
    rank = np.arange(n) - np.where(valid, starts[np.maximum(sorted_codes, 0)], 0)
    n_test = np.minimum(np.floor(test_size * class_sizes + 0.5), class_sizes - 1).astype(np.int64)
    take = valid & (rank < np.where(valid, n_test[np.maximum(sorted_codes, 0)], 0))
    mask = np.zeros(n, dtype=bool)
    mask[order] = take
    if not mask.any():
        raise DataError(
            f"The test share {test_size:g} leaves no test rows in {n} rows; raise it or use cross-validation."
        )
    return mask


def holdout(
    make_model: Callable[[], Any],
    df: pd.DataFrame,
    target: str,
    *,
    test_size: float = 0.3,
    seed: int = 0,
    weight: str | None = None,
    progress: Progress | None = None,
) -> Evaluation:
    """Fit on a stratified, seeded share of the rows and score the rest."""
    data, y = _prepare(df, target, weight)
    test = holdout_mask(y, test_size=test_size, seed=seed)
    folds = np.where(test, 0, -1)
    return replace(_run(make_model, data, y, target, folds, 1, "holdout", seed, progress), weight=weight)


def cross_validate(
    make_model: Callable[[], Any],
    df: pd.DataFrame,
    target: str,
    *,
    k: int = 5,
    seed: int = 0,
    weight: str | None = None,
    progress: Progress | None = None,
) -> Evaluation:
    """Stratified k-fold cross-validation: each row is predicted once, by a model not fitted on it."""
    data, y = _prepare(df, target, weight)
    folds = stratified_folds(y, k, seed=seed)
    return replace(_run(make_model, data, y, target, folds, k, "kfold", seed, progress), weight=weight)


def _prepare(df: pd.DataFrame, target: str, weight: str | None) -> tuple[pd.DataFrame, pd.Series]:
    if target not in df.columns:
        raise DataError(f"The target column {target!r} is not in the data; choose one of its columns.")
    data = expand_weights(df, weight)
    labelled = data[target].notna().to_numpy()
    data = data.loc[labelled] if not labelled.all() else data
    if len(data) < 2:
        raise DataError(
            f"Evaluation needs at least 2 rows with a value in the target column {target!r}, but "
            f"the data has {len(data)}; fill in the missing labels or choose another target column."
        )
    if len(factorize(data[target])[1]) < 2:
        raise DataError(f"The target column {target!r} has one class only; evaluation needs two or more.")
    return data, data[target]


def _run(
    make_model: Callable[[], Any],
    data: pd.DataFrame,
    y: pd.Series,
    target: str,
    folds: np.ndarray,
    n_splits: int,
    method: str,
    seed: int,
    progress: Progress | None,
) -> Evaluation:
    """Fit and predict each split, then score. The labels are factorised once to integer codes
    (scoring, the confusion matrix and the table's true column read the codes). k-fold copies
    no rows: every fold's statistics come from one pass over the frame, and each fold's model
    scores its own rows of the frame in place."""
    codes, classes = _label_codes(y)
    parts = {fold: np.flatnonzero(folds == fold) for fold in range(n_splits)}
    parts = {fold: rows for fold, rows in parts.items() if len(rows)}
    kfold = method == "kfold"
    fold_stats = _fold_statistics(make_model, data, target, folds, parts, n_splits) if kfold else {}
    total = reduce(add, fold_stats.values()) if fold_stats else None
    log_parts: list[np.ndarray] = []
    fold_columns: list[np.ndarray] = []
    for fold, rows in parts.items():
        model = make_model()
        try:
            if kfold:      # the total minus this fold's statistics: no refit per fold
                model.fit_stats(training_statistics(total, fold_stats, fold), target)
            else:
                model.fit(data.iloc[np.flatnonzero(folds == -1)], target=target)
            log_proba, undetermined = model.log_posterior(data, rows=rows)
        except DataError as err:
            where = "the training part" if method == "holdout" else f"fold {fold + 1} of {n_splits}"
            raise DataError(f"While fitting on {where}: {err}") from err
        logp, columns = _on_classes(log_proba, undetermined.to_numpy(), classes)
        log_parts.append(logp)
        fold_columns.append(columns)
        if progress is not None:
            label = "Hold-out split" if method == "holdout" else f"Fold {fold + 1} of {n_splits}"
            progress(fold + 1, n_splits, f"{label} done")

    # Every prediction at once: NaN in logp_all is a class a fold's model lacked (P stays NaN in
    # the table, it scores as probability 0); one argmax serves the pooled and the fold scores.
    pos = np.concatenate(list(parts.values()))
    logp_all = np.concatenate(log_parts, axis=0)
    lacked = any(len(c) < len(classes) for c in fold_columns)
    logp_scored = np.where(np.isnan(logp_all), -np.inf, logp_all) if lacked else logp_all
    true_all = codes[pos]
    pred_all = decide_codes(logp_scored, none=len(classes))
    undetermined_all = pred_all == len(classes)
    true_logp = logp_scored[np.arange(len(pos)), true_all]
    pooled = _scores_of_codes(true_all, pred_all, true_logp, classes)
    ends = np.cumsum([len(rows) for rows in parts.values()])
    fold_scores = [_fold_score(true_all[a:b], pred_all[a:b], true_logp[a:b], columns, classes)
                   for a, b, columns in zip(np.r_[0, ends[:-1]], ends, fold_columns)]
    labels = _object_array(classes)
    predictions = _table(data.index[pos], folds[pos], _labels(labels, true_all), true_logp, logp_all, labels,
                         np.where(undetermined_all, 0, pred_all), undetermined_all)
    return Evaluation(
        method=method,
        seed=seed,
        n_splits=n_splits,
        scores=pooled,
        fold_scores=tuple(fold_scores),
        predictions=predictions,
        classes=tuple(classes),
        target=target,
        folds=folds,
        positions=pos,
    )


def _used_columns(model: Any, data: pd.DataFrame, target: str) -> list[Any] | None:
    """The columns a fold's frame needs (the model's features and the target, in the data's
    order), so each fold copies only those; None (take them all) when any is absent, for the
    model's own error to name it, or the names are not unique."""
    features = getattr(model, "features_", None)
    if not isinstance(features, dict) or not data.columns.is_unique:
        return None
    wanted = {*features, target}
    if not wanted <= set(data.columns):
        return None
    return [c for c in data.columns if c in wanted]


def _label_codes(y: pd.Series) -> tuple[np.ndarray, list[Any]]:
    """The labels' classes in the model's order (:func:`nbapp.ordering.classes_of`) and each
    label's position among them, from one hash pass (as the model numbers its classes)."""
    codes, uniques = factorize(y)
    found = [python_scalar(u) for u in uniques]
    classes = sort_values(dict.fromkeys(found))
    lookup = pd.Index(classes, dtype=object).get_indexer(pd.Index(found, dtype=object))
    return lookup[codes].astype(np.int64), classes


def _object_array(values: list[Any]) -> np.ndarray:
    """The values as a 1-d object array (element by element, so a tuple label stays one cell)."""
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


def _on_classes(log_proba: pd.DataFrame, undetermined: np.ndarray, classes: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """A fold model's log posteriors on the columns of all ``classes`` (NaN where the model
    lacks the class), undetermined rows -inf throughout (as :func:`log_proba_for_scoring`),
    and the positions in ``classes`` of the model's own columns."""
    columns = pd.Index(classes, dtype=object).get_indexer(pd.Index(log_proba.columns, dtype=object))
    logp = log_proba.to_numpy(dtype=float)
    if undetermined.any():
        logp = logp.copy()      # pandas may hand out a read-only view of its own block
        logp[undetermined] = -np.inf
    if len(columns) == len(classes) and (columns == np.arange(len(classes))).all():
        return logp, columns
    out = np.full((len(logp), len(classes)), np.nan)
    out[:, columns] = logp
    return out, columns


def _fold_score(true_code: np.ndarray, pred_code: np.ndarray, true_logp: np.ndarray, columns: np.ndarray,
                classes: list[Any]) -> Scores:
    """:func:`score` of one fold from its rows' codes in ``classes`` (``pred_code``
    ``len(classes)``: undetermined): on the fold model's classes (``columns``) first, then the
    (sorted) classes in the fold's labels that the model lacks, with probability 0. A model
    predicts only its own classes, so the argmax over all classes is the fold's argmax."""
    k = len(classes)
    if len(columns) == k:
        return _scores_of_codes(true_code, pred_code, true_logp, classes)
    present = np.flatnonzero(np.bincount(true_code, minlength=k))
    extra = present[~np.isin(present, columns)]      # classes are sorted, so extra is too
    order = np.concatenate([columns, extra]).astype(np.int64)
    local = np.full(k + 1, -1, dtype=np.int64)
    local[order] = np.arange(len(order))
    local[k] = len(order)
    return _scores_of_codes(local[true_code], local[pred_code], true_logp, [classes[i] for i in order])


def training_statistics(total: Any, fold_stats: dict[int, Any], fold: int) -> Any:
    """The statistics of every fold but ``fold``: the total minus that fold's (one subtraction,
    not k - 1 additions; equal to a fit on those rows, see ``Stats.__sub__``). A statistics type
    without subtraction yet is served by adding the other folds."""
    try:
        return total - fold_stats[fold]
    except NotImplementedError:
        return reduce(add, [s for f, s in fold_stats.items() if f != fold])


def _fold_statistics(make_model: Callable[[], Any], data: pd.DataFrame, target: str, folds: np.ndarray,
                     parts: dict[int, np.ndarray], n_splits: int) -> dict[int, Any]:
    """Each fold's sufficient statistics, all from one pass over the frame
    (:meth:`nbapp.NaiveBayes.summarize_parts`). A fold's training model is built from the total
    minus the fold's statistics, which equals a fit on the other folds' rows (statistics are
    values, see nbapp.stats), so k-fold costs about one fit, not k.

    If that pass refuses the data, each fold is summarised alone from a copy of its rows: the
    error then names the fold, as it always has (and where only the pass's finer table of
    (fold, class) cells was beyond the table budget, the folds one by one still fit)."""
    try:
        stats = make_model().summarize_parts(data, target, folds)
        return {fold: stats[fold] for fold in parts}
    except DataError:
        pass
    used = _used_columns(make_model(), data, target)
    source = data[used] if used is not None and len(used) < len(data.columns) else data
    out = {}
    for fold, rows in parts.items():
        try:
            out[fold] = make_model().summarize(source.iloc[rows], target)
        except DataError as err:
            raise DataError(f"While fitting on fold {fold + 1} of {n_splits}: {err}") from err
    return out


def prediction_table(index: pd.Index, folds: np.ndarray, y: pd.Series, log_proba: pd.DataFrame) -> pd.DataFrame:
    """The predictions table from labels and a frame of log-probabilities (one column per class)."""
    classes = np.asarray(log_proba.columns, dtype=object)
    codes = pd.Categorical(y.to_numpy(dtype=object), categories=classes).codes
    logp = log_proba.to_numpy(dtype=float, na_value=np.nan)
    scored = np.where(np.isnan(logp), -np.inf, logp)
    true_logp = np.where(codes >= 0, scored[np.arange(len(logp)), np.maximum(codes, 0)], -np.inf)
    return _table(index, folds, y.to_numpy(dtype=object), true_logp, logp, classes, np.argmax(scored, axis=1),
                  ~np.isfinite(logp).any(axis=1))


def _table(index: pd.Index, folds: np.ndarray, true: Any, true_logp: np.ndarray, logp: np.ndarray,
           classes: np.ndarray, best: np.ndarray, undetermined: np.ndarray) -> pd.DataFrame:
    """One row per prediction: ``row``, ``fold`` (from 1), ``true``, ``predicted`` (``classes[best]``,
    missing where ``undetermined``), ``log P(true)`` and ``P(<class>)`` per class (NaN in ``logp``:
    a class the predicting model lacked)."""
    first = {"row": index.to_numpy(), "fold": folds + 1, "true": true,
             "predicted": _labels(classes, best, undetermined)}
    names = ["log P(true)", *[f"P({c})" for c in classes]]
    if len(set(names)) < len(names) or set(names) & set(first):      # a later column replaces an earlier
        with np.errstate(invalid="ignore"):
            proba = np.exp(logp)
        columns = {**first, "log P(true)": true_logp, **{f"P({c})": proba[:, j] for j, c in enumerate(classes)}}
        return pd.DataFrame(columns)
    # The numbers are written once into one column-major block that pandas keeps as it is
    # (building the frame from separate columns would copy them all again to consolidate).
    numbers = np.empty((len(logp), len(names)), order="F")
    numbers[:, 0] = true_logp
    with np.errstate(invalid="ignore"):
        np.exp(logp, out=numbers[:, 1:])
    out = pd.DataFrame(numbers, columns=names, copy=False)
    for i, (name, values) in enumerate(first.items()):
        out.insert(i, name, values)
    return out


def _labels(classes: np.ndarray, codes: np.ndarray, missing: np.ndarray | None = None) -> Any:
    """``classes[codes]`` (None where ``missing``) as the column pandas would make of it. Text
    labels, which pandas stores as Arrow strings, are taken in Arrow directly: building a
    million Python strings only for pandas to convert them back costs 0.2 s a column."""
    import pyarrow as pa

    dtype = pd.Series(classes[:1]).dtype if len(classes) else None
    arrow_text = (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"
                  and all(type(c) is str for c in classes))
    if not arrow_text:
        return classes[codes] if missing is None else np.where(missing, None, classes[codes])
    taken = pa.array(list(classes), type=pa.large_string()).take(pa.array(codes, mask=missing))
    return pd.array(taken, dtype=dtype)
