"""docs/formulas.md stays honest: every function it names imports, every test it names exists,
and every numbered equation of seed 000 has a row (issue 10)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX = (ROOT / "docs" / "formulas.md").read_text(encoding="utf-8")
SEEDS = ROOT.parent / "shared" / "seeds"


def resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


def test_every_named_function_exists():
    names = set(re.findall(r"`(nbapp\.[\w.]+)`", INDEX))
    assert len(names) > 30
    for dotted in sorted(names):
        assert resolve(dotted) is not None, dotted


def test_every_named_test_exists():
    nodes = set(re.findall(r"`(tests/[\w/]+\.py)::(\w+)", INDEX))
    assert len(nodes) > 30
    for path, name in sorted(nodes):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name in defined, f"{path}::{name}"


def test_every_numbered_equation_of_seed_000_has_a_row():
    indexed = {int(n) for n in re.findall(r"^\| 000 Eq\. (\d+) \|", INDEX, flags=re.MULTILINE)}
    seed = next(SEEDS.glob("000_*.txt"), None)
    numbered = set(range(1, 23))
    if seed is not None:                      # the seeds live beside the project
        text = seed.read_text(encoding="utf-8")
        numbered = {int(n) for n in re.findall(r"(?:\\quad \(|\\tag\{)(\d+)[)}]", text)}
    assert numbered and numbered <= indexed, sorted(numbered - indexed)
