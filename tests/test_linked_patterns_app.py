"""AppTest: a token pattern that arrives in a link is not run before the visitor confirms it (issue 21).

A one-click address whose ``work=`` carried ``(?:\\w+){1,40}!`` took the server down for
whoever opened it. The restored settings now use the default pattern, the Data and Text pages
show the linked one with "Use this token pattern" / "Use the default", and only the first runs it.
"""

from __future__ import annotations

import re

import pytest

import nbapp
from apptest_helpers import clear_caches, open_page, start  # noqa: F401 (autouse fixture)
from nbapp.text import TextOptions, matching
from ui.remember import encode_work
from ui.state import HELD
from ui.sources import Example
from ui.work import Work

HOSTILE = r"(?:\w+){1,40}!"


def link(pattern: str) -> dict[str, str]:
    work = Work(source=Example("sms_spam.csv", "0" * 64, example="sms_spam"), target="label",
                features={"text": nbapp.Text(options=TextOptions(token_pattern=pattern))})
    return {"example": "sms_spam", "target": "label", "work": encode_work(work)}


def chosen_pattern(at) -> str:
    return at.session_state["work"].specs["text"].options.token_pattern


def used_pattern(at) -> str:
    return at.session_state["model"].block_of("text").options.token_pattern


def plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@pytest.fixture()
def run_patterns(monkeypatch):
    """Every pattern run on text by the regex engine (compiling it to check it is not running it)."""
    ran = []
    original = matching.Matcher.find

    def spy(self, texts):
        ran.append(self.pattern)
        return original(self, texts)

    monkeypatch.setattr(matching.Matcher, "find", spy)
    return ran


def test_a_linked_pattern_waits_and_the_default_is_used(run_patterns):
    at = start(query=link(HOSTILE))
    assert at.session_state[HELD] == {"text": {"token_pattern": HOSTILE}}
    assert chosen_pattern(at) == r"(?u)\w+"
    assert used_pattern(at) == r"(?u)\w+"
    assert [c.value for c in at.code] == [HOSTILE]
    assert any("They have not been used: a pattern can take very long" in plain(w.value) for w in at.warning)
    assert any("confirm it on the Data or Text page" in plain(w.value) for w in at.sidebar.warning)
    at = open_page(at, "Text")
    assert [c.value for c in at.code if c.value == HOSTILE] == [HOSTILE]
    assert used_pattern(at) == r"(?u)\w+"
    assert HOSTILE not in run_patterns and r"(?u)\w+" in run_patterns     # the Text page's views ran


def test_using_the_linked_pattern_runs_it_and_a_hostile_one_is_stopped(monkeypatch):
    monkeypatch.setattr(matching, "BASE_SECONDS", 0.5)
    at = start(query=link(HOSTILE))
    at.button(key="data.held.0.use").click().run()
    assert not at.exception
    assert chosen_pattern(at) == HOSTILE
    assert not at.session_state[HELD]
    assert not at.sidebar.warning
    errors = [plain(e.value) for e in at.error]
    assert any(f"The token pattern '{HOSTILE}' took more than" in e and "was stopped" in e for e in errors), errors


def test_using_the_default_drops_the_linked_pattern():
    at = start(query=link(r"[a-z]+"))
    at = open_page(at, "Text")
    at.button(key="text.held.0.default").click().run()
    assert not at.exception
    assert not at.session_state[HELD] and not at.code
    assert used_pattern(at) == r"(?u)\w+"


def test_an_ordinary_linked_pattern_is_used_once_confirmed():
    at = start(query=link(r"[a-z]+"))
    at.button(key="data.held.0.use").click().run()
    assert used_pattern(at) == "[a-z]+"
    assert not at.error


def test_a_linear_linked_pattern_is_used_at_once():
    at = start(query=link(r"(?u)\b\w\w+\b"))
    assert not at.session_state[HELD]
    assert used_pattern(at) == r"(?u)\b\w\w+\b"
