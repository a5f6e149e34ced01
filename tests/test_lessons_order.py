"""The Lessons follow the notes' order of the classes (Yes before No) as every other page does
(issue 33, item 5): the prior lesson's class choice and the incremental lesson's class choice and
tables listed No before Yes, the model's sorted order."""

from __future__ import annotations

import re

import pytest

from apptest_helpers import clear_caches, no_exception, open_page, start  # noqa: F401 (autouse fixture)


@pytest.mark.parametrize("view", ["prior", "incremental"])
def test_a_lesson_lists_yes_before_no_as_the_notes_do(view):
    at = open_page(start(), "Lessons")
    work = at.session_state["work"]
    at.session_state["work"] = work.replace(choices={**work.choices, "lessons.view": view})
    no_exception(at.run())
    orders = [[o for o in box.options if o in ("Yes", "No")] for box in list(at.selectbox) + list(at.radio)]
    for table in [*at.dataframe, *at.table]:
        names = [str(x) for x in [*table.value.columns, *table.value.index]]
        orders.append([n for n in names if re.fullmatch(r"Yes|No", n)])
    orders = [o for o in orders if len(o) == 2]
    assert orders and all(o == ["Yes", "No"] for o in orders), orders
