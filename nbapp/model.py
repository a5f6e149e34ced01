"""The Naive Bayes model: mixed feature types, missing values, explained factor by factor.

    P(c | x) = P(c) prod_{a in OBS} P(x_a | c) / P(x)        [seed 000, Eq. 5 and 22]

Fitting is two steps: one pass over the rows summarises them into sufficient statistics
(:class:`nbapp.stats.ModelStats`: class counts and each block's statistics), then the
blocks are built *from* those statistics and the settings (:mod:`nbapp.blocks`). Statistics
are values: ``partial_fit`` adds new statistics, :meth:`NaiveBayes.merge` adds another
model's, ``with_priors`` / ``with_smoothing`` rebuild from the same statistics; nothing
fitted is ever changed in place. This class owns the classes and the prior, loops over its
blocks through their protocol, and normalises in log space in one place
(:mod:`nbapp._logspace`).
"""

from __future__ import annotations

import copy
import dataclasses
from functools import reduce
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from nbapp.blocks import Block, BlockSettings, block_type
from nbapp.blocks.base import frozen
from nbapp.blocks.gaussian import GaussianEpsilon
from nbapp._encode import factorize
from nbapp.errors import DataError, shown
from nbapp.explain import Explanation, build_explanation
from nbapp.factor import Factor
from nbapp._logspace import decide, normalise_log
from nbapp.ordering import python_scalar, sort_values
from nbapp.priors import prior_fractions, prior_values
from nbapp.settings import Settings
from nbapp.smoothing import Lidstone
from nbapp.specs import parse_features
from nbapp.stats import ModelStats
from nbapp._threads import ROW_ALIGN, each, row_chunks

__all__ = ["NaiveBayes", "merge"]

# Weights beyond this make class totals lose whole rows in float64 (2**53 ~ 9e15).
_MAX_WEIGHT = 1e15


class NaiveBayes:
    """Naive Bayes over mixed feature types.

    Parameters
    ----------
    features : dict column -> a registered type's name (``nbapp.blocks.feature_types()``:
        "categorical", "gaussian", "kde", ..., or "ignore") or a spec object
        (:class:`nbapp.Bernoulli` (positive=...), ...).
    alpha : Lidstone smoothing l >= 0 of every discrete feature; 0 is MLE
        (seed 000, Eq. 7 and 10).
    smoothing : instead of ``alpha``, :class:`nbapp.MEstimate` (seed 003) for every discrete
        feature, or :class:`nbapp.BetaPrior` (seed 002) for the Bernoulli features.
    prior_alpha : Dirichlet smoothing of the empirical class prior (seed 000, §2.4).
    priors : "empirical", "uniform" or {class: probability}.
    var_smoothing : as scikit-learn's GaussianNB, eps = var_smoothing * max column variance;
        it also sets each KDE feature's density floor (:meth:`nbapp.blocks.kde.KDEBlock.floors`).
    var_smoothing_mode : "global" (default, scikit-learn's one eps for every Gaussian column)
        or "per_feature" (eps_a = var_smoothing * Var(x_a): a column with a huge variance,
        such as an ID, no longer sets the floor of the others); see :meth:`gaussian_epsilon`.
    variance : "mle" (Eq. 14), "unbiased" or "pooled" for the Gaussian features.

    The settings besides the features are one value, :class:`nbapp.Settings`:
    ``NaiveBayes.from_settings(features, settings)`` and ``m.settings``.

    Seed 000's 14 tennis days (Ex. 2.1) at l = 0, and the test day's posterior at l = 1:

    >>> from nbapp.examples import example, load_example
    >>> tennis = example("tennis14")
    >>> m = NaiveBayes(tennis.features, alpha=0).fit(load_example("tennis14"), target="Play")
    >>> m.predict(pd.DataFrame([tennis.query])).tolist()
    ['Yes']
    >>> m.with_smoothing(alpha=1).explain(tennis.query).posterior_fractions["Yes"]
    Fraction(784, 1389)
    """

    def __init__(self, features: Mapping[str, Any], *, alpha: float = 1.0, smoothing: Any = None,
                 prior_alpha: float = 0.0, priors: Any = "empirical", var_smoothing: float = 1e-9,
                 variance: str = "mle", var_smoothing_mode: str = "global") -> None:
        self.features_: dict[str, Any] = parse_features(features)
        self._settings = Settings(alpha=alpha, smoothing=smoothing, prior_alpha=prior_alpha, priors=priors,
                                  var_smoothing=var_smoothing, variance=variance,
                                  var_smoothing_mode=var_smoothing_mode)
        self._layout = self._block_layout()
        self._unfit()

    @classmethod
    def from_settings(cls, features: Mapping[str, Any], settings: Settings) -> "NaiveBayes":
        """An unfitted model of these features under these settings."""
        if not isinstance(settings, Settings):
            raise DataError(f"settings must be nbapp.Settings, not {type(settings).__name__}.")
        return cls(features, **settings.kwargs())

    # -- configuration ---------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        """Every setting besides the features, as one frozen value (:class:`nbapp.Settings`)."""
        return self._settings

    alpha = property(lambda self: self._settings.alpha, doc="Lidstone l of every discrete feature.")
    smoothing = property(lambda self: self._settings.smoothing, doc="MEstimate / BetaPrior / Lidstone, or None.")
    prior_alpha = property(lambda self: self._settings.prior_alpha, doc="Dirichlet smoothing of the class prior.")
    var_smoothing = property(lambda self: self._settings.var_smoothing, doc="The Gaussian epsilon factor.")
    variance = property(lambda self: self._settings.variance, doc="The Gaussian variance option.")
    var_smoothing_mode = property(lambda self: self._settings.var_smoothing_mode, doc="The Gaussian epsilon mode.")

    @property
    def priors(self) -> Any:
        """"empirical", "uniform" or the given {class: probability}."""
        priors = self._settings.priors
        return priors if isinstance(priors, str) else dict(priors)

    def params(self) -> dict[str, Any]:
        """The constructor arguments, so an unfitted copy can be made: NaiveBayes(**m.params())."""
        return {"features": dict(self.features_), **self._settings.kwargs()}

    def _block_layout(self) -> list[tuple[type[Block], tuple[str, ...], tuple[Any, ...]]]:
        """Which block scores which columns: one block per column, except that every column of
        a grouped type (Gaussian, multinomial) joins that type's one block."""
        singles, groups = [], {}
        for column, spec in self.features_.items():
            cls = block_type(spec)
            if cls.grouped:
                groups.setdefault(cls, []).append((column, spec))
            else:
                singles.append((cls, (column,), (spec,)))
        grouped = [(cls, tuple(c for c, _ in items), tuple(s for _, s in items)) for cls, items in groups.items()]
        for cls, _, specs in grouped:
            if cls.smoothed and len({getattr(s, "alpha", None) for s in specs}) > 1:
                raise DataError(f"All {cls.kind} columns form one {cls.kind} and must share one alpha.")
        return singles + grouped

    def _block_settings(self, cls: type[Block], specs: tuple[Any, ...]) -> BlockSettings:
        """The one rule for which smoothing a block gets: its spec's own alpha (Lidstone), else the
        model's smoothing where it applies to the block (it says: a Beta prior to binary blocks
        only), else Lidstone(alpha)."""
        own = getattr(specs[0], "alpha", None)
        if own is not None:
            smoothing: Any = Lidstone(own)
        elif self.smoothing is not None and self.smoothing.applies_to(cls):
            smoothing = self.smoothing
        else:
            smoothing = Lidstone(self.alpha)
        return BlockSettings(smoothing, self.var_smoothing, self.variance, self.var_smoothing_mode)

    def _unfit(self) -> None:
        self.stats_: ModelStats | None = None
        self.classes_: list[Any] = []
        self.class_counts_ = np.zeros(0)
        self.target_: str | None = None
        self.weight_: str | None = None
        self._blocks: tuple[Block, ...] = ()

    # -- fitting: statistics, then blocks from statistics ----------------------------------
    def summarize(self, df: pd.DataFrame, target: str, weight: str | None = None) -> ModelStats:
        """One pass over the rows: the statistics a fit on them would be built from."""
        classes, y, w = self._labelled(df, target, weight)
        k = len(classes)
        return ModelStats(classes, np.bincount(y, weights=w, minlength=k), self._summarize_blocks(df, y, w, k))

    def summarize_parts(self, df: pd.DataFrame, target: str, parts: np.ndarray,
                        weight: str | None = None) -> list[ModelStats]:
        """The statistics of each part of the rows, from one pass over the uncopied frame: row i
        is in part ``parts[i]`` (0, 1, ...; every row in one). The statistics of the finer classes
        (part, class) are counted at once, and part p's are its classes of them (a class with no
        row in the part is left out). They are those ``summarize`` of the part's rows would give
        (class counts, categorical and count tables and Gaussian moments bit for bit),
        with two differences that adding and subtracting statistics undo anyway: values and
        words of other parts may be listed with no weight, and a KDE or discretised column's
        histogram is on the grid level of the whole frame (a sum of the parts reaches it).
        Cross-validation takes its folds' statistics this way (:mod:`nbapp.evaluate`)."""
        classes, y, w = self._labelled(df, target, weight)
        parts = _part_codes(parts, len(df))
        k, n_parts = len(classes), int(parts.max(initial=-1)) + 1
        cell = parts * k + y
        blocks = self._summarize_blocks(df, cell, w, n_parts * k)
        rows = np.bincount(cell, minlength=n_parts * k).reshape(n_parts, k)
        weights = np.bincount(cell, weights=w, minlength=n_parts * k).reshape(n_parts, k)
        out = []
        for part in range(n_parts):
            present = np.flatnonzero(rows[part])
            take = part * k + present
            out.append(ModelStats(tuple(classes[c] for c in present), weights[part, present],
                                  tuple(s.reindex_classes(take) for s in blocks)))
        return out

    def _labelled(self, df: pd.DataFrame, target: str, weight: str | None) -> tuple[tuple[Any, ...], np.ndarray, np.ndarray]:
        """The checked frame's classes (sorted), each row's class index and the row weights."""
        _check_frame(df, target, list(self.features_), weight)
        labels = df[target]
        _check_labels(labels, target)
        w = _weights(df, weight)
        codes, uniques = factorize(labels)
        found = [python_scalar(u) for u in uniques]
        classes = tuple(sort_values(found))
        y = pd.Index(classes, dtype=object).get_indexer(pd.Index(found, dtype=object))[codes]
        return classes, y, w

    def _summarize_blocks(self, df: pd.DataFrame, y: np.ndarray, w: np.ndarray, k: int) -> tuple[Any, ...]:
        # one block per thread on large tables, the blocks of most columns first
        return tuple(each(lambda item: item[0].summarize(item[1], item[2], df, y, w, k),
                          self._layout, len(df), cost=lambda item: len(item[1])))

    def fit(self, df: pd.DataFrame, target: str, weight: str | None = None) -> "NaiveBayes":
        """Summarise the rows, then derive every parameter from the statistics."""
        self._unfit()
        self._install(self.summarize(df, target, weight), target, weight)
        return self

    def fit_stats(self, stats: ModelStats, target: str, weight: str | None = None) -> "NaiveBayes":
        """Build the fitted model from statistics computed elsewhere (a file, a cluster, a merge)."""
        self._unfit()
        self._install(stats, target, weight)
        return self

    def partial_fit(self, df: pd.DataFrame, target: str | None = None, weight: str | None = None) -> "NaiveBayes":
        """Add more rows (seed 001: incremental learning). Equals one fit on all the rows;
        on bad rows the model is left as it was."""
        if self.target_ is None:
            if target is None:
                raise DataError("The first partial_fit must name the target column.")
            self._install(self.summarize(df, target, weight), target, weight, min_classes=1)
            return self
        if target is not None and target != self.target_:
            raise DataError(f"This model predicts {self.target_!r}, not {target!r}.")
        weight = weight if weight is not None else self.weight_
        self._install(self.stats_ + self.summarize(df, self.target_, weight), self.target_, weight, min_classes=1)
        return self

    def merge(self, other: "NaiveBayes") -> "NaiveBayes":
        """A new fitted model equal to one fit on the rows of both (neither is changed)."""
        return merge([self, other])

    def _install(self, stats: ModelStats, target: str, weight: str | None, *, min_classes: int = 2) -> None:
        """Build every block from the statistics, then (only if all succeed) make them this model's.
        A partial fit (``min_classes=1``) may be one part of more: one class, or a text column whose
        words are all pruned so far, is then accepted; a fit or a merge checks them."""
        if len(stats.classes) < min_classes:
            only = stats.classes[0] if stats.classes else None
            raise DataError(f"The target {target!r} has one class only ({only!r}); "
                            "Naive Bayes needs at least two classes to choose between.")
        if not np.isfinite(stats.class_counts).all():
            raise DataError("The weights add up beyond what a float64 can hold; scale them down.")
        if len(stats.blocks) != len(self._layout):
            raise DataError("These statistics were summarised for other features than this model's.")
        blocks = tuple(cls.from_stats(columns, specs, self._block_settings(cls, specs), s, check=min_classes > 1)
                       for (cls, columns, specs), s in zip(self._layout, stats.blocks))
        self.stats_, self._blocks = stats, blocks
        self.classes_, self.class_counts_ = list(stats.classes), stats.class_counts
        self.target_, self.weight_ = target, weight

    # -- fitted quantities -----------------------------------------------------------------
    def _check_fitted(self) -> None:
        if self.target_ is None:
            raise DataError("The model is not fitted yet: call fit(df, target=...) first.")

    def _prior(self) -> tuple[np.ndarray, list]:
        return self._prior_values(), self._prior_fractions()

    def _prior_values(self) -> np.ndarray:
        """P(c) as floats, computed once per class counts and settings (issue 31, item 6: a page
        that asked for it once per class made K^2 work); read-only, so no caller changes it."""
        return self._cached("prior_values", lambda: frozen(prior_values(*self._prior_inputs())))

    def _prior_fractions(self) -> list:
        return self._cached("prior_fractions", lambda: prior_fractions(*self._prior_inputs()))

    def _prior_inputs(self) -> tuple[np.ndarray, list, Any, float]:
        return self.class_counts_, self.classes_, self.priors, self.prior_alpha

    def _cached(self, name: Any, compute: Callable[[], Any]) -> Any:
        """A value derived from the fitted statistics and the settings, computed once for them:
        a fit, partial_fit or merge installs new class counts, and a copy under other priors
        (with_priors) has other settings, so either computes its own."""
        key = (self.class_counts_, self._settings)
        cache = self.__dict__.get("_derived_cache")
        if cache is None or cache[0][0] is not key[0] or cache[0][1] is not key[1]:
            cache = (key, {})
            self.__dict__["_derived_cache"] = cache
        if name not in cache[1]:
            cache[1][name] = compute()
        return cache[1][name]

    @property
    def priors_(self) -> pd.Series:
        """P(c) per class (seed 000, §2.1)."""
        self._check_fitted()
        return pd.Series(self._prior_values(), index=self._class_index(), name="prior")

    def prior_fractions(self) -> pd.Series:
        """P(c) per class as exact fractions: N_c / N, (N_c + a) / (N + K a) with prior_alpha a,
        1 / K or the given priors   [seed 000, §2.1 and §2.4].

        >>> from nbapp.examples import example, load_example
        >>> m = NaiveBayes(example("tennis14").features).fit(load_example("tennis14"), target="Play")
        >>> m.prior_fractions()["Yes"]                                  # 9 of the 14 days
        Fraction(9, 14)
        """
        self._check_fitted()
        return pd.Series(self._prior_fractions(), index=self._class_index(), name="prior", dtype=object)

    def _class_index(self) -> pd.Index:
        """The classes as an Index, made once with its lookup table (not once per question about
        one class); each caller gets its own view of it, so renaming one table's axis renames no other."""
        return self._cached("class_index", lambda: pd.Index(self.classes_, dtype=object)).view()

    @property
    def log_prior_(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self._prior_values())

    @property
    def blocks_(self) -> tuple[Block, ...]:
        """The fitted feature blocks, in scoring order (immutable; see nbapp.blocks.base)."""
        return self._blocks

    def block_of(self, column: str) -> Block:
        for block in self._blocks:
            if column in block.columns:
                return block
        if column in self.features_:
            self._check_fitted()
        raise DataError(f"{column!r} is not a feature of this model; its features are {list(self.features_)}.")

    def _fitted_block(self, column: str) -> Block:
        self._check_fitted()
        return self.block_of(column)

    def smoothing_of(self, column: str) -> Any:
        """The smoothing (Lidstone, MEstimate or BetaPrior) that this discrete feature's CPT uses."""
        return self._fitted_block(column).smoothing_of(column)

    def missing_columns(self, df: pd.DataFrame) -> list[str]:
        """The model's target and feature columns that df lacks (e.g. an imported model on other data)."""
        self._check_fitted()
        return [c for c in [self.target_, *self.features_] if c not in df.columns]

    def cpt(self, column: str, exact: bool = False, log: bool = False) -> pd.DataFrame:
        """P(x = v | c) = (N_cv + l) / (n_c + l K): index = values (or words), columns = classes
        [seed 000, Eq. 7, 10].

        ``exact``: the cells as fractions; ``log``: natural logs (-inf for a zero cell at l = 0).

        >>> from nbapp.examples import example, load_example
        >>> m = NaiveBayes(example("tennis14").features, alpha=0).fit(load_example("tennis14"), target="Play")
        >>> m.cpt("Outlook", exact=True).loc["Sunny", "No"]              # 3 of the 5 No days were sunny
        Fraction(3, 5)
        >>> m.with_smoothing(alpha=1).cpt("Outlook", exact=True).loc["Sunny", "No"]   # (3 + 1) / (5 + 3)
        Fraction(1, 2)
        """
        block = self._fitted_block(column)
        if log:
            with np.errstate(divide="ignore"):
                return np.log(block.cpt(column, self._class_index()))
        return block.cpt(column, self._class_index(), exact)

    def counts(self, column: str) -> pd.DataFrame:
        """The raw counts behind :meth:`cpt`, before smoothing."""
        return self._fitted_block(column).counts(column, self._class_index())

    def parameters(self, column: str) -> pd.DataFrame:
        """Per class, the fitted parameters of a Gaussian (n, mean, var, ...) or Poisson (n, sum,
        lambda, ...) feature."""
        return self._fitted_block(column).parameters(column, self._class_index())

    def gaussian(self, column: str) -> pd.DataFrame:
        """Per class: n, mean, var (with eps), std, the raw variance, eps and a note   [seed 000, Eq. 13-14]:
        the parameters of a feature whose type fits a normal density (a mean and a var per class).

        >>> from nbapp.examples import example, load_example
        >>> people = example("gender")
        >>> m = NaiveBayes(people.features, variance="unbiased").fit(load_example("gender"), target="Gender")
        >>> fit = m.gaussian("Height").loc["male"]                       # seed 000's table: 5.855, 3.5033e-02
        >>> round(float(fit["mean"]), 4), round(float(fit["var_raw"]), 6)
        (5.855, 0.035033)
        """
        block = self._fitted_block(column)
        try:        # once per column: the Explain page reads a row of it for each class it shows
            table = self._cached(("gaussian", column), lambda: block.parameters(column, self._class_index()))
        except DataError:
            table = None
        if table is None or not {"mean", "var"} <= set(table.columns):
            raise DataError(f"Column {column!r} is {block.kind}, not Gaussian: see m.cpt({column!r}) "
                            f"or m.parameters({column!r}).")
        return table.copy()

    def gaussian_epsilon(self) -> GaussianEpsilon:
        """The epsilon added to the Gaussian variances: its value, the column that set it
        (``.column``), eps per column (``.by_column``) and the real class variances it exceeds
        (``.swamped``, ``.notes``); the report of the first block whose type adds such a floor."""
        self._check_fitted()
        report = next((r for r in (b.epsilon_report(self.classes_) for b in self._blocks) if r is not None), None)
        if report is None:
            raise DataError("This model has no Gaussian features, so no epsilon.")
        return report

    def gaussian_density(self, column: str, x: np.ndarray, classes: Any = None) -> pd.DataFrame:
        """p(x | c) of a Gaussian feature (P(x | c) of a Poisson one) at the points x, one column
        per class (of ``classes`` only, if given)   [seed 000, Eq. 12]."""
        block, index = self._fitted_block(column), self._class_index()
        if classes is None:
            return block.density(column, x, index)
        rows = index.get_indexer(pd.Index(list(classes), dtype=object))
        if (rows < 0).any():
            raise DataError(f"{list(classes)[int(np.flatnonzero(rows < 0)[0])]!r} is not a class of this model.")
        return block.density_rows(column, x, index, rows)

    def typical_value(self, column: str) -> float:
        """Where a number input for this feature starts: the mean of the fitted mixture (class
        means weighted by P(c)), or the average count per training row of a count column."""
        return self._fitted_block(column).typical_value(column, self._prior_values(), self.class_counts_)

    def top_words(self, column: str, n: int = 10) -> pd.DataFrame:
        """The n most probable words (or count columns) per class."""
        return self._fitted_block(column).top_words(column, self.classes_, n)

    # -- prediction ------------------------------------------------------------------------
    def joint_log_likelihood(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.DataFrame:
        """log P(c) + sum of the used log P(x_a | c), per row and class."""
        frame = _as_frame(df)
        return pd.DataFrame(self._joint_log(frame), index=frame.index, columns=self._class_index())

    def _joint_log(self, frame: pd.DataFrame, log_prior: np.ndarray | None = None,
                   rows: slice | np.ndarray | None = None) -> np.ndarray:
        """log P(c) + the blocks' log-likelihoods, of every row or of the rows ``rows``."""
        self._check_fitted()
        _check_unique_columns(frame)
        k = len(self.classes_)
        log_prior = self.log_prior_ if log_prior is None else log_prior
        n = len(frame) if rows is None else len(range(len(frame))[rows]) if isinstance(rows, slice) else len(rows)
        total = np.repeat(log_prior[None, :], n, axis=0)
        for block in self._blocks:
            total += block.joint_log(frame, k) if rows is None else block.joint_log_rows(frame, rows, k)
        return total

    def _normalised(self, df: Any, *, exp: bool = False,
                    rows: np.ndarray | None = None) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
        """The frame, log P(c | x) (P(c | x) with ``exp``) and the undetermined rows, of every row
        or of the rows at positions ``rows``. A large frame is scored in row ranges, one per
        thread: every step is row by row, so the numbers are those of one pass; bad values are
        named by the one pass, as always."""
        frame = _as_frame(df)
        log_prior = self.log_prior_
        n = len(frame) if rows is None else len(rows)

        def score(chunk: slice | None) -> tuple[np.ndarray, np.ndarray]:
            which = chunk if rows is None else rows if chunk is None else rows[chunk]
            log_post, _, undetermined = normalise_log(self._joint_log(frame, log_prior, which), log_prior)
            return (np.exp(log_post, out=log_post) if exp else log_post), undetermined

        chunks = row_chunks(n, ROW_ALIGN)
        if len(chunks) < 2:
            return frame, *score(None)
        out = np.empty((n, len(self.classes_)))
        undetermined = np.empty(n, dtype=bool)

        def part(chunk: slice) -> None:
            out[chunk], undetermined[chunk] = score(chunk)

        try:
            each(part, chunks, n)
        except DataError:
            return frame, *score(None)
        return frame, out, undetermined

    def log_posterior(self, df: pd.DataFrame | Mapping[str, Any],
                      rows: np.ndarray | None = None) -> tuple[pd.DataFrame, pd.Series]:
        """log P(c | x) per row and the undetermined-row flags, from one normalisation. ``rows``:
        positions of the rows of ``df`` to score (all by default), scored without copying them."""
        frame = _as_frame(df)
        rows = None if rows is None else _part_rows(rows, len(frame))
        frame, log_post, undetermined = self._normalised(frame, rows=rows)
        index = frame.index if rows is None else frame.index[rows]
        return (pd.DataFrame(log_post, index=index, columns=self._class_index()),
                pd.Series(undetermined, index=index, name="undetermined"))

    def predict_log_proba(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.DataFrame:
        return self.log_posterior(df)[0]

    def predict_proba(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.DataFrame:
        """P(c | x) per row, columns = classes_ (sorted). Undetermined rows get the prior."""
        frame, proba, _ = self._normalised(df, exp=True)
        return pd.DataFrame(proba, index=frame.index, columns=self._class_index(), copy=False)

    def predict(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.Series:
        """The argmax class per row; <NA> where every class is impossible (undetermined)."""
        frame, log_post, undetermined = self._normalised(df)
        return pd.Series(decide(log_post, undetermined, self.classes_), index=frame.index,
                         name=self.target_, dtype=object)

    def undetermined(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.Series:
        """True where P(x) = 0: every class has probability 0 (see nbapp._logspace)."""
        return self.log_posterior(df)[1]

    def explain(self, row: Mapping[str, Any] | pd.Series) -> Explanation:
        """The step-by-step posterior of one example: prior, each factor, joint, evidence
        [seed 000, Eq. 4-8].

        >>> from nbapp.examples import example, load_example
        >>> tennis = example("tennis14")
        >>> m = NaiveBayes(tennis.features, alpha=0).fit(load_example("tennis14"), target="Play")
        >>> e = m.explain(tennis.query)        # Overcast, Hot, High, Strong
        >>> e.fractions.loc["Outlook", "No"], e.prediction        # P(Overcast | No) = 0/5 rules No out
        (Fraction(0, 1), 'Yes')
        """
        self._check_fitted()
        values = _as_row(row)
        prior, prior_fractions = self._prior()
        with np.errstate(divide="ignore"):
            log_prior = np.log(prior)
        factors: dict[str, Factor] = {"prior": Factor("prior", "prior", None, "used", log_prior,
                                                      tuple(prior_fractions), "P(c)")}
        joint = log_prior.copy()
        for block in self._blocks:           # block order, as in _joint_log
            for f in block.factors(values, self.classes_):
                factors[f.name] = f
                if f.counted:
                    joint = joint + f.log
        log_post, _, undetermined = normalise_log(joint[None, :], log_prior)
        ordered = [factors["prior"], *[factors[c] for c in self.features_]]
        words = {f.name: f.table for f in ordered if f.table is not None}
        return build_explanation(ordered, self.classes_, joint, log_post[0], bool(undetermined[0]), words)

    def score_card(self, frame: pd.DataFrame | Mapping[str, Any] | None = None):
        """Per class the log prior, per feature the values a person can choose and each value's
        log P(x_a = v | c) as this model computes it, every value of ``frame``'s rows included:
        a what-if is then a sum and a softmax (issue 32, item 1; :mod:`nbapp.score_card`).

        >>> from nbapp.examples import example, load_example
        >>> tennis = example("tennis14")
        >>> m = NaiveBayes(tennis.features, alpha=1).fit(load_example("tennis14"), target="Play")
        >>> card = m.score_card()
        >>> card.feature("Outlook").values
        ('Overcast', 'Rain', 'Sunny')
        """
        from nbapp.score_card import score_card

        return score_card(self, frame)

    # -- the same statistics under other settings ------------------------------------------
    def with_priors(self, priors: Any) -> "NaiveBayes":
        """The same fitted model under other class priors, without refitting (seed 004's bikes).

        The statistics and blocks are shared; they are immutable values, so neither model can
        change the other (a later partial_fit of either builds new ones).
        """
        self._check_fitted()
        moved = copy.copy(self)
        moved._settings = dataclasses.replace(self._settings, priors=priors)
        moved._prior_values()   # a mapping must name exactly the model's classes
        return moved

    def with_smoothing(self, *, alpha: float | None = None, smoothing: Any = None) -> "NaiveBayes":
        """The same statistics re-smoothed, without refitting: MLE vs MAP in one step (seed 000, Eq. 7).

        ``alpha`` (Lidstone l) and ``smoothing`` mean what they mean in the constructor.
        """
        self._check_fitted()
        params = {**self.params(), "smoothing": smoothing}
        if alpha is not None:
            params["alpha"] = alpha
        return NaiveBayes(**params).fit_stats(self.stats_, self.target_, self.weight_)

    # -- the model as a linear classifier and as a generator ------------------------------
    def linear_form(self):
        """w and b with log P(c1 | x) / P(c0 | x) = w.x + b (two classes)   [seed 000, Eq. 17-20]."""
        from nbapp.linear import linear_form

        self._check_fitted()
        return linear_form(self)

    def sample(self, n: int, random_state: int | None = None) -> pd.DataFrame:
        """n synthetic rows drawn from the fitted model: c ~ P(c), then each x_a ~ P(x_a | c)."""
        self._check_fitted()
        rng = np.random.default_rng(random_state)
        prior = self._prior_values()
        y = rng.choice(len(self.classes_), size=int(n), p=prior / prior.sum())
        columns: dict[str, Any] = {self.target_: np.array(self.classes_, dtype=object)[y]}
        for block in self._blocks:
            columns.update(block.sample(y, rng, self.class_counts_))
        return pd.DataFrame(columns)[[self.target_, *self.features_]]

    # -- persistence -----------------------------------------------------------------------
    def to_json(self) -> str:
        """The model as versioned JSON (never pickle): settings and sufficient statistics."""
        from nbapp.persist import model_to_json

        return model_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> "NaiveBayes":
        from nbapp.persist import model_from_json

        return model_from_json(text)

    def __repr__(self) -> str:
        kinds = ", ".join(f"{c}: {s.kind}" for c, s in self.features_.items())
        fitted = f"target={self.target_!r}, classes={self.classes_}" if self.target_ else "not fitted"
        return f"NaiveBayes({kinds}; {fitted})"


def merge(models: Iterable[NaiveBayes]) -> NaiveBayes:
    """One fitted model from models fitted on parts of the rows: equal to one fit on all of
    them (counts exactly, probabilities to rounding). The models must share their settings,
    target and weight column; none of them is changed."""
    models = list(models)
    if not models:
        raise DataError("merge needs at least one fitted model.")
    first = models[0]
    for i, other in enumerate(models):
        if not isinstance(other, NaiveBayes):
            raise DataError(f"merge takes nbapp models; item {i} is a {type(other).__name__}.")
        if other.target_ is None:
            raise DataError(f"Model {i} is not fitted; fit every part before merging.")
        _check_same_settings(first, other, i)
    stats = reduce(lambda a, b: a + b, (m.stats_ for m in models))
    return NaiveBayes(**first.params()).fit_stats(stats, first.target_, first.weight_)


def _check_same_settings(a: NaiveBayes, b: NaiveBayes, i: int) -> None:
    ours, theirs = a.params(), b.params()
    for name in ours:
        if ours[name] != theirs[name]:
            raise DataError(f"Model {i} has other settings than model 0 ({name}: {theirs[name]!r} vs "
                            f"{ours[name]!r}); models merge only when fitted with the same settings.")
    for name in ("target_", "weight_"):
        if getattr(a, name) != getattr(b, name):
            raise DataError(f"Model {i} has {name.rstrip('_')} {getattr(b, name)!r}, model 0 has "
                            f"{getattr(a, name)!r}; models merge only when fitted on the same columns.")


def _check_unique_columns(frame: pd.DataFrame) -> None:
    if not frame.columns.is_unique:
        repeated = frame.columns[frame.columns.duplicated()][0]
        raise DataError(f"The data has two columns named {repeated!r}; rename one so each column has one name.")


def _as_frame(df: Any) -> pd.DataFrame:
    if isinstance(df, pd.DataFrame):
        return df
    if isinstance(df, pd.Series):
        return df.to_frame().T
    if isinstance(df, Mapping):
        return pd.DataFrame({k: pd.Series([v], dtype=object) for k, v in df.items()})
    raise DataError(f"Give the rows as a pandas DataFrame (or one row as a dict), not {type(df).__name__}.")


def _as_row(row: Any) -> dict[str, Any]:
    """One example as a plain dict (explain's scalar path: no per-column pandas work)."""
    if isinstance(row, pd.DataFrame):
        if len(row) != 1:
            raise DataError(f"explain takes one row, not {len(row)}.")
        row = row.iloc[0]
    if isinstance(row, pd.Series):
        return row.to_dict()
    if isinstance(row, Mapping):
        return dict(row)
    raise DataError(f"Give the example as a dict or a pandas Series, not {type(row).__name__}.")


def _check_frame(df: Any, target: str, features: list[str], weight: str | None) -> None:
    if not isinstance(df, pd.DataFrame):
        raise DataError(f"Give the training data as a pandas DataFrame, not {type(df).__name__}.")
    if len(df) == 0:
        raise DataError("The training data has no rows.")
    if target not in df.columns:
        raise DataError(f"The target column {target!r} is not in the data; its columns are {list(df.columns)[:10]}.")
    if target in features:
        raise DataError(f"Column {target!r} is the target and cannot also be a feature.")
    missing = [c for c in features if c not in df.columns]
    if missing:
        raise DataError(f"Feature column {missing[0]!r} is not in the data; its columns are {list(df.columns)[:10]}.")
    if weight is not None and weight not in df.columns:
        raise DataError(f"The weight column {weight!r} is not in the data.")


def _part_codes(parts: Any, n_rows: int) -> np.ndarray:
    parts = np.asarray(parts)
    if parts.shape != (n_rows,) or parts.dtype.kind not in "iu" or (n_rows and parts.min() < 0):
        raise ValueError(f"parts must give each of the {n_rows} rows a part number 0, 1, ...")
    return parts.astype(np.intp, copy=False)


def _part_rows(rows: Any, n_rows: int) -> np.ndarray:
    rows = np.asarray(rows)
    if rows.ndim != 1 or rows.dtype.kind not in "iu" or (len(rows) and (rows.min() < 0 or rows.max() >= n_rows)):
        raise ValueError(f"rows must be positions 0..{n_rows - 1} of the frame's rows")
    return rows


def _check_labels(labels: pd.Series, target: str) -> None:
    missing = labels.isna()
    if missing.any():
        rows = ", ".join(str(r) for r in labels.index[missing][:5])
        raise DataError(f"The target {target!r} is missing in {int(missing.sum())} row(s) (first: {rows}); "
                        "drop those rows or fill in their class.")


def _weights(df: pd.DataFrame, weight: str | None) -> np.ndarray:
    if weight is None:
        return np.ones(len(df))
    w = pd.to_numeric(df[weight], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    bad = ~np.isfinite(w) | (w < 0) | (w > _MAX_WEIGHT)
    if bad.any():
        row = df.index[np.flatnonzero(bad)[0]]
        raise DataError(f"The weight column {weight!r} holds {shown(df[weight][row])} in row {row}; "
                        f"weights must be numbers between 0 and {_MAX_WEIGHT:g}.")
    return w
