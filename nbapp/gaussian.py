"""Gaussian features: per-class normal densities from merged moments.

Fitting keeps, per class c and column a, the weighted count n_ca of observed values,
their mean and M2 = sum (x - mean)^2. Parameters are derived:

    mu_ca    = mean                                           [seed 000, Eq. 13]
    var_ca   = M2 / n_ca + eps   (MLE, 1/n_c)                 [seed 000, Eq. 14]
               M2 / (n_ca - 1) + eps   ("unbiased")
               sum_c M2 / sum_c n_ca + eps   ("pooled": shared by the classes; linear NB, Eq. 20)
    eps      = var_smoothing * max_a Var(x_a)                 (scikit-learn's GaussianNB)

Var(x_a) is the variance of the whole training column, merged from the per-class moments,
so eps is the same after any split of the rows (GaussianNB.partial_fit recomputes it
per batch and drifts).

Zero variance: if every Gaussian column is constant, eps = 0 and a class whose values are
all equal would be a point mass. nbapp then gives that class the smallest variance that
keeps the density finite in float64 (``_POINT_MASS_FLOOR`` times max(1, mu^2)) and says so
in :meth:`GaussianBlock.table` and the explanation.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.derived import derived, invalidate
from nbapp.errors import DataError
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp.moments import merge_moments, pooled_moments

__all__ = ["GaussianBlock", "numeric_column", "scalar_number"]

# Relative floor for a zero variance: float64's machine epsilon. Below it, (x - mu)^2 / var
# for the nearest representable x would overflow the useful range of the density.
_POINT_MASS_FLOOR = np.finfo(float).eps
_LOG_2PI = np.log(2.0 * np.pi)


class GaussianBlock:
    """All Gaussian columns of a model (each column still an independent factor)."""

    kind = "gaussian"

    def __init__(self, columns: list[str], variances: list[str], var_smoothing: float) -> None:
        self.columns = list(columns)
        self.variances = list(variances)
        self.var_smoothing = float(var_smoothing)
        d = len(self.columns)
        self.n = np.zeros((0, d))
        self.mean = np.zeros((0, d))
        self.m2 = np.zeros((0, d))

    # -- fitting ---------------------------------------------------------------------------
    def accumulate(self, frame: pd.DataFrame, y: np.ndarray, w: np.ndarray, n_classes: int) -> None:
        invalidate(self)
        x = np.column_stack([numeric_column(frame[col], col, "Gaussian") for col in self.columns])
        observed = ~np.isnan(x)
        x0 = np.where(observed, x, 0.0)
        onehot = sparse.csr_matrix((w, (np.arange(len(y)), y)), shape=(len(y), n_classes))
        n = np.asarray(onehot.T @ observed.astype(float))
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(n > 0, np.asarray(onehot.T @ x0) / np.where(n > 0, n, 1.0), 0.0)
        with np.errstate(over="ignore", invalid="ignore"):   # overflow is refused just below
            dev2 = np.where(observed, (x0 - mean[y]) ** 2, 0.0)
        m2 = np.asarray(onehot.T @ dev2)
        merged = merge_moments(self.n, self.mean, self.m2, n, mean, m2)
        _check_finite_moments(merged[2], self.columns)
        self.n, self.mean, self.m2 = merged

    def expand_classes(self, take: np.ndarray) -> None:
        invalidate(self)
        keep = take >= 0
        for name in ("n", "mean", "m2"):
            grown = np.zeros((len(take), len(self.columns)))
            grown[keep] = getattr(self, name)[take[keep]]
            setattr(self, name, grown)

    # -- parameters ------------------------------------------------------------------------
    @derived
    def epsilon(self) -> float:
        """var_smoothing times the largest variance of any Gaussian column (as GaussianNB)."""
        n, _, m2 = pooled_moments(self.n, self.mean, self.m2)
        with np.errstate(invalid="ignore", divide="ignore"):
            column_var = np.where(n > 0, m2 / np.where(n > 0, n, 1.0), 0.0)
        return self.var_smoothing * float(column_var.max(initial=0.0))

    def raw_variance(self) -> np.ndarray:
        """Variance per class and column before epsilon, by each column's variance option."""
        out = np.zeros_like(self.m2)
        for a, kind in enumerate(self.variances):
            n, m2 = self.n[:, a], self.m2[:, a]
            with np.errstate(invalid="ignore", divide="ignore"):
                if kind == "pooled":
                    out[:, a] = m2.sum() / n.sum() if n.sum() > 0 else 0.0
                elif kind == "unbiased":
                    out[:, a] = np.where(n > 1, m2 / np.where(n > 1, n - 1, 1.0), 0.0)
                else:
                    out[:, a] = np.where(n > 0, m2 / np.where(n > 0, n, 1.0), 0.0)
        return out

    @derived
    def variance(self) -> np.ndarray:
        """var_ca = raw variance + eps, floored where it would be 0 (a point mass)."""
        var = self.raw_variance() + self.epsilon()
        floor = _POINT_MASS_FLOOR * np.maximum(1.0, self.mean**2)
        return np.where(var > 0, var, floor)

    def defined(self) -> np.ndarray:
        """(classes x columns): a class has a mean only if it observed the column."""
        return self.n > 0

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """log N(x_a; mu_ca, var_ca) for rows x columns -> rows x classes x columns (NaN x -> NaN)."""
        var = self.variance()
        with np.errstate(over="ignore", invalid="ignore"):
            return -0.5 * (_LOG_2PI + np.log(var))[None] - 0.5 * (x[:, None, :] - self.mean[None]) ** 2 / var[None]

    # -- prediction ------------------------------------------------------------------------
    def _values(self, frame: pd.DataFrame) -> np.ndarray:
        cols = [numeric_column(frame[c], c, "Gaussian") if c in frame else np.full(len(frame), np.nan)
                for c in self.columns]
        return np.column_stack(cols) if cols else np.zeros((len(frame), 0))

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        usable = self.defined().all(axis=0)
        x = self._values(frame)[:, usable]
        var, mean = self.variance()[:, usable], self.mean[:, usable]
        log_norm = -0.5 * (_LOG_2PI + np.log(var))
        missing = np.isnan(x)
        observed = (~missing).astype(float)
        out = np.empty((len(frame), n_classes))
        for c in range(n_classes):        # a loop over classes; each step is whole-column numpy
            with np.errstate(over="ignore", invalid="ignore"):
                z = x - mean[c]
                z *= z
                z /= var[c]
            np.copyto(z, 0.0, where=missing)
            out[:, c] = observed @ log_norm[c] - 0.5 * z.sum(axis=1)
        return out

    def factors(self, row: Mapping[str, Any], n_classes: int) -> list[Factor]:
        x = np.array([scalar_number(row.get(col), col, "Gaussian") for col in self.columns])
        usable = self.defined().all(axis=0)
        log = self.log_density(x[None])[0]
        out = []
        for a, col in enumerate(self.columns):
            value = row.get(col)
            if np.isnan(x[a]):
                out.append(Factor.missing(col, self.kind, value, n_classes))
            elif not usable[a]:
                out.append(Factor.skipped(col, self.kind, value, UNDEFINED, n_classes,
                                          "some class has no observed value of this column, so no mean"))
            else:
                out.append(Factor(col, self.kind, x[a], USED, log[:, a], None, "density"))
        return out

    # -- tables ----------------------------------------------------------------------------
    def table(self, column: str, classes: list[Any]) -> pd.DataFrame:
        a = self.columns.index(column)
        var = self.variance()[:, a]
        raw = self.raw_variance()[:, a]
        eps = self.epsilon()
        notes = []
        for c in range(len(classes)):
            if self.n[c, a] == 0:
                notes.append("no observed value in this class: feature left out for every class")
            elif raw[c] + eps <= 0:
                notes.append("every value equal (variance 0): a point mass, floored to machine precision")
            elif self.variances[a] == "unbiased" and self.n[c, a] <= 1:
                notes.append("one value: the unbiased variance 0/0 is taken as 0, plus eps")
            else:
                notes.append("")
        return pd.DataFrame(
            {"n": self.n[:, a], "mean": self.mean[:, a], "var": var, "std": np.sqrt(var),
             "var_raw": raw, "epsilon": eps, "note": notes},
            index=pd.Index(classes, name="class"),
        )

    # -- sampling and persistence ----------------------------------------------------------
    def sample(self, y: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
        std = np.sqrt(self.variance())
        return {col: rng.normal(self.mean[y, a], std[y, a]) for a, col in enumerate(self.columns)}

    def state(self) -> dict[str, Any]:
        return {"n": self.n.tolist(), "mean": self.mean.tolist(), "m2": self.m2.tolist()}

    def load_state(self, state: dict[str, Any], n_classes: int) -> None:
        invalidate(self)
        shape = (n_classes, len(self.columns))
        for name in ("n", "mean", "m2"):
            m = np.asarray(state[name], dtype=float)
            if m.shape != shape or not np.isfinite(m).all():
                raise DataError(f"The model file's Gaussian {name} table is malformed.")
            setattr(self, name, m)


def _check_finite_moments(m2: np.ndarray, columns: list[str]) -> None:
    bad = ~np.isfinite(m2).all(axis=0)
    if bad.any():
        column = columns[int(np.flatnonzero(bad)[0])]
        raise DataError(f"Column {column!r} holds values so large (beyond about 1e154) that their variance "
                        "overflows; rescale the column (e.g. divide by a power of ten) or type it categorical.")


def scalar_number(value: Any, column: str, kind: str) -> float:
    """One value as a float (NaN when missing), refused like :func:`numeric_column` refuses a column."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return np.nan
    if isinstance(value, str) and not value.strip():
        return np.nan
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise DataError(f"Column {column!r} is {kind} but the value is {value!r}, which is not a number.") from None
    if np.isinf(x):
        raise DataError(f"Column {column!r} is {kind} but the value is {value!r} (infinite); use a finite number.")
    return x


def numeric_column(series: pd.Series, column: str, kind: str) -> np.ndarray:
    """A column as float64, NaN for missing; text or infinite values are refused by name."""
    if pd.api.types.is_bool_dtype(series):
        series = series.astype(float)
    values = pd.to_numeric(series, errors="coerce")
    bad = values.isna() & series.notna()
    if bad.any():
        first = series[bad]
        rows = ", ".join(str(r) for r in first.index[:3])
        raise DataError(
            f"Column {column!r} is {kind} but row {rows} holds {first.iloc[0]!r}, which is not a number; "
            f"clean the column or type it categorical."
        )
    x = values.to_numpy(dtype=float, na_value=np.nan)
    inf = np.isinf(x)
    if inf.any():
        row = series.index[np.flatnonzero(inf)[0]]
        raise DataError(f"Column {column!r} is {kind} but row {row} holds {series[row]!r} (infinite); "
                        "remove or cap that value.")
    return x

