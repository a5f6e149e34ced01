"""Which text columns are numbers: every value a number (decimal points or commas, NA tokens noted), else text."""

from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from nbapp._number_rule import (
    COMMA,
    DOT,
    INF_TOKENS,
    INTEGER,
    LEADING_ZERO,
    MAX_EXACT_DIGITS,
    NA_TOKENS,
    SIGNS,
    TEXT_NA_TOKENS,
    NumberForm,
)
from nbapp.io._common import BOOLEAN_WORDS, VARIANCE_OVERFLOW, RowNumbers, _names, _quoted
from nbapp.io._spaces import _groups, spaces_note


class NumberReader:
    """Turns a text column into numbers when, and only when, every value is a number.

    The decimal mark is chosen per file: a comma when the delimiter is not a comma and the
    values say so ('3,5'), else a point; thousands separators are the other mark. Blank
    cells in text columns become missing; NA tokens in numeric columns become NaN, noted
    with their lines.
    """

    def __init__(self, frame: pd.DataFrame, rows: RowNumbers, delimiter: str | None,
                 form: NumberForm | None = None) -> None:
        """``form``: the file's form when it was decided elsewhere (:func:`file_form` on more rows
        than ``frame`` holds: the path source's sample reads with the form of its whole head)."""
        self.frame = frame
        self.rows = rows
        self.stripped = {c: frame[c].str.strip() for c in frame.columns}
        if form is None:
            form, _ = file_form(self.stripped.values(), delimiter)
        self.decimal_comma = form == COMMA
        self.decimal_columns: list[str] = []
        self.thousands_columns: list[str] = []

    def convert(self, position: int, name: str, notes: list[str]) -> pd.Series:
        raw = self.frame[position]
        values = self.stripped[position]
        lower = values.str.lower()
        missing = lower.isin(NA_TOKENS).to_numpy(dtype=bool)
        infinite = lower.isin(INF_TOKENS).to_numpy(dtype=bool)
        present = values[~missing & ~infinite] if (missing | infinite).any() else values
        if present.empty and not infinite.any():
            notes.append(f"Column {_quoted(name)} is empty: every cell is blank or a missing-value token.")
            return pd.Series(np.nan, index=raw.index, dtype="float64")
        numeric = present.str.fullmatch(self._number_pattern()).to_numpy(dtype=bool)
        if not numeric.all():
            return self._text(raw, values, present, numeric, name, notes)
        reason = self._kept_as_text(present)
        if reason:
            notes.append(f"Column {_quoted(name)} kept as text: {reason}.")
            return self._text_column(raw, values, name, notes)
        return self._numbers(values, missing, infinite, name, notes)

    @property
    def form(self) -> NumberForm:
        """How this file writes its numbers (nbapp._number_rule)."""
        return COMMA if self.decimal_comma else DOT

    def _number_pattern(self) -> str:
        return self.form.pattern.pattern

    @staticmethod
    def _kept_as_text(present: pd.Series) -> str:
        """Numbers that are really codes: leading zeros, or more digits than a float holds."""
        zero = present.str.match(LEADING_ZERO).to_numpy(dtype=bool)
        if zero.any():
            return f"values like {_quoted(present[zero].iloc[0])} have leading zeros (an ID or code)"
        long = (present.str.len() > MAX_EXACT_DIGITS).to_numpy(dtype=bool)
        if long.any() and present[long].str.fullmatch(INTEGER).any():
            return (
                f"integers with more than {MAX_EXACT_DIGITS} digits cannot be held exactly as "
                "numbers (an ID?)"
            )
        return ""

    def _numbers(
        self, values: pd.Series, missing: np.ndarray, infinite: np.ndarray, name: str, notes: list[str]
    ) -> pd.Series:
        cleaned = values.where(~(missing | infinite), None) if (missing | infinite).any() else values
        cleaned = self._plain_decimals(cleaned, name)
        self._note_missing(values, missing, name, notes)
        if not (missing | infinite).any():
            whole = _as_integers(cleaned)
            if whole is not None:
                return whole
        result = _as_floats(cleaned)
        bad = infinite | np.isinf(result.to_numpy())
        if bad.any():
            examples = ", ".join(_quoted(v) for v in values[bad].unique()[:3])
            notes.append(
                f"Column {_quoted(name)}: {int(bad.sum()):,} infinite value(s) ({examples}; "
                f"{self.rows.describe(np.flatnonzero(bad))}) read as missing; a likelihood cannot use infinity."
            )
            result = result.mask(bad)    # not in place: Arrow's parsed numbers may be read-only
        huge = np.abs(result.to_numpy()) > VARIANCE_OVERFLOW
        if huge.any():
            notes.append(
                f"Column {_quoted(name)} holds values beyond 1e154 in size ({self.rows.describe(np.flatnonzero(huge))}); "
                "their squares overflow, so rescale the column before using it as Gaussian."
            )
        return result

    def _plain_decimals(self, cleaned: pd.Series, name: str) -> pd.Series:
        """Decimal point, no thousands separators, as a float parser reads them."""
        form = self.form
        if cleaned.str.contains(form.thousands, regex=False).any():
            self.thousands_columns.append(name)
            cleaned = cleaned.str.replace(form.thousands, "", regex=False)
        if form.decimal != "." and cleaned.str.contains(form.decimal, regex=False).any():
            self.decimal_columns.append(name)
            cleaned = cleaned.str.replace(form.decimal, ".", regex=False)
        return cleaned

    def _note_missing(self, values: pd.Series, missing: np.ndarray, name: str, notes: list[str]) -> None:
        if not missing.any():
            return
        tokens = values[missing].value_counts()
        shown = ", ".join(f"{_quoted(t)} x{n:,}" if t else f"blank x{n:,}" for t, n in tokens.items())
        notes.append(
            f"Column {_quoted(name)}: {int(missing.sum()):,} cell(s) read as missing ({shown}; "
            f"{self.rows.describe(np.flatnonzero(missing))})."
        )

    def _text(
        self, raw: pd.Series, values: pd.Series, present: pd.Series, numeric: np.ndarray, name: str, notes: list[str]
    ) -> pd.Series:
        if numeric.mean() >= 0.5:
            positions = np.flatnonzero(values.index.isin(present.index[~numeric]))
            examples = ", ".join(_quoted(v) for v in present[~numeric].unique()[:3])
            notes.append(
                f"Column {_quoted(name)} mixes numbers with text ({examples} on "
                f"{self.rows.describe(positions)}); kept as text. Blank those cells to use it as numbers."
            )
        lower = present.str.lower()
        distinct = set(lower.unique()[:3])
        if len(distinct) == 2 and distinct <= BOOLEAN_WORDS:
            shown = " / ".join(_quoted(v) for v in present.unique()[:4])
            notes.append(f"Column {_quoted(name)} looks yes/no ({shown}); kept as its text values.")
        tokens = values[values.str.lower().isin(NA_TOKENS - TEXT_NA_TOKENS)]
        if not tokens.empty:
            shown = ", ".join(_quoted(v) for v in tokens.unique()[:3])
            notes.append(
                f"Column {_quoted(name)} is text and holds {shown} in {len(tokens):,} cell(s); kept as a "
                "value of its own. Blank those cells if they mean missing."
            )
        return self._text_column(raw, values, name, notes)

    def _text_column(self, raw: pd.Series, values: pd.Series, name: str, notes: list[str]) -> pd.Series:
        missing = values.str.lower().isin(TEXT_NA_TOKENS).to_numpy(dtype=bool)
        self._note_missing(values, missing, name, notes)
        text = raw.where(~missing, None)
        alike = _groups(text)
        if alike:
            notes.append(spaces_note(name, alike))
        return text

    def summary(self) -> list[str]:
        notes = []
        if self.decimal_columns:
            notes.append(
                "Decimal commas read as decimal points in " + _names(self.decimal_columns) + " ('3,5' -> 3.5)."
            )
        if self.thousands_columns:
            notes.append(f"Thousands separators ({_quoted(self.form.thousands)}) removed in "
                         f"{_names(self.thousands_columns)}.")
        return notes


# What a column's cells say of the file's form (:func:`file_form`): every present cell a number of
# DOT's form and one at least not of COMMA's ('1.5'), the other way ('3,5'), every one of both
# forms ('12', '1.234', or no cell), or a cell of neither (text: '1.5' beside '3,5', 'abc').
DOT_ONLY, COMMA_ONLY, BOTH, NEITHER = "dot", "comma", "both", "neither"


def column_evidence(values: pd.Series) -> str:
    """What a column's stripped cells say of the file's number form (DOT_ONLY, ... above)."""
    # (an infinity is missing to the column's reading, so it is no evidence either way)
    present = values[~values.str.lower().isin(NA_TOKENS | INF_TOKENS)]
    if present.empty:
        return BOTH
    dot = present.str.fullmatch(DOT.pattern.pattern).all()
    comma = present.str.fullmatch(COMMA.pattern.pattern).all()
    return BOTH if dot and comma else DOT_ONLY if dot else COMMA_ONLY if comma else NEITHER


def file_form(columns: Iterable[pd.Series], delimiter: str | None, *, every_column: bool = False
              ) -> tuple[NumberForm, list[str]]:
    """How a delimited file writes its numbers, decided per FILE from every cell of every column
    (stripped): :data:`~nbapp._number_rule.COMMA` when the delimiter is not a comma, no column is
    DOT_ONLY (every cell, missing and infinite ones aside, a number of
    :data:`~nbapp._number_rule.DOT`'s form, one at least not of COMMA's: '1.5', '0.125') and a
    column is COMMA_ONLY ('3,5') or the delimiter is a semicolon; else
    :data:`~nbapp._number_rule.DOT`. So '1.234' is 1234 in a semicolon file whose other column
    holds '3,5', and 1.234 in one whose other column holds '0.5'.

    Also what each column said (:func:`column_evidence`), up to the first DOT_ONLY one unless
    ``every_column``. Every file reader takes this decision here (load_table's careful path;
    fit_file, cross_validate_file and the path source's sample through
    :func:`nbapp.io._delimited.file_numbers`)."""
    if delimiter in (",", None):
        return DOT, []
    evidence: list[str] = []
    for values in columns:
        evidence.append(column_evidence(values))
        if evidence[-1] == DOT_ONLY and not every_column:
            break                       # a point decimal in the file: stay with points
    comma = DOT_ONLY not in evidence and (COMMA_ONLY in evidence or delimiter == ";")
    return (COMMA if comma else DOT), evidence


def _as_integers(cleaned: pd.Series) -> pd.Series | None:
    """int64 when every value is a whole number (nbapp._number_rule.INTEGER: no decimal mark, no
    exponent, a sign or none) that 64 bits hold. The values are numbers of the grammar, so a plus
    sign is always followed by a digit or a point; Arrow's integer cast takes no plus sign, which
    is dropped for it ("+3" is the whole number 3, as in DuckDB's reading)."""
    try:
        return _cast(cleaned, "int64")
    except (ValueError, TypeError, OverflowError, ArithmeticError):
        pass
    signed = cleaned.str.startswith(SIGNS[0])
    if not signed.any():
        return None
    try:
        return _cast(cleaned.str.removeprefix(SIGNS[0]), "int64")
    except (ValueError, TypeError, OverflowError, ArithmeticError):
        return None


def _as_floats(cleaned: pd.Series) -> pd.Series:
    try:
        return _cast(cleaned, "float64")  # "1e309" -> inf, reported by the caller
    except (ValueError, TypeError, ArithmeticError):
        return pd.to_numeric(cleaned.astype(object)).astype("float64")


def _cast(cleaned: pd.Series, dtype: str) -> pd.Series:
    """Arrow's number parser when the strings are Arrow-backed (several times faster than
    going through Python objects), else pandas'. Missing values become NaN."""
    if not hasattr(cleaned.array, "__arrow_array__"):
        return cleaned.astype(dtype)
    import pyarrow as pa
    import pyarrow.compute as pc

    parsed = pc.cast(pa.array(cleaned.array), getattr(pa, dtype)())
    return pd.Series(parsed.to_numpy(zero_copy_only=False), index=cleaned.index)
