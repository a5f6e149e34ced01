"""The one rule for writing a number for people (issue 33, item 5), shared by the library's texts
(the exercise sheets) and the app's screens:

- significant digits, never a fixed count of decimals: a probability of 7e-15 reads ``7e-15``,
  not ``0.000000000000007`` (nor ``0.0000``), and a tiny or huge value switches to the
  e-notation by itself (Python's ``g`` format);
- a whole number has no decimal point: a flipper of 181 mm reads ``181``, not ``181.0``;
- a value of the data keeps every digit it was given (up to :data:`VALUE_DIGITS`), a computed
  one :data:`DIGITS`; a sum that missed its decimal, 39.099999999999994, reads ``39.1``.

>>> number_text(0.000000000000007), number_text(0.123456), number_text(2.0)
('7e-15', '0.1235', '2')
>>> value_text(181.0), value_text(39.099999999999994), value_text(4201.754385964912), value_text("Biscoe")
('181', '39.1', '4201.754386', 'Biscoe')
>>> input_format(43.92192982456141), input_format(1234567.25)
('%.6g', '%.7g')
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

__all__ = ["DIGITS", "VALUE_DIGITS", "INPUT_DIGITS", "number_text", "value_text", "input_format"]

#: Significant digits of a computed number (a probability, a density, a mean).
DIGITS = 4
#: Significant digits of a value of the data: enough for any measurement a file holds, few
#: enough to hide the last bits of a binary fraction (39.1 stored as 39.099999999999994).
VALUE_DIGITS = 10
#: Significant digits a number input shows (at least: its whole part is never rounded).
INPUT_DIGITS = 6


def number_text(x: Any, digits: int = DIGITS) -> str:
    """``x`` with ``digits`` significant digits: "0.1235", "7e-15", "2"; "–" for a missing or
    undefined value, "∞" and "−∞"; text that is no number as itself."""
    if x is None:
        return "–"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "–"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return f"{v:.{digits}g}"


def value_text(x: Any) -> str:
    """A value of the data as the file wrote it: numbers by :func:`number_text` with
    :data:`VALUE_DIGITS` digits (181, 39.1, 7e-15), anything else (text, a category, a
    boolean) as itself."""
    if isinstance(x, Real) and not isinstance(x, bool):
        return number_text(x, VALUE_DIGITS)
    return str(x)


def input_format(x: Any) -> str:
    """The printf format of a number input showing ``x``: :data:`INPUT_DIGITS` significant
    digits, more where the whole part has more (1234567, not 1.23457e+06). Streamlit's bare
    "%g" shows every digit of the double (43.92192982456141); the input keeps the exact value
    until it is changed."""
    try:
        v = abs(float(x))
    except (TypeError, ValueError):
        v = 0.0
    whole = int(math.log10(v)) + 1 if math.isfinite(v) and v >= 1 else 0
    return f"%.{max(INPUT_DIGITS, min(whole, 15))}g"
