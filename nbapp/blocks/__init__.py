"""Feature types as blocks: one module per type behind the protocol of :mod:`nbapp.blocks.base`.

The registry maps each type name to its block class; the spec class a user writes
(``nbapp.Gaussian(variance="pooled")``) is the block's ``spec_type``. A new feature type is
one module plus one line here.
"""

from nbapp.blocks.base import Block, BlockSettings, Stats
from nbapp.blocks.bernoulli import BernoulliBlock
from nbapp.blocks.categorical import CategoricalBlock
from nbapp.blocks.discretized import DiscretizedBlock
from nbapp.blocks.gaussian import GaussianBlock
from nbapp.blocks.kde import KDEBlock
from nbapp.blocks.multinomial import MultinomialBlock
from nbapp.blocks.poisson import PoissonBlock
from nbapp.blocks.text import TextBlock

__all__ = ["Block", "BlockSettings", "Stats", "REGISTRY", "FEATURE_TYPES", "block_type"]

REGISTRY: dict[str, type[Block]] = {
    "categorical": CategoricalBlock,
    "bernoulli": BernoulliBlock,
    "multinomial": MultinomialBlock,
    "gaussian": GaussianBlock,
    "text": TextBlock,
    "poisson": PoissonBlock,
    "kde": KDEBlock,
    "discretized": DiscretizedBlock,
}

# Every choice a column can take, in the order the app lists them.
FEATURE_TYPES: tuple[str, ...] = (*REGISTRY, "ignore")


def block_type(spec: object) -> type[Block]:
    """The block class of a spec object."""
    return REGISTRY[spec.kind]  # type: ignore[attr-defined]
