"""The grammar of a number cell, declared once (issue 34, item 4).

Every reader of numbers builds its form from these declarations, none writes its own:

* load time, the careful reader (:class:`nbapp.io._numbers.NumberReader`): the patterns below as
  pandas regular expressions, the tokens, the marks of :data:`DOT` / :data:`COMMA`;
* load time, the fast path (:mod:`nbapp.io._fast`): Arrow's casts proved against the same rule
  byte by byte (:data:`SIGNS`, :data:`ZERO`, :data:`DOT`'s fraction marks, :data:`MAX_EXACT_DIGITS`);
* out of core (:mod:`nbapp.scale._files`, ``_Cell``): the same pattern strings as DuckDB's RE2
  regular expressions, the same tokens as SQL lists;
* score time (:mod:`nbapp._numbers`): a string given to ``predict`` or ``explain`` is a number by
  :data:`DOT`'s pattern (the only form a cell without a file has).

A cell (stripped of :data:`SPACES`) reads as:

* **missing** when its lower case is one of :data:`NA_TOKENS` (in a number column) or
  :data:`TEXT_NA_TOKENS` (in a text column);
* **infinite** when its lower case is one of :data:`INF_TOKENS` (the loaders read it as
  missing, with a note; score time refuses it), or when it is a number too large for a float;
* **a number** when it matches the file's form, :data:`DOT` ("1,234.5") or, in a file whose
  delimiter is not a comma and whose numbers say so, :data:`COMMA` ("1.234,5"); the form is
  decided per file, from every cell (:func:`nbapp.io._numbers.file_form`), by every reader of a
  file alike; a cell of :data:`AMBIGUOUS` ("1.234") is where the two forms differ by 1000x;
* **a code** (a number kept as text, as its whole column is) when it has a leading zero
  (:data:`LEADING_ZERO`: "007", "-01.5") or is an integer of more than
  :data:`MAX_EXACT_DIGITS` characters (:data:`INTEGER`);
* **text** otherwise. Digits are ASCII 0-9: Python's ``\\d`` also matches other scripts' digits
  ('١٢', '１２'), which neither Arrow nor pandas parse; RE2, where DuckDB uses these patterns,
  reads ``\\d`` as 0-9 anyway. A column is numbers only when every present cell is a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["NA_TOKENS", "TEXT_NA_TOKENS", "INF_TOKENS", "MAX_EXACT_DIGITS", "SPACES", "SIGNS", "ZERO", "DIGIT",
           "EXPONENT_MARKS", "NumberForm", "DOT", "COMMA", "DOT_NUMBER", "COMMA_NUMBER", "AMBIGUOUS", "LEADING_ZERO",
           "INTEGER"]

# Cells read as missing in a numeric column (compared after strip + lower-case).
NA_TOKENS = frozenset({"", "n/a", "na", "#n/a", "?", "-", "null", "none", "nan"})

# In a text column only these unambiguous ones are (R and Excel write them for missing);
# "?", "-" and "none" can be real answers there, so they stay values, with a note.
TEXT_NA_TOKENS = frozenset({"", "n/a", "na", "#n/a", "null", "nan"})

INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})

# float64 holds integers exactly up to 2**53 (about 9.007e15): longer digit strings stay text.
MAX_EXACT_DIGITS = 15

# What a cell is stripped of before it is read: the whitespace of Python's str.strip(), which is
# Arrow's utf8_trim_whitespace (pandas' .str.strip() on either kind of string); written out for
# SQL, whose trim() takes spaces alone by default (a tab around a number made it text in DuckDB).
SPACES = "".join(chr(i) for i in range(0x3001) if chr(i).isspace())

SIGNS = "+-"
ZERO = "0"
DIGIT = "[0-9]"
EXPONENT_MARKS = "eE"

_SIGN = f"[{SIGNS}]"
_EXPONENT = f"(?:[{EXPONENT_MARKS}]{_SIGN}?{DIGIT}+)"


@dataclass(frozen=True)
class NumberForm:
    """How a file writes its numbers: the decimal mark and the thousands separator (the other mark).

    ``pattern`` is the whole grammar of a number cell in this form: a sign, then digits (in
    groups of three after a first group of one to three that does not start with 0, when
    separated: '0.125' is no thousands-separated 125), a decimal mark and digits (either side
    may be empty, not both), then an exponent."""

    decimal: str
    thousands: str
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        d, t = re.escape(self.decimal), re.escape(self.thousands)
        digits = f"(?:[1-9]{DIGIT}{{0,2}}(?:{t}{DIGIT}{{3}})+|{DIGIT}+)"
        text = f"{_SIGN}?(?:{digits}(?:{d}{DIGIT}*)?|{d}{DIGIT}+){_EXPONENT}?"
        object.__setattr__(self, "pattern", re.compile(text))

    @property
    def fraction_marks(self) -> str:
        """The characters that make a number of this form no integer: its decimal mark and an exponent."""
        return self.decimal + EXPONENT_MARKS

    def plain(self, cell: str) -> str:
        """A cell of this form as a float parser reads it: no thousands separators, a decimal point."""
        return cell.replace(self.thousands, "").replace(self.decimal, ".")


DOT = NumberForm(decimal=".", thousands=",")
COMMA = NumberForm(decimal=",", thousands=".")

DOT_NUMBER = DOT.pattern
COMMA_NUMBER = COMMA.pattern

# A cell of both forms with different values: one mark, after one to three digits (the first not 0)
# and before three ('1.234' is 1.234 in DOT's form and 1234 in COMMA's; '1,234' the other way).
# Every other cell is a number of at most one form, or of both without a mark ('12', '1e5'), alike.
AMBIGUOUS = f"{_SIGN}?[1-9]{DIGIT}{{0,2}}[.,]{DIGIT}{{3}}{_EXPONENT}?"

# A code, not a number: a zero followed by a digit after an optional sign (matched at the start).
LEADING_ZERO = f"{_SIGN}?{ZERO}{DIGIT}"

# An integer as written (no separators, no decimal mark, no exponent).
INTEGER = f"{_SIGN}?{DIGIT}+"
