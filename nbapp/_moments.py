"""Weighted count, mean and M2 (sum of squared deviations), merged exactly.

Chan, Golub and LeVeque's pairwise update lets the statistics of any split of the rows
be merged into those of one pass, which is what makes ``partial_fit`` equal ``fit``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["merge_moments", "unmerge_moments", "pooled_moments", "shifted_moments"]


def merge_moments(n_a: np.ndarray, mean_a: np.ndarray, m2_a: np.ndarray,
                  n_b: np.ndarray, mean_b: np.ndarray, m2_b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge two sets of (n, mean, M2); entries with n = 0 carry mean 0 and M2 0."""
    n = n_a + n_b
    safe_n = np.where(n > 0, n, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):   # callers refuse non-finite moments by column
        delta = mean_b - mean_a
        mean = np.where(n > 0, mean_a + delta * (n_b / safe_n), 0.0)
        m2 = m2_a + m2_b + delta**2 * (n_a * n_b / safe_n)
    return n, mean, m2


def unmerge_moments(n: np.ndarray, mean: np.ndarray, m2: np.ndarray,
                    n_b: np.ndarray, mean_b: np.ndarray, m2_b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (n, mean, M2) of the rows of a merge without part b: Chan's update solved for part a.

        n_a = n - n_b,   mean_a = mean + (mean - mean_b) n_b / n_a,
        M2_a = M2 - M2_b - (mean_b - mean_a)^2 n_a n_b / n

    Entries left with n_a = 0 (every row of a class taken out) carry mean 0 and M2 0, as in
    merge_moments.
    """
    n_a = n - n_b
    n_a = np.where(np.abs(n_a) <= 8 * np.finfo(float).eps * np.abs(n), 0.0, n_a)   # weighted rounding
    some = n_a > 0
    safe_a, safe_n = np.where(some, n_a, 1.0), np.where(n > 0, n, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        mean_a = np.where(some, mean + (mean - mean_b) * (n_b / safe_a), 0.0)
        delta = mean_b - mean_a
        m2_a = m2 - m2_b - delta**2 * (n_a * n_b / safe_n)
    # M2 is a sum of squares, so >= 0; the subtraction of two nearly equal sums can round
    # below 0 by a few units in the last place (a class whose remaining values are all equal).
    m2_a = np.where(some, np.maximum(m2_a, 0.0), 0.0)
    return np.where(some, n_a, 0.0), mean_a, m2_a


def pooled_moments(n: np.ndarray, mean: np.ndarray, m2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge the per-class rows (axis 0) of (classes x features) statistics into one row: pairs of
    rows merged side by side, log2(K) vectorised steps (a merge per class was 100,000 Python steps;
    issue 31, item 6). Up to three classes this is the merge of each class in turn, as before."""
    while n.shape[0] > 1:
        even = n.shape[0] - n.shape[0] % 2
        merged = merge_moments(n[0:even:2], mean[0:even:2], m2[0:even:2], n[1:even:2], mean[1:even:2], m2[1:even:2])
        n, mean, m2 = (np.concatenate([part, whole[even:]]) for part, whole in zip(merged, (n, mean, m2)))
    return n[0], mean[0], m2[0]


def shifted_moments(n: np.ndarray, s1: np.ndarray, s2: np.ndarray,
                    shift: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and M2 from sums about a shift k (S1 = sum w (x - k), S2 = sum w (x - k)^2), as an
    engine computes them in one pass: mean = k + S1 / n, M2 = S2 - S1^2 / n; and where the shift
    was far from the mean (more than half of S2 cancelled: more than one standard deviation
    off), so that the caller sums again about the mean. Entries with n = 0 carry 0 and 0."""
    some = n > 0
    with np.errstate(over="ignore", invalid="ignore"):
        centre = np.where(some, s1 / np.where(some, n, 1.0), 0.0)
        mean = np.where(some, shift + centre, 0.0)
        m2 = np.where(some, np.maximum(s2 - s1 * centre, 0.0), 0.0)
        far = some & (s1 * centre > s2 / 2)
    return mean, m2, far
