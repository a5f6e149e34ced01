"""Reading an upload: nbapp.load_table (fast path, every check of the careful path kept)
against plain pandas.read_csv of the same bytes, in the same run.

    python bench/bench_ingest.py            # 1,000,000 rows (about 110 MB), 15 mixed columns
    python bench/bench_ingest.py 200000     # any number of rows

Prints the best of five timings of each reader (run in turns, so both see the same load), the ratio (pandas time / load_table time; 1.0
means as fast as pandas, the goal is at least 0.7), the same in CPU seconds (load_table uses
both cores: on a busy machine its wall time tends to its CPU time), and for reference the careful path alone
(load_table as it read every file before the fast path) once.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nbapp.io import load_table  # noqa: E402
from nbapp.io._delimited import _read_delimited  # noqa: E402


def clean_csv(rows: int, seed: int = 0) -> bytes:
    """A clean export: 7 text columns, 2 integer and 6 decimal columns, a class column."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    words = np.array(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"])
    frame = pd.DataFrame({
        "city": np.array(["London", "Paris", "Berlin", "Madrid", "Rome", "Vienna"])[rng.integers(0, 6, rows)],
        "plan": words[rng.integers(0, 8, rows)],
        "device": np.array(["mobile", "desktop", "tablet"])[rng.integers(0, 3, rows)],
        "age": rng.integers(18, 90, rows),
        "income": np.round(rng.normal(50000 + 5000 * y, 12000), 2),
        "score": np.round(rng.normal(y, 1.0), 6),
        "ratio": np.round(rng.random(rows), 6),
        "visits": rng.poisson(3 + y),
        "temp": np.round(rng.normal(20, 5, rows), 3),
        "segment": words[rng.integers(0, 8, rows)],
        "browser": np.array(["Firefox", "Chrome", "Safari", "Edge"])[rng.integers(0, 4, rows)],
        "lat": np.round(rng.uniform(-90, 90, rows), 7),
        "lon": np.round(rng.uniform(-180, 180, rows), 7),
        "region": np.array(["north-east", "south-west", "central"])[rng.integers(0, 3, rows)],
        "churn": np.array(["stay", "leave", "maybe"])[y],
    })
    return frame.to_csv(index=False).encode()


def best_of(read, repeats: int = 3) -> tuple[float, float]:
    """The best wall-clock and CPU seconds (all threads) of ``repeats`` runs."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        read()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def alternating(first, second, repeats: int = 5) -> tuple[tuple[float, float], tuple[float, float]]:
    """Best of ``repeats`` for each, run in turns so that both see the same machine load."""
    a, b = [], []
    for _ in range(repeats):
        a.append(best_of(first, 1))
        b.append(best_of(second, 1))
    return (min(x[0] for x in a), min(x[1] for x in a)), (min(x[0] for x in b), min(x[1] for x in b))


def main(rows: int) -> None:
    data = clean_csv(rows)
    print(f"{rows:,} rows, {len(data) / 1e6:.0f} MB, 15 columns")
    fast = load_table(data, "clean.csv")
    careful = _read_delimited(data, "clean.csv", None, fast=False)
    pd.testing.assert_frame_equal(fast.frame, careful.frame)
    assert fast.notes == careful.notes
    (pandas_s, pandas_cpu), (load_s, load_cpu) = alternating(lambda: pd.read_csv(io.BytesIO(data)),
                                                             lambda: load_table(data, "clean.csv"))
    careful_s, _ = best_of(lambda: _read_delimited(data, "clean.csv", None, fast=False), repeats=1)
    print(f"pandas.read_csv          {pandas_s:7.2f} s  (CPU {pandas_cpu:.2f} s)")
    print(f"nbapp.load_table         {load_s:7.2f} s  (CPU {load_cpu:.2f} s, two threads)   "
          f"ratio pandas/load_table = {pandas_s / load_s:.2f} (goal >= 0.7); in CPU time {pandas_cpu / load_cpu:.2f}")
    print(f"careful path alone       {careful_s:7.2f} s   ({careful_s / load_s:.1f}x the fast path; same frame and notes)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
