"""Fitting from files: nbapp.fit_file (DuckDB, streamed batches) against pandas.read_csv + fit.

Each measurement runs in its own process, which reports its own peak memory (ru_maxrss,
including the Python interpreter and the imported libraries, about 150 MiB).
Prints time, peak RSS, MB/s and rows/s per size, and how time grows with rows.

    python bench/bench_scale.py                 # 100,000 and 1,000,000 rows
    python bench/bench_scale.py 100000 10000000 # any sizes
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
FEATURES = {**{f"c{i}": "categorical" for i in range(5)}, **{f"g{i}": "gaussian" for i in range(5)}}

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


def write_csv(path: Path, rows: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    chunk = 500_000
    for start in range(0, rows, chunk):
        n = min(chunk, rows - start)
        y = rng.integers(0, 3, n)
        frame = pd.DataFrame({f"c{i}": np.array(["a", "b", "c", "d", "e"])[rng.integers(0, 5, n)] for i in range(5)})
        for i in range(5):
            frame[f"g{i}"] = np.round(rng.normal(y, 1.0), 4)
        frame["y"] = np.array(["x", "y", "z"])[y]
        frame.to_csv(path, mode="w" if start == 0 else "a", header=start == 0, index=False)


def measure(how: str, path: Path) -> dict:
    code = RUN.format(root=str(ROOT), features=FEATURES, how=how, path=str(path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])     # peak RSS measured in the child itself


def main(sizes: list[int]) -> None:
    print(f"{'rows':>12} {'method':>18} {'seconds':>9} {'peak MiB':>9} {'MB/s':>8} {'rows/s':>12}")
    timings = []
    with tempfile.TemporaryDirectory() as tmp:
        for rows in sizes:
            path = Path(tmp) / f"data_{rows}.csv"
            write_csv(path, rows)
            mb = path.stat().st_size / 1e6
            for how in ("pandas + fit", "fit_file"):
                r = measure("fit_file" if how == "fit_file" else "pandas", path)
                assert r["rows"] == rows
                print(f"{rows:>12,} {how:>18} {r['seconds']:>9.2f} {r['peak_mib']:>9.0f} {mb / r['seconds']:>8.1f} "
                      f"{rows / r['seconds']:>12,.0f}")
                if how == "fit_file":
                    timings.append((rows, r["seconds"]))
            path.unlink()
    if len(timings) > 1:
        (r0, t0), (r1, t1) = timings[0], timings[-1]
        print(f"fit_file time grows {t1 / t0:.1f}x for {r1 / r0:.0f}x rows (linear would be {r1 / r0:.0f}x)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100_000, 1_000_000])
