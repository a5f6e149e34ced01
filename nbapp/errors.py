"""The one exception family of nbapp.

Every error the library raises on bad input is a :class:`DataError`, a
``ValueError`` whose message names the column, the first offending rows or
value, and the fix, so the app can show it as it is.
"""

from __future__ import annotations

__all__ = ["DataError"]


class DataError(ValueError):
    """Bad input data or settings, explained in one sentence a user can act on."""
