"""A model file naming a class with 30 MB of text (issue 31, item 15), sent through Chromium to a
live server: refused with a short message naming the field, while the server's other visitors
stay answered and its memory stays within 500 MB of where it stood warm (before the cap the
Model page took 1.1 GB and 41 s drawing that class)."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from playwright.sync_api import expect

from nbapp import NaiveBayes

from .server_watch import ServerWatch

pytestmark = pytest.mark.e2e


def test_a_model_file_with_a_30_mb_class_name_is_refused_and_the_server_unharmed(own_app, own_url, tmp_path):
    app, app_url = own_app, own_url     # a server of this module's own (conftest.own_url)
    frame = pd.DataFrame({"x": [0.0, 1.0, 2.0, 10.0, 14.0, 18.0], "y": ["a", "a", "a", "b", "b", "b"]})
    doc = json.loads(NaiveBayes({"x": "gaussian"}).fit(frame, "y").to_json())
    doc["classes"][1] = "b" * 30_000_000
    path = tmp_path / "long_name.json"
    path.write_text(json.dumps(doc))
    app.goto()
    app.open_page("Model")
    page = app.page
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Load a model file")
    with ServerWatch(app_url) as watch:
        uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        refusal = page.get_by_test_id("stAlert").filter(
            has_text=re.compile(r"classes\[1\] is a name of 30,000,000 characters, starting 'b{40}'"))
        expect(refusal).to_be_visible(timeout=60_000)
        app.wait()
    assert len(refusal.inner_text()) < 600                 # the name is quoted by its first 40 characters
    assert page.get_by_text("open without data").count() == 0     # the file was not opened
    watch.assert_unharmed()
