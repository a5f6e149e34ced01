"""A click on l reruns the whole Model page; what l leaves as it was is not built again (issue 32,
item 3): the Gaussian fit's figure and the class prior's bar chart are kept per data and numbers
(st.cache_resource), and the Poisson rates, which move with l, are a static table (redrawn with the
page, not on a grid's canvas after it)."""

from __future__ import annotations

import pytest

from apptest_helpers import clear_caches, no_exception, open_page, start, table, upload  # noqa: F401 (autouse fixture)
from ui import charts

# high: 5 rows, low: 3 rows; x is Gaussian, visits Poisson, plan categorical (the l control shows)
ROWS = [(4.0, 5, "a", "high"), (4.5, 7, "b", "high"), (5.0, 6, "b", "high"), (5.5, 4, "a", "high"),
        (6.0, 3, "b", "high"), (1.0, 0, "a", "low"), (1.5, 1, "a", "low"), (2.0, 1, "b", "low")]
CSV = ("x,visits,plan,label\n" + "\n".join(",".join(map(str, row)) for row in ROWS)).encode()


@pytest.fixture
def built(monkeypatch):
    """How many times each figure was built: charts.gaussian_fit and charts.priors_bar counted."""
    calls = {"gaussian_fit": 0, "priors_bar": 0}
    for name in calls:
        real = getattr(charts, name)

        def counted(*args, _name=name, _real=real, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(charts, name, counted)
    return calls


def _model_page():
    at = upload(start(), "visits.csv", CSV, check=False)
    if at.selectbox(key="_data_target").value != "label":
        at.selectbox(key="_data_target").set_value("label").run()
    for column, kind in (("x", "gaussian"), ("visits", "poisson"), ("plan", "categorical")):
        box = next(s for s in at.selectbox if s.label == f"Type of {column}")
        if box.value != kind:
            box.set_value(kind).run()
    no_exception(at)
    return open_page(at, "Model")


def _chart(at, key):
    return next(c.proto.spec for c in at.get("plotly_chart") if c.proto.id.endswith(key) or key in c.proto.id)


def _rates(at):
    return table(at, lambda t: "lambda" in t.columns)


def test_a_click_on_l_builds_neither_the_gaussian_fit_nor_the_priors_again(built):
    at = _model_page()
    assert built == {"gaussian_fit": 1, "priors_bar": 1}
    gauss, priors = _chart(at, "gauss_chart"), _chart(at, "priors_chart")
    # λ_c = (sum of the counts + l) / (n_c + l), l = 1: high (25 + 1) / (5 + 1), low (2 + 1) / (3 + 1)
    rates = _rates(at)
    assert rates.loc["high", "lambda"] == pytest.approx(26 / 6) and rates.loc["low", "lambda"] == pytest.approx(3 / 4)
    assert not [d for d in at.dataframe if "lambda" in d.value.columns], "the Poisson rates are a static table"
    assert [t for t in at.table if "lambda" in t.value.columns]
    at.number_input(key="_model_alpha").set_value(3.0).run()
    no_exception(at)
    rates = _rates(at)          # l = 3: (25 + 3) / (5 + 3) and (2 + 3) / (3 + 3)
    assert rates.loc["high", "lambda"] == pytest.approx(28 / 8) and rates.loc["low", "lambda"] == pytest.approx(5 / 6)
    assert built == {"gaussian_fit": 1, "priors_bar": 1}, "l changes neither the fits nor P(c)"
    assert (_chart(at, "gauss_chart"), _chart(at, "priors_chart")) == (gauss, priors)


def test_what_the_figures_draw_changing_builds_them_again(built):
    at = _model_page()
    priors = _chart(at, "priors_chart")
    assert "0.625" in priors and "0.375" in priors                  # P(c) = n_c / n: 5/8 and 3/8
    at.number_input(key="_model_prior_alpha").set_value(1.0).run()  # (n_c + 1) / (n + 2): 6/10 and 4/10
    no_exception(at)
    assert built["priors_bar"] == 2 and built["gaussian_fit"] == 1
    changed = _chart(at, "priors_chart")
    assert '"text":["0.6","0.4"]' in changed.replace(" ", "") and changed != priors
    gauss = _chart(at, "gauss_chart")
    at.radio(key="_model_variance").set_value("unbiased").run()    # σ²_c with 1/(n_c − 1): other fits
    no_exception(at)
    assert built["gaussian_fit"] == 2 and _chart(at, "gauss_chart") != gauss


def _poisson_chart(at) -> dict:
    """The Poisson fit's chart as the page draws it (ui.svg_charts)."""
    import drawn_svg

    svg = next(svg for svg in drawn_svg.drawn(at) if drawn_svg.traces(svg))
    return {"traces": drawn_svg.traces(svg), "words": drawn_svg.words(svg), "x_title": drawn_svg.title(svg, "nb-x-title")}


def test_the_poisson_chart_draws_the_data_s_shares_and_the_fitted_pmf_moving_with_l():
    from scipy.stats import poisson

    at = _model_page()
    assert not [c for c in at.get("plotly_chart") if "poisson" in c.proto.id]
    for l, rates in ((1.0, {"high": 26 / 6, "low": 3 / 4}), (3.0, {"high": 28 / 8, "low": 5 / 6})):
        if l != 1.0:
            at.number_input(key="_model_alpha").set_value(l).run()
        drawn = _poisson_chart(no_exception(at))
        bars = {t["name"].split()[0]: t for t in drawn["traces"] if t["kind"] == "bar"}
        lines = {t["name"].split(":")[0]: t for t in drawn["traces"] if t["kind"] == "line"}
        assert set(bars) == set(lines) == {"high", "low"}
        # the data's shares: high has counts 5, 7, 6, 4, 3 (one row each of 5); low 0, 1, 1
        assert dict(zip(bars["low"]["x"], bars["low"]["y"])) == pytest.approx({0.0: 1 / 3, 1.0: 2 / 3})
        for cls, rate in rates.items():
            assert lines[cls]["y"] == pytest.approx(list(poisson.pmf(lines[cls]["x"], rate)), abs=1e-12)
        patterns = sorted(bars[c]["pattern"] for c in ("high", "low"))           # not colour alone: one hatched
        assert patterns[0] == "" and patterns[1]
        assert lines["high"]["dash"] != lines["low"]["dash"] and lines["high"]["marker"] != lines["low"]["marker"]
        assert drawn["words"] and drawn["x_title"] == "visits"


@pytest.fixture
def converted(monkeypatch):
    """The static tables ui.tables made into markdown text for st.table, by their column labels."""
    from ui import tables
    seen: list[tuple] = []
    real = tables.md_table

    def counted(frame):
        seen.append(tuple(map(str, frame.columns)))
        return real(frame)

    monkeypatch.setattr(tables, "md_table", counted)
    return seen


def test_explain_s_static_tables_are_converted_once_per_model_and_row_for_every_session(converted):
    first = open_page(start(), "Explain")
    made = len(converted)
    assert made >= 3                                     # the posterior, the factors and the totals
    second = no_exception(open_page(start(), "Explain"))  # another student, the same row
    assert len(converted) == made
    assert [t.value.to_dict() for t in first.table] == [t.value.to_dict() for t in second.table]
    outlook = next(s for s in second.selectbox if s.label == "Outlook")
    outlook.set_value("Rain" if outlook.value != "Rain" else "Sunny").run()       # a new row: its own tables
    assert len(converted) >= made + 3
    posterior = table(second, lambda t: "rank" in t.columns)
    row = second.session_state["work"].query
    expected = second.session_state["model"].explain(row).posterior
    assert posterior.set_index("class")["P(c | x)"].astype(float).to_dict() == pytest.approx(
        {str(c): p for c, p in expected.items()})


def test_a_session_keeps_its_model_object_over_reruns_and_a_step_of_l_and_back():
    at = _model_page()
    first = at.session_state["model"]
    no_exception(at.run())
    assert at.session_state["model"] is first            # not a fresh copy out of st.cache_data
    at.number_input(key="_model_alpha").set_value(3.0).run()
    other = no_exception(at).session_state["model"]
    assert other is not first and other.alpha == 3.0 and first.alpha == 1.0
    at.number_input(key="_model_alpha").set_value(1.0).run()
    assert no_exception(at).session_state["model"] is first


def test_the_poisson_section_is_made_once_per_model_for_every_session(monkeypatch):
    made = []
    real = charts.poisson_fit
    monkeypatch.setattr(charts, "poisson_fit", lambda *a, **k: made.append(1) or real(*a, **k))
    first = _model_page()
    assert len(made) == 1
    no_exception(first.run())
    second = _model_page()                               # another student, the same data and l
    assert len(made) == 1
    assert _poisson_chart(first) == _poisson_chart(second)
    second.number_input(key="_model_alpha").set_value(3.0).run()    # another l: its own λ_c and dots
    assert len(made) == 2 and _poisson_chart(no_exception(second)) != _poisson_chart(first)
