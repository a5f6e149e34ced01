"""Exact rational numbers for teaching: counts and a rational l give CPT cells such as 3/12."""

from __future__ import annotations

from fractions import Fraction
from numbers import Real

import numpy as np

__all__ = ["to_fraction", "exact_sum"]


def to_fraction(x: Real) -> Fraction:
    """The fraction a person means by ``x``: 0.1 -> 1/10 (its shortest decimal), 3.0 -> 3."""
    value = float(x)
    if value.is_integer():
        return Fraction(int(value))
    return Fraction(repr(value))


def exact_sum(values: np.ndarray) -> Fraction:
    """The sum of counts as a fraction: exact in float64 while the counts are integers below 2**53."""
    values = np.asarray(values, dtype=float)
    if np.all(values == np.round(values)) and np.abs(values).sum() < 2**53:
        return Fraction(int(values.sum()))
    return sum((to_fraction(v) for v in values), Fraction(0))
