"""Text benchmark: nbapp.text against scikit-learn's CountVectorizer, same run.

    python bench/bench_text.py [--docs N] [--vocab V] [--tokens T] [--repeats R] [--no-memory]
                               [--parts vectorise pipeline]

A seeded Zipf corpus (issue 4: 100,000 documents, a 50,000-word vocabulary, about 100
tokens each, some capitalised words and punctuation) is vectorised by

* ours:    fit_vocabulary(docs) + count_matrix(docs, vocabulary)
* sklearn: CountVectorizer(token_pattern=r"(?u)\\w+").fit_transform(docs) + .transform(docs)

and the whole pipeline (NaiveBayes fit + predict_proba against CountVectorizer +
MultinomialNB; issue 24 asks for at least 2.5x), and one ``m.explain`` of a document.

Each round runs ours and then scikit-learn's, one right after the other, so both see the
same load of this shared machine; printed: the median and best wall-clock time of each, the
ratio (sklearn / ours, > 1 means nbapp is faster) as the median of the per-round ratios,
the same in CPU seconds (all threads), and the load average (``os.getloadavg``) before and
after. Peak memory is measured separately with tracemalloc (numpy and scipy report their
buffers to it), so the tracing does not slow the timed runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nbapp.text import TextOptions, count_matrix, fit_vocabulary  # noqa: E402

PATTERN = r"(?u)\w+"


def zipf_corpus(
    n_docs: int, vocab_size: int, mean_tokens: int, *, seed: int = 0
) -> tuple[list[str], np.ndarray]:
    """Documents of Poisson(mean_tokens) words drawn from P(rank k) ~ 1/k, and labels.

    Class "spam" draws from the same law with a random 5% of the ranks shuffled, so the
    classes differ a little. About 5% of the words are capitalised and 8% carry a comma.
    """
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words: dict[str, None] = {}
    while len(words) < vocab_size:
        for length in rng.integers(2, 11, size=vocab_size):
            words.setdefault("".join(rng.choice(letters, length)), None)
            if len(words) == vocab_size:
                break
    vocab = np.array(list(words), dtype=object)
    p = 1.0 / np.arange(1, vocab_size + 1)
    p /= p.sum()
    labels = np.where(rng.random(n_docs) < 0.3, "spam", "ham")
    n_tokens = rng.poisson(mean_tokens, n_docs)
    ids = rng.choice(vocab_size, size=int(n_tokens.sum()), p=p)
    moved = rng.choice(vocab_size, size=vocab_size // 20, replace=False)
    spam_rank = np.arange(vocab_size)
    spam_rank[moved] = rng.permutation(moved)
    token_label = np.repeat(labels, n_tokens)
    ids = np.where(token_label == "spam", spam_rank[ids], ids)
    tokens = vocab[ids]
    capital = rng.random(len(tokens)) < 0.05
    tokens[capital] = [t.capitalize() for t in tokens[capital]]
    comma = rng.random(len(tokens)) < 0.08
    tokens[comma] = [t + "," for t in tokens[comma]]
    ends = np.cumsum(n_tokens)
    docs = [" ".join(tokens[a:b]) for a, b in zip((ends - n_tokens).tolist(), ends.tolist())]
    return docs, labels


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (all threads) of one run."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def paired_rounds(ours: Callable[[], object], theirs: Callable[[], object], repeats: int) -> dict[str, np.ndarray]:
    """ours then theirs, ``repeats`` times in turns: wall and CPU seconds per round."""
    times: dict[str, list[float]] = {"ours": [], "ours_cpu": [], "theirs": [], "theirs_cpu": []}
    for _ in range(repeats):
        for name, run in (("ours", ours), ("theirs", theirs)):
            wall, cpu = timed(run)
            times[name].append(wall)
            times[f"{name}_cpu"].append(cpu)
    return {key: np.array(value) for key, value in times.items()}


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def peak_mib(run: Callable[[], object]) -> float:
    gc.collect()
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def ours_vectorise(docs: list[str]) -> None:
    vocabulary, _ = fit_vocabulary(docs, TextOptions())
    count_matrix(docs, {t: i for i, t in enumerate(vocabulary)}, TextOptions())


def sklearn_vectorise(docs: list[str]) -> None:
    from sklearn.feature_extraction.text import CountVectorizer

    cv = CountVectorizer(token_pattern=PATTERN)
    cv.fit_transform(docs)
    cv.transform(docs)


def ours_pipeline(frame: pd.DataFrame) -> object:
    import nbapp

    m = nbapp.NaiveBayes(features={"text": "text"}, alpha=1.0)
    m.fit(frame, target="label")
    m.predict_proba(frame)
    return m


def sklearn_pipeline(frame: pd.DataFrame) -> None:
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.naive_bayes import MultinomialNB

    cv = CountVectorizer(token_pattern=PATTERN)
    nb = MultinomialNB(alpha=1.0).fit(cv.fit_transform(frame["text"]), frame["label"])
    nb.predict_proba(cv.transform(frame["text"]))


def explain_ms(model: object, doc: str, repeats: int = 200) -> float:
    """Median time of one ``m.explain`` of a document, in milliseconds."""
    row = {"text": doc}
    model.explain(row)  # warm any lazily derived tables
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        model.explain(row)
        times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


def report(name: str, t: dict[str, np.ndarray], before: str) -> None:
    ratio = np.median(t["theirs"] / t["ours"])
    cpu_ratio = np.median(t["theirs_cpu"] / t["ours_cpu"])
    print(f"{name}: load average {before} -> {load_average()}")
    print(f"  nbapp    median {np.median(t['ours']):7.3f} s  best {t['ours'].min():7.3f} s  "
          f"(CPU {np.median(t['ours_cpu']):.3f} s)")
    print(f"  sklearn  median {np.median(t['theirs']):7.3f} s  best {t['theirs'].min():7.3f} s  "
          f"(CPU {np.median(t['theirs_cpu']):.3f} s)")
    print(f"  ratio sklearn/nbapp: median of {len(t['ours'])} rounds {ratio:.2f}x, of the bests "
          f"{t['theirs'].min() / t['ours'].min():.2f}x; in CPU time {cpu_ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--vocab", type=int, default=50_000)
    parser.add_argument("--tokens", type=int, default=100, help="mean tokens per document")
    parser.add_argument("--repeats", type=int, default=5, help="paired rounds")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    parser.add_argument("--parts", nargs="+", choices=["vectorise", "pipeline"], default=["vectorise", "pipeline"])
    args = parser.parse_args()

    start = time.perf_counter()
    docs, labels = zipf_corpus(args.docs, args.vocab, args.tokens)
    n_chars = sum(map(len, docs))
    print(
        f"corpus: {len(docs):,} documents, {n_chars / 1e6:.1f} M characters, "
        f"{args.vocab:,}-word Zipf vocabulary (generated in {time.perf_counter() - start:.1f} s)"
    )

    frame = pd.DataFrame({"text": docs, "label": labels})
    for name, ours, theirs in [("vectorise: fit + transform", lambda: ours_vectorise(docs),
                                lambda: sklearn_vectorise(docs)),
                               ("pipeline: NB fit + predict_proba (goal >= 2.5x)", lambda: ours_pipeline(frame),
                                lambda: sklearn_pipeline(frame))]:
        if name.split(":")[0] not in args.parts:
            continue
        before = load_average()
        report(name, paired_rounds(ours, theirs, args.repeats), before)
        if not args.no_memory:
            print(f"  peak memory (tracemalloc): nbapp {peak_mib(ours):.0f} MiB, sklearn {peak_mib(theirs):.0f} MiB")
    model = ours_pipeline(frame)
    print(f"m.explain of one document (median of 200): {explain_ms(model, docs[0]):.3f} ms")


if __name__ == "__main__":
    main()
