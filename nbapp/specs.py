"""Feature types: what kind of likelihood P(x_a | c) a column gets.

Types are given as strings ("categorical", "bernoulli", "multinomial", "gaussian",
"text", "ignore") or, where a column needs options, as the small spec objects below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Mapping

from nbapp.errors import DataError

__all__ = [
    "Categorical",
    "Bernoulli",
    "Multinomial",
    "Gaussian",
    "Text",
    "FeatureSpec",
    "FEATURE_KINDS",
    "parse_features",
]

VarianceKind = Literal["mle", "unbiased", "pooled"]


@dataclass(frozen=True)
class Categorical:
    """A categorical CPT per class, (count + l) / (n_c + l K)   [seed 000, Eq. 6-8].

    ``alpha`` overrides the model's l for this column.
    """

    kind: ClassVar[str] = "categorical"
    alpha: float | None = None


@dataclass(frozen=True)
class Bernoulli:
    """A binary feature, P(x = 1 | c) = (N_c1 + l) / (N_c + 2 l)   [seed 002].

    ``positive`` is the value that counts as 1. Left out, it is read off the two values
    (0/1, false/true, no/yes, n/y, f/t, off/on, absent/present, negative/positive).
    """

    kind: ClassVar[str] = "bernoulli"
    positive: Any = None
    alpha: float | None = None


@dataclass(frozen=True)
class Multinomial:
    """A count column; all multinomial columns form one multinomial   [seed 000, Eq. 9-11]."""

    kind: ClassVar[str] = "multinomial"
    alpha: float | None = None


@dataclass(frozen=True)
class Gaussian:
    """A normal density per class, N(mu_c, var_c)   [seed 000, Eq. 12-14].

    ``variance``: "mle" (1/n_c, Eq. 14), "unbiased" (1/(n_c - 1)) or "pooled" (one
    within-class variance shared by all classes, which makes NB linear, Eq. 20);
    None takes the model's setting.
    """

    kind: ClassVar[str] = "gaussian"
    variance: VarianceKind | None = None


@dataclass(frozen=True)
class Text:
    """A text column as a bag of words   [seed 000, Eq. 9-11; seed 002; seed 004].

    ``options`` is a :class:`nbapp.text.TextOptions` (tokenising, stop words, stemming,
    n-grams, pruning). ``event_model``: "multinomial" (word counts) or "bernoulli"
    (presence / absence of every vocabulary word). ``vocabulary``: "global" (scikit-learn:
    words unseen in training are ignored) or "per_class_unk" (seed 004: one UNK word per
    class, V = word types seen in that class). ``complement``: Complement NB (Rennie et
    al. 2003) as scikit-learn's ComplementNB.
    """

    kind: ClassVar[str] = "text"
    options: Any = None
    event_model: Literal["multinomial", "bernoulli"] = "multinomial"
    vocabulary: Literal["global", "per_class_unk"] = "global"
    complement: bool = False
    alpha: float | None = None

    def __post_init__(self) -> None:
        if self.event_model not in ("multinomial", "bernoulli"):
            raise DataError(f"Text event_model must be 'multinomial' or 'bernoulli', not {self.event_model!r}.")
        if self.vocabulary not in ("global", "per_class_unk"):
            raise DataError(f"Text vocabulary must be 'global' or 'per_class_unk', not {self.vocabulary!r}.")
        if self.complement and (self.event_model != "multinomial" or self.vocabulary != "global"):
            raise DataError("Complement NB works with the multinomial event model and the global vocabulary only.")


FeatureSpec = Categorical | Bernoulli | Multinomial | Gaussian | Text

FEATURE_KINDS: Mapping[str, type] = {
    "categorical": Categorical,
    "bernoulli": Bernoulli,
    "multinomial": Multinomial,
    "gaussian": Gaussian,
    "text": Text,
}


def parse_features(features: Mapping[str, Any]) -> dict[str, FeatureSpec]:
    """Turn {"Outlook": "categorical", "Height": nbapp.Gaussian()} into spec objects.

    Columns typed "ignore" (or None) are left out.
    """
    if not isinstance(features, Mapping) or not features:
        raise DataError("Give the features as a dict of column -> type, e.g. {'Outlook': 'categorical'}.")
    specs: dict[str, FeatureSpec] = {}
    for column, kind in features.items():
        if kind is None or (isinstance(kind, str) and kind.strip().lower() == "ignore"):
            continue
        specs[column] = _parse_one(column, kind)
    if not specs:
        raise DataError("Every column is ignored: mark at least one column as a feature.")
    return specs


def _parse_one(column: str, kind: Any) -> FeatureSpec:
    if isinstance(kind, tuple(FEATURE_KINDS.values())):
        return kind
    if isinstance(kind, str) and kind.strip().lower() in FEATURE_KINDS:
        return FEATURE_KINDS[kind.strip().lower()]()
    known = ", ".join([*FEATURE_KINDS, "ignore"])
    raise DataError(f"Column {column!r} has the unknown feature type {kind!r}; use one of: {known}.")


def spec_to_dict(spec: FeatureSpec) -> dict[str, Any]:
    """A JSON-safe description of a spec (for model files)."""
    out: dict[str, Any] = {"kind": spec.kind}
    for name in spec.__dataclass_fields__:
        value = getattr(spec, name)
        if name == "options" and value is not None:
            value = value.to_dict()
        out[name] = value
    return out


def spec_from_dict(data: Mapping[str, Any]) -> FeatureSpec:
    kind = data.get("kind")
    if kind not in FEATURE_KINDS:
        raise DataError(f"The model file names the unknown feature type {kind!r}.")
    cls = FEATURE_KINDS[kind]
    kwargs = {k: v for k, v in data.items() if k != "kind"}
    unknown = set(kwargs) - set(cls.__dataclass_fields__)
    if unknown:
        raise DataError(f"The model file gives unknown options {sorted(unknown)} for a {kind} feature.")
    if kind == "text" and kwargs.get("options") is not None:
        from nbapp.text import TextOptions

        kwargs["options"] = TextOptions.from_dict(kwargs["options"])
    return cls(**kwargs)
