"""How long the Explain page's exact tables take to build (issue 14): the factor table (counted,
reduced, decimal, log per class), the totals, the equations and the per-word rows.

    PYTHONPATH=. python bench/bench_explain_views.py
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

import nbapp
from nbapp.examples import example, load_example
from ui import formulas


def build(model, e) -> None:
    classes = list(e.classes)
    formulas.factor_rows(model, e, classes)
    formulas.totals_rows(e, classes)
    formulas.explain_equations(model, e, classes)
    for column, words in e.words.items():
        formulas.word_rows(model, column, words, classes)


def timed(model, e, repeats: int = 10) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        build(model, e)
    return (time.perf_counter() - start) / repeats * 1000


def main() -> None:
    for key in ("tennis14", "word_counts", "sms_spam"):
        ex, df = example(key), load_example(key)
        model = nbapp.NaiveBayes(ex.feature_specs(), alpha=1).fit(df, target=ex.target, weight=ex.weight)
        print(f"{key:>12}: {timed(model, model.explain(ex.query)):7.1f} ms per Explain build")
    rng = np.random.default_rng(0)
    for d in (100, 500):
        frame = pd.DataFrame(rng.poisson(1, size=(200, d)), columns=[f"w{i}" for i in range(d)])
        frame["y"] = rng.choice(["a", "b"], 200)
        model = nbapp.NaiveBayes({c: "multinomial" for c in frame.columns if c != "y"}).fit(frame, target="y")
        e = model.explain(frame.drop(columns="y").iloc[0].to_dict())
        print(f"{d:>5}-column multinomial: {timed(model, e, 3):7.1f} ms per Explain build")


if __name__ == "__main__":
    main()
