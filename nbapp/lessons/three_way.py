"""Training, development and test data   [seed 004, "Training and testing"].

    training data:    estimate the probabilities Naive Bayes needs (the counts)
    development data: tune the details and high-level parameters (here the smoothing l)
    test data:        the final evaluation, used once, after the choice is made

:func:`three_way_split` deals the rows out stratified by class; :func:`tune_on_development`
fits one model per candidate l on the training rows, scores it on the training and the
development rows, keeps the l with the best development accuracy (the smallest development
log-loss breaks a tie, then the smaller l) and only then scores that one model on the test rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.evaluate import expand_weights, holdout_mask, log_proba_for_scoring, score

__all__ = ["three_way_split", "DevelopmentTuning", "tune_on_development"]

TRAIN, DEV, TEST = "train", "development", "test"


def three_way_split(y: pd.Series | np.ndarray, *, dev_size: float = 0.2, test_size: float = 0.2,
                    seed: int = 0) -> np.ndarray:
    """'train', 'development' or 'test' per row, each class split in the given shares (stratified,
    shuffled by ``seed``); every class keeps at least one training row."""
    if not (0 < dev_size < 1 and 0 < test_size < 1 and dev_size + test_size < 1):
        raise DataError(f"The development and test shares must be above 0 and sum to less than 1, "
                        f"not {dev_size!r} and {test_size!r}.")
    y = pd.Series(np.asarray(y, dtype=object))
    test = holdout_mask(y, test_size=test_size, seed=seed)
    rest = np.flatnonzero(~test)
    dev_rest = holdout_mask(y.iloc[rest], test_size=dev_size / (1 - test_size), seed=seed + 1)
    labels = np.full(len(y), TRAIN, dtype=object)
    labels[test] = TEST
    labels[rest[dev_rest]] = DEV
    return labels


@dataclass(frozen=True)
class DevelopmentTuning:
    """One row per candidate l (train and development accuracy and log-loss), the chosen l and
    the test scores of the model with that l, computed once after the choice."""

    table: pd.DataFrame          # index l; train_accuracy, dev_accuracy, dev_log_loss
    chosen: float
    test_accuracy: float
    test_log_loss: float
    sizes: dict[str, int]


def tune_on_development(make_model: Callable[[float], Any], df: pd.DataFrame, target: str, *,
                        candidates: Sequence[float] = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0),
                        dev_size: float = 0.2, test_size: float = 0.2, seed: int = 0,
                        weight: str | None = None) -> DevelopmentTuning:
    """Choose l on the development rows, then report the test rows once   [seed 004].
    ``make_model(l)`` returns an unfitted model with smoothing l."""
    if not candidates:
        raise DataError("Give at least one candidate l to tune.")
    data = expand_weights(df, weight)
    data = data.loc[data[target].notna().to_numpy()]
    if len(data) < 3:
        raise DataError(f"A training / development / test split needs at least 3 labelled rows; there are {len(data)}.")
    part = three_way_split(data[target], dev_size=dev_size, test_size=test_size, seed=seed)
    train, dev, test = (data.loc[part == p] for p in (TRAIN, DEV, TEST))
    if dev.empty:
        raise DataError("The development share leaves no development rows; raise it.")
    rows = []
    for l in candidates:
        model = make_model(float(l)).fit(train, target=target)
        on_train = score(train[target], log_proba_for_scoring(model, train))
        on_dev = score(dev[target], log_proba_for_scoring(model, dev))
        rows.append({"l": float(l), "train_accuracy": on_train.accuracy, "dev_accuracy": on_dev.accuracy,
                     "dev_log_loss": on_dev.log_loss})
    table = pd.DataFrame(rows).set_index("l")
    ranked = table.assign(neg_acc=-table["dev_accuracy"]).sort_values(["neg_acc", "dev_log_loss"], kind="stable")
    chosen = float(ranked.index[0])
    final = make_model(chosen).fit(train, target=target)
    on_test = score(test[target], log_proba_for_scoring(final, test))
    return DevelopmentTuning(table, chosen, on_test.accuracy, on_test.log_loss,
                             {TRAIN: len(train), DEV: len(dev), TEST: len(test)})
