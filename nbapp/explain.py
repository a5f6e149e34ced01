"""The step-by-step posterior of one example.

    log P(c | x) = log P(c) + sum_{a in OBS} log P(x_a | c) - log P(x)     [seed 000, Eq. 5, 22]

Missing, unseen and undefined factors are left out of the sum (status says which).
The joint, evidence and posterior are the very numbers ``predict_proba`` gives for the
row: both come from :func:`nbapp._logspace.normalise_log`.

The explanation adds up (:meth:`Explanation.contributions`): the prior's log-odds plus every
feature's contribution is the model's log-odds of one class against another, the runner-up
or the rest, as a sum   [seed 000, Eq. 17-20]; see :mod:`nbapp._logodds` for the exact
decomposition against several classes together.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp._logodds import ADDITIVE, SHAPLEY, SHAPLEY_MAX_FEATURES, Decomposition, decompose
from nbapp.errors import DataError, shown
from nbapp.factor import COUNTED, Factor
from nbapp._logspace import decide_codes, logsumexp_rows

__all__ = ["Explanation", "build_explanation", "class_labels", "RUNNER_UP", "REST"]

RUNNER_UP = "runner_up"   # against the most probable other class
REST = "rest"             # against every other class together


@dataclass(frozen=True)
class Explanation:
    """log P(c | x) = log P(c) + sum_a log P(x_a | c) - log P(x)   [seed 000, Eq. 5]"""

    factors: pd.DataFrame
    classes: list[Any]
    joint_log: pd.Series
    log_evidence: float
    posterior: pd.Series
    prediction: Any
    undetermined: bool
    notes: tuple[str, ...] = ()
    words: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    # The per-class numbers behind ``factors``, kept as arrays so that the tables by class are
    # keyed by the class values themselves (classes 1 and "1" are two columns, not one).
    factor_logs: np.ndarray = field(default=None, repr=False)
    factor_fractions: tuple = field(default=(), repr=False)
    # log P(c | x) as normalise_log gave it (predict_log_proba's numbers, not log(exp(...)))
    posterior_logs: np.ndarray = field(default=None, repr=False)

    @property
    def probabilities(self) -> pd.DataFrame:
        """P(x_a | c) (a density for Gaussian factors), factor x class; NaN where not used."""
        with np.errstate(over="ignore"):
            return self._per_class(np.exp(self.factor_logs))

    @property
    def logs(self) -> pd.DataFrame:
        return self._per_class(self.factor_logs.copy())

    @property
    def fractions(self) -> pd.DataFrame:
        cells = np.empty((len(self.factor_fractions), len(self.classes)), dtype=object)
        for i, row in enumerate(self.factor_fractions):
            cells[i] = [None] * len(self.classes) if row is None else list(row)
        return self._per_class(cells)

    @property
    def joint(self) -> pd.Series:
        """P(c) prod P(x_a | c) (underflows to 0.0 for long documents; joint_log does not)."""
        return np.exp(self.joint_log)

    @property
    def evidence(self) -> float:
        return float(np.exp(self.log_evidence))

    @property
    def log_posterior(self) -> pd.Series:
        return np.log(self.posterior)

    @property
    def joint_fractions(self) -> pd.Series:
        """P(c) prod P(x_a | c) as exact fractions per class (None where a used factor is not rational)."""
        used = self.fractions.loc[self.used]
        return pd.Series([fraction_product(list(used[c])) for c in self.classes],
                         index=pd.Index(self.classes, dtype=object), name="joint", dtype=object)

    @property
    def posterior_fractions(self) -> pd.Series:
        """The posterior as exact fractions: joint / sum of joints (None if not rational or 0/0)."""
        joint = list(self.joint_fractions)
        total = None if any(j is None for j in joint) else sum(joint, Fraction(0))
        values = [None if total in (None, 0) else j / total for j in joint]
        return pd.Series(values, index=pd.Index(self.classes, dtype=object), name="posterior", dtype=object)

    @property
    def used(self) -> list[str]:
        return list(self.factors.index[self.factors["status"].isin(COUNTED)])

    def log_odds(self, positive: Any, negative: Any) -> pd.Series:
        """Each used factor's contribution to log P(positive | x) / P(negative | x)."""
        logs = self.logs
        return (logs[positive] - logs[negative]).loc[self.used]

    def rivals(self, cls: Any, against: Any = RUNNER_UP) -> tuple[Any, ...]:
        """The classes ``cls`` is weighed against, in class order: ``"runner_up"`` the most
        probable other class (for this row), ``"rest"`` every other class, a class, or a list of
        classes (how a class named "rest" or "runner_up" is given: ``["rest"]``)."""
        return tuple(self.classes[i] for i in self._against(self._position(cls), against))

    def contributions(self, cls: Any, against: Any = RUNNER_UP) -> pd.Series:
        """The log-odds of ``cls`` against ``against`` (see :meth:`rivals`), factor by factor, in
        nats: index "prior" then every feature as displayed (0.0 where a value is missing, unseen
        or undefined: left out, seed 000 Eq. 22), and

            prior + sum of the features = log P(cls | x) / P(against | x)

        the model's own log-odds (``predict_log_proba``), whatever the types, classes and values.

        Against one class each term is that factor's log P(x_a | cls) / P(x_a | c')   [seed 000,
        Eq. 17-20]. Against several classes together (the rest of a multiclass model) the terms
        of Naive Bayes do not add up by themselves; the contributions are then exact Shapley
        values over the observed features (up to 12; order-free) of the log-odds with only some
        features observed, or beyond 12 the sequential decomposition in the order shown (each
        feature's change of the log-odds when it is added to those before it: another order
        gives other terms with the same sum). A text column is one contribution; see
        :meth:`word_contributions` for its words.

        A zero factor (l = 0) that decides the log-odds alone is kept: -inf (it rules ``cls``
        out), +inf (the zeros rule out every rival), NaN (both sides impossible, 0/0); the sum
        is then that value and the other factors' terms are computed with the deciding ones
        left out (add them with ``.sum(skipna=False)``: pandas' sum skips NaN). When every class
        is impossible (``undetermined``) the model reports the prior instead, which the sum
        (NaN) does not equal: a note says so.

        ``attrs`` of the result: "cls", "against" (the rivals), "method" ("additive",
        "shapley" or "sequential"), "log_odds" (the model's), "deciding" (the factors that
        decide alone) and "notes" (sentences for people).

        Seed 000's tennis day at l = 1: the prior says log (9/14) / (5/14), Overcast says
        log (5/12) / (1/8), and the sum is the log-odds of the posterior 784/1389:

        >>> import math
        >>> from nbapp.examples import example, load_example
        >>> from nbapp.model import NaiveBayes
        >>> tennis = example("tennis14")
        >>> m = NaiveBayes(tennis.features, alpha=1).fit(load_example("tennis14"), target="Play")
        >>> e = m.explain(tennis.query)
        >>> c = e.contributions("Yes", "No")
        >>> [round(float(c[f]), 4) for f in ("prior", "Outlook")], [round(math.log(r), 4) for r in (9 / 5, 10 / 3)]
        ([0.5878, 1.204], [0.5878, 1.204])
        >>> p = e.posterior_fractions["Yes"]; p
        Fraction(784, 1389)
        >>> bool(abs(c.sum() - math.log(p / (1 - p))) < 1e-12)
        True

        At l = 0 no day with Overcast said No: Outlook decides alone.

        >>> m.with_smoothing(alpha=0).explain(tennis.query).contributions("Yes").attrs["deciding"]
        ('Outlook',)
        """
        side = self._position(cls)
        others = self._against(side, against)
        names, totals, parts = self._players()
        d = decompose(self._factor_log("prior"), totals, parts, side, others)
        values = pd.Series(0.0, index=self.factors.index.copy(), name=f"log-odds of {shown(cls)}")
        values.iloc[0] = d.prior
        values.loc[names] = d.players
        deciding = (["prior"] if d.prior_decides else []) + [n for n, m in zip(names, d.deciding) if m.any()]
        values.attrs.update({"cls": cls, "against": tuple(self.classes[i] for i in others), "method": d.method,
                             "log_odds": self._model_log_odds(side, others), "deciding": tuple(deciding),
                             "notes": tuple(self._contribution_notes(cls, others, d, deciding, len(names)))})
        return values

    def word_contributions(self, column: str, cls: Any, against: Any = RUNNER_UP) -> pd.Series:
        """A text column's contribution split by the document's words (rows of
        ``words[column]``, in its order), adding up to ``contributions(cls, against)[column]``.
        Against one class a word's share is its count x log P(w | cls) / P(w | c'); against
        several, the words are added one after the other in the table's order within each
        marginal of the column (so the split, not the column's total, depends on that order)."""
        names, totals, parts = self._players()
        if column not in self.words or column not in names:
            raise DataError(f"{column!r} has no words in this explanation: it is not a text column with a "
                            f"document here; its contribution is contributions(...)[{column!r}].")
        side = self._position(cls)
        d = decompose(self._factor_log("prior"), totals, parts, side, self._against(side, against))
        table, shares = self.words[column], d.parts[names.index(column)]
        if len(shares) != len(table):
            # words_table names its columns by str(class): classes that print alike share one
            raise RuntimeError(f"The words table of {column!r} has no column per class (classes that print "
                               f"alike: {self.classes}), so its words cannot be split; the column's "
                               f"contribution is contributions(...)[{column!r}].")
        return pd.Series(shares, index=pd.Index(table["term"], dtype=object, name="term"),
                         name=f"log-odds of {shown(cls)}")

    def _position(self, cls: Any) -> int:
        return class_position(self.classes, cls)

    def _against(self, side: int, against: Any) -> list[int]:
        return rival_positions(self.classes, side, against, self._posterior_logs())

    def _players(self) -> tuple[list[str], list[np.ndarray], list[np.ndarray]]:
        """The used features (the prior aside) in display order, their log P(x_a | c) and their
        parts: a text column's words (rows of its words table), else the factor itself."""
        names = [n for n in self.used if n != "prior"]
        totals = [self._factor_log(n) for n in names]
        return names, totals, [self._word_logs(n, t) for n, t in zip(names, totals)]

    def _factor_log(self, name: str) -> np.ndarray:
        return self.factor_logs[self.factors.index.get_loc(name)]

    def _word_logs(self, name: str, total: np.ndarray) -> np.ndarray:
        table = self.words.get(name)
        columns = [] if table is None else [c for c in table.columns if str(c).startswith("contribution[")]
        if len(columns) != len(self.classes):
            return total[None, :]
        return table[columns].to_numpy(dtype=float)

    def _posterior_logs(self) -> np.ndarray:
        if self.posterior_logs is not None:
            return self.posterior_logs
        with np.errstate(divide="ignore"):
            return np.log(self.posterior.to_numpy(dtype=float))

    def _model_log_odds(self, side: int, others: list[int]) -> float:
        """log P(side | x) - log sum P(others | x) from the model's own log posterior."""
        logs = self._posterior_logs()
        with np.errstate(invalid="ignore"):         # -inf - -inf: both impossible, NaN
            return float(logs[side] - logsumexp_rows(logs[None, others])[0])

    def _contribution_notes(self, cls: Any, others: list[int], d: Decomposition, deciding: list[str],
                            n_players: int) -> list[str]:
        rivals = " and ".join(shown(self.classes[i]) for i in others)
        notes = []
        if d.method != ADDITIVE:
            how = (f"exact Shapley values over the {n_players} observed features: they do not depend on the "
                   "order of the features" if d.method == SHAPLEY else
                   f"sequential, in the order shown (more than {SHAPLEY_MAX_FEATURES} observed features): each "
                   "feature's term is the change of the log-odds when it joins those above it, so another "
                   "order gives other terms with the same sum")
            notes.append(f"Against {rivals} together the factors of Naive Bayes do not add up by themselves; "
                         f"the contributions are {how}. Each is measured with the other features observed "
                         "or left out as missing values are (seed 000, Eq. 22).")
        listed = ", ".join(deciding)
        if d.outcome == -np.inf:
            notes.append(f"A zero factor decides alone ({listed}): P = 0 for {shown(cls)} (no smoothing, l = 0) "
                         f"rules {shown(cls)} out, so its contribution and the log-odds are -inf; the other "
                         "contributions are computed with it left out.")
        elif d.outcome == np.inf:
            notes.append(f"Zero factors decide alone ({listed}): P = 0 for {rivals} (no smoothing, l = 0) rules "
                         f"them out while {shown(cls)} stays possible, so the contribution and the log-odds are "
                         "+inf; the other contributions are computed with them left out.")
        elif np.isnan(d.outcome):
            notes.append(f"Both {shown(cls)} and {rivals} are impossible for this example (zero factors at l = 0: "
                         f"{listed}), so the log-odds is 0/0, undefined (NaN), and so are those factors' "
                         "contributions.")
        if self.undetermined:
            notes.append("Every class has probability 0 (P(x) = 0): the model reports the prior as the "
                         "posterior, so its log-odds is the prior's, which the contributions do not add up to.")
        return notes

    def _per_class(self, values: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(values, index=self.factors.index, columns=pd.Index(self.classes, dtype=object))


def class_position(classes: list[Any], cls: Any) -> int:
    """The position of ``cls`` among the classes: classes 1 and "1" are two classes, 1 and
    np.int64(1) one."""
    for i, c in enumerate(classes):
        if same_value(c, cls):
            return i
    raise DataError(f"{cls!r} is not a class of this model; its classes are {list(classes)}.")


def rival_positions(classes: list[Any], side: int, against: Any, posterior_logs: np.ndarray | None = None) -> list[int]:
    """The positions of the classes class ``side`` is weighed against, in class order:
    ``"runner_up"`` the most probable other class by ``posterior_logs`` (one row's), ``"rest"``
    every other class, a class, or a list of classes."""
    if isinstance(against, str) and against == RUNNER_UP:
        if posterior_logs is None:
            raise DataError("The runner-up is a row's second most probable class: give 'rest' or a class here.")
        others = [max((i for i in range(len(classes)) if i != side), key=lambda i: posterior_logs[i])]
    elif isinstance(against, str) and against == REST:
        others = [i for i in range(len(classes)) if i != side]
    elif isinstance(against, (list, tuple, set, frozenset)):
        others = sorted({class_position(classes, c) for c in against})
    else:
        others = [class_position(classes, against)]
    if not others or side in others:
        raise DataError(f"Weigh {classes[side]!r} against other classes (or 'rest' / 'runner_up'), "
                        f"not against {against!r}.")
    return others


def same_value(a: Any, b: Any) -> bool:
    """Do a and b name the same class or category? Values of one type that are equal, and
    numbers of other numpy / Python types (np.int64(1) and 1); a number and its text do not
    (1 and "1")."""
    if type(a) is type(b):
        return bool(a == b)
    numbers = (int, float, np.integer, np.floating)
    return isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, (bool, np.bool_)) \
        and not isinstance(b, (bool, np.bool_)) and bool(a == b)


def build_explanation(factors: list[Factor], classes: list[Any], joint_log: np.ndarray,
                      log_posterior: np.ndarray, undetermined: bool,
                      words: Mapping[str, pd.DataFrame]) -> Explanation:
    log_evidence = float(logsumexp_rows(joint_log[None, :])[0])
    index = pd.Index(classes, dtype=object)
    posterior = pd.Series(np.exp(log_posterior), index=index, name="posterior")
    code = int(decide_codes(log_posterior, np.array([undetermined]))[0])
    prediction = None if code < 0 else classes[code]
    return Explanation(
        factors=_factor_table(factors, classes),
        classes=list(classes),
        joint_log=pd.Series(joint_log, index=index, name="joint_log"),
        log_evidence=log_evidence,
        posterior=posterior,
        prediction=prediction,
        undetermined=undetermined,
        notes=tuple(_notes(factors, classes, undetermined)),
        words=dict(words),
        factor_logs=np.array([f.log for f in factors], dtype=float).reshape(len(factors), len(classes)),
        factor_fractions=tuple(f.fraction for f in factors),
        posterior_logs=np.array(log_posterior, dtype=float),
    )


def _factor_table(factors: list[Factor], classes: list[Any]) -> pd.DataFrame:
    """The factor table: kind, value, status, detail, then p[c], log[c] and fraction[c] per class.
    Each group of K columns is one 2-D block (issue 31, item 6): a dict of 3K columns made pandas
    build and check every column alone, 30 s at 100,000 classes."""
    logs = np.array([f.log for f in factors], dtype=float).reshape(len(factors), len(classes))
    with np.errstate(over="ignore"):
        probabilities = np.exp(logs)
    fractions = np.full(logs.shape, None, dtype=object)
    for i, f in enumerate(factors):
        if f.fraction is not None:
            fractions[i] = _objects(list(f.fraction))
    index = pd.Index([f.name for f in factors], name="factor", dtype=object)
    labels = class_labels(classes)
    described = pd.DataFrame({"kind": [f.kind for f in factors], "value": _objects([f.value for f in factors]),
                              "status": [f.status for f in factors], "detail": [f.detail for f in factors]},
                             index=index)
    per_class = [pd.DataFrame(values, index=index, columns=[f"{group}[{c}]" for c in labels])
                 for group, values in (("p", probabilities), ("log", logs), ("fraction", fractions))]
    return pd.concat([described, *per_class], axis=1)


def class_labels(classes: list[Any]) -> list[str]:
    """Class names for display columns: str(c), or repr(c) where two classes print alike (1 and "1")."""
    plain = [str(c) for c in classes]
    times = Counter(plain)          # counted once: list.count per class was quadratic (issue 31, item 6)
    return [repr(c) if times[p] > 1 else p for c, p in zip(classes, plain)]


def _objects(values: list[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _notes(factors: list[Factor], classes: list[Any], undetermined: bool) -> list[str]:
    notes = []
    for f in factors:
        if f.status == "missing":
            notes.append(f"{f.name} is missing: {f.detail}.")
            continue
        if not f.counted:
            notes.append(f"{f.name} = {shown(f.value)} is {f.status}: {f.detail}.")
            continue
        if f.note:
            notes.append(f.note)
        zero = [c for c, v in zip(classes, f.log) if v == -np.inf]
        if zero:
            listed = ", ".join(shown(c) for c in zero)
            what = "P(class)" if f.name == "prior" else f"P({f.name} = {shown(f.value)} | class)"
            notes.append(f"{what} = 0 for class {listed}: with no smoothing (l = 0) one zero factor makes "
                         f"the whole product 0, so that class is impossible for this example.")
    if undetermined:
        notes.append("Every class has probability 0, so P(x) = 0 and the posterior 0/0 is undefined: "
                     "no class is predicted and the prior is shown as the posterior. Use l > 0.")
    return notes


def fraction_product(values: list[Fraction | None]) -> Fraction | None:
    """The product of exact fractions, or None if any is unknown."""
    total = Fraction(1)
    for v in values:
        if v is None:
            return None
        total *= v
    return total
