"""The work: one value for what the user is working on (issue 22, design 3.2).

A :class:`Work` holds the data reference (a source of ``ui.sources``: where the rows come from,
how their statistics are computed, its part of the address), a model file imported beside the
data (``imported``, or None), the target and weight, every column's feature
type as the library's own spec object (``nbapp.Categorical(...)``, ``nbapp.KDE(bandwidth=...)``,
``nbapp.Text(options=...)``) or :data:`IGNORE`, the library's own model settings
(:class:`nbapp.Settings`), the Explain page's row and the pages' choices that should survive a
reload. It is frozen: a change is a new Work, stored by ``ui.state.set_work``. The address
encodes and decodes it (``ui.remember``); the fitted model depends on :meth:`Work.model_key`
only, so a click on Explain never refits.

No streamlit here: the Work is a plain value, usable in a notebook or a test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import nbapp
from nbapp.specs import parse_features

__all__ = ["IGNORE", "Frozen", "Work"]

#: A column left out of the model (the Data page's last type choice).
IGNORE = "ignore"


class Frozen(Mapping):
    """An immutable mapping that keeps its order and can be hashed (its values must be hashable)."""

    __slots__ = ("_data",)

    def __init__(self, items: Mapping | Iterable[tuple[Any, Any]] = ()) -> None:
        object.__setattr__(self, "_data", dict(items))

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Frozen mapping cannot be changed")

    def __repr__(self) -> str:
        return f"Frozen({self._data!r})"

    def __reduce__(self) -> tuple:
        return Frozen, (tuple(self._data.items()),)

    def set(self, key: Any, value: Any) -> "Frozen":
        """A copy with ``key`` set to ``value`` (in its place, or last when new)."""
        return Frozen({**self._data, key: value})

    def without(self, key: Any) -> "Frozen":
        return Frozen({k: v for k, v in self._data.items() if k != key})


@dataclass(frozen=True)
class Work:
    """Data, target, weight, a spec (or IGNORE) per non-target column, the model settings, the
    Explain page's row (``query`` values, ``missing`` columns) and the pages' ``choices``
    (keyed "page.choice"). ``source`` is a ``ui.sources.Source``; ``imported`` a
    ``ui.sources.ModelFile`` that stands in for the fit until what the model depends on changes
    (``ui.state.set_work`` leaves it behind then)."""

    source: Any
    target: Any
    features: Mapping[Any, Any] = field(default_factory=Frozen)
    settings: Any = field(default_factory=nbapp.Settings)
    weight: Any = None
    query: Mapping[Any, Any] = field(default_factory=Frozen)
    missing: frozenset = frozenset()
    choices: Mapping[str, Any] = field(default_factory=Frozen)
    imported: Any = None

    def __post_init__(self) -> None:
        features = self.features
        if not isinstance(features, Frozen) or any(isinstance(s, str) and s != IGNORE for s in features.values()):
            object.__setattr__(self, "features", Frozen({c: as_spec(s) for c, s in features.items()}))
        for name in ("query", "choices"):
            value = getattr(self, name)
            if not isinstance(value, Frozen):
                object.__setattr__(self, name, Frozen(value))
        if not isinstance(self.missing, frozenset):
            object.__setattr__(self, "missing", frozenset(self.missing))

    # -- what the model is fitted from -------------------------------------------------------------
    @property
    def specs(self) -> dict[Any, Any]:
        """The modelled columns and their specs (ignored columns, the target and the weight left out)."""
        return {c: s for c, s in self.features.items()
                if not _ignored(s) and c != self.target and c != self.weight}

    @property
    def kinds(self) -> dict[Any, str]:
        """Every non-target column's type name (IGNORE for a column left out), for the Data page."""
        return {c: IGNORE if _ignored(s) else s.kind for c, s in self.features.items()}

    def model_key(self) -> tuple:
        """What the fitted model depends on (data, target, used specs, weight, settings): it keys
        the fit cache. The Explain row, the page choices and an imported model are not part of it."""
        return (*self.stats_key(), self.settings)

    def stats_key(self) -> tuple:
        """What the model's statistics depend on: the model key less the settings (smoothing,
        priors and the Gaussian epsilon are applied to the statistics, not counted from the rows)."""
        return (self.source.key(), self.target, tuple(self.specs.items()), self.weight)

    def make_model(self) -> Any:
        """An unfitted NaiveBayes of these specs and settings (DataError for settings nbapp refuses)."""
        return nbapp.NaiveBayes.from_settings(self.specs, self.settings)

    # -- changes -----------------------------------------------------------------------------------
    def replace(self, **changes: Any) -> "Work":
        return dataclasses.replace(self, **changes)

    def with_feature(self, column: Any, spec: Any) -> "Work":
        """This work with ``column`` typed ``spec`` (a spec object, a type name or IGNORE)."""
        return self.replace(features=self.features.set(column, as_spec(spec)))

    def choice(self, name: str, default: Any = None) -> Any:
        return self.choices.get(name, default)

    def with_choice(self, name: str, value: Any) -> "Work":
        return self.replace(choices=self.choices.set(name, value))

    # -- the Explain page's row --------------------------------------------------------------------
    def row(self, columns: Iterable[Any]) -> dict[Any, Any]:
        """The test example for ``columns``: its values, NaN for a column marked missing or unset."""
        return {c: (float("nan") if c in self.missing or c not in self.query else self.query[c]) for c in columns}


def _ignored(spec: Any) -> bool:
    return isinstance(spec, str)


def as_spec(spec: Any) -> Any:
    """A spec object for a type name (the type's defaults); a spec object and IGNORE as they are."""
    if isinstance(spec, str) and spec != IGNORE:
        return next(iter(parse_features({"column": spec}).values()))
    return spec
