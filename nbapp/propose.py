"""A first guess at the feature type of each column, and checks on the target column.

The guess is conservative and always says why ("2 distinct values (no/yes) -> Bernoulli",
"float -> Gaussian", "long strings -> text", "ID-like (every value distinct) -> ignore");
the user changes any of it on the Data page. The model itself is in :mod:`nbapp.model`.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from scipy import stats

from nbapp.blocks.bernoulli import BINARY_PAIRS as _MODEL_PAIRS
from nbapp.errors import DataError, shown
from nbapp.io._common import TEXT_DTYPE      # Arrow text: astype(str) in pandas 2 copies a cell into
from nbapp.io._nested import nested_error, nested_values   # a fixed-width array (20 MB x rows x 4 bytes)

__all__ = ["propose_feature_types", "propose_target", "propose_weight", "check_target"]

# Pairs the model reads as (negative, positive) for a Bernoulli feature (nbapp.blocks.bernoulli).
BINARY_PAIRS = frozenset(frozenset(p) for p in _MODEL_PAIRS)
# Names of a target, the surest first: "class" and "category" come last, as they also name
# features (Titanic's passenger Class beside Survived; issue 33, item 5).
TARGET_NAMES = ("label", "labels", "target", "y", "outcome", "survived", "species", "diagnosis", "result",
                "spam", "sentiment", "improved", "class", "category")
WEIGHT_NAMES = frozenset({"count", "counts", "freq", "frequency", "n"})
ID_NAME = re.compile(r"(^|[_ ])(id|uuid|key)$|^(id|index|row|example)([_ ]|$)", re.IGNORECASE)
DATE_LIKE = r"\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?|\d{1,2}[./]\d{1,2}[./]\d{2,4}"

MAX_TARGET_CLASSES = 50
# Text: values average this many words; fewer-word strings that are all distinct are IDs/names.
TEXT_MIN_WORDS = 3
# Integers with at most this many distinct values are categories (ratings, years, levels).
SMALL_INTEGER_LEVELS = 5
# Whole numbers that run 1..k without gaps, k at most this, are codes (occupation 1-6); runs
# from 0 are more often counts (Poisson, see _propose_shape).
CODE_LEVELS = 9
# Integers with at least this share of distinct values per row identify rows (biopsy's ID:
# 645 distinct in 699 rows, 92%); a Gaussian on them adds nothing but a huge variance, which
# also sets the Gaussian epsilon of every other column (nbapp.blocks.gaussian).
ID_SHARE = 0.9
ID_MIN_ROWS = 20
# A column named like an identifier or a code (ID, zip, code, number) with more distinct
# integers than this is a code, not a measurement.
CODE_NAME = re.compile(r"(^|[_ ])(id|uuid|key|code|zip|no|nr|num|number)$|^(id|code|zip)([_ ]|$)", re.IGNORECASE)
MANY_CODES = 50
MAX_CATEGORIES = 1000
MANY_CLASSES = 100
# A count block is several non-negative integer columns that are mostly zero (bag of words).
COUNT_BLOCK_MIN_COLUMNS = 3
COUNT_ZERO_SHARE = 0.5
# Shape rules for numbers (issue 12): on at least 30 values, counts with variance <= 1.5 x mean
# are Poisson-like (equal for a Poisson), |skewness| >= 1 or two modes is clearly non-normal.
SHAPE_MIN_VALUES = 30
POISSON_DISPERSION = 1.5
KDE_SKEWNESS = 1.0
# A float target with this many distinct non-integer values is a measurement, not a class.
CONTINUOUS_TARGET_VALUES = 20


def propose_feature_types(df: pd.DataFrame, target: str) -> pd.DataFrame:
    """One row per non-target column, in frame order: ``column``, ``type``, ``reason``.

    Rules, in order: cells holding several values (lists, structs) / all missing / constant /
    dates -> ignore; two yes/no-like values -> Bernoulli; long multi-word strings -> text; whole
    numbers that identify rows (every value distinct, or 90% of the rows distinct) or codes
    named like one (zip, code, ...) with many values -> ignore (ID-like); short runs of codes
    1..k -> categorical; every string distinct -> ignore; a column named like a row count ->
    ignore (use it as the weight); several mostly-zero integer columns -> multinomial; few
    integer levels or strings -> categorical;
    other numbers -> Gaussian.
    """
    if target not in df.columns:
        raise DataError(f"The target {target!r} is not a column; choose one of {_shown(df.columns)}.")
    count_block = _count_block(df, target)
    rows = [
        (str(c), *_propose(df[c], str(c), count_block))
        for c in df.columns
        if c != target
    ]
    return pd.DataFrame(rows, columns=["column", "type", "reason"])


def _propose(column: pd.Series, name: str, count_block: set[str]) -> tuple[str, str]:
    nested = nested_values(column)
    if nested:
        return "ignore", f"{nested} (several values in a cell) -> ignore (flatten them into plain columns to use them)"
    present = column.dropna()
    if present.empty:
        return "ignore", "every value missing -> ignore"
    distinct = present.nunique()
    if distinct == 1:
        return "ignore", f"constant (always {shown(present.iloc[0])}) -> ignore"
    if pd.api.types.is_datetime64_any_dtype(column) or _looks_like_dates(present):
        return "ignore", "dates -> ignore (derive e.g. a weekday column to use them)"
    if pd.api.types.is_bool_dtype(column) or (distinct == 2 and _binary_pair(present)):
        pair = "/".join(str(v) for v in sorted(present.astype(TEXT_DTYPE).unique()))
        return "bernoulli", f"2 distinct values ({pair}) -> Bernoulli"
    if pd.api.types.is_numeric_dtype(column):
        return _propose_number(present, name, distinct, count_block)
    return _propose_strings(present.astype(TEXT_DTYPE), name, distinct)


def _propose_number(present: pd.Series, name: str, distinct: int, count_block: set[str]) -> tuple[str, str]:
    values = present.to_numpy(dtype=float)
    integers = bool(np.all(np.isfinite(values)) and np.all(values == np.round(values)))
    code = _propose_integer_code(values, name, distinct) if integers else None
    if code is not None:
        return code
    if integers and name.strip().lower() in WEIGHT_NAMES and (values >= 0).all():
        return "ignore", f"named {name!r}, like a row count -> ignore (use it as the row weight)"
    if name in count_block:
        return "multinomial", "non-negative integer counts, mostly zero, with other count columns -> multinomial"
    if integers and distinct <= SMALL_INTEGER_LEVELS:
        return "categorical", (
            f"{distinct} integer values -> categorical (choose multinomial if they are counts, "
            "Gaussian if they are measurements)"
        )
    if integers:
        return _propose_shape(values, integers) or ("gaussian", f"integers with {distinct} distinct values -> Gaussian")
    return _propose_shape(values, integers) or ("gaussian", "float -> Gaussian")


def _propose_shape(values: np.ndarray, integers: bool) -> tuple[str, str] | None:
    """Poisson for non-negative integer counts whose variance is near their mean and that start at
    0 or 1, as counts of events do (whole measurements far from 0, a flipper length of 172-231 mm,
    ages, years of schooling, are Gaussian: their variance may match their mean by chance; issue
    33, item 5); KDE for a clearly non-normal shape (|skewness| >= 1 or two modes, on at least 30
    values); else None."""
    values = values[np.isfinite(values)]
    if len(values) < SHAPE_MIN_VALUES:
        return None
    mean, var = float(values.mean()), float(values.var())
    if integers and 0 <= values.min() <= 1 and mean > 0 and var <= POISSON_DISPERSION * mean:
        return "poisson", (f"non-negative integer counts (mean {mean:.3g}, variance {var:.3g}, "
                           f"from {values.min():.0f}) -> Poisson")
    skew = float(stats.skew(values)) if var > 0 else 0.0
    if abs(skew) >= KDE_SKEWNESS:
        return "kde", f"skewness {skew:.1f} -> KDE"
    modes = _modes(values)
    if modes >= 2:
        return "kde", f"{'two' if modes == 2 else modes} modes -> KDE"
    return None


def _modes(values: np.ndarray) -> int:
    """Peaks of a Gaussian KDE (Scott's bandwidth) of up to 5,000 values that hold at least 10% of
    the highest peak and are separated from the next peak by a dip to below 80% of the lower one."""
    sample = np.random.default_rng(0).choice(values, 5000, replace=False) if len(values) > 5000 else values
    if np.ptp(sample) == 0 or len(np.unique(sample)) < 3:
        return 1
    grid = np.linspace(sample.min(), sample.max(), 256)
    density = stats.gaussian_kde(sample)(grid)
    peaks = [i for i in range(1, len(grid) - 1) if density[i] >= density[i - 1] and density[i] > density[i + 1]
             and density[i] >= 0.1 * density.max()]
    count = 1 if peaks else 0
    for a, b in zip(peaks, peaks[1:]):
        if density[a:b + 1].min() < 0.8 * min(density[a], density[b]):
            count += 1
    return max(count, 1)


def _propose_integer_code(values: np.ndarray, name: str, distinct: int) -> tuple[str, str] | None:
    """Whole numbers that identify rows or encode categories, never measurements.

    Row identifiers (every value distinct and consecutive, or named like an ID; or at least
    ``ID_SHARE`` of the rows distinct) and codes named like one with many values are ignored;
    short runs of codes (1..k, k <= ``CODE_LEVELS``) are categorical. None: no rule fits.
    """
    n = len(values)
    if distinct == n and n >= 5 and (_consecutive(values) or ID_NAME.search(name)):
        return "ignore", "ID-like (every value distinct) -> ignore"
    if n >= ID_MIN_ROWS and distinct >= ID_SHARE * n:
        return "ignore", (
            f"ID-like: {distinct:,} distinct whole numbers in {n:,} rows ({distinct / n:.0%} of the rows) -> "
            "ignore (as a Gaussian it would learn nothing and its huge variance would blur every other "
            "Gaussian column; choose Gaussian if it is a real measurement)"
        )
    if distinct > MANY_CODES and CODE_NAME.search(name):
        return "ignore", (
            f"a code named {name!r} with {distinct:,} distinct values in {n:,} rows -> ignore "
            "(choose categorical to use it anyway)"
        )
    if SMALL_INTEGER_LEVELS < distinct <= CODE_LEVELS and values.min() == 1 and values.max() == distinct:
        return "categorical", (
            f"codes 1 to {distinct} ({distinct} values) -> categorical (choose Gaussian if they are "
            "measurements on a scale, Poisson if they are counts)"
        )
    return None


def _propose_strings(present: pd.Series, name: str, distinct: int) -> tuple[str, str]:
    counts = present.value_counts(sort=False)      # words counted once per distinct value: fast on big tables
    words = float(np.average(counts.index.to_series().str.count(r"\S+").to_numpy(), weights=counts.to_numpy()))
    if words >= TEXT_MIN_WORDS:
        return "text", f"long strings ({words:.0f} words on average) -> text"
    if distinct == len(present) and len(present) >= 5:
        return "ignore", "ID-like (every value distinct) -> ignore"
    if distinct > MAX_CATEGORIES or (distinct > MANY_CLASSES and distinct > 0.5 * len(present)):
        return "ignore", (
            f"{distinct:,} distinct values in {len(present):,} rows ({_per_value(len(present), distinct)}) "
            "-> ignore (choose categorical to use it anyway; it will rarely generalise)"
        )
    return "categorical", f"{distinct} distinct values -> categorical"


def _per_value(rows: int, distinct: int) -> str:
    """How often a value repeats, said honestly: "nearly one per row" only when it is."""
    per = rows / distinct
    if per < 2:
        return "nearly one value per row"
    return f"about {per:,.0f} rows per value, more than {MAX_CATEGORIES:,} categories" if distinct > MAX_CATEGORIES \
        else f"about {per:,.0f} rows per value"


def _binary_pair(present: pd.Series) -> bool:
    values = frozenset(_binary_key(v) for v in present.unique())
    return values in BINARY_PAIRS


def _binary_key(value: object) -> str:
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        value = int(value)
    return str(value).strip().lower()


def _looks_like_dates(present: pd.Series) -> bool:
    if not (pd.api.types.is_string_dtype(present) or present.dtype == object):
        return False
    sample = present.head(1000).astype(TEXT_DTYPE).str.strip()
    return bool(sample.str.fullmatch(DATE_LIKE).mean() >= 0.9)


def _consecutive(values: np.ndarray) -> bool:
    ordered = np.sort(values)
    return bool(np.all(np.diff(ordered) == 1))


def _count_block(df: pd.DataFrame, target: str) -> set[str]:
    """Non-negative integer columns (beyond 0/1) that look like a bag of counts.

    Three or more of them must be mostly zero; once such a block exists, other count
    columns with many zeros (at least half the block's share) join it, so a word that
    happens to be common is not split off as a categorical column.
    """
    share = {}
    for c in df.columns:
        column = df[c]
        if c == target or not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            continue
        values = column.dropna().to_numpy(dtype=float)
        if (
            len(values)
            and np.all(np.isfinite(values))
            and np.all(values >= 0)
            and np.all(values == np.round(values))
            and values.max() > 1
        ):
            share[str(c)] = float(np.mean(values == 0))
    sparse = [c for c, zeros in share.items() if zeros >= COUNT_ZERO_SHARE]
    if len(sparse) < COUNT_BLOCK_MIN_COLUMNS:
        return set()
    return {c for c, zeros in share.items() if zeros >= COUNT_ZERO_SHARE / 2}


def propose_target(df: pd.DataFrame) -> str | None:
    """A sensible default target, or None.

    A column named like label/class/target/y with 2..50 distinct values; else the last text
    column with 2..50 distinct values (an ID or a row weight never); else the first 0/1 column
    (an outcome such as Mroz's inlf); else the last column with 2..50 distinct values.
    """
    weight = propose_weight(df)
    fits = [c for c in df.columns
            if c != weight and not nested_values(df[c]) and 2 <= df[c].nunique() <= MAX_TARGET_CLASSES
            and not _fractional(df[c]) and not ID_NAME.search(str(c))]
    by_name = {str(c).strip().lower(): c for c in fits}
    for name in TARGET_NAMES:
        if name in by_name:
            return by_name[name]
    texts = [c for c in fits if not pd.api.types.is_numeric_dtype(df[c])]
    if texts:
        return texts[-1]
    binary = [c for c in fits if set(df[c].dropna().unique()) <= {0, 1}]
    return (binary[:1] or fits or [None])[-1]


def propose_weight(df: pd.DataFrame, target: str | None = None) -> str | None:
    """The column that counts how often each row occurred (a frequency table's ``Freq``,
    ``count``, ``n``): named like a row count and holding non-negative whole numbers; or None.
    The Data page makes it the row weight, so each row counts that many times (issue 33, item 5)."""
    for c in df.columns:
        if c == target or str(c).strip().lower() not in WEIGHT_NAMES or not pd.api.types.is_numeric_dtype(df[c]) \
                or pd.api.types.is_bool_dtype(df[c]):
            continue
        values = df[c].dropna().to_numpy(dtype=float)
        if len(values) and np.all(values >= 0) and np.all(values == np.round(values)):
            return c
    return None


def _fractional(column: pd.Series) -> bool:
    """Floats with a fractional part: measurements, never a default target."""
    if not pd.api.types.is_float_dtype(column):
        return False
    values = column.dropna().to_numpy()
    return bool(np.any(values != np.round(values)))


def _continuous(column: pd.Series) -> bool:
    if not pd.api.types.is_float_dtype(column):
        return False
    values = column.dropna().to_numpy()
    fractional = values[values != np.round(values)]
    return len(np.unique(fractional)) >= CONTINUOUS_TARGET_VALUES


def check_target(df: pd.DataFrame, target: str) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The rows usable for training on ``target``, and notes on what was dropped or odd.

    Rows with a missing label are dropped (counted). Labels that differ only in case or
    spaces ("yes", "Yes ", "YES") are named, not merged. A target with one class, or a
    continuous one, is refused; classes with one row and more than 100 classes are warned.
    """
    if target not in df.columns:
        raise DataError(f"The target {target!r} is not a column; choose one of {_shown(df.columns)}.")
    labels = df[target]
    nested = nested_values(labels)
    if nested:
        raise nested_error(target, nested, "the table")
    notes: list[str] = []
    missing = labels.isna()
    if labels.dtype == object or pd.api.types.is_string_dtype(labels):
        missing |= labels.astype(TEXT_DTYPE).str.strip().eq("") & labels.notna()
    if missing.all():
        raise DataError(f"The target {target!r} has no labels (every value is missing); choose another column.")
    if missing.any():
        rows = ", ".join(str(i) for i in df.index[missing.to_numpy()][:5])
        more = " ..." if missing.sum() > 5 else ""
        notes.append(f"Dropped {int(missing.sum()):,} row(s) with no label in {target!r} (rows {rows}{more}).")
        df = df.loc[~missing.to_numpy()]
        labels = df[target]
    if _continuous(labels):
        example = labels.dropna().iloc[0]
        raise DataError(
            f"The target {target!r} looks continuous ({labels.nunique():,} distinct numbers such as "
            f"{example!r}); Naive Bayes predicts classes, so choose a column with a few distinct "
            "values, or cut this one into bins first."
        )
    counts = labels.value_counts()
    if len(counts) < 2:
        raise DataError(
            f"The target {target!r} has only one class ({counts.index[0]!r}); a classifier needs at "
            "least two, so choose another target column or add rows of another class."
        )
    notes.extend(_look_alike_labels(counts, target))
    singletons = counts.index[counts.to_numpy() == 1]
    if len(singletons):
        listed = ", ".join(shown(c) for c in singletons[:5])
        more = f" and {len(singletons) - 5:,} more" if len(singletons) > 5 else ""
        notes.append(
            f"Class(es) {listed}{more} of {target!r} have a single row: their estimates rest on "
            "one example, and a hold-out split cannot have them on both sides."
        )
    if len(counts) > MANY_CLASSES:
        notes.append(
            f"The target {target!r} has {len(counts):,} classes; with so many, each class has few "
            "rows and the tables get large. Check that this is the column you mean."
        )
    return df, tuple(notes)


def _look_alike_labels(counts: pd.Series, target: str) -> list[str]:
    labels = pd.Series(counts.index, dtype=object)
    texts = labels[labels.map(lambda v: isinstance(v, str))]  # one entry per class, not per row
    if texts.empty:
        return []
    keys = texts.str.strip().str.casefold()
    notes = []
    for _, group in texts.groupby(keys.to_numpy()):
        if len(group) > 1:
            alike = ", ".join(shown(v) for v in group)
            notes.append(
                f"Labels {alike} in {target!r} differ only in case or spaces; they are kept as "
                "separate classes. Fix the file if they mean the same."
            )
    return notes


def _shown(columns: pd.Index) -> str:
    names = [repr(str(c)) for c in columns[:10]]
    return ", ".join(names) + (" ..." if len(columns) > 10 else "")
