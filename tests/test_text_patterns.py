"""User token patterns cannot stall the server (issue 15, defect 1). Python's ``re`` holds the
GIL while it backtracks, so a pattern that backtracks exponentially would freeze every session:
such patterns are refused when the text options are made, from the app and from a model file.
This is the friendly early refusal; every pattern is also bounded in time (issue 21,
tests/test_text_matching.py)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from nbapp import DataError, NaiveBayes, Text
from nbapp.text import TextOptions, analyze, matching
from nbapp.text.pipeline import catastrophic_part

HOSTILE = [r"(a+)+b", r"(?:\w+\s?)+$", r"(a|aa)+$", r"(?:(a|aa))+", r"(?:a+a)*x", r"(x\w+|y)+"]
ORDINARY = [r"(?u)\w+", r"(?u)\b\w\w+\b", r"\w+(?:'\w+)?", r"[a-z]+", r"\w+(?:-\w+)*", r"(?:\d{1,3},)+\d+",
            r"[^\W\d_]+", r"(?:ab)+", r"\S+"]


@pytest.mark.parametrize("pattern", HOSTILE)
def test_a_pattern_that_backtracks_exponentially_is_refused_at_once(pattern):
    # a friendly early refusal; the time bound itself does not depend on it (test_text_matching)
    with pytest.raises(DataError, match=r"repeats a group that can itself match in more than one way"):
        TextOptions(token_pattern=pattern)


def test_the_refused_patterns_really_are_the_slow_kind(monkeypatch):
    # what the refusal prevents: before failing on a run of n a's, re tries each of the 2^(n-1)
    # ways (a+)+b can split it; on 40 a's (5 * 10^11 ways) it is still trying when the time-bounded
    # matcher stops it, below the refusal; a+b fails on them at once. bench/bench_token_patterns.py
    # prints re's time doubling with each character.
    monkeypatch.setattr(matching, "BASE_SECONDS", 0.5)
    with pytest.raises(DataError, match=r"The token pattern '\(a\+\)\+b' took more than 0\.5 s"):
        matching.find(r"(a+)+b", ["a" * 40])
    assert re.match(r"a+b", "a" * 40) is None


@pytest.mark.parametrize("pattern", ORDINARY)
def test_ordinary_patterns_are_accepted_and_tokenise_as_re_does(pattern):
    assert catastrophic_part(pattern) is None
    doc = "Don't stop: 1,000 well-known words, naïve café"
    assert analyze(doc, TextOptions(token_pattern=pattern)) == re.findall(pattern, doc.lower())


def test_a_model_file_carrying_a_hostile_pattern_is_refused_on_load():
    df = pd.DataFrame({"t": ["aaa b", "b b", "aaa", "b"], "y": ["x", "y", "x", "y"]})
    m = NaiveBayes({"t": Text(TextOptions(token_pattern=r"[a-z]+"))}).fit(df, "y")
    hostile = m.to_json().replace('"[a-z]+"', '"(a|aa)+$"')
    assert hostile != m.to_json()
    with pytest.raises(DataError, match="more than one way"):
        NaiveBayes.from_json(hostile)


def test_invalid_or_huge_patterns_are_refused_when_the_options_are_made():
    with pytest.raises(DataError, match="not a valid regular expression"):
        TextOptions(token_pattern="(unclosed")
    with pytest.raises(DataError, match="at most 1000 characters"):
        TextOptions(token_pattern="a" * 1001)
