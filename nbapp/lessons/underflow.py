"""Underflow: why Naive Bayes multiplies in log space (seeds 002 and 004).

The joint probability P(c) prod_a P(x_a | c) is a product of many numbers below 1. A
float64 cannot hold a positive number below about 4.9e-324, so for a long document
(every word a factor) the running product reaches exactly 0.0 — for every class — and the
posterior becomes 0/0. The sum of logs stays an ordinary number however long the input:

    log [P(c) prod_a P(x_a | c)] = log P(c) + sum_a log P(x_a | c)   [seed 002; seed 004]

:func:`underflow_trace` multiplies the factors one by one (the way a naive loop would)
next to the running log-sum, and reports where the product first hits 0.0 while the log
stays finite. :func:`factors_until_underflow` says how many equal factors that takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from nbapp.blocks import REGISTRY
from nbapp.errors import DataError
from nbapp.logspace import normalise_log

__all__ = ["UnderflowTrace", "underflow_trace", "explanation_log_factors", "factors_until_underflow",
           "SMALLEST_FLOAT"]

#: The smallest positive float64 (a subnormal); anything smaller rounds to 0.0.
SMALLEST_FLOAT = float(np.nextafter(0.0, 1.0))


@dataclass(frozen=True)
class UnderflowTrace:
    """Running product and running log-sum of the factors, per class.

    ``probabilities``: step x class, the factor multiplied in at each step (the first step
    is usually the prior). ``product``: the raw running product in float64.
    ``log_sum``: the running sum of natural logs. ``labels``: what each step is.
    """

    labels: pd.Series
    probabilities: pd.DataFrame
    product: pd.DataFrame
    log_sum: pd.DataFrame

    @property
    def classes(self) -> list:
        return list(self.probabilities.columns)

    @property
    def underflow_step(self) -> pd.Series:
        """Per class, the first step where the product is 0.0 but the log-sum is finite
        (a true underflow, not a zero factor); <NA> if it never happens."""
        hit = ((self.product == 0.0) & np.isfinite(self.log_sum)).to_numpy()
        return _first_step(hit, self.product.index, self.classes, "underflow_step")

    @property
    def precision_lost_step(self) -> pd.Series:
        """Per class, the first step where the product drops below the smallest normal
        float64 (about 2.2e-308): from there on it keeps fewer and fewer significant
        digits, before reaching 0.0. <NA> if it never does."""
        tiny = np.finfo(np.float64).tiny
        hit = ((self.product < tiny) & np.isfinite(self.log_sum)).to_numpy()
        return _first_step(hit, self.product.index, self.classes, "precision_lost_step")

    @property
    def final_product(self) -> pd.Series:
        return self.product.iloc[-1].rename("product")

    @property
    def final_log(self) -> pd.Series:
        return self.log_sum.iloc[-1].rename("log_sum")

    @property
    def final_log10(self) -> pd.Series:
        """The joint in scientific notation's exponent: 10 ** this is the true product."""
        return (self.final_log / np.log(10.0)).rename("log10")

    @property
    def raw_posterior(self) -> pd.Series:
        """Product / sum of products: NaN (0/0) once every class has underflowed."""
        total = self.final_product.sum()
        if total == 0.0:
            return pd.Series(np.nan, index=self.classes, name="posterior")
        return (self.final_product / total).rename("posterior")

    @property
    def log_posterior(self) -> pd.Series:
        """exp(log joint - logsumexp): the same posterior nbapp computes, at any length."""
        joint = self.final_log.to_numpy(dtype=float)[None, :]
        log_post, _, _ = normalise_log(joint, np.zeros(joint.shape[1]))
        return pd.Series(np.exp(log_post[0]), index=self.classes, name="posterior")

    @property
    def underflowed(self) -> bool:
        """True when some class's product underflowed to 0.0 with a finite log."""
        return bool(self.underflow_step.notna().any())


def _first_step(hit: np.ndarray, steps: pd.Index, classes: list, name: str) -> pd.Series:
    """The step label of the first True per column, <NA> for a column without one."""
    first = np.asarray(steps)[hit.argmax(axis=0)]
    return pd.Series(pd.array(np.where(hit.any(axis=0), first, 0), dtype="Int64"),
                     index=classes, name=name).mask(~hit.any(axis=0))


def underflow_trace(source: Any, *, labels: Sequence[str] | None = None) -> UnderflowTrace:
    """Multiply factors one at a time, in float64, next to the running sum of logs.

    ``source`` is an Explanation (``m.explain(row)``: the prior, then every used factor;
    text and multinomial factors are expanded into one factor per word occurrence, see
    :func:`explanation_log_factors`), a DataFrame of probabilities (step x class), or a
    sequence of probabilities for one class. A probability must be >= 0; a density
    (Gaussian) may exceed 1.
    """
    if hasattr(source, "factors") and hasattr(source, "classes"):
        logs = explanation_log_factors(source)
    else:
        frame = source if isinstance(source, pd.DataFrame) else pd.DataFrame(
            {"p": np.asarray(list(source), dtype=float)})
        values = frame.to_numpy(dtype=float)
        bad = np.isnan(values) | (values < 0) | np.isinf(values)
        if bad.any():
            row, col = (int(k[0]) for k in np.nonzero(bad))
            raise DataError(
                f"Every factor must be a finite probability or density >= 0, but step {row + 1} "
                f"(factor {frame.index[row]!r}, column {frame.columns[col]!r}) is "
                f"{float(values[row, col])!r}; replace it, or drop that factor to leave it out "
                "of the product.")
        with np.errstate(divide="ignore"):
            logs = pd.DataFrame(np.log(values), index=frame.index, columns=frame.columns)
    if logs.empty:
        raise DataError("There are no factors to multiply; give at least one probability.")
    names = (pd.Series(list(labels)) if labels is not None
             else pd.Series([str(i) for i in logs.index]))
    if len(names) != len(logs):
        raise DataError(f"Got {len(names)} labels for {len(logs)} factors; give exactly one "
                        "label per factor, or none to number them.")
    steps = pd.RangeIndex(1, len(logs) + 1, name="step")
    log_values = logs.to_numpy(dtype=float)
    # np.cumprod multiplies left to right in float64, exactly like a loop would; the log
    # of each factor is kept as given, so a factor that is itself tiny stays exact.
    with np.errstate(under="ignore", over="ignore"):
        values = np.exp(log_values)
        product = np.cumprod(values, axis=0)
    log_sum = np.cumsum(log_values, axis=0)
    columns = list(logs.columns)
    return UnderflowTrace(
        labels=names.set_axis(steps).rename("factor"),
        probabilities=pd.DataFrame(values, index=steps, columns=columns),
        product=pd.DataFrame(product, index=steps, columns=columns),
        log_sum=pd.DataFrame(log_sum, index=steps, columns=columns))


def explanation_log_factors(e: Any) -> pd.DataFrame:
    """log P(. | c) of each multiplication in an explanation, factor x class.

    The prior and each used factor, in order. A text factor becomes one row per word
    occurrence (from ``e.words``), and a count k whose factor is theta^k (a multinomial
    count column: its type's ``count_exponent``) becomes k rows of log theta, so a long
    document shows as many factors as it has tokens. If the
    expansion does not add up to the factor's own log (e.g. Complement NB), the factor is
    kept whole.
    """
    classes = list(e.classes)
    logs = e.logs
    used = e.factors["status"] == "used"
    words = getattr(e, "words", {}) or {}
    parts: list[pd.DataFrame] = []
    for name in e.factors.index[used.to_numpy()]:   # a loop over factors, not data rows
        whole = logs.loc[[name], classes].astype(float)
        if name in words:
            expanded = _token_logs(words[name], classes, name)
        elif getattr(REGISTRY.get(e.factors.at[name, "kind"]), "count_exponent", False):
            expanded = _count_logs(whole, e.factors.at[name, "value"])
        else:
            expanded = whole
        if not np.allclose(expanded.to_numpy().sum(axis=0), whole.to_numpy()[0],
                           rtol=1e-9, atol=1e-9):
            expanded = whole
        parts.append(expanded)
    return pd.concat(parts)


#: Longest expansion of one factor; beyond it the factor is kept whole (memory bound).
_MAX_EXPANDED = 1_000_000


def _token_logs(table: pd.DataFrame, classes: list, column: str) -> pd.DataFrame:
    """One row per word occurrence of a per-term table from ``e.words``. In the Bernoulli
    event model a present word counts once and the absent words form one more factor."""
    bernoulli = (table["status"] == "absent").any()
    counted = table[table["status"].isin(["used", "UNK"])]
    repeats = np.ones(len(counted), dtype=int) if bernoulli else counted["count"].to_numpy(dtype=int)
    if repeats.sum() > _MAX_EXPANDED:
        return pd.DataFrame(columns=classes, dtype=float)
    log_columns = [f"log[{c}]" for c in classes]
    out = pd.DataFrame(counted[log_columns].to_numpy(dtype=float),
                       index=[f"{column}: {t}" for t in counted["term"]], columns=classes)
    out = out.loc[out.index.repeat(repeats)]
    if bernoulli:
        absent = table[table["status"] == "absent"]
        out = pd.concat([out, pd.DataFrame(
            absent[[f"contribution[{c}]" for c in classes]].to_numpy(dtype=float),
            index=[f"{column}: (absent words)"], columns=classes)])
    return out


def _count_logs(whole: pd.DataFrame, value: Any) -> pd.DataFrame:
    """k rows of log theta for a count k (a whole number up to _MAX_EXPANDED)."""
    count = float(value)
    if not count.is_integer() or not 0 < count <= _MAX_EXPANDED:
        return whole
    return pd.DataFrame(np.repeat(whole.to_numpy() / count, int(count), axis=0),
                        index=[whole.index[0]] * int(count), columns=whole.columns)


def factors_until_underflow(p: float) -> int | None:
    """How many factors all equal to ``p`` (0 < p < 1), multiplied one at a time in
    float64, give exactly 0.0.

    Roughly log(SMALLEST_FLOAT) / log(p) (about 745 / -ln p); the exact count depends on
    how the subnormal steps round, so the product is formed step by step to be sure.
    For p > 0.5 the answer is None: SMALLEST_FLOAT * p rounds back up to SMALLEST_FLOAT,
    so the product sticks there (every digit of precision already lost) instead of 0.0.
    """
    if not 0.0 < p < 1.0:
        raise DataError(f"Give a probability strictly between 0 and 1, not {p!r}.")
    estimate = float(np.log(SMALLEST_FLOAT) / np.log(p))
    if estimate > _MAX_STEPS:
        raise DataError(f"With p = {p!r} the product underflows only after about "
                        f"{estimate:.3g} factors; choose a smaller p.")
    # Rounding in the subnormal range can only shorten the run by a handful of steps.
    length = int(estimate) + 64
    with np.errstate(under="ignore"):
        product = np.cumprod(np.full(length, p, dtype=np.float64))
    zero = product == 0.0
    return int(np.argmax(zero)) + 1 if zero.any() else None


#: Beyond this many factors the step-by-step check would need too much memory.
_MAX_STEPS = 10_000_000
