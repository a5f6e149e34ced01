"""What loading a model file costs: CPU time and peak memory of NaiveBayes.from_json.

    python bench/bench_model_load.py

Each document is loaded in a fresh process (peak resident memory is a per-process figure);
the load's CPU time (json holds the GIL while it parses, so this is time other sessions of the
app wait) and the rise of peak RSS over the process before loading are printed:

* a text model of counts just under nbapp.persist.MAX_BYTES, and one of twice that size (refused
  by today's cap; loaded here with the cap lifted, to show what the cap saves);
* a hostile document of the same size made of small lists ("[0],[0],..."), the most memory a
  document of that size can make json build;
* a model file declaring 60,000 categories.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import nbapp  # noqa: E402
from nbapp.persist import MAX_BYTES  # noqa: E402

LOAD = """
import sys, time
sys.path.insert(0, {root!r})
import nbapp, nbapp.persist

def peak():      # VmHWM: this process's peak resident memory (getrusage's survives exec)
    line = next(l for l in open("/proc/self/status") if l.startswith("VmHWM"))
    return int(line.split()[1]) / 1024

nbapp.persist.MAX_BYTES = {cap}
text = open({path!r}, "rb").read()
base = peak()
start = time.process_time()
try:
    nbapp.NaiveBayes.from_json(text)
    outcome = "loaded"
except nbapp.DataError as exc:
    outcome = "refused: " + str(exc)[:40]
seconds = time.process_time() - start
print(f"{{seconds:.2f}} s CPU, peak RSS +{{peak() - base:.0f}} MB ({{outcome}})")
"""


def text_model(terms: int, classes: int) -> str:
    frame = pd.DataFrame({"t": ["a b", "c d"] * classes, "y": [f"k{i}" for i in range(classes)] * 2})
    doc = json.loads(nbapp.NaiveBayes({"t": "text"}).fit(frame, "y").to_json())
    counts = np.random.default_rng(0).integers(0, 40, size=(terms, classes)).astype(float)
    doc["blocks"][0]["stats"].update(terms=[f"w{i:07d}" for i in range(terms)], word_counts=counts.tolist(),
                                     doc_freq=np.minimum(counts, 3).tolist())
    return json.dumps(doc)


def of_size(size: int, classes: int = 6) -> str:
    probe = text_model(10_000, classes)
    return text_model(int(10_000 * size / len(probe)), classes)


def small_lists(size: int) -> str:
    head = '{"format": "nbapp.NaiveBayes", "version": 2, "x": ['
    return head + "[0]," * ((size - len(head) - 3) // 4) + "0]}"


def declared_categories(n: int) -> str:
    levels = [f"c{i}" for i in range(n)]
    frame = pd.DataFrame({"a": levels[:50], "y": ["p", "q"] * 25})
    return nbapp.NaiveBayes({"a": nbapp.Categorical(categories=levels)}).fit(frame, "y").to_json()


def load(path: Path, cap: int) -> str:
    code = LOAD.format(root=str(ROOT), cap=cap, path=str(path))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    cap = MAX_BYTES
    documents = {
        f"text model, {cap * 0.99 / 2**20:.0f} MB (the cap is {cap // 2**20} MB)": of_size(int(cap * 0.99)),
        f"text model, {cap * 1.98 / 2**20:.0f} MB, cap lifted": of_size(int(cap * 1.98)),
        f"small lists, {cap / 2**20:.0f} MB": small_lists(cap - 1),
        "60,000 declared categories": declared_categories(60_000),
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, text in documents.items():
            path = Path(folder) / "m.json"
            path.write_text(text)
            print(f"{name:45s} {len(text) / 2**20:6.1f} MB: {load(path, max(cap, len(text)))}")


if __name__ == "__main__":
    main()
