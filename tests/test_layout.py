"""A layout that shows what is public (issue 22, item 6): a module named ``_name.py`` is internal,
its names reach users through the ``__init__.py`` of its package; the app (app.py, pages/, ui/)
imports only public modules, and every public name a package exports is defined where the
package says."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import nbapp

ROOT = Path(__file__).resolve().parents[1]
APP_FILES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every ``import nbapp...`` and ``from nbapp... import`` in a file, and of
    ``from nbapp.pkg import name`` where ``name`` is itself a module of that package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "nbapp"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "nbapp":
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names
                      if importlib.util.find_spec(node.module) is not None
                      and _is_module(f"{node.module}.{a.name}")]
    return found


def _is_module(dotted: str) -> bool:
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False


def _internal(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_app_imports_only_public_modules_of_the_library(path):
    private = [(line, m) for line, m in _imported_modules(path) if _internal(m)]
    assert not private, f"{path.relative_to(ROOT)} imports internal modules: {private}"


def _packages() -> list[str]:
    names = ["nbapp"]
    for info in pkgutil.walk_packages(nbapp.__path__, "nbapp."):
        if info.ispkg and not _internal(info.name):
            names.append(info.name)
    return names


@pytest.mark.parametrize("package", _packages())
def test_every_name_a_package_exports_exists(package):
    module = importlib.import_module(package)
    exported = getattr(module, "__all__", None)
    if package == "nbapp.lessons":   # a folder of lesson modules, each public by its own name
        assert exported is None
        return
    assert exported, f"{package} says what it exports in __all__"
    missing = [name for name in exported if not hasattr(module, name)]
    assert not missing


def test_the_internal_modules_of_io_and_scale_are_named_so():
    """Each of these packages shows its public face in its __init__.py only."""
    for package in ("nbapp.io", "nbapp.scale"):
        modules = [info.name for info in pkgutil.iter_modules(importlib.import_module(package).__path__)]
        assert modules and all(name.startswith("_") for name in modules), (package, modules)


def test_the_public_names_the_app_needs_come_from_the_packages():
    import nbapp.io
    import nbapp.scale

    assert "distinct_counts" in nbapp.io.__all__ and callable(nbapp.io.distinct_counts)
    assert {"resolve_sources", "sample_rows"} <= set(nbapp.scale.__all__)


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_app_imports_only_names_the_library_exports(path):
    """What the app takes from a library module is public by name: listed in that module's
    __all__ (or, in a module that lists none, a name without "_")."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not (isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "nbapp"):
            continue
        exported = getattr(importlib.import_module(node.module), "__all__", None)
        found += [f"{node.lineno}: {node.module}.{a.name}" for a in node.names
                  if not _is_module(f"{node.module}.{a.name}")
                  and (a.name.startswith("_") or (exported is not None and a.name not in exported))]
    assert not found, f"{path.relative_to(ROOT)} imports names its library modules do not export: {found}"


def test_no_feature_type_imports_the_model_files_module():
    """The blocks lie below persist, which reads them (issue 34, item 6): the caps both share live
    in nbapp/_limits.py, so a block never imports persist, not even inside a function."""
    for path in sorted((ROOT / "nbapp" / "blocks").glob("*.py")):
        modules = [m for _, m in _imported_modules(path)]
        assert "nbapp.persist" not in modules, path.name


def test_the_readers_import_each_other_only_at_the_top():
    """No import loop in nbapp/io (issue 34, item 6): a module that needs a reader above it is
    handed that reader (the corpus its table reader, the fast path its line numbers) instead of
    importing it inside a function."""
    late = []
    for path in sorted((ROOT / "nbapp" / "io").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                late += [f"{path.name}: {node.name} imports {sub.module}" for sub in ast.walk(node)
                         if isinstance(sub, ast.ImportFrom) and (sub.module or "").startswith("nbapp.io")]
    assert not late, late


def test_no_private_name_is_imported_from_another_package():
    """A name that starts with "_" stays in its package (issue 34, item 6): what the engines
    share with the loaders (the number patterns, the row numbers, the careful number reader) or
    the exercises with the worked example is named as shared."""
    found = []
    for path in sorted((ROOT / "nbapp").rglob("*.py")):
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nbapp")):
                continue
            parts = node.module.split(".")
            target = ".".join(parts[:-1]) if ROOT.joinpath(*parts).with_suffix(".py").exists() else node.module
            found += [f"{path.relative_to(ROOT)}: {node.module}.{a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__") and target != package]
    assert not found, found
