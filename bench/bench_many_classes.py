"""What a model of many classes costs: a valid model file of 1,000 / 4,000 / 100,000 classes (a
categorical and a Gaussian feature, two rows per class), loaded as "Load a model file" loads it,
the Model page run on it, the Explain page after it (Streamlit's AppTest, one process per size),
and the library's own load and explain of one row (issue 31, item 6).

    python bench/bench_many_classes.py [1000 4000 100000]

Before issue 31 the Model page took 3 / 51 s for 1,000 / 4,000 classes and 8 minutes for 100,000
(the prior recomputed once per class); linear work shows as times that grow about as the
classes do (x4, then x25). The pages show at most ui.classes.MAX_SHOWN_CLASSES classes.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = """
import os, sys, time
sys.path.insert(0, {root!r}); sys.path.insert(0, {tests!r}); os.chdir({root!r})
import nbapp
from apptest_helpers import start, open_page

text = open({path!r}, "rb").read()
t = time.perf_counter(); model = nbapp.NaiveBayes.from_json(text); load = time.perf_counter() - t
t = time.perf_counter(); model.explain({{"colour": "red", "size": 0.1}}); explain = time.perf_counter() - t
at = start(timeout=1800)
open_page(at, "Model")
t = time.perf_counter()
at.file_uploader(key="model.json_upload").set_value(("many.json", text, "application/json")).run()
model_page = time.perf_counter() - t
assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
t = time.perf_counter()
open_page(at, "Explain")
explain_page = time.perf_counter() - t
print(f"{{load:8.2f}} {{explain:8.2f}} {{model_page:10.2f}} {{explain_page:12.2f}}")
"""


def model_file(k: int, folder: Path) -> Path:
    import numpy as np
    import pandas as pd

    sys.path.insert(0, str(ROOT))
    from nbapp import NaiveBayes

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], 2 * k), "size": rng.normal(size=2 * k),
                          "y": [f"class{i:06d}" for i in range(k)] * 2})
    path = folder / f"many_{k}.json"
    path.write_text(NaiveBayes({"colour": "categorical", "size": "gaussian"}).fit(frame, "y").to_json())
    return path


def main(sizes: list[int]) -> None:
    print(f"{'classes':>8} {'MB':>6} {'load s':>8} {'explain':>8} {'Model page':>10} {'Explain page':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for k in sizes:
            path = model_file(k, Path(folder))
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", RUN.format(root=str(ROOT), tests=str(ROOT / "tests"),
                                                                    path=str(path))],
                                 capture_output=True, text=True, cwd=ROOT)
            if out.returncode:
                print(f"{k:>8,}: failed after {time.perf_counter() - start:.0f} s\n{out.stderr[-2000:]}")
                continue
            line = out.stdout.strip().splitlines()[-1]
            print(f"{k:>8,} {path.stat().st_size / 2**20:6.1f} {line}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1_000, 4_000, 100_000])
