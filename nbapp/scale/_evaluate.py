"""k-fold cross-validation of a file larger than memory, in two streamed passes.

Rows are dealt to folds by a hash of their place (file, data row), so the folds are the same on
every run and need no shuffle of the whole file (:func:`hash_folds`). Pass 1 summarises each
batch once per fold and adds each fold's statistics up; fold f's model is built from the
total minus fold f's statistics (``ModelStats.__sub__``: exact for counts, the inverse of
Chan's update for moments), which equals a fit on every other fold's rows — k models for the
price of one fit. Pass 2 predicts each row with its fold's model and keeps only running counts
(the confusion table, the log-loss sum), so memory is bounded by a batch and k models.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp._logspace import decide_codes
from nbapp.evaluate import Evaluation, prediction_table, clipped_losses, log_proba_for_scoring, scores_from_counts
from nbapp.blocks import reads_numbers
from nbapp.scale._aggregates import NotPushable, Refused
from nbapp.scale._files import (DEFAULT_BATCH_ROWS, DataPath, Progress, _batches, _cells_unquoted,
                               _duckdb_error, _opened, engine_statistics, resolve_sources)

__all__ = ["cross_validate_file", "hash_folds"]

# Out-of-sample predictions kept for the Evaluate page's table and download (the scores count
# every row).
PREDICTIONS_KEPT = 10_000


def hash_folds(rows: np.ndarray, k: int, file: int = 0) -> np.ndarray:
    """The fold (0..k-1) of each data row: splitmix64 of (file number, row number) modulo k.
    Deterministic, independent of batch sizes and of the machine; folds differ in size by
    chance only (each holds n/k rows give or take sqrt(n/k))."""
    with np.errstate(over="ignore"):
        z = np.asarray(rows, dtype=np.uint64) + (np.uint64(file) << np.uint64(40)) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(k)).astype(np.int64)


def cross_validate_file(model: Any, path: DataPath, target: str, k: int = 5, weight: str | None = None,
                        progress: Progress | None = None, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> Evaluation:
    """k-fold cross-validation of ``model``'s configuration on a CSV / Parquet file, glob,
    folder or list of files, in bounded memory; the result is the
    :class:`nbapp.evaluate.Evaluation` the Evaluate page shows (its ``predictions`` keep the
    first 10,000 rows; the scores count every row, weighted by ``weight`` when given).
    ``progress(done, total)`` counts rows over both passes (total = 2 x rows)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise DataError(f"Cross-validation needs at least 2 folds, not {k!r}.")
    with _opened(resolve_sources(path)) as sources:     # resolved and opened once: both passes read these files
        return _cross_validate(model, sources, target, k, weight, progress, batch_rows)


def _cross_validate(model: Any, sources: Any, target: str, k: int, weight: str | None, progress: Progress | None,
                    batch_rows: int) -> Evaluation:
    files = {f: i for i, f in enumerate(sources.files)}
    numeric = [c for c, s in model.features_.items() if reads_numbers(s)] + ([weight] if weight else [])
    others = [target, *(c for c in model.features_ if c not in numeric)]

    def batches(first: bool) -> Any:
        def step(done: int, total: int) -> None:
            if progress is not None:
                progress(done + (0 if first else total), 2 * total)

        for file, frame in _batches(sources, numeric, others, step, batch_rows):
            yield frame, hash_folds(frame.index.to_numpy(), k, files[file])

    with _cells_unquoted(sources, [*numeric, *others], ""):
        fold_stats = _engine_fold_statistics(model, sources, target, weight, k, numeric, others, progress)
        if fold_stats is None:
            fold_stats = _fold_statistics(model, batches(True), target, weight, k)
        total = _total(fold_stats)
        models = {f: copy.deepcopy(model).fit_stats(total - s, target, weight) for f, s in fold_stats.items()}
        return _score_folds(models, batches(False), target, weight, list(total.classes), k)


def _engine_fold_statistics(model: Any, sources: Any, target: str, weight: str | None, k: int, numeric: list[str],
                            others: list[str], progress: Progress | None) -> dict[int, Any] | None:
    """Pass 1 inside DuckDB: every fold's statistics from one GROUP BY with the fold (the hash of
    :func:`hash_folds`, computed in SQL) as one more key; None when the model's types or the
    rows need the streamed pass (a type without aggregates; a value that is refused)."""
    def first_pass(done: int, total: int) -> None:
        if progress is not None:
            progress(done, 2 * total)

    try:
        parts, _ = engine_statistics(model, sources, numeric, others, target, weight, folds=k, progress=first_pass)
    except (NotPushable, Refused, _duckdb_error()):
        sources.check()  # (an interrupted query: stopped, no streamed pass)
        return None      # a type without aggregates, or rows to name: the streamed pass
    fold_stats = {fold: stats for fold, stats in enumerate(parts) if stats.classes}
    if len(fold_stats) < k:
        raise DataError(f"The file has too few rows for {k} folds; choose fewer folds.")
    return fold_stats


def _total(fold_stats: dict[int, Any]) -> Any:
    parts = iter(fold_stats.values())
    total = next(parts)
    for part in parts:
        total = total + part
    return total


def _fold_statistics(model: Any, batches: Any, target: str, weight: str | None, k: int) -> dict[int, Any]:
    fold_stats: dict[int, Any] = {}
    for frame, folds in batches:
        for fold, part in _batch_fold_statistics(model, frame, folds, target, weight, k):
            fold_stats[fold] = part if fold not in fold_stats else fold_stats[fold] + part
    if len(fold_stats) < k:
        raise DataError(f"The file has too few rows for {k} folds; choose fewer folds.")
    return fold_stats


def _batch_fold_statistics(model: Any, frame: pd.DataFrame, folds: np.ndarray, target: str, weight: str | None,
                           k: int) -> list[tuple[int, Any]]:
    """(fold, statistics) of each fold with rows in the batch, from one pass over the batch
    (``NaiveBayes.summarize_parts``). If that pass refuses the batch, each fold's rows are
    summarised alone, so that the error names the fold."""
    try:
        parts = model.summarize_parts(frame, target, folds, weight)
        return [(fold, part) for fold, part in enumerate(parts) if part.classes]
    except DataError:
        pass
    out = []
    for fold in np.unique(folds):
        try:
            out.append((int(fold), model.summarize(frame.iloc[np.flatnonzero(folds == fold)], target, weight)))
        except DataError as exc:
            raise DataError(f"While summarising fold {fold + 1} of {k}: {exc}") from None
    return out


def _score_folds(models: dict[int, Any], batches: Any, target: str, weight: str | None, classes: list[Any],
                 k: int) -> Evaluation:
    """Pass 2: each row predicted by its fold's model; running confusion counts per fold."""
    n_classes = len(classes)
    counts = np.zeros((k, n_classes, n_classes + 1))
    loss = np.zeros(k)
    clipped = np.zeros(k)
    zero = np.zeros(k, dtype=np.int64)
    kept: list[pd.DataFrame] = []
    n_kept = 0
    for frame, folds in batches:
        for fold in np.unique(folds):
            positions = np.flatnonzero(folds == fold)
            labels = frame[target].iloc[positions]
            logp_frame = log_proba_for_scoring(models[fold], frame, positions).reindex(columns=classes)
            logp = np.nan_to_num(logp_frame.to_numpy(dtype=float, na_value=np.nan), nan=-np.inf, posinf=np.inf)
            true = pd.Index(classes, dtype=object).get_indexer(pd.Index(labels.to_numpy(dtype=object)))
            predicted = decide_codes(logp, none=n_classes)
            w = frame[weight].iloc[positions].to_numpy(dtype=float) if weight else np.ones(len(positions))
            counts[fold] += np.bincount(true * (n_classes + 1) + predicted, weights=w,
                                        minlength=n_classes * (n_classes + 1)).reshape(n_classes, n_classes + 1)
            true_logp = logp[np.arange(len(positions)), true]
            with np.errstate(invalid="ignore"):
                loss[fold] += -np.sum(w * true_logp)
            clipped[fold] += np.sum(w * clipped_losses(true_logp))
            zero[fold] += int(np.isneginf(true_logp).sum())
            if n_kept < PREDICTIONS_KEPT:
                kept.append(prediction_table(labels.index, np.full(len(positions), fold), labels, logp_frame))
                n_kept += len(positions)
    whole = counts.round()          # frequency weights are whole numbers, as in cross_validate
    fold_scores = tuple(scores_from_counts(whole[f].astype(np.int64), classes, loss[f] / whole[f].sum(), int(zero[f]),
                                           log_loss_clipped=clipped[f] / whole[f].sum())
                        for f in range(k))
    pooled = scores_from_counts(whole.sum(axis=0).astype(np.int64), classes, loss.sum() / whole.sum(), int(zero.sum()),
                                log_loss_clipped=clipped.sum() / whole.sum())
    predictions = pd.concat(kept, ignore_index=True).sort_values("row", kind="stable").head(PREDICTIONS_KEPT)
    return Evaluation(method="kfold", seed=0, n_splits=k, scores=pooled, fold_scores=fold_scores,
                      predictions=predictions.reset_index(drop=True), classes=tuple(classes))
