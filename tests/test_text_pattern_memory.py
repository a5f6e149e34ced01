"""Issue 31, item 4: a token pattern's memory. The child that runs it streams its matches in
batches, the server stops it once they pass MAX_TOKENS, and while it matches its address space is
limited, so neither process holds gigabytes whatever the pattern or the cell."""

from __future__ import annotations


import numpy as np
import pytest

from nbapp.text import TextOptions, analyze
from nbapp.text import matching
from nbapp.text._re_worker import BATCH
from peak_memory import peak_mb

BIG_CELL = ("Free entry in 2 a wkly comp to win FA Cup final tkts 21st May 2005. " * 300_000)[:20_000_000]


def test_every_character_of_a_20_mb_cell_is_refused_at_the_token_budget_with_a_bounded_peak():
    # issue 31: (?s). over a 20 MB cell took the child to 2,991 MB and the server to 2,609 MB
    peak, caught = peak_mb(lambda: analyze(BIG_CELL, TextOptions(token_pattern=r"(?s).")))
    assert isinstance(caught, matching.PatternTooLarge), caught
    assert str(caught).startswith("The token pattern '(?s).' found more than 2,200,000 tokens on this text "
                                  "(20,000,000 characters) and was stopped")
    assert r"Use a pattern that matches words, e.g. (?u)\w+, or shorter documents." in str(caught)
    # the cell's UTF-8 copy sent to the child (20 MB) and 2.2 million spans (35 MB) at most
    assert peak < 100, f"{peak:.0f} MB"


def test_a_pattern_whose_matching_outgrows_the_child_s_memory_is_refused_in_a_sentence():
    # (a|b)* keeps some 80 bytes of backtracking state per character: 800 MB for this 10 MB cell,
    # one token within the time budget; the child's address-space limit stops it
    with pytest.raises(matching.PatternTooLarge, match=r"^The token pattern '\(a\|b\)\*' needed more than 256 MB "
                       r"to match this text \(10,000,000 characters\) and was stopped\. Use a simpler pattern"):
        matching.find(r"(a|b)*", ["ab" * 5_000_000])


def test_the_child_that_ran_out_of_memory_answers_the_next_text():
    with matching.tokenising_job(["ab" * 5_000_000]) as job:
        matcher = job.matcher(r"(a|b)*")
        with pytest.raises(matching.PatternTooLarge):
            matcher.find(["ab" * 5_000_000])
        assert matcher.find(["abab"]).tokens.tolist() == [[3, 4], [-1, -1]]     # findall: ["b", ""]


def test_a_child_killed_while_matching_is_told_as_out_of_memory_not_as_a_bug(monkeypatch):
    # the kernel's OOM killer (or a failed allocation in C) ends the child with a signal
    def killed(self, *parts, compiling=False):
        if parts or compiling:
            return original(self, *parts, compiling=compiling)
        self.process.kill()
        return self._check(EOFError("the stream ended"), matching=True)

    original = matching._Child.exchange
    monkeypatch.setattr(matching._Child, "exchange", killed)
    with pytest.raises(matching.PatternTooLarge, match=r"needed more than 256 MB to match this text"):
        matching.find(r"(?s).", ["x" * (3 * BATCH)])        # three batches: the second read meets the dead child


@pytest.mark.parametrize("pattern", [r"[a-z]+", r"([a-z])[a-z]*", r"(?s).", r"(?u)\w+", r"(x)?[a-z]"])
def test_matches_streamed_in_batches_equal_re_s_own(pattern):
    import re

    texts = ["", "abc de", "x" * (BATCH + 5) + " yz", "q " * (BATCH // 2 + 3)]
    found = matching.find(pattern, texts)
    compiled = re.compile(pattern)
    expected = [[m.span() + m.span(compiled.groups and 1) for m in compiled.finditer(t)] for t in texts]
    assert found.counts.tolist() == [len(e) for e in expected]
    flat = np.array([s for e in expected for s in e]).reshape(-1, 4)
    assert found.matches.tolist() == flat[:, :2].tolist()
    assert found.tokens.tolist() == flat[:, 2:].tolist()


def test_a_linear_pattern_in_the_server_s_process_stops_at_the_token_budget_too(monkeypatch):
    monkeypatch.setattr(matching, "MAX_TOKENS", 1_000)
    with pytest.raises(matching.PatternTooLarge, match=r"'\(\?u\)\\w\+' found more than 1,000 tokens"):
        matching.find(r"(?u)\w+", ["a " * 1_001])
    assert matching.find(r"(?u)\w+", ["a " * 1_000]).counts.tolist() == [1_000]


def test_the_child_s_memory_limit_holds_while_it_works_and_is_lifted_between_requests():
    import subprocess
    import sys

    from nbapp.text import _re_worker

    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import _re_worker as w\n"
        "w._limit_memory(64 << 20)\n"
        "try:\n    bytearray(200 << 20); print('allocated')\nexcept MemoryError:\n    print('refused')\n"
        "w._limit_memory(None)\n"
        "bytearray(200 << 20); print('lifted')\n"
    )
    folder = str(_re_worker.__file__).rsplit("/", 1)[0]
    out = subprocess.run([sys.executable, "-I", "-S", "-c", script, folder], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.split() == ["refused", "lifted"], out


def test_a_one_character_pattern_passes_over_every_chunk_of_ordinary_documents():
    # MAX_TOKENS is above the characters of a corpus chunk: character-level tokens of many
    # ordinary documents are counted, chunk by chunk, however long the corpus
    from nbapp.text import fit_vocabulary

    docs = ["ab cd!"] * 600_000                         # 4.2 million characters, two chunks
    vocabulary, counts = fit_vocabulary(docs, TextOptions(token_pattern=r"(?s)."))
    assert vocabulary == [" ", "!", "a", "b", "c", "d"]
    assert int(counts.sum()) == 6 * 600_000 > matching.MAX_TOKENS
