"""Statistics as aggregates: every feature type's statistics computed inside an engine.

Naive Bayes needs additive statistics only: weighted counts per (class, value), and per class
the weighted count, mean and M2 of a number, or sums of counts. Those are GROUP BY aggregates,
which an engine (DuckDB, PostgreSQL, Spark SQL) computes where the rows are, at its own speed,
and what leaves it is kilobytes. Each feature type states its statistics as aggregates over a
table (``Block.aggregates``, in the type's own module) and builds its statistics from their
values (``Block.from_aggregates``); this module puts every type's aggregates into one query,
runs it and assembles the model's statistics (:class:`nbapp.stats.ModelStats`), equal to
those of ``summarize`` on the same rows (counts exactly, moments to rounding).

The query, written once as sqlglot expression trees, which print each engine's SQL (quoting
included)::

    WITH nbapp_source AS (<a table, a query or a file scan>),
         nbapp_rows AS (SELECT <target> AS class, <weight>, <each used column as its type reads it>
                        FROM nbapp_source)
    SELECT class, key_1, ..., GROUPING(key_1), ..., <every type's aggregates>
    FROM nbapp_rows GROUP BY GROUPING SETS ((class), (class, key_1), ...)

is one scan for all the statistics: class counts and per-class sums come from the set
(class), each categorical column's counts from its set (class, column). The distinct values
of the target and of the categorical columns come back as the engine holds them and are read
in Python by the rule of an in-memory fit (:attr:`Source.values`): there are few of them.

Why sqlglot and not Ibis: Ibis has no GROUPING SETS (ibis-project/ibis issue 550), so each
categorical column would cost one more scan of the data; Ibis 12's DuckDB backend fails
against DuckDB 2 and its Spark compiler cannot print SQL without PySpark loaded; and Ibis
prints its SQL through sqlglot anyway. The SQL runs through each engine's own driver
(:mod:`nbapp.scale._engines`).

A type without aggregates (text, whose tokens must be scikit-learn's; a type a user
registers) raises :class:`NotPushable`; the caller then streams the rows into ``summarize``
where it can (a file, a local DuckDB) and says so where it cannot (a remote database). Rows
that an in-memory fit refuses (a missing class, a bad weight, an infinite number, a negative
count, a third value of a binary column...) are counted by the aggregates and raise
:class:`Refused`; the caller streams the rows again so that the refusal names the row and the
value, as ``fit`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from nbapp.errors import DataError
from nbapp.ordering import python_scalar, sort_values

__all__ = ["Sums", "Table", "Result", "Source", "Refine", "NotPushable", "Refused", "MissingClass",
           "model_statistics", "SAMPLE_ROWS", "MAX_WEIGHT"]

# Rows read first to choose each class's shift (its mean there) for the moments; a table no
# longer than this is read whole, so its row count is known before the main query.
SAMPLE_ROWS = 10_000
# Weights beyond this make class totals lose whole rows in float64 (as NaiveBayes refuses).
MAX_WEIGHT = 1e15
# Passes over the rows a block may ask for (the moments: 2; a histogram: its level, then finer ones).
MAX_PASSES = 8
# Grouped by every key at once first (then the grouping sets over those few rows) while the first
# rows suggest at most this many (class, value, value, ...) combinations: one aggregate per row
# instead of one per grouping set, the fastest plan for a few low-cardinality columns.
MAX_COMBINATIONS = 50_000
# More classes than this and the shift is one per column (a CASE per row grows with classes).
MAX_SHIFT_CLASSES = 64
# Names of nbapp's own columns in the query (quoted, so a user column may not clash by case).
CLASS, PART, WEIGHT = "__nbapp_class", "__nbapp_part", "__nbapp_weight"
SOURCE, ROWS = "nbapp_source", "nbapp_rows"


class NotPushable(Exception):
    """A column whose statistics the engine cannot compute (the sentence says which and why)."""


class Refused(Exception):
    """The aggregates found rows that a fit refuses; streaming the rows names them."""


class MissingClass(Refused):
    """Rows without a class (the caller may have left in rows it would drop: blank lines)."""


class Refine(Exception):
    """From ``from_aggregates`` (:meth:`Table.again`): compute this block's aggregates once more,
    with what it noted in ``table.memo`` (one more pass over the rows)."""


@dataclass(frozen=True)
class Sums:
    """Aggregates a block asks of the engine, per class (``key`` None) or per class and value of
    the column ``key``: name -> an aggregate expression (:meth:`Table.sum`, ``least``, ``most``)."""

    aggregates: Mapping[str, Any]
    key: str | None = None


@dataclass(frozen=True)
class Source:
    """Where the rows are and how to ask for them.

    ``sql``: a query in the engine's dialect whose rows are the table; ``columns``: its column
    names and what each holds, one of "number", "boolean", "text", "other", "nested: lists"
    (... maps, structs: refused by name) or "parsed" (a number the source already reads as
    DOUBLE, NULL where missing); ``run(sql, progress)``:
    the result of a query as {column: list of values}; ``values(column, raw)``: the distinct
    values of a column as the engine returned them, read as an in-memory fit reads the column
    (a pandas Series, NaN / None where missing); ``where``: the source in words for sentences;
    ``moments``: the engine's COUNT, SUM and VAR_POP give an unweighted column's per-class moments
    in the one scan, precisely enough to use (Spark: Welford updates within a partition, Chan's
    merge between them), so that no first rows are read for a shift (issue 34, item 7).
    """

    sql: str
    dialect: str
    columns: Mapping[str, str]
    run: Callable[[str, Any], dict[str, list[Any]]]
    values: Callable[[str, list[Any]], pd.Series]
    where: str = "the table"
    moments: bool = False


# -------------------------------------------------------------------------------------------------
# the vocabulary of a block's aggregates
# -------------------------------------------------------------------------------------------------
def _exp() -> Any:
    from sqlglot import exp

    return exp


class Table:
    """The rows as a block writes aggregates over them: a column read as a number (DOUBLE, NULL
    where missing) or as a value (grouped, read back in Python), the row weight, a shift per
    class for sums of squares, and the SQL a statistic needs (sum, min, max, CASE)."""

    def __init__(self, source: Source, weight: str | None, shifts: Mapping[str, Mapping[Any, float]] | None = None,
                 classes: Sequence[Any] = (), class_of: Mapping[Any, int] | None = None, parts: int = 1) -> None:
        self.source = source
        self.weight_column = weight
        self.numbers: dict[str, None] = {}      # columns asked for as numbers, in order
        self.keys: dict[str, None] = {}         # columns asked for as values
        self.shifted: dict[str, None] = {}      # columns whose shift was asked for
        self._shifts = {c: dict(s) for c, s in (shifts or {}).items()}
        self.classes = tuple(classes)
        self._class_of = dict(class_of or {})
        self.parts = parts
        self.memo: dict[str, Any] = {}          # what a block keeps from one pass to the next
        self.derived: dict[str, Any] = {}       # key columns computed from others: alias -> expression

    @staticmethod
    def sums(aggregates: Mapping[str, Any], key: str | None = None) -> Sums:
        """A block's request: these aggregates per class, or per class and value of ``key``."""
        return Sums(aggregates, key)

    def again(self) -> None:
        """Ask for this block's aggregates once more (what they need next is in ``self.memo``)."""
        raise Refine()

    # -- columns -------------------------------------------------------------------------------
    def number(self, column: str) -> Any:
        """The column as a DOUBLE (NULL where missing), as :func:`nbapp._numbers.numeric_column` reads it."""
        kind = self.source.columns.get(column)
        if kind not in ("number", "boolean", "parsed"):
            raise NotPushable(f"Column {column!r} is read as numbers by its type, but {self.source.where} holds "
                              f"it as {kind or 'something else'}")
        self.numbers[column] = None
        return _exp().column(column, quoted=True)

    def raw_number(self, column: str) -> Any:
        """A typed number column as a DOUBLE with NaN and infinities left in (no count of them
        either): for aggregates whose answer a NaN or an infinity makes non-finite, answered by
        the block with another pass over :meth:`number`'s reading. The engine then reads the
        column as its own GROUP BY would (NULLIF per value costs Spark a tenth of the scan)."""
        if self.source.columns.get(column) != "number":
            return self.number(column)
        exp = _exp()
        return self.computed(f"raw_{column}", exp.cast(exp.column(column, quoted=True), exp.DataType.build("double")))

    def value(self, column: str) -> str:
        """The column grouped by its values (for ``Sums(key=...)``)."""
        self.keys[column] = None
        return column

    @property
    def weight(self) -> Any:
        """The row's weight: the literal 1 without a weight column, so that the engine folds
        products and conditions on it away."""
        if self.weight_column is None:
            return _exp().Literal.number(1)
        return _exp().column(WEIGHT, quoted=True)

    def key(self, name: str, e: Any) -> str:
        """A key computed from the row (e.g. a histogram bin), grouped like a column's values and
        returned as the engine computes it (not read by a column's rule); ``name`` must be unique
        to the block and column."""
        alias = f"__nbapp_key_{name}"
        self.derived[alias] = e
        return alias

    def computed(self, name: str, e: Any) -> Any:
        """A number computed once per row from the row's columns (e.g. a position inside a bin)."""
        alias = f"__nbapp_computed_{name}"
        self.derived[alias] = e
        return _exp().column(alias, quoted=True)

    def deviation(self, column: str) -> Any:
        """x - shift(column), computed once per row (a column of the rows the aggregates read)."""
        alias = f"__nbapp_deviation_{column}"
        self.derived[alias] = self.minus(self.number(column), self.shift(column))
        return _exp().column(alias, quoted=True)

    def shift(self, column: str) -> Any:
        """A number near the class mean of the column, per class: the mean of the first rows, or
        the one a block set in ``memo["shift"][column]`` (per class) after a pass. Sums of
        (x - shift) and (x - shift)^2 keep their digits where x^2 would cancel."""
        exp = _exp()
        self.shifted[column] = None
        chosen = self.memo.get("shift", {}).get(column)
        shifts = self._shifts.get(column, {}) if chosen is None else self._class_shifts(chosen)
        default = shifts.get(None, 0.0)
        per_class = [(raw, k) for raw, k in shifts.items() if raw is not None]
        if not per_class:
            return self.literal(default)
        case = exp.Case(this=exp.column(CLASS, quoted=True))
        for raw, k in per_class:
            case = case.when(_literal(raw), self.literal(k))
        return case.else_(self.literal(default))

    def _class_shifts(self, per_class: np.ndarray) -> dict[Any, float]:
        """Shifts per class index (per part and class: averaged over the parts) as shifts per
        class value as the engine holds it."""
        k = len(self.classes)
        per = np.asarray(per_class, dtype=float).reshape(self.parts, k)
        with np.errstate(invalid="ignore"):
            means = np.nanmean(np.where(np.isfinite(per), per, np.nan), axis=0) if self.parts > 1 else per[0]
        shifts: dict[Any, float] = {None: float(np.nanmean(means)) if np.isfinite(means).any() else 0.0}
        if all(_literal_ok(raw) for raw in self._class_of):
            shifts.update({raw: float(means[i]) for raw, i in self._class_of.items() if np.isfinite(means[i])})
        return shifts

    def shifts(self, column: str) -> np.ndarray:
        """The shift of each class (part by part: the class's shift in every part), as :meth:`shift` used it."""
        chosen = self.memo.get("shift", {}).get(column)
        shifts = self._shifts.get(column, {}) if chosen is None else self._class_shifts(chosen)
        default = shifts.get(None, 0.0)
        by_class = np.full(len(self.classes), default)
        for raw, k in shifts.items():
            if raw is not None and raw in self._class_of:
                by_class[self._class_of[raw]] = k
        return np.tile(by_class, self.parts)

    # -- SQL -----------------------------------------------------------------------------------
    @staticmethod
    def literal(x: float) -> Any:
        """A DOUBLE literal, exact: the shortest decimal that reads back as x, cast from text (a
        decimal literal may be read as a DECIMAL first and rounded twice)."""
        exp = _exp()
        return exp.cast(exp.Literal.string(repr(float(x))), exp.DataType.build("double"))

    # Arithmetic and comparisons build their nodes here, every operand in parentheses: sqlglot's
    # Python operators leave out the parentheses of a difference inside a product of three.
    @staticmethod
    def times(*factors: Any) -> Any:
        """The product; a factor 1 (the weight of an unweighted table) is left out."""
        exp = _exp()
        factors = [f for f in factors if not _is_one(f)] or [exp.Literal.number(1)]
        product = _paren(factors[0])
        for factor in factors[1:]:
            product = exp.Mul(this=product, expression=_paren(factor))
        return product

    @staticmethod
    def minus(a: Any, b: Any) -> Any:
        return _exp().Sub(this=_paren(a), expression=_paren(b))

    @staticmethod
    def less(a: Any, b: Any) -> Any:
        return _exp().LT(this=_paren(a), expression=_paren(b))

    @staticmethod
    def greater(a: Any, b: Any) -> Any:
        exp = _exp()
        if _is_one(a) and isinstance(b, exp.Literal) and b.this == "0":
            return exp.true()            # 1 > 0: an unweighted row always counts
        return exp.GT(this=_paren(a), expression=_paren(b))

    @staticmethod
    def differs(a: Any, b: Any) -> Any:
        return _exp().NEQ(this=_paren(a), expression=_paren(b))

    @staticmethod
    def either(*conditions: Any) -> Any:
        return _exp().or_(*(_paren(c) for c in conditions))

    @staticmethod
    def both(*conditions: Any) -> Any:
        exp = _exp()
        kept = [c for c in conditions if not isinstance(c, exp.Boolean) or not c.this] or [exp.true()]
        return kept[0].copy() if len(kept) == 1 else exp.and_(*(_paren(c) for c in kept))

    @staticmethod
    def absolute(e: Any) -> Any:
        return _exp().Abs(this=e.copy())

    @staticmethod
    def zero() -> Any:
        return _exp().Literal.number(0)

    @staticmethod
    def sum(e: Any) -> Any:
        return _exp().Sum(this=e)

    @staticmethod
    def count_present(e: Any) -> Any:
        """The rows where e is not NULL (COUNT(e): an unweighted count)."""
        return _exp().Count(this=e.copy())

    @staticmethod
    def variance(e: Any) -> Any:
        """VAR_POP(e): M2 / n over the rows where e is not NULL (see Source.moments)."""
        return _exp().VariancePop(this=e.copy())

    @staticmethod
    def least(e: Any) -> Any:
        return _exp().Min(this=e)

    @staticmethod
    def most(e: Any) -> Any:
        return _exp().Max(this=e)

    @staticmethod
    def count(condition: Any) -> Any:
        """The rows where ``condition`` holds (a SUM of 1s: weights do not matter to a refusal)."""
        exp = _exp()
        return exp.Sum(this=exp.Case().when(condition.copy(), exp.Literal.number(1)).else_(exp.Literal.number(0)))

    @staticmethod
    def where(condition: Any, e: Any) -> Any:
        """e where the condition holds, NULL elsewhere (left out of every aggregate)."""
        exp = _exp()
        if isinstance(condition, exp.Boolean) and condition.this:
            return e.copy()
        return exp.Case().when(condition.copy(), e.copy())

    @staticmethod
    def present(e: Any) -> Any:
        exp = _exp()
        return exp.Not(this=exp.Is(this=e.copy(), expression=exp.Null()))

    @staticmethod
    def floor(e: Any) -> Any:
        return _exp().Floor(this=e.copy())


def _is_one(e: Any) -> bool:
    exp = _exp()
    return isinstance(e, exp.Literal) and not e.is_string and e.this == "1"


def _paren(e: Any) -> Any:
    """A copy of e in parentheses (a column or a literal needs none)."""
    exp = _exp()
    e = e.copy()
    return e if isinstance(e, (exp.Column, exp.Literal, exp.Paren, exp.Cast, exp.Func)) else exp.Paren(this=e)


def _literal(value: Any) -> Any:
    """A class value as an SQL literal (for the CASE of the shifts)."""
    exp = _exp()
    if isinstance(value, float):
        return Table.literal(value)
    if isinstance(value, (bool, int, str)):
        return exp.convert(value)
    raise TypeError(type(value).__name__)


# -------------------------------------------------------------------------------------------------
# the answer
# -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """The engine's answer to one :class:`Sums`: one row per (class, value) or per class, with
    ``classes`` the class index of each row (part * classes + class with parts), ``values``
    the key column's values read as an in-memory fit reads them (keyed sums only) and the
    aggregates by name (:meth:`column`, :meth:`per_class`)."""

    n_classes: int
    classes: np.ndarray
    data: Mapping[str, np.ndarray]
    kinds: Mapping[str, str]
    values: pd.Series | None = None

    def column(self, name: str) -> np.ndarray:
        """The aggregate per row (NaN where the engine found no value: a sum over no rows)."""
        return self.data[name]

    def per_class(self, name: str) -> np.ndarray:
        """The aggregate per class: rows of one class (several spellings of one class value in a
        file, " 4" and "4") combined by the aggregate's own rule; 0 for a sum over no rows, NaN
        for a min or max over none."""
        values = self.data[name]
        kind = self.kinds[name]
        if kind == "moment":
            raise TypeError(f"{name!r} is a variance, which does not add: combine its rows by Chan's update")
        if kind == "sum":
            return np.bincount(self.classes, weights=np.nan_to_num(values, nan=0.0), minlength=self.n_classes)
        out = np.full(self.n_classes, np.nan)
        pick = np.fmin if kind == "min" else np.fmax
        for c, v in zip(self.classes, values):
            out[c] = pick(out[c], v)
        return out


# -------------------------------------------------------------------------------------------------
# the query and the statistics
# -------------------------------------------------------------------------------------------------
def pushable(model: Any) -> str | None:
    """None if every feature type of the model states aggregates, else a sentence naming the
    first column whose type states none (``Block.aggregates`` left at the protocol's default)."""
    from nbapp.blocks.base import Block

    for cls, columns, _ in model._layout:
        if getattr(cls.aggregates, "__func__", None) is Block.aggregates.__func__:
            return (f"Column {columns[0]!r} is {cls.kind}: its statistics cannot be computed inside the engine "
                    f"(the {cls.kind} type states no aggregates)")
    return None


def model_statistics(model: Any, source: Source, target: str, weight: str | None, *, part: str | None = None,
                     parts: int = 1, progress: Any = None, known_rows: int | None = None) -> tuple[Any, int]:
    """The model's statistics of every row of ``source`` computed by its engine, and the number
    of rows. With ``part`` (a column of the source giving each row a part 0..parts-1), a list
    of statistics, one per part (as :meth:`NaiveBayes.summarize_parts`).

    Raises NotPushable (a type without aggregates, a number column held as text) and Refused
    (rows a fit refuses); DataError for a missing column."""
    _check_columns(model, source, target, weight)
    if part is not None:
        part = _exp().column(part, quoted=True)
    reason = pushable(model)
    if reason is not None:
        raise NotPushable(reason)
    layout = list(model._layout)
    sample_rows, shifts, combinations = _sample(model, source, target, weight, layout, part)
    rows_known = sample_rows if sample_rows < SAMPLE_ROWS else known_rows
    pending = list(range(len(layout)))
    stats: list[Any] = [None] * len(layout)
    memos: list[dict[str, Any]] = [{} for _ in layout]
    classes: tuple[Any, ...] = ()
    class_of: dict[Any, int] = {}
    class_counts = class_rows = rows = None
    for round_ in range(MAX_PASSES):
        table = _Table(source, weight, shifts, part, parts)
        if round_:
            table.bind(classes, class_of)
        requests = {}
        for i in pending:
            table.memo = memos[i]
            requests[i] = layout[i][0].aggregates(layout[i][1], layout[i][2], table)
        answer = _run(table, source, target, requests, progress if round_ == 0 else None, rows_known,
                      nested=round_ == 0 and combinations * parts <= MAX_COMBINATIONS)
        if round_ == 0:
            classes, class_of, rows = answer.classes, answer.class_of, answer.rows
            class_counts, class_rows = answer.class_counts, answer.class_rows
            if not rows:
                raise Refused()          # the caller's streamed path says so, naming the file
            table.bind(classes, class_of)
        again = []
        for i in pending:
            cls, columns, specs = layout[i]
            table.memo = memos[i]
            try:
                stats[i] = cls.from_aggregates(columns, specs, table, answer.results[i], len(classes) * parts)
            except Refine:
                again.append(i)
            except DataError:
                raise Refused() from None
        if not again:
            break
        pending = again
    else:
        raise RuntimeError(f"{layout[pending[0]][0].__name__}.from_aggregates asked for more than {MAX_PASSES} passes")
    return _model_stats(classes, class_counts, class_rows, stats, parts), rows


def _check_columns(model: Any, source: Source, target: str, weight: str | None) -> None:
    from nbapp.io._nested import nested_error

    if target in model.features_:
        raise DataError(f"Column {target!r} is the target and cannot also be a feature.")
    for column in [target, *model.features_, *([weight] if weight else [])]:
        if column not in source.columns:
            raise DataError(f"Column {column!r} is not in {source.where}; its columns are {list(source.columns)[:10]}.")
        if source.columns[column].startswith("nested: "):
            raise nested_error(column, source.columns[column][len("nested: "):], source.where)


class _Table(Table):
    """The planner's Table: it also knows the source's class, part and weight expressions and,
    after the query, the classes (so that ``shifts`` can index them)."""

    def __init__(self, source: Source, weight: str | None, shifts: Mapping[str, Mapping[Any, float]],
                 part: Any, parts: int) -> None:
        super().__init__(source, weight, shifts, parts=parts)
        self.part = part

    def bind(self, classes: Sequence[Any], class_of: Mapping[Any, int]) -> None:
        self.classes, self._class_of = tuple(classes), dict(class_of)


def _number_expression(column: str, kind: str) -> Any:
    """How a column becomes a number: a number the source parsed is as it is; a typed number is
    cast to DOUBLE with NaN read as missing (NULLIF: NaN equals NaN in DuckDB, PostgreSQL and
    Spark); a boolean is 1 / 0 (PostgreSQL casts no boolean to DOUBLE)."""
    exp = _exp()
    x = exp.column(column, quoted=True)
    double = exp.DataType.build("double")
    if kind == "parsed":
        return x
    if kind == "boolean":
        return exp.Case().when(x, Table.literal(1.0)).when(exp.Not(this=x), Table.literal(0.0))
    nan = exp.cast(exp.Literal.string("NaN"), double)
    return exp.func("NULLIF", exp.cast(x, double), nan)


def _rows_query(table: Table, source: Source, target: str, part: Any) -> Any:
    """SELECT class, part, weight and the used columns FROM the source: nbapp_rows."""
    exp = _exp()
    weight = (_number_expression(table.weight_column, source.columns[table.weight_column])
              if table.weight_column else Table.literal(1.0))
    selected = [exp.column(target, quoted=True).as_(CLASS, quoted=True), weight.as_(WEIGHT, quoted=True)]
    if part is not None:
        selected.append(part.as_(PART, quoted=True))
    for column in table.numbers:
        selected.append(_number_expression(column, source.columns[column]).as_(column, quoted=True))
    for column in table.keys:
        if column not in table.numbers and column not in table.derived:
            selected.append(exp.column(column, quoted=True).as_(column, quoted=True))
    for alias, e in table.derived.items():
        selected.append(_over_source(e, table, source, target).as_(alias, quoted=True))
    return exp.select(*selected).from_(exp.to_table(SOURCE, quoted=True))


def _over_source(e: Any, table: Table, source: Source, target: str) -> Any:
    """A derived column's expression over the source's columns: each number column in it read
    as a number, the class as the target column."""
    exp = _exp()

    def read(node: Any) -> Any:
        if isinstance(node, exp.Column) and node.name in table.numbers:
            return _paren(_number_expression(node.name, source.columns[node.name]))
        if isinstance(node, exp.Column) and node.name == CLASS:
            return exp.column(target, quoted=True)
        return node

    return e.copy().transform(read)


def _with_source(query: Any, rows: Any, source: Source) -> str:
    """The query's SQL under the two CTEs; the source's own SQL is kept as written (it is the
    engine's dialect already: a user's query, or DuckDB's read_csv)."""
    body = query.sql(dialect=source.dialect)
    rows_sql = rows.sql(dialect=source.dialect)
    source_sql = source.sql.strip().rstrip(";")
    quote = '`' if source.dialect == "spark" else '"'
    return (f"WITH {quote}{SOURCE}{quote} AS ({source_sql}), {quote}{ROWS}{quote} AS ({rows_sql}) {body}")


def _sample(model: Any, source: Source, target: str, weight: str | None, layout: list[Any],
            part: Any) -> tuple[int, dict[str, dict[Any, float]], float]:
    """The first SAMPLE_ROWS rows: how many there are (all of them when fewer), each class's mean
    there of every column a type shifts (the shift of its sums of squares), and how many
    (class, value, value, ...) combinations of the grouped columns they suggest."""
    exp = _exp()
    probe = _Table(source, weight, {}, part, 1)
    keys = []
    for cls, columns, specs in layout:
        keys += [s.key for s in cls.aggregates(columns, specs, probe) if s.key is not None]
    keys = list(dict.fromkeys(k for k in keys if k not in probe.derived))
    for key in keys:
        probe.value(key)
    rows = _rows_query(probe, source, target, part)
    shifted = list(probe.shifted)
    if source.moments and not shifted and not keys:
        # Nothing to learn from the first rows: no shift asked (the engine's own moments), no
        # plan to choose; their count would only size a progress bar, which Spark does not draw.
        return SAMPLE_ROWS, {}, 1.0
    first = exp.select("*").from_(exp.to_table(ROWS, quoted=True)).limit(SAMPLE_ROWS).subquery("s")
    query = exp.select(exp.column(CLASS, quoted=True).as_("c"), exp.Count(this=exp.Star()).as_("n"),
                       *(exp.Avg(this=exp.column(c, quoted=True)).as_(f"m{i}") for i, c in enumerate(shifted)),
                       ).from_(first).group_by(exp.column(CLASS, quoted=True))
    answer = source.run(_with_source(query, rows, source), None)
    if keys:
        first = exp.select("*").from_(exp.to_table(ROWS, quoted=True)).limit(SAMPLE_ROWS).subquery("s")
        counted = exp.select(*(exp.Count(this=exp.Distinct(expressions=[exp.column(k, quoted=True)])).as_(f"d{j}")
                               for j, k in enumerate(keys))).from_(first)
        found = source.run(_with_source(counted, rows, source), None)
        combinations = max(len(answer["c"]), 1) * np.prod([found[f"d{j}"][0] + 1 for j in range(len(keys))],
                                                          dtype=float)
    else:
        combinations = 1.0
    n = np.asarray(answer["n"], dtype=float)
    shifts: dict[str, dict[Any, float]] = {}
    per_class = len(answer["c"]) <= MAX_SHIFT_CLASSES and all(_literal_ok(c) for c in answer["c"])
    for i, column in enumerate(shifted):
        means = np.array([np.nan if m is None else float(m) for m in answer[f"m{i}"]])
        seen = np.isfinite(means)
        overall = float(np.average(means[seen], weights=n[seen])) if seen.any() else 0.0
        shifts[column] = {None: overall if np.isfinite(overall) else 0.0}
        if per_class:
            shifts[column].update({c: float(m) for c, m in zip(answer["c"], means) if np.isfinite(m) and c is not None})
    return int(n.sum()), shifts, combinations


def _literal_ok(value: Any) -> bool:
    try:
        _literal(value)
        return True
    except TypeError:
        return value is None


@dataclass
class _Answer:
    classes: tuple[Any, ...]
    class_of: dict[Any, int]
    class_counts: np.ndarray
    class_rows: np.ndarray
    rows: int
    results: dict[int, list[Result]]


def _aggregate_kind(e: Any) -> str:
    exp = _exp()
    if isinstance(e, exp.VariancePop):
        return "moment"
    return "min" if isinstance(e, exp.Min) else "max" if isinstance(e, exp.Max) else "sum"


def _run(table: _Table, source: Source, target: str, requests: Mapping[int, Sequence[Sums]], progress: Any,
         rows_known: int | None, *, nested: bool = False) -> _Answer:
    """One query for every request: GROUPING SETS (class[, part]) and (class[, part], key) per key
    column. ``nested``: the rows grouped by every key at once first, the grouping sets then
    taken over those groups (sums add; min of mins, max of maxes)."""
    exp = _exp()
    keys = list(dict.fromkeys(s.key for sums in requests.values() for s in sums if s.key is not None))
    for key in keys:
        table.value(key)
    rows = _rows_query(table, source, target, table.part)
    cls = exp.column(CLASS, quoted=True)
    base = [cls] + ([exp.column(PART, quoted=True)] if table.part is not None else [])
    w = table.weight
    own = {"rows": exp.Count(this=exp.Star()), "weight": Table.sum(w)}
    if table.weight_column is not None:
        own["bad_weight"] = Table.count(Table.either(exp.Is(this=table.weight, expression=exp.Null()),
                                                     Table.less(table.weight, Table.zero()),
                                                     Table.greater(table.weight, Table.literal(MAX_WEIGHT))))
    infinity = Table.literal(float("inf"))
    for i, column in enumerate(c for c in table.numbers if source.columns[c] != "parsed"):
        own[f"inf{i}"] = Table.count(exp.EQ(this=exp.Abs(this=exp.column(column, quoted=True)), expression=infinity))
    names: list[tuple[int, int, str]] = []
    selected = [cls.as_("c")] + ([exp.column(PART, quoted=True).as_("p")] if table.part is not None else [])
    selected += [exp.column(k, quoted=True).as_(f"k{j}") for j, k in enumerate(keys)]
    selected += [exp.func("GROUPING", exp.column(k, quoted=True)).as_(f"g{j}") for j, k in enumerate(keys)]
    selected += [e.as_(f"o_{name}") for name, e in own.items()]
    kinds: dict[str, str] = {}
    for i, sums in requests.items():
        for r, s in enumerate(sums):
            for name, e in s.aggregates.items():
                alias = f"a{len(names)}"
                names.append((i, r, name))
                kinds[alias] = _aggregate_kind(e)
                selected.append(e.as_(alias))
    tracker = _Progress(progress, rows_known)
    tracker.start()
    if keys and nested and "moment" not in kinds.values():      # variances do not add up by SUM
        query = _nested(selected, base, keys, {**{f"o_{n}": _aggregate_kind(e) for n, e in own.items()}, **kinds})
    else:
        query = exp.select(*selected).from_(exp.to_table(ROWS, quoted=True))
        if keys:
            sets = [exp.Tuple(expressions=base)] + [exp.Tuple(expressions=[*base, exp.column(k, quoted=True)])
                                                    for k in keys]
            query = query.group_by(exp.GroupingSets(expressions=sets))
        else:
            query = query.group_by(*base)
    answer = source.run(_with_source(query, rows, source), tracker)
    return _read_answer(answer, table, source, target, keys, requests, names, kinds, progress)


def _nested(selected: list[Any], base: list[Any], keys: list[str], kinds: Mapping[str, str]) -> Any:
    """GROUP BY class[, part] and every key, then GROUPING SETS over that: the inner query
    computes each aggregate once per row, the outer one combines a few rows per set."""
    exp = _exp()
    inner_selected = [e for e in selected if not (isinstance(e, exp.Alias) and e.alias.startswith("g"))]
    inner = exp.select(*inner_selected).from_(exp.to_table(ROWS, quoted=True)).group_by(
        *base, *(exp.column(k, quoted=True) for k in keys)).subquery("nbapp_groups")
    outer_base = [exp.column("c")] + ([exp.column("p")] if len(base) > 1 else [])
    outer = [exp.column("c").as_("c")] + ([exp.column("p").as_("p")] if len(base) > 1 else [])
    outer += [exp.column(f"k{j}").as_(f"k{j}") for j in range(len(keys))]
    outer += [exp.func("GROUPING", exp.column(f"k{j}")).as_(f"g{j}") for j in range(len(keys))]
    combine = {"sum": exp.Sum, "min": exp.Min, "max": exp.Max}
    outer += [combine[kind](this=exp.column(alias)).as_(alias) for alias, kind in kinds.items()]
    sets = [exp.Tuple(expressions=outer_base)] + [exp.Tuple(expressions=[*outer_base, exp.column(f"k{j}")])
                                                  for j in range(len(keys))]
    return exp.select(*outer).from_(inner).group_by(exp.GroupingSets(expressions=sets))


class _Progress:
    """What the engine's runner reports to: its share done, as rows of ``total`` when known."""

    def __init__(self, progress: Any, total: int | None) -> None:
        self.progress, self.total, self.last = progress, total, -1

    def __call__(self, share: float) -> None:
        if self.progress is None or not self.total:
            return
        done = int(min(max(share, 0.0), 1.0) * self.total)
        if done > self.last and done < self.total:
            self.last = done
            self.progress(done, self.total)

    def start(self) -> None:
        if self.progress is not None and self.total:
            self.last = 0
            self.progress(0, self.total)


def _read_answer(answer: dict[str, list[Any]], table: _Table, source: Source, target: str, keys: list[str],
                 requests: Mapping[int, Sequence[Sums]], names: list[tuple[int, int, str]], kinds: dict[str, str],
                 progress: Any) -> _Answer:
    n = len(answer["c"])
    flags = [np.asarray(answer[f"g{j}"], dtype=np.int64) for j in range(len(keys))]
    in_set = [np.ones(n, dtype=bool) if not keys else np.logical_and.reduce([f == 1 for f in flags])]
    in_set += [(flags[j] == 0) for j in range(len(keys))]
    base = np.flatnonzero(in_set[0])
    raw_classes = [answer["c"][i] for i in base]
    typed = source.values(target, raw_classes)
    if typed.isna().any() or any(v is None for v in raw_classes):
        raise MissingClass()
    labels = [python_scalar(v) for v in typed]
    classes = tuple(sort_values(dict.fromkeys(labels)))
    position = {c: i for i, c in enumerate(classes)}
    class_of = {raw: position[label] for raw, label in zip(raw_classes, labels)}
    k = len(classes)
    parts = table.parts

    def cells(rows: np.ndarray) -> np.ndarray:
        y = np.array([class_of[answer["c"][i]] for i in rows], dtype=np.int64)
        if table.part is None:
            return y
        return np.array([answer["p"][i] for i in rows], dtype=np.int64) * k + y

    own = {name[2:]: np.array([np.nan if answer[name][i] is None else float(answer[name][i]) for i in base])
           for name in answer if name.startswith("o_")}
    if any(v.sum() > 0 for name, v in own.items() if name.startswith(("inf", "bad_weight"))):
        raise Refused()
    base_cells = cells(base)
    class_counts = np.bincount(base_cells, weights=own["weight"], minlength=k * parts)
    class_rows = np.bincount(base_cells, weights=own["rows"], minlength=k * parts)
    rows = int(own["rows"].sum())
    if progress is not None and rows:
        progress(rows, rows)
    results: dict[int, list[Result]] = {i: [] for i in requests}
    aliases: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for position_, (i, r, name) in enumerate(names):
        aliases.setdefault((i, r), []).append((name, f"a{position_}"))
    for i, sums in requests.items():
        for r, s in enumerate(sums):
            picked = base if s.key is None else np.flatnonzero(in_set[1 + keys.index(s.key)])
            data = {name: np.array([np.nan if answer[alias][j] is None else float(answer[alias][j]) for j in picked])
                    for name, alias in aliases.get((i, r), [])}
            values = None
            if s.key is not None:
                raw = [answer[f"k{keys.index(s.key)}"][j] for j in picked]
                values = pd.Series(raw, dtype=object) if s.key in table.derived else source.values(s.key, raw)
                values.index = pd.RangeIndex(len(values))
            results[i].append(Result(k * parts, cells(picked), data,
                                     {name: kinds[alias] for name, alias in aliases.get((i, r), [])}, values))
    return _Answer(classes, class_of, class_counts, class_rows, rows, results)


def _model_stats(classes: tuple[Any, ...], class_counts: np.ndarray, class_rows: np.ndarray, stats: list[Any],
                 parts: int) -> Any:
    """ModelStats, or one per part with the classes that have rows in it (as summarize_parts)."""
    from nbapp.stats import ModelStats

    if parts == 1:
        return ModelStats(classes, class_counts, tuple(stats))
    k = len(classes)
    weights, rows = class_counts.reshape(parts, k), class_rows.reshape(parts, k)
    out = []
    for p in range(parts):
        present = np.flatnonzero(rows[p] > 0)
        take = p * k + present
        out.append(ModelStats(tuple(classes[c] for c in present), weights[p, present],
                              tuple(s.reindex_classes(take) for s in stats)))
    return out
