"""The address holds the whole work (issue 22): a reload brings back the Explain row and the
pages' choices with the data, types and settings; an address of an older version of the app
(its work= held the app's own settings mirror) is read for what it can be, and the sidebar
names what it could not."""

from __future__ import annotations

import json

import pytest

import nbapp
from apptest_helpers import clear_caches, open_page, start, texts  # noqa: F401 (autouse fixture)
from nbapp.text import TextOptions
from ui.remember import decode_work, encode_work, pack
from ui.sources import Table
from ui.work import Work


def reload(at):
    params = {k: at.query_params[k] for k in at.query_params}
    return start(query={k: v[0] if isinstance(v, list) else v for k, v in params.items()})


def test_a_reload_brings_back_the_explain_row_and_the_page_choices():
    at = open_page(start(), "Explain")
    at.selectbox(key="_q::0").set_value("Overcast").run()            # Outlook
    at.checkbox(key="_qm::3").check().run()                          # Wind marked missing
    at.toggle(key="_presentation").set_value(True).run()
    fresh = reload(at)
    work = fresh.session_state["work"]
    assert work.query["Outlook"] == "Overcast" and "Wind" in work.missing
    assert work.choices["app.presentation"] is True
    open_page(fresh, "Explain", check_title=False)
    assert not fresh.dataframe, "the link opens in presentation mode: no row picker"
    assert fresh.selectbox(key="_present_q::0").value == "Overcast"              # the row's inputs in view
    assert any(m.value == "Wind: missing" for m in fresh.markdown)


def test_the_specs_travel_as_the_model_file_writes_them():
    features = {"Outlook": nbapp.Categorical(categories=("Sunny", "Overcast", "Rain", "Fog"), unseen="smooth"),
                "Temperature": "ignore", "Humidity": nbapp.Bernoulli(positive="High"),
                "Wind": nbapp.Text(options=TextOptions(stem=True, ngram_range=(1, 2)), event_model="bernoulli")}
    work = Work(source=Table("t.csv", "0" * 64), target="Play", features=features,
                settings=nbapp.Settings(alpha=0.5, smoothing=nbapp.MEstimate(2.0, p=0.25),
                                        priors={"No": .3, "Yes": .7}),
                query={"Outlook": "Fog", "Wind": "weak wind"}, missing={"Humidity"}, choices={"lessons.view": "prior"})
    blank = work.replace(features={c: "ignore" for c in features}, settings=nbapp.Settings(), query={},
                         missing=set(), choices={})
    back, notes = decode_work(encode_work(work), blank)
    assert not notes
    assert back == work


def _older(settings: dict, types: dict) -> str:
    """A work= value as the app wrote it before issue 22 (its own Settings mirror, asdict)."""
    mirror = {"smoothing": "lidstone", "alpha": 1.0, "m": 1.0, "p": None, "m_normalised": False, "beta_a": 1.0,
              "beta_b": 1.0, "priors": "empirical", "custom_priors": [], "prior_alpha": 0.0, "variance": "mle",
              "var_smoothing": 1e-9, "var_smoothing_mode": "global", "text": [], "positives": [],
              "column_options": []}
    return pack({"settings": {**mirror, **settings}, "types": types, "weight": None})


def test_an_older_link_keeps_its_types_and_settings():
    link = _older({"alpha": 2.0, "priors": "uniform", "variance": "unbiased"}, {"Temperature": "ignore"})
    at = start(query={"example": "tennis14", "work": link})
    work = at.session_state["work"]
    assert work.kinds["Temperature"] == "ignore"
    assert (work.settings.alpha, work.settings.priors, work.settings.variance) == (2.0, "uniform", "unbiased")
    assert not any("Not everything" in w for w in texts(at, "warning"))


def test_an_older_link_says_which_of_its_settings_it_could_not_read():
    link = _older({"smoothing": "m", "m": 3.0, "column_options": [["Outlook", "categorical", [["unseen", "smooth"]]]]},
                  {"Temperature": "ignore"})
    at = start(query={"example": "tennis14", "work": link})
    work = at.session_state["work"]
    assert work.settings.smoothing == nbapp.MEstimate(3.0) and work.kinds["Temperature"] == "ignore"
    said = " ".join(texts(at, "warning"))
    assert "older version of the app" in said and "column options" in said


def test_a_damaged_type_in_the_address_is_named_and_the_rest_kept():
    work = start().session_state["work"]
    data = json.loads(json.dumps({"v": 2, "features": [["Outlook", {"kind": "categorical", "unseen": "never"}],
                                                       ["Wind", "ignore"]],
                                  "weight": None, "settings": nbapp.Settings(alpha=3.0).to_dict()}))
    back, notes = decode_work(pack(data), work)
    assert back.kinds["Wind"] == "ignore" and back.settings.alpha == 3.0
    assert back.features["Outlook"] == work.features["Outlook"]
    assert len(notes) == 1 and "Outlook" in notes[0]


@pytest.mark.parametrize("choice, page, widget, default", [
    ({"explain.pair_mode": "no such mode"}, "Explain", ("radio", "_explain_pair_mode"), "runner_up"),
    ({"lessons.view": 7}, "Lessons", ("segmented_control", "_lessons_view"), "smoothing"),
])
def test_a_choice_the_pages_do_not_know_falls_back_to_their_default(choice, page, widget, default):
    at = start("penguins")                     # three classes: Explain offers the comparison's modes
    link = encode_work(at.session_state["work"].replace(choices=choice))
    at = open_page(start(query={"example": "penguins", "work": link}), page)
    kind, key = widget
    assert getattr(at, kind)(key=key).value == default
