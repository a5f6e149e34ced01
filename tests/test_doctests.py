"""The docstrings' examples run (issue 22, item 6): every doctest of nbapp/, where methods show
their seed formula on a seed number (tennis 9/14 and 3/5, seed 003's 1/7, ...)."""

from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
from pathlib import Path

import pytest

import nbapp

# Modules that need an optional dependency to be imported at all: module -> the dependency.
OPTIONAL = {"nbapp.sklearn": "sklearn"}
# Importing these runs something (the command line).
NOT_IMPORTED = {"nbapp.__main__"}


def modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(nbapp.__path__, "nbapp."):
        spec = importlib.util.find_spec(info.name)
        path = Path(spec.origin) if spec and spec.origin else None
        if info.name not in NOT_IMPORTED and path and ">>>" in path.read_text(encoding="utf-8"):
            names.append(info.name)
    return names


MODULES = modules_with_examples()


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_run(name):
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name])
    module = importlib.import_module(name)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    found = doctest.DocTestFinder().find(module, globs=dict(vars(module)))
    for test in found:
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()
    assert runner.tries > 0


def test_the_seed_numbers_are_among_the_examples():
    assert {"nbapp.model", "nbapp.priors", "nbapp.smoothing", "nbapp.logspace", "nbapp.settings"} <= set(MODULES)
