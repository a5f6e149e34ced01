"""Weighted count, mean and M2 (sum of squared deviations), merged exactly.

Chan, Golub and LeVeque's pairwise update lets the statistics of any split of the rows
be merged into those of one pass, which is what makes ``partial_fit`` equal ``fit``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["merge_moments", "pooled_moments"]


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


def pooled_moments(n: np.ndarray, mean: np.ndarray, m2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge the per-class rows (axis 0) of (classes x features) statistics into one row."""
    total = (n[0], mean[0], m2[0])
    for c in range(1, n.shape[0]):
        total = merge_moments(*total, n[c], mean[c], m2[c])
    return total
