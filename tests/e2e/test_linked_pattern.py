"""A link carrying a hostile token pattern no longer takes the server down (issue 21).

Before: opening an address whose ``work=`` carried ``(?:\\w+){1,40}!`` for the SMS example
fitted with it at once; Python's ``re`` held the GIL and the health endpoint did not answer
for more than 110 s. Now the link's pattern waits on the Data page until the visitor confirms
it; confirmed, it runs in a child process and is stopped at its deadline with a sentence,
while the server (its health endpoint, a second browser session) keeps answering.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect

import nbapp
from nbapp.text import TextOptions
from e2e.server_watch import ServerWatch
from ui.remember import encode_work
from ui.sources import Example
from ui.work import Work

pytestmark = pytest.mark.e2e

HOSTILE = r"(?:\w+){1,40}!"


def hostile_link(app_url: str) -> str:
    work = Work(source=Example("sms_spam.csv", "0" * 64, example="sms_spam"), target="label",
                features={"text": nbapp.Text(options=TextOptions(token_pattern=HOSTILE))})
    return f"{app_url}/?example=sms_spam&target=label&work={encode_work(work)}"


def test_a_link_with_a_hostile_pattern_waits_and_once_confirmed_is_stopped_while_the_server_answers(
        app, browser: Browser, app_url: str):
    page: Page = app.page
    with ServerWatch(app_url) as health:
        page.goto(hostile_link(app_url))
        app.wait()
        expect(page.get_by_role("heading", name="Data", level=1)).to_be_visible()
        expect(page.get_by_text("The link you opened sets the token pattern", exact=False)).to_be_visible()
        expect(page.get_by_text("Model fitted: 2 classes", exact=False)).to_be_visible()   # with (?u)\w+
        app.screenshot("linked_pattern_waits")

        page.get_by_role("button", name="Use this token pattern").click()
        # while the pattern runs in its child process, a second visitor is served
        other = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            second = other.new_page()
            second.goto(app_url)
            expect(second.get_by_role("heading", name="Data", level=1)).to_be_visible(timeout=30_000)
            type(app)(second, app_url).wait()
            expect(second.get_by_text("Model fitted", exact=False)).to_be_visible()
        finally:
            other.close()

        stopped = page.get_by_text(f"The token pattern '{HOSTILE}' took more than", exact=False)
        expect(stopped).to_be_visible(timeout=60_000)
        expect(page.get_by_text("Use a simpler pattern", exact=False)).to_be_visible()
        app.wait()
        app.screenshot("linked_pattern_stopped")
        time.sleep(1.0)
    assert not health.failures, health.failures
    assert health.answers >= 10
