"""Issue 31, item 8: on the Text page, a token pattern stopped by its time or memory budget while
the page tokenises the sample document or the corpus shows the library's sentence, not "Internal
error" (app.py's last line of defence, which reports anything that escapes a page as a bug)."""

from __future__ import annotations

import pytest

from nbapp.text import matching
from apptest_helpers import clear_caches, open_page, start, unescape  # noqa: F401 (autouse fixture)

PATTERN = "[a-z]+"


@pytest.fixture
def sms_with_a_pattern(monkeypatch):
    """The SMS corpus on the Text page with a pattern that runs in the child, in production mode."""
    monkeypatch.delenv("NBAPP_RAISE_ERRORS", raising=False)
    at = open_page(start("sms_spam"), "Model")
    at.text_input(key="_model_text::0::pattern").set_value(PATTERN).run()
    at = open_page(at, "Text")
    assert not at.error, [e.value for e in at.error]
    return at


def _shown(at) -> list[str]:
    assert not at.exception, [e.value for e in at.exception]
    errors = [unescape(e.value) for e in at.error]
    assert not any("Internal error" in e for e in errors), errors
    return errors


def test_a_pattern_stopped_at_its_time_budget_on_the_sample_document_shows_its_sentence(sms_with_a_pattern,
                                                                                        monkeypatch):
    at = sms_with_a_pattern
    monkeypatch.setattr(matching, "BASE_SECONDS", 0.0)     # the document's job: a few microseconds
    at.text_area(key="_text_doc").set_value("WINNER! You have won a free prize, call now").run()
    errors = _shown(at)
    assert any(e.startswith(f"The token pattern '{PATTERN}' took more than 0 s ") and "was stopped" in e
               for e in errors), errors


def test_a_pattern_stopped_at_its_token_budget_on_the_sample_document_shows_its_sentence(sms_with_a_pattern,
                                                                                         monkeypatch):
    at = sms_with_a_pattern
    monkeypatch.setattr(matching, "MAX_TOKENS", 5)
    at.text_area(key="_text_doc").set_value("one two three four five six seven").run()
    errors = _shown(at)
    assert any(e.startswith(f"The token pattern '{PATTERN}' found more than 5 tokens on this text") for e in errors), \
        errors
