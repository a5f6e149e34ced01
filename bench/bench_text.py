"""Text vectorising benchmark: nbapp.text against scikit-learn's CountVectorizer, same run.

    python bench/bench_text.py [--docs N] [--vocab V] [--tokens T] [--repeats R] [--no-memory]

A seeded Zipf corpus (issue 4: 100,000 documents, a 50,000-word vocabulary, about 100
tokens each, some capitalised words and punctuation) is vectorised by

* ours:    fit_vocabulary(docs) + count_matrix(docs, vocabulary)
* sklearn: CountVectorizer(token_pattern=r"(?u)\\w+").fit_transform(docs) + .transform(docs)

and the whole pipeline
(NaiveBayes fit + predict_proba against CountVectorizer + MultinomialNB) and one
``m.explain`` of a document. Times are the best of ``--repeats`` runs; peak memory is
measured separately with tracemalloc (numpy and scipy report their buffers to it), so the
tracing does not slow the timed runs. Ratios > 1 mean nbapp is faster / smaller.
"""

from __future__ import annotations

import argparse
import gc
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


def best_time(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


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


def print_table(rows: list[tuple[str, float, float, str]]) -> None:
    print(f"{'measure':<40}{'nbapp':>12}{'sklearn':>12}{'ratio':>9}")
    for name, ours, theirs, unit in rows:
        ratio = theirs / ours if ours else float("nan")
        print(f"{name:<40}{ours:>10.3f}{unit:>2}{theirs:>10.3f}{unit:>2}{ratio:>8.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--vocab", type=int, default=50_000)
    parser.add_argument("--tokens", type=int, default=100, help="mean tokens per document")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    args = parser.parse_args()

    start = time.perf_counter()
    docs, labels = zipf_corpus(args.docs, args.vocab, args.tokens)
    n_chars = sum(map(len, docs))
    print(
        f"corpus: {len(docs):,} documents, {n_chars / 1e6:.1f} M characters, "
        f"{args.vocab:,}-word Zipf vocabulary (generated in {time.perf_counter() - start:.1f} s)"
    )

    frame = pd.DataFrame({"text": docs, "label": labels})
    rows = []
    for name, ours, theirs in [("vectorise: fit + transform", lambda: ours_vectorise(docs),
                                lambda: sklearn_vectorise(docs)),
                               ("pipeline: NB fit + predict_proba", lambda: ours_pipeline(frame),
                                lambda: sklearn_pipeline(frame))]:
        rows.append((f"{name} (time)", best_time(ours, args.repeats), best_time(theirs, args.repeats), " s"))
        if not args.no_memory:
            rows.append((f"{name.split(':')[0]}: peak memory (tracemalloc)", peak_mib(ours), peak_mib(theirs), "Mi"))
    print_table(rows)
    model = ours_pipeline(frame)
    print(f"m.explain of one document (median of 200): {explain_ms(model, docs[0]):.3f} ms")


if __name__ == "__main__":
    main()
