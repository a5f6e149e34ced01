"""Work that survives a reload: the work (``ui.work.Work``) in the page's address
(``st.query_params``), and uploaded files in a bounded store on the server.

The address holds names and numbers only:

    example=<key>                         a built-in example, or
    data=<sha256>&name=<file>&reader=...  an upload, kept in :class:`FileStore` under its sha256
                                          (with &sheet=<name>: that sheet of a workbook), or
    model=<sha256>&name=<file>            a model file opened alone (no data)
    target=<column>                       the target column
    model=<sha256>&model_name=<file>      an imported model next to the data (beside data= or example=)
    work=<base64url(zlib(JSON))>          the rest of the work (:func:`encode_work`): every column's
                                          spec, the weight, the settings, the Explain row, the
                                          pages' choices; specs and settings as the model file
                                          writes them (``nbapp.specs.spec_to_dict``, ``nbapp.Settings.to_dict``)

This module depends on ``ui.work`` and ``ui.link_rules`` only (a source writes its own part of the
address, ``ui.sources``); ``ui.state`` calls it to write and to restore the work.

A link may hold anything (issue 31, item 7): ``work=`` is refused when damaged or nested deeper
than a work nests; each value in it is checked as the widget that shows it would
(``ui.link_rules``), and one that fails falls back to its default with a sentence; text options
the text settings cannot produce wait for the visitor (:func:`hold_text_options`).

Safety: the address never names a path. A file is found only by a 64-hex-digit sha256 among
the bytes this server process was given by an upload in some session; to know the hash one
needs the file or the link, so a link shares the file as the file itself would. The store is
a private folder on disk, bounded (:data:`MAX_STORE_BYTES`, oldest first out); a file that does not fit, or a link whose
file was pushed out (or a server restart), is answered with a sentence, and the sidebar says
when the current work cannot be kept.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import glob
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import weakref
import zlib
from collections import OrderedDict
from pathlib import PurePath
from typing import Any

import numpy as np
import streamlit as st

import nbapp
from nbapp.errors import DataError
from nbapp.priors import class_prior
from nbapp.specs import spec_from_dict, spec_to_dict
from nbapp.text import TextOptions
from ui.link_rules import check_choice, check_explain_value, shown_value, unshowable_text_options, unusual_text_options
from ui.work import IGNORE, Work

__all__ = ["FileStore", "file_store", "MAX_STORE_BYTES", "pack", "unpack", "encode_work", "decode_work",
           "hold_text_options", "held_note", "held_option_names", "address_of", "write_address", "read_address",
           "kept_file", "STORE_DIR"]

#: The bytes of all kept files together (NBAPP_FILE_STORE_MB to change); a 300 MB upload (the
#: uploader's limit) fits once. The files are on disk, so the store costs the server no memory.
MAX_STORE_BYTES = int(float(os.environ.get("NBAPP_FILE_STORE_MB", "512")) * 1024 * 1024)
#: The folder of the kept files (NBAPP_FILE_STORE_DIR): a private temporary folder by default.
STORE_DIR = os.environ.get("NBAPP_FILE_STORE_DIR") or None
#: A ``work=`` value longer than this is not read (a URL of a few hundred columns stays far below).
MAX_WORK_CHARS = 200_000
#: Decompressed size cap of ``work=``, so a small value cannot expand into a huge one.
MAX_WORK_BYTES = 2_000_000
#: How deep lists and objects may nest in ``work=``: a work nests six levels (features, a column,
#: its spec, its text options, the stop words); more is not a work (issue 31, item 7).
MAX_WORK_DEPTH = 16
#: How many sentences a link's unreadable values get before the rest are counted.
MAX_NOTES = 6
_SHA = re.compile(r"[0-9a-f]{64}")
_KEYS = ("example", "data", "name", "reader", "sheet", "model", "model_name", "target", "work")


def _keys() -> tuple[str, ...]:
    """The address's parameters: the built-in sources' and the target and work (_KEYS), and those
    any other registered source writes (``Source.address_keys``)."""
    from ui.sources.base import address_keys

    return (*_KEYS, *(k for k in address_keys() if k not in _KEYS))


class FileStore:
    """Bytes by their sha256, in files of a private folder (mode 700, removed with the store or
    when the server stops; after a kill, by the next store made in the same place:
    :func:`remove_stale_stores`), oldest out first once ``max_bytes`` is exceeded; thread-safe
    (sessions run in threads of one process).

    On disk rather than in memory: a kept file is wanted again only by a reload or a link, and
    reading it back costs milliseconds, while 20 sessions' uploads held in memory stay there
    after the sessions have ended (issue 21). While a session is open it holds its own copy.
    """

    def __init__(self, max_bytes: int = MAX_STORE_BYTES, folder: str | None = STORE_DIR) -> None:
        self.max_bytes = max_bytes
        #: A folder named by the operator (NBAPP_FILE_STORE_DIR) is shared by the processes started
        #: with it: each keeps its own store there and reads the others' (never the system's
        #: temporary folder, where another server's uploads may lie).
        self.shared = folder is not None
        remove_stale_stores(folder)
        self.folder = tempfile.mkdtemp(prefix=STORE_PREFIX, dir=folder)
        owner = _hold_owner_lock(self.folder)
        self._items: OrderedDict[str, int] = OrderedDict()  # sha256 -> size, oldest first
        self._size = 0
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _remove_store, self.folder, owner)

    def keep(self, digest: str, data: bytes) -> bool:
        """Keep ``data`` under ``digest`` (its sha256); False when it is too big to keep (or the
        disk refuses it). The file is written outside the lock: other sessions are not held up."""
        if len(data) > self.max_bytes or not _SHA.fullmatch(digest):
            return False
        with self._lock:
            if digest in self._items:
                self._items.move_to_end(digest)
                return True
        try:
            self._write(digest, data)   # two sessions keeping one file write the same bytes
        except OSError:
            return False
        with self._lock:
            if digest in self._items:
                self._items.move_to_end(digest)
                return True
            self._items[digest] = len(data)
            self._size += len(data)
            while self._size > self.max_bytes:
                old, size = self._items.popitem(last=False)
                self._size -= size
                self._remove(old)
            return True

    def get(self, digest: str) -> bytes | None:
        """The bytes kept under ``digest``, or None; anything but 64 lower-case hex digits is None."""
        if not isinstance(digest, str) or not _SHA.fullmatch(digest):
            return None
        with self._lock:
            mine = digest in self._items
            if mine:
                self._items.move_to_end(digest)
        if not mine:
            return self._kept_by_another_process(digest) if self.shared else None
        try:
            with open(self._path(digest), "rb") as f:
                return f.read()
        except OSError:                  # pushed out meanwhile
            return None

    def _kept_by_another_process(self, digest: str) -> bytes | None:
        """The bytes under ``digest`` in the store of another process sharing this folder's parent
        (several app processes behind one proxy, issue 32, item 5: a link or a reload may reach
        any of them), checked against the digest, or None."""
        parent = os.path.dirname(self.folder)
        for path in glob.glob(os.path.join(glob.escape(parent), STORE_PREFIX + "*", digest)):
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:              # pushed out, or its process ended, meanwhile
                continue
            if hashlib.sha256(data).hexdigest() == digest:
                return data
        return None

    def __contains__(self, digest: object) -> bool:
        with self._lock:
            return digest in self._items

    @property
    def size(self) -> int:
        """Bytes kept."""
        return self._size

    def close(self) -> None:
        """Forget every file and remove the folder."""
        with self._lock:
            self._items.clear()
            self._size = 0
            self._finalizer()

    def _path(self, digest: str) -> str:
        return os.path.join(self.folder, digest)

    def _write(self, digest: str, data: bytes) -> None:
        """Write to a temporary name, then rename: a reader never sees half a file."""
        fd, partial = tempfile.mkstemp(dir=self.folder, prefix=".part_")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(partial, self._path(digest))
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(partial)
            raise

    def _remove(self, digest: str) -> None:
        with contextlib.suppress(OSError):
            os.remove(self._path(digest))


# ----------------------------------------------------------- folders of stores that died (issue 31, item 9)
#: The name of every store's folder begins with this (in STORE_DIR or the system's temporary folder).
STORE_PREFIX = "nbapp_files_"
#: In each store's folder: a file locked (flock) by the process that owns the folder, holding its
#: pid for a person who looks. The kernel drops the lock when that process dies, however it dies
#: (kill -9, the out-of-memory killer), so an unlocked owner file is a folder nobody will remove;
#: a reused pid cannot make a dead store look alive.
#: A folder without one is left alone: a store being born (mkdtemp, then the owner file,
#: microseconds apart), or a store of a version without owner files, which may still be running
#: beside this one (several processes behind one proxy, upgraded one at a time).
OWNER_FILE = ".owner"


def _hold_owner_lock(folder: str) -> int | None:
    """Create the owner file of ``folder`` and lock it for as long as this process lives (the
    descriptor stays open until the store is closed); None where there is no flock (Windows)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on the servers this runs on
        return None
    fd = os.open(os.path.join(folder, OWNER_FILE), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def _remove_store(folder: str, owner: int | None) -> None:
    """Remove a store's folder, then let go of its owner lock."""
    shutil.rmtree(folder, ignore_errors=True)
    if owner is not None:
        with contextlib.suppress(OSError):
            os.close(owner)


def remove_stale_stores(folder: str | None = STORE_DIR) -> list[str]:
    """Remove the store folders in ``folder`` (default: the system's temporary folder) whose
    owning process is dead, and return them. A killed server never removes its own folder, and
    each start makes a new one of up to MAX_STORE_BYTES. Several server processes may share the
    folder: a store whose owner file is locked belongs to a live process and is never touched;
    nor is a folder without an owner file (see OWNER_FILE), of another user, or that is a link."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return []
    parent = folder if folder is not None else tempfile.gettempdir()
    removed = []
    for path in glob.glob(os.path.join(glob.escape(parent), STORE_PREFIX + "*")):
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not os.path.isdir(path) or os.path.islink(path) or info.st_uid != os.getuid():
            continue
        if _owner_is_gone(path, fcntl):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _owner_is_gone(path: str, fcntl: Any) -> bool:
    """True when no live process holds the folder's owner lock (tried without waiting)."""
    try:
        fd = os.open(os.path.join(path, OWNER_FILE), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:          # held: its process is alive
        return False
    finally:
        os.close(fd)         # (the lock, if taken, goes with the descriptor)
    return True


@st.cache_resource(show_spinner=False)
def file_store() -> FileStore:
    """The one store of this server process."""
    return FileStore()


# --------------------------------------------------------------------------- encoding


def _plain(value: Any) -> Any:
    """numpy scalars as Python numbers, tuples and frozensets as lists (json.dumps' default)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    raise TypeError(f"{type(value).__name__} cannot be kept in the address")


def pack(value: Any) -> str:
    """JSON, compressed, as URL-safe text."""
    raw = json.dumps(value, default=_plain, allow_nan=False, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def unpack(text: str) -> Any:
    """The value of :func:`pack`; raises DataError for anything else, too long, or too big unpacked."""
    if len(text) > MAX_WORK_CHARS:
        raise DataError("the saved settings in the address are too long")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_WORK_BYTES)
    except (ValueError, zlib.error) as err:
        raise DataError("the saved settings in the address are damaged") from err
    if inflater.unconsumed_tail:
        raise DataError("the saved settings in the address are too long")
    try:
        value = json.loads(raw)
    except ValueError as err:
        raise DataError("the saved settings in the address are damaged") from err
    except RecursionError as err:      # "[[[[...": json's decoder recurses once per level
        raise DataError("the saved settings in the address are nested too deeply to be a work") from err
    if _depth_above(value, MAX_WORK_DEPTH):
        raise DataError("the saved settings in the address are nested too deeply to be a work")
    return value


def _depth_above(value: Any, limit: int) -> bool:
    """Whether lists and objects in ``value`` nest deeper than ``limit``; without recursion, so a
    value json could still read (a few hundred levels) is refused before any code walks it."""
    level = [value]
    for _ in range(limit + 1):
        level = [v for x in level if isinstance(x, (list, dict)) for v in (x.values() if isinstance(x, dict) else x)]
        if not level:
            return False
    return True


#: The work= format written today; a value without it is an older link's (``types``, ``settings``).
WORK_VERSION = 2


def encode_work(work: Work, *, query: bool = True) -> str:
    """The work's columns, weight, settings, Explain row (``query``) and choices, packed; the
    data reference and the target travel in their own parameters."""
    data: dict[str, Any] = {
        "v": WORK_VERSION,
        "features": [[c, s if s == IGNORE else spec_to_dict(s)] for c, s in work.features.items()],
        "weight": work.weight,
        "settings": work.settings.to_dict(),
        "choices": {k: v for k, v in work.choices.items() if _scalar(v)},
    }
    if query:
        data["query"] = [[c, v] for c, v in work.query.items() if c in work.specs and _scalar(v)]
        data["missing"] = sorted(c for c in work.missing if c in work.specs)
    return pack(data)


def _scalar(value: Any) -> bool:
    """Can the address carry this value as it is (a string, a finite number, true or false)?"""
    if isinstance(value, np.generic):
        value = value.item()
    return isinstance(value, (str, bool, int)) or (isinstance(value, float) and np.isfinite(value))


def decode_work(text: str, base: Work, *, classes: list[Any] | None = None) -> tuple[Work, list[str]]:
    """``base`` (the work of the data the address names) with what ``text`` (:func:`encode_work`'s,
    or an older link's) says of it, and a sentence for each part that could not be read. Columns
    the data lacks are left out; given priors must name exactly ``classes`` (the target's, when
    known). Raises DataError when the whole value is damaged."""
    data = unpack(text)
    if not isinstance(data, dict):
        raise DataError("the saved settings in the address are damaged")
    columns = {str(c): c for c in base.features}
    if data.get("v") == WORK_VERSION:
        work, notes = _decode(data, base, columns)
    else:
        work, notes = _decode_older(data, base, columns)
    work = _with_priors_of(work, classes, notes)
    if len(notes) > MAX_NOTES:       # a link of 10,000 bad values gets a few sentences, not a page of them
        notes = [*notes[:MAX_NOTES], f"{len(notes) - MAX_NOTES:,} more values of this link could not be used"]
    return work, notes


def _with_priors_of(work: Work, classes: list[Any] | None, notes: list[str]) -> Work:
    """``work`` with its given priors kept only when they name exactly the target's ``classes``
    (the library's own check); else the empirical priors, with a note. A link's priors are read
    before any model is fitted, so a wrong class would otherwise stop the Model page."""
    priors = work.settings.priors
    if classes is None or isinstance(priors, str):
        return work
    try:
        class_prior(np.ones(len(classes)), list(classes), dict(priors), work.settings.prior_alpha)
    except DataError as err:
        notes.append(f"the link's class priors do not fit this data ({err}); the empirical priors are used")
        return work.replace(settings=dataclasses.replace(work.settings, priors="empirical"))
    return work


def _decode(data: dict[str, Any], base: Work, columns: dict[str, Any]) -> tuple[Work, list[str]]:
    notes: list[str] = []
    features = dict(base.features)
    for item in _pairs(data.get("features")):
        column = columns.get(str(item[0]))
        if column is None:
            continue
        try:
            spec = IGNORE if item[1] == IGNORE else spec_from_dict(item[1], f"column {item[0]!r}")
        except DataError as err:
            notes.append(f"the type of column {item[0]!r} could not be read ({err})")
            continue
        if _fits(base, column, spec):
            features[column] = spec
    work = base.replace(features=features)
    try:
        work = work.replace(settings=nbapp.Settings.from_dict(data.get("settings")))
    except DataError as err:
        notes.append(f"the model settings could not be read ({err})")
    work = _with_weight(work, data.get("weight"), columns)
    query = _query(data.get("query"), columns, notes)
    missing = data.get("missing")
    missing = {columns[str(c)] for c in missing if str(c) in columns} if isinstance(missing, list) else set()
    if query or missing:
        work = work.replace(query=query, missing=missing)
    choices = data.get("choices")
    if isinstance(choices, dict):
        work = work.replace(choices={**base.choices, **_choices(choices, notes)})
    return work, notes


def _query(pairs: Any, columns: dict[str, Any], notes: list[str]) -> dict[Any, Any]:
    """The Explain row of a link: a value per known column that an input can show
    (ui.link_rules.check_explain_value); each other value is left unset with a note."""
    query = {}
    for c, v in _pairs(pairs):
        if str(c) not in columns:
            continue
        problem = check_explain_value(str(c), v)
        if problem is not None:
            notes.append(problem)
        elif _scalar(v):
            query[columns[str(c)]] = v
    return query


def _choices(choices: dict[Any, Any], notes: list[str]) -> dict[str, Any]:
    """The pages' choices of a link, each one checked as its widget would (ui.link_rules); a value
    the widget would refuse is dropped (the page shows its default) with a note."""
    kept = {}
    for name, value in choices.items():
        problem = check_choice(str(name), value)
        if problem is not None:
            notes.append(problem)
        elif _scalar(value):
            kept[str(name)] = value
    return kept


def _pairs(value: Any) -> list[list[Any]]:
    return [p for p in value if isinstance(p, list) and len(p) == 2] if isinstance(value, list) else []


def _fits(base: Work, column: Any, spec: Any) -> bool:
    """A model file opened alone keeps its columns' types (its statistics are of those types);
    the options of a type may change."""
    if not base.source.types_fixed:
        return True
    old = base.features.get(column)
    return getattr(old, "kind", old) == getattr(spec, "kind", spec)


def _with_weight(work: Work, weight: Any, columns: dict[str, Any]) -> Work:
    if isinstance(weight, str) and weight in columns and work.source.has_rows:
        column = columns[weight]
        return work.replace(weight=column, features=work.features.set(column, IGNORE))
    return work


# An older link's work= (before issue 22): {"types": {column: type}, "weight": ..., "settings": the
# app's own settings mirror}. Its types, weight and model settings are read; what cannot be is said.
_OLD_NUMBERS = ("alpha", "prior_alpha", "var_smoothing")
_OLD_WORDS = ("variance", "var_smoothing_mode")


def _decode_older(data: dict[str, Any], base: Work, columns: dict[str, Any]) -> tuple[Work, list[str]]:
    notes: list[str] = []
    features = dict(base.features)
    types = data.get("types")
    if isinstance(types, dict):
        known = set(nbapp.blocks.feature_types())
        features.update({columns[c]: t for c, t in types.items()
                         if c in columns and isinstance(t, str) and t in known and _fits(base, columns[c], t)})
    work = base.replace(features=features)
    old = data.get("settings")
    if isinstance(old, dict):
        work, unread = _older_settings(work, old)
        if unread:
            notes.append("this link is from an older version of the app: its " + ", ".join(unread)
                         + " could not be read")
    return _with_weight(work, data.get("weight"), columns), notes


def _older_settings(work: Work, old: dict[str, Any]) -> tuple[Work, list[str]]:
    """The model settings of an older link, part by part (each part that fails is named)."""
    unread = []
    fields: dict[str, Any] = {k: old[k] for k in (*_OLD_NUMBERS, *_OLD_WORDS) if k in old}
    if old.get("priors") in ("empirical", "uniform"):
        fields["priors"] = old["priors"]
    elif old.get("priors") == "custom":
        unread.append("custom class priors")
    try:
        if old.get("smoothing") == "m":
            fields["smoothing"] = nbapp.MEstimate(old.get("m", 1.0), p=old.get("p"),
                                                  normalised=bool(old.get("m_normalised")))
        elif old.get("smoothing") == "beta":
            fields["smoothing"] = nbapp.BetaPrior(old.get("beta_a", 1.0), old.get("beta_b", 1.0))
        work = work.replace(settings=nbapp.Settings(**fields))
    except (DataError, TypeError, ValueError):
        unread.append("model settings")
    if old.get("positives") or old.get("column_options") or old.get("text"):
        unread.append("column options")
    return work, unread


# --------------------------------------------------------------------------- linked token patterns (issue 21)


def hold_text_options(work: Work) -> tuple[Work, dict[Any, dict[str, Any]], list[str]]:
    """``work`` with the text options a link (or a model file it names) sets and the text settings
    cannot produce put aside: the held options by column, and a note per option refused.

    A pattern is a program: even bounded in time it should not run before the visitor has seen
    it (issue 21); an n-gram range of (1, 1500) or a Unicode form the settings do not offer is as
    much the link's own (issue 31, item 3). Each is replaced by its default and shown on the Data
    and Text pages with "Use these options" and "Use the defaults" (ui/held_patterns.py). A value
    no input can show (min_df of 10^400) is refused with a note. A column's options are read
    whatever its type."""
    held, notes, features = {}, [], dict(work.features)
    for column, spec in work.specs.items():
        options = getattr(spec, "options", None)
        if not isinstance(options, TextOptions):
            continue
        unusual = unusual_text_options(options)
        refused = unshowable_text_options(options)
        notes += [f"the link's {name} ({shown_value(value)}) for the text column {str(column)!r} is beyond what "
                  f"the text settings take; using {shown_value(getattr(TextOptions, name))}"
                  for name, value in refused.items()]
        if unusual or refused:
            defaults = {name: getattr(TextOptions, name) for name in (*unusual, *refused)}
            features[column] = dataclasses.replace(spec, options=dataclasses.replace(options, **defaults))
        if unusual:
            held[column] = unusual
    return work.replace(features=features), held, notes


#: How the notes name a held option.
_OPTION_NAMES = {"token_pattern": "token pattern", "ngram_range": "n-gram range", "unicode_form": "Unicode form"}


def held_option_names(options: dict[str, Any]) -> str:
    """"token pattern and n-gram range": the held options of a column, as a sentence names them."""
    names = [_OPTION_NAMES.get(n, n) for n in options]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def held_note(held: dict[Any, dict[str, Any]] | None) -> str | None:
    """The sidebar's sentence while a link's text options wait, else None."""
    if not held:
        return None
    columns = ", ".join(f"'{c}'" for c in held)
    names = {n: None for options in held.values() for n in options}
    one = len(names) == 1
    it, has, default = ("it", "It has", "the default is") if one else ("them", "They have", "the defaults are")
    return (f"This link sets its own {held_option_names(names)} for the text column {columns}. {has} not been "
            f"used: confirm {it} on the Data or Text page. Until then {default} used.")


# --------------------------------------------------------------------------- the address


def address_of(work: Work) -> tuple[dict[str, str], str | None]:
    """The address of ``work``, and why it cannot be kept (None when it is). The source writes its
    own part (``ui.sources``), keeping the bytes of an upload or a model file in the file store so
    the address can name them; then the target, a model file imported beside the data, the rest."""
    source = work.source
    store = file_store()
    params, problem = source.address(store)
    if problem is not None:
        return {}, problem
    params = dict(params)
    if source.has_rows:
        params["target"] = str(work.target)
        if work.imported is not None:
            params.update(work.imported.address_beside(store))
    try:
        params["work"] = encode_work(work)
        if len(params["work"]) > MAX_WORK_CHARS:      # a long document in the Explain row: left out
            params["work"] = encode_work(work, query=False)
    except (TypeError, ValueError):
        return params, "the settings hold values an address cannot carry"
    if len(params["work"]) > MAX_WORK_CHARS:
        return {}, "the settings are too long for an address"
    return params, None


def write_address(params: dict[str, str]) -> None:
    """Make ``params`` the page's address (only when it changed)."""
    current = {k: st.query_params.get(k) for k in _keys() if k in st.query_params}
    if current != params:
        st.query_params.from_dict(params)


def read_address() -> dict[str, str]:
    """The parameters of the page's address that name a work (others are not read)."""
    return {k: st.query_params.get(k) for k in _keys() if k in st.query_params}


def kept_file(digest: str, name: Any, *, what: str) -> tuple[bytes, str]:
    """The bytes the store keeps under ``digest`` and a display name; DataError saying what to do
    when they are no longer kept (or ``digest`` is not a sha256)."""
    shown = _file_name(name)
    data = file_store().get(digest)
    if data is None:
        again = "upload it again" if what == "file" else "load it again on the Model page"
        raise DataError(f"the {what} {shown!r} of this link is no longer kept on the server (it is kept for a "
                        f"while after its upload); {again}")
    return data, shown


def _file_name(name: Any) -> str:
    """A display name from the address: its last part only, at most 200 characters."""
    text = PurePath(str(name or "upload")).name[:200]
    return text or "upload"
