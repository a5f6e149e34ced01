"""Session state of the workbench: the work (one value), the data it names, the model it makes.

What the user is working on is one frozen value, :class:`ui.work.Work`, under the session key
"work", written only through :func:`set_work` / :func:`update_work` (and the helpers here that
call them). Every page calls :func:`ensure_state` first, so it also works when Streamlit runs it
without ``app.py`` (cold deep links, AppTest). The address holds the work (``ui.remember``):
:func:`ensure_state` restores it on a session's first run, :func:`remember_work` writes it.

The session's keys, all of them (``tests/test_session_keys.py`` checks that no module uses
another). Plain keys that no widget owns (widget keys start with "_" or hold a "." and belong to
their page's widgets):

    work            the Work: data reference, target, weight, a spec per column, settings, the
                    Explain row, the pages' choices
    frame           the DataFrame the work's source names (a sample of a local path; an empty
                    frame of the model's columns for a model file opened alone)
    model           the model last fitted from the work; deleted when a fit fails, so no page ever
                    reads a model of an earlier work (an imported model is not stored here)
    imported        Imported (file name, NaiveBayes, sha256) of a model loaded from JSON that
                    stands in for the fit until the work changes, or None
    model_file      Imported of a model file opened alone (source reader "model"): its statistics
                    are smoothed again under the work's settings
    model_bytes     the bytes of the imported (or opened-alone) model file, kept for the address
    data_bytes      the upload in use (None for an example, a local path or a model file)
    data_upload     the last upload (bytes, file name, reader), kept while a built-in example is in use
    pending_upload  an upload received by the uploader's callback, read (with a progress bar) by the Data page
    load_notes      sentences from the loader (delimiter, encoding, dropped rows)
    type_reasons    column -> why its type was proposed or chosen
    path_models     the local path's statistics key, rows and model (under the work's settings),
                    fitted out of core
    restore_note    what the page's address named but could not be restored (or a linked token pattern
                    waiting for the visitor's word), or None
    held_token_patterns
                    text column -> the token pattern a link carried, not run until the visitor confirms it
    work_not_kept   why a reload would lose the current work, or None
    upload_error    the sentence of the last failed upload, or None
    upload_failed_name
                    the file of the last failed upload
    option_errors   column -> (refused changes, the DataError's sentence) of a column option nbapp refused
    text_docs       text column -> the sample document typed on the Text page
    download_cache  download name -> (key, bytes) built once per key
    data_mode, upload_reader, data_path, path_error, last_example
                    the Data page's source mode, reader choice, typed path, its error, and the
                    built-in example to go back to
    eval_result, eval_extras, eval_three_way
                    the Evaluate page's results, kept while their work is the same
    lessons_inc_key, lessons_inc_rows
                    the incremental-learning lesson's rows typed in, for one model
    model_choice_plot, model_choice_cv, model_cmi, model_drop, model_priors_shown, model_prior_error,
    model_upload_seen
                    the Model page's results kept once per model, and its custom-prior form's state
    explain_applied_row
                    the Explain page's row last clicked (so a later edit is kept)
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from typing import Any, Callable, NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

import nbapp
from nbapp.errors import DataError
from nbapp.examples import EXAMPLES, example, load_example
from nbapp.ordering import classes_of
from nbapp.persist import model_from_json
from ui import remember
from ui.work import IGNORE, Source, Work

__all__ = [
    "DEFAULT_EXAMPLE", "READERS", "Imported", "Source", "Work", "IGNORE",
    "work", "set_work", "update_work", "set_feature", "offer_change", "refused", "set_kinds", "set_settings",
    "set_choice",
    "set_target", "set_weight", "set_query", "set_query_from_row", "reset_query",
    "ensure_state", "remember_work", "load_example_into_state", "load_upload_into_state", "load_path_into_state",
    "import_model", "open_model_alone", "HELD", "data_root", "path_sources", "big_data_note", "path_rows", "parse_upload",
    "frame", "specs", "settings", "model_key", "data_key", "current_model", "require_model", "class_list", "download_bytes",
    "data_stem",
    "sha256", "is_missing", "as_float",
]

DEFAULT_EXAMPLE = "tennis14"
READERS = {"table": "Table (CSV, TSV, Excel)", "corpus": "Text corpus (label + text)"}


class Imported(NamedTuple):
    """A model loaded from a JSON file; ``sha256`` of the file keys the caches of its results."""

    name: str
    model: Any
    sha256: str


# --------------------------------------------------------------------------- the work


def work() -> Work:
    """The work in use."""
    return st.session_state["work"]


def set_work(new: Work) -> None:
    """Make ``new`` the work. A change of what the model depends on (:meth:`Work.model_key`) leaves
    an imported model behind: the pages go back to fitting."""
    ss = st.session_state
    old = ss.get("work")
    ss["work"] = new
    if old is not None and old.model_key() != new.model_key():
        ss["imported"] = None


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
    imported = st.session_state.get("imported")
    return (*work().model_key(), imported.sha256 if imported is not None else None)


def data_key() -> tuple:
    """What the rows the pages show and the model's statistics come from (the work's stats key,
    plus the imported file's sha256): keys a computation on the data alone, which a change of
    smoothing or priors leaves as it is (the histograms under the fitted curves)."""
    imported = st.session_state.get("imported")
    return (*work().stats_key(), imported.sha256 if imported is not None else None)


# --------------------------------------------------------------------------- caching


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# Bounds of the shared caches of parsed files and fitted models (issue 21): every session of
# the process shares them, so each is bounded in entries and in pickled bytes, and an entry
# unused for an hour goes at the cache's next write. What 20 sessions leave behind is then at
# most these bytes, not their uploads. ``server.maxCacheDataSize`` (.streamlit/config.toml)
# bounds all st.cache_data together.
CACHE_TTL = "1h"
PARSE_CACHE_SIZE = "32MB"
MODEL_CACHE_SIZE = "64MB"


@st.cache_data(show_spinner=False, max_entries=16)
def _example_frame(key: str) -> pd.DataFrame:
    return load_example(key)


@st.cache_data(show_spinner=False, max_entries=16)
def _example_sha(key: str) -> str:
    return sha256(example(key).path.read_bytes())


@st.cache_data(show_spinner="Reading the file…", max_entries=8, max_size=PARSE_CACHE_SIZE, ttl=CACHE_TTL)
def _parse(digest: str, name: str, reader: str, sheet: str | None, _data: bytes) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Parse uploaded bytes; keyed by their sha256 and the sheet (``_data`` is not hashed)."""
    return _read(name, reader, _data, sheet)


def _read(name: str, reader: str, data: bytes, sheet: str | None = None) -> tuple[pd.DataFrame, tuple[str, ...]]:
    from nbapp.io import load_corpus, load_table

    table = load_corpus(data, name) if reader == "corpus" else load_table(data, name, sheet=sheet)
    return table.frame, tuple(table.notes)


# Larger uploads are read without the shared cache: storing one there pickles the whole frame
# (about twice the file's size: 0.7 s and 160 MB for a million rows) and keeps it after the
# session has ended, to spare a re-read (0.3 s for 11 MB) that only the same file uploaded again
# would need; the session keeps its frame anyway. Under PARSE_CACHE_SIZE, several files fit.
CACHE_MAX_BYTES = 4 << 20


def parse_upload(data: bytes, name: str, reader: str, digest: str | None = None,
                 sheet: str | None = None) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The uploaded file (the chosen sheet of a workbook) as a DataFrame and the loader's notes
    (cached by content when small)."""
    if len(data) > CACHE_MAX_BYTES:
        return _read(name, reader, data, sheet)
    return _parse(digest or sha256(data), name, reader, sheet, _data=data)


@st.cache_data(show_spinner="Counting the data…", max_entries=16, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _statistics(digest: str, reader: str, target: str, feature_items: tuple, weight: str | None,
                _frame: pd.DataFrame) -> Any:
    """The statistics a fit of these specs counts from the rows (one pass over the data); keyed
    by the work's stats key (the data's sha256 first). A change of smoothing, priors or the
    Gaussian epsilon reuses them (:func:`_fit`): a click on l does not read the data again."""
    from nbapp.propose import check_target

    data, _notes = check_target(_frame, target)
    return nbapp.NaiveBayes(dict(feature_items)).summarize(data, target, weight)


@st.cache_data(show_spinner="Fitting the model…", max_entries=32, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _fit(digest: str, reader: str, target: str, feature_items: tuple, weight: str | None,
         config: Any, _frame: pd.DataFrame) -> Any:
    """Fit a NaiveBayes from the data's statistics under the settings ``config``; keyed by the
    work's model key (the data's sha256 first)."""
    model = nbapp.NaiveBayes.from_settings(dict(feature_items), config)     # refuses bad settings first
    return model.fit_stats(_statistics(digest, reader, target, feature_items, weight, _frame=_frame),
                           target, weight)


# --------------------------------------------------------------------------- set-up


def ensure_state() -> None:
    """Put the default state in place on a session's first run: tennis14, loaded and fitted, or
    the work the page's address names (a reload, a link); then write the work into the address."""
    if "work" not in st.session_state:
        load_example_into_state(DEFAULT_EXAMPLE)
        restore_work()
    st.session_state.setdefault("imported", None)
    remember_work()


def _new_data(new: Work, df: pd.DataFrame, *, notes: tuple[str, ...] = (), reasons: dict[Any, str],
              data_bytes: bytes | None = None) -> None:
    """Make ``new`` (a work of new data, ``df``) the work; the page choices of the old work stay."""
    ss = st.session_state
    old = ss.get("work")
    if old is not None:
        new = new.replace(choices=old.choices)
    ss["frame"] = df
    ss["load_notes"] = notes
    ss["data_bytes"] = data_bytes
    ss["type_reasons"] = reasons
    ss["imported"] = None
    ss["upload_error"] = None
    ss["option_errors"] = {}         # no refused column option and no typed sample document carry over
    ss["text_docs"] = {}
    set_work(new)


def load_example_into_state(key: str) -> None:
    """Make built-in example ``key`` the current dataset, with its types, l and test example."""
    ex = example(key)
    df = _example_frame(key)
    given = ex.feature_specs()
    columns = [c for c in df.columns if c != ex.target]
    new = Work(source=Source(name=ex.file, sha256=_example_sha(key), reader="example", example=key),
               target=ex.target, weight=ex.weight, features={c: given.get(c, IGNORE) for c in columns},
               settings=nbapp.Settings(alpha=float(ex.alpha)), query=dict(ex.query),
               missing={c for c in ex.features if c not in ex.query})
    reasons = {c: ("set by the example" if c in ex.features else
                   "frequency weight" if c == ex.weight else "not used by the example") for c in columns}
    _new_data(new, df, reasons=reasons)


def load_upload_into_state(data: bytes, name: str, reader: str, sheet: str | None = None) -> None:
    """Parse an upload (a workbook's ``sheet``) and make it the current dataset; raises DataError
    on bad input."""
    from nbapp.propose import propose_target

    digest = sha256(data)
    df, notes = parse_upload(data, name, reader, digest, sheet)
    if df.shape[1] < 2:
        raise DataError(f"{name!r} has {df.shape[1]} column; a model needs a target and at least one feature.")
    if sheet is not None:            # two sheets of one file are two datasets (fit cache keys)
        digest = sha256(data + b"\0sheet\0" + sheet.encode("utf-8"))
    st.session_state["data_upload"] = (data, name, reader)
    target = propose_target(proposal_rows(df))
    new, reasons = _proposed(Source(name=name, sha256=digest, reader=reader, sheet=sheet), df,
                             target if target is not None else df.columns[-1])
    _new_data(new, df, notes=notes, data_bytes=data, reasons=reasons)


# -------------------------------------------------------------------- big tables (issue 11)
# Types and the target are proposed from this many rows of a larger table (a seeded random
# sample): the proposal's statistics (distinct values, words per cell) are settled long before,
# and on a million rows they would cost seconds of the upload.
PROPOSAL_ROWS = 100_000
# Rows of a local path read to propose types and to show on the pages; the model sees every row.
PATH_SAMPLE_ROWS = 20_000
# The environment variable naming the folder "Open a local path" may read (unset: the mode is off).
DATA_ROOT_VARIABLE = "NBAPP_DATA_ROOT"


def proposal_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows the types are proposed from: all, or a seeded sample of PROPOSAL_ROWS."""
    if len(df) <= PROPOSAL_ROWS:
        return df
    return df.iloc[np.sort(np.random.default_rng(0).choice(len(df), PROPOSAL_ROWS, replace=False))]


def load_path_into_state(path: str) -> None:
    """Open a CSV / Parquet file, folder or glob under the server's data folder (data_root): a
    sample of its first rows becomes the frame the pages show and propose types from; the model
    is fitted on every row of the files resolved here, out of core (:func:`nbapp.fit_file`).
    Raises DataError for a path that cannot be read."""
    from nbapp.propose import propose_target
    from nbapp.scale import sample_rows

    path = str(path).strip()
    sources = path_sources(path)
    files = sources.files
    df = sample_rows(sources, PATH_SAMPLE_ROWS)
    if df.shape[1] < 2:
        raise DataError(f"{path!r} has {df.shape[1]} column; a model needs a target and at least one feature.")
    signature = "\n".join(f"{f}|{os.path.getsize(f)}|{os.path.getmtime(f)}" for f in files)
    notes = (f"A sample: the first {len(df):,} rows of {os.path.basename(files[0])!r} ({len(files)} file(s) "
             "in all). The model is fitted on every row of every file, out of core.",)
    target = propose_target(df)
    target = target if target is not None else df.columns[-1]
    new, reasons = _proposed(Source(name=path, sha256=sha256(signature.encode()), reader="path", path=path,
                                    files=files), df, target)
    _new_data(new, df, notes=notes, reasons=reasons)


def data_root() -> str | None:
    """The folder visitors may open files under: the environment variable NBAPP_DATA_ROOT, set
    by the person running the server (its real path). None (the default) turns "Open a local
    path" off: a visitor then reaches only their own uploads and the built-in examples."""
    root = os.environ.get(DATA_ROOT_VARIABLE, "").strip()
    return os.path.realpath(root) if root and os.path.isdir(root) else None


def path_sources(path: str | tuple[str, ...]) -> Any:
    """The files a typed path (or the files it resolved to before) names under the data root,
    checked now (nbapp.scale's resolve_sources: table files only, real paths under the root, one
    sentence for anything outside, at most nbapp.scale.MAX_FILES); the reading functions open
    them again from the root when they read them, and stop once this session is closed."""
    from nbapp.scale import resolve_sources
    from ui.session_end import session_stop

    root = data_root()
    if root is None:
        raise DataError(f"Opening files on the server is off; the person running it can turn it on by setting "
                        f"{DATA_ROOT_VARIABLE} to a folder.")
    if isinstance(path, str) and not path.strip():
        raise DataError("Type the path of a CSV or Parquet file, a folder of them, or a glob such as data/*.csv.")
    return resolve_sources(path.strip() if isinstance(path, str) else list(path), root=root, stop=session_stop())


def path_rows() -> int | None:
    """Rows the model of a local path was fitted on (None before the fit or for other sources)."""
    store = st.session_state.get("path_models", {})
    return store["rows"] if store.get("stats_key") == work().stats_key() else None


def big_data_note() -> None:
    """On Model, Explain and Evaluate: for a local path, what the model saw and what the page shows."""
    from ui.text import md

    source = work().source
    if source.reader != "path":
        return
    rows = path_rows()
    seen = f"all {rows:,} rows" if rows is not None else "every row"
    st.info(f"The model was fitted on {seen} of '{md(source.path)}', out of core. Tables of the model are exact; "
            f"rows and plots of data on this page come from a sample of {len(frame()):,} rows.")


def _fit_path(model: Any, current: Work) -> tuple[Any, int]:
    """fit_file with a progress bar: DuckDB computes the statistics where the file is (its share
    done shown as rows; the last report is the rows read); the model and the rows it saw."""
    from nbapp.scale import Stopped, fit_file

    bar = st.progress(0.0, text=f"Fitting on every row of {current.source.path} (DuckDB computes the statistics)…")
    seen = [0]

    def progress(done: int, total: int) -> None:
        seen[0] = total
        bar.progress(min(done / max(total, 1), 1.0), text=f"Fitting: {done:,} of {total:,} rows")

    try:
        fit_file(model, path_sources(current.source.files), current.target, current.weight, progress=progress)
    except Stopped:
        st.stop()           # the session was closed: nobody waits for the model
    finally:
        bar.empty()
    return model, seen[0]


# --------------------------------------------------------------------------- target, weight, row


def _proposal(df: pd.DataFrame, target: Any) -> tuple[dict[Any, str], dict[Any, str]]:
    """The proposed type of every other column, and why."""
    from nbapp.propose import propose_feature_types

    proposal = propose_feature_types(proposal_rows(df), target)
    types, reasons = dict(zip(proposal["column"], proposal["type"])), dict(zip(proposal["column"], proposal["reason"]))
    columns = [c for c in df.columns if c != target]
    return {c: types.get(c, IGNORE) for c in columns}, {c: reasons.get(c, "") for c in columns}


def _proposed(source: Source, df: pd.DataFrame, target: Any, *, base: Work | None = None
              ) -> tuple[Work, dict[Any, str]]:
    """A work of ``df`` predicting ``target`` (the other columns' types proposed, the first row as
    the test example) and the reasons of the types. ``base``'s weight, settings and choices are
    kept; custom priors name the old classes, so they go back to the empirical prior."""
    from nbapp.propose import propose_weight

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
               choices=base.choices if base is not None else {}, **_first_row(df, target))
    return new, reasons


def set_target(target: Any) -> None:
    """Choose the target column; the feature types are proposed again for the other columns."""
    new, reasons = _proposed(work().source, frame(), target, base=work())
    set_work(new)
    st.session_state["type_reasons"] = reasons
    st.session_state["imported"] = None


def set_weight(weight: Any) -> None:
    """The frequency-weight column (None: every row counts once); it is no feature."""
    current = work()
    features = current.features if weight is None else current.features.set(weight, IGNORE)
    set_work(current.replace(weight=weight, features=features))


def _first_row(df: pd.DataFrame, target: Any) -> dict[str, Any]:
    if len(df) == 0:
        return {"query": {}, "missing": frozenset()}
    return _row_query(df.iloc[0], target)


def _row_query(row: pd.Series, target: Any) -> dict[str, Any]:
    columns = [c for c in row.index if c != target]
    return {"query": {c: _scalar(row[c]) for c in columns if not is_missing(row[c])},
            "missing": frozenset(c for c in columns if is_missing(row[c]))}


def _scalar(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def reset_query() -> None:
    """The test example becomes the data's first row (missing values stay missing)."""
    update_work(**_first_row(frame(), work().target))


def set_query_from_row(row: pd.Series) -> None:
    """A row of the data becomes the test example: its values, and its missing cells marked missing."""
    update_work(**_row_query(row, work().target))


def set_query(column: Any, value: Any = None, *, missing: bool | None = None) -> None:
    """One value of the test example (and whether it is marked missing)."""
    current = work()
    query = current.query if value is None else current.query.set(column, _scalar(value))
    gone = current.missing if missing is None else (current.missing | {column} if missing
                                                    else current.missing - {column})
    set_work(current.replace(query=query, missing=gone))


def is_missing(v: Any) -> bool:
    return v is None or (pd.api.types.is_scalar(v) and bool(pd.isna(v)))     # a list cell is a value


def as_float(v: Any, default: float = 0.0) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return default
    return x if np.isfinite(x) else default


# --------------------------------------------------------------------------- the model


def data_stem() -> str:
    """The data's name for a download's file name: the file's stem ("tennis14" for tennis14.csv;
    a model file opened alone: its own stem, less a "_naive_bayes" suffix), "data" when the name
    has none (a glob)."""
    from pathlib import PurePath

    from ui.text import file_stem

    stem = PurePath(work().source.name).stem.replace("*", "").replace("?", "").removesuffix("_naive_bayes")
    return file_stem(stem) if stem.strip("._- ") else "data"


def download_bytes(name: str, key: Any, build: Callable[[], bytes]) -> bytes:
    """A download's file, built once per ``key`` and kept in session state.

    Eager bytes, not a deferred (callable) download: under load a rerun in between the click
    and the browser's fetch cancels a deferred download (seen in bench/load_test.py), while
    building the bytes on every rerun would cost up to a second on big tables.
    """
    store = st.session_state.setdefault("download_cache", {})
    hit = store.get(name)
    if hit is None or hit[0] != key:
        store[name] = (key, build())
    return store[name][1]


def current_model() -> Any:
    """The fitted model (an imported JSON model wins); raises DataError when it cannot be fitted."""
    ss = st.session_state
    if ss.get("imported") is not None:
        return ss["imported"].model
    current = work()
    if current.source.reader == "model":
        ss["model"] = _refit_stats(current.model_key(), _model=ss["model_file"].model)
        return ss["model"]
    try:
        if not current.specs:
            raise DataError("Every column is ignored: on the Data page, give at least one column a feature type.")
        if current.source.reader == "path":
            model = _path_model(current)
        else:
            model = _fit(*current.model_key(), _frame=ss["frame"])
    except DataError:
        ss.pop("model", None)  # never leave the model of earlier settings behind
        raise
    ss["model"] = model
    return model


def _path_model(current: Work) -> Any:
    """The out-of-core model of a local path: its statistics counted once per stats key (kept in
    the session), the model under the work's settings built from them (a click on l or the
    priors does not read the file again; a click that changes nothing refits nothing)."""
    store = st.session_state.setdefault("path_models", {})
    if store.get("stats_key") != current.stats_key():
        model = current.make_model()
        store.clear()                                  # one big model per session at a time
        model, rows = _fit_path(model, current)
        store.update(stats_key=current.stats_key(), rows=rows, model_key=current.model_key(), model=model)
    elif store["model_key"] != current.model_key():
        base = store["model"]
        store.update(model_key=current.model_key(),
                     model=current.make_model().fit_stats(base.stats_, base.target_, base.weight_))
    return store["model"]


@st.cache_data(show_spinner=False, max_entries=16, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _refit_stats(key: tuple, _model: Any) -> Any:
    """The statistics of a model opened alone (``_model``) under the work's specs and settings in
    ``key`` (:meth:`Work.model_key`: the file's sha256 first)."""
    _sha, _reader, _target, feature_items, _weight, config = key
    return nbapp.NaiveBayes.from_settings(dict(feature_items), config).fit_stats(_model.stats_, _model.target_,
                                                                             _model.weight_)


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
    if current.source.reader == "model":
        return list(st.session_state["model_file"].model.classes_)
    return classes_of(frame()[current.target])


# --------------------------------------------------------------------------- model files


def import_model(name: str, data: bytes) -> Imported:
    """Load a model file (JSON) and make it the model in use, its specs and settings the work's.

    Raises DataError, leaving the current model in use, for a pickle or a file nbapp cannot
    read. A model whose target or feature columns the current data lacks is opened alone
    (:func:`open_model_alone`); a model of another target column of the same data makes that
    column the target.
    """
    model = _read_model(name, data)
    if model.missing_columns(frame()):
        return open_model_alone(name, data, model=model)
    if model.target_ != work().target:
        set_target(model.target_)
    current = work()
    used = dict(model.features_)
    features = {c: used.get(c, IGNORE) for c in current.features}
    weight = model.weight_ if model.weight_ in current.features else None
    set_work(current.replace(features=features, weight=weight, settings=model.settings))
    ss = st.session_state
    ss["type_reasons"] = {c: "set by the imported model" if c in used else "not used by the imported model"
                          for c in features}
    ss["model_bytes"] = data
    imported = Imported(name=name, model=model, sha256=sha256(data))
    ss["imported"] = imported
    return imported


def open_model_alone(name: str, data: bytes, *, model: Any = None) -> Imported:
    """A model file without data: Model and Explain work from the file's statistics, Evaluate
    predicts a new file. The data in use is set aside (an empty frame of the model's columns)."""
    model = model if model is not None else _read_model(name, data)
    ss = st.session_state
    imported = Imported(name=name, model=model, sha256=sha256(data))
    if work().source.reader == "example":
        ss["last_example"] = work().source.example  # "Back to the built-in example" returns here
    columns = [*model.features_, model.target_]
    new = Work(source=Source(name=name, sha256=imported.sha256, reader="model"), target=model.target_,
               features=dict(model.features_), settings=model.settings)
    _new_data(new, pd.DataFrame({c: pd.Series(dtype=object) for c in columns}),
              reasons={c: "set by the model file" for c in model.features_})
    ss["model_bytes"] = data
    ss["model_file"] = imported
    ss["imported"] = imported
    return imported


def _read_model(name: str, data: bytes) -> Any:
    try:
        return model_from_json(data, name=name)      # the library's pickle refusal, size cap and schema
    except DataError as err:
        raise DataError(f"{name!r} is not a model file this app can read: {err}") from err


# --------------------------------------------------------------------------- the address


def remember_work() -> None:
    """Write the current work into the page's address (only when it changed); say in
    ``work_not_kept`` why a reload would lose it."""
    ss = st.session_state
    params, problem = remember.address_of(work(), data_bytes=ss.get("data_bytes"),
                                          model_bytes=ss.get("model_bytes"), imported=ss.get("imported"))
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
        if query.get("data"):
            data, name = remember.kept_file(query["data"], query.get("name"), what="file")
            reader = query.get("reader") if query.get("reader") in READERS else "table"
            sheet = query.get("sheet") if reader == "table" else None
            load_upload_into_state(data, name, reader, *([sheet] if sheet else []))
            ss["data_mode"] = "Upload a file"
            ss["upload_reader"] = reader
        elif query.get("model") and not query.get("example"):
            data, name = remember.kept_file(query["model"], query.get("name"), what="model file")
            open_model_alone(name, data)
            notes += _apply_work(query)
            return
        elif query.get("example"):
            if query["example"] not in {ex.key for ex in EXAMPLES}:
                raise DataError(f"there is no built-in example {query['example']!r}")
            load_example_into_state(query["example"])
        target = query.get("target")
        if target is not None and target != work().target:
            columns = {str(c): c for c in frame().columns}
            if target not in columns:
                raise DataError(f"the data has no column {target!r} to predict")
            set_target(columns[target])
        notes += _apply_work(query)
        if query.get("model"):
            data, name = remember.kept_file(query["model"], query.get("model_name"), what="imported model file")
            import_model(name, data)
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
