"""Smoothings know themselves (issue 34, item 3): outside nbapp/smoothing.py no code asks which
smoothing class it holds (isinstance, type(x) is ..., a dict keyed by the class); the edges ask
the smoothing (its formula, parameters, control, the blocks it applies to). The scan reads the
source text, as tests/test_type_blind_edges.py does for feature types."""

from __future__ import annotations

import ast
from pathlib import Path

from nbapp.settings import SMOOTHINGS

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["nbapp", "ui", "pages", "app.py"]
OWN_MODULE = "nbapp/smoothing.py"
CLASSES = set(SMOOTHINGS)           # Lidstone, MEstimate, BetaPrior


def _names(node: ast.AST) -> set[str]:
    """The smoothing classes a node names (``BetaPrior``, ``nbapp.MEstimate``, a tuple of them)."""
    return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, (ast.Name, ast.Attribute)) and (n.id if isinstance(n, ast.Name) else n.attr) in CLASSES}


def switches(source: str) -> list[int]:
    """Lines that switch on a smoothing's class: isinstance / issubclass with one, a comparison
    with one (``type(s) is MEstimate``), a dict keyed by one."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2 and _names(node.args[1]):
            lines.append(node.lineno)
        elif isinstance(node, ast.Compare) and any(_names(c) for c in [node.left, *node.comparators]) \
                and any(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in node.ops):
            lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(k is not None and _names(k) for k in node.keys):
            lines.append(node.lineno)
    return lines


def places(root: Path = ROOT) -> list[tuple[str, int]]:
    found = []
    for entry in SCANNED:
        path = root / entry
        for file in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            where = file.relative_to(root).as_posix()
            if where != OWN_MODULE:
                found += [(where, line) for line in switches(file.read_text(encoding="utf-8"))]
    return found


def test_no_code_outside_the_smoothing_module_switches_on_a_smoothing_class():
    assert places() == [], "ask the smoothing (nbapp.smoothing) instead of its class"


def test_the_scan_finds_each_way_of_switching_on_a_smoothing_class(tmp_path):
    (tmp_path / "ui").mkdir()
    (tmp_path / "nbapp").mkdir()
    (tmp_path / "ui" / "edge.py").write_text(
        "if isinstance(s, MEstimate):\n    pass\n"
        "ok = isinstance(s, (nbapp.Lidstone, int))\n"
        "same = type(s) is BetaPrior\n"
        "KIND = {MEstimate: 'm'}\n"
        "fine = isinstance(s, float)\n"
        "made = BetaPrior(1, 1)\n")
    (tmp_path / "nbapp" / "smoothing.py").write_text("if isinstance(s, Lidstone):\n    pass\n")
    assert sorted(places(tmp_path)) == [("ui/edge.py", 1), ("ui/edge.py", 3), ("ui/edge.py", 4), ("ui/edge.py", 5)]
