"""Session state of the workbench: the work (one value), the data it names, the model it makes.

What the user is working on is one frozen value, :class:`ui.work.Work`, under the session key
"work", written only through :func:`set_work` / :func:`update_work` (and the helpers here that
call them). Every page calls :func:`ensure_state` first, so it also works when Streamlit runs it
without ``app.py`` (cold deep links, AppTest). The address holds the work (``ui.remember``):
:func:`ensure_state` restores it on a session's first run, :func:`remember_work` writes it.

The session's keys, all of them (``tests/test_session_keys.py`` checks that no module uses
another). Plain keys that no widget owns (widget keys start with "_" or hold a "." and belong to
their page's widgets):

  The work and what it makes
    work            the Work: data reference (its source, ui.sources), the model file imported
                    beside the data, target, weight, a spec per column, settings, the Explain row,
                    the pages' choices
    frame           the DataFrame the work's source names (a sample of a local path; an empty
                    frame of the model's columns for a model file opened alone)
    model           the model last fitted from the work; deleted when a fit fails, so no page ever
                    reads a model of an earlier work (an imported model is not stored here)
    recent_models   model key -> model, the last ui.sources.base.RECENT_MODELS fitted in memory: a
                    rerun, or a click on l and back, uses the same object (what it derived kept)
    stored_models   the statistics key, rows and model (under the work's settings) of a source counted
                    where its rows are (a local path out of core, a database table inside it)
    kept            name -> (key, result): what a page computed once per key (a model, a row, the
                    settings), through ui.kept: the Evaluate page's evaluation and what is drawn
                    from it, the Model page's type comparison and dependence check, a lesson's rows
                    typed in, downloads' bytes

  Opening data (the Data page and the address)
    data_upload     the last upload (a ui.sources.Upload, its bytes in it), kept while a built-in
                    example is in use
    pending_upload  an upload received by the uploader's callback, read (with a progress bar) by the Data page
    upload_error    the sentence of the last failed upload, or None
    upload_failed_name
                    the file of the last failed upload
    load_notes      sentences from the loader (delimiter, encoding, dropped rows)
    type_reasons    column -> why its type was proposed or chosen
    data_mode, upload_reader, data_path, path_error, last_example
                    the Data page's source mode, reader choice, typed path, its error, and the
                    built-in example to go back to
    db_connection, db_way, db_table, db_sql, db_error
                    the Data page's database connection, table or typed SELECT, and its error
    restore_note    what the page's address named but could not be restored (or a linked token pattern
                    waiting for the visitor's word), or None
    held_token_patterns
                    text column -> the token pattern a link carried, not run until the visitor confirms it
    work_not_kept   why a reload would lose the current work, or None

  Columns and their options
    option_errors   column -> (refused changes, the DataError's sentence) of a column option nbapp refused
    text_docs       text column -> the sample document typed on the Text page

  The pages' forms
    model_priors_shown, model_prior_error, model_upload_seen
                    the Model page's custom-prior form's state and the model file it last read
    explain_applied_row
                    the Explain page's row last clicked (so a later edit is kept)
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Callable

import numpy as np
import pandas as pd
import streamlit as st

from nbapp.errors import DataError
from ui import remember, sources
from ui.kept import kept_or_build
from ui.sources import DEFAULT_EXAMPLE, READERS, Example, LocalPath, ModelFile, Source, Table
from ui.sources.base import CACHE_TTL, first_row, is_missing, proposal_rows, proposed_work, row_query, scalar
from ui.sources.local_path import DATA_ROOT_VARIABLE, data_root, path_sources
from ui.sources.upload import parse_upload
from ui.work import IGNORE, Work

__all__ = [
    "DEFAULT_EXAMPLE", "READERS", "ModelFile", "Source", "Work", "IGNORE",
    "work", "set_work", "update_work", "set_feature", "offer_change", "refused", "set_kinds", "set_settings",
    "set_choice",
    "set_target", "set_weight", "set_query", "set_query_from_row", "reset_query",
    "ensure_state", "remember_work", "open_source", "load_example_into_state", "load_upload_into_state",
    "load_path_into_state",
    "import_model", "open_model_alone", "HELD", "CACHE_TTL", "DATA_ROOT_VARIABLE", "proposal_rows", "data_root", "path_sources", "big_data_note", "path_rows", "parse_upload",
    "frame", "specs", "settings", "model_key", "data_key", "current_model", "require_model", "class_list", "download_bytes", "shared_download",
    "data_stem",
    "sha256", "is_missing", "as_float",
]

# --------------------------------------------------------------------------- the work


def work() -> Work:
    """The work in use."""
    return st.session_state["work"]


def set_work(new: Work) -> None:
    """Make ``new`` the work. A change of what the model depends on (:meth:`Work.model_key`) leaves
    an imported model behind: the pages go back to fitting."""
    ss = st.session_state
    old = ss.get("work")
    if (old is not None and new.imported is not None and new.imported == old.imported
            and old.model_key() != new.model_key()):
        new = new.replace(imported=None)
    ss["work"] = new


def update_work(**changes: Any) -> None:
    """Change some fields of the work (see :class:`ui.work.Work`)."""
    set_work(work().replace(**changes))


def set_feature(column: Any, spec: Any) -> None:
    """Type ``column`` as ``spec`` (a spec object, a type name, or IGNORE)."""
    set_work(work().with_feature(column, spec))


def offer_change(column: Any, changes: dict[str, Any],
                 build: Callable[..., Any] = dataclasses.replace) -> None:
    """Change ``column``'s spec to ``build(spec, **changes)`` (by default its options replaced). A
    change nbapp refuses (a token pattern that is no regular expression) leaves the spec as it was
    and is kept with its sentence for the page to show (:func:`refused`)."""
    errors = dict(st.session_state.get("option_errors", {}))
    try:
        set_feature(column, build(work().features[column], **changes))
    except DataError as err:
        errors[column] = (changes, str(err))
    else:
        errors.pop(column, None)
    st.session_state["option_errors"] = errors


def refused(column: Any) -> tuple[dict[str, Any], str] | None:
    """The last change of ``column``'s options that nbapp refused and its sentence, or None."""
    return st.session_state.get("option_errors", {}).get(column)


def set_kinds(kinds: dict[Any, Any]) -> None:
    """Type several columns at once (column -> type name, spec or IGNORE); a column keeps its spec
    (and its options) when its type does not change."""
    current = work()
    features = dict(current.features)
    for column, kind in kinds.items():
        if current.kinds.get(column) != getattr(kind, "kind", kind):
            features[column] = kind
    set_work(current.replace(features=features))


def set_settings(**changes: Any) -> None:
    """Change some model settings (``alpha=2``); nbapp.Settings refuses bad values with a DataError."""
    update_work(settings=dataclasses.replace(work().settings, **changes))


def set_choice(name: str, value: Any) -> None:
    """A page choice that travels with the work ("explain.pair_mode", "lessons.view", ...)."""
    set_work(work().with_choice(name, value))


def settings() -> Any:
    """The model settings in use (nbapp.Settings)."""
    return work().settings


def specs() -> dict[Any, Any]:
    """The modelled columns and their specs."""
    return work().specs


def frame() -> pd.DataFrame:
    return st.session_state["frame"]


def model_key() -> tuple:
    """What the model in use comes from (the work's model key, plus the imported file's sha256):
    keys every cached computation on the model, so two imported files never share a result."""
    imported = work().imported
    return (*work().model_key(), imported.sha256 if imported is not None else None)


def data_key() -> tuple:
    """What the rows the pages show and the model's statistics come from (the work's stats key,
    plus the imported file's sha256): keys a computation on the data alone, which a change of
    smoothing or priors leaves as it is (the histograms under the fitted curves)."""
    imported = work().imported
    return (*work().stats_key(), imported.sha256 if imported is not None else None)


# --------------------------------------------------------------------------- caching


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- set-up


def ensure_state() -> None:
    """Put the default state in place on a session's first run: tennis14, loaded and fitted, or
    the work the page's address names (a reload, a link); then write the work into the address."""
    if "work" not in st.session_state:
        load_example_into_state(DEFAULT_EXAMPLE)
        restore_work()
    remember_work()


def _new_data(new: Work, df: pd.DataFrame, *, notes: tuple[str, ...] = (), reasons: dict[Any, str]) -> None:
    """Make ``new`` (a work of new data, ``df``) the work; the page choices of the old work stay."""
    ss = st.session_state
    old = ss.get("work")
    if old is not None:
        new = new.replace(choices=old.choices)
    ss["frame"] = df
    ss["load_notes"] = notes
    ss["type_reasons"] = reasons
    ss["upload_error"] = None
    ss["option_errors"] = {}         # no refused column option and no typed sample document carry over
    ss["text_docs"] = {}
    set_work(new)


def open_source(source: Source) -> None:
    """Make ``source`` the work's data: its rows (or sample), types and test example, as the
    source opens itself (ui.sources); raises DataError on bad input, the work left as it was."""
    opened = source.open()
    example_key = work().source.example_key if "work" in st.session_state else None
    if example_key is not None:
        st.session_state["last_example"] = example_key     # "Back to the built-in example" returns here
    _new_data(opened.work, opened.frame, notes=opened.notes, reasons=opened.reasons)
    source.opened()


def load_example_into_state(key: str) -> None:
    """Make built-in example ``key`` the current dataset, with its types, l and test example."""
    open_source(Example.of(key))


def load_upload_into_state(data: bytes, name: str, reader: str = Table.tag, sheet: str | None = None) -> None:
    """Parse an upload (a workbook's ``sheet``), read as ``reader`` (a key of READERS), and make it
    the current dataset; raises DataError on bad input."""
    open_source(sources.upload.UPLOADS[reader].of(data, name, sheet))


def load_path_into_state(path: str) -> None:
    """Open a CSV / Parquet file, folder or glob under the server's data folder (data_root): a
    sample of its first rows becomes the frame the pages show and propose types from; the model
    is fitted on every row of the files resolved here, out of core (:func:`nbapp.fit_file`).
    Raises DataError for a path that cannot be read."""
    open_source(LocalPath.of(path))


def path_rows() -> int | None:
    """Rows the model was fitted on when the pages show a sample (None before the fit or otherwise)."""
    return work().source.rows_fitted(work())


def big_data_note() -> None:
    """On Model, Explain and Evaluate: what the model saw and what the page shows, when they differ."""
    note = work().source.big_data_note(work(), frame())
    if note:
        st.info(note)


# --------------------------------------------------------------------------- target, weight, row


def set_target(target: Any) -> None:
    """Choose the target column; the feature types are proposed again for the other columns."""
    new, reasons = proposed_work(work().source, frame(), target, base=work())
    set_work(new)
    st.session_state["type_reasons"] = reasons


def set_weight(weight: Any) -> None:
    """The frequency-weight column (None: every row counts once); it is no feature."""
    current = work()
    features = current.features if weight is None else current.features.set(weight, IGNORE)
    set_work(current.replace(weight=weight, features=features))


def reset_query() -> None:
    """The test example becomes the data's first row (missing values stay missing)."""
    update_work(**first_row(frame(), work().target))


def set_query_from_row(row: pd.Series) -> None:
    """A row of the data becomes the test example: its values, and its missing cells marked missing."""
    update_work(**row_query(row, work().target))


def set_query(column: Any, value: Any = None, *, missing: bool | None = None) -> None:
    """One value of the test example (and whether it is marked missing)."""
    current = work()
    query = current.query if value is None else current.query.set(column, scalar(value))
    gone = current.missing if missing is None else (current.missing | {column} if missing
                                                    else current.missing - {column})
    set_work(current.replace(query=query, missing=gone))


def as_float(v: Any, default: float = 0.0) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return default
    return x if np.isfinite(x) else default


# --------------------------------------------------------------------------- the model


def data_stem() -> str:
    """The data's name for a download's file name, as its source states it (``Source.stem``): the
    file's stem ("tennis14" for tennis14.csv; a model file opened alone: its own stem, less a
    "_naive_bayes" suffix; a database table: its whole name, "public_orders"), "data" when the
    name has none (a glob)."""
    from ui.text import file_stem

    stem = work().source.stem.replace("*", "").replace("?", "").removesuffix("_naive_bayes")
    return file_stem(stem) if stem.strip("._- ") else "data"


def download_bytes(name: str, key: Any, build: Callable[[], bytes]) -> bytes:
    """A download's file, built once per ``key`` and kept in session state.

    Eager bytes, not a deferred (callable) download: under load a rerun in between the click
    and the browser's fetch cancels a deferred download (seen in bench/load_test.py), while
    building the bytes on every rerun would cost up to a second on big tables.
    """
    return kept_or_build(f"download.{name}", key, build)


@st.cache_resource(show_spinner=False, max_entries=32, ttl=CACHE_TTL)
def shared_download(name: str, key: Any, _build: Callable[[], bytes]) -> bytes:
    """A download's file that depends only on ``key`` (the model key, a column), built once for
    every session: a class stepping l through the same values builds each file once (issue 32,
    item 4), where :func:`download_bytes` keeps one per session."""
    return _build()


def current_model() -> Any:
    """The model in use, by one route: the model file imported beside the data when there is one,
    else the work's source (fitted in memory, out of core, or from a model file's statistics, as
    the source computes its statistics); raises DataError when it cannot be fitted."""
    ss = st.session_state
    current = work()
    if current.imported is not None:
        return current.imported.fit(current, frame())
    try:
        if not current.specs:
            raise DataError("Every column is ignored: on the Data page, give at least one column a feature type.")
        model = current.source.fit(current, frame())
    except DataError:
        ss.pop("model", None)  # never leave the model of earlier settings behind
        raise
    ss["model"] = model
    return model


def require_model() -> Any:
    """The fitted model, or an error message in place and a clean stop of the page."""
    try:
        return current_model()
    except DataError as err:
        from ui.text import md

        st.error(f"The model cannot be fitted: {md(err)}")
        st.stop()


def class_list() -> list[Any]:
    """The target's classes, sorted like the model's ``classes_`` (a model opened alone: its own)."""
    current = work()
    return current.source.classes(current, frame())


# --------------------------------------------------------------------------- model files


def import_model(name: str, data: bytes) -> ModelFile:
    """Load a model file (JSON) and make it the model in use, its specs and settings the work's.

    Raises DataError, leaving the current model in use, for a pickle or a file nbapp cannot
    read. A model whose target or feature columns the current data lacks is opened alone
    (:func:`open_model_alone`); a model of another target column of the same data makes that
    column the target.
    """
    file = ModelFile.of(name, data)
    model = file.model
    if not work().source.has_rows or model.missing_columns(frame()):
        return open_model_alone(name, data, file=file)
    if model.target_ != work().target:
        set_target(model.target_)
    current = work()
    used = dict(model.features_)
    features = {c: used.get(c, IGNORE) for c in current.features}
    weight = model.weight_ if model.weight_ in current.features else None
    set_work(current.replace(features=features, weight=weight, settings=model.settings, imported=file))
    st.session_state["type_reasons"] = {c: "set by the imported model" if c in used else "not used by the imported model"
                                        for c in features}
    return file


def open_model_alone(name: str, data: bytes, *, file: ModelFile | None = None) -> ModelFile:
    """A model file without data: Model and Explain work from the file's statistics, Evaluate
    predicts a new file. The data in use is set aside (an empty frame of the model's columns)."""
    file = file if file is not None else ModelFile.of(name, data)
    open_source(file)
    return file


# --------------------------------------------------------------------------- the address


def remember_work() -> None:
    """Write the current work into the page's address (only when it changed); say in
    ``work_not_kept`` why a reload would lose it."""
    ss = st.session_state
    params, problem = remember.address_of(work())
    ss["work_not_kept"] = problem
    remember.write_address(params)


def restore_work() -> None:
    """On a session's first run: rebuild the work the address names (else leave the default).

    Every failure is a sentence in ``restore_note``, shown in the sidebar; what could be restored
    stays.
    """
    ss = st.session_state
    query = remember.read_address()
    if not query:
        return
    notes: list[str] = []
    try:
        source = sources.base.from_address(query)
        if source is not None:
            open_source(source)
        target = query.get("target")
        if work().source.has_rows and target is not None and target != work().target:
            columns = {str(c): c for c in frame().columns}
            if target not in columns:
                raise DataError(f"the data has no column {target!r} to predict")
            set_target(columns[target])
        notes += _apply_work(query)
        beside = ModelFile.beside(query)
        if beside is not None:
            import_model(beside.name, beside.data)
            notes += _hold_text_options()
    except DataError as err:
        notes.append(str(err))
    finally:
        unread = "Not everything of this link could be restored: " + "; ".join(notes) + "." if notes else None
        held = remember.held_note(ss.get(HELD))            # a linked token pattern waits
        ss["restore_note"] = " ".join(n for n in (unread, held) if n) or None


#: session key: text column -> {option: value}, the text options a link carried that the text
#: settings cannot produce (a token pattern first), not yet confirmed (ui.held_patterns)
HELD = "held_token_patterns"


def _apply_work(query: dict[str, str]) -> list[str]:
    """The work= part of the address on the work just loaded, then the unusual text options of
    either held back (:func:`_hold_text_options`); what could not be read, in sentences."""
    notes: list[str] = []
    if query.get("work"):
        before = work()
        restored, notes = remember.decode_work(query["work"], before, classes=class_list())
        set_work(restored)
        kept = {c: "kept from your last visit" for c, spec in restored.features.items()
                if spec != before.features.get(c)}
        st.session_state["type_reasons"] = {**st.session_state.get("type_reasons", {}), **kept}
    return notes + _hold_text_options()


def _hold_text_options() -> list[str]:
    """Hold back the text options of the work a link opened that the text settings cannot produce
    (a token pattern first) until the visitor confirms them; they may come from work= or from a
    model file the link names, opened alone or imported (issue 31, item 8). The work changes, so
    an imported model is left behind and the model is fitted (or rebuilt from the file's
    statistics) with the defaults. A note for each option refused outright."""
    restored, st.session_state[HELD], refused = remember.hold_text_options(work())
    set_work(restored)
    return refused
