"""An unexpected exception in a page is shown as an internal error with an id, and logged
(issue 15: bugs are not disguised as bad input)."""

from __future__ import annotations

import logging

import streamlit as st

from streamlit.testing.v1 import AppTest

from apptest_helpers import PAGES, ROOT, unescape
from nbapp import DataError


def test_a_bug_in_a_page_is_reported_as_an_internal_error_with_an_id(monkeypatch, caplog):
    # app.py's navigation runs the pages (AppTest.switch_page would bypass it): the default page,
    # Data, fits the model on the first run, and here fitting has a bug.
    monkeypatch.delenv("NBAPP_RAISE_ERRORS", raising=False)    # as in production
    import nbapp

    def broken(self, *args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(nbapp.NaiveBayes, "summarize", broken)
    st.cache_data.clear()                   # no model fitted by an earlier test stands in
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    with caplog.at_level(logging.ERROR, logger="nbapp"):
        at.run()
    assert not at.exception
    shown = [e.value for e in at.error if "Internal error" in e.value]
    assert len(shown) == 1 and "Internal error — please report it (id " in shown[0]
    assert "not a problem with your data" in shown[0] and "ZeroDivisionError" not in shown[0]
    incident = shown[0].split("(id ")[1][:8]
    assert any(incident in r.getMessage() and r.exc_info for r in caplog.records)


PLANTED = "Column 'Outlook' holds a value planted by this test; type it 'ignore' to go on."


def test_a_data_error_is_not_an_internal_error(monkeypatch, caplog):
    # Bad input (here: fitting refuses with a DataError) is shown as its own sentence on every page
    # that needs the model; were it turned into "Internal error — please report" (by app.py's last
    # line of defence, or by a page letting it escape), this fails.
    monkeypatch.delenv("NBAPP_RAISE_ERRORS", raising=False)    # as in production: app.py's handler is live
    import nbapp

    def refuses(self, *args, **kwargs):
        raise DataError(PLANTED)

    monkeypatch.setattr(nbapp.NaiveBayes, "summarize", refuses)
    st.cache_data.clear()                   # no model fitted by an earlier test stands in
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    with caplog.at_level(logging.ERROR, logger="nbapp"):
        at.run()                            # the default page, Data, through app.py's navigation
        _shows_the_sentence(at, "Data")
        for name in ("Model", "Explain", "Evaluate", "Lessons"):
            at.switch_page(PAGES[name]).run()
            _shows_the_sentence(at, name)
    assert not [r for r in caplog.records if "internal error" in r.getMessage()]


def _shows_the_sentence(at: AppTest, page: str) -> None:
    """No exception escaped the page, and its errors show PLANTED and no internal error."""
    assert not at.exception, (page, [e.value for e in at.exception])
    shown = [unescape(e.value) for e in at.error]
    assert any(PLANTED in e for e in shown), (page, shown)
    assert not any("Internal error" in e for e in shown), (page, shown)
