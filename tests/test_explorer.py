"""The explorer's data and code (issue 32, item 2); the browser test is tests/e2e/test_explorer_browser.py."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd

import nbapp
from nbapp.examples import example, load_example
from ui import explorer


def _tennis() -> nbapp.NaiveBayes:
    tennis = example("tennis14")
    return nbapp.NaiveBayes(tennis.features, alpha=0).fit(load_example("tennis14"), target="Play")


def test_the_explorer_sets_labels_and_values_as_text_never_as_html():
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", explorer._JS)
    assert "textContent" in explorer._JS


def test_the_explorers_card_is_the_rows_card_as_json_with_an_id_of_the_cards_numbers_not_the_row():
    model = _tennis()
    query = example("tennis14").query
    card = explorer.explorer_card(model, query)
    json.dumps(card.data, allow_nan=False)
    outlook = card.data["card"]["features"][0]
    assert outlook["values"][outlook["current"]] == "Overcast" and card.data["id"] == card.id
    other_row = explorer.explorer_card(model, {**query, "Outlook": "Rain"})
    assert other_row.id == card.id and other_row.data["card"] != card.data["card"]    # the browser keeps its inputs
    assert explorer.explorer_card(model.with_smoothing(alpha=1), query).id != card.id
    missing = explorer.explorer_card(model, {**query, "Wind": np.nan})
    assert missing.data["card"]["features"][3]["current"] is None


def test_a_settled_row_is_read_off_the_card_it_was_chosen_on():
    model = _tennis()
    card = explorer.explorer_card(model, example("tennis14").query)
    row = explorer.settled_row(card, {"card": card.id, "row": {"Outlook": card.values["Outlook"].index("Rain"),
                                                                "Wind": None}})
    assert row == {"Outlook": "Rain", "Wind": None}


def test_a_category_json_cannot_carry_comes_back_as_itself():
    days = pd.to_datetime(["2024-01-01", "2024-01-02"] * 4)
    frame = pd.DataFrame({"day": days.astype(object), "y": ["a", "a", "b", "b"] * 2})
    model = nbapp.NaiveBayes({"day": "categorical"}).fit(frame, target="y")
    card = explorer.explorer_card(model, {"day": days[0]})
    assert card.data["card"]["features"][0]["values"] == ["2024-01-01 00:00:00", "2024-01-02 00:00:00"]
    row = explorer.settled_row(card, {"card": card.id, "row": {"day": 1}})
    assert row == {"day": days[1]}
    assert model.explain(row).factors.loc["day", "status"] == "used"


def test_a_settled_row_that_is_not_the_cards_is_refused():
    model = _tennis()
    card = explorer.explorer_card(model, example("tennis14").query)
    for payload in [None, "Rain", {"card": "other", "row": {"Outlook": 0}}, {"card": card.id, "row": [0]},
                    {"card": card.id, "row": {"Outlook": 3}}, {"card": card.id, "row": {"Outlook": -1}},
                    {"card": card.id, "row": {"Outlook": True}}, {"card": card.id, "row": {"Outlook": "Rain"}},
                    {"card": card.id, "row": {"Play": 0}}, {"card": card.id, "row": {"Outlook": 1.0}}]:
        assert explorer.settled_row(card, payload) is None, payload
