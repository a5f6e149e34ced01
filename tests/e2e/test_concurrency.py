"""Concurrency in a real browser: 8 sessions upload their own files and reach Explain together,
each seeing only its own data and classes; a 9th still loads (issue 15: many users at once).

A small, bounded version of bench/load_test.py for CI, which times what this test only checks (the
9th session's load under the others' work: its "probe"). It uses the session server of
tests/e2e/conftest.py (``app_url``) and its Chromium (``browser``). Playwright's sync API is
single-threaded, so the sessions are interleaved from one thread: each action is started on
every page before any is waited for, and the server works on all of them at once.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

SESSIONS = 8
ROWS = 5_000
LIMIT_MS = 90_000  # every wait below: a bound against a hang, not a measure of speed


def make_csv(rows: int, seed: int) -> bytes:
    """A mixed table with a 3-class target; each session gets its own (no shared cache hits)."""
    rng = np.random.default_rng(seed)
    play = rng.choice([f"yes_{seed}", f"no_{seed}", f"maybe_{seed}"], rows, p=[0.5, 0.35, 0.15])
    shift = pd.Series(play).map({f"yes_{seed}": 0.0, f"no_{seed}": 3.0, f"maybe_{seed}": -2.0}).to_numpy()
    return pd.DataFrame({
        "outlook": rng.choice(["sunny", "overcast", "rainy"], rows),
        "temperature": np.round(rng.normal(20, 5, rows) + shift, 2),
        "windy": rng.choice(["yes", "no"], rows),
        "region": rng.choice([f"R{i:02d}" for i in range(20)], rows),
        "play": play,
    }).to_csv(index=False).encode()


def wait_for_run(page: Page, initial_ms: int = 300) -> None:
    """The script run has finished (as Streamlit's own e2e suite waits)."""
    page.wait_for_timeout(initial_ms)
    page.locator("[data-testid='stApp'][data-test-connection-state='CONNECTED']").wait_for(
        state="attached", timeout=LIMIT_MS)
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for(
        state="attached", timeout=LIMIT_MS)
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=LIMIT_MS)


def test_eight_sessions_upload_their_own_files_and_explain_while_a_ninth_loads(browser: Browser, app_url: str):
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(SESSIONS + 1)]
    try:
        for context in contexts:
            context.set_default_timeout(LIMIT_MS)
        pages = [context.new_page() for context in contexts[:SESSIONS]]
        for page in pages:
            page.goto(app_url)
        for page in pages:
            expect(page.get_by_role("heading", name="Data", level=1)).to_be_visible(timeout=LIMIT_MS)
            wait_for_run(page)
            page.get_by_test_id("stRadio").get_by_text("Upload a file").click()
        for i, page in enumerate(pages):  # start all uploads before waiting for any
            page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
                files=[{"name": f"session_{i}.csv", "mimeType": "text/csv", "buffer": make_csv(ROWS, i)}])

        extra = contexts[SESSIONS].new_page()       # while the eight upload and fit
        extra.goto(app_url)
        expect(extra.get_by_role("heading", name="Data", level=1)).to_be_visible(timeout=LIMIT_MS)
        assert "Naive Bayes workbench" in extra.title()

        for i, page in enumerate(pages):
            expect(page.get_by_text(f"Loaded session_{i}.csv: {ROWS:,} rows", exact=False)).to_be_visible(
                timeout=LIMIT_MS)
            expect(page.get_by_text("Model fitted: 3 classes", exact=False)).to_be_visible(timeout=LIMIT_MS)
            wait_for_run(page)
        for page in pages:
            page.get_by_test_id("stSidebarNav").get_by_role("link", name="Explain").click()
        for i, page in enumerate(pages):   # each session's own classes only: no cache served another's model
            expect(page.get_by_role("heading", name="Explain", level=1)).to_be_visible(timeout=LIMIT_MS)
            wait_for_run(page)
            label = page.get_by_test_id("stMetricLabel").get_by_text("Prediction (argmax)", exact=True)
            value = page.get_by_test_id("stMetric").filter(has=label).get_by_test_id("stMetricValue")
            expect(value).to_have_text(re.compile(rf"^(yes|no|maybe)_{i}$"), timeout=LIMIT_MS)
    finally:
        for context in contexts:
            context.close()
