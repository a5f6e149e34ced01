"""The app's views of the feature types: one module per built-in type, and the generic view
(:class:`ui.views.base.TypeView`) that works from the block protocol alone.

:func:`view_of` is what every page asks; nothing outside this package (and ``nbapp/blocks/``)
compares a type's name with a string (``tests/test_type_blind_edges.py`` counts them). A type
registered with ``nbapp.blocks.register`` and no module here gets the generic view.
"""

from __future__ import annotations

from typing import Any, Mapping

import nbapp.blocks as blocks
from ui.views.base import TypeView
from ui.views.bernoulli import BernoulliView
from ui.views.categorical import CategoricalView
from ui.views.discretized import DiscretizedView
from ui.views.gaussian import GaussianView
from ui.views.kde import KDEView
from ui.views.multinomial import MultinomialView
from ui.views.poisson import PoissonView
from ui.views.text import TextView

__all__ = ["TypeView", "view_of", "views_of", "registered", "grouped", "columns_where"]

_VIEWS: dict[str, type[TypeView]] = {
    "categorical": CategoricalView,
    "bernoulli": BernoulliView,
    "multinomial": MultinomialView,
    "gaussian": GaussianView,
    "text": TextView,
    "poisson": PoissonView,
    "kde": KDEView,
    "discretized": DiscretizedView,
}


def view_of(kind: str) -> TypeView:
    """The view of feature type ``kind``: its own module's, or the generic one."""
    return _VIEWS.get(kind, TypeView)(kind)


def registered() -> list[TypeView]:
    """The view of every registered type, in the registry's order (read when asked)."""
    return [view_of(kind) for kind in blocks.REGISTRY]


def views_of(specs: Mapping[Any, Any]) -> dict[Any, TypeView]:
    """Each column's view (``specs``: column -> spec, as ``model.features_`` or ``Work.specs``)."""
    return {c: view_of(s.kind) for c, s in specs.items()}


def grouped(specs: Mapping[Any, Any]) -> list[tuple[TypeView, list[Any]]]:
    """The types of ``specs`` in their first column's order, each view with its columns."""
    groups: dict[str, list[Any]] = {}
    for column, spec in specs.items():
        groups.setdefault(spec.kind, []).append(column)
    return [(view_of(kind), columns) for kind, columns in groups.items()]


def columns_where(specs: Mapping[Any, Any], test: Any) -> list[Any]:
    """The columns whose view passes ``test`` (a function of the view)."""
    return [c for c, view in views_of(specs).items() if test(view)]


