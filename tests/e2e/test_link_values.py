"""Links whose values broke pages in Chromium open with their defaults and a note (issue 31, item 7).

Before, 7 of 7 such links ended in an exception on the page: ``evaluate.seed = -1``,
``evaluate.k = "x"``, a test share of 5, ``text.row = "x"``, an Explain value of 10^400, priors
naming classes the data lacks, a ``work=`` nested 100,000 levels deep. Now each page shows the
sidebar's note and no exception, and the server keeps answering its other visitors meanwhile.
"""

from __future__ import annotations

import base64
import zlib

import pytest
from playwright.sync_api import expect

import nbapp
from e2e.server_watch import ServerWatch
from ui.remember import pack

pytestmark = pytest.mark.e2e


def work_of(**parts) -> str:
    """A ``work=`` of the current format holding ``parts`` over default settings."""
    return pack({"v": 2, "features": [], "weight": None, "settings": nbapp.Settings().to_dict(), **parts})


NESTED = base64.urlsafe_b64encode(zlib.compress(b"[" * 100_000 + b"]" * 100_000, 9)).decode().rstrip("=")
PRIORS = {**nbapp.Settings().to_dict(), "priors": {"classes": ["nope", "zilch"], "values": [0.5, 0.5]}}

LINKS = {
    "evaluate.seed": ("tennis14", work_of(choices={"evaluate.seed": -1}), "Evaluate", "Random seed (-1)"),
    "evaluate.k": ("tennis14", work_of(choices={"evaluate.k": "x"}), "Evaluate", "Folds k ('x')"),
    "evaluate.test_size": ("tennis14", work_of(choices={"evaluate.method": "holdout", "evaluate.test_size": 5}),
                           "Evaluate", "Test share (5)"),
    "text.row": ("sms_spam", work_of(choices={"text.doc_mode": "A row of the data", "text.row": "x"}), "Text",
                 "row ('x')"),
    "explain value": ("gender", work_of(query=[["Height", 10**400]]), "Explain", "column 'Height'"),
    "priors": ("tennis14", work_of(settings=PRIORS), "Model", "class priors do not fit this data"),
}


def open_link(app, example: str, work: str, page_name: str, note: str) -> None:
    """The link opened at "/" (notes, 1.1), then ``page_name``: its note in the sidebar, no exception."""
    page = app.page
    page.goto(f"{app.url}/?example={example}&work={work}")
    for opened in ("Data", page_name):                                  # before: every one of these links
        if opened != "Data":
            app.open_page(opened)
        app.wait()
        assert not page.get_by_test_id("stException").count(), opened
        assert not page.get_by_text("internal error", exact=False).count(), opened
    expect(page.get_by_test_id("stSidebar").get_by_text(note, exact=False)).to_be_visible()


@pytest.mark.parametrize("name", list(LINKS))
def test_a_link_with_a_value_its_widget_refuses_opens_its_page_with_a_note_and_no_exception(app, name):
    open_link(app, *LINKS[name])


def test_a_deeply_nested_link_is_refused_while_the_server_keeps_answering(own_app, own_url):
    app, app_url = own_app, own_url     # a server of this module's own (conftest.own_url)
    with ServerWatch(app_url) as watch:
        open_link(app, "tennis14", NESTED, "Model", "nested too deeply")
    watch.assert_unharmed()
