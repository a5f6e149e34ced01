"""Fitting from files: nbapp.fit_file (DuckDB, streamed batches) against pandas.read_csv + fit.

    python bench/bench_scale.py                          # 10^5 and 10^6 rows
    python bench/bench_scale.py 100000 1000000 10000000  # any sizes
    python bench/bench_scale.py --repeat 3 --five-gb     # medians of 3, plus a ~5 GB CSV (minutes)

Data: 5 categorical columns (5 letters), 5 Gaussian columns (4 decimals), 3 classes; about 49
bytes a row. The CSV is written to a temporary folder (``--dir``), measured, then deleted.
Each measurement runs in its own process, which reports its own peak memory (ru_maxrss,
including the interpreter and the imported libraries, about 150-250 MiB). pandas + fit is
skipped where the table would not fit in memory (estimated 7x the CSV's size, from the
10^7-row run) and the line says so.

Prints per size and method: median seconds, peak RSS, MB/s and rows/s; then fit_file's time
per million rows at every size (the linearity check: linear cost means a flat column).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
FEATURES = {**{f"c{i}": "categorical" for i in range(5)}, **{f"g{i}": "gaussian" for i in range(5)}}
CHUNK = 500_000          # rows rendered at a time
DISTINCT_CHUNKS = 8      # beyond these, rendered chunks are written again (fast for 5 GB)
PANDAS_BLOWUP = 7.0      # peak RSS of read_csv + fit / CSV bytes, measured at 10^7 rows

RUN = """
import json, resource, sys, time
import pandas as pd
sys.path.insert(0, {root!r})
import nbapp
features = {features!r}
start = time.perf_counter()
if {how!r} == "fit_file":
    m = nbapp.fit_file(nbapp.NaiveBayes(features), {path!r}, "y")
else:
    m = nbapp.NaiveBayes(features).fit(pd.read_csv({path!r}), "y")
print(json.dumps({{"seconds": time.perf_counter() - start, "rows": float(m.class_counts_.sum()),
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def render(rows: int, seed: int) -> bytes:
    """``rows`` data rows as CSV bytes (no header)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    frame = pd.DataFrame({f"c{i}": np.array(["a", "b", "c", "d", "e"])[(rng.integers(0, 5, rows) + y * i) % 5]
                          for i in range(5)})
    for i in range(5):
        frame[f"g{i}"] = np.round(rng.normal(y * (i % 3), 1.0 + i / 5), 4)
    frame["y"] = np.array(["x", "y", "z"])[y]
    return frame.to_csv(index=False, header=False).encode()


def write_csv(path: Path, rows: int | None = None, min_bytes: int | None = None) -> int:
    """Write ``rows`` rows, or whole chunks until the file holds ``min_bytes``; returns the rows."""
    header = (",".join([*FEATURES, "y"]) + "\n").encode()
    return write_chunks(path, header, render, rows, min_bytes)


def write_chunks(path: Path, header: bytes, render_chunk, rows: int | None = None,
                 min_bytes: int | None = None) -> int:
    """``header``, then ``rows`` rows, or whole chunks until the file holds ``min_bytes``, each
    chunk ``render_chunk(n, seed=...)``; beyond DISTINCT_CHUNKS the rendered chunks are written
    again (fast for 5 GB). Returns the rows written."""
    rendered: list[bytes] = []
    written = size = 0
    with open(path, "wb") as out:
        out.write(header)
        while (rows is not None and written < rows) or (min_bytes is not None and size < min_bytes):
            n = CHUNK if rows is None else min(CHUNK, rows - written)
            if n == CHUNK and len(rendered) == DISTINCT_CHUNKS:
                chunk = rendered[(written // CHUNK) % DISTINCT_CHUNKS]
            else:
                chunk = render_chunk(n, seed=written // CHUNK)
                if n == CHUNK:
                    rendered.append(chunk)
            out.write(chunk)
            written += n
            size += len(chunk)
    return written


def measure(how: str, path: Path) -> dict:
    code = RUN.format(root=str(ROOT), features=FEATURES, how=how, path=str(path))
    out = subprocess.run(["nice", sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{how} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])     # peak RSS measured in the child itself


def available_mib() -> float:
    with open("/proc/meminfo") as f:
        info = {line.split(":")[0]: int(line.split()[1]) for line in f}
    return info["MemAvailable"] / 1024


def run_size(path: Path, rows: int, label: str, repeat: int, results: list) -> None:
    mb = path.stat().st_size / 1e6
    for how in ("pandas + fit", "fit_file"):
        if how == "pandas + fit" and mb * PANDAS_BLOWUP > 0.7 * available_mib():
            print(f"{label:>14} {how:>14}   skipped: about {mb * PANDAS_BLOWUP / 1024:.0f} GiB needed, "
                  f"{available_mib() / 1024:.0f} GiB available", flush=True)
            continue
        runs = [measure("fit_file" if how == "fit_file" else "pandas", path) for _ in range(repeat)]
        assert all(r["rows"] == rows for r in runs), (runs, rows)
        seconds = statistics.median(r["seconds"] for r in runs)
        peak = max(r["peak_mib"] for r in runs)
        print(f"{label:>14} {how:>14} {mb:>9,.0f} {seconds:>9.2f} {peak:>9,.0f} {mb / seconds:>8.1f} "
              f"{rows / seconds:>12,.0f}   (runs: {', '.join(format(r['seconds'], '.2f') for r in runs)})", flush=True)
        results.append({"rows": rows, "method": how, "mb": mb, "seconds": seconds, "peak_mib": peak})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=[100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=1, help="runs per size and method (median reported)")
    parser.add_argument("--five-gb", action="store_true", help="also a ~5 GB CSV (fit_file only; minutes)")
    parser.add_argument("--dir", default=None, help="where the CSVs are written (default: the temp folder)")
    parser.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = parser.parse_args()

    print(f"{'rows':>14} {'method':>14} {'CSV MB':>9} {'seconds':>9} {'peak MiB':>9} {'MB/s':>8} {'rows/s':>12}")
    results: list[dict] = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for rows in args.sizes:
            path = Path(tmp) / f"data_{rows}.csv"
            write_csv(path, rows)
            run_size(path, rows, f"{rows:,}", args.repeat, results)
            path.unlink()
        if args.five_gb:
            path = Path(tmp) / "data_5gb.csv"
            start = time.perf_counter()
            rows = write_csv(path, min_bytes=5_000_000_000)
            print(f"(5 GB file: {rows:,} rows, {path.stat().st_size / 1e9:.2f} GB written in "
                  f"{time.perf_counter() - start:.0f} s)", flush=True)
            try:
                run_size(path, rows, f"{rows:,}", 1, results)
            finally:
                path.unlink()
    fit_file = [r for r in results if r["method"] == "fit_file"]
    if len(fit_file) > 1:
        print("\nlinearity: fit_file seconds per million rows (flat = linear)")
        for r in fit_file:
            print(f"{r['rows']:>14,} {r['seconds'] / r['rows'] * 1e6:>9.2f} s / 10^6 rows")
        first, last = fit_file[0], fit_file[-1]
        print(f"time grows {last['seconds'] / first['seconds']:.1f}x for {last['rows'] / first['rows']:.0f}x rows")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
