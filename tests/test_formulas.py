"""The formulas on screen are the ones computed (issue 14): every template of ui/formulas.py and of the type views (ui/views/) is
rendered for every smoothing and feature type, the substituted arithmetic is parsed back out of
the LaTeX and evaluated, and the result must equal the library's own value. The on-screen algebra
cannot drift from the code again (it did: the m-estimate printed n + m while dividing by n + K m p).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

import nbapp
from nbapp.examples import example, load_example
from ui import explained, formulas
from ui.views import view_of
from ui.views.gaussian import density_latex, gaussian_latex
from ui.views.kde import density_latex as kde_density_latex
from ui.views.poisson import pmf_latex

# ----------------------------------------------------------------------------- LaTeX arithmetic

_COMMANDS = [(r"\left(", "("), (r"\right)", ")"), (r"\!", ""), (r"\,", ""), (r"\cdot", "*"),
             (r"\tfrac", r"\frac"), (r"\pi", "pi"), (r"\exp", "exp"), (r"\times", "*")]


def _frac(expr: str) -> str:
    r"""\frac{a}{b} -> ((a)/(b)) and \sqrt{a} -> sqrt(a), innermost braces first."""
    group = r"\{([^{}]*)\}"
    while True:
        new = re.sub(r"\\frac" + group + group, r"((\1)/(\2))", expr)
        new = re.sub(r"\\sqrt" + group, r"sqrt(\1)", new)
        new = re.sub(r"\^" + group, r"**(\1)", new)
        new = re.sub(r"e\*\*\(", "exp1**(", new)
        new = re.sub(r"(\d+)!", r"factorial(\1)", new)
        if new == expr:
            return new
        expr = new


def evaluate(latex: str) -> float | None:
    """The value of a purely numeric LaTeX expression; None if it holds symbols."""
    expr = latex
    for cmd, py in _COMMANDS:
        expr = expr.replace(cmd, py)
    expr = _frac(expr).replace("^", "**").replace("{", "(").replace("}", ")")
    expr = re.sub(r"(\d)\s*pi", r"\1*pi", expr)           # 2\pi
    expr = re.sub(r"\)\s*(exp|sqrt|\()", r")*\1", expr)   # implicit products
    if re.search(r"[A-Za-z_\\]", expr.replace("sqrt", "").replace("exp", "").replace("pi", "")
                 .replace("factorial", "")):
        return None
    env = {"sqrt": math.sqrt, "exp": math.exp, "pi": math.pi, "exp1": math.e, "factorial": math.factorial,
           "__builtins__": {}}
    try:
        return float(eval(expr, env))  # noqa: S307 - digits and operators only, checked above
    except (SyntaxError, ZeroDivisionError):
        return None


def substituted_value(latex: str) -> float:
    """The first '= ...' segment that is pure arithmetic: the formula with the model's numbers."""
    for segment in re.split(r"\s=\s|\\approx", latex)[1:]:
        value = evaluate(segment.strip())
        if value is not None:
            return value
    raise AssertionError(f"no numeric segment in {latex}")


def test_evaluate_parses_fractions_products_and_roots():
    assert evaluate(r"\frac{0 + 2 \cdot 0.5}{5 + 2}") == pytest.approx(1 / 7)
    assert evaluate(r"\frac{1}{\sqrt{2\pi \cdot 4}}\exp\!\left(-\frac{(1 - 1)^2}{2 \cdot 4}\right)") == \
        pytest.approx(1 / math.sqrt(8 * math.pi))
    assert evaluate(r"\frac{N_{v,c} + l}{n_c + l K}") is None


# ----------------------------------------------------------------------------- every smoothing

SMOOTHINGS = {
    "mle": dict(alpha=0.0),
    "laplace": dict(alpha=1.0),
    "lidstone_0.5": dict(alpha=0.5),
    "m_uniform": dict(smoothing=nbapp.MEstimate(3)),
    "m_seed003_p": dict(smoothing=nbapp.MEstimate(2, p=0.5)),
    "m_normalised_p": dict(smoothing=nbapp.MEstimate(2, p=0.5, normalised=True)),
    "beta_2_1": dict(smoothing=nbapp.BetaPrior(2, 1)),
}


def cell_latex(model, column, value, cls) -> str:
    """The cell's formula as the Model page shows it: its type's view's."""
    return view_of(model.features_[column].kind).cell_latex(model, column, value, cls)


def cell_terms(model, column, value, cls):
    """The numbers of the cell, from the count table its type's view shows."""
    counts = view_of(model.features_[column].kind).counts_table(model, column)
    return formulas.cell_terms_of(counts, value, cls, model.smoothing_of(column))


def _cars_bernoulli() -> dict:
    return {"Color": nbapp.Bernoulli(positive="Red"), "Type": nbapp.Bernoulli(positive="SUV"),
            "Origin": nbapp.Bernoulli(positive="Domestic")}


@pytest.mark.parametrize("name", list(SMOOTHINGS))
@pytest.mark.parametrize("data", ["tennis14", "stolen_cars_bernoulli", "counts", "declared_and_unseen", "discretized"])
def test_every_cpt_cell_formula_computes_the_library_value(name, data):
    if data == "tennis14":
        features, frame, target = example("tennis14").features, load_example("tennis14"), "Play"
    elif data == "stolen_cars_bernoulli":
        features, frame, target = _cars_bernoulli(), load_example("stolen_cars"), "Stolen"
    elif data == "discretized":               # intervals of a number, counted as categories
        frame, target = load_example("gender"), "Gender"
        features = {"Height": "discretized", "Weight": "discretized"}
    elif data == "declared_and_unseen":      # issue 12's declared domain and "smooth" unseen row
        frame, target = load_example("tennis14"), "Play"
        features = {"Outlook": nbapp.Categorical(categories=["Sunny", "Overcast", "Rain", "Snow"]),
                    "Wind": nbapp.Categorical(unseen="smooth")}
    else:
        frame = pd.DataFrame({"a": [3, 0, 1, 2], "b": [0, 2, 1, 0], "c": [1, 1, 0, 4], "y": ["s", "s", "h", "h"]})
        features, target = {"a": "multinomial", "b": "multinomial", "c": "multinomial"}, "y"
    model = nbapp.NaiveBayes(features, **SMOOTHINGS[name]).fit(frame, target=target)
    checked = 0
    for column in features:
        probs = model.cpt(column)
        exact = model.cpt(column, exact=True)
        for value in probs.index:
            for cls in probs.columns:
                latex = cell_latex(model, column, value, cls)
                expected = float(probs.loc[value, cls])
                if np.isnan(expected):
                    assert "undefined" in latex
                    continue
                assert substituted_value(latex) == pytest.approx(expected, rel=1e-12), latex
                terms = cell_terms(model, column, value, cls)
                assert terms.value == exact.loc[value, cls]
                checked += 1
    assert checked >= 6


def test_m_estimate_formula_is_seed_003_exactly():
    # Overcast | No with m = 2, p = 0.5: (0 + 2 * 0.5) / (5 + 2) = 1/7; Yes: (4 + 1) / (9 + 2) = 5/11.
    model = nbapp.NaiveBayes(example("tennis14").features, smoothing=nbapp.MEstimate(2, p=0.5)).fit(
        load_example("tennis14"), target="Play")
    latex = cell_latex(model, "Outlook", "Overcast", "No")
    assert r"\frac{0 + 2 \cdot 0.5}{5 + 2}" in latex and r"\frac{1}{7}" in latex
    assert r"\frac{5}{11}" in cell_latex(model, "Outlook", "Overcast", "Yes")
    normalised = nbapp.NaiveBayes(example("tennis14").features,
                                  smoothing=nbapp.MEstimate(2, p=0.5, normalised=True)).fit(
        load_example("tennis14"), target="Play")
    latex = cell_latex(normalised, "Outlook", "Overcast", "No")
    assert r"n_c + K\,m\,p" in latex and r"\frac{0 + 2 \cdot 0.5}{5 + 3 \cdot 2 \cdot 0.5}" in latex
    assert r"\frac{1}{8}" in latex


def test_cpt_cell_shows_the_unreduced_count_fraction_beside_the_reduced_one():
    model = nbapp.NaiveBayes(example("tennis14").features, alpha=0).fit(load_example("tennis14"), target="Play")
    latex = cell_latex(model, "Temperature", "Hot", "Yes")   # 2/9 stays; Humidity High | Yes is 3/9
    assert r"\frac{2}{9}" in latex
    latex = cell_latex(model, "Humidity", "High", "Yes")
    assert r"\frac{3}{9} = \frac{1}{3}" in latex
    assert formulas.unreduced(cell_terms(model, "Humidity", "High", "Yes")) == "3/9 = 1/3"


# ----------------------------------------------------------------------------- densities and prior


@pytest.mark.parametrize("variance", ["mle", "unbiased"])
def test_gaussian_density_formula_computes_the_density_at_x(variance):
    ex = example("gender")
    model = nbapp.NaiveBayes(ex.features, variance=variance).fit(load_example("gender"), target="Gender")
    for column, x in ex.query.items():
        for cls in model.classes_:
            latex = density_latex(model, column, x, cls, digits=17)
            expected = float(model.gaussian_density(column, np.array([float(x)]))[cls].iloc[0])
            assert substituted_value(latex) == pytest.approx(expected, rel=1e-9), latex


def test_gaussian_density_of_height_6_for_male_reads_as_in_the_notes():
    ex = example("gender")
    model = nbapp.NaiveBayes(ex.features).fit(load_example("gender"), target="Gender")
    latex = density_latex(model, "Height", 6, "male")
    assert r"\mathcal{N}(6;\, 5.855,\, 0.02628)" in latex and latex.endswith("= 1.65")


def test_poisson_pmf_formula_computes_the_library_value():
    frame = pd.DataFrame({"k": [0, 1, 2, 5, 3, 4], "y": ["a", "a", "a", "b", "b", "b"]})
    model = nbapp.NaiveBayes({"k": "poisson"}, alpha=0).fit(frame, target="y")
    for cls in model.classes_:
        latex = pmf_latex(model, "k", 3, cls, digits=17)
        expected = float(model.gaussian_density("k", np.array([3.0]))[cls].iloc[0])
        assert substituted_value(latex) == pytest.approx(expected, rel=1e-9), latex


@pytest.mark.parametrize("settings", [dict(), dict(prior_alpha=1.0), dict(priors="uniform")])
def test_prior_formula_computes_the_library_prior(settings):
    model = nbapp.NaiveBayes(example("tennis14").features, **settings).fit(load_example("tennis14"), target="Play")
    for cls in model.classes_:
        latex = formulas.prior_latex(model, cls, None)
        assert substituted_value(latex) == pytest.approx(float(model.priors_[cls]), rel=1e-12), latex


def test_text_word_cell_formula_computes_the_library_value():
    ex = example("sentiment")
    model = nbapp.NaiveBayes(ex.features, alpha=1.0).fit(load_example("sentiment"), target="sentiment")
    probs = model.cpt("text")
    for word in list(probs.index)[:8]:
        for cls in probs.columns:
            latex = cell_latex(model, "text", word, cls)
            assert substituted_value(latex) == pytest.approx(float(probs.loc[word, cls]), rel=1e-12), latex
    assert Fraction(1) == sum(model.cpt("text", exact=True).iloc[:, 0])


@pytest.mark.parametrize("variance", ["mle", "unbiased"])
def test_gaussian_fit_formula_adds_up_to_the_library_variance(variance):
    ex = example("gender")
    model = nbapp.NaiveBayes(ex.features, variance=variance).fit(load_example("gender"), target="Gender")
    for column in ex.features:
        for cls in model.classes_:
            lines = gaussian_latex(model, column, cls)
            latex = " ".join(lines)
            var_line = [line for line in lines if r"\sigma^2" in line and r"\varepsilon" in line][0]
            raw_plus_eps = var_line.split(" = ")[-2]
            fit = model.gaussian(column).loc[cls]
            assert evaluate(raw_plus_eps) == pytest.approx(float(fit["var"]), rel=1e-5)
            assert f"= {formulas.num(fit['mean'], digits=6)}" in latex


def test_exact_products_too_long_to_read_are_shown_as_decimals_without_failing():
    # a 300-column count block: the exact joint has thousands of digits (str() of it raises in 3.11+)
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.poisson(2, size=(100, 300)), columns=[f"w{i}" for i in range(300)])
    frame["y"] = rng.choice(["a", "b"], 100)
    model = nbapp.NaiveBayes({c: "multinomial" for c in frame.columns if c != "y"}).fit(frame, target="y")
    e = model.explain(frame.drop(columns="y").iloc[0].to_dict())
    totals = formulas.totals_rows(e, list(e.classes))
    assert totals.loc["joint P(c)·∏P(x_a | c)", "a fraction"] == ""
    assert float(totals.loc["posterior P(c | x)", "a decimal"]) == pytest.approx(float(e.posterior["a"]), rel=1e-3)
    equations = explained.explain_equations(model, e, list(e.classes))
    assert all(len(eq) < 2000 for eq in equations)
    assert formulas.num(F(10) ** 5000 + 1) == r"1 \times 10^{5000}"     # no ValueError, no OverflowError


def test_kde_density_formula_shows_the_floor_and_computes_the_library_value():
    # precipitation by weather (issue 21): drizzle never saw a value near 4.1 mm, so its factor
    # is the floor eps_c, and the formula says so with both numbers
    rng = np.random.default_rng(0)
    n = 200
    frame = pd.DataFrame({"p": np.r_[np.round(rng.gamma(2.0, 2.5, n), 1), np.round(rng.uniform(0, 0.5, n), 1)],
                          "y": ["rain"] * n + ["drizzle"] * n})
    model = nbapp.NaiveBayes({"p": "kde"}).fit(frame, target="y")
    floor = model.parameters("p")["floor"]
    for x, cls in [(4.1, "rain"), (0.2, "drizzle"), (4.1, "drizzle")]:
        latex = kde_density_latex(model, "p", x, cls, digits=17)
        expected = float(model.gaussian_density("p", np.array([x]))[cls].iloc[0])
        assert substituted_value(latex) == pytest.approx(expected, rel=1e-9), latex
        assert r"\varepsilon_c" in latex and f"{formulas.num(float(floor[cls]), digits=3)}" in latex
    at_floor = kde_density_latex(model, "p", 4.1, "drizzle")
    assert r"\max\!\left(e^{-" in at_floor and at_floor.endswith(formulas.num(float(floor["drizzle"])))
    e = model.explain({"p": 4.1})
    assert sum(r"\varepsilon_c" in eq for eq in explained.explain_equations(model, e, list(e.classes))) == 2
