"""The Naive Bayes model: mixed feature types, missing values, explained factor by factor.

    P(c | x) = P(c) prod_{a in OBS} P(x_a | c) / P(x)        [seed 000, Eq. 5 and 22]

Each feature type is a *block* that keeps sufficient statistics (counts, moments) and
derives its parameters from them; this class combines the blocks, owns the classes and
the prior, and normalises in log space in one place (:mod:`nbapp.logspace`).
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

import numpy as np
import pandas as pd

from nbapp.categorical import BernoulliBlock, CategoricalBlock
from nbapp.derived import invalidate
from nbapp.errors import DataError
from nbapp.explain import Explanation, build_explanation
from nbapp.factor import Factor
from nbapp.gaussian import GaussianBlock
from nbapp.logspace import normalise_log
from nbapp.multinomial import MultinomialBlock
from nbapp.ordering import merge_sorted, python_scalar
from nbapp.priors import check_priors, class_prior
from nbapp.smoothing import BetaPrior, Lidstone, MEstimate
from nbapp.specs import Bernoulli, Categorical, FeatureSpec, Gaussian, Multinomial, Text, parse_features
from nbapp.textfeature import TextBlock

__all__ = ["NaiveBayes"]

_VARIANCES = ("mle", "unbiased", "pooled")


class NaiveBayes:
    """Naive Bayes over mixed feature types.

    Parameters
    ----------
    features : dict column -> type ("categorical", "bernoulli", "multinomial", "gaussian",
        "text", "ignore") or a spec object (:class:`nbapp.Bernoulli` (positive=...), ...).
    alpha : Lidstone smoothing l >= 0 of every discrete feature; 0 is MLE
        (seed 000, Eq. 7 and 10).
    smoothing : instead of ``alpha``, :class:`nbapp.MEstimate` (seed 003) for every discrete
        feature, or :class:`nbapp.BetaPrior` (seed 002) for the Bernoulli features.
    prior_alpha : Dirichlet smoothing of the empirical class prior (seed 000, §2.4).
    priors : "empirical", "uniform" or {class: probability}.
    var_smoothing : as scikit-learn's GaussianNB, eps = var_smoothing * max column variance.
    variance : "mle" (Eq. 14), "unbiased" or "pooled" for the Gaussian features.
    """

    def __init__(self, features: Mapping[str, Any], *, alpha: float = 1.0, smoothing: Any = None,
                 prior_alpha: float = 0.0, priors: Any = "empirical", var_smoothing: float = 1e-9,
                 variance: str = "mle") -> None:
        self.features_: dict[str, FeatureSpec] = parse_features(features)
        self.alpha = float(Lidstone(alpha).l)
        if smoothing is not None and not isinstance(smoothing, (Lidstone, MEstimate, BetaPrior)):
            raise DataError("smoothing must be nbapp.Lidstone, nbapp.MEstimate or nbapp.BetaPrior.")
        self.smoothing = smoothing
        self.prior_alpha = float(Lidstone(prior_alpha).l)
        self.priors = check_priors(priors)
        if not np.isfinite(var_smoothing) or var_smoothing < 0:
            raise DataError(f"var_smoothing must be a finite number >= 0, not {var_smoothing!r}.")
        self.var_smoothing = float(var_smoothing)
        if variance not in _VARIANCES:
            raise DataError(f"variance must be one of {', '.join(_VARIANCES)}, not {variance!r}.")
        self.variance = variance
        self._reset()

    # -- configuration ---------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """The constructor arguments, so an unfitted copy can be made: NaiveBayes(**m.params())."""
        return {"features": dict(self.features_), "alpha": self.alpha, "smoothing": self.smoothing,
                "prior_alpha": self.prior_alpha, "priors": self.priors,
                "var_smoothing": self.var_smoothing, "variance": self.variance}

    def _smoothing_for(self, spec: FeatureSpec) -> Any:
        if getattr(spec, "alpha", None) is not None:
            return Lidstone(spec.alpha)
        if isinstance(self.smoothing, MEstimate) or isinstance(self.smoothing, Lidstone):
            return self.smoothing
        if isinstance(self.smoothing, BetaPrior) and isinstance(spec, Bernoulli):
            return self.smoothing
        return Lidstone(self.alpha)

    def _reset(self) -> None:
        self.classes_: list[Any] = []
        self.class_counts_ = np.zeros(0)
        self.target_: str | None = None
        self.weight_: str | None = None
        self._blocks = self._build_blocks()

    def _build_blocks(self) -> list[Any]:
        blocks: list[Any] = []
        gaussian = [c for c, s in self.features_.items() if isinstance(s, Gaussian)]
        counts = [c for c, s in self.features_.items() if isinstance(s, Multinomial)]
        count_alpha = {self.features_[c].alpha for c in counts}
        if len(count_alpha) > 1:
            raise DataError("All multinomial columns form one multinomial and must share one alpha.")
        for column, spec in self.features_.items():
            if isinstance(spec, Categorical):
                blocks.append(CategoricalBlock(column, self._smoothing_for(spec)))
            elif isinstance(spec, Bernoulli):
                blocks.append(BernoulliBlock(column, self._smoothing_for(spec), spec.positive))
            elif isinstance(spec, Text):
                blocks.append(TextBlock(column, spec, self._smoothing_for(spec)))
        if gaussian:
            variances = [self.features_[c].variance or self.variance for c in gaussian]
            blocks.append(GaussianBlock(gaussian, variances, self.var_smoothing))
        if counts:
            blocks.append(MultinomialBlock(counts, self._smoothing_for(self.features_[counts[0]])))
        return blocks

    # -- fitting ---------------------------------------------------------------------------
    def fit(self, df: pd.DataFrame, target: str, weight: str | None = None) -> "NaiveBayes":
        """Count (and sum moments) over the rows, then derive every parameter from the counts."""
        self._reset()
        self._accumulate(df, target, weight)
        if len(self.classes_) < 2:
            only = self.classes_[0] if self.classes_ else None
            self._reset()
            raise DataError(f"The target {target!r} has one class only ({only!r}); "
                            "Naive Bayes needs at least two classes to choose between.")
        for block in self._blocks:
            if isinstance(block, TextBlock) and not len(block.vocabulary()):
                self._reset()
                raise DataError(f"Column {block.column!r} has no words left after preprocessing (every token is a "
                                "stop word, pruned, or the documents are empty); relax the stop words or pruning.")
        return self

    def partial_fit(self, df: pd.DataFrame, target: str | None = None, weight: str | None = None) -> "NaiveBayes":
        """Add more rows (seed 001: incremental learning). Equals one fit on all the rows."""
        if self.target_ is None:
            if target is None:
                raise DataError("The first partial_fit must name the target column.")
            self._accumulate(df, target, weight)
            return self
        if target is not None and target != self.target_:
            raise DataError(f"This model predicts {self.target_!r}, not {target!r}.")
        self._accumulate(df, self.target_, weight if weight is not None else self.weight_)
        return self

    def _accumulate(self, df: pd.DataFrame, target: str, weight: str | None) -> None:
        _check_frame(df, target, list(self.features_), weight)
        labels = df[target]
        _check_labels(labels, target)
        w = _weights(df, weight)
        codes, uniques = pd.factorize(labels)
        uniques = [python_scalar(u) for u in uniques]
        merged, old_positions = merge_sorted(self.classes_, uniques)
        take = np.full(len(merged), -1)
        take[old_positions] = np.arange(len(self.classes_))
        y = pd.Index(merged, dtype=object).get_indexer(pd.Index(uniques, dtype=object))[codes]
        saved = (copy.deepcopy(self._blocks), self.classes_, self.class_counts_)
        try:
            counts = np.zeros(len(merged))
            counts[old_positions] = self.class_counts_
            self.classes_, self.class_counts_ = merged, counts + np.bincount(y, weights=w, minlength=len(merged))
            for block in self._blocks:
                block.expand_classes(take)
                block.accumulate(df, y, w, len(merged))
        except Exception:
            self._blocks, self.classes_, self.class_counts_ = saved
            raise
        self.target_, self.weight_ = target, weight

    # -- fitted quantities -----------------------------------------------------------------
    def _check_fitted(self) -> None:
        if self.target_ is None:
            raise DataError("The model is not fitted yet: call fit(df, target=...) first.")

    def _prior(self) -> tuple[np.ndarray, list]:
        return class_prior(self.class_counts_, self.classes_, self.priors, self.prior_alpha)

    @property
    def priors_(self) -> pd.Series:
        """P(c) per class (seed 000, §2.1)."""
        self._check_fitted()
        return pd.Series(self._prior()[0], index=pd.Index(self.classes_, dtype=object), name="prior")

    def prior_fractions(self) -> pd.Series:
        self._check_fitted()
        return pd.Series(self._prior()[1], index=pd.Index(self.classes_, dtype=object), name="prior", dtype=object)

    @property
    def log_prior_(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self._prior()[0])

    def block_of(self, column: str) -> Any:
        for block in self._blocks:
            if column in block.columns:
                return block
        raise DataError(f"{column!r} is not a feature of this model; its features are {list(self.features_)}.")

    def smoothing_of(self, column: str) -> Any:
        """The smoothing (Lidstone, MEstimate or BetaPrior) that this discrete feature's CPT uses."""
        block = self.block_of(column)
        if isinstance(block, GaussianBlock):
            raise DataError(f"Column {column!r} is Gaussian: it is not smoothed (seed 000, ex. 2.3 c).")
        return block.table.smoothing if isinstance(block, MultinomialBlock) else block.smoothing

    def missing_columns(self, df: pd.DataFrame) -> list[str]:
        """The model's target and feature columns that df lacks (e.g. an imported model on other data)."""
        self._check_fitted()
        return [c for c in [self.target_, *self.features_] if c not in df.columns]

    def cpt(self, column: str, exact: bool = False, log: bool = False) -> pd.DataFrame:
        """P(x = v | c): index = values (or words), columns = classes   [seed 000, Eq. 7, 10].

        ``exact``: the cells as fractions; ``log``: natural logs (-inf for a zero cell at l = 0).
        """
        self._check_fitted()
        if log:
            with np.errstate(divide="ignore"):
                return np.log(self.cpt(column))
        block = self.block_of(column)
        if isinstance(block, CategoricalBlock):
            return block.cpt(self.classes_, exact)
        if isinstance(block, MultinomialBlock):
            table = block.probability_table(self.classes_).loc[[column]]
            if exact:
                a = block.columns.index(column)
                return pd.DataFrame([[block.table.fraction(a, c) for c in range(len(self.classes_))]],
                                    index=table.index, columns=self.classes_, dtype=object)
            return table
        if isinstance(block, TextBlock):
            params = block._params()
            return pd.DataFrame(np.exp(params["log_on"] if "log_on" in params else params["weights"]),
                                index=pd.Index(block.vocabulary_terms(), name=column), columns=self.classes_)
        raise DataError(f"Column {column!r} is Gaussian: its parameters are in m.gaussian({column!r}).")

    def counts(self, column: str) -> pd.DataFrame:
        """The raw counts behind :meth:`cpt`, before smoothing."""
        self._check_fitted()
        block = self.block_of(column)
        if isinstance(block, CategoricalBlock):
            return block.count_table(self.classes_)
        if isinstance(block, MultinomialBlock):
            return block.count_table(column, self.classes_).to_frame().T
        if isinstance(block, TextBlock):
            vocab = block.vocabulary()
            source = block.doc_freq if block.spec.event_model == "bernoulli" else block.word_counts
            return pd.DataFrame(source[vocab], index=pd.Index(block.vocabulary_terms(), name=column),
                                columns=self.classes_)
        raise DataError(f"Column {column!r} is Gaussian: its moments are in m.gaussian({column!r}).")

    def gaussian(self, column: str) -> pd.DataFrame:
        """Per class: n, mean, var (with eps), std, the raw variance, eps and a note   [seed 000, Eq. 13-14]."""
        self._check_fitted()
        block = self.block_of(column)
        if not isinstance(block, GaussianBlock):
            raise DataError(f"Column {column!r} is {block.kind}, not Gaussian: see m.cpt({column!r}).")
        return block.table(column, self.classes_)

    def gaussian_density(self, column: str, x: np.ndarray) -> pd.DataFrame:
        """p(x | c) of a Gaussian feature at the points x, one column per class   [seed 000, Eq. 12]."""
        self._check_fitted()
        block = self.block_of(column)
        if not isinstance(block, GaussianBlock):
            raise DataError(f"Column {column!r} is {block.kind}, not Gaussian.")
        a = block.columns.index(column)
        points = np.full((len(x), len(block.columns)), np.nan)
        points[:, a] = np.asarray(x, dtype=float)
        with np.errstate(under="ignore"):
            density = np.exp(block.log_density(points)[:, :, a])
        return pd.DataFrame(density, columns=self.classes_)

    def typical_value(self, column: str) -> float:
        """Where a number input for this feature starts: the mean of the fitted Gaussian mixture
        (class means weighted by P(c)), or the average count per training row of a count column."""
        self._check_fitted()
        block = self.block_of(column)
        if isinstance(block, GaussianBlock):
            table = self.gaussian(column)
            observed = (table["n"] > 0).to_numpy()
            weights = self.priors_.to_numpy() * observed
            return float(np.dot(weights, table["mean"].to_numpy()) / weights.sum()) if weights.sum() > 0 else 0.0
        if isinstance(block, MultinomialBlock):
            return float(block.table.counts[block.columns.index(column)].sum() / self.class_counts_.sum())
        raise DataError(f"Column {column!r} is {block.kind}: it has no typical number.")

    def top_words(self, column: str, n: int = 10) -> pd.DataFrame:
        """The n most probable words (or count columns) per class."""
        self._check_fitted()
        block = self.block_of(column)
        if isinstance(block, TextBlock):
            return block.top_words(self.classes_, n)
        if isinstance(block, MultinomialBlock):
            table = block.probability_table(self.classes_)
            rows = []
            for c in self.classes_:
                ranked = table[c].sort_values(ascending=False).head(n)
                for rank, (term, p) in enumerate(ranked.items(), start=1):
                    rows.append({"class": c, "rank": rank, "term": term,
                                 "count": block.table.counts[block.columns.index(term), self.classes_.index(c)],
                                 "probability": p, "log_weight": np.log(p)})
            return pd.DataFrame(rows)
        raise DataError(f"Column {column!r} is {block.kind}: top words exist for text and count columns.")

    # -- prediction ------------------------------------------------------------------------
    def joint_log_likelihood(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.DataFrame:
        """log P(c) + sum of the used log P(x_a | c), per row and class."""
        frame = _as_frame(df)
        return pd.DataFrame(self._joint_log(frame), index=frame.index, columns=self.classes_)

    def _joint_log(self, frame: pd.DataFrame) -> np.ndarray:
        self._check_fitted()
        k = len(self.classes_)
        total = np.repeat(self.log_prior_[None, :], len(frame), axis=0)
        for block in self._blocks:
            total += block.joint_log(frame, k)
        return total

    def _normalised(self, df: Any) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
        frame = _as_frame(df)
        log_post, _, undetermined = normalise_log(self._joint_log(frame), self.log_prior_)
        return frame, log_post, undetermined

    def log_posterior(self, df: pd.DataFrame | Mapping[str, Any]) -> tuple[pd.DataFrame, pd.Series]:
        """log P(c | x) per row and the undetermined-row flags, from one normalisation."""
        frame, log_post, undetermined = self._normalised(df)
        return (pd.DataFrame(log_post, index=frame.index, columns=self.classes_),
                pd.Series(undetermined, index=frame.index, name="undetermined"))

    def predict_log_proba(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.DataFrame:
        frame, log_post, _ = self._normalised(df)
        return pd.DataFrame(log_post, index=frame.index, columns=self.classes_)

    def predict_proba(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.DataFrame:
        """P(c | x) per row, columns = classes_ (sorted). Undetermined rows get the prior."""
        frame, log_post, _ = self._normalised(df)
        return pd.DataFrame(np.exp(log_post), index=frame.index, columns=self.classes_)

    def predict(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.Series:
        """The argmax class per row; <NA> where every class is impossible (undetermined)."""
        frame, log_post, undetermined = self._normalised(df)
        labels = np.array(self.classes_, dtype=object)[np.argmax(log_post, axis=1)]
        labels[undetermined] = pd.NA
        return pd.Series(labels, index=frame.index, name=self.target_, dtype=object)

    def undetermined(self, df: pd.DataFrame | Mapping[str, Any]) -> pd.Series:
        """True where P(x) = 0: every class has probability 0 (see nbapp.logspace)."""
        frame, _, undetermined = self._normalised(df)
        return pd.Series(undetermined, index=frame.index, name="undetermined")

    def explain(self, row: Mapping[str, Any] | pd.Series) -> Explanation:
        """The step-by-step posterior of one example: prior, each factor, joint, evidence."""
        self._check_fitted()
        values = _as_row(row)
        prior, prior_fractions = self._prior()
        with np.errstate(divide="ignore"):
            log_prior = np.log(prior)
        k = len(self.classes_)
        factors: dict[str, Factor] = {"prior": Factor("prior", "prior", None, "used", log_prior,
                                                      tuple(prior_fractions), "P(c)")}
        joint = log_prior.copy()
        for block in self._blocks:           # block order, as in _joint_log
            extra = {"classes": self.classes_} if isinstance(block, TextBlock) else {}
            for f in block.factors(values, k, **extra):
                factors[f.name] = f
                if f.status == "used":
                    joint = joint + f.log
        log_post, _, undetermined = normalise_log(joint[None, :], log_prior)
        ordered = [factors["prior"], *[factors[c] for c in self.features_]]
        words = {f.name: f.table for f in ordered if f.table is not None}
        return build_explanation(ordered, self.classes_, joint, log_post[0], bool(undetermined[0]), words)

    def with_priors(self, priors: Any) -> "NaiveBayes":
        """The same fitted model under other class priors, without refitting (seed 004's bikes).

        The feature statistics are shared (read-only); only P(c) changes.
        """
        self._check_fitted()
        moved = copy.copy(self)
        moved.priors = check_priors(priors)
        moved._prior()          # a mapping must name exactly the model's classes
        return moved

    def with_smoothing(self, *, alpha: float | None = None, smoothing: Any = None) -> "NaiveBayes":
        """The same counts re-smoothed, without refitting: MLE vs MAP in one step (seed 000, Eq. 7).

        ``alpha`` (Lidstone l) and ``smoothing`` mean what they mean in the constructor; the
        statistics are shared (read-only), only the derived probabilities change.
        """
        self._check_fitted()
        params = {**self.params(), "smoothing": smoothing}
        if alpha is not None:
            params["alpha"] = alpha
        moved = NaiveBayes(**params)          # validates the settings, as a new model would
        moved.classes_, moved.class_counts_ = self.classes_, self.class_counts_
        moved.target_, moved.weight_ = self.target_, self.weight_
        moved._blocks = [_resmoothed(old, new) for old, new in zip(self._blocks, moved._blocks)]
        return moved

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
        prior = self._prior()[0]
        y = rng.choice(len(self.classes_), size=int(n), p=prior / prior.sum())
        columns: dict[str, Any] = {self.target_: np.array(self.classes_, dtype=object)[y]}
        for block in self._blocks:
            if isinstance(block, (MultinomialBlock, TextBlock)):
                lengths = rng.poisson(block.mean_length(self.class_counts_)[y])
                columns.update(block.sample(y, rng, lengths))
            else:
                columns.update(block.sample(y, rng))
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


def _resmoothed(old: Any, new: Any) -> Any:
    """old's statistics with new's smoothing (a shallow copy: the count arrays are shared)."""
    block = copy.copy(old)
    invalidate(block)
    if isinstance(block, MultinomialBlock):
        block.table = copy.copy(old.table)
        invalidate(block.table)
        block.table.smoothing = new.table.smoothing
    elif hasattr(block, "smoothing"):
        block.smoothing = new.smoothing
    return block


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
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        row = df.index[np.flatnonzero(bad)[0]]
        raise DataError(f"The weight column {weight!r} holds {df[weight][row]!r} in row {row}; "
                        "weights must be finite numbers >= 0.")
    return w
