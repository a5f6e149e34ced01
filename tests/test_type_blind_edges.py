"""Outside the types' own modules no code tests a feature type by its name (issue 22): the
edges ask the type (its block's declarations and methods). This counts the places that still
compare a type's name with a string, with the pattern of the project's before-stop check, and
lists each one allowed with its reason; a new one, or a listed one that is gone, fails."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from nbapp.blocks import feature_types

ROOT = Path(__file__).resolve().parents[1]
# The directories and files scanned: the library and the app.
SCANNED = ["nbapp", "ui", "pages", "app.py"]
# Where a type describes itself: its block module, and its view in the app.
OWN_MODULES = ("nbapp/blocks/", "ui/views/")
# (file, the line's text) -> why it may name a type. Empty: every edge asks the type, in nbapp/
# and in the app (ui/, pages/, app.py), where a page asks the type's view (ui.views.view_of).
ALLOWED: dict[tuple[str, str], str] = {}


def places(root: Path = ROOT) -> set[tuple[str, str]]:
    names = "|".join(re.escape(t) for t in feature_types())
    pattern = re.compile(rf'(==|!=)\s*"({names})"|in \("({names})"|in \{{"({names})"|in \["({names})"')
    found = set()
    for entry in SCANNED:
        path = root / entry
        for file in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            where = file.relative_to(root).as_posix()
            if where.startswith(OWN_MODULES):
                continue
            for line in file.read_text(encoding="utf-8").splitlines():
                if pattern.search(line):
                    found.add((where, line.strip()))
    return found


def test_no_edge_tests_a_feature_type_by_its_name():
    found = places()
    assert sorted(found - set(ALLOWED)) == [], "ask the type (nbapp.blocks.base.Block) instead of its name"
    assert sorted(set(ALLOWED) - found) == [], "a listed place is gone: take it off ALLOWED"


def test_the_count_finds_a_name_test_outside_the_types_own_modules(tmp_path):
    (tmp_path / "nbapp" / "blocks").mkdir(parents=True)
    (tmp_path / "nbapp" / "edge.py").write_text('if spec.kind == "gaussian":\n    pass\nok = kind in ("kde", "x")\n')
    (tmp_path / "nbapp" / "blocks" / "own.py").write_text('if self.kind == "gaussian":\n    pass\n')
    assert places(tmp_path) == {("nbapp/edge.py", 'if spec.kind == "gaussian":'),
                                ("nbapp/edge.py", 'ok = kind in ("kde", "x")')}


def _compared_names(tree: ast.AST, names: set[str]) -> list[int]:
    """Lines comparing something with a type's name written as a string (==, !=, in, not in,
    against a string or a tuple, list or set of strings)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for operand in [node.left, *node.comparators]:
            items = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
            if any(isinstance(i, ast.Constant) and i.value in names for i in items):
                lines.append(node.lineno)
    return lines


def test_no_page_or_app_module_compares_anything_with_a_type_name():
    """A stricter reading of the app than the line pattern: any comparison, however written."""
    names = set(feature_types())
    found = []
    for entry in ("ui", "pages", "app.py"):
        path = ROOT / entry
        for file in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            where = file.relative_to(ROOT).as_posix()
            if not where.startswith(OWN_MODULES):
                found += [(where, line) for line in _compared_names(ast.parse(file.read_text(encoding="utf-8")), names)]
    assert found == [], "ask the type's view (ui.views.view_of) instead of its name"


def test_the_stricter_reading_finds_comparisons_however_written():
    tree = ast.parse('a = kind != "text"\nb = "gaussian" in kinds\nc = k not in {"kde", "x"}\nd = k == other\n')
    assert _compared_names(tree, set(feature_types())) == [1, 2, 3]


# -- where the data comes from (issue 34, item 1): the pages ask the source, never its kind ----------

#: A test of a source's kind by a tag: ``reader == "path"``, ``source.reader in ("example", ...)``.
_READER = re.compile(r"\breader\s*(==|!=|\bin\b|\bnot in\b)\s|\.reader\b")


def reader_tests(root: Path = ROOT) -> list[tuple[str, int, str]]:
    """Lines of ui/, pages/ and app.py that test a source's kind by a string tag, or read a
    ``.reader`` attribute (the tag a Source carried before ui/sources/)."""
    found = []
    for entry in ("ui", "pages", "app.py"):
        path = root / entry
        for file in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if _READER.search(line):
                    found.append((file.relative_to(root).as_posix(), number, line.strip()))
    return found


def test_no_page_tests_a_source_by_its_reader():
    assert reader_tests() == [], "ask the source (ui.sources.base.Source) instead of its kind"


def test_the_source_check_finds_a_reader_test(tmp_path):
    (tmp_path / "ui").mkdir()
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.py").write_text("import ui\n")
    (tmp_path / "ui" / "a.py").write_text('if source.reader == "path":\n    pass\nreader_choice = 1\n')
    (tmp_path / "pages" / "b.py").write_text('ok = reader in ("example", "path")\nx = work.source.reader\n')
    assert sorted(reader_tests(tmp_path)) == [("pages/b.py", 1, 'ok = reader in ("example", "path")'),
                                      ("pages/b.py", 2, "x = work.source.reader"),
                                      ("ui/a.py", 1, 'if source.reader == "path":')]


def test_no_page_or_app_module_tests_a_source_by_its_class():
    """Nor by its class: outside ui/sources/, no isinstance on a source kind (the test-only source
    of tests/new_source.py would otherwise be missed by that page)."""
    from ui.sources import source_classes

    names = {cls.__name__ for cls in source_classes()} | {"Upload", "Source"}
    found = []
    for entry in ("ui", "pages", "app.py"):
        path = ROOT / entry
        for file in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            where = file.relative_to(ROOT).as_posix()
            if where.startswith("ui/sources/"):
                continue
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                    kinds = node.args[1] if len(node.args) > 1 else None
                    items = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
                    if any(isinstance(i, (ast.Name, ast.Attribute)) and getattr(i, "id", getattr(i, "attr", "")) in names
                           for i in items):
                        found.append((where, node.lineno))
    assert found == [], "ask the source (its declarations and methods) instead of its class"
