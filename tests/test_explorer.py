"""The explorer's data and code (issue 32, item 2); the browser test is tests/e2e/test_explorer_browser.py."""

from __future__ import annotations

import json
import re

import numpy as np

import nbapp
from nbapp.examples import example, load_example
from ui import explorer


def _tennis() -> nbapp.NaiveBayes:
    tennis = example("tennis14")
    return nbapp.NaiveBayes(tennis.features, alpha=0).fit(load_example("tennis14"), target="Play")


def test_the_explorer_sets_labels_and_values_as_text_never_as_html():
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", explorer._JS)
    assert "textContent" in explorer._JS


def test_the_explorers_data_is_the_rows_card_as_json_with_an_id_that_follows_the_card():
    model = _tennis()
    query = example("tennis14").query
    data = explorer.explorer_data(model, query)
    json.dumps(data, allow_nan=False)
    outlook = data["card"]["features"][0]
    assert outlook["values"][outlook["current"]] == "Overcast"
    assert explorer.explorer_data(model, dict(query))["id"] == data["id"]
    assert explorer.explorer_data(model, {**query, "Outlook": "Rain"})["id"] != data["id"]
    missing = explorer.explorer_data(model, {**query, "Wind": np.nan})
    assert missing["card"]["features"][3]["current"] is None
