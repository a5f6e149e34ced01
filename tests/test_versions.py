"""The versions pyproject.toml allows are ones the engines support together (issue 33, item 7).

The app (``.[app]``) and the tests (``.[test]``) install the same pins as a user gets, so these
tests read the pins from pyproject.toml and check them against what is installed and against
what the engines themselves declare: PySpark at run time (it warns on pandas >= 3), every engine
in its package metadata."""

from __future__ import annotations

import tomllib
import warnings
from importlib.metadata import requires, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

PROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]


def _pins() -> list[Requirement]:
    """Every requirement in pyproject.toml, the library's and each extra's (not nbapp's own)."""
    lines = PROJECT["dependencies"] + [line for extra in PROJECT["optional-dependencies"].values()
                                       for line in extra]
    return [pin for pin in map(Requirement, lines) if pin.name != PROJECT["name"]]


def _floor(pin: Requirement) -> Version:
    return max(Version(spec.version) for spec in pin.specifier if spec.operator == ">=")


PINS = _pins()
FLOORS = {pin.name: _floor(pin) for pin in PINS if pin.name in ("numpy", "pandas", "pyarrow", "scipy")}


def test_pyspark_supports_the_installed_pandas_pyarrow_and_numpy_without_a_warning():
    from pyspark.sql.pandas import utils

    with warnings.catch_warnings():
        warnings.simplefilter("error")        # "PySpark does not yet fully support pandas >= 3.0.0"
        utils.require_minimum_pandas_version()
        utils.require_minimum_pyarrow_version()
        utils.require_minimum_numpy_version()


def test_the_library_pin_on_pandas_excludes_pandas_3_which_pyspark_does_not_support():
    pandas_pin = next(pin for pin in PROJECT["dependencies"] if Requirement(pin).name == "pandas")
    assert not Requirement(pandas_pin).specifier.contains("3.0.0")


@pytest.mark.parametrize("pin", PINS, ids=str)
def test_each_pin_in_pyproject_holds_the_installed_version(pin):
    assert pin.specifier.contains(version(pin.name), prereleases=True), \
        f"{pin.name} {version(pin.name)} is installed but pyproject.toml asks for {pin}"


@pytest.mark.parametrize("engine", [pin for pin in PINS if pin.name not in FLOORS], ids=str)
def test_every_engine_supports_the_lowest_numpy_pandas_pyarrow_and_scipy_pyproject_allows(engine):
    """An engine's own requirements (with the extras pyproject asks of it, e.g. pyspark[sql])
    must admit the lowest version of each shared package that pyproject.toml lets pip choose."""
    extras = {""} | engine.extras
    for line in requires(engine.name) or []:
        needed = Requirement(line)
        if needed.name not in FLOORS:
            continue
        if needed.marker is None or any(needed.marker.evaluate({"extra": extra}) for extra in extras):
            assert needed.specifier.contains(FLOORS[needed.name], prereleases=True), \
                f"{engine.name} {version(engine.name)} needs {needed}, but pyproject.toml allows " \
                f"{needed.name} down to {FLOORS[needed.name]}"
