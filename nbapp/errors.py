"""The one exception family of nbapp.

Every error the library raises on bad input is a :class:`DataError`, a
``ValueError`` whose message names the column, the first offending rows or
value, and the fix, so the app can show it as it is.
"""

from __future__ import annotations

__all__ = ["DataError", "InternalError", "report_internal_error", "shown"]


class DataError(ValueError):
    """Bad input data or settings, explained in one sentence a user can act on."""


def shown(value: object) -> str:
    """A data value as a sentence shows it: strings quoted, anything else as the user wrote it
    (2013, not np.int64(2013) as numpy 2 writes it)."""
    from nbapp.ordering import python_scalar

    value = python_scalar(value)
    return repr(value) if isinstance(value, str) else str(value)


class InternalError(RuntimeError):
    """A bug in nbapp, never the user's data: shown as "internal error — please report" with a
    short id under which the traceback was logged (logger "nbapp")."""

    def __init__(self, incident: str) -> None:
        self.incident = incident
        super().__init__(f"Internal error — please report it (id {incident}). This is a bug in nbapp, "
                         "not a problem with your data; nothing you did was lost.")


def report_internal_error(exc: BaseException) -> InternalError:
    """Log exc's traceback under a new short id and return the InternalError that names it."""
    import logging
    import secrets

    incident = secrets.token_hex(4)
    logging.getLogger("nbapp").error("internal error %s", incident, exc_info=(type(exc), exc, exc.__traceback__))
    return InternalError(incident)
