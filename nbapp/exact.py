"""Exact rational numbers for teaching: counts and a rational l give CPT cells such as 3/12."""

from __future__ import annotations

from fractions import Fraction
from numbers import Real

import numpy as np

__all__ = ["to_fraction", "fraction_or_none"]


def to_fraction(x: Real) -> Fraction:
    """The fraction a person means by ``x``: 0.1 -> 1/10 (its shortest decimal), 3.0 -> 3."""
    value = float(x)
    if value.is_integer():
        return Fraction(int(value))
    return Fraction(repr(value))


def fraction_or_none(numerator: Real, denominator: Real) -> Fraction | None:
    """numerator / denominator as a Fraction, or None when it is undefined (0/0 or non-finite)."""
    if not (np.isfinite(numerator) and np.isfinite(denominator)) or denominator == 0:
        return None
    return to_fraction(numerator) / to_fraction(denominator)
