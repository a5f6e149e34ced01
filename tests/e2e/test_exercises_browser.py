"""End to end in Chromium (issue 31, item 1): an answer that names an astronomically large number
("1e99999999", 10^(10^8)) typed into an Exercises answer box is judged wrong at once, while the
server keeps answering its other visitors (health within 1 s) and its memory stays within 500 MB
of where it stood warm; the box holds no more characters than the grader reads."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from nbapp.exercises import MAX_NUMBER_CHARS

from .server_watch import ServerWatch

pytestmark = pytest.mark.e2e

NUMBER_PLACEHOLDER = "a fraction (3/4), a decimal (0.75) or a percentage"


def test_a_huge_number_typed_as_an_answer_leaves_the_server_answering_and_is_simply_wrong(own_app, own_url):
    app, app_url = own_app, own_url     # a server of this module's own (conftest.own_url)
    app.goto()
    app.open_page("Exercises")
    page = app.page
    box = page.get_by_placeholder(NUMBER_PLACEHOLDER, exact=True).first
    box.scroll_into_view_if_needed()
    with ServerWatch(app_url) as watch:
        box.fill("1e99999999")
        box.press("Enter")
        app.wait()
        expect(page.get_by_text("Not right: 1e99999999; the answer is", exact=False)).to_be_visible(timeout=10_000)
    print(watch)
    watch.assert_unharmed()

    box.fill("")
    box.press_sequentially("9" * (MAX_NUMBER_CHARS + 20), delay=0)
    assert len(box.input_value()) == MAX_NUMBER_CHARS          # the box stops at what grade() reads
