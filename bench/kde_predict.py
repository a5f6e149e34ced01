"""Predicting 1,000,000 rows with a KDE column vs a Gaussian column (issue 12).

    PYTHONPATH=$PWD python bench/kde_predict.py

Fits both on 100,000 rows (3 classes, skewed and bimodal values), then times the block's
joint log-likelihood on 1,000,000 rows (best of 3) and prints the ratio, and the largest
relative error of the KDE against scipy.stats.gaussian_kde with the same bandwidth on 2,000
points where the density is above 1e-6 of its peak.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from scipy.stats import gaussian_kde

import nbapp


def data(n: int, rng: np.random.Generator) -> pd.DataFrame:
    y = rng.integers(0, 3, n)
    x = np.where(y == 0, rng.lognormal(0, 1, n),
                 np.where(y == 1, rng.normal(0, 1, n) + 4 * rng.integers(0, 2, n), rng.gamma(2, 2, n)))
    return pd.DataFrame({"x": x, "y": y})


def best_of(f, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(0)
    train, test = data(100_000, rng), data(1_000_000, rng)
    for kind in ("gaussian", nbapp.KDE()):
        model = nbapp.NaiveBayes({"x": kind}).fit(train, "y")
        block = model.block_of("x")
        block.joint_log(test.head(10), 3)                 # build the grids once (part of fitting)
        seconds = best_of(lambda: block.joint_log(test, 3))
        print(f"{block.kind:9s} joint log-likelihood of 1,000,000 rows: {seconds * 1000:7.1f} ms")
        if block.kind == "gaussian":
            gaussian = seconds
        else:
            print(f"KDE / Gaussian: {seconds / gaussian:.1f}x")
    h = model.parameters("x")["h"]
    worst = 0.0
    for c in range(3):
        values = train.loc[train["y"] == c, "x"].to_numpy()
        exact = gaussian_kde(values, bw_method=h[c] / values.std(ddof=1))
        points = np.linspace(values.min() - 3 * h[c], values.max() + 3 * h[c], 2000)
        ref = exact(points)
        ours = model.gaussian_density("x", points)[c].to_numpy()
        keep = ref > 1e-6 * ref.max()
        worst = max(worst, float(np.max(np.abs(ours[keep] - ref[keep]) / ref[keep])))
    print(f"largest relative error vs scipy.stats.gaussian_kde (100,000 rows): {worst:.1e}")


if __name__ == "__main__":
    main()
