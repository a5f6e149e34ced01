"""Feature types: what kind of likelihood P(x_a | c) a column gets.

Types are given as their registered names ("categorical", "bernoulli", "multinomial",
"gaussian", "text", "poisson", "kde", "discretized", any type registered later, or
"ignore") or, where a column needs options, as spec objects (``nbapp.Gaussian(variance=...)``).
Each spec lives beside its block in :mod:`nbapp.blocks`; the registry there is the one list of
types, and everything here reads it when asked.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from nbapp.blocks import IGNORE, REGISTRY, block_class, feature_types
from nbapp.blocks.base import Spec
from nbapp.blocks.bernoulli import Bernoulli
from nbapp.blocks.categorical import Categorical
from nbapp.blocks.discretized import Discretized
from nbapp.blocks.gaussian import Gaussian
from nbapp.blocks.kde import KDE
from nbapp.blocks.multinomial import Multinomial
from nbapp.blocks.poisson import Poisson
from nbapp.blocks.text import Text
from nbapp.errors import DataError

__all__ = [
    "Categorical",
    "Bernoulli",
    "Multinomial",
    "Gaussian",
    "Text",
    "Poisson",
    "KDE",
    "Discretized",
    "FeatureSpec",
    "FEATURE_KINDS",
    "parse_features",
    "spec_to_dict",
    "spec_from_dict",
]

# Any registered type's spec (the built-in ones above and any type registered later).
FeatureSpec = Spec


class _SpecClasses(Mapping[str, type]):
    """type name -> spec class, read from the registry on every access."""

    def __getitem__(self, kind: str) -> type:
        return REGISTRY[kind].spec_type

    def __iter__(self) -> Iterator[str]:
        return iter(list(REGISTRY))

    def __len__(self) -> int:
        return len(REGISTRY)

    def __repr__(self) -> str:
        return f"FEATURE_KINDS({dict(self)!r})"


FEATURE_KINDS: Mapping[str, type] = _SpecClasses()


def parse_features(features: Mapping[str, Any]) -> dict[str, Any]:
    """Turn {"Outlook": "categorical", "Height": nbapp.Gaussian()} into spec objects.

    Columns typed "ignore" (or None) are left out.
    """
    if not isinstance(features, Mapping) or not features:
        raise DataError("Give the features as a dict of column -> type, e.g. {'Outlook': 'categorical'}.")
    specs: dict[str, Any] = {}
    for column, kind in features.items():
        if kind is None or (isinstance(kind, str) and kind.strip().lower() == IGNORE):
            continue
        specs[column] = _parse_one(column, kind)
    if not specs:
        raise DataError("Every column is ignored: mark at least one column as a feature.")
    return specs


def _parse_one(column: str, kind: Any) -> Any:
    if isinstance(kind, Spec) and kind.kind in REGISTRY and isinstance(kind, REGISTRY[kind.kind].spec_type):
        return kind
    if isinstance(kind, str) and kind.strip().lower() in REGISTRY:
        return REGISTRY[kind.strip().lower()].spec_type()
    known = ", ".join(feature_types())
    raise DataError(f"Column {column!r} has the unknown feature type {kind!r}; use one of: {known}.")


def spec_to_dict(spec: Any) -> dict[str, Any]:
    """A JSON-safe description of a spec (for model files): the spec's own ``to_dict``."""
    return spec.to_dict()


def spec_from_dict(data: Any, where: str = "feature") -> Any:
    """A spec from a model file, refusing unknown types and options by name."""
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: the feature's description should be an object with a 'kind'.")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in REGISTRY:
        raise DataError(f"{where}: the model file names the unknown feature type {kind!r}.")
    return block_class(kind).spec_type.from_dict(data, where)
