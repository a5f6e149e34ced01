"""A clean install (issue 15): the library builds as a wheel and, installed into a fresh virtual
environment with only its own dependencies, imports and fits without the app's packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECK = """
import importlib.util, sys
import pandas as pd
import nbapp, nbapp.blocks, nbapp.io, nbapp.text, nbapp.lessons, nbapp.diagnostics
assert importlib.util.find_spec("streamlit") is None, "the library must not need the app"
df = pd.DataFrame({"x": ["a", "b", "a", "b"], "n": [1.0, 2.0, 1.5, 3.0], "y": ["p", "q", "p", "q"]})
m = nbapp.NaiveBayes({"x": "categorical", "n": "gaussian"}).fit(df, "y")
assert m.predict(df).tolist() == ["p", "q", "p", "q"]
assert "streamlit" not in sys.modules
print("ok", nbapp.__file__)
"""


def test_the_wheel_installs_into_a_fresh_venv_and_works_without_the_app(tmp_path):
    source = tmp_path / "source"              # a copy, so the build leaves nothing in the checkout
    shutil.copytree(ROOT / "nbapp", source / "nbapp", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "-w", str(wheels), str(source)], check=True, timeout=300)
    wheel = next(wheels.glob("nbapp-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for package in ("nbapp/blocks/base.py", "nbapp/io/__init__.py", "nbapp/text/pipeline.py", "nbapp/lessons/__init__.py"):
        assert package in names
    assert not any(n.startswith(("ui/", "pages/", "tests/")) for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "nbapp = nbapp.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()

    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
                   check=True, timeout=900)
    out = subprocess.run([str(python), "-c", CHECK], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok") and str(env) in out.stdout
