"""Explain's per-factor equations (a numeric factor's formula with its numbers): open at first for
a few, as in the lectures' worked examples; for many (five numeric features, two classes: ten)
folded in a section that draws nothing until it is opened, then follows the row (issue 32, item 3:
a click redraws every equation on screen)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from apptest_helpers import clear_caches, no_exception, open_page, start, upload  # noqa: F401 (autouse fixture)
from ui import explained
from ui.explain_page import DENSITIES_OPEN, DENSITIES_SECTION


def _five_numbers() -> bytes:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({f"x{i}": rng.normal(10 * i, 1 + i, 60).round(3) for i in range(1, 6)})
    frame["label"] = np.where(rng.random(60) < 0.5, "a", "b")
    return frame.to_csv(index=False).encode()


def _densities(at) -> list[str]:
    return [el.value.strip().removeprefix("$$").removesuffix("$$").strip() for el in at.latex
            if el.value.strip().removeprefix("$$").strip().startswith(r"p(\text{x")]


def _section(at):
    return next(e for e in at.expander if "with its formula and numbers" in e.label)


def test_many_factor_equations_wait_in_a_closed_section_then_follow_the_row():
    at = open_page(upload(start(), "five.csv", _five_numbers()), "Explain")
    model = at.session_state["model"]
    assert all(spec.kind == "gaussian" for spec in model.features_.values())
    assert "(10 equations)" in _section(at).label and 10 > DENSITIES_OPEN
    assert _densities(at) == []                                  # closed: none drawn
    assert any(r"P(x) = \sum_c" in el.value for el in at.latex)  # the joints, evidence and posteriors stay
    at.session_state[DENSITIES_SECTION] = True                   # the visitor opens it
    no_exception(at.run())
    row = at.session_state["work"].row(model.features_)
    e = model.explain(row)
    assert _densities(at) == explained.factor_equations(model, e, list(e.classes)) and len(_densities(at)) == 10
    at.number_input(key="_q::0").set_value(12.5).run()          # another x1: still open, its numbers
    no_exception(at)
    assert at.session_state[DENSITIES_SECTION] is True
    assert sum(r"p(\text{x1} = 12.5 \mid" in s for s in _densities(at)) == 2


def test_a_few_factor_equations_are_open_at_first():
    at = open_page(start("gender"), "Explain")                   # three numeric features, two classes
    assert "(6 equations)" in _section(at).label and 6 <= DENSITIES_OPEN
    assert len([el.value for el in at.latex if r"\mathcal{N}(" in el.value]) == 6     # drawn without a click
