"""Shared fixtures: the seeds' worked examples as frames; a check that the suite leaves every
tracked file as it found it."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"
# The app shows a bug as "internal error — please report" (app.py); under test it also raises,
# so no page can fail quietly behind that message.
os.environ.setdefault("NBAPP_RAISE_ERRORS", "1")
# scikit-learn's estimator checks include one of array-API input, which runs only when SciPy's
# array-API mode is on; it must be set before SciPy is first imported (as scikit-learn's own CI does).
os.environ.setdefault("SCIPY_ARRAY_API", "1")
# The AppTest helpers' asserts explain themselves on failure as a test module's do.
pytest.register_assert_rewrite("apptest_helpers")
# Hypothesis's two clocks (a deadline per example, a health check on slow data generation) would
# fail a property test on a loaded machine: off for every test, as most already set them.
settings.register_profile("nbapp", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("nbapp")
TENNIS_FEATURES = {c: "categorical" for c in ["Outlook", "Temperature", "Humidity", "Wind"]}


@pytest.fixture(scope="session", autouse=True)
def tracked_files_unchanged():
    """Fail the run if it changed a file git tracks (tests write to tmp_path): the tracked files
    that differ from HEAD, and their contents, must be the same after the session as before it.
    Only inside a git checkout of the project; scripts/screenshots.sh's run may rewrite
    $NBAPP_SCREENSHOTS, the README's images."""
    before = _changed_tracked_files()
    yield
    if before is None:
        return
    after = _changed_tracked_files() or {}
    allowed = os.environ.get("NBAPP_SCREENSHOTS")
    changed = sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
                     and not (allowed and Path(ROOT / path).is_relative_to(ROOT / allowed)))
    if changed:
        pytest.fail(f"the test run changed tracked files (tests must write to tmp_path): {', '.join(changed)}",
                    pytrace=False)


def _changed_tracked_files() -> dict[str, str] | None:
    """Each tracked file that differs from HEAD or the index, with its status and a hash of its
    content; None outside a git checkout of the project."""
    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, timeout=120)

    try:
        top = git("rev-parse", "--show-toplevel")
        if top.returncode != 0 or Path(os.fsdecode(top.stdout.strip())).resolve() != ROOT:
            return None
        status = git("status", "--porcelain=v1", "-z", "--untracked-files=no")
    except (OSError, subprocess.TimeoutExpired):
        return None
    if status.returncode != 0:
        return None
    changed: dict[str, str] = {}
    entries = iter(status.stdout.split(b"\0"))
    for entry in entries:
        if not entry:
            continue
        code, path = entry[:2].decode(), os.fsdecode(entry[3:])
        if code[0] in "RC":
            next(entries, None)             # a rename or copy is followed by its original path
        file = ROOT / path
        content = hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else "absent"
        changed[path] = f"{code} {content}"
    return changed


@pytest.fixture
def tennis() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "tennis14.csv")


@pytest.fixture
def gender() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "gender.csv")


def biopsy_like(rows: int = 699, seed: int = 0) -> pd.DataFrame:
    """Like MASS's biopsy: a patient ID (645 distinct integers in 699 rows, some repeated),
    nine 1-10 scores and a benign / malignant class."""
    rng = np.random.default_rng(seed)
    patients = rng.choice(np.arange(60_000, 13_500_000), size=645, replace=False)
    ids = rng.permutation(np.concatenate([patients, rng.choice(patients, size=rows - 645)]))
    y = rng.choice(["benign", "malignant"], size=rows, p=[0.655, 0.345])
    base = np.where(y == "malignant", 7.0, 2.0)
    scores = {f"V{j}": np.clip(np.round(base + rng.normal(0, 2.0, rows)), 1, 10).astype(np.int64)
              for j in range(1, 10)}
    return pd.DataFrame({"ID": ids, **scores, "class": y})


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL server on loopback for the whole run (tests/postgres_server.py);
    each test module makes its own tables in it."""
    import postgres_server

    server = postgres_server.start()
    try:
        yield server
    finally:
        postgres_server.stop(server)


@pytest.fixture(scope="session")
def spark():
    """The one local Spark session of the tests (two cores, as the engines' benchmark), started
    by the first test that asks for it; its Python workers run this interpreter."""
    import sys

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("nbapp-tests")
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate())
    yield session
    session.stop()
