"""A token pattern that takes every character of a 20 MB cell, live (issue 31, item 4).

Before: ``(?s).`` over one 20 MB cell listed 20 million matches, the child reached 2,991 MB and
the server 2,609 MB within the pattern's time. Now the child streams its matches, the server
stops it at MAX_TOKENS with a sentence, and the other visitors are served all along
(``ServerWatch``: health answers within 1 s, the server and the child stay under 500 MB).
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from playwright.sync_api import expect

from nbapp.examples import load_example

from .server_watch import ServerWatch

pytestmark = pytest.mark.e2e

CELL_CHARS = 20_000_000


def sms_with_a_big_cell() -> bytes:
    """The SMS corpus's first 300 messages and one more of 20 MB of ordinary words."""
    sms = load_example("sms_spam").head(300)[["text", "label"]]
    words = ("Free entry in 2 a wkly comp to win FA Cup final tkts 21st May 2005. " * 300_000)[:CELL_CHARS]
    big = pd.DataFrame({"text": [words], "label": ["spam"]})
    return pd.concat([sms, big], ignore_index=True).to_csv(index=False).encode()


def test_every_character_of_a_20_mb_cell_as_a_token_is_refused_while_the_server_stays_well(own_app, tmp_path):
    app = own_app                       # a server of this module's own (conftest.own_url)
    csv = tmp_path / "sms_big_cell.csv"
    csv.write_bytes(sms_with_a_big_cell())
    app.goto()
    page = app.page
    page.get_by_test_id("stRadio").get_by_text("Upload a file").click()
    app.wait()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(csv))
    page.wait_for_timeout(2000)
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for(state="attached",
                                                                                        timeout=300_000)
    expect(page.get_by_text(re.compile(r"Loaded sms_big_cell\.csv: 301 rows"))).to_be_visible(timeout=120_000)
    expect(page.get_by_text("Model fitted: 2 classes", exact=False)).to_be_visible(timeout=120_000)
    app.open_page("Model")
    pattern = page.get_by_role("textbox", name="Token pattern (regular expression)").first
    with ServerWatch(app.url) as watch:
        pattern.fill("(?s).")
        pattern.press("Enter")
        refused = page.get_by_text("The token pattern '(?s).' found more than 2,200,000 tokens", exact=False)
        expect(refused.first).to_be_visible(timeout=120_000)
        expect(page.get_by_text("Use a pattern that matches words", exact=False).first).to_be_visible()
        app.wait()
        app.screenshot("text_pattern_memory_refused")
        page.wait_for_timeout(1000)
    print(watch)
    watch.assert_unharmed()
    expect(page.get_by_text("Internal error", exact=False)).to_have_count(0)
    # the Text page tells the same sentence (issue 31, item 8: not "Internal error")
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Text").click()
    expect(refused.first).to_be_visible(timeout=120_000)
    expect(page.get_by_text("Internal error", exact=False)).to_have_count(0)
