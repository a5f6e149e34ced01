"""5-fold cross-validation by subtraction: about one fit and one prediction, in memory and on a file.

    python bench/bench_kfold.py            # 1,000,000 rows, 15 mixed columns (bench_ingest's data)
    python bench/bench_kfold.py 200000
    python bench/bench_kfold.py 1000000 --memory   # the in-memory comparison only

Each fold's model is the total statistics minus the fold's (one summarize pass for all folds),
so k-fold should cost about one fit plus one prediction of every row, not k fits. Prints, in
the same run: fit + predict_proba of all rows vs nbapp.evaluate.cross_validate (in memory; the
two run in turns, 5 times each, and the medians and their ratio are printed), and fit_file +
predict_file vs nbapp.cross_validate_file (two streamed passes over the CSV).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import nbapp  # noqa: E402
from bench_ingest import clean_csv  # noqa: E402
from nbapp import _encode as encode, evaluate  # noqa: E402

FEATURES = {**{c: "categorical" for c in ("city", "plan", "device", "segment", "browser", "region")},
            **{c: "gaussian" for c in ("age", "income", "score", "ratio", "visits", "temp", "lat", "lon")}}


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main(rows: int, memory_only: bool = False, repeats: int = 5) -> None:
    data = clean_csv(rows)
    frame = nbapp.load_table(data, "clean.csv").frame
    make = lambda: nbapp.NaiveBayes(FEATURES)  # noqa: E731
    ones, kfolds = [], []
    for _ in range(repeats):          # in turns, so that both see the same machine load
        # Each run starts cold: nbapp remembers a text column's codes (nbapp._encode), so a second
        # fit of the very same frame would skip hashing its strings.
        encode._CODES.clear()
        ones.append(timed(lambda: make().fit(frame, "churn").predict_proba(frame)))
        encode._CODES.clear()
        kfolds.append(timed(lambda: evaluate.cross_validate(make, frame, "churn", k=5)))
    one, kfold = statistics.median(ones), statistics.median(kfolds)
    print(f"{rows:,} rows in memory (median of {repeats}): fit + predict_proba {one:.2f} s, "
          f"5-fold cross_validate {kfold:.2f} s, ratio {kfold / one:.2f}x")
    # The model work inside cross_validate, apart from its bookkeeping (fold assignment, scores,
    # the predictions table): the statistics of every fold from one pass against the fit, and
    # the five fold models' predictions of their rows against one prediction of every row.
    y = frame["churn"]
    folds = evaluate.stratified_folds(y, 5)
    parts = [np.flatnonzero(folds == f) for f in range(5)]
    fits, passes, predicts, fold_predicts = [], [], [], []
    for _ in range(repeats):
        encode._CODES.clear()
        fits.append(timed(lambda: make().fit(frame, "churn")))
        model = make().fit(frame, "churn")
        predicts.append(timed(lambda: model.predict_proba(frame)))
        encode._CODES.clear()
        fold_stats: list = []
        passes.append(timed(lambda: fold_stats.extend(make().summarize_parts(frame, "churn", folds))))
        total = sum(fold_stats[1:], fold_stats[0])
        fold_predicts.append(timed(lambda: [make().fit_stats(total - s, "churn").log_posterior(frame, rows=rows)
                                            for s, rows in zip(fold_stats, parts)]))
    fit, one_pass = statistics.median(fits), statistics.median(passes)
    predict, fold_predict = statistics.median(predicts), statistics.median(fold_predicts)
    print(f"  the model work: statistics of all 5 folds in one pass {one_pass:.3f} s against one fit {fit:.3f} s; "
          f"5 fold models predicting their rows {fold_predict:.3f} s against one predict_proba {predict:.3f} s: "
          f"{(one_pass + fold_predict) / (fit + predict):.2f}x; the rest of cross_validate (fold assignment, scores, "
          f"predictions table) {kfold - one_pass - fold_predict:.3f} s")
    if memory_only:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "clean.csv"
        path.write_bytes(data)
        out = Path(tmp) / "predictions.parquet"
        streamed = timed(lambda: nbapp.predict_file(nbapp.fit_file(make(), path, "churn"), path, out))
        cv = timed(lambda: nbapp.cross_validate_file(make(), path, "churn", k=5))
        print(f"{rows:,} rows from a CSV: fit_file + predict_file {streamed:.2f} s, 5-fold cross_validate_file "
              f"{cv:.2f} s ({cv / streamed:.1f}x)")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(int(args[0]) if args else 1_000_000, memory_only="--memory" in sys.argv)
