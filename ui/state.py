"""Session state of the workbench: the dataset, its column types, the settings, the model.

Everything a user chooses lives under plain ``st.session_state`` keys that no widget owns
(widget keys are deleted when the user leaves their page; see
shared/notes/streamlit-1.67.md, section 1.2). Every page calls :func:`ensure_state` first, so
it also works when Streamlit runs it without ``app.py`` (cold deep links, AppTest).

Keys:
    source        Source (name, sha256, reader, example key)
    data_bytes    the uploaded bytes (None for a built-in example)
    frame         the parsed DataFrame
    load_notes    sentences from the loader (delimiter, encoding, dropped rows)
    target        the target column
    types         column -> feature type ("categorical", ..., "ignore"), every non-target column
    type_reasons  column -> why that type was proposed
    weight        the frequency-weight column or None
    settings      Settings (smoothing, priors, Gaussian variance, text settings per text column)
    text_errors   text column -> (refused changes, the DataError's sentence) of a refused text setting
    text_docs     text column -> the sample document typed on the Text page (text_doc_mode, text_row: its source)
    query         column -> value of the test example on the Explain page
    query_missing set of columns marked missing in the test example
    model         the model last fitted from the settings above; deleted when a fit fails, so no
                  page ever reads a model of earlier settings (an imported model is not stored here)
    imported      Imported (file name, NaiveBayes, sha256 of the file) of a model loaded from JSON, or None
    data_upload   the last upload (bytes, file name, reader), kept while a built-in example is in use
    pending_upload an upload received by the uploader's callback, read (with a progress bar) by the Data page
    path_models   fit_key -> (model, rows) of the local path fitted out of core (frame is then its sample)
    model_bytes   the bytes of the imported (or opened-alone) model file, so a reload can find it again
    model_file    Imported of a model file opened alone (source.reader == "model": no data, an empty
                  frame of the model's columns; the model is its statistics under the settings)
    restore_note  what the page's address named but could not be restored (ui.remember), or None
    work_not_kept why a reload would lose the current work, or None (ui.remember)
    upload_failed_name  the file of the last failed upload (upload_error holds the reason)
    lecture_refs  the "Show lecture references" choice; absent: on for built-in examples (ui.lecture)
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

import nbapp
from nbapp.blocks import FEATURE_TYPES
from nbapp.errors import DataError
from nbapp.ordering import classes_of
from nbapp.persist import model_from_json
from nbapp.examples import EXAMPLES, example, load_example

__all__ = [
    "DEFAULT_EXAMPLE",
    "FEATURE_TYPES",
    "Imported",
    "import_model",
    "open_model_alone",
    "settings_of_model",
    "fit_key",
    "model_key",
    "set_query_from_row",
    "Settings",
    "Source",
    "TextSettings",
    "text_settings",
    "set_text_settings",
    "ensure_state",
    "load_example_into_state",
    "load_upload_into_state",
    "load_path_into_state",
    "big_data_note",
    "path_rows",
    "set_target",
    "set_types",
    "set_settings",
    "features",
    "model_kwargs",
    "COLUMN_OPTIONS",
    "column_options",
    "with_column_options",
    "set_column_options",
    "feature_spec",
    "make_model",
    "current_model",
    "require_model",
    "frame",
    "settings",
    "parse_upload",
]

DEFAULT_EXAMPLE = "tennis14"
READERS = {"table": "Table (CSV, TSV, Excel)", "corpus": "Text corpus (label + text)"}


@dataclass(frozen=True)
class Source:
    """Where the current data came from; ``sha256`` is of the file's bytes (and of the sheet
    read, for a workbook sheet chosen by the user: two sheets are two datasets)."""

    name: str
    sha256: str
    reader: str  # "example", "table", "corpus" or "path" (a local file, folder or glob fitted out of core)
    example: str | None = None
    path: str | None = None  # for reader "path": what the user typed; sha256 is then of the files' names, sizes and times
    sheet: str | None = None  # the workbook sheet chosen on the Data page (None: the first)


@dataclass(frozen=True)
class TextSettings:
    """One text column's preprocessing and model choices (issue 4); hashable, so it keys the
    fitting cache. The defaults are the library's: lowercase, NFC, ``(?u)\\w+``, no stop
    words, unigrams, no pruning, multinomial with a global vocabulary (scikit-learn's)."""

    lowercase: bool = True
    unicode_nfc: bool = True
    token_pattern: str = r"(?u)\w+"
    stop_words: tuple[str, ...] | None = None  # None = off; else the sorted list in use
    stem: bool = False
    ngram_max: int = 1  # 1 = words, 2 = words and bigrams (seed 004's SpamCop note)
    min_df: int = 1
    max_features: int | None = None  # None = no limit
    event_model: str = "multinomial"  # "multinomial" [seed 000, Eq. 9-11] or "bernoulli" [seed 002]
    vocabulary: str = "global"  # "global" (unseen ignored) or "per_class_unk" [seed 004]
    complement: bool = False  # Complement NB (Rennie et al. 2003)

    def options(self) -> Any:
        """The nbapp TextOptions; raises DataError for a bad token pattern."""
        from nbapp.text import TextOptions

        return TextOptions(lowercase=self.lowercase, token_pattern=self.token_pattern,
                           stop_words=None if self.stop_words is None else frozenset(self.stop_words),
                           stem=self.stem, ngram_range=(1, int(self.ngram_max)), min_df=int(self.min_df),
                           max_features=self.max_features, unicode_form="NFC" if self.unicode_nfc else None)

    def spec(self) -> Any:
        """The nbapp.Text feature spec; raises DataError for settings nbapp refuses."""
        return nbapp.Text(options=self.options(), event_model=self.event_model, vocabulary=self.vocabulary,
                          complement=self.complement)


@dataclass(frozen=True)
class Settings:
    """The model settings of the Model page; hashable, so it keys the fitting cache."""

    smoothing: str = "lidstone"  # "lidstone", "m", "beta"
    alpha: float = 1.0  # Lidstone l (0 = MLE)
    m: float = 1.0
    p: float | None = None  # m-estimate prior; None = 1/K
    m_normalised: bool = False  # m-estimate denominator n + K m p instead of seed 003's n + m
    beta_a: float = 1.0
    beta_b: float = 1.0
    priors: str = "empirical"  # "empirical", "uniform", "custom"
    custom_priors: tuple[tuple[Any, float], ...] = ()
    prior_alpha: float = 0.0  # Dirichlet pseudo-count on the class prior
    variance: str = "mle"  # "mle" or "unbiased"
    var_smoothing: float = 1e-9
    var_smoothing_mode: str = "global"  # "global" (scikit-learn) or "per_feature" Gaussian epsilon
    text: tuple[tuple[str, TextSettings], ...] = ()  # text column -> its settings (default if absent)
    positives: tuple[tuple[str, Any], ...] = ()  # Bernoulli column -> the value that counts as 1
    # (column, type, ((option, value), ...)): a KDE, discretized or categorical column's options
    # (COLUMN_OPTIONS); kept per type, so a column switched to another type and back keeps them
    column_options: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = ()


# The per-column options the Model page offers, by feature type: the spec's constructor and the
# fields the app sets (any other field keeps the library's default).
COLUMN_OPTIONS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "kde": (nbapp.KDE, ("bandwidth",)),
    "discretized": (nbapp.Discretized, ("bins", "strategy")),
    "categorical": (nbapp.Categorical, ("categories", "unseen")),
}


class Imported(NamedTuple):
    """A model loaded from a JSON file; ``sha256`` of the file keys the caches of its results."""

    name: str
    model: Any
    sha256: str


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


@st.cache_data(show_spinner="Fitting the model…", max_entries=32, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _fit(digest: str, reader: str, target: str, feature_items: tuple, weight: str | None,
         config: Settings, _frame: pd.DataFrame) -> Any:
    """Fit a NaiveBayes; keyed by the data's sha256 and the hashable configuration."""
    from nbapp.propose import check_target

    data, _notes = check_target(_frame, target)
    model = make_model(dict(feature_items), config, _classes(data, target))
    model.fit(data, target=target, weight=weight)
    return model


def _classes(df: pd.DataFrame, target: str) -> list[Any]:
    return classes_of(df[target])


# --------------------------------------------------------------------------- set-up


def ensure_state() -> None:
    """Put the default state in place on a session's first run: tennis14, loaded and fitted."""
    if "source" not in st.session_state:
        from ui.remember import restore_work

        load_example_into_state(DEFAULT_EXAMPLE)
        restore_work()  # a reload, or a link: the work the page's address names
    st.session_state.setdefault("imported", None)


def load_example_into_state(key: str) -> None:
    """Make built-in example ``key`` the current dataset, with its types, l and test example."""
    ex = example(key)
    df = _example_frame(key)
    ss = st.session_state
    ss["source"] = Source(name=ex.file, sha256=_example_sha(key), reader="example", example=key)
    ss["data_bytes"] = None
    ss["frame"] = df
    ss["load_notes"] = ()
    ss["target"] = ex.target
    ss["weight"] = ex.weight
    ss["types"] = {c: ex.features.get(c, "ignore") for c in df.columns if c != ex.target}
    ss["type_reasons"] = {c: ("set by the example" if c in ex.features else
                              "frequency weight" if c == ex.weight else "not used by the example")
                          for c in ss["types"]}
    ss["settings"] = Settings(alpha=float(ex.alpha), positives=tuple(ex.positives.items()))
    ss["query"] = dict(ex.query)
    ss["query_missing"] = {c for c in ex.features if c not in ex.query}
    ss["imported"] = None
    ss["upload_error"] = None
    _reset_text_state()


def load_upload_into_state(data: bytes, name: str, reader: str, sheet: str | None = None) -> None:
    """Parse an upload (a workbook's ``sheet``) and make it the current dataset; raises DataError
    on bad input."""
    from nbapp.propose import propose_target

    digest = sha256(data)
    df, notes = parse_upload(data, name, reader, digest, sheet)
    if df.shape[1] < 2:
        raise DataError(f"{name!r} has {df.shape[1]} column; a model needs a target and at least one feature.")
    ss = st.session_state
    if sheet is not None:            # two sheets of one file are two datasets (fit cache keys)
        digest = sha256(data + b"\0sheet\0" + sheet.encode("utf-8"))
    ss["source"] = Source(name=name, sha256=digest, reader=reader, sheet=sheet)
    ss["data_bytes"] = data
    ss["data_upload"] = (data, name, reader)
    ss["frame"] = df
    ss["load_notes"] = notes
    ss["weight"] = None
    ss["settings"] = Settings()
    ss["imported"] = None
    _reset_text_state()
    target = propose_target(proposal_rows(df))
    set_target(target if target is not None else df.columns[-1])


# -------------------------------------------------------------------- big tables (issue 11)
# Types and the target are proposed from this many rows of a larger table (a seeded random
# sample): the proposal's statistics (distinct values, words per cell) are settled long before,
# and on a million rows they would cost seconds of the upload.
PROPOSAL_ROWS = 100_000
# Rows of a local path read to propose types and to show on the pages; the model sees every row.
PATH_SAMPLE_ROWS = 20_000


def proposal_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows the types are proposed from: all, or a seeded sample of PROPOSAL_ROWS."""
    if len(df) <= PROPOSAL_ROWS:
        return df
    return df.iloc[np.sort(np.random.default_rng(0).choice(len(df), PROPOSAL_ROWS, replace=False))]


def load_path_into_state(path: str) -> None:
    """Open a local CSV / Parquet file, folder or glob: a sample of its first rows becomes the
    frame the pages show and propose types from; the model is fitted on every row, out of core
    (:func:`nbapp.fit_file`). Raises DataError for a path that cannot be read."""
    from nbapp.propose import propose_target
    from nbapp.scale.files import sample_rows

    files = _path_files(path)
    df = sample_rows(path, PATH_SAMPLE_ROWS)
    if df.shape[1] < 2:
        raise DataError(f"{path!r} has {df.shape[1]} column; a model needs a target and at least one feature.")
    signature = "\n".join(f"{f}|{os.path.getsize(f)}|{os.path.getmtime(f)}" for f in files)
    ss = st.session_state
    ss["source"] = Source(name=path, sha256=sha256(signature.encode()), reader="path", path=path)
    ss["data_bytes"] = None
    ss["frame"] = df
    ss["load_notes"] = (f"A sample: the first {len(df):,} rows of {os.path.basename(files[0])!r} ({len(files)} file(s) "
                        "in all). The model is fitted on every row of every file, out of core.",)
    ss["weight"] = None
    ss["settings"] = Settings()
    ss["imported"] = None
    _reset_text_state()
    target = propose_target(df)
    set_target(target if target is not None else df.columns[-1])


def _path_files(path: str) -> list[str]:
    """The files of a path; only CSV / TSV / Parquet files by name, and (when the environment
    variable NBAPP_DATA_ROOT is set, as on a shared server) only under that folder."""
    from nbapp.scale.files import CSV_SUFFIXES, PARQUET_SUFFIXES, _sources

    path = os.path.expanduser(str(path).strip())
    if not path:
        raise DataError("Type the path of a CSV or Parquet file, a folder of them, or a glob such as data/*.csv.")
    if os.path.isfile(path) and not path.lower().endswith(CSV_SUFFIXES + PARQUET_SUFFIXES):
        raise DataError(f"{path!r} is not named like a CSV, TSV or Parquet file (.csv, .tsv, .txt, .parquet).")
    files = list(_sources(path).files)
    root = os.environ.get("NBAPP_DATA_ROOT")
    if root:
        root = os.path.realpath(root)
        outside = [f for f in files if os.path.commonpath([root, os.path.realpath(f)]) != root]
        if outside:
            raise DataError(f"{outside[0]!r} is outside the data folder of this server ({root}); open files under it.")
    return files


def path_rows() -> int | None:
    """Rows the model of a local path was fitted on (None before the fit or for other sources)."""
    fitted = st.session_state.get("path_models", {}).get(fit_key())
    return None if fitted is None else fitted[1]


def big_data_note() -> None:
    """On Model, Explain and Evaluate: for a local path, what the model saw and what the page shows."""
    source: Source = st.session_state["source"]
    if source.reader != "path":
        return
    rows = path_rows()
    seen = f"all {rows:,} rows" if rows is not None else "every row"
    st.info(f"The model was fitted on {seen} of {source.path!r}, out of core. Tables of the model are exact; "
            f"rows and plots of data on this page come from a sample of {len(frame()):,} rows.")


def _fit_path(model: Any, source: Source) -> tuple[Any, int]:
    """fit_file with a progress bar; the model and the rows it saw."""
    from nbapp.scale import fit_file

    ss = st.session_state
    bar = st.progress(0.0, text=f"Fitting on every row of {source.path}…")
    seen = [0]

    def progress(done: int, total: int) -> None:
        seen[0] = total
        bar.progress(min(done / max(total, 1), 1.0), text=f"Fitting: {done:,} of {total:,} rows")

    try:
        fit_file(model, source.path, ss["target"], ss.get("weight"), progress=progress)
    finally:
        bar.empty()
    return model, seen[0]


def _reset_text_state() -> None:
    """New data: no refused text setting and no typed sample document carry over."""
    st.session_state["text_errors"] = {}
    st.session_state["text_docs"] = {}


def set_target(target: str) -> None:
    """Choose the target column; the feature types are proposed again for the other columns."""
    from nbapp.propose import propose_feature_types

    ss = st.session_state
    df = ss["frame"]
    ss["target"] = target
    if ss.get("weight") == target:
        ss["weight"] = None
    proposal = propose_feature_types(proposal_rows(df), target)
    types = dict(zip(proposal["column"], proposal["type"]))
    reasons = dict(zip(proposal["column"], proposal["reason"]))
    ss["types"] = {c: types.get(c, "ignore") for c in df.columns if c != target}
    ss["type_reasons"] = {c: reasons.get(c, "") for c in ss["types"]}
    if ss.get("weight") in ss["types"]:
        ss["types"][ss["weight"]] = "ignore"
    reset_query()
    ss["imported"] = None


def set_types(types: dict[str, str]) -> None:
    st.session_state["types"] = dict(types)
    st.session_state["imported"] = None


def set_weight(weight: str | None) -> None:
    ss = st.session_state
    ss["weight"] = weight
    if weight is not None:
        ss["types"] = {**ss["types"], weight: "ignore"}
    ss["imported"] = None


def set_settings(**changes: Any) -> None:
    """Change some settings (a new model is fitted, from the cache if seen before)."""
    st.session_state["settings"] = dataclasses.replace(st.session_state["settings"], **changes)
    st.session_state["imported"] = None


def text_settings(column: str, config: Settings | None = None) -> TextSettings:
    """The settings of one text column (the library's defaults until the user changes one)."""
    config = config if config is not None else settings()
    return dict(config.text).get(column, TextSettings())


def set_text_settings(column: str, **changes: Any) -> TextSettings:
    """Change one text column's settings; raises DataError (settings unchanged) when nbapp
    refuses them, e.g. a token pattern that is not a regular expression. Complement NB
    needs the multinomial event model and the global vocabulary, so leaving either turns it off."""
    new = dataclasses.replace(text_settings(column), **changes)
    if new.complement and (new.event_model != "multinomial" or new.vocabulary != "global"):
        new = dataclasses.replace(new, complement=False)
    new.spec()  # validate before storing: a refused setting never reaches the fit
    set_settings(text=tuple(sorted({**dict(settings().text), column: new}.items(), key=lambda kv: str(kv[0]))))
    return new


def reset_query() -> None:
    """The test example becomes the data's first row (missing values stay missing)."""
    df = st.session_state["frame"]
    if len(df) == 0:
        st.session_state["query"], st.session_state["query_missing"] = {}, set()
        return
    set_query_from_row(df.iloc[0])


def set_query_from_row(row: pd.Series) -> None:
    """A row of the data becomes the test example: its values, and its missing cells marked missing."""
    ss = st.session_state
    columns = [c for c in row.index if c != ss["target"]]
    ss["query"] = {c: row[c] for c in columns if not _isna(row[c])}
    ss["query_missing"] = {c for c in columns if _isna(row[c])}


def _isna(v: Any) -> bool:
    return v is None or (not isinstance(v, str) and bool(pd.isna(v)))


# --------------------------------------------------------------------------- accessors


def frame() -> pd.DataFrame:
    return st.session_state["frame"]


def settings() -> Settings:
    return st.session_state["settings"]


def features() -> dict[str, str]:
    """The feature columns and their types (ignored columns, target and weight left out)."""
    ss = st.session_state
    return {c: t for c, t in ss["types"].items()
            if t != "ignore" and c != ss["target"] and c != ss.get("weight")}


def smoothing(config: Settings) -> Any:
    """The nbapp smoothing object for the settings (None: plain Lidstone l via alpha)."""
    if config.smoothing == "m":
        return nbapp.MEstimate(config.m, p=config.p, normalised=bool(config.m_normalised))
    if config.smoothing == "beta":
        return nbapp.BetaPrior(config.beta_a, config.beta_b)
    return None


def column_options(config: Settings, column: str, kind: str) -> dict[str, Any]:
    """The options set for ``column`` as a ``kind`` feature ({} = the library's defaults)."""
    for c, k, items in config.column_options:
        if c == column and k == kind:
            return dict(items)
    return {}


def with_column_options(config: Settings, column: str, kind: str, **changes: Any) -> Settings:
    """``config`` with ``column``'s options as a ``kind`` feature changed; an option set to its
    library default is dropped, so a default column keeps no entry."""
    spec_type, fields = COLUMN_OPTIONS[kind]
    default = spec_type()
    merged = {**column_options(config, column, kind), **changes}
    items = tuple((f, merged[f]) for f in fields if f in merged and merged[f] != getattr(default, f))
    rest = [(c, k, i) for c, k, i in config.column_options if (c, k) != (column, kind)]
    entries = sorted([*rest, *([(column, kind, items)] if items else [])], key=lambda e: (str(e[0]), e[1]))
    return dataclasses.replace(config, column_options=tuple(entries))


def set_column_options(column: str, kind: str, **changes: Any) -> None:
    """Change one column's options (the Model page's per-column pickers)."""
    set_settings(column_options=with_column_options(settings(), column, kind, **changes).column_options)


def feature_spec(column: str, kind: str, config: Settings) -> Any:
    """The nbapp feature spec of one column under the settings: text options, the Bernoulli
    positive value, KDE / discretized / categorical options; else the type's name (defaults)."""
    if kind == "text":
        text = dict(config.text)
        return text[column].spec() if column in text else kind
    if kind == "bernoulli":
        positives = dict(config.positives)
        return nbapp.Bernoulli(positive=positives[column]) if column in positives else kind
    options = column_options(config, column, kind) if kind in COLUMN_OPTIONS else {}
    return COLUMN_OPTIONS[kind][0](**options) if options else kind


def model_kwargs(feature_types: dict[str, str], config: Settings, classes: list[Any]) -> dict[str, Any]:
    """Keyword arguments of nbapp.NaiveBayes for these features and settings."""
    if config.priors == "custom":
        given = dict(config.custom_priors)
        priors: Any = {c: float(given.get(c, 0.0)) for c in classes}
    else:
        priors = config.priors
    kwargs: dict[str, Any] = {
        "features": {c: feature_spec(c, t, config) for c, t in feature_types.items()},
        "alpha": float(config.alpha),
        "priors": priors,
        "var_smoothing": float(config.var_smoothing),
        "variance": config.variance,
        "var_smoothing_mode": config.var_smoothing_mode,
    }
    smooth = smoothing(config)
    if smooth is not None:
        kwargs["smoothing"] = smooth
    if config.prior_alpha:
        kwargs["prior_alpha"] = float(config.prior_alpha)
    return kwargs


def make_model(feature_types: dict[str, str], config: Settings, classes: list[Any]) -> Any:
    """An unfitted NaiveBayes for these features and settings."""
    return nbapp.NaiveBayes(**model_kwargs(feature_types, config, classes))


def fit_key() -> tuple:
    """What the model of the current settings is fitted from: data, target, features, weight, settings."""
    ss = st.session_state
    source: Source = ss["source"]
    return (source.sha256, source.reader, ss["target"], tuple(features().items()), ss.get("weight"), settings())


def model_key() -> tuple:
    """What the model in use comes from (:func:`fit_key`, plus the imported file's sha256): keys
    every cached computation on the model, so two imported files never share a result."""
    imported = st.session_state.get("imported")
    return (*fit_key(), imported.sha256 if imported is not None else None)


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
    if ss["source"].reader == "model":
        ss["model"] = _model_alone_refitted()
        return ss["model"]
    try:
        if not features():
            raise DataError("Every column is ignored: on the Data page, give at least one column a feature type.")
        if ss["source"].reader == "path":
            model = _path_model()
        else:
            model = _fit(*fit_key(), _frame=ss["frame"])
    except DataError:
        ss.pop("model", None)  # never leave the model of earlier settings behind
        raise
    ss["model"] = model
    return model


def _path_model() -> Any:
    """The out-of-core model of a local path, fitted once per configuration (kept in the session:
    a click that changes nothing refits nothing)."""
    ss = st.session_state
    key = fit_key()
    store = ss.setdefault("path_models", {})
    if key not in store:
        model = make_model(features(), settings(), class_list(ss["frame"], ss["target"]))
        store.clear()                                  # one big model per session at a time
        store[key] = _fit_path(model, ss["source"])
    return store[key][0]


def import_model(name: str, data: bytes) -> Imported:
    """Load a model file (JSON) and make it the model in use, its settings those of every input.

    Raises DataError, leaving the current model in use, for a pickle or a file nbapp cannot
    read. A model whose target or feature columns the current data lacks is opened alone
    (:func:`open_model_alone`); a model of another target column of the same data makes that
    column the target.
    """
    model = _read_model(name, data)
    if model.missing_columns(frame()):
        return open_model_alone(name, data, model=model)
    if model.target_ != st.session_state["target"]:
        set_target(model.target_)
    types, config = settings_of_model(model)
    ss = st.session_state
    ss["types"] = {**{c: "ignore" for c in ss["types"]}, **types}
    ss["type_reasons"] = {c: "set by the imported model" if c in types else "not used by the imported model"
                          for c in ss["types"]}
    ss["weight"] = model.weight_ if model.weight_ in ss["types"] else None
    ss["settings"] = config
    ss["model_bytes"] = data
    imported = Imported(name=name, model=model, sha256=sha256(data))
    ss["imported"] = imported
    return imported


def open_model_alone(name: str, data: bytes, *, model: Any = None) -> Imported:
    """A model file without data: Model and Explain work from the file's statistics, Evaluate
    predicts a new file. The data in use is set aside (an empty frame of the model's columns)."""
    model = model if model is not None else _read_model(name, data)
    types, config = settings_of_model(model)
    ss = st.session_state
    imported = Imported(name=name, model=model, sha256=sha256(data))
    if ss["source"].reader == "example":
        ss["_data_last_example"] = ss["source"].example  # "Back to the built-in example" returns here
    columns = [*types, model.target_]
    ss["source"] = Source(name=name, sha256=imported.sha256, reader="model")
    ss["data_bytes"] = None
    ss["frame"] = pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
    ss["load_notes"] = ()
    ss["target"] = model.target_
    ss["weight"] = None
    ss["types"] = types
    ss["type_reasons"] = {c: "set by the model file" for c in types}
    ss["settings"] = config
    ss["query"], ss["query_missing"] = {}, set()
    ss["model_bytes"] = data
    ss["model_file"] = imported
    ss["imported"] = imported
    ss["upload_error"] = None
    _reset_text_state()
    return imported


def _read_model(name: str, data: bytes) -> Any:
    try:
        return model_from_json(data, name=name)      # the library's pickle refusal, size cap and schema
    except DataError as err:
        raise DataError(f"{name!r} is not a model file this app can read: {err}") from err


def settings_of_model(model: Any) -> tuple[dict[str, str], Settings]:
    """The column types and the Settings that rebuild ``model`` (smoothing, priors, variance, text)."""
    params = model.params()
    smooth = params["smoothing"]
    fields: dict[str, Any] = {"alpha": float(params["alpha"]), "prior_alpha": float(params["prior_alpha"]),
                              "var_smoothing": float(params["var_smoothing"]), "variance": params["variance"],
                              "var_smoothing_mode": params.get("var_smoothing_mode", "global")}
    if isinstance(smooth, nbapp.MEstimate):
        fields.update(smoothing="m", m=float(smooth.m), p=None if smooth.p is None else float(smooth.p),
                      m_normalised=bool(smooth.normalised))
    elif isinstance(smooth, nbapp.BetaPrior):
        fields.update(smoothing="beta", beta_a=float(smooth.a), beta_b=float(smooth.b))
    elif isinstance(smooth, nbapp.Lidstone):
        fields["alpha"] = float(smooth.l)
    priors = params["priors"]
    if isinstance(priors, str):
        fields["priors"] = priors
    else:
        fields.update(priors="custom", custom_priors=tuple((c, float(p)) for c, p in dict(priors).items()))
    specs = params["features"]
    fields["text"] = tuple(sorted(((c, _text_settings_of(s)) for c, s in specs.items() if s.kind == "text"),
                                  key=lambda kv: str(kv[0])))
    fields["positives"] = tuple((c, s.positive) for c, s in specs.items()
                                if s.kind == "bernoulli" and getattr(s, "positive", None) is not None)
    config = Settings(**fields)
    for c, s in specs.items():
        if s.kind in COLUMN_OPTIONS:
            config = with_column_options(config, c, s.kind, **{f: getattr(s, f) for f in COLUMN_OPTIONS[s.kind][1]})
    return {c: s.kind for c, s in specs.items()}, config


def _text_settings_of(spec: Any) -> TextSettings:
    o = spec.options
    if o is None:
        return TextSettings(event_model=spec.event_model, vocabulary=spec.vocabulary, complement=spec.complement)
    return TextSettings(lowercase=o.lowercase, unicode_nfc=o.unicode_form == "NFC", token_pattern=o.token_pattern,
                        stop_words=None if o.stop_words is None else tuple(sorted(o.stop_words)), stem=o.stem,
                        ngram_max=int(o.ngram_range[1]), min_df=int(o.min_df), max_features=o.max_features,
                        event_model=spec.event_model, vocabulary=spec.vocabulary, complement=spec.complement)


def _model_alone_refitted() -> Any:
    """A model opened alone under the current settings: its own statistics, smoothed again."""
    ss = st.session_state
    file: Imported = ss["model_file"]
    return _refit_stats(fit_key(), _model=file.model)


@st.cache_data(show_spinner=False, max_entries=16, max_size=MODEL_CACHE_SIZE, ttl=CACHE_TTL)
def _refit_stats(key: tuple, _model: Any) -> Any:
    """The statistics of ``_model`` under the settings in ``key`` (fit_key: sha256 of the file
    first); text options and the per-column options of COLUMN_OPTIONS come from the settings (which
    the file's own set on opening), a per-column alpha from the file."""
    config: Settings = key[-1]
    kwargs = model_kwargs(dict(key[3]), config, list(_model.classes_))
    own = _model.params()["features"]
    # the file's own spec wins only where the page offers no option for it (a per-column l)
    chosen = {c for c, s in own.items() if s.kind == "text"
              or s.kind in COLUMN_OPTIONS and getattr(s, "alpha", None) is None}
    kwargs["features"] = {c: kwargs["features"][c] if c in chosen else own[c] for c in own}
    return nbapp.NaiveBayes(**kwargs).fit_stats(_model.stats_, _model.target_, _model.weight_)


def require_model() -> Any:
    """The fitted model, or an error message in place and a clean stop of the page."""
    try:
        return current_model()
    except DataError as err:
        from ui.text import md

        st.error(f"The model cannot be fitted: {md(err)}")
        st.stop()


def example_options() -> list[str]:
    return [ex.key for ex in EXAMPLES]


def class_list(df: pd.DataFrame, target: str) -> list[Any]:
    """The target's classes, sorted like the model's ``classes_`` (a model opened alone: its own)."""
    if df.empty and st.session_state.get("source") is not None and st.session_state["source"].reader == "model":
        return list(st.session_state["model_file"].model.classes_)
    return _classes(df, target)


def is_missing(v: Any) -> bool:
    return _isna(v)


def as_float(v: Any, default: float = 0.0) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return default
    return x if np.isfinite(x) else default
