"""Gaussian class-conditional models with and without the naive assumption.

Naive Bayes models each Gaussian feature on its own (a diagonal covariance per class,
seed 000 Eq. 13-14). Without the naive assumption the class-conditional likelihood is one
multivariate normal per class (seed 000 Eq. 15-16):

    mu_c    = 1/n_c sum_i I(y_i = c) x_i                             [seed 000, Eq. 15]
    Sigma_c = 1/n_c sum_i I(y_i = c) (x_i - mu_c)(x_i - mu_c)^T      [seed 000, Eq. 16]

This module fits both on chosen numeric columns so the two can be compared side by side
(seed 000, Fig. 2), counts their parameters (seed 000, exercise 2.4), and evaluates their
densities and posteriors on a grid for contour and decision-boundary plots. A third
variant, one diagonal covariance shared by every class, is the condition of seed 000
Eq. 20 under which Gaussian Naive Bayes is a linear classifier.

As in scikit-learn's GaussianNB (and nbapp's Gaussian features), every variance gets the
epsilon ``var_smoothing * (largest variance of any chosen column)`` added, so the naive
variant gives exactly the Gaussian Naive Bayes posterior.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from nbapp.blocks.gaussian import class_moments, gaussian_epsilons
from nbapp.errors import DataError
from nbapp.numbers import numeric_column
from nbapp.ordering import classes_of, python_scalar
from nbapp.logspace import normalise_log
from nbapp.priors import check_priors, class_prior

__all__ = [
    "favoured_class",
    "GaussianClassModel",
    "DensityGrid",
    "ParameterCount",
    "fit_gaussian_classes",
    "density_grid",
    "parameter_count",
    "parameter_breakdown",
    "DuplicationEffect",
    "duplicate_feature_effect",
]

Covariance = Literal["full", "diagonal", "shared"]
_COVARIANCES = ("full", "diagonal", "shared")
_LOG_2PI = float(np.log(2.0 * np.pi))


@dataclass(frozen=True)
class ParameterCount:
    """The parameters of a Gaussian class-conditional model for d features and K classes.

    means = d K (one mean vector per class, Eq. 13 / 15).
    naive: variances = d K (one variance per feature and class, Eq. 14).
    full:  covariances = K d (d + 1) / 2 (a symmetric d x d matrix per class, Eq. 16).
    priors = K - 1 free class priors (they sum to one).
    """

    d: int
    K: int
    naive: bool
    means: int
    covariances: int
    priors: int

    @property
    def likelihood(self) -> int:
        """Parameters of the Gaussian likelihood p(x | y): what exercise 2.4 asks for."""
        return self.means + self.covariances

    @property
    def total(self) -> int:
        """Likelihood parameters plus the K - 1 free class priors."""
        return self.likelihood + self.priors


def parameter_breakdown(d: int, K: int, naive: bool) -> ParameterCount:
    """Both terms of the parameter count of seed 000, exercise 2.4, kept apart.

    naive:  2 d K               (d K means + d K variances)
    full:   d K + K d (d+1)/2   (d K means + K symmetric covariance matrices)
    priors: K - 1               (reported separately, see :func:`parameter_count`)

    For d = 10, K = 3: naive 60, full 195; with the priors 62 and 197.
    """
    if isinstance(d, bool) or isinstance(K, bool) or int(d) != d or int(K) != K:
        raise DataError(f"d and K must be whole numbers, got d={d!r} and K={K!r}.")
    d, K = int(d), int(K)
    if d < 1 or K < 1:
        raise DataError(f"Need at least one feature and one class, got d={d} and K={K}.")
    covariances = d * K if naive else K * d * (d + 1) // 2
    return ParameterCount(d=d, K=K, naive=bool(naive), means=d * K, covariances=covariances,
                          priors=K - 1)


def parameter_count(d: int, K: int, naive: bool, *, include_priors: bool = False) -> int:
    """Number of parameters of the Gaussian likelihood for d features and K classes.

    Exercise 2.4 of seed 000 asks for the parameters "of a Naive Bayes model using the
    Gaussian likelihood" and its reminder lists only mu_c and Sigma_c, so by default the
    class priors are NOT counted:

        naive (with the assumption):    d K + d K           = 2 d K
        full  (without the assumption): d K + K d (d + 1)/2

    With ``include_priors=True`` the K - 1 free class priors pi_c are added (they sum to
    one). For d = 10, K = 3 this gives 60 and 195, or 62 and 197 with the priors.
    """
    breakdown = parameter_breakdown(d, K, naive)
    return breakdown.total if include_priors else breakdown.likelihood


@dataclass(frozen=True)
class GaussianClassModel:
    """A fitted Gaussian class-conditional model: log p(x | c) = log N(x; mu_c, Sigma_c).

    ``covariance`` says which Sigma_c: "full" (seed 000 Eq. 16, no naive assumption),
    "diagonal" (Eq. 14, Gaussian Naive Bayes) or "shared" (one diagonal for every class,
    the condition of Eq. 20 that makes the decision boundary linear).
    """

    columns: tuple[str, ...]
    target: str
    classes: tuple
    covariance: str
    priors: pd.Series            # P(c), index = classes
    class_counts: pd.Series      # n_c, index = classes
    means: pd.DataFrame          # mu_c: index = classes, columns = columns
    sigma: np.ndarray            # (K, d, d) covariance matrices, epsilon included
    epsilon: float               # var_smoothing * largest column variance
    bounds: pd.DataFrame         # index "min"/"max", columns = columns (training data)
    n_rows_dropped: int          # training rows skipped for a missing value

    def covariance_matrix(self, cls: object) -> pd.DataFrame:
        """Sigma_c of one class as a labelled d x d table."""
        k = self._class_index(cls)
        return pd.DataFrame(self.sigma[k], index=list(self.columns), columns=list(self.columns))

    def correlation(self, cls: object) -> pd.DataFrame:
        """The correlation matrix of class c (zero off the diagonal unless full)."""
        sigma = self.sigma[self._class_index(cls)]
        sd = np.sqrt(np.diag(sigma))
        return pd.DataFrame(sigma / np.outer(sd, sd), index=list(self.columns),
                            columns=list(self.columns))

    def parameter_count(self, *, include_priors: bool = False) -> int:
        """Parameters this model estimated (exercise 2.4; "shared" counts d variances)."""
        d, K = len(self.columns), len(self.classes)
        if self.covariance == "shared":
            return d * K + d + (K - 1 if include_priors else 0)
        return parameter_count(d, K, self.covariance == "diagonal",
                               include_priors=include_priors)

    def log_likelihood(self, df: pd.DataFrame) -> pd.DataFrame:
        """log p(x | c) per row and class. Missing values are marginalised out (the
        marginal of a Gaussian on the observed columns is Gaussian), the multivariate
        analogue of skipping missing features (seed 000, Eq. 22)."""
        X = _numeric_matrix(df, self.columns)
        out = np.zeros((len(X), len(self.classes)))
        observed = ~np.isnan(X)
        patterns, inverse = np.unique(observed, axis=0, return_inverse=True)
        for p, pattern in enumerate(patterns):   # one pass per missing-value pattern
            rows = np.flatnonzero(inverse.ravel() == p)
            if pattern.any():
                out[rows] = _mvn_logpdf(X[np.ix_(rows, pattern)], self.means.to_numpy()[:, pattern],
                                        self.sigma[:, pattern][:, :, pattern])
        return pd.DataFrame(out, index=df.index, columns=list(self.classes))

    def joint_log(self, df: pd.DataFrame) -> pd.DataFrame:
        """log P(c) + log p(x | c) per row and class (the numerator of Bayes' rule)."""
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.priors.to_numpy())
        return self.log_likelihood(df) + log_prior

    def predict_log_proba(self, df: pd.DataFrame) -> pd.DataFrame:
        """log P(c | x) = joint log - log P(x), normalised by nbapp's one function,
        :func:`nbapp.logspace.normalise_log` (as NaiveBayes): a row every class rules out
        (all densities underflow far from the data) gets the prior, not NaN."""
        joint = self.joint_log(df)
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.priors.to_numpy(dtype=float))
        log_posterior, _, _ = normalise_log(joint.to_numpy(), log_prior)
        return pd.DataFrame(log_posterior, index=joint.index, columns=joint.columns)

    def predict_proba(self, df: pd.DataFrame) -> pd.DataFrame:
        """P(c | x) per row and class; rows sum to one."""
        return np.exp(self.predict_log_proba(df))

    def predict(self, df: pd.DataFrame) -> pd.Series:
        """The class with the largest posterior per row."""
        joint = self.joint_log(df).to_numpy()
        labels = np.asarray(self.classes, dtype=object)[joint.argmax(axis=1)]
        return pd.Series(labels, index=df.index, name=self.target)

    def marginal(self, columns: Sequence[str]) -> GaussianClassModel:
        """The same model restricted to some of its columns (a Gaussian's marginal)."""
        idx = [self._column_index(c) for c in columns]
        return GaussianClassModel(
            columns=tuple(columns), target=self.target, classes=self.classes,
            covariance=self.covariance, priors=self.priors, class_counts=self.class_counts,
            means=self.means[list(columns)], sigma=self.sigma[:, idx][:, :, idx],
            epsilon=self.epsilon, bounds=self.bounds[list(columns)],
            n_rows_dropped=self.n_rows_dropped)

    def _class_index(self, cls: object) -> int:
        try:
            return self.classes.index(cls)
        except ValueError:
            raise DataError(f"Class {cls!r} is not one of {list(self.classes)}.") from None

    def _column_index(self, column: str) -> int:
        try:
            return self.columns.index(column)
        except ValueError:
            raise DataError(f"Column {column!r} is not in this model; it has "
                            f"{list(self.columns)}.") from None


def fit_gaussian_classes(df: pd.DataFrame, columns: Sequence[str], target: str, *,
                         covariance: Covariance = "full",
                         priors: str | Mapping[object, float] = "empirical",
                         var_smoothing: float = 1e-9) -> GaussianClassModel:
    """Fit one Gaussian per class on ``columns`` (seed 000 Eq. 15-16, or 13-14 if naive).

    Rows with a missing value in the target or any chosen column are skipped (counted in
    ``n_rows_dropped``). ``priors`` is "empirical" (n_c / n), "uniform", or a mapping
    class -> probability. A full covariance needs more rows than columns in every class,
    otherwise Sigma_c is singular and the density undefined.
    """
    columns = tuple(columns)
    _check_fit_arguments(df, columns, target, covariance, var_smoothing)
    X_all = _numeric_matrix(df, columns)
    y_all = df[target]
    keep = ~np.isnan(X_all).any(axis=1) & y_all.notna().to_numpy()
    X, y = X_all[keep], y_all[keep]
    classes = tuple(classes_of(y))
    if len(classes) < 2:
        raise DataError(f"Target {target!r} needs at least two classes in the rows with all "
                        f"of {list(columns)} present; found {list(classes)}.")
    codes = pd.Index(classes, dtype=object).get_indexer(pd.Index([python_scalar(v) for v in y], dtype=object))
    # The class fit of the naive model's Gaussian block (n_c and the means, Eq. 13 / 15), and its epsilon
    moments = class_moments(X, codes, np.ones(len(codes)), len(classes))
    n_c, means = moments.n[:, 0], moments.mean
    onehot = np.eye(len(classes))[codes]                     # (n, K)
    centred = X - means[codes]
    sigma = np.einsum("nk,ni,nj->kij", onehot, centred, centred) / n_c[:, None, None]  # Eq. 16
    epsilon = float(gaussian_epsilons(moments, var_smoothing).max())       # the naive model's own rule
    if covariance == "full":
        _check_full_rank(sigma, n_c, classes, columns)
    sigma = _restrict(sigma, covariance, n_c) + epsilon * np.eye(len(columns))
    return GaussianClassModel(
        columns=columns, target=target, classes=classes, covariance=covariance,
        priors=_class_priors(priors, classes, n_c),
        class_counts=pd.Series(n_c.astype(int), index=list(classes), name="n_c"),
        means=pd.DataFrame(means, index=list(classes), columns=list(columns)),
        sigma=sigma, epsilon=epsilon,
        bounds=pd.DataFrame([X.min(axis=0), X.max(axis=0)], index=["min", "max"],
                            columns=list(columns)),
        n_rows_dropped=int((~keep).sum()))


@dataclass(frozen=True)
class DensityGrid:
    """Densities and posteriors of a two-column model on a regular grid (for contours).

    Arrays are indexed [class, y, x] so ``density[k]`` is a plotly contour ``z``.
    """

    x_column: str
    y_column: str
    x: np.ndarray              # (nx,) grid values of the x column
    y: np.ndarray              # (ny,) grid values of the y column
    classes: tuple
    log_density: np.ndarray    # (K, ny, nx) log p(x | c)
    posterior: np.ndarray      # (K, ny, nx) P(c | x)

    @property
    def density(self) -> np.ndarray:
        """p(x | c) on the grid, (K, ny, nx)."""
        return np.exp(self.log_density)

    @property
    def predicted(self) -> np.ndarray:
        """Index into ``classes`` of the most probable class, (ny, nx): its level changes
        trace the decision boundary."""
        return self.posterior.argmax(axis=0)


def density_grid(model: GaussianClassModel, x_column: str, y_column: str, *,
                 points: int = 80, margin: float = 0.15,
                 x_range: tuple[float, float] | None = None,
                 y_range: tuple[float, float] | None = None) -> DensityGrid:
    """Evaluate the model, restricted to two of its columns, on a points x points grid.

    The range defaults to the training data's range widened by ``margin`` of its width on
    each side. Columns other than the two are marginalised out, so the contours are those
    of the 2-D marginal p(x_col, y_col | c).
    """
    if x_column == y_column:
        raise DataError(f"Choose two different columns for the grid, not {x_column!r} twice.")
    if points < 2:
        raise DataError(f"The grid needs at least 2 points per axis, got {points}.")
    sub = model.marginal([x_column, y_column])
    xs = _axis(sub.bounds[x_column], x_range, margin, points)
    ys = _axis(sub.bounds[y_column], y_range, margin, points)
    gx, gy = np.meshgrid(xs, ys)
    grid = pd.DataFrame({x_column: gx.ravel(), y_column: gy.ravel()})
    log_density = sub.log_likelihood(grid).to_numpy().T.reshape(len(sub.classes), len(ys), len(xs))
    posterior = sub.predict_proba(grid).to_numpy().T.reshape(log_density.shape)
    return DensityGrid(x_column=x_column, y_column=y_column, x=xs, y=ys, classes=sub.classes,
                       log_density=log_density, posterior=posterior)


@dataclass(frozen=True)
class DuplicationEffect:
    """What copying one feature k times does to Naive Bayes (seed 003: correlated features
    "say the same thing" and push the posterior towards 0 or 1).

    ``posterior``: index = number of extra copies, columns = classes, the test example's
    posterior. ``mean_confidence``: the mean largest posterior over the data's rows, per
    number of copies. ``accuracy``: share of the data's rows predicted right (on the
    training rows, so it shows overconfidence, not generalisation).
    """

    column: str
    posterior: pd.DataFrame
    mean_confidence: pd.Series
    accuracy: pd.Series


def favoured_class(model: Any, row: Mapping[str, Any] | pd.Series, column: str) -> Any:
    """The class whose factor P(x_a | c) is largest for this feature of this example: each copy
    of the feature multiplies the posterior odds towards it again (seed 003: overconfidence).
    None if the feature is not used for the example (missing, unseen) or favours no class."""
    e = model.explain(dict(row))
    if column not in e.used:
        return None
    logs = e.logs.loc[column].astype(float)
    if logs.max() == logs.min():
        return None
    return logs.idxmax()


def duplicate_feature_effect(model: Any, df: pd.DataFrame, row: Mapping[str, Any] | pd.Series,
                             column: str, *, copies: Sequence[int] = (0, 1, 2, 3, 5)
                             ) -> DuplicationEffect:
    """Refit ``model``'s settings with ``column`` repeated 0, 1, 2, ... extra times.

    Each copy enters the product once more, so its log-likelihood ratio counts k + 1
    times: the naive assumption treats the copies as independent evidence although they
    carry no new information. (The full-covariance model has no such problem: a copy makes
    Sigma_c singular, i.e. it is recognised as redundant.)
    """
    from nbapp.model import NaiveBayes   # the model module imports this package's siblings

    if getattr(model, "target_", None) is None:
        raise DataError("Fit the model first: the copies reuse its target and settings.")
    if column not in model.features_:
        raise DataError(f"{column!r} is not a feature of the model; choose one of "
                        f"{list(model.features_)}.")
    counts = sorted({int(k) for k in copies})
    if not counts or counts[0] < 0:
        raise DataError(f"Copies must be whole numbers >= 0, got {list(copies)}.")
    example = pd.DataFrame([dict(row)]) if not isinstance(row, pd.Series) else row.to_frame().T
    params = model.params()
    posteriors, confidence, accuracy = {}, {}, {}
    for k in counts:                              # one refit per number of copies
        names = [f"{column} (copy {i})" for i in range(1, k + 1)]
        features = {**params["features"], **{n: params["features"][column] for n in names}}
        data = df.assign(**{n: df[column] for n in names})
        refit = NaiveBayes(**{**params, "features": features})
        refit.fit(data, target=model.target_, weight=model.weight_)
        posteriors[k] = refit.predict_proba(example.assign(**{n: example[column] for n in names})).iloc[0]
        proba = refit.predict_proba(data)
        confidence[k] = float(proba.max(axis=1).mean())
        accuracy[k] = float((refit.predict(data) == data[model.target_]).mean())
    index = pd.Index(counts, name="copies")
    return DuplicationEffect(
        column=column, posterior=pd.DataFrame(posteriors).T.set_axis(index),
        mean_confidence=pd.Series(confidence, name="mean_confidence").set_axis(index),
        accuracy=pd.Series(accuracy, name="accuracy").set_axis(index))


def _axis(bounds: pd.Series, given: tuple[float, float] | None, margin: float,
          points: int) -> np.ndarray:
    if given is not None:
        return np.linspace(float(given[0]), float(given[1]), points)
    lo, hi = float(bounds["min"]), float(bounds["max"])
    pad = margin * (hi - lo) if hi > lo else 1.0   # a constant column still gets a visible span
    return np.linspace(lo - pad, hi + pad, points)


def _mvn_logpdf(X: np.ndarray, means: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """log N(x; mu_k, Sigma_k) for every row and class via Cholesky factors, (n, K)."""
    chol = np.linalg.cholesky(sigma)                                  # (K, d, d)
    diff = X[None, :, :] - means[:, None, :]                          # (K, n, d)
    z = np.linalg.solve(chol, np.swapaxes(diff, 1, 2))               # (K, d, n)
    # Far beyond the data the squared distance overflows to inf: density 0, log -inf, which
    # normalise_log handles (the row gets the prior when every class is at -inf).
    with np.errstate(over="ignore"):
        maha = (z ** 2).sum(axis=1)                                   # (K, n)
    log_det = 2.0 * np.log(np.diagonal(chol, axis1=1, axis2=2)).sum(axis=1)
    d = X.shape[1]
    return (-0.5 * (maha + log_det[:, None] + d * _LOG_2PI)).T


def _restrict(sigma: np.ndarray, covariance: str, n_c: np.ndarray) -> np.ndarray:
    """Keep the full Sigma_c, only its diagonal (naive), or the pooled diagonal (shared)."""
    if covariance == "full":
        return sigma
    variances = np.diagonal(sigma, axis1=1, axis2=2)                  # (K, d), Eq. 14
    if covariance == "shared":
        pooled = (n_c[:, None] * variances).sum(axis=0) / n_c.sum()  # within-class MLE
        variances = np.broadcast_to(pooled, variances.shape)
    return variances[:, :, None] * np.eye(sigma.shape[1])


def _check_full_rank(sigma: np.ndarray, n_c: np.ndarray, classes: tuple,
                     columns: tuple[str, ...]) -> None:
    d = len(columns)
    small = [c for c, n in zip(classes, n_c) if n <= d]
    if small:
        raise DataError(f"Class {small[0]!r} has {int(n_c[classes.index(small[0])])} complete "
                        f"rows, but a full covariance over {d} columns needs at least {d + 1}; "
                        f"choose fewer columns or use covariance='diagonal'.")
    eigen_min = np.linalg.eigvalsh(sigma)[:, 0]
    scale = np.abs(sigma).max(axis=(1, 2))
    # Checked before epsilon is added. Relative to the matrix's own scale, rounding leaves
    # ~1e-16; an eigenvalue below 1e-10 means a column is (almost) a combination of others.
    bad = np.flatnonzero(eigen_min <= 1e-10 * scale)
    if bad.size:
        raise DataError(f"In class {classes[bad[0]]!r} the columns {list(columns)} are linearly "
                        f"dependent (e.g. one is a copy of another), so the full covariance "
                        f"is singular; drop the redundant column or use covariance='diagonal'.")


def _class_priors(priors: str | Mapping[object, float], classes: tuple, n_c: np.ndarray) -> pd.Series:
    """P(c) exactly as NaiveBayes sets it (nbapp.priors: n_c / n, 1 / K or given)."""
    values, _ = class_prior(n_c, list(classes), check_priors(priors), 0.0)
    return pd.Series(values, index=list(classes), name="prior")


def _check_fit_arguments(df: pd.DataFrame, columns: tuple[str, ...], target: str,
                         covariance: str, var_smoothing: float) -> None:
    if covariance not in _COVARIANCES:
        raise DataError(f"covariance must be one of {list(_COVARIANCES)}, not {covariance!r}.")
    if not columns:
        raise DataError("Choose at least one numeric column for the Gaussian model.")
    if len(set(columns)) != len(columns):
        raise DataError(f"Each column may be chosen once; got {list(columns)}.")
    if target not in df.columns:
        raise DataError(f"Target column {target!r} is not in the data; choose one of its "
                        f"columns {list(df.columns)[:10]}.")
    if target in columns:
        raise DataError(f"The target {target!r} cannot also be a feature column.")
    if not var_smoothing >= 0:
        raise DataError(f"var_smoothing must be >= 0, got {var_smoothing!r}.")


def _numeric_matrix(df: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """The chosen columns as a float matrix (NaN where missing), or a DataError naming the
    first non-numeric value."""
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise DataError(f"Column {missing[0]!r} is not in the data (its columns: "
                        f"{list(df.columns)[:10]}); add it or choose other numeric columns.")
    out = np.column_stack([numeric_column(df[c], c, "numeric for a Gaussian model") for c in columns])
    return out
