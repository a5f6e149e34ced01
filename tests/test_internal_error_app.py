"""An unexpected exception in a page is shown as an internal error with an id, and logged
(issue 15: bugs are not disguised as bad input)."""

from __future__ import annotations

import logging

import streamlit as st

from streamlit.testing.v1 import AppTest

from apptest_helpers import ROOT, open_page, start


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


def test_a_data_error_is_not_an_internal_error():
    at = open_page(start(), "Model")
    assert not at.exception
    assert isinstance(at, AppTest)
