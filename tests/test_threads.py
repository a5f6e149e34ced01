"""Large tables are summarised and scored on threads (nbapp._threads): the numbers and the errors
must be those of one pass, bit for bit. The thresholds are lowered so small frames take the
threaded paths, and four cores are pretended so the paths run on any machine."""

from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd
import pytest

import nbapp._threads as threads
from mixed_data import ARROW_TEXT, TYPES, mixed_frame as frame
from nbapp import DataError, NaiveBayes
from nbapp import _encode as encode


@pytest.fixture
def threaded(monkeypatch):
    """Threads from 1 row, on four pretended cores; codes of Arrow columns remembered from 1 row."""
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(encode, "_CACHE_MIN_ROWS", 1)

    def set_threshold(rows: int) -> None:
        monkeypatch.setattr(threads, "THREADED_ROWS", rows)
    return set_threshold


def test_each_block_scores_a_row_range_and_positions_as_it_scores_those_rows_copied(threaded):
    threaded(10**9)
    df = frame(0, 3_000)
    model = NaiveBayes(TYPES).fit(df, "y")
    new = frame(1, 1_000).assign(colour=pd.array(["red", "violet", None, "blue"] * 250, dtype=ARROW_TEXT))
    positions = np.random.default_rng(2).permutation(len(new))[:400]
    for data in (df, new):
        for rows in (slice(100, 900), positions):
            for block in model._blocks:
                got = block.joint_log_rows(data, rows, 3)
                expected = block.joint_log(data.iloc[rows], 3)
                assert np.array_equal(got, expected), (block.kind, rows)


def test_threaded_predictions_equal_the_one_pass_bit_for_bit(threaded):
    df = frame(3, 40_000)       # row ranges 0..32768 and 32768..40000 (ROW_ALIGN)
    new = frame(4, 40_000).assign(shape=np.where(np.arange(40_000) % 7 == 0, "hexagon", "round").astype(object))
    results = {}
    for threshold in (1, 10**9):
        threaded(threshold)
        model = NaiveBayes(TYPES).fit(df, "y")
        results[threshold] = [model.summarize(df, "y"), model.predict_proba(df), model.predict_log_proba(new),
                              model.predict(new), model.undetermined(new)]
    threaded(1)
    assert threads.row_chunks(40_000, threads.ROW_ALIGN) == [slice(0, 16_384), slice(16_384, 32_768),
                                                            slice(32_768, 40_000)]
    (stats_a, *a), (stats_b, *b) = results[1], results[10**9]
    from nbapp.persist import stats_to_json
    assert stats_to_json(stats_a) == stats_to_json(stats_b)
    for got, expected in zip(a, b):
        if isinstance(got, pd.DataFrame):
            assert np.array_equal(got.to_numpy(), expected.to_numpy()) and got.index.equals(expected.index)
        else:
            pd.testing.assert_series_equal(got, expected)


def test_a_bad_value_in_a_threaded_prediction_is_named_as_by_the_one_pass(threaded):
    df = frame(5, 40_000)
    bad = df.assign(weight=df["weight"].astype(object))
    bad.loc[[20_000, 35_000, 39_000], "weight"] = ["heavy", "?", "n/a"]
    messages = []
    for threshold in (1, 10**9):
        threaded(threshold)
        model = NaiveBayes(TYPES).fit(df, "y")
        with pytest.raises(DataError) as err:
            model.predict_proba(bad)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "'weight'" in messages[0] and "20000, 35000, 39000" in messages[0]


def test_each_keeps_the_order_starts_the_costliest_first_and_raises_the_first_error(threaded, monkeypatch):
    threaded(1)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 2)     # two threads: two items at a time
    started = []
    lock = threading.Lock()

    def work(item: int) -> int:
        with lock:
            started.append(item)
        time.sleep(0.01)
        return item * item

    assert threads.each(work, [1, 5, 2, 4], rows=10, cost=lambda item: item) == [1, 25, 4, 16]
    assert set(started[:2]) == {5, 4}

    def fail(item: int) -> int:
        if item % 2:
            raise DataError(f"item {item}")
        return item

    with pytest.raises(DataError, match="item 3"):
        threads.each(fail, [2, 3, 4, 5], rows=10, cost=lambda item: item)


def test_below_the_threshold_the_work_runs_in_turn(threaded):
    threaded(1_000)
    assert threads.workers(999, 8) == 1 and threads.workers(1_000, 8) == 4 and threads.workers(1_000, 2) == 2
    assert threads.row_chunks(999, 16) == [slice(0, 999)]
    assert threads.row_chunks(0, 16) == [slice(0, 0)]
    assert threads.row_chunks(1_000, 16) == [slice(0, 256), slice(256, 512), slice(512, 768), slice(768, 1_000)]
