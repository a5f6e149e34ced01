"""Token patterns are bounded in time whatever they are, and tokenise exactly as ``re`` (issue 21).

Python's ``re`` holds the GIL while it backtracks; in the server one pattern would stop every
session. Patterns now run in a child process with one deadline per tokenising job
(nbapp.text.matching). The deadline is lowered here so the hostile cases stay short; the
timings of the real one are in bench/bench_token_patterns.py.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from nbapp import DataError, NaiveBayes, Text
from nbapp.text import TextOptions, analyze, count_matrix, fit_vocabulary, matching, pipeline_steps, token_terms

SMS = Path(__file__).resolve().parents[1] / "sample_data" / "sms_spam.tsv"
STOPPED = r"took more than [\d.]+ s on this text .* was stopped.*Use a simpler pattern, e\.g\. \(\?u\)\\w\+"


@pytest.fixture(scope="module")
def sms_docs() -> list[str]:
    lines = SMS.read_text(encoding="utf-8").splitlines()
    return [line.split("\t", 1)[1] for line in lines if "\t" in line]


@pytest.fixture()
def short_deadline(monkeypatch):
    """A job's pattern may take 0.5 s plus 1 s per million characters."""
    monkeypatch.setattr(matching, "BASE_SECONDS", 0.5)


def prose(n_chars: int = 53_000) -> str:
    """Ordinary English prose without "!": the README, repeated."""
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").replace("!", ".")
    return (text * (n_chars // len(text) + 1))[:n_chars]


# ------------------------------------------------------------------------------ bounded in time


@pytest.mark.parametrize("pattern, corpus", [
    (r"(?:\w+){1,40}!", "sms"),            # the issue's one-click freeze (> 110 s with re in the server)
    (r"(?:a+){1,30}b", "a-runs"),           # doubles per character
    (r"\w*\w*\w*\w*\w*\w*!", "sms"),        # degree 7
    (r"\w+!", "long-word"),                 # quadratic
    (r"[\s\S]*!", "prose"),                 # quadratic on 53 KB of prose
])
def test_the_issues_hostile_patterns_are_stopped_with_a_sentence_naming_them(
        pattern, corpus, sms_docs, short_deadline):
    docs = {"sms": sms_docs, "a-runs": ["a" * 40, "aaaa c"], "long-word": ["a" * 53_000],
            "prose": [prose()]}[corpus]
    frame = pd.DataFrame({"text": docs, "y": ["p", "q"] * (len(docs) // 2) + ["p"] * (len(docs) % 2)})
    options = TextOptions(token_pattern=pattern)   # accepted: the static check does not see these
    with pytest.raises(DataError, match=STOPPED) as caught:
        NaiveBayes({"text": Text(options)}).fit(frame, "y")
    assert f"The token pattern '{pattern}' took more than" in str(caught.value)


def test_the_bound_does_not_depend_on_the_static_check(short_deadline):
    # (a+)+b is refused when options are made; run it anyway, below that check
    with pytest.raises(DataError, match=STOPPED):
        matching.find(r"(a+)+b", ["a" * 40])


def test_one_fit_has_one_deadline_across_its_steps(short_deadline, monkeypatch):
    # the fit tokenises in steps of documents; the deadline is the column's, not each step's
    from nbapp.blocks import text as text_block

    monkeypatch.setattr(text_block, "_DOCS_PER_STEP", 1)
    options = TextOptions(token_pattern=r"[a-z]+")       # checked before the spy
    jobs = []
    original = matching.TokenisingJob.__init__

    def spy(self, docs=()):
        original(self, docs)
        jobs.append(self)

    monkeypatch.setattr(matching.TokenisingJob, "__init__", spy)
    frame = pd.DataFrame({"text": ["one two", "three four five", "six"], "y": ["a", "b", "a"]})
    model = NaiveBayes({"text": Text(options)}).fit(frame, "y")
    assert [job.n_chars for job in jobs] == [len("one two") + len("three four five") + len("six")]
    jobs.clear()
    model.predict_proba(frame)
    assert [job.n_chars for job in jobs] == [len("one two") + len("three four five") + len("six")]


def test_other_threads_run_while_a_pattern_backtracks(short_deadline):
    # with re in this process the GIL would be held for the whole run: the counter would stand still
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        with pytest.raises(DataError, match=STOPPED):
            matching.find(r"(?:a+){1,30}b", ["a" * 40])
    finally:
        done.set()
        counter.join()
    assert ticks > 1_000


def test_the_stopped_process_is_gone_and_the_next_job_works(short_deadline):
    with matching.tokenising_job(["a" * 40]) as job:
        matcher = job.matcher(r"(?:a+){1,30}b")
        with pytest.raises(DataError, match=STOPPED):
            matcher.find(["a" * 40])
        process = matcher._child.process
    assert process.poll() is not None
    assert analyze("aab ab b", TextOptions(token_pattern=r"(?:a+){1,30}b")) == ["aab", "ab"]


def test_a_document_view_stops_too(short_deadline):
    options = TextOptions(token_pattern=r"(?:a+){1,30}b")
    for view in (analyze, token_terms, pipeline_steps):
        with pytest.raises(DataError, match=STOPPED):
            view("a" * 40, options)


def test_a_pattern_that_is_slow_to_compile_is_stopped_not_compiled_in_the_server(monkeypatch):
    monkeypatch.setattr(matching, "BASE_SECONDS", 0.1)
    # a case-insensitive set of every code point, many times: seconds of compiling
    pattern = "(?i)" + "[\x00-\U0010ffff]" * 190
    with pytest.raises(DataError, match=r"took more than 0\.1 s to compile"):
        TextOptions(token_pattern=pattern)


def test_linear_patterns_never_start_a_process(monkeypatch):
    def no_child(*args, **kwargs):
        raise AssertionError("a child process was started")

    monkeypatch.setattr(matching, "_Child", no_child)
    for pattern in matching.LINEAR_PATTERNS:
        options = TextOptions(token_pattern=pattern)
        assert analyze("Two words, x", options) == re.findall(pattern, "two words, x")
        fit_vocabulary(["two words", "x y"], options)


# ------------------------------------------------------------------------------ the same tokens as re

PATTERNS = [r"(?u)\b\w\w+\b", r"[a-z]+", r"\w+(?:'\w+)?", r"\S+", r"(\w+)'s", r"(?:(\d+)|[a-z]+)",
            r"[[:alpha:]]+", r"\w+|[^\w\s]", r"(?i)[a-z]+", r"\b"]
UNICODE = [
    "Café crème, naïve façade — ÉCOLE d'été",
    "हिन्दी भाषा में लिखा गया पाठ",                  # Devanagari vowel signs are marks: \w in regex, not re
    unicodedata.normalize("NFD", "résumé naïve"),   # combining accents, kept with unicode_form=None
    "x² + y³ = ½ of 42 ٣٤",                         # No digits are \w for re
    "fields\x1cseparated\x1fby\x1einformation\x1dseparators",   # \s for re
    "DIYARBAKIR ılık İstanbul ſtraße",              # dotless i, long s, capital dotted I
    "it's John's [[:alpha:]] set, a:b",
    "emoji 🙂 mixed_with_underscores",
    "",
]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("lowercase", [True, False])
def test_custom_patterns_count_as_countvectorizer_on_unicode_text(pattern, lowercase):
    docs = UNICODE * 2
    options = TextOptions(token_pattern=pattern, lowercase=lowercase, unicode_form=None)
    vocabulary, counts = fit_vocabulary(docs, options)
    cv = CountVectorizer(token_pattern=pattern, lowercase=lowercase)
    try:
        expected = cv.fit_transform(docs)
    except ValueError:                                # scikit-learn: "empty vocabulary"
        assert vocabulary == []
        return
    assert vocabulary == list(cv.get_feature_names_out())
    assert (counts != expected).nnz == 0
    assert (count_matrix(docs, cv.vocabulary_, options) != expected).nnz == 0


@pytest.mark.parametrize("pattern", [r"(?u)\b\w\w+\b", r"[a-z]+", r"\w+(?:'\w+)?", r"\S+", r"(\w+)'s"])
def test_custom_patterns_count_as_countvectorizer_on_sms(pattern, sms_docs):
    options = TextOptions(token_pattern=pattern, unicode_form=None)
    vocabulary, counts = fit_vocabulary(sms_docs, options)
    cv = CountVectorizer(token_pattern=pattern)
    assert vocabulary == list(cv.fit(sms_docs).get_feature_names_out())
    assert (counts != cv.transform(sms_docs)).nnz == 0


@pytest.mark.parametrize("pattern", PATTERNS + [r"x*", r"(a)|b"])
def test_document_views_cut_tokens_and_the_text_between_as_re_does(pattern):
    options = TextOptions(token_pattern=pattern, lowercase=False, unicode_form=None)
    for doc in UNICODE + ["ab ba xx", "a b"]:
        expected = re.findall(pattern, doc)
        assert analyze(doc, options) == expected
        assert [token for token, _ in token_terms(doc, options)] == expected
        tokenise = pipeline_steps(doc, options)[0]
        between = re.split(pattern, doc)[:: 1 + re.compile(pattern).groups]
        assert tokenise.tokens == tuple(expected)
        assert tokenise.removed == tuple(p.strip() for p in between if p and p.strip())


def test_texts_with_lone_surrogates_and_nul_characters_round_trip():
    doc = "a\ud800b \x00c d\udfff"
    options = TextOptions(token_pattern=r"\S+", unicode_form=None)
    assert analyze(doc, options) == re.findall(r"\S+", doc)
    vocabulary, counts = fit_vocabulary([doc, "c"], options)
    assert vocabulary == sorted(set(re.findall(r"\S+", doc)) | {"c"})
    assert np.asarray(counts.sum(axis=1)).ravel().tolist() == [3, 1]


def test_a_token_and_the_same_token_with_nul_characters_are_two_terms():
    # tokens are typed from their code points eight bytes at a time: NUL pads like the end of a token
    options = TextOptions(token_pattern=r"\S+", unicode_form=None)
    docs = ["a a\x00 a\x00\x00 a", "\x00 \x00\x00 ab\x00 ab"]
    vocabulary, counts = fit_vocabulary(docs, options)
    cv = CountVectorizer(token_pattern=r"\S+")
    assert vocabulary == list(cv.fit(docs).get_feature_names_out())
    assert (counts != cv.transform(docs)).nnz == 0
    assert len(vocabulary) == 7


def test_the_budget_is_spent_by_the_pattern_not_by_the_jobs_other_work(monkeypatch):
    # a fit does much besides matching (counting, stacking, a busy server's other threads). On the
    # test's own clock, which moves 0.005 s per reading, each wait for the child spends 0.005 s
    # and a minute of the job's other work between two matches spends nothing of its 30 s.
    now = 0.0

    def monotonic() -> float:
        nonlocal now
        now += 0.005
        return now

    monkeypatch.setattr(matching, "time", SimpleNamespace(monotonic=monotonic))
    monkeypatch.setattr(matching, "BASE_SECONDS", 30.0)
    with matching.tokenising_job(["one two"]) as job:
        assert job.matcher(r"[a-z]+").find(["one two"]).counts.tolist() == [2]
        spent = job.spent
        now += 60.0                                   # the job's own work, longer than its budget
        assert job.matcher(r"[a-z]+").find(["three"]).counts.tolist() == [1]
        assert spent > 0 and job.spent == pytest.approx(spent + 0.005)     # one more exchange


def test_a_pattern_stopped_while_compiling_is_checked_again_next_time(monkeypatch):
    pattern = "(?i)" + "[\x00-\U0010ffff]" * 3 + "x"
    monkeypatch.setattr(matching, "BASE_SECONDS", 0.0)
    with pytest.raises(matching.PatternTooSlow):
        TextOptions(token_pattern=pattern)
    monkeypatch.setattr(matching, "BASE_SECONDS", 5.0)
    assert TextOptions(token_pattern=pattern).token_pattern == pattern
