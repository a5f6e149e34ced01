"""nbapp vs scikit-learn on a large mixed table, timed in the same run on the same data.

    python bench/bench_model.py [--rows 1000000] [--repeat 3]

Data: ROWS rows, 10 string categorical columns (cardinality 2..50), 10 Gaussian columns,
3 classes. nbapp fits and predicts straight from the DataFrame; scikit-learn needs
OrdinalEncoder + CategoricalNB + GaussianNB, whose joint log-likelihoods are combined
the only way they can be (sum, minus one extra log prior, normalise).
Prints best-of-REPEAT wall times, ratios (> 1 means nbapp is faster), peak extra memory
(tracemalloc, numpy and pandas allocations) and the time of one ``explain``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import nbapp  # noqa: E402

N_CAT = 10
N_GAUSS = 10


def make_data(rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    columns = {}
    for j in range(N_CAT):
        card = int(np.linspace(2, 50, N_CAT)[j])
        codes = (rng.integers(0, card, rows) + y * (j % 3)) % card
        columns[f"cat{j}"] = pd.Series(np.array([f"v{k:02d}" for k in range(card)], dtype=object)[codes])
    for j in range(N_GAUSS):
        columns[f"num{j}"] = rng.normal(y * 0.3 * (j % 4), 1.0 + j / 10, rows)
    columns["y"] = np.array(["alpha", "beta", "gamma"], dtype=object)[y]
    return pd.DataFrame(columns)


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def peak_memory(fn) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def nbapp_run(df: pd.DataFrame) -> pd.DataFrame:
    features = {c: ("categorical" if c.startswith("cat") else "gaussian") for c in df.columns if c != "y"}
    model = nbapp.NaiveBayes(features, alpha=1.0).fit(df, target="y")
    return model.predict_proba(df)


def sklearn_encode(df: pd.DataFrame) -> np.ndarray:
    return OrdinalEncoder().fit_transform(df[[f"cat{j}" for j in range(N_CAT)]])


def nbapp_encode(df: pd.DataFrame) -> list[np.ndarray]:
    return [pd.factorize(df[f"cat{j}"])[0] for j in range(N_CAT)]


def sklearn_run(df: pd.DataFrame) -> np.ndarray:
    cats = sklearn_encode(df)
    nums = df[[f"num{j}" for j in range(N_GAUSS)]].to_numpy()
    y = df["y"].to_numpy()
    cnb = CategoricalNB(alpha=1.0).fit(cats, y)
    gnb = GaussianNB().fit(nums, y)
    jll = cnb.predict_joint_log_proba(cats) + gnb.predict_joint_log_proba(nums) - np.log(gnb.class_prior_)
    return np.exp(jll - logsumexp(jll, axis=1, keepdims=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    df = make_data(args.rows)
    t_nb, p_nb = best(lambda: nbapp_run(df), args.repeat)
    t_sk, p_sk = best(lambda: sklearn_run(df), args.repeat)
    t_enc_nb, _ = best(lambda: nbapp_encode(df), args.repeat)
    t_enc_sk, _ = best(lambda: sklearn_encode(df), args.repeat)
    mem_nb = peak_memory(lambda: nbapp_run(df))
    mem_sk = peak_memory(lambda: sklearn_run(df))

    features = {c: ("categorical" if c.startswith("cat") else "gaussian") for c in df.columns if c != "y"}
    model = nbapp.NaiveBayes(features).fit(df, target="y")
    row = df.drop(columns="y").iloc[0].to_dict()
    model.explain(row)
    t_explain, _ = best(lambda: model.explain(row), 50)

    agree = float(np.abs(p_nb.to_numpy() - p_sk).max())
    print(f"{args.rows:,} rows x {N_CAT} categorical + {N_GAUSS} Gaussian columns, 3 classes "
          f"(best of {args.repeat})")
    print(f"{'step':<40}{'nbapp':>12}{'sklearn':>12}{'ratio':>10}")
    print(f"{'fit + predict_proba (s)':<40}{t_nb:>12.3f}{t_sk:>12.3f}{t_sk / t_nb:>9.1f}x")
    print(f"{'string encoding (s)':<40}{t_enc_nb:>12.3f}{t_enc_sk:>12.3f}{t_enc_sk / t_enc_nb:>9.1f}x")
    print(f"{'peak extra memory (MiB)':<40}{mem_nb:>12.0f}{mem_sk:>12.0f}{mem_sk / mem_nb:>9.2f}x")
    print(f"{'explain one row (ms)':<40}{t_explain * 1000:>12.2f}")
    print(f"max |P_nbapp - P_sklearn| = {agree:.2e}")


if __name__ == "__main__":
    main()
