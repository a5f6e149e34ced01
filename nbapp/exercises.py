"""Exercises that grade themselves: the questions a lecture asks, generated from any fitted model,
answered by the model's own exact numbers (issue 23, item 3).

Kinds of question (:data:`KINDS`):

* ``"cpt"``: a cell of a probability table under the model's smoothing,
  P(x_a = v | c) = (N + a) / (n_c + A)   [seed 000, Eq. 7 and 10; seed 003; seed 002];
* ``"prior"``: P(c) = n_c / n   [seed 000, §2.1];
* ``"posterior"``: P(c | x) of a row   [seed 000, Eq. 5];
* ``"winner"``: the class the model predicts for a row   [seed 000, Eq. 8];
* ``"unk"``: the words of a document that are UNK in a class, never seen in the class's
  training documents   [seed 004: P(UNK | C) = α / (n + α(V + 1)), n and V per class];
* ``"parameters"``: how many free parameters the model estimates for P(x | c), counted from
  its structure as seed 000's Ex. 2.4 counts them (each type says its own count,
  :meth:`nbapp.blocks.base.Block.free_parameters`: C (K − 1) for a categorical column, 2 C for a
  Gaussian, ...).

Every answer is the library's: a CPT cell is ``model.cpt(column, exact=True)``'s fraction, a
prior ``model.prior_fractions()``, a posterior the explanation's posterior fraction (or, where
that is not rational, as with Gaussian densities, its decimal ``predict_proba`` gives), the
winner the explanation's prediction, the UNK words those with no count in the class in
``model.counts(column)``. The worked lines are the board's (:mod:`nbapp.lessons.board`).

The questions about a row (posterior, winner, UNK) need the rows: ``frame`` may be the training
data or development / test rows (seed 004: UNK words are what a class's training documents
never held, so held-out rows are where they show). :func:`grade` judges an answer exactly:
a fraction equal in value ("6/8" for 3/4); a decimal in any form (whole, with a point or a comma,
a percentage, a power of ten) by one rule, when it is the exact answer rounded to the precision
typed and to at least 2 significant digits of it: |given − exact| ≤ min(u, 10^(order − 1)) / 2,
u the unit of the last digit typed ("0.33" for 1/3 is right, "0.3" too coarse, "0.34" wrong;
75%, .750 and 7.5e-1 for 3/4; "1", "1.0" and "100%" alike for 1 − 3.9e−9, shown ≈ 1: issue 33,
item 2); a class by its name, case and surrounding punctuation aside ("No." for No); words as a
set. An answer is read with work bounded by its own characters and the answer's size, never by
the size it names ("1e99999999" is wrong at once: issue 31, item 1).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from nbapp.blocks.base import TEXT, ParameterCount
from nbapp.decimals import number_text, value_text
from nbapp.errors import DataError
from nbapp.exact import exact_sum, to_fraction
from nbapp.lessons.board import (DECISION, EVIDENCE, FACTOR, POSTERIOR, PRIOR, board_steps, decimal_text,
                                 fraction_text, number_texts, result_texts)
from nbapp.lessons.worked_example import markdown_text, latex_text
from nbapp.priors import prior_terms
from nbapp.smoothing import CellTerms

__all__ = ["Question", "ExerciseSet", "Verdict", "exercises", "grade", "to_markdown", "to_latex",
           "count_parameters", "max_answer_chars", "KINDS", "MAX_QUESTIONS", "SHEET_ROWS", "MAX_ANSWER_CHARS",
           "MAX_NUMBER_CHARS"]

KINDS = ("cpt", "prior", "posterior", "winner", "unk", "parameters")
#: More questions than this is no sheet anyone hands out.
MAX_QUESTIONS = 1000
#: Data this short goes on the sheet whole (seed 000's 14 days); of longer data, the rows asked about.
SHEET_ROWS = 30
_ROW_KINDS = ("posterior", "winner", "unk")
_NUMBER_KINDS = ("cpt", "prior", "posterior")
# Draws of one kind that may fail (a 0/0 cell, a row whose P(x) is 0) before that kind counts
# as used up for this set: enough for a few bad rows, not a scan of a million.
_TRIES = 200


@dataclass(frozen=True)
class Question:
    """One question: its ``kind`` (one of :data:`KINDS`), its text (plain and LaTeX), the exact
    ``answer`` (a Fraction, a class, a frozenset of words or an int) and the ``worked`` line
    (plain and LaTeX). ``exact`` is False where the model has the answer only as a decimal (the
    posterior of a row with a density factor): the answer is then that decimal as a Fraction."""

    kind: str
    text: str
    latex: str
    answer: Any
    worked: str
    worked_latex: str
    exact: bool = True
    about: tuple = ()          # what the question is about (kind-specific), so no question repeats
    classes: tuple = ()        # the model's classes, for a "winner" question: names that read alike

    @property
    def answer_text(self) -> str:
        """The answer as a sheet shows it: "3/5 (0.6)", "Yes", "prize, winner", "12"."""
        return _answer_text(self)


@dataclass(frozen=True)
class ExerciseSet:
    """The questions, the seed that reproduces them, and why the kinds not asked are missing
    (``unavailable``: kind -> one sentence, e.g. "unk": "the model has no text column")."""

    questions: tuple[Question, ...]
    seed: int
    title: str
    unavailable: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    #: The rows on the sheet, indexed by the number the questions call them by (from 1): every row of
    #: data up to :data:`SHEET_ROWS`, else the rows the questions ask about; None without rows.
    data: pd.DataFrame | None = None
    #: How many rows the data has (the table may show fewer).
    data_rows: int = 0


@dataclass(frozen=True)
class Verdict:
    """The judgement of one answer: right or wrong, the expected answer, the answer as read,
    the worked line, and a note where the answer could not be read or is too coarse."""

    correct: bool
    expected: str
    given: str
    worked: str
    note: str = ""


# -- generating ------------------------------------------------------------------------------------
def exercises(model: Any, frame: pd.DataFrame | None = None, *, n: int = 10, seed: int = 0,
              kinds: Sequence[str] | None = None, title: str | None = None) -> ExerciseSet:
    """``n`` questions about ``model`` (fitted), drawn with ``seed``: the same seed gives the same set.

    ``kinds`` chooses among :data:`KINDS` (all the model can give by default; asking for one it
    cannot give is a DataError saying why). ``frame`` holds the rows the questions about a row
    ask about (the training data, or development / test rows), with the model's feature columns.
    The kinds take turns in an order drawn from the seed; a kind whose questions run out leaves
    its turn to the others, and a set holds fewer than ``n`` questions when the model has fewer
    (``notes`` says so).

    >>> import nbapp
    >>> from nbapp.examples import example, load_example
    >>> ex = example("tennis14")
    >>> m = nbapp.NaiveBayes(ex.feature_specs(), alpha=0).fit(load_example(ex.key), target=ex.target)
    >>> q = exercises(m, n=1, kinds=["prior"], seed=3).questions[0]
    >>> q.text, q.answer                          # seed 000's tennis: 9 of the 14 days are Yes
    ('With the prior n_c / n, what is the prior P(Play = Yes)?', Fraction(9, 14))
    >>> grade(q, "18/28").correct, grade(q, "0.64").correct, grade(q, "64%").correct
    (True, True, True)
    """
    _check_fitted(model)
    n, seed = _check_count(n), _check_seed(seed)
    if frame is not None:
        _check_frame(model, frame)
    makers = _makers(model, frame)
    unavailable = {kind: why for kind, why in makers.items() if isinstance(why, str)}
    asked = _asked_kinds(kinds, unavailable)
    rng = np.random.default_rng(seed)
    turns = [asked[i] for i in rng.permutation(len(asked))]
    pools = {kind: _Pool(*makers[kind], rng) for kind in turns}
    questions: list[Question] = []
    while len(questions) < n and turns:
        for kind in list(turns):
            if len(questions) == n:
                break
            question = pools[kind].draw()
            if question is None:
                turns.remove(kind)
            else:
                questions.append(question)
    notes = () if len(questions) == n else (
        f"The model gives {len(questions)} distinct questions of the kinds asked, fewer than the {n} asked for.",)
    return ExerciseSet(tuple(questions), seed, title or f"Naive Bayes exercises: predicting {model.target_}",
                       {k: v for k, v in unavailable.items() if k not in asked}, notes,
                       _sheet_data(model, frame, questions), 0 if frame is None else len(frame))


def _sheet_data(model: Any, frame: pd.DataFrame | None, questions: Sequence[Question]) -> pd.DataFrame | None:
    """The rows a sheet prints, numbered as its questions call them (issue 33, item 2): the model's
    columns of every row when there are at most :data:`SHEET_ROWS`, else of the rows asked about."""
    if frame is None:
        return None
    asked = sorted({int(q.about[1]) for q in questions if q.kind in _ROW_KINDS})
    positions = list(range(len(frame))) if len(frame) <= SHEET_ROWS else asked
    if not positions:
        return None
    target = [model.target_] if model.target_ in frame.columns and model.target_ not in model.features_ else []
    table = frame.iloc[positions][[*model.features_, *target]].copy()
    table.index = pd.Index([_row_number(p) for p in positions], name="Row")
    return table


class _Pool:
    """The questions of one kind, drawn without repeats: candidates 0..size-1 in an order drawn
    from the seed; a candidate that gives no question (None) is passed over."""

    def __init__(self, size: int, make: Callable[[int], Question | None], rng: np.random.Generator) -> None:
        self.size, self.make, self.rng = size, make, rng
        self.order = iter(rng.permutation(size)) if size <= 100_000 else None
        self.seen: set[int] = set()

    def draw(self) -> Question | None:
        for _ in range(_TRIES):
            i = self._next()
            if i is None:
                return None
            question = self.make(i)
            if question is not None:
                return question
        return None

    def _next(self) -> int | None:
        if self.order is not None:
            return next(self.order, None)
        for _ in range(_TRIES):
            i = int(self.rng.integers(self.size))
            if i not in self.seen:
                self.seen.add(i)
                return i
        return None


def _makers(model: Any, frame: pd.DataFrame | None) -> dict[str, Any]:
    """kind -> (number of candidates, candidate -> Question or None), or the sentence saying why
    the model (with this data) gives none."""
    out: dict[str, Any] = {"cpt": _cpt_maker(model), "prior": _prior_maker(model),
                           "parameters": _parameters_maker(model)}
    texts = [c for c in model.features_ if model.block_of(c).value_kind == TEXT]
    if frame is None:
        why = "it asks about a row: pass the rows (frame=, the training data or development / test rows)"
        out.update({kind: why for kind in _ROW_KINDS})
        if not texts:
            out["unk"] = "the model has no text column, so no word is UNK"
        return out
    rows = _Rows(model, frame)
    out["posterior"] = (len(frame) * len(model.classes_), rows.posterior)
    out["winner"] = (len(frame), rows.winner)
    out["unk"] = (len(frame) * len(texts) * len(model.classes_), rows.unk(texts)) if texts else \
        "the model has no text column, so no word is UNK"
    return out


def _asked_kinds(kinds: Sequence[str] | None, unavailable: Mapping[str, str]) -> list[str]:
    if kinds is None:
        asked = [k for k in KINDS if k not in unavailable]
        if not asked:
            raise DataError("This model gives no question of any kind: " + "; ".join(
                f"{k}: {why}" for k, why in unavailable.items()) + ".")
        return asked
    if isinstance(kinds, str):
        kinds = [kinds]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise DataError(f"{unknown[0]!r} is no kind of exercise; choose among {', '.join(KINDS)}.")
    refused = [k for k in kinds if k in unavailable]
    if refused:
        raise DataError("This model cannot give " + "; ".join(f"{k} questions: {unavailable[k]}" for k in refused)
                        + ".")
    return list(dict.fromkeys(kinds))


# -- the kinds --------------------------------------------------------------------------------------
def _prior_maker(model: Any) -> tuple[int, Callable[[int], Question | None]]:
    fractions = model.prior_fractions()
    target = model.target_

    def make(j: int) -> Question | None:
        cls, answer = model.classes_[j], fractions.iloc[j]
        if answer is None:
            return None
        terms = prior_terms(model.class_counts_, model.priors, model.prior_alpha, j)
        how, how_latex = _prior_how(model, terms)
        value, value_latex = _with_decimal(answer)
        left = f"P({target} = {cls})"
        left_latex = rf"P({latex_text(target)} = {latex_text(cls)})"
        setting = _prior_setting(model)
        return Question("prior", f"With {setting}, what is the prior {left}?",
                        f"With {_tex(setting)}, what is the prior ${left_latex}$?", answer,
                        f"{left} = {how} = {value}", f"${left_latex} = {how_latex} = {value_latex}$",
                        about=("prior", j))

    return len(model.classes_), make


def _prior_setting(model: Any) -> str:
    """The prior as a question states it: "the prior n_c / n", "the Dirichlet prior (n_c + a) / (n + K a)
    with a = 1", "the uniform prior 1/K", "the given prior P(No) = 0.3, P(Yes) = 0.7"."""
    if isinstance(model.priors, dict):
        return "the given prior " + ", ".join(f"P({c}) = {model.priors[c]:g}" for c in model.classes_)
    if model.priors == "uniform":
        return "the uniform prior 1/K"
    if not model.prior_alpha:
        return "the prior n_c / n"
    return f"the Dirichlet prior (n_c + a) / (n + K a) with a = {model.prior_alpha:g}"


def _row_settings(model: Any) -> str:
    """Every setting a row's posterior depends on (issue 33, item 2): each smoothed column's
    smoothing (one phrase when all columns share it), the densities' variance and epsilon, and the
    prior."""
    smoothings: dict[str, list[str]] = {}
    densities = []
    for column in model.features_:
        if model.block_of(column).smoothed:
            smoothings.setdefault(model.smoothing_of(column).describe(), []).append(column)
        else:
            densities.append(column)
    parts = [next(iter(smoothings))] if len(smoothings) == 1 and not densities else [
        f"{setting} for {', '.join(columns)}" for setting, columns in smoothings.items()]
    if densities:
        mode = ", per feature" if model.var_smoothing_mode == "per_feature" else ""
        variance = {"mle": "MLE"}.get(model.variance, model.variance)
        parts.append(f"the {variance} variance and var_smoothing = {model.var_smoothing:g}{mode} for "
                     f"{', '.join(densities)}")
    return ", ".join(parts) + " and " + _prior_setting(model)


def _row_number(position: int) -> int:
    """A row's number on the sheet: its position in the rows asked about, from 1, as the sheet's
    data table numbers it (issue 33, item 2: the 0-based index called tennis's Day2 "Row 1")."""
    return position + 1


def _prior_how(model: Any, terms: CellTerms | None) -> tuple[str, str]:
    """n_c / n as counted (with the Dirichlet a: (n_c + a) / (n + K a)); 1/K; the given value."""
    if terms is None:
        if model.priors == "uniform":
            k = len(model.classes_)
            return f"1/K = 1/{k}", rf"\frac{{1}}{{K}} = \frac{{1}}{{{k}}}"
        return "the given prior", r"\text{the given prior}"
    if terms.pseudo == 0:
        raw, raw_latex = _unreduced(terms.count, terms.n, terms.value)
        return f"n_c / n = {raw}".rstrip(" ="), rf"\frac{{n_c}}{{n}} = {raw_latex}".rstrip(" =")
    k = len(model.classes_)
    a = _count(terms.pseudo)
    return (f"(n_c + a) / (n + K a) = ({_count(terms.count)} + {a}) / ({_count(terms.n)} + {k} × {a})",
            rf"\frac{{n_c + a}}{{n + K a}} = \frac{{{_count(terms.count)} + {a}}}{{{_count(terms.n)} + {k} \cdot {a}}}")


def _cpt_maker(model: Any) -> tuple[int, Callable[[int], Question | None]] | str:
    """Every cell of every table of exact fractions (categorical, Bernoulli, discretized, count and
    word columns): candidate i is (column, row, class) in table order."""
    tables, why = [], []
    for column in model.features_:
        try:
            table = model.cpt(column, exact=True)
        except DataError:
            why.append(f"{column} is {model.block_of(column).title}")
            continue
        if any(isinstance(v, Fraction) for v in table.to_numpy().ravel()):
            tables.append((column, table))
        else:
            why.append(f"{column}'s table has no exact fractions")
    if not tables:
        return "no column has a table of exact probabilities (" + "; ".join(why) + ")"
    sizes = np.cumsum([t.size for _, t in tables])

    def make(i: int) -> Question | None:
        t = int(np.searchsorted(sizes, i, side="right"))
        column, table = tables[t]
        r, c = divmod(i - (int(sizes[t - 1]) if t else 0), table.shape[1])
        answer = table.iloc[r, c]
        if not isinstance(answer, Fraction):
            return None
        return _cpt_question(model, column, table.index[r], c, answer, r)

    return int(sizes[-1]), make


def _cpt_question(model: Any, column: str, row: Any, c: int, answer: Fraction, j: int) -> Question:
    block, cls = model.block_of(column), model.classes_[c]
    smoothing = model.smoothing_of(column)
    if block.value_kind == TEXT:
        left, left_latex = f"P({row} | {cls})", rf"P({latex_text(row)} \mid {latex_text(cls)})"
        what = f"the probability of the word {row!r} in class {cls} (column {column})"
    elif block.count_exponent:
        left, left_latex = f"θ({row} | {cls})", rf"\theta_{{{latex_text(row)},\,{latex_text(cls)}}}"
        what = f"the share of class {cls}'s counts that fall in column {row}"
    else:
        left, left_latex = f"P({column} = {row} | {cls})", \
            rf"P({latex_text(column)} = {latex_text(row)} \mid {latex_text(cls)})"
        what = ""
    setting = smoothing.describe()
    value, value_latex = _with_decimal(answer)
    terms = block.cell_terms(column, row, c)
    if terms is None:
        worked, worked_latex = f"{left} = {value}", f"${left_latex} = {value_latex}$"
    else:
        how, how_latex = _cell_how(smoothing, terms, j)
        raw, raw_latex = _unreduced(terms.numerator, terms.denominator, answer)
        if how.endswith(f"= {raw.removesuffix(' = ')}"):         # MLE: N / n_c already reads 3/9
            raw, raw_latex = "", ""
        worked = f"{left} = {how} = {raw}{value}"
        worked_latex = f"${left_latex} = {how_latex} = {raw_latex}{value_latex}$"
    text = f"With {setting}, what is {left}" + (f", {what}?" if what else "?")
    latex = f"With {_tex(setting)}, what is ${left_latex}$" + (f", {_tex(what)}?" if what else "?")
    return Question("cpt", text, latex, answer, worked, worked_latex, about=("cpt", column, row, c))


def _cell_how(smoothing: Any, terms: CellTerms, j: int = 0) -> tuple[str, str]:
    """(N + a) / (n_c + A) as the smoothing writes it, with the model's numbers (``j``: the value's
    position in its table, which a Beta prior's a or b follows); N / n_c where nothing is added (the MLE)."""
    if terms.pseudo_total == 0:
        return (f"N / n_c = {_count(terms.count)}/{_count(terms.n)}",
                rf"\frac{{N}}{{n_c}} = \frac{{{_count(terms.count)}}}{{{_count(terms.n)}}}")
    formula = smoothing.cell_formula(terms, j=j, number=lambda x: _count(to_fraction(x)), count="N")
    return formula.text(), formula.latex()


def _parameters_maker(model: Any) -> tuple[int, Callable[[int], Question | None]] | str:
    try:
        counts = count_parameters(model)
    except DataError as exc:
        return str(exc)

    def make(_: int) -> Question:
        total = sum(p.count for p in counts)
        k = len(model.classes_)
        said = set()                    # each formula's reason once, at its first column
        lines = []
        for p in counts:
            lines.append(f"{', '.join(p.columns)}: {p.formula} = {p.numbers} = {p.count}"
                         + ("" if p.formula in said else f" ({p.reason})"))
            said.add(p.formula)
        prior = f"the class prior would add C − 1 = {k - 1}"
        added = " + ".join(str(p.count) for p in counts) + " = " if len(counts) > 1 else ""
        worked = "; ".join(lines) + f". Total: {added}{total} ({prior})."
        worked_latex = r"\begin{itemize}" + "".join(
            rf"\item {latex_text(', '.join(p.columns))}: ${_tex_formula(p.formula)} = {_tex_formula(p.numbers)} = "
            rf"{p.count}$ ({_tex(p.reason)})" for p in counts) + r"\end{itemize}" + (
            rf"Total: ${added}{total}$ (the class prior would add "
            rf"$C - 1 = {k - 1}$)."
        )
        text = ("How many free parameters does the model estimate for P(x | c), not counting the class prior? "
                "Count them from the model's structure, as seed 000's Ex. 2.4 does.")
        latex = (r"How many free parameters does the model estimate for $P(x \mid c)$, not counting the class "
                 r"prior? Count them from the model's structure, as seed 000's Ex.~2.4 does.")
        return Question("parameters", text, latex, total, worked, worked_latex, about=("parameters",))

    return 1, make


def count_parameters(model: Any) -> list[ParameterCount]:
    """The free parameters of P(x | c), per column (a grouped type's columns together), each as its
    type counts them   [seed 000, Ex. 2.4]; DataError naming a column whose type does not say.

    >>> import nbapp
    >>> from nbapp.examples import example, load_example
    >>> ex = example("tennis14")
    >>> m = nbapp.NaiveBayes(ex.feature_specs()).fit(load_example(ex.key), target=ex.target)
    >>> [(p.columns[0], p.numbers, p.count) for p in count_parameters(m)][:2]
    [('Outlook', '2 × (3 − 1)', 4), ('Temperature', '2 × (3 − 1)', 4)]
    """
    _check_fitted(model)
    return [p for block in model.blocks_ for p in block.free_parameters(len(model.classes_))]


class _Rows:
    """The questions about a row of ``frame``: each explained once, when first asked."""

    def __init__(self, model: Any, frame: pd.DataFrame) -> None:
        self.model, self.frame = model, frame
        self.features = list(model.features_)
        self._explained: dict[int, Any] = {}

    def explain(self, i: int) -> Any:
        if i not in self._explained:
            self._explained[i] = self.model.explain(self.frame.iloc[i][self.features])
        return self._explained[i]

    def described(self, i: int) -> tuple[str, str]:
        """Row i as "With <settings>: row 5 of the data, x = (Outlook = Sunny, ...)": the settings the
        answer depends on, its number as the sheet's data table shows it, its feature values."""
        row = self.frame.iloc[i]
        values = [f"{c} = {'missing' if _missing(row[c]) else _short(row[c])}" for c in self.features]
        settings = _row_settings(self.model)
        return (f"With {settings}: row {_row_number(i)} of the data, x = ({', '.join(values)})",
                rf"With {_tex(settings)}: row {_row_number(i)} of the data, "
                rf"$x = ({', '.join(_latex_pair(c, row[c]) for c in self.features)})$")

    def posterior(self, i: int) -> Question | None:
        r, c = divmod(i, len(self.model.classes_))
        e = self.explain(r)
        if e.undetermined:
            return None
        cls, exact = e.classes[c], e.posterior_fractions.iloc[c]
        answer = exact if exact is not None else Fraction(float(e.posterior.iloc[c]))
        steps = board_steps(self.model, self.frame.iloc[r][self.features], classes=[cls])
        own = [s for s in steps if s.cls == cls and s.kind in (PRIOR, FACTOR)][-1]
        shown = [s for s in steps if s.kind in (EVIDENCE, POSTERIOR) and s.cls in (None, cls)]
        joint = f"P({cls}) ∏ P(x_a | {cls})"
        joint_latex = rf"P({latex_text(cls)}) \prod_a P(x_a \mid {latex_text(cls)})"
        worked = "; ".join([f"{joint} = {own.product}", *(s.text for s in shown)])
        worked_latex = "; ".join([f"${joint_latex} = {own.product_latex}$", *(f"${s.latex}$" for s in shown)])
        where, where_latex = self.described(r)
        target = self.model.target_
        return Question("posterior", f"{where}. What is P({target} = {cls} | x)?",
                        rf"{where_latex}. What is $P({latex_text(target)} = {latex_text(cls)} \mid x)$?",
                        answer, worked, worked_latex, exact=exact is not None, about=("posterior", r, c))

    def winner(self, i: int) -> Question | None:
        e = self.explain(i)
        if e.undetermined:
            return None
        steps = board_steps(self.model, self.frame.iloc[i][self.features])
        ends = {}
        for s in steps:
            if s.kind in (PRIOR, FACTOR):
                ends[s.cls] = s
        decision = steps[-1]
        worked = (f"P(c) ∏ P(x_a | c) per class: {'; '.join(f'{c}: {s.product}' for c, s in ends.items())}; the "
                  f"largest wins (P(x) divides them all alike): {decision.text}")
        worked_latex = "; ".join([*(rf"$P({latex_text(c)}) \prod_a P(x_a \mid {latex_text(c)}) = {s.product_latex}$"
                                    for c, s in ends.items()), f"${decision.latex}$"])
        where, where_latex = self.described(i)
        return Question("winner", f"{where}. Which class does the model predict?",
                        f"{where_latex}. Which class does the model predict?", e.prediction, worked, worked_latex,
                        about=("winner", i), classes=tuple(self.model.classes_))

    def _unk_scored(self, column: str, word: str, c: int, v_c: int | None) -> str:
        """How the model scores a word class c never saw, with the V its denominator uses (issue 33,
        item 2: the line once gave the class's own V but divided by the shared one): per-class
        vocabulary, P(UNK | c) = (0 + a) / (n_c + a (V_c + 1))   [seed 004]; the shared one,
        (0 + l) / (n_c + l V) with V the vocabulary of every class   [seed 000, Eq. 10]."""
        cls = self.model.classes_[c]
        cell = self.model.block_of(column).cell_terms(column, word, c)
        if cell is None:
            return f"{word}: left out (outside the vocabulary)"
        left, value = f"P({word} | {cls})", fraction_text(cell.value)
        top = f"{_count(cell.count)} + {_count(cell.pseudo)}"
        if v_c is not None:
            return (f"{left} = (N + a) / (n_c + a (V_c + 1)) = ({top}) / ({_count(cell.n)} + {_count(cell.pseudo)} × "
                    f"({v_c} + 1)) = {value}")
        how, _ = _cell_how(self.model.smoothing_of(column), cell)
        symbol = self.model.block_of(column).cell_values_symbol(column)       # V: the vocabulary's words
        how = how.replace("l K)", f"l {symbol})")
        return f"{left} = {how} = {value}"

    def unk(self, texts: list[str]) -> Callable[[int], Question | None]:
        k = len(self.model.classes_)

        def make(i: int) -> Question | None:
            r, rest = divmod(i, len(texts) * k)
            column, c = texts[rest // k], rest % k
            e = self.explain(r)
            if column not in e.words:
                return None
            table = e.words[column]
            terms = [t for t, n in zip(table["term"], table["count"]) if n > 0]
            if not terms:
                return None
            return self._unk_question(r, column, c, list(dict.fromkeys(terms)))

        return make

    def _unk_question(self, r: int, column: str, c: int, terms: list[str]) -> Question:
        cls = self.model.classes_[c]
        counts = self.model.counts(column)
        seen = {t: counts.iloc[counts.index.get_loc(t), c] for t in terms if t in counts.index}
        answer = frozenset(t for t in terms if not seen.get(t, 0) > 0)
        column_counts = counts.iloc[:, c].to_numpy(dtype=float)
        n, v = exact_sum(column_counts), int((column_counts > 0).sum())
        block = self.model.block_of(column)
        parts = [f"{t} {_count(Fraction(seen[t]).limit_denominator()) if t in seen else 0}" for t in terms]
        per_class = getattr(block.spec, "vocabulary", None) == "per_class_unk"
        types = f"V_c = {v} word types" if per_class else f"{v} of the vocabulary's V = {len(counts)} word types seen"
        scored = [self._unk_scored(column, t, c, v if per_class else None) for t in sorted(answer)]
        unk = ", ".join(sorted(answer)) or "none"
        worked = (f"Counts in class {cls} (n = {_count(n)} counted, {types}): {', '.join(parts)}. "
                  f"UNK in {cls}: {unk}." + (f" The model scores them: {'; '.join(scored)}." if scored else ""))
        document = self.frame.iloc[r][column]
        label = _row_number(r)
        text = (f"Row {label} of the data, {column} = {document!r}. The model reads its words as: {', '.join(terms)}. "
                f"Which of them are UNK in class {cls}, never seen in class {cls}'s training documents "
                "(seed 004)? Give the words separated by commas, or 'none'.")
        latex = (rf"Row {label} of the data, {latex_text(column)} = ``{_tex(document)}''. The model reads its words "
                 "as: "
                 rf"{_tex(', '.join(terms))}. Which of them are UNK in class {latex_text(cls)}, never seen in class "
                 rf"{latex_text(cls)}'s training documents (seed 004)? Give the words separated by commas, or "
                 "`none'.")
        return Question("unk", text, latex, answer, worked, _tex(worked), about=("unk", r, column, c))


# -- grading ----------------------------------------------------------------------------------------
#: The longest answer read at all: a document's UNK words fit many times over. The page's answer
#: box holds no more (:func:`max_answer_chars`).
MAX_ANSWER_CHARS = 5000
#: The longest number read: a fraction on a sheet has at most 40 characters, and 100 digits are
#: past any float's. Longer is refused before a digit becomes an integer (issue 31, item 1:
#: Python refuses more than 4,300 digits, and work must not grow with what a string names).
MAX_NUMBER_CHARS = 100
#: Significant digits of the answer a decimal must keep at least: 0.33 for 1/3, not 0.3.
_MIN_DIGITS = 2
# Surrounding characters that are punctuation of the sentence, not of a name: "No." and "'No'"
# are "No" (issue 33, item 2). "<", ">" and "=" stay: ">50K" and "<=50K" are two classes.
_SURROUNDING = " .,;:!?'\"`‘’“”«»()[]{}"


def max_answer_chars(question: Question) -> int:
    """The most characters an answer to ``question`` is read with (the page caps its box at it)."""
    return MAX_NUMBER_CHARS if question.kind in (*_NUMBER_KINDS, "parameters") else MAX_ANSWER_CHARS


def grade(question: Question, answer_text: str) -> Verdict:
    """Judge a typed answer exactly (module docstring): a fraction by value; a decimal, a
    percentage, a whole number or a power of ten by one rule, the exact answer rounded to the
    precision typed and to at least 2 significant digits ("1", "1.0" and "100%" alike for an
    answer ≈ 1); a class by its name, case and surrounding punctuation aside ("No." for No); words
    as a set; a count as a whole number. An answer longer than :func:`max_answer_chars` is refused
    unread, and no number is ever built far from the answer's own size ("1e99999999" is wrong
    at once: issue 31, item 1).

    >>> q = Question("prior", "", "", Fraction(1, 3), "", "")
    >>> [grade(q, t).correct for t in ("2/6", "0.33", "0.333", "33.3%", "0.3", "0.34", "1e99999999")]
    [True, True, True, True, False, False, False]
    """
    text, limit = str(answer_text), max_answer_chars(question)
    if len(text) > limit:
        return Verdict(False, question.answer_text, _cut(text), question.worked, _TOO_LONG.format(
            n=len(text), limit=limit, how=_HOW_NUMBER if limit == MAX_NUMBER_CHARS else "type less"))
    given = " ".join(text.split())
    kind = question.kind
    if kind in _NUMBER_KINDS:
        correct, note = _judge_number(question, given)
    elif kind == "parameters":
        correct, note = _judge_count(question.answer, given)
    elif kind == "winner":
        correct, note = _judge_class(question, given)
    else:
        correct, note = _judge_words(question.answer, given), ""
    return Verdict(correct, question.answer_text, _cut(given), question.worked, note)


@dataclass(frozen=True)
class _Typed:
    """A number as typed, kept as its digits: ``numerator / denominator`` for a fraction (exact,
    ``exponent`` None), or ``numerator × 10^exponent`` for a decimal, whose last digit's unit is
    10^exponent. The exponent is what was typed, however large ("1e99999999"): the value is
    built only once its size is known to be near the answer's (:func:`_near`)."""

    numerator: int
    denominator: int = 1
    exponent: int | None = None

    def order(self) -> int:
        """floor(log10 |value|) of a non-zero number, from its digits."""
        if self.exponent is None:
            return _order(Fraction(self.numerator, self.denominator))
        return len(str(abs(self.numerator))) - 1 + self.exponent

    def value(self) -> Fraction:
        if self.exponent is None:
            return Fraction(self.numerator, self.denominator)
        return self.numerator * Fraction(10) ** self.exponent


_FRACTION = re.compile(r"^([+-]?\d+)/(\d+)$")
_DECIMAL = re.compile(r"^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$")
_HOW_NUMBER = "type a fraction (3/4), a decimal (0.75), a percentage (75%) or a power of ten (7.5e-1)"
_UNREADABLE = "could not read {given!r} as a number: " + _HOW_NUMBER
_TOO_LONG = "the answer has {n:,} characters, more than any answer here needs (at most {limit:,}): {how}"


def _read_number(text: str) -> _Typed | None:
    """A fraction, or a decimal (whole, with a point or a decimal comma, with an exponent, or a
    percentage: 75% is 75 × 10^-2, to the unit of its last digit, 1%); None if it is neither or
    longer than :data:`MAX_NUMBER_CHARS` (no digit string past it becomes an integer)."""
    text = text.replace(" ", "")
    if len(text) > MAX_NUMBER_CHARS:
        return None
    percent = text.endswith("%")
    body = text[:-1] if percent else text
    if (m := _FRACTION.match(body)) is not None:
        if percent or int(m.group(2)) == 0:
            return None
        return _Typed(int(m.group(1)), int(m.group(2)))
    if body.count(",") == 1 and "." not in body:          # 0,75: a decimal comma
        body = body.replace(",", ".")
    m = _DECIMAL.match(body)
    if m is None or not (m.group(2) or m.group(3)):
        return None
    sign, whole, decimals, exponent = m.groups()
    decimals = decimals or ""
    digits = int(whole + decimals)
    return _Typed(-digits if sign == "-" else digits,
                  exponent=int(exponent or 0) - len(decimals) - (2 if percent else 0))


def _order(x: Fraction) -> int:
    """floor(log10 |x|) of a non-zero fraction, exactly (the float estimate may be one off at a
    power of ten); its cost is that of x's own digits."""
    x = abs(x)
    k = math.floor(math.log10(x.numerator) - math.log10(x.denominator))
    while Fraction(10) ** k > x:
        k -= 1
    while Fraction(10) ** (k + 1) <= x:
        k += 1
    return k


def _near(typed: _Typed, x: Fraction) -> bool:
    """Whether a non-zero typed number is within a factor of 100 of a non-zero x, read from the
    orders of magnitude alone; no answer that is not is right under any rule here."""
    return abs(typed.order() - _order(x)) <= 1


def _equals(typed: _Typed, x: Fraction) -> bool:
    """Exactly equal in value ("12.0" for 12), with no number built far from x's size."""
    if typed.numerator == 0 or x == 0:
        return typed.numerator == 0 and x == 0
    return _near(typed, x) and typed.value() == x


def _judge_number(question: Question, given: str) -> tuple[bool, str]:
    """One rule for every form of a decimal (issue 33, item 2): right when it is the answer x
    rounded to the precision typed, the unit u of its last digit, and that rounding keeps at
    least 2 significant digits of x: |typed − x| <= min(u, 10^(order(x) − 1)) / 2. So "1",
    "1.0", "100%" and "1e0" alike are right for x = 1 − 3.9e−9 (the page shows ≈ 1), and "0.3" is
    too coarse for 1/3. A fraction is exact: equal in value; where the model has x only as a
    decimal, equal to the 4 significant digits the page shows."""
    typed = _read_number(given)
    if typed is None:
        return False, _UNREADABLE.format(given=given)
    x = question.answer
    if typed.exponent is None:
        if question.exact:
            return typed.value() == x, ""
        unit = Fraction(10) ** (_order(x) - 3) if x else Fraction(0)
        return abs(typed.value() - x) <= unit / 2, f"judged as its value to 4 significant digits ({_approx(x)})"
    if x == 0:
        return typed.numerator == 0, ""
    if typed.numerator != 0 and not _near(typed, x):
        return False, ""
    order = _order(x)
    # A non-zero typed number near x has its unit within 100 digits of x's order; a typed 0 is
    # judged the same at any unit past these bounds ("0e99999999" is as coarse as "0").
    unit_typed = Fraction(10) ** min(max(typed.exponent, order - MAX_NUMBER_CHARS - 2), order + 2)
    off = abs(typed.numerator * unit_typed - x)
    if off <= min(unit_typed, Fraction(10) ** (order - _MIN_DIGITS + 1)) / 2:
        return True, ""
    if off <= unit_typed / 2:
        kept = max(order - _order(unit_typed) + 1, 0)
        return False, (f"{given!r} keeps {kept} significant digit{'s' if kept != 1 else ''} of the answer; give at "
                       f"least {_MIN_DIGITS} (as {decimal_text(_float_log(x), _MIN_DIGITS)})")
    return False, ""


def _judge_count(answer: int, given: str) -> tuple[bool, str]:
    typed = _read_number(given)
    if typed is None:
        return False, _UNREADABLE.format(given=given)
    return _equals(typed, Fraction(answer)), ""


def _name_key(name: Any) -> str:
    """A name as compared: whitespace collapsed, case and surrounding punctuation aside."""
    return " ".join(str(name).split()).casefold().strip(_SURROUNDING)


def _judge_class(question: Question, given: str) -> tuple[bool, str]:
    """The class by its name under :func:`_name_key` ("No.", " no " for No), unless another class
    of the model reads the same that way; a class that is a number also by its value (1 for 1.0)."""
    answer = question.answer
    if given.casefold() == " ".join(str(answer).split()).casefold():
        return True, ""
    key = _name_key(given)
    if key and key == _name_key(answer):
        alike = [c for c in question.classes if _name_key(c) == key and str(c) != str(answer)]
        if not alike:
            return True, ""
        return False, (f"{given!r} could be {', '.join(repr(str(c)) for c in [answer, *alike])}: type the class "
                       "as the page writes it")
    if isinstance(answer, (int, float, np.integer, np.floating)) and not isinstance(answer, (bool, np.bool_)) \
            and math.isfinite(float(answer)):
        typed = _read_number(key)
        return typed is not None and _equals(typed, Fraction(float(answer))), ""
    return False, ""


def _judge_words(expected: frozenset, given: str) -> bool:
    """The same set of words, each compared as a name is (case and surrounding quotes aside)."""
    return {_name_key(w) for w in _read_words(given, expected)} == {_name_key(w) for w in expected}


def _read_words(given: str, expected: frozenset) -> list[str]:
    if given.casefold().strip(" .") in ("", "none", "-", "{}", "∅", "no words", "nothing"):
        return []
    parts = re.split(r"[,;\n]+", given)
    if len(parts) == 1 and not any(" " in w for w in expected):
        parts = given.split()
    return [p for p in parts if _name_key(p)]


def _cut(text: str, limit: int = 80) -> str:
    """An answer as the verdict repeats it: cut at ``limit`` characters."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- sheets -----------------------------------------------------------------------------------------
_HOW = ("Answer with a fraction (3/4), a decimal with at least 2 significant digits (0.75), or a percentage (75%); "
        "a class by its name; words separated by commas.")


def to_markdown(exercise_set: ExerciseSet, answers: bool = False) -> str:
    """The sheet as Markdown: a title, how to answer, the numbered questions, and with
    ``answers`` each answer and its worked line."""
    lines = [f"# {markdown_text(exercise_set.title)}", "", markdown_text(_HOW), "", f"*Seed {exercise_set.seed}.*", ""]
    data = exercise_set.data
    if data is not None:
        columns = [str(data.index.name), *map(str, data.columns)]
        lines += ["## Data", "", markdown_text(_data_caption(exercise_set)), "", "| " + " | ".join(map(markdown_text, columns)) + " |",
                  "|" + "|".join(["---:", *["---"] * len(data.columns)]) + "|"]
        lines += ["| " + " | ".join([str(number), *(markdown_text(_cell(v)) for v in row)]) + " |"
                  for number, row in zip(data.index, data.itertuples(index=False))]
        lines += ["", "## Questions", ""]
    for i, q in enumerate(exercise_set.questions, start=1):
        lines.append(f"{i}. {markdown_text(q.text)}")
        if answers:
            lines += ["", f"    **Answer:** {markdown_text(q.answer_text)}", "", f"    *Worked:* {markdown_text(q.worked)}"]
        lines.append("")
    return "\n".join(lines)


def to_latex(exercise_set: ExerciseSet, answers: bool = False) -> str:
    """The sheet as a LaTeX document (article, amsmath): the numbered questions, and with
    ``answers`` each answer and its worked line."""
    items = []
    for q in exercise_set.questions:
        item = rf"\item {q.latex}"
        if answers:
            item += rf"\par\textbf{{Answer:}} {_answer_latex(q)}\par\textit{{Worked:}} {q.worked_latex}"
        items.append(item)
    return "\n".join([
        # T1: in the default OT1 encoding "|", "<" and ">" inside \text{...} print as an em dash, "¡"
        # and "¿" (issue 33, item 2).
        r"\documentclass{article}", r"\usepackage[utf8]{inputenc}", r"\usepackage[T1]{fontenc}",
        r"\usepackage{amsmath}",
        rf"\title{{{_tex(exercise_set.title)}{' --- answers' if answers else ''}}}", r"\date{}",
        r"\begin{document}", r"\maketitle", _tex(_HOW), "", rf"\emph{{Seed {exercise_set.seed}.}}", "",
        *_data_latex(exercise_set), r"\begin{enumerate}", *items, r"\end{enumerate}", r"\end{document}", ""])


def _data_caption(exercise_set: ExerciseSet) -> str:
    shown, total = len(exercise_set.data), exercise_set.data_rows
    if shown == total:
        return f"The data, {total} rows, numbered as the questions number them."
    return (f"The {shown} of the data's {total:,} rows the questions ask about, numbered as the questions number "
            "them (by position in the data, from 1).")


def _cell(value: Any) -> str:
    return "missing" if _missing(value) else _short(value)


def _data_latex(exercise_set: ExerciseSet) -> list[str]:
    """The sheet's data as a tabular: a long text column wraps in a paragraph column."""
    data = exercise_set.data
    if data is None:
        return []
    cells = [[_tex(_cell(v)) for v in row] for row in data.itertuples(index=False)]
    wide = [max((len(_cell(v)) for v in data[c]), default=0) > 30 for c in data.columns]
    spec = "r" + "".join(r"p{0.5\textwidth}" if w else "l" for w in wide)
    header = " & ".join([_tex(data.index.name), *(_tex(c) for c in data.columns)])
    return [r"\section*{Data}", _tex(_data_caption(exercise_set)), "", r"{\small", rf"\begin{{tabular}}{{{spec}}}",
            header + r" \\ \hline", *(" & ".join([str(n), *row]) + r" \\" for n, row in zip(data.index, cells)),
            r"\end{tabular}}", "", r"\section*{Questions}"]


def _answer_text(q: Question) -> str:
    if q.kind in _NUMBER_KINDS:
        if not q.exact:
            return _approx(q.answer)
        return result_texts(q.answer, math.nan)[0].lstrip("= ")
    if q.kind == "unk":
        return ", ".join(sorted(q.answer)) or "none"
    return str(q.answer)


def _answer_latex(q: Question) -> str:
    if q.kind in _NUMBER_KINDS:
        if not q.exact:
            return f"${number_texts(None, _float_log(q.answer))[1]}$"
        return f"${result_texts(q.answer, math.nan)[1].lstrip('= ')}$"
    if q.kind == "unk":
        return _tex(", ".join(sorted(q.answer)) or "none")
    return latex_text(q.answer) if q.kind == "winner" else str(q.answer)


# -- small helpers ----------------------------------------------------------------------------------
def _unreduced(numerator: Fraction, denominator: Fraction, value: Fraction) -> tuple[str, str]:
    """"4/8 = " as counted, before the reduced value; "" where counting gives the reduced form."""
    top, bottom = _count(numerator), _count(denominator)
    if f"{top}/{bottom}" == fraction_text(value):
        return "", ""
    return f"{top}/{bottom} = ", rf"\frac{{{top}}}{{{bottom}}} = "


def _with_decimal(f: Fraction) -> tuple[str, str]:
    text, latex = result_texts(f, math.nan)
    return text.lstrip("= "), latex.lstrip("= ")


def _approx(value: Fraction, digits: int = 4) -> str:
    return number_text(float(value), digits)


def _float_log(value: Fraction) -> float:
    """log of a fraction >= 0 of any size (its float may under- or overflow); -inf for 0."""
    return math.log(value.numerator) - math.log(value.denominator) if value > 0 else -math.inf


def _count(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def _short(value: Any) -> str:
    """A value of a row on one line, a document quoted and cut at 80 characters."""
    text = " ".join(value_text(value).split())          # a flipper of 181 mm, not 181.0
    text = text if len(text) <= 80 else text[:77] + "..."
    return repr(text) if isinstance(value, str) and " " in text else text


def _latex_pair(column: str, value: Any) -> str:
    shown = r"\text{missing}" if _missing(value) else latex_text(_short(value))
    return f"{latex_text(column)} = {shown}"


_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "^": r"\^{}", "#": r"\#",
                "$": r"\$", "%": r"\%", "&": r"\&", "~": r"\~{}", "|": r"\textbar{}", "<": r"\textless{}",
                ">": r"\textgreater{}", "×": r"$\times$", "−": "-", "≈": r"$\approx$",
                "∏": r"$\prod$", "θ": r"$\theta$", "Σ": r"$\Sigma$", "λ": r"$\lambda$", "→": r"$\to$"}


def _tex(value: Any) -> str:
    """Plain text for LaTeX's text mode, special characters escaped."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in " ".join(str(value).split()))


def _tex_formula(text: str) -> str:
    """A count's formula ("C (K − 1)", "2 × (3 − 1)", "Σ_c V_c") in math mode."""
    return text.replace("×", r"\times").replace("−", "-").replace("Σ_c", r"\sum_c")


def _check_fitted(model: Any) -> None:
    if getattr(model, "target_", None) is None:
        raise DataError("The model is not fitted yet: call fit(df, target=...) first.")


def _check_count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_QUESTIONS:
        raise DataError(f"The number of questions must be a whole number from 1 to {MAX_QUESTIONS}, not {n!r}.")
    return int(n)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise DataError(f"The seed must be a whole number >= 0, not {seed!r}.")
    return int(seed)


def _check_frame(model: Any, frame: Any) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise DataError(f"frame must be a table (a pandas DataFrame) of rows, not {type(frame).__name__}.")
    missing = [c for c in model.features_ if c not in frame.columns]
    if missing:
        raise DataError(f"The rows lack the model's feature column{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(repr(c) for c in missing)}; pass rows with every feature column.")
    if not len(frame):
        raise DataError("The rows to ask about are empty; pass at least one row.")
