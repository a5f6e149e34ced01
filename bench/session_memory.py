"""Memory per session: eight AppTest sessions, each uploading its own 20,000-row CSV (about
1 MB) and fitting, in one process; prints the resident memory each one adds, and what is
left when every session has replaced its upload by a small file (released, apart from the
shared parsing cache of at most 8 files).

    python bench/session_memory.py
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rss_mib() -> float:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def csv(seed: int, rows: int) -> bytes:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"a": rng.choice(["x", "y", "z"], rows), "b": rng.normal(0, 1, rows).round(4),
                         "c": rng.integers(0, 9, rows), "label": rng.choice(["p", "q"], rows)}).to_csv(index=False).encode()


def upload(at, name: str, data: bytes):
    at.radio(key="_data_mode").set_value("Upload a file").run()
    at.file_uploader(key="data.uploader").set_value((name, data, "text/csv")).run()
    return at


def main() -> None:
    from streamlit.testing.v1 import AppTest

    base = rss_mib()
    sessions = []
    for i in range(8):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.run()
        sessions.append(upload(at, f"user{i}.csv", csv(i, 20_000)))
    loaded = rss_mib()
    for i, at in enumerate(sessions):
        upload(at, f"small{i}.csv", csv(100 + i, 50))
    gc.collect()
    replaced = rss_mib()
    print(f"process at start: {base:.0f} MiB; with 8 sessions of 20,000 rows: {loaded:.0f} MiB "
          f"({(loaded - base) / 8:.1f} MiB per session); after each replaced its upload by 50 rows: "
          f"{replaced:.0f} MiB")


if __name__ == "__main__":
    main()
