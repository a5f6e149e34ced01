"""The step-by-step posterior of one example.

    log P(c | x) = log P(c) + sum_{a in OBS} log P(x_a | c) - log P(x)     [seed 000, Eq. 5, 22]

Missing, unseen and undefined factors are left out of the sum (status says which).
The joint, evidence and posterior are the very numbers ``predict_proba`` gives for the
row: both come from :func:`nbapp.logspace.normalise_log`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp.errors import shown
from nbapp.factor import COUNTED, Factor
from nbapp.logspace import decide_codes, logsumexp_rows

__all__ = ["Explanation", "build_explanation", "class_labels"]


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

    def _per_class(self, values: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(values, index=self.factors.index, columns=pd.Index(self.classes, dtype=object))


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
    )


def _factor_table(factors: list[Factor], classes: list[Any]) -> pd.DataFrame:
    logs = np.array([f.log for f in factors], dtype=float)
    with np.errstate(over="ignore"):
        probabilities = np.exp(logs)
    columns: dict[str, Any] = {
        "kind": [f.kind for f in factors], "value": _objects([f.value for f in factors]),
        "status": [f.status for f in factors], "detail": [f.detail for f in factors],
    }
    labels = class_labels(classes)
    for j, c in enumerate(labels):
        columns[f"p[{c}]"] = probabilities[:, j]
    for j, c in enumerate(labels):
        columns[f"log[{c}]"] = logs[:, j]
    for j, c in enumerate(labels):
        columns[f"fraction[{c}]"] = _objects([None if f.fraction is None else f.fraction[j] for f in factors])
    return pd.DataFrame(columns, index=pd.Index([f.name for f in factors], name="factor", dtype=object))


def class_labels(classes: list[Any]) -> list[str]:
    """Class names for display columns: str(c), or repr(c) where two classes print alike (1 and "1")."""
    plain = [str(c) for c in classes]
    return [repr(c) if plain.count(p) > 1 else p for c, p in zip(classes, plain)]


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
