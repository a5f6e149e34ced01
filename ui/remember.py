"""Work that survives a reload: the session's data reference, target, types and settings in the
page's address (``st.query_params``), and uploaded files in a bounded store on the server.

The address holds names and numbers only:

    example=<key>                         a built-in example, or
    data=<sha256>&name=<file>&reader=...  an upload, kept in :class:`FileStore` under its sha256
                                          (with &sheet=<name>: that sheet of a workbook), or
    model=<sha256>&name=<file>            a model file opened alone (no data)
    target=<column>                       the target column
    model=<sha256>&model_name=<file>      an imported model next to the data (beside data= or example=)
    work=<base64url(zlib(JSON))>          {"types": ..., "weight": ..., "settings": ...}

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

from nbapp.errors import DataError

__all__ = ["FileStore", "file_store", "work_params", "remember_work", "restore_work", "MAX_STORE_BYTES",
           "STORE_DIR", "encode_work", "decode_work"]

#: The bytes of all kept files together (NBAPP_FILE_STORE_MB to change); a 300 MB upload (the
#: uploader's limit) fits once. The files are on disk, so the store costs the server no memory.
MAX_STORE_BYTES = int(float(os.environ.get("NBAPP_FILE_STORE_MB", "512")) * 1024 * 1024)
#: The folder of the kept files (NBAPP_FILE_STORE_DIR): a private temporary folder by default.
STORE_DIR = os.environ.get("NBAPP_FILE_STORE_DIR") or None
#: A ``work=`` value longer than this is not read (a URL of a few hundred columns stays far below).
MAX_WORK_CHARS = 200_000
#: Decompressed size cap of ``work=``, so a small value cannot expand into a huge one.
MAX_WORK_BYTES = 2_000_000
_SHA = re.compile(r"[0-9a-f]{64}")
_KEYS = ("example", "data", "name", "reader", "sheet", "model", "model_name", "target", "work")


class FileStore:
    """Bytes by their sha256, in files of a private folder (mode 700, removed with the store or
    when the server stops), oldest out first once ``max_bytes`` is exceeded; thread-safe
    (sessions run in threads of one process).

    On disk rather than in memory: a kept file is wanted again only by a reload or a link, and
    reading it back costs milliseconds, while 20 sessions' uploads held in memory stay there
    after the sessions have ended (issue 21). While a session is open it holds its own copy.
    """

    def __init__(self, max_bytes: int = MAX_STORE_BYTES, folder: str | None = STORE_DIR) -> None:
        self.max_bytes = max_bytes
        self.folder = tempfile.mkdtemp(prefix="nbapp_files_", dir=folder)
        self._items: OrderedDict[str, int] = OrderedDict()  # sha256 -> size, oldest first
        self._size = 0
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)

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
            if digest not in self._items:
                return None
            self._items.move_to_end(digest)
        try:
            with open(self._path(digest), "rb") as f:
                return f.read()
        except OSError:                  # pushed out meanwhile
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


def encode_work(work: dict[str, Any]) -> str:
    raw = json.dumps(work, default=_plain, allow_nan=False, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode_work(text: str) -> dict[str, Any]:
    """The dict of :func:`encode_work`; raises DataError for anything else."""
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
        work = json.loads(raw)
    except ValueError as err:
        raise DataError("the saved settings in the address are damaged") from err
    if not isinstance(work, dict):
        raise DataError("the saved settings in the address are damaged")
    return work


def settings_to_dict(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config)


def settings_from_dict(data: Any) -> Any:
    """A Settings from :func:`settings_to_dict`'s dict; raises DataError naming what is wrong."""
    from ui.state import Settings, TextSettings, feature_spec, make_model

    if not isinstance(data, dict):
        raise DataError("the saved settings are damaged")
    fields = dict(data)
    try:
        text = tuple((str(col), TextSettings(**{**ts, "stop_words": None if ts.get("stop_words") is None
                                                 else tuple(ts["stop_words"])}))
                     for col, ts in fields.pop("text", []))
        custom = tuple((c, float(p)) for c, p in fields.pop("custom_priors", []))
        positives = tuple((str(c), v) for c, v in fields.pop("positives", []))
        options = tuple((str(c), str(k), tuple((str(f), tuple(v) if isinstance(v, list) else v) for f, v in items))
                        for c, k, items in fields.pop("column_options", []))
        config = Settings(**fields, text=text, custom_priors=custom, positives=positives, column_options=options)
        for _column, ts in config.text:
            ts.spec()                                                # nbapp checks the text options
        for column, kind, _items in config.column_options:
            feature_spec(column, kind, config)                       # ... the per-column options
        make_model({"x": "categorical"}, config, [c for c, _ in custom])  # ... and l, priors, variance
    except (TypeError, ValueError, AttributeError, KeyError) as err:
        raise DataError(f"the saved settings are damaged ({type(err).__name__})") from err
    return config


# --------------------------------------------------------------------------- the address


def work_params() -> tuple[dict[str, str], str | None]:
    """The address of the current work, and why it cannot be kept (None when it is)."""
    ss = st.session_state
    source = ss["source"]
    params: dict[str, str] = {}
    store = file_store()
    if source.reader == "example":
        params["example"] = str(source.example)
    elif source.reader == "model":
        if ss.get("model_bytes") is None or not store.keep(source.sha256, ss["model_bytes"]):
            return {}, "the model file is too big to keep"
        params.update(model=source.sha256, name=source.name)
    elif source.reader == "path":
        return {}, "a local path is never written into the page's address; open it again on the Data page"
    else:
        data = ss.get("data_bytes")
        if data is None:
            return {}, "this data is not kept on the server"
        if not store.keep(source.sha256, data):
            return {}, "the file is too big to keep on the server"
        params.update(data=source.sha256, name=source.name, reader=source.reader)
        if getattr(source, "sheet", None) is not None:
            params["sheet"] = str(source.sheet)
    imported = ss.get("imported")
    if source.reader != "model":
        params["target"] = str(ss["target"])
        if imported is not None and ss.get("model_bytes") is not None and store.keep(imported.sha256,
                                                                                      ss["model_bytes"]):
            params.update(model=imported.sha256, model_name=imported.name)
    work = {"settings": settings_to_dict(ss["settings"])}
    if source.reader != "model":
        work.update(types={str(c): t for c, t in ss["types"].items()}, weight=ss.get("weight"))
    try:
        params["work"] = encode_work(work)
    except (TypeError, ValueError):
        return params, "the settings hold values an address cannot carry"
    return params, None


def remember_work() -> None:
    """Write the current work into the page's address (only when it changed)."""
    params, problem = work_params()
    st.session_state["work_not_kept"] = problem
    current = {k: st.query_params.get(k) for k in _KEYS if k in st.query_params}
    if current != params:
        st.query_params.from_dict(params)


def restore_work() -> None:
    """On a session's first run: rebuild the work the address names (else leave the default).

    Every failure is a sentence in ``st.session_state["restore_note"]``, shown in the sidebar;
    what could be restored stays.
    """
    from ui import state

    query = {k: st.query_params.get(k) for k in _KEYS if k in st.query_params}
    if not query:
        return
    ss = st.session_state
    store = file_store()
    try:
        if query.get("data"):
            data = store.get(query["data"])
            name = _file_name(query.get("name"))
            if data is None:
                raise DataError(f"the file {name!r} of this link is no longer kept on the server (it is kept "
                                "for a while after its upload); upload it again")
            reader = query.get("reader") if query.get("reader") in state.READERS else "table"
            sheet = query.get("sheet") if reader == "table" else None
            state.load_upload_into_state(data, name, reader, *([sheet] if sheet else []))
            ss["data_mode"] = "Upload a file"
            ss["upload_reader"] = reader
        elif query.get("model") and not query.get("example"):
            data = store.get(query["model"])
            name = _file_name(query.get("name"))
            if data is None:
                raise DataError(f"the model file {name!r} of this link is no longer kept on the server; "
                                "load it again on the Model page")
            state.open_model_alone(name, data)
            _apply_work(query)
            return
        elif query.get("example"):
            from nbapp.examples import EXAMPLES

            if query["example"] not in {ex.key for ex in EXAMPLES}:
                raise DataError(f"there is no built-in example {query['example']!r}")
            state.load_example_into_state(query["example"])
        target = query.get("target")
        if target is not None and target != ss["target"]:
            if target not in [str(c) for c in ss["frame"].columns]:
                raise DataError(f"the data has no column {target!r} to predict")
            state.set_target(next(c for c in ss["frame"].columns if str(c) == target))
        _apply_work(query)
        if query.get("model"):
            data = store.get(query["model"])
            if data is None:
                raise DataError("the imported model file of this link is no longer kept on the server; "
                                "load it again on the Model page")
            state.import_model(_file_name(query.get("model_name")), data)
    except DataError as err:
        ss["restore_note"] = f"Not everything of this link could be restored: {err}"
    else:
        ss["restore_note"] = None


def _apply_work(query: dict[str, str]) -> None:
    from ui import state

    if not query.get("work"):
        return
    ss = st.session_state
    work = decode_work(query["work"])
    if "settings" in work:
        ss["settings"] = settings_from_dict(work["settings"])
    if ss["source"].reader == "model":
        return
    columns = {str(c): c for c in ss["frame"].columns}
    types = work.get("types")
    if isinstance(types, dict):
        kept = {columns[c]: t for c, t in types.items()
                if c in columns and columns[c] in ss["types"] and t in state.FEATURE_TYPES}
        ss["types"] = {**ss["types"], **kept}
        ss["type_reasons"] = {**ss.get("type_reasons", {}), **{c: "kept from your last visit" for c in kept}}
    weight = work.get("weight")
    if isinstance(weight, str) and weight in columns:
        state.set_weight(columns[weight])


def _file_name(name: Any) -> str:
    """A display name from the address: its last part only, at most 200 characters."""
    text = PurePath(str(name or "upload")).name[:200]
    return text or "upload"
