"""What a source of data (or of a model) is to the app: one small protocol (issue 34, item 1).

A :class:`Source` is a frozen value in the :class:`ui.work.Work`. Each kind of source is one
module of this package and one line in ``ui/sources/__init__.py`` (:func:`register_source`); a
source that lives only in the tests is registered the same way (``tests/new_source.py``). The
pages never ask which kind a source is: they ask the source.

A source knows how to

- **open** itself (:meth:`Source.open`): its rows (or a sample of them, or none), the loader's
  notes, and the work it starts (types proposed, or given by an example or a model file);
- **compute its statistics** (:meth:`Source.fit`): in memory from the page's rows (this
  module's cached fit, the default), out of core where the files are (``nbapp.fit_file``), inside a
  database (``nbapp.scale.fit_sql``), or from a model file's own statistics; and its classes;
- **cross-validate where its rows are** when they are not all in memory
  (:attr:`Source.folds_where_stored`, :meth:`Source.cross_validate`);
- **write and read its part of the address** (:meth:`Source.address`, :meth:`Source.from_address`);
- **say what the pages may ask of it**: :attr:`Source.has_rows` (labelled rows: Evaluate scores
  and tunes; a model file alone has none), :attr:`Source.sampled` (the pages show a sample, the
  model saw every row), :attr:`Source.edits_rows`, :attr:`Source.types_fixed`, its sidebar line,
  its Data page choice (:attr:`Source.mode`, :meth:`Source.picker_ui`).

No page of the app imports a source module by name: the Data page lists the registered modes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Callable, ClassVar, NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

import nbapp
from nbapp.errors import DataError
from nbapp.ordering import classes_of
from ui.text import counted, md
from ui.work import IGNORE, Work

__all__ = ["Opened", "Source", "register_source", "unregister_source", "source_classes", "address_keys", "modes",
           "picker_of", "from_address", "fit_in_memory", "proposed_work", "proposal_rows", "first_row", "row_query",
           "is_missing", "PROPOSAL_ROWS", "CACHE_TTL", "MODEL_CACHE_SIZE", "PARSE_CACHE_SIZE"]

# Bounds of the shared caches of parsed files and fitted models (issue 21): every session of
# the process shares them, so each is bounded in entries and in pickled bytes, and an entry
# unused for an hour goes at the cache's next write. ``server.maxCacheDataSize``
# (.streamlit/config.toml) bounds all st.cache_data together.
CACHE_TTL = "1h"
PARSE_CACHE_SIZE = "32MB"
MODEL_CACHE_SIZE = "64MB"
RECENT_MODELS = 2          # models a session keeps as they are, by model key (fit_in_memory)


class Opened(NamedTuple):
    """What opening a source gives: the frame the pages show, the loader's notes, the work it
    starts and why each column has its type."""

    frame: pd.DataFrame
    notes: tuple[str, ...]
    work: Work
    reasons: dict[Any, str]


@dataclass(frozen=True)
class Source:
    """Where the data (or the model) of the work comes from: a display ``name`` and the
    ``sha256`` of what was read (two different data are two different hashes: the caches of the
    fit are keyed by it)."""

    name: str
    sha256: str

    #: The Data page's choice that opens a source of this kind ("" for none: reached otherwise).
    mode: ClassVar[str] = ""
    #: The rows are labelled data: Evaluate scores and tunes, the Data page shows them.
    has_rows: ClassVar[bool] = True
    #: The pages show a sample of the rows; the model saw every row.
    sampled: ClassVar[bool] = False
    #: The page's frame is the data itself (not re-read for the fit): the Data page may edit it.
    edits_rows: ClassVar[bool] = False
    #: The columns' types are fixed by the source (a model file's statistics are of its types).
    types_fixed: ClassVar[bool] = False
    #: Lecture references are shown by default (the built-in examples come from the lecture).
    lecture_references: ClassVar[bool] = False
    #: Evaluate cross-validates where the rows are (:meth:`cross_validate`), not on the frame.
    folds_where_stored: ClassVar[bool] = False
    #: On Evaluate, for such a source: where it cross-validates ("On a local path ...") and how
    #: its rows are dealt to the folds ("Folds are assigned ...").
    evaluated_where: ClassVar[str] = "On a local path"
    folds_dealt: ClassVar[str] = "by a hash of each row's place in the files"
    #: How the sidebar names the kind of data.
    described: ClassVar[str] = "upload"
    #: The address parameters this kind writes beyond the built-in ones (``ui.remember._KEYS``).
    address_keys: ClassVar[tuple[str, ...]] = ()

    @property
    def stem(self) -> str:
        """The data's name in a download's file name, before it is made safe ("tennis14" for
        tennis14.csv): the name less its suffix; a source whose name is no file's says its own."""
        return PurePath(self.name).stem

    # -- what the fit depends on -------------------------------------------------------------------
    def key(self) -> tuple:
        """What the statistics of this source depend on (it keys the caches of the fit)."""
        return (type(self).__name__, self.sha256)

    @property
    def example_key(self) -> str | None:
        """The built-in example this source is, or None."""
        return None

    # -- opening -----------------------------------------------------------------------------------
    def open(self) -> Opened:
        """Read the source: the frame, notes, starting work and reasons (DataError for bad input)."""
        raise NotImplementedError

    def opened(self) -> None:
        """Called once this source is the work's (the session may keep it, as uploads are kept)."""

    # -- statistics --------------------------------------------------------------------------------
    def fit(self, work: Work, frame: pd.DataFrame) -> Any:
        """The model of ``work`` (whose source this is): by default fitted in memory from ``frame``
        (cached by the work's model key; a change of smoothing reuses the statistics)."""
        return fit_in_memory(work, frame)

    def classes(self, work: Work, frame: pd.DataFrame) -> list[Any]:
        """The target's classes, sorted like the model's ``classes_``."""
        return classes_of(frame[work.target])

    def rows_fitted(self, work: Work) -> int | None:
        """How many rows the model saw when that is not the frame's length (None: the frame's)."""
        return None

    def cross_validate(self, model: Any, work: Work, *, k: int, progress: Callable[[int, int], None]) -> Any:
        """k-fold cross-validation where the rows are stored (:attr:`folds_where_stored`)."""
        raise NotImplementedError(f"{type(self).__name__} cross-validates on the page's rows")

    # -- the address -------------------------------------------------------------------------------
    def address(self, store: Any) -> tuple[dict[str, str], str | None]:
        """This source's part of the page's address (``store``: ``ui.remember.file_store()``, where
        the bytes an address names are kept), and why it cannot be written (None when it can)."""
        return {}, "this data is not kept on the server"

    @classmethod
    def from_address(cls, query: dict[str, str]) -> "Source | None":
        """The source the address ``query`` names, if it names one of this kind (DataError when it
        names one that can no longer be read)."""
        return None

    # -- what the pages say ------------------------------------------------------------------------
    def sidebar_line(self, frame: pd.DataFrame) -> str:
        rows = f"a sample of {counted(len(frame), 'row')}" if self.sampled else counted(len(frame), "row")
        return f"**Data:** {md(self.name)} ({self.described})  \n{rows} × {counted(frame.shape[1], 'column')}"

    def in_use(self) -> str:
        """"The data 'x.csv'": how the Data page names this source in use."""
        return f"The data {md(self.name)}"

    def fitted_words(self, work: Work) -> str:
        """" on all 1,000,000 rows" after the Data page's "Model fitted" when the model saw more
        rows than the page shows, else ""."""
        rows = self.rows_fitted(work)
        return f" on all {rows:,} rows" if self.sampled and rows else ""

    def big_data_note(self, work: Work, frame: pd.DataFrame) -> str | None:
        """On Model, Explain and Evaluate: what the model saw and what the page shows (None: the same)."""
        return None

    def without_rows_ui(self) -> None:
        """The Data page of a source without rows (:attr:`has_rows` False)."""

    # -- the Data page -----------------------------------------------------------------------------
    @classmethod
    def available(cls) -> bool:
        """Whether the Data page offers this kind now."""
        return True

    @classmethod
    def unavailable_note(cls) -> str:
        return ""

    @classmethod
    def picker_ui(cls) -> None:
        """The Data page's controls that open a source of this kind (under its :attr:`mode`)."""

    @classmethod
    def chosen(cls, current: "Source") -> None:
        """The Data page's mode switched to this kind while ``current`` is in use."""


# --------------------------------------------------------------------------- the registry

_SOURCES: list[type[Source]] = []


def register_source(cls: type[Source]) -> type[Source]:
    """Make a kind of source known to the app (its Data page mode, its address); usable as a
    decorator. Registering it again moves nothing."""
    if cls not in _SOURCES:
        _SOURCES.append(cls)
    return cls


def unregister_source(cls: type[Source]) -> None:
    if cls in _SOURCES:
        _SOURCES.remove(cls)


def source_classes() -> tuple[type[Source], ...]:
    return tuple(_SOURCES)


def address_keys() -> tuple[str, ...]:
    """The address parameters the registered kinds of source write beyond the built-in ones."""
    return tuple(k for cls in _SOURCES for k in cls.address_keys)


def modes() -> tuple[list[str], list[str]]:
    """The Data page's modes offered now (in registration order), and the notes of those that
    are not (a local path without a data folder)."""
    offered, notes = [], []
    for cls in _SOURCES:
        if not cls.mode or cls.mode in offered:
            continue
        if cls.available():
            offered.append(cls.mode)
        elif cls.unavailable_note():
            notes.append(cls.unavailable_note())
    return offered, notes


def picker_of(mode: str) -> type[Source]:
    """The kind of source whose controls the Data page draws under ``mode`` (the first registered)."""
    return next(cls for cls in _SOURCES if cls.mode == mode)


def from_address(query: dict[str, str]) -> Source | None:
    """The source the address names (None: it names none)."""
    for cls in _SOURCES:
        source = cls.from_address(query)
        if source is not None:
            return source
    return None


# --------------------------------------------------------------------------- the fit in memory


@st.cache_data(show_spinner="Counting the data…", max_entries=16, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _statistics(source_key: tuple, target: Any, feature_items: tuple, weight: Any, _frame: pd.DataFrame) -> Any:
    """The statistics a fit of these specs counts from the rows (one pass over the data); keyed
    by the work's stats key (the source's key first). A change of smoothing, priors or the
    Gaussian epsilon reuses them (:func:`_fit`): a click on l does not read the data again."""
    from nbapp.propose import check_target

    data, _notes = check_target(_frame, target)
    return nbapp.NaiveBayes(dict(feature_items)).summarize(data, target, weight)


@st.cache_data(show_spinner="Fitting the model…", max_entries=32, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _fit(source_key: tuple, target: Any, feature_items: tuple, weight: Any, config: Any, _frame: pd.DataFrame) -> Any:
    """Fit a NaiveBayes from the data's statistics under the settings ``config``; keyed by the
    work's model key (the source's key first)."""
    model = nbapp.NaiveBayes.from_settings(dict(feature_items), config)     # refuses bad settings first
    return model.fit_stats(_statistics(source_key, target, feature_items, weight, _frame=_frame), target, weight)


def fit_in_memory(work: Work, frame: pd.DataFrame) -> Any:
    """The model of ``work`` fitted from the rows of ``frame`` (cached by the work's model key).

    st.cache_data hands each run its own copy of the model (a session may not change another's);
    the session keeps its last RECENT_MODELS by model key, so its own reruns, or a step of l and
    back, use one object with the fractions and tables it derived once (issue 32, item 3)."""
    key = work.model_key()
    recent = st.session_state.get("recent_models", {})
    model = recent[key] if key in recent else _fit(*key, _frame=frame)
    kept = [(k, m) for k, m in recent.items() if k != key] + [(key, model)]
    st.session_state["recent_models"] = dict(kept[-RECENT_MODELS:])
    return model


# --------------------------------------------------------------------------- a work proposed from rows
# Types and the target are proposed from this many rows of a larger table (a seeded random
# sample): the proposal's statistics (distinct values, words per cell) are settled long before,
# and on a million rows they would cost seconds of the upload.
PROPOSAL_ROWS = 100_000


def proposal_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows the types are proposed from: all, or a seeded sample of PROPOSAL_ROWS."""
    if len(df) <= PROPOSAL_ROWS:
        return df
    return df.iloc[np.sort(np.random.default_rng(0).choice(len(df), PROPOSAL_ROWS, replace=False))]


def _proposal(df: pd.DataFrame, target: Any) -> tuple[dict[Any, str], dict[Any, str]]:
    """The proposed type of every other column, and why."""
    from nbapp.propose import propose_feature_types

    proposal = propose_feature_types(proposal_rows(df), target)
    types, reasons = dict(zip(proposal["column"], proposal["type"])), dict(zip(proposal["column"], proposal["reason"]))
    columns = [c for c in df.columns if c != target]
    return {c: types.get(c, IGNORE) for c in columns}, {c: reasons.get(c, "") for c in columns}


def proposed_work(source: Source, df: pd.DataFrame, target: Any = None, *, base: Work | None = None
                  ) -> tuple[Work, dict[Any, str]]:
    """A work of ``df`` predicting ``target`` (None: the proposed target, else the last column),
    the other columns' types proposed, the first row as the test example, and the reasons of the
    types. ``base``'s weight, settings and choices are kept; custom priors name the old classes,
    so they go back to the empirical prior."""
    from nbapp.propose import propose_target, propose_weight

    if target is None:
        target = propose_target(proposal_rows(df))
        target = target if target is not None else df.columns[-1]
    types, reasons = _proposal(df, target)
    weight = base.weight if base is not None and base.weight != target else (
        propose_weight(df, target) if base is None else None)
    if weight is not None:
        types[weight] = IGNORE
        if base is None:
            reasons[weight] = f"named {weight!r}, like a row count -> the row weight (each row counts that many times)"
    config = base.settings if base is not None else nbapp.Settings()
    if not isinstance(config.priors, str):
        config = dataclasses.replace(config, priors="empirical")
    new = Work(source=source, target=target, weight=weight, features=types, settings=config,
               choices=base.choices if base is not None else {}, **first_row(df, target))
    return new, reasons


def two_columns(name: str, df: pd.DataFrame) -> None:
    """DataError unless ``df`` has a target and at least one feature."""
    if df.shape[1] < 2:
        raise DataError(f"{name!r} has {df.shape[1]} column; a model needs a target and at least one feature.")


def first_row(df: pd.DataFrame, target: Any) -> dict[str, Any]:
    if len(df) == 0:
        return {"query": {}, "missing": frozenset()}
    return row_query(df.iloc[0], target)


def row_query(row: pd.Series, target: Any) -> dict[str, Any]:
    columns = [c for c in row.index if c != target]
    return {"query": {c: scalar(row[c]) for c in columns if not is_missing(row[c])},
            "missing": frozenset(c for c in columns if is_missing(row[c]))}


def scalar(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def is_missing(v: Any) -> bool:
    return v is None or (pd.api.types.is_scalar(v) and bool(pd.isna(v)))     # a list cell is a value
