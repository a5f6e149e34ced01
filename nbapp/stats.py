"""A model's sufficient statistics as one value: classes, class counts and each block's statistics.

    ModelStats(rows A) + ModelStats(rows B) == ModelStats(rows A and B)

Classes are kept in the model's one class order (:func:`nbapp.ordering.sort_values`:
numbers, booleans included, before strings); adding statistics that know different
classes first moves every block's class axis to the united classes. This is what
``partial_fit``, ``merge`` and the out-of-core and cluster fits are made of.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from nbapp.blocks.base import Stats, frozen, subtract_counts, take_classes
from nbapp.ordering import sort_values

__all__ = ["ModelStats", "class_order"]


def class_order(old: tuple[Any, ...], new: Any) -> tuple[tuple[Any, ...], np.ndarray, np.ndarray]:
    """The united classes in the model's order, and where old and new classes went (take arrays:
    position i of the union holds old class take_old[i], or -1)."""
    united = sort_values(dict.fromkeys([*old, *new]))
    position = {c: i for i, c in enumerate(united)}
    take_old = np.full(len(united), -1)
    take_old[[position[c] for c in old]] = np.arange(len(old))
    take_new = np.full(len(united), -1)
    take_new[[position[c] for c in new]] = np.arange(len(new))
    return tuple(united), take_old, take_new


@dataclass(frozen=True, eq=False)
class ModelStats:
    """classes (sorted), class_counts (weighted rows per class) and one Stats per block."""

    classes: tuple[Any, ...]
    class_counts: np.ndarray
    blocks: tuple[Stats, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "class_counts", frozen(self.class_counts))

    def __add__(self, other: "ModelStats") -> "ModelStats":
        if self.classes == other.classes:
            return ModelStats(self.classes, self.class_counts + other.class_counts,
                              tuple(a + b for a, b in zip(self.blocks, other.blocks)))
        classes, take_a, take_b = class_order(self.classes, other.classes)
        a, b = self.reindex_classes(classes, take_a), other.reindex_classes(classes, take_b)
        return a + b

    def __sub__(self, other: "ModelStats") -> "ModelStats":
        """The statistics of self's rows without other's (which must be among self's): exact for
        counts, the inverse of Chan's update for moments (see each block's ``__sub__``). Classes
        left with no weight are dropped, as a summary of the remaining rows would not have them."""
        missing = [c for c in other.classes if c not in self.classes]
        if missing:
            raise ValueError(f"subtracting statistics of class {missing[0]!r}, which the total does not have")
        taken = np.isin(np.arange(len(self.classes)), [self.classes.index(c) for c in other.classes])
        if other.classes != self.classes:
            position = {c: i for i, c in enumerate(other.classes)}
            other = other.reindex_classes(self.classes, np.array([position.get(c, -1) for c in self.classes]))
        left = subtract_counts(self.class_counts, other.class_counts)
        blocks = tuple(a - b for a, b in zip(self.blocks, other.blocks))
        kept = np.flatnonzero(~(taken & (left == 0)))
        if len(kept) == len(self.classes):
            return ModelStats(self.classes, left, blocks)
        return ModelStats(tuple(self.classes[i] for i in kept), left[kept],
                          tuple(s.reindex_classes(kept) for s in blocks))

    def reindex_classes(self, classes: tuple[Any, ...], take: np.ndarray) -> "ModelStats":
        return ModelStats(classes, take_classes(self.class_counts, take, axis=0),
                          tuple(s.reindex_classes(take) for s in self.blocks))
