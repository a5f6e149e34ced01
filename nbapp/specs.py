"""Feature types: what kind of likelihood P(x_a | c) a column gets.

Types are given as strings ("categorical", "bernoulli", "multinomial", "gaussian", "text",
"poisson", "kde", "discretized", "ignore") or, where a column needs options, as the small spec objects below. Each
spec lives beside its block in :mod:`nbapp.blocks`; the registry there is the one list of
types.
"""

from __future__ import annotations

from typing import Any, Mapping

from nbapp.blocks import FEATURE_TYPES, REGISTRY
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
]

FeatureSpec = Categorical | Bernoulli | Multinomial | Gaussian | Text | Poisson | KDE | Discretized

FEATURE_KINDS: Mapping[str, type] = {name: block.spec_type for name, block in REGISTRY.items()}


def parse_features(features: Mapping[str, Any]) -> dict[str, Any]:
    """Turn {"Outlook": "categorical", "Height": nbapp.Gaussian()} into spec objects.

    Columns typed "ignore" (or None) are left out.
    """
    if not isinstance(features, Mapping) or not features:
        raise DataError("Give the features as a dict of column -> type, e.g. {'Outlook': 'categorical'}.")
    specs: dict[str, Any] = {}
    for column, kind in features.items():
        if kind is None or (isinstance(kind, str) and kind.strip().lower() == "ignore"):
            continue
        specs[column] = _parse_one(column, kind)
    if not specs:
        raise DataError("Every column is ignored: mark at least one column as a feature.")
    return specs


def _parse_one(column: str, kind: Any) -> Any:
    if isinstance(kind, tuple(FEATURE_KINDS.values())):
        return kind
    if isinstance(kind, str) and kind.strip().lower() in FEATURE_KINDS:
        return FEATURE_KINDS[kind.strip().lower()]()
    known = ", ".join(FEATURE_TYPES)
    raise DataError(f"Column {column!r} has the unknown feature type {kind!r}; use one of: {known}.")


def spec_to_dict(spec: Any) -> dict[str, Any]:
    """A JSON-safe description of a spec (for model files)."""
    out: dict[str, Any] = {"kind": spec.kind}
    for name in spec.__dataclass_fields__:
        value = getattr(spec, name)
        if name == "options" and value is not None:
            value = value.to_dict()
        out[name] = value
    return out


def spec_from_dict(data: Any, where: str = "feature") -> Any:
    """A spec from a model file, refusing unknown types and options by name."""
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: the feature's description should be an object with a 'kind'.")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in FEATURE_KINDS:
        raise DataError(f"{where}: the model file names the unknown feature type {kind!r}.")
    cls = FEATURE_KINDS[kind]
    kwargs = {k: v for k, v in data.items() if k != "kind"}
    unknown = set(kwargs) - set(cls.__dataclass_fields__)
    if unknown:
        raise DataError(f"{where}: the model file gives unknown options {sorted(unknown)} for a {kind} feature.")
    if kind == "text" and kwargs.get("options") is not None:
        from nbapp.text import TextOptions

        kwargs["options"] = TextOptions.from_dict(kwargs["options"])
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise DataError(f"{where}: the {kind} feature's options are malformed ({exc}).") from None
    except DataError as exc:        # the spec's own check, e.g. a bandwidth whose square underflows
        raise DataError(f"{where}: {exc}") from None
