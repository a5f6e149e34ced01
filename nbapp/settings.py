"""The model's settings as one value: everything :class:`nbapp.NaiveBayes` is given besides
its features, frozen and hashable, with its JSON form.

The model file's "settings" section (:mod:`nbapp.persist`) and the app's address are written
and read through it, so a setting has one schema::

    >>> s = Settings(alpha=0.5, priors={"No": 0.36, "Yes": 0.64})
    >>> s.priors
    (('No', 0.36), ('Yes', 0.64))
    >>> Settings.from_dict(s.to_dict()) == s
    True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

import numpy as np

from nbapp.blocks.gaussian import VAR_SMOOTHING_MODES, VARIANCES
from nbapp.errors import DataError, shown
from nbapp.ordering import sort_key
from nbapp.priors import check_priors
from nbapp.smoothing import BetaPrior, Lidstone, MEstimate

__all__ = ["Settings", "SMOOTHINGS"]

# The smoothings a model may be given, by the name its JSON form writes.
SMOOTHINGS = {"Lidstone": Lidstone, "MEstimate": MEstimate, "BetaPrior": BetaPrior}


@dataclass(frozen=True)
class Settings:
    """The settings of a Naive Bayes model (the features aside), as :class:`nbapp.NaiveBayes`
    takes them: ``NaiveBayes(features, **settings.kwargs())`` or
    ``NaiveBayes.from_settings(features, settings)``; ``model.settings`` gives them back.

    ``alpha``: Lidstone l >= 0 of every discrete feature (seed 000, Eq. 7 and 10);
    ``smoothing``: instead, a :class:`nbapp.MEstimate` (seed 003) or :class:`nbapp.BetaPrior`
    (seed 002), or None; ``prior_alpha``: Dirichlet smoothing of the class prior (seed 000,
    §2.4); ``priors``: "empirical", "uniform" or the given P(c) as (class, probability) pairs
    in class order (a mapping is accepted); ``var_smoothing``, ``variance`` and
    ``var_smoothing_mode``: the Gaussian epsilon factor, variance option and epsilon mode.
    """

    alpha: float = 1.0
    smoothing: Lidstone | MEstimate | BetaPrior | None = None
    prior_alpha: float = 0.0
    priors: str | tuple[tuple[Any, float], ...] = "empirical"
    var_smoothing: float = 1e-9
    variance: str = "mle"
    var_smoothing_mode: str = "global"

    def __post_init__(self) -> None:
        object.__setattr__(self, "alpha", float(Lidstone(self.alpha).l))
        if self.smoothing is not None and not isinstance(self.smoothing, tuple(SMOOTHINGS.values())):
            raise DataError("smoothing must be nbapp.Lidstone, nbapp.MEstimate or nbapp.BetaPrior.")
        object.__setattr__(self, "prior_alpha", float(Lidstone(self.prior_alpha).l))
        object.__setattr__(self, "priors", _priors(self.priors))
        v = self.var_smoothing
        if isinstance(v, bool) or not isinstance(v, (int, float)) \
                or not 0 <= v <= 1e6:      # refuses NaN and inf; np.isfinite fails on a huge int
            raise DataError(f"var_smoothing must be a number between 0 and 1e6, not {v!r}.")
        object.__setattr__(self, "var_smoothing", float(v))
        if self.variance not in VARIANCES:
            raise DataError(f"variance must be one of {', '.join(VARIANCES)}, not {self.variance!r}.")
        if self.var_smoothing_mode not in VAR_SMOOTHING_MODES:
            raise DataError(f"var_smoothing_mode must be one of {', '.join(VAR_SMOOTHING_MODES)}, "
                            f"not {self.var_smoothing_mode!r}.")

    @property
    def model_smoothing(self) -> Lidstone | MEstimate | BetaPrior:
        """The smoothing the model is given: ``smoothing``, else Lidstone(``alpha``)."""
        return self.smoothing if self.smoothing is not None else Lidstone(self.alpha)

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :class:`nbapp.NaiveBayes` (given priors as a dict)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        if not isinstance(self.priors, str):
            out["priors"] = dict(self.priors)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the model file's "settings", its features aside)."""
        smoothing = self.smoothing
        return {
            "alpha": self.alpha,
            "smoothing": None if smoothing is None else {"type": type(smoothing).__name__, **smoothing.parameters()},
            "prior_alpha": self.prior_alpha,
            "priors": self.priors if isinstance(self.priors, str) else
            {"classes": [c for c, _ in self.priors], "values": [p for _, p in self.priors]},
            "var_smoothing": self.var_smoothing,
            "variance": self.variance,
            "var_smoothing_mode": self.var_smoothing_mode,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "settings") -> "Settings":
        """The settings of a JSON form, every field checked; errors name the field after ``where``.

        Forms written before an option existed still read: no "var_smoothing_mode" is
        scikit-learn's "global", and an m-estimate without "normalised" is the older
        normalised one (it divided by n + K m p)."""
        if not isinstance(data, Mapping):
            raise DataError(f"{where} is {shown(data)}; it should be an object of setting -> value.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise DataError(f"{where}: unknown key {unknown[0]!r}; this is not a setting of an nbapp model.")
        missing = sorted(known - set(data) - {"var_smoothing_mode"})
        if missing:
            raise DataError(f"{where} has no {missing[0]!r}.")
        for key in ("alpha", "prior_alpha", "var_smoothing"):
            if isinstance(data[key], bool) or not isinstance(data[key], (int, float)):
                raise DataError(f"{where}.{key} is {shown(data[key])}; it should be a number.")
        for key in ("variance", "var_smoothing_mode"):
            if key in data and not isinstance(data[key], str):
                raise DataError(f"{where}.{key} is {shown(data[key])}; it should be a name.")
        return cls(alpha=data["alpha"], smoothing=_smoothing_from_dict(data["smoothing"], where),
                   prior_alpha=data["prior_alpha"], priors=_priors_from_dict(data["priors"], where),
                   var_smoothing=data["var_smoothing"], variance=data["variance"],
                   var_smoothing_mode=data.get("var_smoothing_mode", "global"))


def _priors(priors: Any) -> str | tuple[tuple[Any, float], ...]:
    """"empirical", "uniform", or given priors as (class, probability) pairs in class order."""
    if isinstance(priors, (tuple, list)) and all(isinstance(p, (tuple, list)) and len(p) == 2 for p in priors):
        given = dict(priors)
        if len(given) != len(priors):
            raise DataError("The given priors name a class twice; give one probability per class.")
        priors = given
    checked = check_priors(priors)
    if isinstance(checked, str):
        return checked
    return tuple(sorted(((c, float(p)) for c, p in checked.items()), key=lambda pair: sort_key(pair[0])))


def _smoothing_from_dict(data: Any, where: str) -> Any:
    if data is None:
        return None
    if not isinstance(data, Mapping) or data.get("type") not in SMOOTHINGS:
        raise DataError(f"{where}.smoothing is {shown(data)}; it is not a smoothing nbapp knows.")
    cls = SMOOTHINGS[data["type"]]
    options = {k: v for k, v in data.items() if k != "type"}
    unknown = set(options) - set(cls.__dataclass_fields__)
    if unknown:
        raise DataError(f"{where}.smoothing: unknown option {sorted(unknown)[0]!r} for {data['type']}.")
    for k, v in options.items():
        if k == "normalised":
            if not isinstance(v, bool):
                raise DataError(f"{where}.smoothing.normalised is {shown(v)}; it should be true or false.")
        elif v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise DataError(f"{where}.smoothing.{k} is {shown(v)}; it should be a number.")
    return cls.from_json(options)


def _priors_from_dict(data: Any, where: str) -> Any:
    if isinstance(data, str):
        return data
    if isinstance(data, Mapping) and set(data) == {"classes", "values"} and isinstance(data["classes"], list) \
            and isinstance(data["values"], list):
        if len(data["classes"]) != len(data["values"]):
            raise DataError(f"{where}.priors: the classes and values lists have different lengths.")
        for i, c in enumerate(data["classes"]):
            if not isinstance(c, (str, int, float)) or isinstance(c, float) and not np.isfinite(c):
                raise DataError(f"{where}.priors.classes[{i}] is {shown(c)}; a class is a string, a finite "
                                "number or a boolean.")
        for i, v in enumerate(data["values"]):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise DataError(f"{where}.priors.values[{i}] is {shown(v)}; a prior is a number.")
        return list(zip(data["classes"], data["values"]))
    raise DataError(f"{where}.priors should be 'empirical', 'uniform' or {{\"classes\": [...], \"values\": [...]}}.")

