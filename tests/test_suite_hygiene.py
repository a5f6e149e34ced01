"""The test suite's own rules (issue 22): no test measures wall-clock time (timing lives in bench/,
where a loaded machine cannot fail a run), and the README's screenshots are retaken by the one
command the README names, not by the suite (tests/conftest.py fails a run that changes a tracked
file)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLOCK = re.compile(r"\btime\.(perf_counter|time|monotonic|process_time|thread_time)(_ns)?\b|\bfrom time import\b"
                   r"|\btimeit\b")


def test_no_test_reads_the_clock():
    # conftest.py files may: waiting for a server to start is a bound against a hang, not a measure
    offenders = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
                 for path in sorted((ROOT / "tests").rglob("test_*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if CLOCK.search(line)]
    assert not offenders, "time these in a bench/ script instead:\n" + "\n".join(offenders)


def test_the_screenshot_command_retakes_every_screenshot_of_the_readme():
    shown = set(re.findall(r"docs/screenshots/(\w+)\.png", (ROOT / "README.md").read_text(encoding="utf-8")))
    script = (ROOT / "scripts" / "screenshots.sh").read_text(encoding="utf-8")
    assert "bash scripts/screenshots.sh" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "NBAPP_SCREENSHOTS=docs/screenshots" in script
    files = [ROOT / f for f in re.findall(r"tests/e2e/\w+\.py", script)]
    assert files and all("publish=True" in f.read_text(encoding="utf-8") for f in files)
    taken = "\n".join(f.read_text(encoding="utf-8") for f in files)
    assert shown and not {name for name in shown if f'"{name}"' not in taken}
