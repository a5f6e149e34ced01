"""Explain says that its contributions add up (issue 25, item 4): under the log-odds chart,
"prior + contributions = the model's log-odds" with the numbers, against the runner-up and
against the rest (Shapley values), equal to predict_proba's log-odds."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from apptest_helpers import no_exception, open_page, start, texts
from apptest_helpers import clear_caches  # noqa: F401 (autouse fixture)

SENTENCE = re.compile(r"prior (\S+) \+ contributions (\S+) = \*\*(\S+)\*\* = log P\((.+?) \| x\) / P\((.+?) \| x\), "
                      r"the model's log-odds")


def number(text: str) -> float:
    return float(text.replace("−", "-").replace("∞", "inf"))


def adds_up(at) -> tuple[float, float, float, str, str]:
    found = [SENTENCE.search(t) for t in texts(at, "markdown")]
    found = [m for m in found if m]
    assert found, "no adds-up sentence on screen"
    m = found[-1]
    return number(m[1]), number(m[2]), number(m[3]), m[4], m[5]


def model_log_odds(at, cls, against=None) -> float:
    model = at.session_state["model"]
    row = at.session_state["work"].row(model.features_)
    p = model.predict_proba(pd.DataFrame([row])).iloc[0]
    rival = (1 - p[cls]) if against is None else p[against]
    return math.log(p[cls] / rival)


def test_against_the_runner_up_prior_plus_contributions_is_the_model_s_log_odds():
    at = open_page(start(), "Model")
    at.number_input(key="_model_alpha").set_value(1.0).run()
    open_page(at, "Explain")
    prior, summed, total, cls, against = adds_up(at)
    assert prior + summed == pytest.approx(total, abs=1.1e-4)
    assert total == pytest.approx(model_log_odds(at, cls, against), abs=1e-4)
    assert prior == pytest.approx(math.log(9 / 5), abs=1e-4)


def test_against_the_rest_the_shapley_contributions_add_up_and_say_so():
    at = open_page(start("penguins"), "Explain")
    at.radio(key="_explain_pair_mode").set_value("rest").run()
    no_exception(at)
    prior, summed, total, cls, against = adds_up(at)
    assert against == f"not {cls}"
    assert prior + summed == pytest.approx(total, abs=1.1e-4)
    assert total == pytest.approx(model_log_odds(at, cls), abs=1e-4)
    assert any("Shapley" in t for t in texts(at, "caption"))


def test_a_factor_that_decides_alone_gives_an_infinite_log_odds_in_the_sentence():
    at = open_page(start(), "Explain")                 # tennis at l = 0, Overcast: P(No | x) = 0
    prior, summed, total, cls, against = adds_up(at)
    assert math.isinf(total) and math.isinf(summed)
