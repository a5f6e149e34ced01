"""One factor of a prediction: the prior, or one feature's P(x_a | c) for every class."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Factor", "USED", "MISSING", "UNSEEN", "UNDEFINED", "UNSEEN_SMOOTHED", "COUNTED"]

USED = "used"
MISSING = "missing"      # no value: left out of the product   [seed 000, Eq. 22]
UNSEEN = "unseen"        # a value never seen in training: left out the same way
UNDEFINED = "undefined"  # a class never observed this feature and l = 0 gives 0/0: left out
UNSEEN_SMOOTHED = "unseen → smoothed"   # a new value scored as the pseudo-category of unseen="smooth"
COUNTED = (USED, UNSEEN_SMOOTHED)        # the statuses whose factor is part of the product


@dataclass(frozen=True)
class Factor:
    """log P(x_a | c) per class (NaN where the factor is not used) and its exact fraction."""

    name: str
    kind: str
    value: Any
    status: str
    log: np.ndarray
    fraction: tuple[Fraction | None, ...] | None = None
    detail: str = ""
    table: Any = None   # per-word detail of a text factor (a DataFrame), else None
    note: str = ""      # a sentence for the explanation's notes (a KDE factor at its density floor)

    @property
    def counted(self) -> bool:
        """Is this factor part of the product P(c) prod P(x_a | c)?"""
        return self.status in COUNTED

    @classmethod
    def missing(cls, name: str, kind: str, value: Any, n_classes: int) -> "Factor":
        return cls.skipped(name, kind, value, MISSING, n_classes, "no value: left out of the product (seed 000, Eq. 22)")

    @classmethod
    def skipped(cls, name: str, kind: str, value: Any, status: str, n_classes: int, detail: str = "") -> "Factor":
        return cls(name, kind, value, status, np.full(n_classes, np.nan), None, detail)
