"""MLE vs MAP: how smoothing moves the CPT cells and one example's posterior.

Every discrete estimator of the seeds is a count plus a pseudo-count (nbapp.smoothing):

    Lidstone     (count + l) / (n_c + l K)               [seed 000, Eq. 7]  l = 0 is the MLE
    m-estimate   (n_y + m p) / (n + m)                   [seed 003]         p = 1/K by default
    Beta prior   (N_cd + a) / (N_c + a + b)              [seed 002]         binary features

:func:`smoothing_path` re-smooths the model's counts once per strength s (l = s, m = s,
or a = s a0, b = s b0; ``NaiveBayes.with_smoothing``, no pass over the data) and records
chosen CPT cells and the posterior of one test example. At s = 0 all three are the MLE; a
zero count then makes a cell 0 and can rule a class out entirely (the cells to highlight).
Only the Beta variant on two-valued categorical columns refits, as Bernoulli features.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from nbapp.blocks.base import CATEGORY
from nbapp.errors import DataError
from nbapp.smoothing import BetaPrior, MEstimate
from nbapp.specs import Bernoulli

__all__ = ["SmoothingPath", "smoothing_path", "VARIANTS", "DEFAULT_STRENGTHS"]

VARIANTS = ("lidstone", "m_estimate", "beta")
#: l = 0, 0.5, ..., 10: the slider's range, 21 points per variant.
DEFAULT_STRENGTHS = tuple(np.round(np.linspace(0.0, 10.0, 21), 10))


@dataclass(frozen=True)
class SmoothingPath:
    """The path in long format (one row per point, ready for a line chart).

    ``cells``: columns "variant", "strength", "column", "value", "class", "count",
    "probability" and "zero_count" (True where the raw count is 0: the cells that are 0
    under the MLE). ``posterior``: columns "variant", "strength", "class", "posterior",
    "undetermined" (every class ruled out, see nbapp.logspace) and "prediction".
    """

    cells: pd.DataFrame
    posterior: pd.DataFrame
    strengths: tuple[float, ...]
    variants: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def zero_cells(self) -> pd.DataFrame:
        """The chosen cells whose count is 0 (column, value, class, count)."""
        first = self.cells[(self.cells["variant"] == self.variants[0])
                           & (self.cells["strength"] == self.strengths[0])]
        return first.loc[first["zero_count"], ["column", "value", "class", "count"]]

    def posterior_at(self, strength: float, variant: str = "lidstone") -> pd.Series:
        """The example's posterior at the strength on the path closest to ``strength``."""
        rows = self.posterior[self.posterior["variant"] == variant]
        if rows.empty:
            raise DataError(f"The path has no {variant!r} variant; it has {list(self.variants)}.")
        nearest = rows["strength"].iloc[(rows["strength"] - strength).abs().to_numpy().argmin()]
        at = rows[rows["strength"] == nearest]
        return pd.Series(at["posterior"].to_numpy(), index=at["class"].to_list(), name="posterior")


def smoothing_path(model: Any, df: pd.DataFrame, row: Any, *,
                   cells: Sequence[tuple[str, Any]] | None = None,
                   strengths: Sequence[float] = DEFAULT_STRENGTHS,
                   variants: Sequence[str] = VARIANTS, m_prior: float | None = None,
                   beta_shape: tuple[float, float] = (1.0, 1.0)) -> SmoothingPath:
    """Re-smooth ``model``'s counts at each strength; record cells and posterior.

    ``model`` is a fitted ``nbapp.NaiveBayes``: its settings (``m.params()``), target and
    weight column are reused, only the smoothing changes. ``row`` is the test example (dict
    or Series). ``cells`` are (column, value) pairs of smoothed features, every class each; by
    default the CPT row of the example's own value of each smoothed feature (its category or
    interval; each count column), as its type says (``Block.cpt_row``).
    ``m_prior`` is the m-estimate's p (None: 1/K). ``beta_shape`` = (a0, b0) gives the Beta
    prior Beta(s a0, s b0); it acts on binary features (Bernoulli ones with their own positive
    value, e.g. seed 002's Red, SUV, Domestic, and categorical ones with two values, refitted as
    Bernoulli); the other discrete features move with Lidstone l = s along the same path, so a
    zero count of a three-valued feature (tennis' Overcast | No) cannot hold the curve at 0 or 1.
    Columns with their own ``alpha`` in the spec do not move.
    """
    from nbapp.model import NaiveBayes   # the model module imports this package's siblings

    if getattr(model, "target_", None) is None:
        raise DataError("Fit the model first: the path reuses its target and settings.")
    strengths = tuple(float(s) for s in strengths)
    if not strengths or min(strengths) < 0 or not np.all(np.isfinite(strengths)):
        raise DataError("Smoothing strengths must be finite numbers >= 0; give at least one.")
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise DataError(f"Unknown smoothing variant {unknown[0]!r}; choose from {list(VARIANTS)}.")
    blocks = {c: model.block_of(c) for c in model.features_}
    notes: list[str] = []
    variants = tuple(variants)
    binary = _binary_as_bernoulli(model, blocks)
    if "beta" in variants and not any(b.accepts_beta for b in blocks.values()) and not binary:
        variants = tuple(v for v in variants if v != "beta")
        notes.append("The Beta(a, b) prior applies to binary features only, and this model "
                     "has none, so that variant is left out.")
    elif "beta" in variants and binary:
        notes.append(f"For the Beta prior the two-valued categorical columns {list(binary)} are "
                     f"fitted as Bernoulli (a goes to the value named second in sorted order); "
                     f"with a = b this is the same as Lidstone l = a on them.")
    if "beta" in variants and any(b.smoothed and not b.accepts_beta for c, b in blocks.items() if c not in binary):
        notes.append("Along the Beta curve the features that are not binary are smoothed with l = s "
                     "(Beta acts on binary features only).")
    if not variants:
        raise DataError("No smoothing variant left to draw; choose at least one.")
    example = _one_row(row)
    chosen = list(cells) if cells is not None else _default_cells(blocks, example)
    _check_cells(chosen, blocks)
    params = model.params()
    cell_rows: list[dict[str, Any]] = []
    posterior_rows: list[dict[str, Any]] = []
    for variant in variants:
        for s in strengths:
            settings = _settings(params, variant, s, m_prior, beta_shape, binary)
            if settings["features"] == params["features"]:   # only the smoothing moves: re-smooth the counts
                refit = model.with_smoothing(alpha=settings["alpha"], smoothing=settings["smoothing"])
            else:                                             # binary columns refitted as Bernoulli
                refit = NaiveBayes(**settings).fit(df, target=model.target_, weight=model.weight_)
            cell_rows.extend(_cell_values(refit, chosen, variant, s))
            posterior_rows.extend(_posterior_values(refit, example, variant, s))
    return SmoothingPath(cells=pd.DataFrame(cell_rows, columns=_CELL_COLUMNS),
                         posterior=pd.DataFrame(posterior_rows, columns=_POSTERIOR_COLUMNS),
                         strengths=strengths, variants=variants, notes=tuple(notes))


_CELL_COLUMNS = ["variant", "strength", "column", "value", "class", "count", "probability",
                 "zero_count"]
_POSTERIOR_COLUMNS = ["variant", "strength", "class", "posterior", "undetermined", "prediction"]


def _settings(params: dict[str, Any], variant: str, s: float, m_prior: float | None,
              beta_shape: tuple[float, float], binary: dict[str, Any]) -> dict[str, Any]:
    settings = dict(params)
    if variant == "lidstone":
        settings.update(alpha=s, smoothing=None)
    elif variant == "m_estimate":
        settings.update(smoothing=MEstimate(m=s, p=m_prior))
    else:
        settings.update(alpha=s, smoothing=BetaPrior(a=s * beta_shape[0], b=s * beta_shape[1]),
                        features={**settings["features"], **binary})
    return settings


def _binary_as_bernoulli(model: Any, blocks: dict[str, Any]) -> dict[str, Any]:
    """Bernoulli specs for the smoothed categorical features (a Beta prior does not smooth them)
    with exactly two values in training, so the Beta prior (binary features, seed 002) can act
    on them too. This lesson is about binary features, so it names the Bernoulli type."""
    out: dict[str, Any] = {}
    for column, block in blocks.items():
        if block.value_kind != CATEGORY or not block.smoothed or block.accepts_beta:
            continue
        values = sorted(model.counts(column).index, key=str)
        if len(values) == 2:
            out[column] = Bernoulli(positive=values[1], alpha=getattr(model.features_[column], "alpha", None))
    return out


def _one_row(row: Any) -> pd.DataFrame:
    if isinstance(row, pd.DataFrame):
        if len(row) != 1:
            raise DataError(f"Give one test example, not {len(row)} rows.")
        return row
    if isinstance(row, pd.Series):
        return row.to_frame().T
    if isinstance(row, dict):
        return pd.DataFrame([row])
    raise DataError("Give the test example as a dict or a pandas Series.")


def _default_cells(blocks: dict[str, Any], example: pd.DataFrame) -> list[tuple[str, Any]]:
    """The CPT row of the example's own value of each smoothed feature (its category or
    interval; a count column's own row); none for a missing or unseen value."""
    out: list[tuple[str, Any]] = []
    for column, block in blocks.items():
        if not block.smoothed:
            continue
        row = block.cpt_row(column, example[column].iloc[0] if column in example else None)
        if row is not None:
            out.append((column, row))
    return out


def _check_cells(cells: list[tuple[str, Any]], blocks: dict[str, Any]) -> None:
    for column, _ in cells:
        if column not in blocks:
            raise DataError(f"{column!r} is not a feature of the model; choose a cell of one of "
                            f"{list(blocks)}.")
        if not blocks[column].smoothed:
            raise DataError(f"Column {column!r} is {blocks[column].title}: it is not smoothed, so smoothing "
                            "moves none of its cells; choose a cell of a categorical, Bernoulli, count or "
                            "text column.")


def _cell_values(model: Any, cells: list[tuple[str, Any]], variant: str,
                 s: float) -> list[dict[str, Any]]:
    rows = []
    for column, value in cells:                  # a handful of chosen cells
        cpt, counts = model.cpt(column), model.counts(column)
        if value not in cpt.index:
            continue                             # unseen in training: no cell to draw
        for c in model.classes_:
            count = float(counts.at[value, c])
            rows.append({"variant": variant, "strength": s, "column": column, "value": value,
                         "class": c, "count": count, "probability": float(cpt.at[value, c]),
                         "zero_count": count == 0})
    return rows


def _posterior_values(model: Any, example: pd.DataFrame, variant: str,
                      s: float) -> list[dict[str, Any]]:
    proba = model.predict_proba(example).iloc[0]
    undetermined = bool(model.undetermined(example).iloc[0])
    prediction = None if undetermined else proba.idxmax()
    return [{"variant": variant, "strength": s, "class": c, "posterior": float(p),
             "undetermined": undetermined, "prediction": prediction} for c, p in proba.items()]
