"""Gaussian features: per-class normal densities from merged moments.

Statistics (:class:`MomentStats`): per class c and column a, the weighted count n_ca of
observed values, their mean and M2 = sum (x - mean)^2, merged exactly with Chan, Golub and
LeVeque's pairwise formula (:mod:`nbapp._moments`). Parameters are derived:

    mu_ca    = mean                                           [seed 000, Eq. 13]
    var_ca   = M2 / n_ca + eps   (MLE, 1/n_c)                 [seed 000, Eq. 14]
               M2 / (n_ca - 1) + eps   ("unbiased")
               sum_c M2 / sum_c n_ca + eps   ("pooled": shared by the classes; linear NB, Eq. 20)
    eps      = var_smoothing * max_a Var(x_a)                 (scikit-learn's GaussianNB; "global")
    eps_a    = var_smoothing * Var(x_a)                       (``var_smoothing_mode="per_feature"``)

Var(x_a) is the variance of the whole training column, merged from the per-class moments,
so eps is the same after any split of the rows (GaussianNB.partial_fit recomputes it per
batch and drifts). The global eps is set by one column: an ID or a sum of money with a huge
variance makes it larger than the real variances of the other columns and blurs them
(biopsy's ID: eps = 380 against variances near 1-10). :meth:`GaussianBlock.epsilon_report`
names that column and every class variance it exceeds; the per-feature mode scales each
column's eps by its own variance, so one column no longer sets the others' floor.

Zero variance: if every Gaussian column is constant, eps = 0 and a class whose values are
all equal would be a point mass. nbapp then gives that class the smallest variance that
keeps the density finite in float64 (``_POINT_MASS_FLOOR`` times max(1, mu^2)) and says so
in the table and the explanation.

Extremes: (x - mu)^2 / var is computed in extended precision for the rows where float64
overflows, so a value far out in the tails still ranks the classes instead of making every
class impossible; values so small that their variance underflows are refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Literal, Mapping, Sequence, get_args

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.blocks.base import (FAR_VALUE, NUMBER, STANDARDISED, TINY_VARIANCE, Block, NotesTerms, Spec, Stats, frozen,
                               state_matrix, take_classes)
from nbapp._derived import derived
from nbapp.errors import DataError
from nbapp.factor import UNDEFINED, USED, Factor
from nbapp._moments import merge_moments, pooled_moments, shifted_moments, unmerge_moments
from nbapp._numbers import numeric_column, scalar_number
from nbapp._threads import ROW_ALIGN
from nbapp.blocks.base import CARD_SPREAD, CardValues, ParameterCount, number_card

__all__ = ["Gaussian", "MomentStats", "GaussianBlock", "GaussianEpsilon", "class_moments", "column_variance",
           "gaussian_epsilons", "VARIANCES", "VAR_SMOOTHING_MODES"]

# Relative floor for a zero variance: float64's machine epsilon. Below it, (x - mu)^2 / var
# for the nearest representable x would overflow the useful range of the density.
_POINT_MASS_FLOOR = np.finfo(float).eps
_LOG_2PI = np.log(2.0 * np.pi)
_KIND = "Gaussian"
# Rows scored at a time: a block's temporaries (rows x columns) stay in the CPU cache.
_BLOCK_ROWS = ROW_ALIGN
VarianceKind = Literal["mle", "unbiased", "pooled"]
VARIANCES: tuple[str, ...] = get_args(VarianceKind)        # the one list of the variance options
VAR_SMOOTHING_MODES = ("global", "per_feature")


@dataclass(frozen=True)
class GaussianEpsilon:
    """The epsilon added to every Gaussian variance, where it comes from, and what it swamps.

    ``value``: the largest epsilon (the one epsilon of the "global" mode); ``column``: the
    column whose variance set it; ``by_column``: eps_a per Gaussian column; ``swamped``:
    one row per (column, class) whose raw variance is positive but below its epsilon, with
    columns ``column``, ``class``, ``variance``, ``epsilon``; ``notes``: those findings in
    sentences (empty when epsilon is harmless).
    """

    value: float
    column: str | None
    mode: str
    var_smoothing: float
    by_column: pd.Series
    swamped: pd.DataFrame
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Gaussian(Spec):
    """A normal density per class, N(mu_c, var_c)   [seed 000, Eq. 12-14].

    ``variance``: "mle" (1/n_c, Eq. 14), "unbiased" (1/(n_c - 1)) or "pooled" (one
    within-class variance shared by all classes, which makes NB linear, Eq. 20);
    None takes the model's setting.
    """

    kind: ClassVar[str] = "gaussian"
    variance: VarianceKind | None = None

    def __post_init__(self) -> None:
        if self.variance is not None and self.variance not in VARIANCES:
            raise DataError(f"Gaussian variance must be one of {', '.join(VARIANCES)} (or None for the "
                            f"model's setting), not {self.variance!r}.")


@dataclass(frozen=True, eq=False)
class MomentStats(Stats):
    """n, mean and M2 per class (rows) and column."""

    n: np.ndarray
    mean: np.ndarray
    m2: np.ndarray

    def __post_init__(self) -> None:
        for name in ("n", "mean", "m2"):
            object.__setattr__(self, name, frozen(getattr(self, name)))

    def __add__(self, other: "MomentStats") -> "MomentStats":
        return MomentStats(*merge_moments(self.n, self.mean, self.m2, other.n, other.mean, other.m2))

    def __sub__(self, other: "MomentStats") -> "MomentStats":
        return MomentStats(*unmerge_moments(self.n, self.mean, self.m2, other.n, other.mean, other.m2))

    def reindex_classes(self, take: np.ndarray) -> "MomentStats":
        return MomentStats(*(take_classes(m, take, axis=0) for m in (self.n, self.mean, self.m2)))

    def to_state(self) -> dict[str, Any]:
        return {"n": self.n.tolist(), "mean": self.mean.tolist(), "m2": self.m2.tolist()}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "MomentStats":
        shape = (n_classes, columns)
        n = state_matrix(state.get("n"), shape, f"{where}: n")
        mean = state_matrix(state.get("mean"), shape, f"{where}: mean", non_negative=False)
        m2 = state_matrix(state.get("m2"), shape, f"{where}: m2")
        spread_without_rows = np.argwhere((m2 > 0) & (n == 0))
        if len(spread_without_rows):
            c, a = (int(i) for i in spread_without_rows[0])
            raise DataError(f"{where}: n[{c}][{a}] is 0 but m2[{c}][{a}] is {m2[c, a]:g}; a spread needs the rows "
                            "it was measured on.")
        return cls(n, mean, m2)

    def rows_counted(self) -> tuple[str, np.ndarray]:
        return "n", self.n


def class_moments(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int) -> MomentStats:
    """Weighted n, mean and M2 per class of each column of x (NaN = missing), one pass.

    Column by column (x in Fortran order reads each column contiguously): weighted bincounts
    of the class codes, never a rows x columns temporary."""
    d = x.shape[1] if x.ndim == 2 else 0
    n, mean, m2 = (np.zeros((n_classes, d)) for _ in range(3))
    unit = bool((w == 1).all())          # weights of one: w * v is v, skip the products
    class_weight = None
    buffer = np.empty(len(y))
    for a in range(d):
        col = x[:, a]
        missing = np.isnan(col)
        if missing.any():
            col = np.where(missing, 0.0, col)
            wa = np.where(missing, 0.0, w)
            n[:, a] = np.bincount(y, weights=wa, minlength=n_classes)
        else:
            missing, wa = None, w
            if class_weight is None:
                class_weight = np.bincount(y, weights=w, minlength=n_classes)
            n[:, a] = class_weight
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            total = np.bincount(y, weights=col if unit and missing is None else wa * col, minlength=n_classes)
            mean[:, a] = np.where(n[:, a] > 0, total / np.where(n[:, a] > 0, n[:, a], 1.0), 0.0)
            dev2 = np.take(mean[:, a], y, out=buffer)   # one buffer for every column
            np.subtract(col, dev2, out=dev2)              # overflow is refused by the caller
            dev2 *= dev2
            if missing is not None:
                dev2[missing] = 0.0
            if not (unit and missing is None):
                dev2 *= wa
        m2[:, a] = np.bincount(y, weights=dev2, minlength=n_classes)
    return MomentStats(n, mean, m2)


def column_variance(stats: MomentStats) -> np.ndarray:
    """Var(x_a) of each whole training column (1/n), merged from the class moments."""
    n, _, m2 = pooled_moments(stats.n, stats.mean, stats.m2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, m2 / np.where(n > 0, n, 1.0), 0.0)


def gaussian_epsilons(stats: MomentStats, var_smoothing: float, mode: str = "global") -> np.ndarray:
    """eps_a per column, the one rule for the variance floor: var_smoothing * max_a Var(x_a) for
    every column ("global", as scikit-learn's GaussianNB), or var_smoothing * Var(x_a) ("per_feature")."""
    variance = column_variance(stats)
    if mode == "per_feature":
        return var_smoothing * variance
    return np.full(len(variance), var_smoothing * float(variance.max(initial=0.0)))


class GaussianBlock(Block):
    """All Gaussian columns of a model (each column still an independent factor)."""

    kind = "gaussian"
    title = "Gaussian"
    description = "a normal density per class (mean and variance)"
    value_kind = NUMBER
    baseline = STANDARDISED
    density_choice = True
    spec_type = Gaussian
    stats_type = MomentStats
    grouped = True
    smoothed = False

    def __init__(self, columns: Sequence[str], specs: Sequence[Any], settings: Any, stats: MomentStats) -> None:
        super().__init__(columns, specs, settings, stats)
        self.variances = [spec.variance or settings.variance for spec in self.specs]
        self.n, self.mean, self.m2 = stats.n, stats.mean, stats.m2

    @classmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> MomentStats:
        x = _matrix(frame, columns, len(frame))
        stats = class_moments(x, y, w, n_classes)
        _check_finite_moments(stats.m2, columns)
        _check_representable(x, w, stats, columns)
        return stats

    @classmethod
    def aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any) -> list[Any]:
        """Per class and column, in one pass: n = sum of w over the present values, and
        S1 = sum w (x - k), S2 = sum w (x - k)^2 about a shift k near the class mean (its mean
        over the first rows), so that M2 = S2 - S1^2 / n loses no digits to cancellation (a
        second pass about the class means when the first rows' mean was more than a standard
        deviation off); the smallest and largest value of weight > 0, which tell a column whose
        spread underflows from a constant one."""
        aggregates = {}
        w = table.weight
        counted = table.greater(w, table.zero())
        for a, column in enumerate(columns):
            x = table.number(column)
            d = table.deviation(column)
            aggregates.update({f"n{a}": table.sum(table.where(table.present(x), w)), f"s{a}": table.sum(table.times(w, d)),
                               f"q{a}": table.sum(table.times(w, d, d)), f"lo{a}": table.least(table.where(counted, x)),
                               f"hi{a}": table.most(table.where(counted, x))})
        return [table.sums(aggregates)]

    @classmethod
    def from_aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any, results: list[Any],
                        n_classes: int) -> MomentStats:
        """mean = k + S1 / n and M2 = S2 - S1^2 / n per class; compared with the two-pass moments
        of :func:`class_moments` they differ by rounding only (tests/test_engines.py)."""
        answer = results[0]
        n, mean, m2 = (np.zeros((n_classes, len(columns))) for _ in range(3))
        far = {}
        for a, column in enumerate(columns):
            n[:, a] = answer.per_class(f"n{a}")
            mean[:, a], m2[:, a], off = shifted_moments(n[:, a], answer.per_class(f"s{a}"), answer.per_class(f"q{a}"),
                                                        table.shifts(column))
            if off.any():
                far[column] = mean[:, a]
        if far and "shift" not in table.memo:       # once: the second pass is about the class means
            table.memo["shift"] = far
            table.again()
        stats = MomentStats(n, mean, m2)
        _check_finite_moments(stats.m2, columns)
        lo = np.array([np.nanmin(answer.per_class(f"lo{a}"), initial=np.inf) for a in range(len(columns))])
        hi = np.array([np.nanmax(answer.per_class(f"hi{a}"), initial=-np.inf) for a in range(len(columns))])
        _check_spread(columns, pooled_moments(stats.n, stats.mean, stats.m2)[2] == 0, lo, hi)
        return stats

    def check(self) -> None:
        _check_finite_moments(self.m2, self.columns)

    # -- parameters ------------------------------------------------------------------------
    @derived
    def column_variance(self) -> np.ndarray:
        """Var(x_a) of each whole training column (1/n), merged from the class moments."""
        return column_variance(self.stats)

    @derived
    def epsilons(self) -> np.ndarray:
        """eps_a per column (:func:`gaussian_epsilons` under the model's var_smoothing and mode)."""
        return gaussian_epsilons(self.stats, self.settings.var_smoothing, self.settings.var_smoothing_mode)

    def epsilon(self) -> float:
        """The largest epsilon; in the "global" mode the one epsilon of every column."""
        return float(self.epsilons().max(initial=0.0))

    def epsilon_report(self, classes: list[Any]) -> GaussianEpsilon:
        """Which column sets epsilon, its value, and the real class variances it exceeds."""
        eps = self.epsilons()
        column_var = self.column_variance()
        setter = self.columns[int(np.argmax(column_var))] if len(self.columns) and column_var.max() > 0 else None
        raw = self.raw_variance()
        under = (raw > 0) & (raw < eps[None, :]) & self.defined()
        cls, col = np.nonzero(under)
        swamped = pd.DataFrame({"column": [self.columns[a] for a in col],
                                "class": pd.Series([classes[c] for c in cls], dtype=object),
                                "variance": raw[cls, col], "epsilon": eps[col]})
        mode = self.settings.var_smoothing_mode
        notes = _swamp_notes(swamped, setter, float(eps.max(initial=0.0)), mode)
        return GaussianEpsilon(value=float(eps.max(initial=0.0)), column=setter, mode=mode,
                               var_smoothing=self.settings.var_smoothing,
                               by_column=pd.Series(eps, index=pd.Index(self.columns, dtype=object), name="epsilon"),
                               swamped=swamped, notes=notes)

    def raw_variance(self) -> np.ndarray:
        """Variance per class and column before epsilon, by each column's variance option."""
        out = np.zeros(self.m2.shape)
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
        var = self.raw_variance() + self.epsilons()[None, :]
        floor = _POINT_MASS_FLOOR * np.maximum(1.0, self.mean**2)
        return np.where(var > 0, var, floor)

    def defined(self) -> np.ndarray:
        """(classes x columns): a class has a mean only if it observed the column."""
        return self.n > 0

    def log_density(self, x: np.ndarray) -> np.ndarray:
        """log N(x_a; mu_ca, var_ca) for rows x columns -> rows x classes x columns (NaN x -> NaN)."""
        return _to_float(self._extended_log_density(x))

    def _extended_log_density(self, x: np.ndarray) -> np.ndarray:
        var = self.variance()
        z = _squared_z(x[:, None, :], self.mean[None], var[None])
        return -0.5 * (_LOG_2PI + np.log(var))[None] - 0.5 * z

    # -- prediction ------------------------------------------------------------------------
    def _values(self, frame: pd.DataFrame, columns: Sequence[str] | None = None) -> np.ndarray:
        return _matrix(frame, self.columns if columns is None else columns, len(frame))

    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        """sum_a log N(x_a; mu_ca, var_ca) over the observed columns, (x - mu)^2 / var computed
        directly (no expansion into x^2 terms, which would cancel), in blocks of rows that stay
        in cache."""
        usable = self.defined().all(axis=0)
        x = self._values(frame, [c for c, u in zip(self.columns, usable) if u])
        var, mean = self.variance()[:, usable], self.mean[:, usable]
        log_norm = -0.5 * (_LOG_2PI + np.log(var))
        missing = np.isnan(x)
        any_missing = bool(missing.any())
        out = np.empty((len(frame), n_classes))
        far = np.zeros(len(frame), dtype=bool)
        full_norm = log_norm.sum(axis=1)
        buffer = np.empty((min(_BLOCK_ROWS, len(frame)), x.shape[1]), order="F")
        for start in range(0, len(frame), _BLOCK_ROWS):
            rows = slice(start, start + _BLOCK_ROWS)
            xb = x[rows]
            norm = (~missing[rows]).astype(float) @ log_norm.T if any_missing else None
            for c in range(n_classes):    # each step is whole-block numpy
                with np.errstate(over="ignore", invalid="ignore"):
                    z = np.subtract(xb, mean[c], out=buffer[:len(xb)])
                    z *= z
                    z /= var[c]
                if any_missing:
                    np.copyto(z, 0.0, where=missing[rows])
                total = z.sum(axis=1)
                far[rows] |= np.isinf(total)
                total *= -0.5
                total += norm[:, c] if any_missing else full_norm[c]
                out[rows, c] = total
        if far.any():                     # far tails: redo those rows in extended precision
            observed = (~missing[far]).astype(float)
            z = _squared_z(x[far][:, None, :], mean[None], var[None])
            z[np.broadcast_to(missing[far][:, None, :], z.shape)] = 0.0
            out[far] = _representable(observed @ log_norm.T - 0.5 * z.sum(axis=2))
        return out

    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        n_classes = len(classes)
        x = np.array([scalar_number(row.get(col), col, _KIND) for col in self.columns])
        usable = self.defined().all(axis=0)
        log = self._extended_log_density(x[None])[0]
        out = []
        for a, col in enumerate(self.columns):
            value = row.get(col)
            if np.isnan(x[a]):
                out.append(Factor.missing(col, self.kind, value, n_classes))
            elif not usable[a]:
                out.append(Factor.skipped(col, self.kind, value, UNDEFINED, n_classes,
                                          "some class has no observed value of this column, so no mean"))
            elif np.isfinite(log[:, a]).all() and log[:, a].max() < np.finfo(float).min:
                out.append(Factor(col, self.kind, x[a], USED, _to_float(log[:, a] - log[:, a].max()), None,
                                  "density beyond float64's range for every class: shown relative to the "
                                  "most likely class (the posterior is unchanged)"))
            else:
                out.append(Factor(col, self.kind, x[a], USED, _to_float(log[:, a]), None, "density"))
        return out

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The rows' values and a grid over mu_ca +- CARD_SPREAD sigma_ca of the classes that
        observed the column (the block keeps moments, not values)."""
        a = self.columns.index(column)
        observed = self.n[:, a] > 0
        mean, sd = self.mean[observed, a], np.sqrt(self.variance()[observed, a])
        return number_card(numeric_column(seen, column, _KIND), float((mean - CARD_SPREAD * sd).min(initial=np.inf)),
                           float((mean + CARD_SPREAD * sd).max(initial=-np.inf)))

    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """Per column: an "observed" indicator, x and, when the two variances differ, x^2
        (Eq. 20 is the shared-variance case, where the x^2 weight is 0)."""
        mean, var = self.mean, self.variance()
        x = self._values(frame) if len(frame) else np.zeros((0, len(self.columns)))
        names, weights, cols = [], [], []
        for a, col in enumerate(self.columns):
            m0, m1, v0, v1 = mean[0, a], mean[1, a], var[0, a], var[1, a]
            observed = ~np.isnan(x[:, a])
            value = np.where(observed, x[:, a], 0.0)
            names += [f"{col} observed", col]
            weights += [-0.5 * np.log(v1 / v0) - m1**2 / (2 * v1) + m0**2 / (2 * v0), m1 / v1 - m0 / v0]
            cols += [observed.astype(float), value]
            if v0 != v1:
                names.append(f"{col}^2")
                weights.append(-1 / (2 * v1) + 1 / (2 * v0))
                cols.append(value**2)
        matrix = np.column_stack(cols) if cols else np.zeros((len(frame), 0))
        return sparse.csr_matrix(matrix), names, np.array(weights, dtype=float)

    def notes_terms(self, column: str, weights: pd.Series) -> NotesTerms:
        """x (and x^2 when the two variances differ): with a shared variance w_GNB = (mu+ - mu-) / sigma^2,
        and the constant (mu-^2 - mu+^2) / (2 sigma^2) goes into b_GNB   [seed 000, Eq. 20]."""
        names = [column, *([f"{column}^2"] if f"{column}^2" in weights.index else [])]

        def features(frame: pd.DataFrame) -> np.ndarray:
            x = self._values(frame, [column])[:, 0]
            return np.column_stack([x, x**2][:len(names)])

        return NotesTerms({n: float(weights[n]) for n in names}, float(weights[f"{column} observed"]), "GNB", features)

    def density_latex(self, column: str, value: Any, c: int, number: Callable[[float], str]) -> str:
        r"""\mathcal{N}(x;\ \mu=..., \sigma^2=...) with the class's mean and variance (eps included)   [seed 000, Eq. 12]."""
        a, x = self.columns.index(column), scalar_number(value, column, _KIND)
        return (rf"\mathcal{{N}}({number(x)};\ \mu={number(float(self.mean[c, a]))},"
                rf"\ \sigma^2={number(float(self.variance()[c, a]))})")

    def far_value_cause(self, column: str, value: Any, true_class: Any, classes: list[Any]) -> tuple[str, str]:
        """How many standard deviations the value lies from the class's mean, and whether the
        class's variance is tiny (below 1/100 of the median over the classes)."""
        fit = self.parameters(column, classes)
        mean, var = float(fit.at[true_class, "mean"]), float(fit.at[true_class, "var"])
        x = scalar_number(value, column, _KIND)
        z = abs(x - mean) / np.sqrt(var)
        spread = fit["var"].median()
        if var < spread / 100:
            return TINY_VARIANCE, (f"{column!r} has a tiny variance in class {true_class!r} ({var:.3g}, against a "
                                   f"median of {spread:.3g} over the classes), so {x:g} lies {z:,.0f} "
                                   f"standard deviations from its mean {mean:.3g}; a larger var_smoothing "
                                   "or another type for the column helps")
        return FAR_VALUE, (f"{column!r} = {x:g} lies {z:,.1f} standard deviations from class {true_class!r}'s "
                           f"mean {mean:.3g}")

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """Per column 2 C: a mean and a variance per class   [seed 000, Eq. 13-14; Ex. 2.4: 2 d K
        for d columns]; C + 1 where the variance is pooled (one variance shared by the classes).
        Epsilon is a setting, not counted."""
        out = []
        for column, variance in zip(self.columns, self.variances):
            if variance == "pooled":
                out.append(ParameterCount((column,), n_classes + 1, "C + 1", f"{n_classes} + 1",
                                          f"a mean per class (C = {n_classes}) and one variance pooled over the classes"))
            else:
                out.append(ParameterCount((column,), 2 * n_classes, "2 C", f"2 × {n_classes}",
                                          f"a mean and a variance for each of the C = {n_classes} classes"))
        return out

    # -- tables ----------------------------------------------------------------------------
    def parameters(self, column: str, classes: list[Any]) -> pd.DataFrame:
        """Per class: n, mean, var (with eps), std, the raw variance, eps and a note   [seed 000, Eq. 13-14]."""
        a = self.columns.index(column)
        var = self.variance()[:, a]
        raw = self.raw_variance()[:, a]
        eps = float(self.epsilons()[a])
        n = self.n[:, a]
        # one note per class, chosen for all classes at once (a loop was 100,000 steps: issue 31, item 6)
        notes = np.select([n == 0, raw + eps <= 0, (self.variances[a] == "unbiased") & (n <= 1)],
                          ["no observed value in this class: feature left out for every class",
                           "every value equal (variance 0): a point mass, floored to machine precision",
                           "one value: the unbiased variance 0/0 is taken as 0, plus eps"], default="").astype(object)
        return pd.DataFrame(
            {"n": self.n[:, a], "mean": self.mean[:, a], "var": var, "std": np.sqrt(var),
             "var_raw": raw, "epsilon": eps, "note": notes},
            index=pd.Index(classes, name="class", dtype=object),
        )

    def density(self, column: str, x: np.ndarray, classes: list[Any]) -> pd.DataFrame:
        """p(x | c) at the points x, one column per class   [seed 000, Eq. 12]."""
        return self.density_rows(column, x, classes, slice(None))

    def density_rows(self, column: str, x: np.ndarray, classes: pd.Index, rows: Any) -> pd.DataFrame:
        """:meth:`density` of the classes at positions ``rows`` of ``classes`` alone, and of
        ``column`` alone: a chart of the 50 most probable of 100,000 classes computes 50 curves
        (issue 31, item 6). Each cell is computed as :meth:`log_density` computes it."""
        a = self.columns.index(column)
        var, mean = self.variance()[rows, a], self.mean[rows, a]
        z = _squared_z(np.asarray(x, dtype=float)[:, None], mean[None], var[None])
        with np.errstate(under="ignore"):
            density = np.exp(_to_float(-0.5 * (_LOG_2PI + np.log(var))[None] - 0.5 * z))
        return pd.DataFrame(density, columns=pd.Index(classes, dtype=object)[rows])

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        """The mean of the fitted mixture: class means weighted by P(c) over classes that saw it."""
        a = self.columns.index(column)
        weights = prior * (self.n[:, a] > 0)
        return float(np.dot(weights, self.mean[:, a]) / weights.sum()) if weights.sum() > 0 else 0.0

    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        std = np.sqrt(self.variance())
        return {col: rng.normal(self.mean[y, a], std[y, a]) for a, col in enumerate(self.columns)}


def _swamp_notes(swamped: pd.DataFrame, setter: str | None, eps: float, mode: str) -> tuple[str, ...]:
    """Sentences for the Model page: epsilon is larger than real variances it is added to."""
    if swamped.empty:
        return ()
    first = swamped.iloc[int(np.argmin(swamped["variance"].to_numpy() / swamped["epsilon"].to_numpy()))]
    others = f" and {len(swamped) - 1:,} other class variance(s)" if len(swamped) > 1 else ""
    if mode == "per_feature":
        return (f"epsilon of {first['column']!r} ({first['epsilon']:.3g}) exceeds the variance of that column in "
                f"class {first['class']!r} ({first['variance']:.3g}){others}: lower var_smoothing.",)
    return (f"epsilon = {eps:.3g}, set by column {setter!r} (var_smoothing times its variance), is larger than "
            f"the variance of {first['column']!r} in class {first['class']!r} ({first['variance']:.3g}){others}: "
            f"it blurs those classes' differences. Ignore {setter!r} if it is an identifier, or use a per-feature "
            "epsilon (var_smoothing_mode=\"per_feature\"), or lower var_smoothing.",)


def _matrix(frame: pd.DataFrame, columns: Sequence[str], n_rows: int) -> np.ndarray:
    """The columns as a rows x columns float64 matrix in Fortran order (each column contiguous);
    a column the frame lacks is all missing."""
    x = np.empty((n_rows, len(columns)), order="F")
    for a, c in enumerate(columns):
        x[:, a] = numeric_column(frame[c], c, _KIND) if c in frame else np.nan
    return x


def _squared_z(x: np.ndarray, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """(x - mu)^2 / var in extended precision, so far tails do not overflow to inf."""
    with np.errstate(invalid="ignore"):
        z = (np.asarray(x, dtype=np.longdouble) - mean) / np.sqrt(np.asarray(var, dtype=np.longdouble))
        return z * z


def _representable(joint: np.ndarray) -> np.ndarray:
    """Rows x classes log-likelihoods as float64. A row whose best class lies beyond float64's
    range (a value astronomically far out for every class) is shifted by its best class's
    log-likelihood: P(c | x) is unchanged, and the classes are still ranked instead of all
    becoming impossible (the row's joint and evidence are then relative to that class)."""
    best = joint.max(axis=1, initial=-np.inf) if joint.size else np.zeros(len(joint))
    beyond = np.isfinite(best) & (best < np.finfo(float).min)
    if beyond.any():
        joint = joint.copy()
        joint[beyond] -= best[beyond, None]
    return _to_float(joint)


def _to_float(values: np.ndarray) -> np.ndarray:
    """Back to float64; a log beyond float64's range becomes -inf (the class is impossible there)."""
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=float)


def _check_finite_moments(m2: np.ndarray, columns: Sequence[str]) -> None:
    bad = ~np.isfinite(m2).all(axis=0)
    if bad.any():
        column = columns[int(np.flatnonzero(bad)[0])]
        raise DataError(f"Column {column!r} holds values so large (beyond about 1e154), or weights so large, "
                        "that their variance overflows; rescale the column (e.g. divide by a power of ten) "
                        "or type it categorical.")


def _check_representable(x: np.ndarray, w: np.ndarray, stats: MomentStats, columns: Sequence[str]) -> None:
    """Values that differ (among rows of weight > 0) but whose squared deviations underflow to 0
    (|x| below about 1e-154). Only a column whose pooled M2 is 0 can be such a column."""
    zero = pooled_moments(stats.n, stats.mean, stats.m2)[2] == 0
    if not zero.any():
        return
    x = np.where((w > 0)[:, None], x[:, zero], np.nan)     # rows that count
    hi = np.full(len(columns), -np.inf)
    lo = np.full(len(columns), np.inf)
    hi[zero] = np.where(np.isnan(x), -np.inf, x).max(axis=0, initial=-np.inf)
    lo[zero] = np.where(np.isnan(x), np.inf, x).min(axis=0, initial=np.inf)
    _check_spread(columns, zero, lo, hi)


def _check_spread(columns: Sequence[str], zero: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
    """Refuse a column whose pooled M2 is 0 although its values (of weight > 0) span lo..hi."""
    spread = np.where(zero & (hi > lo), hi - lo, 0.0)
    lost = spread > 0
    if lost.any():
        a = int(np.flatnonzero(lost)[0])
        raise DataError(f"Column {columns[a]!r} holds values so small (around {spread[a]:.1e}) that their "
                        "variance underflows to 0; rescale the column (e.g. multiply by a power of ten).")
