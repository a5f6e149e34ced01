"""The block protocol: how a feature type plugs into the model.

Every feature type is two things (the split of pomegranate's ``summarize`` /
``from_summaries`` and scikit-learn's ``_count`` / ``_update_feature_log_prob``):

* a **statistics value** (:class:`Stats`): the additive sufficient statistics of its
  columns, counted in one pass over any set of rows. Values are immutable (their arrays are
  read-only) and add exactly: ``summarize(rows A) + summarize(rows B) == summarize(A + B)``,
  so statistics computed on a partition of a file, a cluster worker or a database query
  merge into one model;
* a **block** (:class:`Block`) built *from* statistics plus the model's settings
  (smoothing, variance options). A block is never changed after it is built; everything it
  shows (CPTs, moments, word weights) is derived from its statistics.

The model (:mod:`nbapp.model`) loops over its blocks through this protocol only; the
registry (:mod:`nbapp.blocks`) maps a type name to its block class, so a new feature type is
one module plus one registry line (``nbapp.blocks.register(MyBlock)``).

The edges (the file scanners, the baseline, the lessons, the app) never test a type's name
either: the block class *declares* what they need (:class:`Block`'s class attributes
``kind``, ``title``, ``description``, ``value_kind``, ``baseline``, ``density_choice``) and
answers the few questions whose answer differs by type (``suits``, ``density_points``,
``baseline_transform``, ``dependence_codes``, ``notes_terms``, ``density_latex``, ``cpt_row``,
``far_value_cause``, ``epsilon_report``, ``cell_terms``, ``free_parameters``, ``card_values``), each with a
default here that a type overrides where it differs. Its statistics as aggregates for an engine
(``aggregates`` / ``from_aggregates``, :mod:`nbapp.scale._aggregates`) default to none: the
engines then stream the type's rows into ``summarize``.

Classes are indexed 0..K-1 in the model's class order; when classes are added (a merge, a
``partial_fit`` with a new class), :meth:`Stats.reindex_classes` moves every class axis.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from nbapp.errors import DataError
from nbapp.factor import Factor
from nbapp.ordering import python_scalar
from nbapp.smoothing import CellTerms

__all__ = ["Stats", "Block", "BlockSettings", "Spec", "NotesTerms", "frozen", "take_classes", "state_matrix",
           "state_vector", "check_class_sums", "check_table_budget", "MAX_TABLE_CELLS", "subtract_counts",
           "CATEGORY", "NUMBER", "COUNT", "TEXT", "VALUE_KINDS",
           "ONE_HOT", "STANDARDISED", "COUNTS", "BAG_OF_WORDS", "OWN", "BASELINE_ENCODINGS",
           "TINY_VARIANCE", "FAR_VALUE", "FAR_VALUE_CAUSES", "ParameterCount",
           "CardValues", "CARD_OBSERVED", "CARD_GRID", "CARD_SPREAD", "category_card", "number_card", "count_card",
           "document_card"]

# What a cell of a column holds (``Block.value_kind``): how a file's cell is read (NUMBER and
# COUNT as numbers, the rest as they come), how an input asks for it, how dependence codes it.
CATEGORY = "category"      # one value among some (strings or numbers compared as values)
NUMBER = "number"          # a real number
COUNT = "count"            # a whole number >= 0
TEXT = "text"              # a document
VALUE_KINDS = (CATEGORY, NUMBER, COUNT, TEXT)

# How a discriminative baseline (logistic regression, :mod:`nbapp.baseline`) encodes a column
# (``Block.baseline``); None: it cannot, and the baseline refuses the column by name.
ONE_HOT = "one-hot"                # an indicator per value, a missing value its own value
STANDARDISED = "standardised"      # the number, missing = the training mean, then standardised
COUNTS = "counts"                  # the count, missing = 0, then standardised
BAG_OF_WORDS = "bag of words"      # word counts with the column's own text pipeline
OWN = "own"                        # the block's baseline_transform, then as STANDARDISED
BASELINE_ENCODINGS = (ONE_HOT, STANDARDISED, COUNTS, BAG_OF_WORDS, OWN)

# The causes Block.far_value_cause may name for a row that dominates the log-loss (the
# diagnostics add causes of their own: a class missing from the training part, a zero count).
TINY_VARIANCE = "tiny class variance"
FAR_VALUE = "value far from the class"
FAR_VALUE_CAUSES = (TINY_VARIANCE, FAR_VALUE)


class Stats(ABC):
    """Additive sufficient statistics of one block (a frozen value).

    The protocol is ``+`` (rows of both), ``-`` (rows of self without those of other),
    :meth:`reindex_classes` and the model-file state. Subtraction is what makes k-fold
    cross-validation cost one pass: fold f's training statistics are the total minus fold f's
    (:mod:`nbapp.evaluate`, :func:`nbapp.scale.cross_validate_file`). Every statistics type
    implements ``__sub__``: exact for counts; for moments the inverse of Chan's update.
    """

    @abstractmethod
    def __add__(self, other: "Stats") -> "Stats":
        """The statistics of the union of both sets of rows (same class order)."""

    def __sub__(self, other: "Stats") -> "Stats":
        """The statistics of self's rows without other's rows, which must be among self's (same
        class order): ``(A + B) - B == A``. Values (categories, words) that keep no weight are
        dropped, as a summary of the remaining rows would not have them. Part of the protocol;
        a type that does not implement it yet makes callers fall back to adding parts."""
        raise NotImplementedError(f"{type(self).__name__} has no subtraction yet")

    @abstractmethod
    def reindex_classes(self, take: np.ndarray) -> "Stats":
        """Class i of the result is class take[i] of self, or a class with no rows if take[i] = -1."""

    @abstractmethod
    def to_state(self) -> dict[str, Any]:
        """JSON-safe state for a model file."""

    @classmethod
    @abstractmethod
    def from_state(cls, state: Mapping[str, Any], n_classes: int, where: str, *, columns: int = 1) -> "Stats":
        """Read and validate a model file's state for ``columns`` columns; errors name the field
        path after ``where``."""

    def rows_counted(self) -> tuple[str, np.ndarray] | None:
        """The weight of the rows these statistics counted, per class and column (classes x
        columns), and the field it comes from; None where the statistics are not counts of rows.
        A model file is checked against it: no block counts more rows of a class than the class
        has, nor a positive weight too small to be part of the class's total."""
        return None


class Spec:
    """What a column's feature type says of that column: a frozen, hashable dataclass whose
    fields are the type's options, each with a default, checked in ``__post_init__`` (a
    DataError naming the option). ``kind`` is the type's name in the registry.

    ``to_dict`` / ``from_dict`` are the spec's JSON form (model files, the app's address); the
    defaults here write every field as it is, which suits options that are JSON values; a
    spec with a richer option (Text's TextOptions) overrides ``to_dict`` and
    ``_options_from_dict``.
    """

    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """{"kind": ..., option: value, ...}, JSON-safe."""
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in dataclasses.fields(self)}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "feature") -> "Spec":
        """The spec of a JSON form, refusing unknown and malformed options by name (after ``where``)."""
        options = {k: v for k, v in data.items() if k != "kind"}
        unknown = set(options) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise DataError(f"{where}: the model file gives unknown options {sorted(unknown)} for a {cls.kind} feature.")
        try:
            return cls(**cls._options_from_dict(options, where))
        except TypeError as exc:
            raise DataError(f"{where}: the {cls.kind} feature's options are malformed ({exc}).") from None
        except DataError as exc:        # the spec's own check, e.g. a bandwidth whose square underflows
            raise DataError(f"{where}: {exc}") from None

    @classmethod
    def _options_from_dict(cls, options: dict[str, Any], where: str) -> dict[str, Any]:
        """The constructor's arguments from the JSON options (as they are, by default)."""
        return options


@dataclass(frozen=True)
class NotesTerms:
    """One column's part of the linear form as seed 000 writes it (Eq. 17-20), every feature
    observed: its weights by name, what it adds to the bias b, the notes' label of the form
    ("BER", "GNB", "CAT", "MULT", or the type's own title), ``features(frame)``: the column's x
    in that form (rows x weights, in the order of ``weights``), and, for a binary feature, the
    value that is x = 1."""

    weights: Mapping[str, float]
    bias: float
    label: str
    features: Callable[[pd.DataFrame], np.ndarray]
    one: Any = None


@dataclass(frozen=True)
class ParameterCount:
    """The free parameters a block estimates from the data for one column (or for a grouped
    type's columns together), counted as seed 000's Ex. 2.4 counts them: ``count``, its
    ``formula`` in symbols ("C (K − 1)") and with the model's numbers ("2 × (3 − 1)"), and in
    words what is counted (``reason``)."""

    columns: tuple[str, ...]
    count: int
    formula: str
    numbers: str
    reason: str


@dataclass(frozen=True)
class CardValues:
    """The values a person can choose for one column on the score card (issue 32, item 1):
    ``values`` in the order an input offers them (sorted numbers, a table's categories),
    ``current[i]`` the position of row i of the frame the card was asked for (-1 where the row
    has no value: a missing value adds nothing, seed 000 Eq. 22), and ``fixed``: the value is
    not chosen but given (a text column carries the row's document as one term). The model
    scores ``values`` itself (:meth:`nbapp.NaiveBayes.score_card`)."""

    values: tuple[Any, ...] | np.ndarray
    current: np.ndarray
    fixed: bool = False


# How many values a number's card shows besides the rows' own: up to CARD_OBSERVED values the
# block kept (a histogram's bins), spread evenly over them, and a grid of CARD_GRID points
# over the range, fine enough for a slider. A count shows every whole number up to
# CARD_OBSERVED. The browser adds, per value, one number per class: the card stays small.
CARD_OBSERVED = 200
CARD_GRID = 101
# A fitted density's card spans each class's mean +- CARD_SPREAD standard deviations: beyond,
# a normal density is below e^-8 (3e-4) of its peak for every class.
CARD_SPREAD = 4.0


@dataclass(frozen=True)
class BlockSettings:
    """What a block needs of the model's settings besides its statistics."""

    smoothing: Any          # Lidstone, MEstimate or BetaPrior (discrete blocks), None otherwise
    var_smoothing: float    # Gaussian epsilon factor
    variance: str           # the model's default Gaussian variance option
    var_smoothing_mode: str = "global"   # "global" (scikit-learn) or "per_feature" Gaussian epsilon


class Block(ABC):
    """One feature type's likelihood P(x_a | c) for its columns, built from statistics.

    The class declares what the edges need of the type (every type sets the first four):

    * ``kind``: its name in specs, model files, the app's address and the command line;
    * ``title``: words for people, one or two ("Gaussian", "KDE");
    * ``description``: one sentence for people, what P(x_a | c) is;
    * ``value_kind``: what a cell holds, :data:`CATEGORY`, :data:`NUMBER`, :data:`COUNT` or
      :data:`TEXT` (how a file's cell is read, how an input asks for it, how dependence codes it);
    * ``baseline``: how logistic regression encodes the column (:data:`ONE_HOT`,
      :data:`STANDARDISED`, :data:`COUNTS`, :data:`BAG_OF_WORDS`, :data:`OWN` with
      :meth:`baseline_transform`), or None: it cannot, and the baseline refuses the column;
    * ``density_choice``: offered when the app compares densities of a numeric column;
    * ``grouped``: all the model's columns of the type form one block (all count columns one
      multinomial; the Gaussian columns are scored together); else one block per column;
    * ``smoothed`` / ``accepts_beta``: uses the model's discrete smoothing / a Beta prior;
    * ``count_exponent``: a value x's factor is one probability to the power x (theta^x,
      seed 000 Eq. 9), so a lesson may show it as x equal factors;
    * ``spec_type`` / ``stats_type``: its spec (:class:`Spec`) and statistics (:class:`Stats`).
    """

    kind: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str] = ""
    value_kind: ClassVar[str]
    baseline: ClassVar[str | None] = None
    density_choice: ClassVar[bool] = False
    spec_type: ClassVar[type]
    grouped: ClassVar[bool] = False
    smoothed: ClassVar[bool] = True       # does the block use the model's discrete smoothing?
    accepts_beta: ClassVar[bool] = False  # may a BetaPrior smooth it (binary features only)?
    count_exponent: ClassVar[bool] = False  # is a value x's factor theta^x?
    stats_type: ClassVar[type[Stats]]

    def __init__(self, columns: Sequence[str], specs: Sequence[Any], settings: BlockSettings, stats: Stats) -> None:
        self.columns = list(columns)
        self.specs = tuple(specs)
        self.settings = settings
        self.stats = stats

    @property
    def column(self) -> str:
        return self.columns[0]

    @property
    def smoothing(self) -> Any:
        return self.settings.smoothing

    # -- statistics ------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def summarize(cls, columns: Sequence[str], specs: Sequence[Any], frame: pd.DataFrame,
                  y: np.ndarray, w: np.ndarray, n_classes: int) -> Stats:
        """One pass over the rows: y are class indices, w row weights."""

    @classmethod
    def from_stats(cls, columns: Sequence[str], specs: Sequence[Any], settings: BlockSettings,
                   stats: Stats, *, check: bool = True) -> "Block":
        """The fitted block; DataError if the statistics cannot make one (e.g. no words left).
        ``check=False`` builds it anyway, for a part of the data that more parts will complete."""
        block = cls(columns, specs, settings, stats)
        if check:
            block.check()
        return block

    @classmethod
    def aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any) -> list[Any] | None:
        """The statistics as aggregates over a table, for an engine (DuckDB, PostgreSQL, Spark SQL)
        to compute where the rows are: a list of :class:`nbapp.scale._aggregates.Sums` written with
        ``table``'s vocabulary (a column as a number or grouped by its values, the row weight,
        sum / min / max). None, the default: the type states no aggregates, and the engines
        stream its rows into :meth:`summarize` (or say the column cannot be pushed down)."""
        return None

    @classmethod
    def from_aggregates(cls, columns: Sequence[str], specs: Sequence[Any], table: Any, results: list[Any],
                        n_classes: int) -> Stats:
        """The statistics from the engine's answers to :meth:`aggregates` (one
        :class:`nbapp.scale._aggregates.Result` per Sums, in order): those of :meth:`summarize` on
        the same rows. DataError where summarize would refuse the rows."""
        raise NotImplementedError(f"{cls.__name__} states no aggregates")

    def check(self) -> None:
        """Refuse statistics that cannot be a fitted block (override where needed)."""

    def state(self) -> dict[str, Any]:
        return self.stats.to_state()

    # -- scoring ---------------------------------------------------------------------------
    @abstractmethod
    def joint_log(self, frame: pd.DataFrame, n_classes: int) -> np.ndarray:
        """sum over the block's observed columns of log P(x_a | c): rows x classes."""

    def joint_log_rows(self, frame: pd.DataFrame, rows: slice | np.ndarray, n_classes: int) -> np.ndarray:
        """:meth:`joint_log` of the rows ``rows`` (a slice or positions) of ``frame``: the model
        scores a large frame in row ranges, one per thread, and cross-validation scores each
        fold on its own rows, without copying the frame. This takes the block's own columns of
        those rows (a range of numpy or Arrow columns is a view, not a copy); a type that scores
        from codes remembered for the whole column takes only those codes instead."""
        return self.joint_log(frame[[c for c in self.columns if c in frame.columns]].iloc[rows], n_classes)

    @abstractmethod
    def factors(self, row: Mapping[str, Any], classes: list[Any]) -> list[Factor]:
        """One factor per column for ``explain`` (missing / unseen / undefined are left out)."""

    @abstractmethod
    def linear_terms(self, frame: pd.DataFrame) -> tuple[sparse.csr_matrix, list[str], np.ndarray]:
        """phi(x), the term names and weights w with log P(x | c1) / P(x | c0) = w . phi(x)
        for two classes   [seed 000, Eq. 17-20]."""

    @abstractmethod
    def sample(self, y: np.ndarray, rng: np.random.Generator, class_counts: np.ndarray) -> dict[str, np.ndarray]:
        """Values of the block's columns drawn from P(x | c) for the classes y."""

    # -- what the edges ask of a type (defaults; a type overrides where it differs) ----------
    @classmethod
    def suits(cls, x: np.ndarray) -> bool:
        """May a numeric column with these finite values be this type? (Poisson: whole counts >= 0.)"""
        return True

    @classmethod
    def density_points(cls, grid: np.ndarray) -> np.ndarray:
        """Where to draw the fitted density over a grid of the column's range (Poisson: whole
        numbers >= 0)."""
        return grid

    @classmethod
    def baseline_transform(cls, values: pd.Series, spec: Any) -> np.ndarray:
        """For ``baseline = OWN``: one number per row (NaN where missing) that logistic
        regression takes, standardised, in place of the column."""
        raise DataError(f"The {cls.title} type declares no transform of its own for the baseline.")

    @classmethod
    def dependence_codes(cls, column: str, spec: Any, frame: pd.DataFrame, y: np.ndarray, w: np.ndarray,
                         n_classes: int, bins: int) -> np.ndarray | None:
        """The column as value codes 0, 1, ... (-1 where missing) for the conditional mutual
        information (:mod:`nbapp.dependence`), by ``value_kind``: categories as they are, numbers
        and counts cut into ``bins`` intervals of about equal weight; None (text): not checked."""
        if cls.value_kind == TEXT:
            return None
        if cls.value_kind == CATEGORY:
            codes, _ = pd.factorize(frame[column], use_na_sentinel=True)
            return codes
        from nbapp.blocks.grid import interval_codes   # the grid of histograms builds on this module
        from nbapp._numbers import numeric_column

        x = numeric_column(frame[column], column, cls.title)
        return interval_codes(x, np.zeros(len(x), dtype=np.int64), w, 1, bins, "quantile")

    def notes_terms(self, column: str, weights: pd.Series) -> NotesTerms:
        """``column``'s part of :meth:`nbapp.LinearForm.notes_form` (seed 000, Eq. 18-20), from
        the form's ``weights``: by default the column's own terms as they are, except a term
        "<column> observed" (the constant of an observed value), which goes into b since the
        notes' form assumes every feature observed. A one-column block's terms are all its
        own; a grouped type overrides this."""
        _, names, _ = self.linear_terms(pd.DataFrame(index=[]))
        observed = f"{column} observed"
        kept = [n for n in names if n != observed]

        def features(frame: pd.DataFrame) -> np.ndarray:
            x, terms, _ = self.linear_terms(frame)
            return x[:, [terms.index(n) for n in kept]].toarray()

        return NotesTerms({n: float(weights[n]) for n in kept},
                          float(weights[observed]) if observed in names else 0.0, self.title, features)

    def density_latex(self, column: str, value: Any, c: int, number: Callable[[float], str]) -> str | None:
        r"""The factor p(value | c) of class index ``c`` as a LaTeX formula with the class's fitted
        numbers, each written by ``number`` (e.g. ``\mathcal{N}(6;\ \mu=5.855,\ \sigma^2=0.02628)``);
        None where the type has no closed form to show."""
        return None

    def cpt_row(self, column: str, value: Any) -> Any:
        """The row of ``cpt(column)`` that ``value`` is counted in (its category, interval or
        count column), or None: a missing or unseen value, or a type with no table."""
        return None

    def far_value_cause(self, column: str, value: Any, true_class: Any, classes: list[Any]) -> tuple[str, str] | None:
        """Why ``value`` makes ``true_class`` improbable, when the type knows a cause: one of
        :data:`FAR_VALUE_CAUSES` and a sentence with the numbers; None: the diagnostics
        (:func:`nbapp.diagnostics.log_loss_report`) say how much better it fits the rival class."""
        return None

    def epsilon_report(self, classes: list[Any]) -> Any:
        """The variance floor the type adds and what it swamps (:class:`GaussianEpsilon`), or None."""
        return None

    def cell_values_symbol(self, column: str) -> str:
        """The letter a cell's formula writes for the number of values its pseudo-count is spread
        over: K, the column's categories (seed 000, Eq. 7); a text column's vocabulary writes V."""
        return "K"

    def cell_terms(self, column: str, row: Any, c: int) -> CellTerms | None:
        """The numbers the cell (``row``, class index ``c``) of ``cpt(column)`` is made of, unreduced:
        (count + pseudo) / (n + pseudo_total), as :func:`nbapp.smoothing.cell_terms` keeps them
        (tennis, P(Humidity = High | Yes) at l = 0: (3 + 0) / (9 + 0) = 3/9 before it is 1/3); ``row``
        is a row of that table (what :meth:`cpt_row` returns; a word of a text column). None where
        the type's numbers are no smoothed counts (a density) or ``row`` is not in its table."""
        return None

    def free_parameters(self, n_classes: int) -> list[ParameterCount]:
        """The free parameters the block estimates from the data for ``n_classes`` classes, one
        :class:`ParameterCount` per column (one for a grouped type's columns when they share their
        parameters)   [seed 000, Ex. 2.4: a categorical column with K values has C (K − 1), a
        Gaussian 2 C]. Settings (l, epsilon, a bandwidth) are not counted. A type that does not
        say raises DataError, and no count of the model's parameters is given."""
        raise DataError(f"Column {self.column!r} is {self.title}: its type does not say how many parameters it "
                        "estimates, so the model's parameters cannot be counted.")

    def card_values(self, column: str, seen: pd.Series, class_counts: np.ndarray) -> CardValues:
        """The values of ``column`` a person can choose on the score card (issue 32, item 1):
        every value of ``seen`` (the rows the card is asked for; missing ones left out) and the
        values the fit knows (a categorical's categories, a count's whole numbers, a number's
        observed values and a fine grid over its range), built with :func:`category_card`,
        :func:`number_card`, :func:`count_card` or :func:`document_card`. ``class_counts``: the
        model's rows per class. The model scores them through :meth:`joint_log`, so the card's
        numbers are the model's. By default, by ``value_kind``, the rows' own values only (the
        fit's values and range are the type's to say): its categories, numbers or counts (and
        the whole numbers up to them), or its document."""
        if self.value_kind == TEXT:
            return document_card(seen)
        if self.value_kind == CATEGORY:
            return category_card(seen, (), python_scalar)
        from nbapp._numbers import numeric_column

        x = numeric_column(seen, column, self.title)
        return count_card(x, 0.0) if self.value_kind == COUNT else number_card(x, np.nan, np.nan)

    # -- what the block shows (DataError where the type has no such table) -----------------
    def cpt(self, column: str, classes: list[Any], exact: bool = False) -> pd.DataFrame:
        raise DataError(f"Column {column!r} is {self.kind}: it has no probability table; "
                        f"see m.parameters({column!r}).")

    def counts(self, column: str, classes: list[Any]) -> pd.DataFrame:
        raise DataError(f"Column {column!r} is {self.kind}: its statistics are in m.parameters({column!r}).")

    def parameters(self, column: str, classes: list[Any]) -> pd.DataFrame:
        """Per class, the fitted parameters of a continuous or count feature."""
        raise DataError(f"Column {column!r} is {self.kind}: its parameters are its table, m.cpt({column!r}).")

    def density(self, column: str, x: np.ndarray, classes: list[Any]) -> pd.DataFrame:
        raise DataError(f"Column {column!r} is {self.kind}, not Gaussian.")

    def density_rows(self, column: str, x: np.ndarray, classes: pd.Index, rows: Any) -> pd.DataFrame:
        """:meth:`density` of the classes at positions ``rows`` of ``classes`` only; a block whose
        density costs per class computes those alone (the Gaussian)."""
        return self.density(column, x, classes).iloc[:, rows]

    def typical_value(self, column: str, prior: np.ndarray, class_counts: np.ndarray) -> float:
        raise DataError(f"Column {column!r} is {self.kind}: it has no typical number.")

    def top_words(self, column: str, classes: list[Any], n: int) -> pd.DataFrame:
        raise DataError(f"Column {column!r} is {self.kind}: top words exist for text and count columns.")

    def smoothing_of(self, column: str) -> Any:
        if not self.smoothed:
            raise DataError(f"Column {column!r} is {self.kind}: it is not smoothed (seed 000, ex. 2.3 c).")
        return self.smoothing


# -- the values of a score card (Block.card_values) ---------------------------------------------
def category_card(seen: pd.Series, categories: Sequence[Any], key: Callable[[Any], Any]) -> CardValues:
    """A category's card: the categories in their order, then the rows' values that are none of
    them (a value never seen in training is scored as the column's unseen policy says); values
    are compared by ``key`` (the block's own rule, e.g. a binary column's)."""
    codes, uniques = pd.factorize(seen, use_na_sentinel=True)
    values = [python_scalar(v) for v in categories]
    position = {key(v): j for j, v in enumerate(values)}
    where = np.empty(len(uniques), dtype=np.intp)
    for u, value in enumerate(uniques):       # each distinct value once, not each row
        value = python_scalar(value)
        j = position.get(key(value))
        if j is None:
            j = position[key(value)] = len(values)
            values.append(value)
        where[u] = j
    return CardValues(tuple(values), _current(codes, where))


def number_card(seen: np.ndarray, low: float, high: float, observed: np.ndarray | None = None) -> CardValues:
    """A number's card: the rows' values (``seen``, NaN where missing), up to
    :data:`CARD_OBSERVED` of the ``observed`` values the block kept, and :data:`CARD_GRID`
    points from ``low`` to ``high`` (the block's range, widened to the rows' values), sorted."""
    x = seen[np.isfinite(seen)]
    kept = np.zeros(0) if observed is None else np.unique(observed[np.isfinite(observed)])
    if len(kept) > CARD_OBSERVED:
        kept = kept[np.round(np.linspace(0, len(kept) - 1, CARD_OBSERVED)).astype(np.intp)]
    ends = np.concatenate([[low, high], x, kept])
    ends = ends[np.isfinite(ends)]
    grid = np.linspace(ends.min(), ends.max(), CARD_GRID) if len(ends) else np.zeros(0)
    return _sorted_card(seen, np.concatenate([x, kept, grid]))


def count_card(seen: np.ndarray, high: float) -> CardValues:
    """A count's card: every whole number from 0 to ``high`` (the block's largest likely count,
    widened to the rows' counts), :data:`CARD_OBSERVED` of them spread evenly where there are
    more, and the rows' own counts."""
    x = seen[np.isfinite(seen)]
    top = max(float(np.ceil(high)) if np.isfinite(high) else 0.0, float(x.max(initial=0.0)), 0.0)
    whole = np.arange(top + 1) if top < CARD_OBSERVED else np.unique(np.round(np.linspace(0, top, CARD_OBSERVED)))
    return _sorted_card(seen, np.concatenate([whole, x]))


def document_card(seen: pd.Series) -> CardValues:
    """A text column's card: the rows' documents, each a fixed term (a person does not choose
    a document from a list; the card carries the row's)."""
    codes, uniques = pd.factorize(seen, use_na_sentinel=True)
    return CardValues(tuple(python_scalar(u) for u in uniques), _current(codes, np.arange(len(uniques))), fixed=True)


def _sorted_card(seen: np.ndarray, values: np.ndarray) -> CardValues:
    values = np.unique(values)                  # sorted; every finite seen value is among them
    at = np.searchsorted(values, np.nan_to_num(seen))
    return CardValues(values, np.where(np.isfinite(seen), at, -1).astype(np.intp))


def _current(codes: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Each row's position on the card from its factorize code (-1, missing, stays -1)."""
    return np.where(codes >= 0, where[np.maximum(codes, 0)] if len(where) else 0, -1).astype(np.intp)


# -- helpers shared by the statistics values ---------------------------------------------------
# The largest (values x classes) table a block may hold: 20 million float64 cells, 160 MB.
# An ID-like target (one class per row) would need gigabytes; it is refused before allocating.
MAX_TABLE_CELLS = 20_000_000


def check_table_budget(n_values: int, n_classes: int, column: str, what: str = "values") -> None:
    """Refuse a statistics table beyond :data:`MAX_TABLE_CELLS` before it is allocated."""
    cells = n_values * n_classes
    if cells > MAX_TABLE_CELLS:
        raise DataError(
            f"Column {column!r} has {n_values:,} {what} and the target {n_classes:,} classes: its table "
            f"would hold {cells:,} cells ({cells * 8 / 1e9:.1f} GB), beyond nbapp's budget of "
            f"{MAX_TABLE_CELLS:,} cells. Is the target an ID column? Choose a target with fewer classes, "
            "or type this column 'ignore'."
        )


def frozen(array: Any) -> np.ndarray:
    """A float64 copy that cannot be written to (statistics are values)."""
    out = np.array(array, dtype=float)
    out.setflags(write=False)
    return out


def take_classes(matrix: np.ndarray, take: np.ndarray, axis: int) -> np.ndarray:
    """Re-index a class axis: position i gets class take[i], zeros where take[i] = -1."""
    matrix = np.asarray(matrix)
    shape = list(matrix.shape)
    shape[axis] = len(take)
    out = np.zeros(shape)
    keep = take >= 0
    index: list[Any] = [slice(None)] * matrix.ndim
    index[axis] = np.flatnonzero(keep)
    source: list[Any] = [slice(None)] * matrix.ndim
    source[axis] = take[keep]
    out[tuple(index)] = matrix[tuple(source)]
    return frozen(out)


def subtract_counts(total: np.ndarray, part: np.ndarray) -> np.ndarray:
    """total - part for weighted counts of rows that part took out of total. Whole-number
    weights subtract exactly; fractional weights leave rounding residues of the size of one
    unit in the last place of the total, which are set to 0 (else a category no remaining row
    has would keep a count of 1e-17 and count as seen)."""
    total, part = np.asarray(total, dtype=float), np.asarray(part, dtype=float)
    left = total - part
    residue = np.abs(left) <= 8 * np.finfo(float).eps * np.abs(total)
    return frozen(np.where(residue | (left < 0), 0.0, left))


def state_matrix(value: Any, shape: tuple[int, ...], where: str, *, non_negative: bool = True) -> np.ndarray:
    """A model file's table as a float array of the given shape, every cell a finite number
    (>= 0 for counts); the error names the cell, e.g. "counts[2][1] is -3"."""
    flat = _numbers_flat(value, shape)
    if flat is None:
        raise DataError(f"{where} should be a table of {' x '.join(map(str, shape))} numbers.")
    m = np.array(flat, dtype=float).reshape(shape)
    bad = ~np.isfinite(m) | ((m < 0) if non_negative else False)
    if bad.any():
        cell = tuple(int(i) for i in np.argwhere(bad)[0])
        reason = "counts cannot be negative" if np.isfinite(m[cell]) else "it must be a finite number"
        raise DataError(f"{where}{''.join(f'[{i}]' for i in cell)} is {m[cell]:g}; {reason}.")
    return frozen(m)


def state_vector(value: Any, length: int, where: str, *, non_negative: bool = True) -> np.ndarray:
    return state_matrix(value, (length,), where, non_negative=non_negative)


def check_class_sums(counts: np.ndarray, where: str) -> None:
    """Every class's counts (a values x classes table; or one count per class, then their total)
    add up to a finite number: cells near 1e308 overflow their sum, and the smoothed fractions
    become NaN. The error names the class by its position."""
    with np.errstate(over="ignore"):
        sums = np.atleast_1d(counts.sum(axis=0))
    bad = np.flatnonzero(~np.isfinite(sums))
    if len(bad):
        which = f" of class {int(bad[0])}" if counts.ndim == 2 else ""
        raise DataError(f"{where}{which} add up beyond the largest number float64 holds (about 1.8e308); "
                        "no fit counts that much.")


def _numbers_flat(value: Any, shape: tuple[int, ...]) -> list[Any] | None:
    """The numbers of nested lists of exactly this shape, flattened; None unless every leaf is
    a JSON number (not a boolean).

    Checked a level at a time with C-speed type and length sets: a model file's tables hold
    millions of numbers, and a call per number held the GIL for seconds."""
    level = [value]
    for size in shape:
        if set(map(type, level)) - {list} or set(map(len, level)) - {size}:
            return None
        level = list(chain.from_iterable(level))
    if all(issubclass(t, (int, float)) and not issubclass(t, bool) for t in set(map(type, level))):
        return level
    return None


def exact_power(value: Fraction | None, count: float) -> Fraction | None:
    """theta ** x as a fraction for small whole counts (else None: too long to show anyone)."""
    if value is None or not float(count).is_integer() or count > 1000:
        return None
    return value ** int(count)
