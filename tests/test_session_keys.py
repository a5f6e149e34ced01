"""The session's keys are documented in one place (ui/state.py's docstring): every plain key a
module of the app reads or writes is listed there, and every listed key is used (issue 22: 56
loose keys were written from 10 modules). Widget keys (a leading "_", or a "." or "::" in the
name) belong to their page's widgets and are not listed."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import ui.state

ROOT = Path(__file__).resolve().parents[1]
_LISTED = re.compile(r"^    ([a-z][a-z0-9_]*(?:, [a-z][a-z0-9_]*)*),?(?:[ \t]{2,}|$)", re.MULTILINE)


def documented() -> set[str]:
    section = ui.state.__doc__.split("The session's keys", 1)[1]
    return {key for line in _LISTED.findall(section) for key in line.split(", ")}


def _is_session(node: ast.AST) -> bool:
    """``st.session_state``, ``ss`` or ``ss_``-like names bound to it in the app's modules."""
    return (isinstance(node, ast.Attribute) and node.attr == "session_state") or \
        (isinstance(node, ast.Name) and node.id == "ss")


def _modules() -> list[Path]:
    return [*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"]


def _constants() -> dict[str, str]:
    """Module-level names bound to a string in the app's modules (a key written as HELD)."""
    names = {}
    for path in _modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str):
                names.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return names


def _key(node: ast.AST, constants: dict[str, str]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def used_keys() -> dict[str, set[str]]:
    """Plain string keys used with the session state, per module."""
    keys: dict[str, set[str]] = {}
    constants = _constants()
    for path in _modules():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and _is_session(node.value):
                found.add(_key(node.slice, constants))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_session(node.func.value):
                if node.func.attr in ("get", "setdefault", "pop") and node.args:
                    found.add(_key(node.args[0], constants))
                if node.func.attr == "update":
                    found |= {k.arg for k in node.keywords if k.arg}
            elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) \
                    and any(_is_session(c) for c in node.comparators):
                found.add(node.left.value)
        plain = {k for k in found if isinstance(k, str) and not k.startswith("_") and "." not in k and "::" not in k}
        if plain:
            keys[str(path.relative_to(ROOT))] = plain
    return keys


def test_every_session_key_is_documented_in_one_place():
    listed = documented()
    assert "work" in listed and len(listed) > 10
    undocumented = {module: sorted(keys - listed) for module, keys in used_keys().items() if keys - listed}
    assert not undocumented, undocumented


def test_every_documented_key_is_used():
    used = set().union(*used_keys().values())
    assert not documented() - used, sorted(documented() - used)


def test_the_work_is_written_by_state_alone():
    """Only ui/state.py assigns the "work" key; every other module goes through set_work."""
    writers = []
    for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) and _is_session(t.value)
                                                    and isinstance(t.slice, ast.Constant) and t.slice.value == "work"
                                                    for t in node.targets):
                writers.append(str(path.relative_to(ROOT)))
    assert writers == ["ui/state.py"], writers
