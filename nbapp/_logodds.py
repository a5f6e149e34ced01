"""Log-odds that add up: one class against one other class or several together.

Against one class c' the log-odds of Naive Bayes is a sum, one term per factor (the linear
form of seed 000, Eq. 17-20; missing features are left out, Eq. 22):

    log P(c | x) / P(c' | x) = log P(c) / P(c') + sum_{a in OBS} log P(x_a | c) / P(x_a | c')

Against a set R of several classes together, log P(c | x) / P(R | x) = log P(c, x) -
log sum_{r in R} P(r, x) is not a sum of per-feature terms. It is decomposed exactly as a
game whose value v(S) is that log-odds when only the features S are observed (the others
left out as missing values are, Eq. 22), so v(empty) is the prior's log-odds and v(OBS) the
model's:

* up to :data:`SHAPLEY_MAX_FEATURES` observed features: each feature's **Shapley value**
  sum over S not holding a of |S|! (n - |S| - 1)! / n! (v(S + a) - v(S)); the values add up
  to v(OBS) - v(empty) and do not depend on the order of the features;
* beyond: the **sequential** decomposition, v(a_1 .. a_k) - v(a_1 .. a_k-1) in the order
  given; it adds up too, but another order gives other terms.

Against one class both reduce to the sum above, which is computed directly.

A factor made of parts (a text column: one part per word) is split further, each part's
share being the change of the log-odds as its parts are added one after the other in the
order given, inside every marginal of the feature; the shares add up to the feature's term.

Zero factors (l = 0): when a zero makes the log-odds infinite, the parts holding that zero
*decide alone*: -inf when P(x_a | c) = 0 rules c out, +inf when the zeros rule out every
class of R, NaN when both sides are impossible (0/0). Every other term is that of the same
decomposition with the deciding parts left out, so the sum is the log-odds whatever happens:
finite, -inf, +inf or NaN.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import factorial
from typing import Sequence

import numpy as np

from nbapp.logspace import logsumexp_rows

__all__ = ["Decomposition", "decompose", "ADDITIVE", "SHAPLEY", "SEQUENTIAL", "SHAPLEY_MAX_FEATURES"]

ADDITIVE = "additive"       # against one class: each factor's own log-ratio
SHAPLEY = "shapley"         # against several: exact Shapley values over the observed features
SEQUENTIAL = "sequential"   # against several, many features: in the order given
# 2^12 = 4096 subsets of the features: well under a millisecond; every further feature doubles it.
SHAPLEY_MAX_FEATURES = 12
# Cells of the (subsets x parts x classes) array of one chunk when a text column is split by word.
_CHUNK_CELLS = 2_000_000


@dataclass(frozen=True)
class Decomposition:
    """The terms of one log-odds, in nats; ``prior + players.sum()`` is the log-odds."""

    prior: float
    players: np.ndarray                 # one term per player (observed feature)
    parts: tuple[np.ndarray, ...]       # per player, one term per part; they add up to its term
    method: str                         # ADDITIVE, SHAPLEY or SEQUENTIAL
    outcome: float                      # 0.0 when the log-odds is finite, else -inf, +inf or NaN
    prior_decides: bool
    deciding: tuple[np.ndarray, ...]    # per player, which of its parts decide alone


def decompose(base: np.ndarray, totals: Sequence[np.ndarray], parts: Sequence[np.ndarray],
              side: int, others: Sequence[int]) -> Decomposition:
    """Decompose log P(side | x) / P(others | x).

    ``base``: log P(c) per class; ``totals[i]``: player i's log P(x_a | c) per class, and
    ``parts[i]`` its parts (parts x classes) adding up to it (one row for a single factor).
    Only the columns ``side`` and ``others`` are read.
    """
    with np.errstate(invalid="ignore"):      # -inf - -inf where both sides are impossible: NaN
        return _decompose(base, totals, parts, side, others)


def _decompose(base: np.ndarray, totals: Sequence[np.ndarray], parts: Sequence[np.ndarray],
               side: int, others: Sequence[int]) -> Decomposition:
    columns = [side, *others]
    base = np.asarray(base, dtype=float)[columns]
    totals = [np.asarray(t, dtype=float)[columns] for t in totals]
    parts = [np.atleast_2d(np.asarray(p, dtype=float))[:, columns] for p in parts]
    outcome, decides = _outcome(base, parts)
    prior_decides = bool(decides(base[None, :])[0])
    deciding = tuple(decides(p) for p in parts)
    base_r = np.where(prior_decides, 0.0, base)
    parts_r = [np.where(d[:, None], 0.0, p) for p, d in zip(parts, deciding)]
    totals_r = [t if not d.any() else p.sum(axis=0) for t, p, d in zip(totals, parts_r, deciding)]
    if len(others) == 1:
        method, prior, players, shares = ADDITIVE, base_r[0] - base_r[1], \
            np.array([t[0] - t[1] for t in totals_r]), [p[:, 0] - p[:, 1] for p in parts_r]
    elif len(totals_r) <= SHAPLEY_MAX_FEATURES:
        method, (prior, players, shares) = SHAPLEY, _shapley(base_r, totals_r, parts_r)
    else:
        method, (prior, players, shares) = SEQUENTIAL, _sequential(base_r, totals_r, parts_r)
    players = np.array([outcome if d.any() else v for v, d in zip(players, deciding)], dtype=float)
    shares = tuple(np.where(d, outcome, s) for s, d in zip(shares, deciding))
    return Decomposition(float(outcome if prior_decides else prior), players, shares, method,
                         outcome, prior_decides, deciding)


def _outcome(base: np.ndarray, parts: list[np.ndarray]):
    """The log-odds' kind (0.0 finite, -inf, +inf, NaN) and which rows (parts x [side, others])
    decide it alone."""
    zero = base == -np.inf
    for p in parts:
        zero = zero | (p == -np.inf).any(axis=0)
    side_out, others_out = bool(zero[0]), bool(zero[1:].all())
    if not side_out and not others_out:
        return 0.0, lambda rows: np.zeros(len(rows), dtype=bool)
    if side_out and not others_out:
        return -np.inf, lambda rows: rows[:, 0] == -np.inf
    if others_out and not side_out:
        return np.inf, lambda rows: (rows[:, 1:] == -np.inf).any(axis=1)
    return np.nan, lambda rows: (rows == -np.inf).any(axis=1)


def log_odds(joint: np.ndarray) -> np.ndarray:
    """log P(side, x) - log sum_r P(r, x) of joint logs (..., [side, others])."""
    flat = joint.reshape(-1, joint.shape[-1])
    return (flat[:, 0] - logsumexp_rows(flat[:, 1:])).reshape(joint.shape[:-1])


def _subset_joints(base: np.ndarray, totals: list[np.ndarray]) -> np.ndarray:
    """The joint logs of every subset S of the players, row S (bit i: player i observed).
    Built by doubling, not by a 0/1 matrix product: 0 x -inf would be NaN."""
    joint = base[None, :]
    for t in totals:
        joint = np.concatenate([joint, joint + t[None, :]])
    return joint


def _shapley(base: np.ndarray, totals: list[np.ndarray], parts: list[np.ndarray]):
    n = len(totals)
    joint = _subset_joints(base, totals)
    value = log_odds(joint)
    subsets = np.arange(2 ** n)
    size = np.bitwise_count(subsets)
    weight = np.array([factorial(s) * factorial(n - s - 1) / factorial(n) for s in range(n)])
    players, shares = np.empty(n), []
    for i in range(n):
        without = subsets[(subsets >> i) & 1 == 0]
        w = weight[size[without]]
        players[i] = w @ (value[without + (1 << i)] - value[without])
        shares.append(_part_shares(joint[without], value[without], parts[i], w, players[i]))
    return value[0], players, shares


def _sequential(base: np.ndarray, totals: list[np.ndarray], parts: list[np.ndarray]):
    joint = np.vstack([base, base + np.cumsum(np.array(totals), axis=0)])
    value = log_odds(joint)
    players = np.diff(value)
    shares = [_part_shares(joint[i:i + 1], value[i:i + 1], p, np.ones(1), players[i]) for i, p in enumerate(parts)]
    return value[0], players, shares


def _part_shares(before: np.ndarray, value_before: np.ndarray, parts: np.ndarray, weight: np.ndarray,
                 whole: float) -> np.ndarray:
    """Each part's weighted share of a player's marginals: with the joints ``before`` the player
    (one row per marginal, weighted by ``weight``), the change of the log-odds as the player's
    parts are added one after the other. A player of one part is its own share (``whole``)."""
    if len(parts) == 1:
        return np.array([whole])
    cumulative = np.cumsum(parts, axis=0)
    out = np.zeros(len(parts))
    step = max(1, _CHUNK_CELLS // cumulative.size)
    for start in range(0, len(before), step):
        chunk = slice(start, start + step)
        value = log_odds(before[chunk, None, :] + cumulative[None, :, :])
        previous = np.concatenate([value_before[chunk, None], value[:, :-1]], axis=1)
        out += weight[chunk] @ (value - previous)
    return out
