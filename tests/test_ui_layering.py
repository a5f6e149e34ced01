"""The app's modules import in one direction: no module under ui/ imports one that imports it
back, even inside a function (issue 22: ui/state and ui/remember imported each other), and the
work (ui/work.py) is a plain value that never imports streamlit."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, package: str) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function ("from ui import x" counts
    as importing ui.x when ui/x.py exists)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def ui_graph() -> dict[str, set[str]]:
    """ui module -> the ui modules it imports."""
    files = {_module_name(p): p for p in (ROOT / "ui").rglob("*.py")}
    graph = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = {m for m in _imports(path, package) if m in files and m != name}
    return graph


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return False


def test_state_and_remember_do_not_import_each_other_even_inside_functions():
    graph = ui_graph()
    assert "ui.remember" in graph["ui.state"], "state calls remember to write and restore the address"
    assert not _reaches(graph, "ui.remember", "ui.state"), graph["ui.remember"]


def test_no_two_modules_of_the_app_import_each_other():
    graph = ui_graph()
    pairs = sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets
                    if a in graph.get(b, ()) and "ui" not in (a, b)})
    assert not pairs, pairs


def test_the_work_is_a_plain_value():
    imports = _imports(ROOT / "ui" / "work.py", "ui")
    assert not any(m == "streamlit" or m.startswith(("streamlit.", "ui.")) for m in imports), imports
