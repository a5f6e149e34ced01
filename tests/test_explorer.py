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


def test_the_explorers_data_is_the_rows_card_as_json_with_an_id_of_the_cards_numbers_not_the_row():
    model = _tennis()
    query = example("tennis14").query
    data = explorer.explorer_data(model, query)
    json.dumps(data, allow_nan=False)
    outlook = data["card"]["features"][0]
    assert outlook["values"][outlook["current"]] == "Overcast"
    other_row = explorer.explorer_data(model, {**query, "Outlook": "Rain"})
    assert other_row["id"] == data["id"] and other_row["card"] != data["card"]    # the browser keeps its inputs
    assert explorer.explorer_data(model.with_smoothing(alpha=1), query)["id"] != data["id"]
    missing = explorer.explorer_data(model, {**query, "Wind": np.nan})
    assert missing["card"]["features"][3]["current"] is None


def test_a_settled_row_is_read_off_the_card_it_was_chosen_on():
    model = _tennis()
    data = explorer.explorer_data(model, example("tennis14").query)
    outlook = data["card"]["features"][0]["values"]
    row = explorer.settled_row(data, {"card": data["id"], "row": {"Outlook": outlook.index("Rain"), "Wind": None}})
    assert row == {"Outlook": "Rain", "Wind": None}


def test_a_settled_row_that_is_not_the_cards_is_refused():
    model = _tennis()
    data = explorer.explorer_data(model, example("tennis14").query)
    for payload in [None, "Rain", {"card": "other", "row": {"Outlook": 0}}, {"card": data["id"], "row": [0]},
                    {"card": data["id"], "row": {"Outlook": 3}}, {"card": data["id"], "row": {"Outlook": -1}},
                    {"card": data["id"], "row": {"Outlook": True}}, {"card": data["id"], "row": {"Outlook": "Rain"}},
                    {"card": data["id"], "row": {"Play": 0}}, {"card": data["id"], "row": {"Outlook": 1.0}}]:
        assert explorer.settled_row(data, payload) is None, payload
