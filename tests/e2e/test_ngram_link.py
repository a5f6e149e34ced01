"""The review's recipe for issue 31, item 3, live: an 8.5 KB CSV with one 1,500-word document,
uploaded, then the page's link with ``ngram_range [1, 1500]`` put into its ``work=``. Before, the
server built every n-gram string before the 500,000-term cap looked (339 -> 3,344 MB in 5 s).
Now the link's range is held or refused with a sentence, and the other visitors are served
(health within 1 s) with the server's memory within 500 MB of warm."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

from e2e.conftest import App
from e2e.server_watch import ServerWatch
from ui.remember import pack, unpack

pytestmark = pytest.mark.e2e


def _corpus(path: Path) -> Path:
    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(300)]
    docs = [" ".join(rng.choice(words, 1500))] + [" ".join(rng.choice(words, 3)) for _ in range(30)]
    pd.DataFrame({"message": docs, "label": ["long"] + ["short", "other"] * 15}).to_csv(path, index=False)
    return path


def test_a_link_with_an_ngram_range_of_1500_words_leaves_the_server_answering(own_app: App, tmp_path: Path):
    app = own_app                       # a server of this module's own (conftest.own_url)
    page = app.page
    app.goto()
    page.get_by_test_id("stRadio").get_by_text("Upload a file").click()
    app.wait()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(_corpus(tmp_path / "words.csv")))
    app.wait()
    expect(page.get_by_text(re.compile(r"Model fitted: 3 classes"))).to_be_visible()
    query = dict(urllib.parse.parse_qsl(page.url.split("?", 1)[1]))
    work = unpack(query["work"])
    spec = next(spec for column, spec in work["features"] if column == "message")
    spec["options"] = {**(spec.get("options") or {}), "ngram_range": [1, 1500]}
    link = f"{app.url}/?{urllib.parse.urlencode({**query, 'work': pack(work)})}"

    with ServerWatch(app.url) as watch:
        page.goto(link)
        app.wait()
        expect(page.get_by_text("1500", exact=False).first).to_be_visible(timeout=60_000)
        assert not page.get_by_test_id("stException").count()
        page.wait_for_timeout(1000)
    watch.assert_unharmed()
