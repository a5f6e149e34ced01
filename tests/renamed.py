"""Built-in feature types under another name, for tests that register a type and check that an
edge of nbapp asks the type instead of testing its name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def renamed(block: type, kind: str, title: str, **declarations: Any) -> type:
    """A block class like ``block`` whose kind is ``kind``, with a spec class like block's
    (same options and checks) of that kind, and any declarations changed; not registered."""
    spec = dataclass(frozen=True)(type(title, (block.spec_type,), {"kind": kind}))
    return type(f"{title}Block", (block,), {"kind": kind, "title": title, "spec_type": spec,
                                            "description": f"{block.title} under another name (a test's type)",
                                            **declarations})
