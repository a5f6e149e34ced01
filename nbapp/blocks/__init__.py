"""Feature types as blocks: one module per type behind the protocol of :mod:`nbapp.blocks.base`.

The registry maps each type name to its block class; the spec class a user writes
(``nbapp.Gaussian(variance="pooled")``) is the block's ``spec_type``. A new feature type is
one module (its spec, statistics and block, the block declaring what the edges need) plus
one line::

    nbapp.blocks.register(MyTypeBlock)

Everything that lists types reads the registry when it is asked (:func:`feature_types`,
:data:`nbapp.specs.FEATURE_KINDS`), never a list made when a module was imported, so a type
registered later, even by a test, is a choice everywhere.
"""

from __future__ import annotations

from typing import Any

from nbapp.blocks.base import (BASELINE_ENCODINGS, COUNT, NUMBER, VALUE_KINDS, Block, BlockSettings, Spec,
                               Stats)
from nbapp.blocks.bernoulli import BernoulliBlock
from nbapp.blocks.categorical import CategoricalBlock
from nbapp.blocks.discretized import DiscretizedBlock
from nbapp.blocks.gaussian import GaussianBlock
from nbapp.blocks.kde import KDEBlock
from nbapp.blocks.multinomial import MultinomialBlock
from nbapp.blocks.poisson import PoissonBlock
from nbapp.blocks.text import TextBlock
from nbapp.errors import DataError

__all__ = ["Block", "BlockSettings", "Spec", "Stats", "REGISTRY", "IGNORE", "register", "unregister",
           "feature_types", "block_class", "block_type", "reads_numbers"]

# The choice that leaves a column out of the model; listed after the types.
IGNORE = "ignore"

# type name -> block class, in the order the app lists the types. Change it through
# register / unregister only; read it when needed (it is the live registry).
REGISTRY: dict[str, type[Block]] = {}


def register(block: type[Block]) -> type[Block]:
    """Make a feature type known to the model, model files, the app and the command line:
    the one line a new type needs. Checks the block's declarations; returns the class, so it
    also works as a decorator. Registering the same class again changes nothing."""
    _check_declarations(block)
    known = REGISTRY.get(block.kind)
    if known is not None and known is not block:
        raise ValueError(f"The feature type {block.kind!r} is registered already (by {known.__qualname__}); "
                         "unregister it first or choose another kind.")
    REGISTRY[block.kind] = block
    return block


def unregister(kind: str) -> None:
    """Forget a feature type (a test that registered one cleans up with this)."""
    if kind not in REGISTRY:
        raise KeyError(f"No feature type {kind!r} is registered.")
    del REGISTRY[kind]


def feature_types() -> tuple[str, ...]:
    """Every choice a column can take, in the order the app lists them, "ignore" last."""
    return (*REGISTRY, IGNORE)


def block_class(kind: str) -> type[Block]:
    """The block class of a registered type name; DataError naming the known types otherwise."""
    try:
        return REGISTRY[kind]
    except (KeyError, TypeError):
        raise DataError(f"{kind!r} is not a feature type; use one of: {', '.join(feature_types())}.") from None


def block_type(spec: Any) -> type[Block]:
    """The block class of a spec object."""
    return block_class(spec.kind)


def reads_numbers(spec: Any) -> bool:
    """Are the column's cells numbers (a number or a count), so that a file scanner reads them as numbers?"""
    return block_type(spec).value_kind in (NUMBER, COUNT)


def _check_declarations(block: Any) -> None:
    """A block class must declare what the edges need (see :class:`nbapp.blocks.base.Block`)."""
    if not (isinstance(block, type) and issubclass(block, Block)):
        raise TypeError(f"register takes a Block class, not {block!r}.")
    name = block.__qualname__
    kind = getattr(block, "kind", None)
    if not isinstance(kind, str) or not kind or kind != kind.strip().lower() or kind == IGNORE:
        raise TypeError(f"{name}.kind must be a lowercase name other than {IGNORE!r}, not {kind!r}.")
    for attribute in ("title", "description"):
        if not isinstance(getattr(block, attribute, None), str):
            raise TypeError(f"{name}.{attribute} must be a string (words for people).")
    if getattr(block, "value_kind", None) not in VALUE_KINDS:
        raise TypeError(f"{name}.value_kind must be one of {VALUE_KINDS}, not {getattr(block, 'value_kind', None)!r}.")
    if block.baseline is not None and block.baseline not in BASELINE_ENCODINGS:
        raise TypeError(f"{name}.baseline must be one of {BASELINE_ENCODINGS} or None, not {block.baseline!r}.")
    spec = getattr(block, "spec_type", None)
    if not (isinstance(spec, type) and issubclass(spec, Spec) and getattr(spec, "kind", None) == kind):
        raise TypeError(f"{name}.spec_type must be a Spec class whose kind is {kind!r}.")
    stats = getattr(block, "stats_type", None)
    if not (isinstance(stats, type) and issubclass(stats, Stats)):
        raise TypeError(f"{name}.stats_type must be a Stats class.")


for _block in (CategoricalBlock, BernoulliBlock, MultinomialBlock, GaussianBlock, TextBlock, PoissonBlock, KDEBlock,
               DiscretizedBlock):
    register(_block)


def __getattr__(name: str) -> Any:
    # FEATURE_TYPES was a tuple made at import time; it now reads the registry on each access.
    # Kept for the app until it calls feature_types() (the app's branch of issue 22).
    if name == "FEATURE_TYPES":
        return feature_types()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
