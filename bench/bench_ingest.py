"""Reading an upload: nbapp.load_table (fast path, every check of the careful path kept)
against plain pandas.read_csv of the same bytes, in the same run.

    python bench/bench_ingest.py                 # 1,000,000 rows of each file below
    python bench/bench_ingest.py 200000          # any number of rows
    python bench/bench_ingest.py --repeats 11    # rounds per file (default 7)
    python bench/bench_ingest.py --files mixed one

Three files (issue 24 names the last two):

* clean: 15 columns (7 text, 2 integer, 6 decimal), about 110 MB;
* mixed: an integer id, short strings, a yes/no column and two-decimal numbers, about 34 MB;
* one column: two-decimal numbers, about 6 MB.

Each round reads the file once with pandas and once with load_table, one right after the
other, so that both see the same load of this shared machine. Printed per file: the median
and the best of each reader's wall-clock time, the ratio (pandas time / load_table time; 1.0
means as fast as pandas, the goal is at least 0.7) as the median of the per-round ratios,
the same in CPU seconds (all threads), and the load average (`os.getloadavg`) before and
after. The careful path alone (load_table as it read every file before the fast path) is
timed once on the clean file for reference.
"""

from __future__ import annotations

import argparse
import io
import os
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


def mixed_csv(rows: int, seed: int = 0) -> bytes:
    """Issue 24's mixed file: an integer id, short strings, yes/no, two-decimal numbers."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "id": np.arange(1, rows + 1),
        "city": np.array(["London", "Paris", "Berlin", "Madrid", "Rome"])[rng.integers(0, 5, rows)],
        "plan": np.array(["basic", "plus", "pro"])[rng.integers(0, 3, rows)],
        "churn": np.array(["yes", "no"])[rng.integers(0, 2, rows)],
        "amount": np.round(rng.normal(100, 30, rows), 2),
        "fee": np.round(rng.uniform(0, 20, rows), 2),
    })
    return frame.to_csv(index=False).encode()


def one_column_csv(rows: int, seed: int = 0) -> bytes:
    """Issue 24's one-column file: two-decimal numbers under one name."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"amount": np.round(rng.normal(100, 30, rows), 2)}).to_csv(index=False).encode()


def timed(read) -> tuple[float, float]:
    """Wall-clock and CPU seconds (all threads) of one read."""
    wall, cpu = time.perf_counter(), time.process_time()
    read()
    return time.perf_counter() - wall, time.process_time() - cpu


def rounds(data: bytes, name: str, repeats: int) -> dict[str, np.ndarray]:
    """pandas then load_table, ``repeats`` times in turns; seconds per round."""
    times = {"pandas": [], "pandas_cpu": [], "load": [], "load_cpu": []}
    for _ in range(repeats):
        wall, cpu = timed(lambda: pd.read_csv(io.BytesIO(data)))
        times["pandas"].append(wall)
        times["pandas_cpu"].append(cpu)
        wall, cpu = timed(lambda: load_table(data, name))
        times["load"].append(wall)
        times["load_cpu"].append(cpu)
    return {key: np.array(value) for key, value in times.items()}


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def report(label: str, data: bytes, name: str, repeats: int) -> None:
    fast = load_table(data, name)
    careful = _read_delimited(data, name, None, fast=False)
    pd.testing.assert_frame_equal(fast.frame, careful.frame)
    assert fast.notes == careful.notes
    before = load_average()
    t = rounds(data, name, repeats)
    ratio = np.median(t["pandas"] / t["load"])
    cpu_ratio = np.median(t["pandas_cpu"] / t["load_cpu"])
    print(f"{label}: {fast.frame.shape[0]:,} rows x {fast.frame.shape[1]} columns, {len(data) / 1e6:.0f} MB; "
          f"load average {before} -> {load_average()}")
    print(f"  pandas.read_csv   median {np.median(t['pandas']):6.3f} s  best {t['pandas'].min():6.3f} s  "
          f"(CPU {np.median(t['pandas_cpu']):.3f} s)")
    print(f"  nbapp.load_table  median {np.median(t['load']):6.3f} s  best {t['load'].min():6.3f} s  "
          f"(CPU {np.median(t['load_cpu']):.3f} s)")
    print(f"  ratio pandas/load_table: median of {repeats} rounds {ratio:.2f} (goal >= 0.7), "
          f"of the bests {t['pandas'].min() / t['load'].min():.2f}; in CPU time {cpu_ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--files", nargs="+", choices=["clean", "mixed", "one"], default=["clean", "mixed", "one"])
    args = parser.parse_args()
    if "clean" in args.files:
        report("clean (15 columns)", clean_csv(args.rows), "clean.csv", args.repeats)
    if "mixed" in args.files:
        report("mixed (issue 24)", mixed_csv(args.rows), "mixed.csv", args.repeats)
    if "one" in args.files:
        report("one column (issue 24)", one_column_csv(args.rows), "one.csv", args.repeats)
    if "clean" in args.files:
        careful_s, _ = timed(lambda: _read_delimited(clean_csv(args.rows), "clean.csv", None, fast=False))
        print(f"careful path alone on the clean file: {careful_s:.2f} s (same frame and notes)")


if __name__ == "__main__":
    main()
