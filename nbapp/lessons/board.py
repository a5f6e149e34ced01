"""The board, step by step: seed 000's Eq. 4-8 for one row, one line at a time, as a lecturer
writes them.

    P(c | x) = P(c) prod_{a in OBS} P(x_a | c) / P(x),   P(x) = sum_c P(c) prod_a P(x_a | c)
    h(x) = argmax_c P(c) prod_a P(x_a | c)                                     [seed 000, Eq. 4-8, 22]

:func:`board_steps` gives, per class, the prior as counted (9/14), then each used factor in
turn with its count fraction (3/9 as the notes write it, unreduced, and 1/3 reduced) and the
running product after it; then P(x), the sum over the classes; then the posterior of each
class; then the argmax. Seed 003 writes tennis at x = (sunny, cool, high, true) this way:
9/14 × 2/9 × 3/9 × 3/9 × 3/9 = .005 for yes.

Every number is the library's: a factor's exact value is the explanation's fraction
(:attr:`nbapp.Explanation.fractions`, the prior's from :meth:`nbapp.NaiveBayes.prior_fractions`),
the counts it is made of are its type's :meth:`Block.cell_terms` (the smoothing's
:class:`nbapp.smoothing.CellTerms`) and the empirical prior's :func:`nbapp.priors.prior_terms`;
P(x) is ``sum(joint_fractions)`` and the posterior the explanation's posterior fraction.
Nothing is recomputed here but the running products of those fractions. Where a factor is
not rational (a Gaussian density) the step's fraction is None and its decimal is the
explanation's, carried in logs (a long document's product stays readable below 1e-308).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

import pandas as pd

from nbapp.errors import DataError, shown
from nbapp.lessons.worked_example import _fraction as _fraction_latex
from nbapp.lessons.worked_example import _from_log as _decimal_latex
from nbapp.lessons.worked_example import latex_text
from nbapp.priors import prior_terms
from nbapp.smoothing import CellTerms

__all__ = ["BoardStep", "board_steps", "fraction_text", "decimal_text", "number_texts", "result_texts", "STEP_KINDS",
           "PRIOR", "FACTOR", "SKIPPED", "EVIDENCE", "POSTERIOR", "DECISION"]

PRIOR = "prior"            # P(c), as counted
FACTOR = "factor"          # one used P(x_a | c), and the running product after it
SKIPPED = "skipped"        # a factor left out (missing, unseen, undefined: seed 000, Eq. 22)
EVIDENCE = "evidence"      # P(x) = sum over the classes
POSTERIOR = "posterior"    # P(c | x) = joint / P(x)
DECISION = "decision"      # argmax_c
STEP_KINDS = (PRIOR, FACTOR, SKIPPED, EVIDENCE, POSTERIOR, DECISION)

#: Fractions longer than this many characters are written as decimals (a product over many
#: words reaches hundreds of digits; nobody copies those from a board).
MAX_FRACTION_CHARS = 40
#: Significant digits of the decimals written beside the fractions.
DIGITS = 4


@dataclass(frozen=True)
class BoardStep:
    """One line on the board.

    ``kind`` is one of :data:`STEP_KINDS`; ``cls`` the class of the line (None for P(x));
    ``name`` the factor's name ("prior", a feature, "P(x)", "posterior", "argmax") and ``value``
    the row's value of that feature. ``factor`` is the number this line multiplies in (the prior
    or P(x_a | c); None for the lines that multiply nothing or where it is not rational) and
    ``terms`` the counts it is made of, each with its power ((count + pseudo) / (n + pseudo_total),
    e.g. ((3 + 0) / (9 + 0), 1); a word factor has one per word; empty where the factor is no
    count). ``fraction`` is the line's result exactly: the running product P(c) prod P(x_a | c)
    so far, P(x), the posterior; None where not rational. ``log`` is its natural log and
    ``decimal`` its value (from the fraction when there is one, else from the explanation).
    ``unreduced`` and ``reduced`` write the line's arithmetic with the fractions as counted
    (9/14 × 2/9 × 3/9) and reduced (9/14 × 2/9 × 1/3); ``text`` and ``latex`` are the whole line
    in the form :func:`board_steps` was asked for, and ``product`` / ``product_latex`` the running
    product in that form with its result ("9/14 × 2/9 × 3/9 = 1/21 ≈ 0.04762"; "" after the products).
    """

    kind: str
    cls: Any
    name: str
    value: Any
    factor: Fraction | None
    terms: tuple[tuple[CellTerms, int], ...]
    fraction: Fraction | None
    log: float
    decimal: float
    unreduced: str
    reduced: str
    text: str
    latex: str
    product: str = ""
    product_latex: str = ""


def board_steps(model: Any, row: Mapping[str, Any] | pd.Series, *, unreduced: bool = True,
                by: str = "class", classes: Sequence[Any] | None = None) -> list[BoardStep]:
    """Seed 000's Eq. 4-8 for ``row``, one line at a time.

    ``by="class"`` writes each class's product on its own (the prior, then every factor: the
    notes' order, one line of the product per class), ``by="factor"`` writes the priors of all
    classes, then each factor for all classes (a CPT row at a time). Both end with P(x), the
    posterior of each class and the argmax. ``unreduced`` writes the fractions as counted (3/9,
    the notes) in ``text`` and ``latex``, else reduced (1/3); both forms are in every step.
    ``classes`` chooses the classes and their order (the notes' Yes before No); all by default.

    >>> import nbapp
    >>> from nbapp.examples import example, load_example
    >>> ex = example("tennis14")                # seed 003's x = sunny, cool, high, true at l = 0
    >>> m = nbapp.NaiveBayes(ex.feature_specs(), alpha=0).fit(load_example(ex.key), target=ex.target)
    >>> steps = board_steps(m, {"Outlook": "Sunny", "Temperature": "Cool", "Humidity": "High",
    ...                         "Wind": "Strong"}, classes=["Yes", "No"])
    >>> steps[4].text
    'P(Wind = Strong | Yes) = 3/9  →  9/14 × 2/9 × 3/9 × 3/9 × 3/9 = 1/189 ≈ 0.005291'
    >>> steps[-1].text
    'argmax_c P(c | x) = No'
    """
    if by not in ("class", "factor"):
        raise DataError(f"The board writes by 'class' or by 'factor', not {by!r}.")
    e = model.explain(row)
    order = _class_positions(model, classes)
    lines = [_class_lines(model, e, j, unreduced) for j in order]
    if by == "factor":
        lines = [list(step) for step in zip(*lines)]
    steps = [step for line in lines for step in line]
    steps.append(_evidence(e, order))
    steps += [_posterior(e, j) for j in order]
    steps.append(_decision(e))
    return steps


def _class_positions(model: Any, classes: Sequence[Any] | None) -> list[int]:
    known = list(model.classes_)
    if classes is None:
        return list(range(len(known)))
    missing = [c for c in classes if c not in known]
    if missing:
        raise DataError(f"{shown(missing[0])} is not a class of this model; its classes are "
                        f"{', '.join(shown(c) for c in known)}.")
    return [known.index(c) for c in classes]


# -- one class's product, line by line ---------------------------------------------------------
def _class_lines(model: Any, e: Any, j: int, unreduced: bool) -> list[BoardStep]:
    cls = e.classes[j]
    factors, fractions, logs = e.factors, e.fractions, e.logs
    used = set(e.used)
    prior, log = fractions.iloc[0, j], float(logs.iloc[0, j])
    counted = prior_terms(model.class_counts_, model.priors, model.prior_alpha, j)
    terms = ((counted, 1),) if counted is not None and prior is not None else ()
    chain = _Chain(Fraction(1), 0.0, ()).times(prior, log, _Written.of(prior, terms, log))
    steps = [chain.step(PRIOR, cls, "prior", None, prior, terms, f"P({_label(cls)})", rf"P({latex_text(cls)})",
                        unreduced)]
    for i, name in enumerate(factors.index[1:], start=1):
        value = factors.iloc[i]["value"]
        if name not in used:
            steps.append(chain.skipped(cls, name, value, factors.iloc[i]["status"], factors.iloc[i]["detail"],
                                       unreduced))
            continue
        f, log = fractions.iloc[i, j], float(logs.iloc[i, j])
        terms = _factor_terms(model, e, name, value, j) if f is not None else ()
        chain = chain.times(f, log, _Written.of(f, terms, log))
        label = f"P({name} = {_label(value)} | {_label(cls)})"
        latex = rf"P({latex_text(name)} = {latex_text(_label(value))} \mid {latex_text(cls)})"
        steps.append(chain.step(FACTOR, cls, name, value, f, terms, label, latex, unreduced))
    return steps


@dataclass(frozen=True)
class _Written:
    """One factor written on the board: as counted (3/9) and reduced (1/3), in text and LaTeX."""

    raw: str
    reduced: str
    raw_latex: str
    reduced_latex: str

    @classmethod
    def of(cls, f: Fraction | None, terms: tuple[tuple[CellTerms, int], ...], log: float) -> "_Written":
        """The counts (3/9), (3/9)^2 or a word product in parentheses; the fraction itself where the
        type gives no counts; the decimal where the factor is not rational."""
        if f is None:
            return cls(decimal_text(log), decimal_text(log), _decimal_latex(log, DIGITS), _decimal_latex(log, DIGITS))
        if not terms:
            text, latex = fraction_text(f), _latex_fraction(f)
            return cls(text, text, latex, latex)
        raw = [(_power(f"{_plain(t.numerator)}/{_plain(t.denominator)}", p),
                _power_latex(rf"\frac{{{_plain(t.numerator)}}}{{{_plain(t.denominator)}}}", p)) for t, p in terms]
        reduced = [(_power(fraction_text(t.value), p), _power_latex(_latex_fraction(t.value), p)) for t, p in terms]
        return cls(_product([r for r, _ in raw], " × "), _product([r for r, _ in reduced], " × "),
                   _product([x for _, x in raw], r" \times ", latex=True),
                   _product([x for _, x in reduced], r" \times ", latex=True))

    def chosen(self, unreduced: bool) -> tuple[str, str]:
        return (self.raw, self.raw_latex) if unreduced else (self.reduced, self.reduced_latex)


def _product(parts: list[str], times: str, latex: bool = False) -> str:
    """One factor's parts: the part itself, or several (words) in parentheses."""
    if len(parts) == 1:
        return parts[0]
    joined = times.join(parts)
    return rf"\left({joined}\right)" if latex else f"({joined})"


def _power(text: str, p: int) -> str:
    if p == 1:
        return text
    return f"({text})^{p}" if "/" in text else f"{text}^{p}"


def _power_latex(latex: str, p: int) -> str:
    return latex if p == 1 else rf"\left({latex}\right)^{{{p}}}"


@dataclass(frozen=True)
class _Chain:
    """The running product of one class: its exact value (None once a factor is not rational),
    its log, and the factors written so far."""

    fraction: Fraction | None
    log: float
    written: tuple[_Written, ...]

    def times(self, f: Fraction | None, log: float, written: _Written) -> "_Chain":
        exact = None if f is None or self.fraction is None else self.fraction * f
        return _Chain(exact, self.log + log, (*self.written, written))

    def step(self, kind: str, cls: Any, name: str, value: Any, factor: Fraction | None,
             terms: tuple, label: str, label_latex: str, unreduced: bool) -> BoardStep:
        product, product_latex = self.product(unreduced)
        if len(self.written) == 1:        # the prior: nothing multiplied yet, "9/14 ≈ 0.6429", "10/16 = 5/8 ≈ 0.625"
            text, latex = f"{label} = {product}", f"{label_latex} = {product_latex}"
        else:
            factor_text, factor_latex = self.written[-1].chosen(unreduced)
            text = f"{label} = {factor_text}  →  {product}"
            latex = rf"{label_latex} = {factor_latex} \;\Rightarrow\; {product_latex}"
        return BoardStep(kind, cls, name, value, factor, terms, self.fraction, self.log,
                         _decimal(self.fraction, self.log), self._joined(True), self._joined(False), text, latex,
                         product, product_latex)

    def product(self, unreduced: bool) -> tuple[str, str]:
        """The running product with its result: "9/14 × 2/9 = 1/7 ≈ 0.1429"; "9/14 ≈ 0.6429" where
        the product is written as it reduces (the result would repeat it)."""
        chosen = [w.chosen(unreduced) for w in self.written]
        text, latex = " × ".join(t for t, _ in chosen), r" \times ".join(x for _, x in chosen)
        result, result_latex = result_texts(self.fraction, self.log)
        exact, exact_latex = number_texts(self.fraction, self.log)
        if text == exact:
            result, result_latex = result.removeprefix(f"= {exact}"), result_latex.removeprefix(f"= {exact_latex}")
        return f"{text} {result.strip()}".strip(), f"{latex} {result_latex.strip()}".strip()

    def skipped(self, cls: Any, name: str, value: Any, status: str, detail: str, unreduced: bool) -> BoardStep:
        text = f"{name} is missing: {detail}" if status == "missing" else \
            f"{name} = {_label(value)} is {status}: {detail}"
        return BoardStep(SKIPPED, cls, name, value, None, (), self.fraction, self.log,
                         _decimal(self.fraction, self.log), self._joined(True), self._joined(False), text,
                         latex_text(text), *self.product(unreduced))

    def _joined(self, unreduced: bool) -> str:
        return " × ".join(w.chosen(unreduced)[0] for w in self.written)


def _factor_terms(model: Any, e: Any, name: str, value: Any, j: int) -> tuple[tuple[CellTerms, int], ...]:
    """The counts a used factor is made of, as its type states them (:meth:`Block.cell_terms`):
    one cell of the row's table (to the power of the count where the type's factor is theta^x,
    seed 000 Eq. 11), or one cell per word of a document (to the power of its count); () where
    the type has none."""
    block = model.block_of(name)
    if name in e.words:
        out = []
        for term, count in zip(e.words[name]["term"], e.words[name]["count"]):
            cell = block.cell_terms(name, term, j)
            if cell is not None:          # words the model ignores are no factor
                out.append((cell, int(count)))
        return tuple(out)
    row = block.cpt_row(name, value)
    cell = None if row is None else block.cell_terms(name, row, j)
    if cell is None:
        return ()
    return ((cell, int(float(value)) if block.count_exponent else 1),)


# -- after the products: P(x), the posterior, the argmax ---------------------------------------
def _evidence(e: Any, order: list[int]) -> BoardStep:
    """P(x) = sum_c P(c) prod_a P(x_a | c): every class's joint (the board's classes first, then
    any other class of the model, which counts in P(x) too)."""
    total = _evidence_fraction(e)
    every = [*order, *(j for j in range(len(e.classes)) if j not in order)]
    parts = [number_texts(e.joint_fractions.iloc[j], float(e.joint_log.iloc[j])) for j in every]
    arithmetic = " + ".join(p for p, _ in parts)
    result, result_latex = result_texts(total, e.log_evidence)
    text = f"P(x) = {arithmetic} {result}"
    latex = (r"P(x) = \sum_c P(c) \prod_a P(x_a \mid c) = " + " + ".join(p for _, p in parts)
             + f" {result_latex}")
    return BoardStep(EVIDENCE, None, "P(x)", None, None, (), total, e.log_evidence,
                     _decimal(total, e.log_evidence), arithmetic, arithmetic, text, latex)


def _posterior(e: Any, j: int) -> BoardStep:
    cls = e.classes[j]
    exact = e.posterior_fractions.iloc[j]
    joint, evidence = e.joint_fractions.iloc[j], _evidence_fraction(e)
    top, top_latex = number_texts(joint, float(e.joint_log.iloc[j]))
    bottom, bottom_latex = number_texts(evidence, e.log_evidence)
    arithmetic = f"({top}) / ({bottom})"
    if e.undetermined:
        result, result_latex, log, decimal = "= 0/0, undefined", r"= \text{undefined } (0/0)", math.nan, math.nan
    else:
        decimal = float(exact) if exact is not None else float(e.posterior.iloc[j])
        log = _log(exact) if exact is not None else _float_log(decimal)
        result, result_latex = result_texts(exact, log)
    text = f"P({_label(cls)} | x) = {arithmetic} {result}"
    latex = (rf"P({latex_text(cls)} \mid x) = \frac{{P({latex_text(cls)}) \prod_a P(x_a \mid {latex_text(cls)})}}"
             rf"{{P(x)}} = {top_latex} \big/ {bottom_latex} {result_latex}")
    return BoardStep(POSTERIOR, cls, "posterior", None, None, (), exact, log, decimal,
                     arithmetic, arithmetic, text, latex)


def _evidence_fraction(e: Any) -> Fraction | None:
    """sum(joint_fractions), None when a joint is not rational."""
    joint = list(e.joint_fractions)
    return None if any(j is None for j in joint) else sum(joint, Fraction(0))


def _decision(e: Any) -> BoardStep:
    if e.undetermined:
        text = "argmax_c P(c | x): none, every class has probability 0 (P(x) = 0; use l > 0)"
        return BoardStep(DECISION, None, "argmax", None, None, (), None, math.nan, math.nan, "", "", text,
                         latex_text(text))
    j = e.classes.index(e.prediction)
    exact = e.posterior_fractions.iloc[j]
    decimal = float(exact) if exact is not None else float(e.posterior.iloc[j])
    text = f"argmax_c P(c | x) = {_label(e.prediction)}"
    latex = rf"\hat{{y}} = \arg\max_c P(c \mid x) = {latex_text(e.prediction)}"
    log = _log(exact) if exact is not None else _float_log(decimal)
    return BoardStep(DECISION, e.prediction, "argmax", None, None, (), exact, log, decimal, "", "", text, latex)


# -- numbers as a board writes them ------------------------------------------------------------
def fraction_text(f: Fraction) -> str:
    """"9/14", "3" for a whole number; the decimal where the fraction is too long to read."""
    if _too_long(f):
        return decimal_text(_log(f))
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def decimal_text(log_value: float, digits: int = DIGITS) -> str:
    """exp(log_value) with ``digits`` significant digits, written from its log so a product far
    below 1e-308 keeps its digits: "0.005291", "1.234e-400"."""
    if math.isnan(log_value):
        return "undefined"
    if not math.isfinite(log_value):
        return "0" if log_value < 0 else "inf"
    if log_value > -700:
        value = math.exp(log_value)
        return f"{value:.{digits}g}" if value >= 1e-4 else f"{value:.{digits - 1}e}"
    exponent = log_value / math.log(10.0)
    k = math.floor(exponent)
    mantissa = 10 ** (exponent - k)
    if round(mantissa, digits - 1) >= 10:
        mantissa, k = mantissa / 10, k + 1
    return f"{mantissa:.{digits - 1}f}e{k}"


def number_texts(f: Fraction | None, log: float) -> tuple[str, str]:
    """A number in text and LaTeX: the fraction, or the decimal where there is none (or it is too long)."""
    if f is None or _too_long(f):
        value = log if f is None else _log(f)
        return decimal_text(value), _decimal_latex(value, DIGITS)
    return fraction_text(f), _latex_fraction(f)


def result_texts(f: Fraction | None, log: float) -> tuple[str, str]:
    """A line's result in text and LaTeX, with its sign: "= 2/7 ≈ 0.2857", "= 0", and "≈ 0.07212"
    where there is no fraction to write (a density, or one too long to read)."""
    if f is None or _too_long(f):
        value = log if f is None else _log(f)
        return f"≈ {decimal_text(value)}", rf"\approx {_decimal_latex(value, DIGITS)}"
    if f.denominator == 1:
        return f"= {fraction_text(f)}", f"= {_latex_fraction(f)}"
    return (f"= {fraction_text(f)} ≈ {decimal_text(_log(f))}",
            rf"= {_latex_fraction(f)} \approx {_decimal_latex(_log(f), DIGITS)}")


def _latex_fraction(f: Fraction) -> str:
    return _fraction_latex(f) or _decimal_latex(_log(f), DIGITS)


def _too_long(f: Fraction) -> bool:
    return len(str(f)) > MAX_FRACTION_CHARS


def _decimal(f: Fraction | None, log: float) -> float:
    return float(f) if f is not None else math.exp(log)


def _log(f: Fraction) -> float:
    """log of a positive fraction of any size (its float may under- or overflow); -inf for 0."""
    if f == 0:
        return -math.inf
    return math.log(f.numerator) - math.log(f.denominator)


def _float_log(x: float) -> float:
    return math.log(x) if x > 0 else -math.inf


def _plain(x: Fraction) -> str:
    """A count as written: 9, or 2.5 for a weighted one."""
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _label(value: Any) -> str:
    """A class or a value as a board writes it: without quotes, on one line, a document cut at 60
    characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= 60 else text[:57] + "..."
