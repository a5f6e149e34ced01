"""The pages part of issue 22's promise, "one module plus one line": the log-normal type of
tests/new_type.py, registered by its fixture and named by no file of ui/ or pages/, is chosen on
the Data page and walked through Model, Explain and Evaluate. Every page answers from the type's
block and the generic view (ui/views/base.py): its table and density, its input, its factor and
equation, its place in the baseline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest

from apptest_helpers import clear_caches, open_page, start, table, tables as on_screen, upload  # noqa: F401 (autouse fixture)
from nbapp.blocks import register, unregister
from nbapp.blocks.categorical import Categorical, CategoricalBlock
from nbapp.errors import DataError
from new_type import KIND, LogNormal, lognormal_type  # noqa: F401 (lognormal_type: the fixture, the one line)


def _incomes() -> bytes:
    rng = np.random.default_rng(7)
    n = 80
    region = rng.choice(["north", "south"], n)
    rich = rng.random(n) < 0.5
    income = np.round(np.exp(rng.normal(np.where(rich, 11.0, 10.0), 0.4)), 2)
    return pd.DataFrame({"region": region, "income": income, "band": np.where(rich, "high", "low")}
                        ).to_csv(index=False).encode()


@pytest.fixture
def at(lognormal_type):
    """The incomes uploaded, income typed log-normal on the Data page (its type selector offers
    the registered type), band predicted."""
    at = upload(start(), "incomes.csv", _incomes())
    at.selectbox(key="_data_target").set_value("band").run()
    kinds = at.session_state["work"].kinds
    assert list(kinds) == ["region", "income"]
    selector = at.selectbox(key="_type::1")
    assert KIND in selector.options
    selector.set_value(KIND).run()
    assert not at.exception, [e.value for e in at.exception]
    model = at.session_state["model"]
    assert model.features_["income"] == LogNormal()
    return at


def test_the_model_page_shows_the_new_type_from_its_block(at):
    at = open_page(at, "Model")
    model = at.session_state["model"]
    fitted = table(at, lambda t: "meanlog" in t.columns)
    np.testing.assert_allclose(fitted["meanlog"].to_numpy(dtype=float),
                               model.parameters("income")["meanlog"].to_numpy(dtype=float))
    assert any("Log-normal" in h.value for h in at.subheader), [h.value for h in at.subheader]
    charts = at.get("plotly_chart")
    assert any("p(x | c)" in str(c.proto.spec) for c in charts), "the fitted density is drawn over the data"
    choosing = [h.value for h in at.subheader if h.value.startswith("Choosing a numeric type")]
    assert choosing and "Log-normal" in choosing[0], "the type is a density choice beside Gaussian and KDE"
    at.session_state["model.choice_open"] = True
    at.run()
    assert "income" in at.selectbox(key="model.choice_feature").options


def test_the_explain_page_asks_a_number_and_shows_its_factor(at):
    at = open_page(at, "Explain")
    model = at.session_state["model"]
    number = at.number_input(key="_q::1")            # income: the type's value_kind asks for a number
    number.set_value(50000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    factors = table(at, lambda t: "status" in t.columns)
    assert factors.loc["income", "status"] == "used"
    e = model.explain({"region": at.session_state["work"].query.get("region"), "income": 50000.0})
    assert float(factors.loc["income", "high decimal"]) == pytest.approx(float(e.probabilities.loc["income", "high"]),
                                                                         rel=1e-3)
    density = [el.value for el in at.latex if r"p(\text{income} = 50000 \mid" in el.value]
    assert len(density) == 2, "the density at the value, per class, from the block"


def test_the_evaluate_page_cross_validates_it_and_the_baseline_takes_its_own_transform(at):
    at = open_page(at, "Evaluate")
    assert at.session_state["kept"]["evaluate.result"][1].scores.n == 80
    at.toggle(key="eval.compare").set_value(True).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    encodings = table(at, lambda t: list(t.columns) == ["column", "type", "encoding"])
    assert dict(zip(encodings["column"], encodings["type"])) == {"region": "Categorical", "income": "Log-normal"}


# -- a type whose values are categories but that keeps no counts: the generic view shows its table

@dataclass(frozen=True)
class Tabled(Categorical):
    kind: ClassVar[str] = "tabled"


class TabledBlock(CategoricalBlock):
    kind = "tabled"
    title = "Tabled"
    description = "a table of P(x = v | c) that shows no counts (a type registered by a test)"
    spec_type = Tabled

    def counts(self, column: str, classes: list) -> pd.DataFrame:
        raise DataError(f"Column {column!r} is tabled: it shows no counts.")


@pytest.fixture
def tabled():
    register(TabledBlock)
    yield "tabled"
    unregister("tabled")


def test_a_category_type_without_counts_shows_its_table_and_its_values(tabled):
    at = upload(start(), "incomes.csv", _incomes())
    at.selectbox(key="_data_target").set_value("band").run()
    at.selectbox(key="_type::0").set_value(tabled).run()          # region
    at = open_page(at, "Model")
    model = at.session_state["model"]
    tables = [t for t in on_screen(at) if t.index.name == "region"]
    assert len(tables) == 1, "its table of P(x = v | c), and no table of counts"
    assert list(tables[0].columns) == ["high", "low"]
    assert tables[0].loc["north", "high"] == str(model.cpt("region", exact=True).loc["north", "high"])
    at = open_page(at, "Explain")
    assert at.selectbox(key="_q::0").options == ["north", "south"]     # its values, from its table
    factors = table(at, lambda t: "status" in t.columns)
    assert factors.loc["region", "status"] == "used" and factors.loc["region", "high counts"] == ""


def test_a_type_that_writes_its_density_formula_shows_it_on_explain(at, lognormal_type, monkeypatch):
    def formula(self, column, value, c, number):
        return rf"\mathrm{{LogN}}({number(float(value))};\ {number(float(self.mean()[c]))})"

    monkeypatch.setattr(lognormal_type, "density_latex", formula)
    at = open_page(at, "Explain")
    at.number_input(key="_q::1").set_value(50000.0).run()
    shown = [el.value for el in at.latex if r"\mathrm{LogN}(50000" in el.value]
    assert len(shown) == 2, [el.value for el in at.latex]
