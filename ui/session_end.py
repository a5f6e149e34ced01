"""A session's memory goes back to the machine when the session ends.

Streamlit keeps a session whose browser went away (its ``st.session_state``: the upload, the
frame, the model; its uploaded files; its downloads) for ``server.disconnectedSessionTTL``
seconds, so that a network blip can reconnect to it. Streamlit 1.67 then only drops it from
its session store, lazily (when another session disconnects) and without shutting it down, so
the uploader's copy of each file stays in memory until the process exits (streamlit#12506;
``MemorySessionStorage`` is a ``TTLCache`` with no removal hook). Here every session that ran
the app registers, in a session-scoped resource, for a call when it disconnects; if it has not
come back ``server.disconnectedSessionTTL`` seconds later, Streamlit's own ``close_session``
shuts it down (session state, uploaded and media files), and the freed memory is handed back
to the operating system (:func:`release_memory`): glibc keeps freed blocks in its arenas and
Arrow's allocator keeps freed pages, both until asked.

A reload or a link still finds the work after that: its address names the data, and the file
store (:mod:`ui.remember`) keeps the upload on disk.

Work the session started stops too (issue 31, item 10): Streamlit stops a script only at its
next Streamlit call, and a read of many files or one long DuckDB query makes none for minutes.
:func:`session_stop` gives such work a function that turns True once the session is closed here.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import streamlit as st

__all__ = ["watch_session", "session_stop", "release_memory", "grace_seconds", "use_allocators_that_give_back",
           "ARENA_MAX"]

# Sessions that disconnected: id -> time of their last disconnect (a session that comes back and
# leaves again is closed a full grace period after it left the second time).
_DISCONNECTED: dict[str, float] = {}
_LOCK = threading.Lock()
# Several sessions ending together are released once, this many seconds after the first.
_RELEASE_DELAY = 1.0
_release_pending = False


def grace_seconds() -> float:
    """How long a disconnected session may come back: Streamlit's server.disconnectedSessionTTL,
    less a second, so the session is closed while Streamlit still holds it (once expired, its
    store no longer returns it, so nothing could close it)."""
    from streamlit import config

    return max(float(config.get_option("server.disconnectedSessionTTL")) - 1.0, 0.0)


@dataclass(frozen=True)
class _Watch:
    """A session, and what it holds that is emptied once Streamlit has closed it."""

    session_id: str
    state: Any = None      # its SessionState: st.session_state's values and its widgets' callbacks
    fragments: Any = None  # its FragmentStorage: each st.fragment's function and arguments
    closed: threading.Event = field(default_factory=threading.Event, compare=False)  # set when closed here


def watch_session() -> None:
    """Register the running session for :func:`_session_left` (once per connection: the resource
    is session-scoped, so Streamlit releases it, and calls the hook, when the session disconnects)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is not None:
        _session_watch(ctx.session_id, _state=getattr(ctx.session_state, "_state", None),
                       _fragments=getattr(ctx, "fragment_storage", None))


def session_stop() -> Callable[[], bool] | None:
    """For long work of the running session: a function, cheap and safe to call from any thread,
    that turns True once the session has been closed (it left and did not come back within the
    grace period: nobody waits for the work any more). None outside a server's script run."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    watch = _session_watch(ctx.session_id, _state=getattr(ctx.session_state, "_state", None),
                           _fragments=getattr(ctx, "fragment_storage", None))
    return watch.closed.is_set


def _session_left(watch: _Watch) -> None:
    """Streamlit released the session's resources: it disconnected, or it is being shut down.

    Called on the server's event loop (Streamlit disconnects and closes sessions there); anywhere
    else (a cache cleared by a script, AppTest) there is no server session to close.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    with _LOCK:
        _DISCONNECTED[watch.session_id] = time.monotonic()
    grace = grace_seconds()
    loop.call_later(grace, _close_if_gone, watch, grace)


@st.cache_resource(scope="session", show_spinner=False, on_release=_session_left)
def _session_watch(session_id: str, _state: Any, _fragments: Any) -> _Watch:
    return _Watch(session_id, _state, _fragments)


def _close_if_gone(watch: _Watch, grace: float) -> None:
    """On the event loop, ``grace`` seconds after the session left: close it unless it came back
    (or left again later: that departure's own call closes it)."""
    from streamlit.runtime import Runtime

    session_id = watch.session_id
    with _LOCK:
        left = _DISCONNECTED.get(session_id)
        if left is None or time.monotonic() - left < 0.99 * grace:
            return
        del _DISCONNECTED[session_id]
    if not Runtime.exists():
        return
    runtime = Runtime.instance()
    if runtime.is_active_session(session_id):
        return
    if _debug_enabled():
        _debug(f"closing {session_id}")
    watch.closed.set()                  # its long work (a read of many files) stops at its next check
    runtime.close_session(session_id)   # a no-op for a session Streamlit already shut down
    # Streamlit's message loop keeps the last session it served in a local variable until it
    # serves another, so a closed session's state is emptied, not only left to the collector.
    _empty(watch)
    _release_soon()


def _empty(watch: _Watch) -> None:
    """Drop what a closed session holds: the values of its session state; its widgets' callbacks
    (functions of the page scripts, whose globals hold the page's frame and model); its fragments
    (each a function with its arguments, the model among them)."""
    if watch.state is not None:
        watch.state.clear()
        widgets = getattr(watch.state, "_new_widget_state", None)
        metadata = getattr(widgets, "widget_metadata", None)
        if isinstance(metadata, dict):
            metadata.clear()
    if watch.fragments is not None:
        watch.fragments.clear()


def _release_soon() -> None:
    global _release_pending
    with _LOCK:
        if _release_pending:
            return
        _release_pending = True

    def run() -> None:
        global _release_pending
        with _LOCK:
            _release_pending = False
        release_memory()
        if _debug_enabled():
            _debug("after release:\n" + memory_report())

    asyncio.get_running_loop().call_later(_RELEASE_DELAY, run)


def release_memory() -> None:
    """Collect what the closed sessions left (their state holds reference cycles), then give the
    free pages back to the operating system: glibc's ``malloc_trim`` (every arena) and Arrow's
    pool. Without this the resident size stays at its peak although the memory is free."""
    gc.collect()
    _malloc_trim()
    try:
        import pyarrow as pa

        pa.default_memory_pool().release_unused()
    except ImportError:  # pragma: no cover - pyarrow is a dependency; stay harmless without it
        pass


def _malloc_trim() -> None:
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


# glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
#: Free memory above this at the top of an arena goes back to the system as soon as it is freed.
#: glibc starts at 128 KiB but doubles its mmap threshold whenever a larger mapped block is
#: freed (up to 32 MiB) and its trim threshold with it (up to 64 MiB); after the first session
#: each arena keeps that much freed memory at its top, and ``malloc_trim`` returns the top of
#: the main arena only (the threads' arenas keep theirs). Measured by bench/session_memory.py
#: (4 sessions of 11 MB, 45 s after the last closed): 71% above the warm size without, 9% with.
TRIM_THRESHOLD = 128 << 10
#: Blocks of at least this many bytes are mapped on their own. Fixed at glibc's own maximum,
#: where its dynamic threshold ends up after one session anyway: smaller blocks (a session's
#: columns, its file's bytes) are reused from the arenas. Fixed at 128 KiB instead, reading a
#: million-row CSV took 40% more CPU and fitting it 25% more (every column a fresh mapping).
MMAP_THRESHOLD = 32 << 20
#: Arenas of the C allocator: glibc gives threads their own (up to 8 per core), and each keeps
#: its own freed pages; Streamlit runs every script run in a new thread.
ARENA_MAX = 2


def use_allocators_that_give_back() -> None:
    """Once per process, before the sessions allocate much: Arrow's buffers (pandas' string
    columns) from the C allocator instead of Arrow's default mimalloc, which keeps what threads
    that have ended freed (measured: +100 MB after two 11 MB sessions, where malloc_trim then
    returns all but a few); at most :data:`ARENA_MAX` glibc arenas; and glibc's trim and mmap
    thresholds fixed (:data:`TRIM_THRESHOLD`, :data:`MMAP_THRESHOLD`). Measured by
    bench/session_memory.py; none slows reading or fitting a million rows measurably (CPU time)."""
    try:
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        pass
    libc = _libc()
    if libc is not None and hasattr(libc, "mallopt"):
        libc.mallopt(_M_ARENA_MAX, ARENA_MAX)
        libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)   # (either one fixes both thresholds)
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)


_LIBC: Any = None


def _libc() -> Any:
    """glibc, or None (musl, macOS, Windows: nothing to trim)."""
    global _LIBC
    if _LIBC is None:
        name = ctypes.util.find_library("c")
        try:
            lib = ctypes.CDLL(name) if name else None
        except OSError:
            lib = None
        _LIBC = lib if lib is not None and hasattr(lib, "malloc_trim") else False
    return _LIBC or None


use_allocators_that_give_back()


# --------------------------------------------------------------------------- debugging aid

def _debug_enabled() -> bool:
    import os

    return bool(os.environ.get("NBAPP_MEMORY_DEBUG"))


def _debug(message: str) -> None:
    import sys

    print(f"[nbapp memory] {message}", file=sys.stderr, flush=True)


def memory_report() -> str:
    """What the process holds (NBAPP_MEMORY_DEBUG=1, logged after each release): live sessions and
    Streamlit's per-session stores, the caches, large Python objects, and glibc's heap."""
    import sys

    lines: list[str] = []
    try:
        from streamlit.runtime import Runtime

        if Runtime.exists():
            rt = Runtime.instance()
            mgr = rt._session_mgr
            lines.append(f"sessions: active {len(mgr.list_active_sessions())}, all {len(mgr.list_sessions())}")
            ufm = rt._uploaded_file_mgr
            storage = getattr(ufm, "file_storage", {})
            n = sum(len(v) for v in storage.values())
            size = sum(len(f.data) for v in storage.values() for f in v.values())
            lines.append(f"uploaded files: {len(storage)} sessions, {n} files, {size / 1e6:.1f} MB")
            media = rt._media_file_mgr
            files = getattr(media._storage, "_files_by_id", {})
            lines.append(f"media files: {len(files)}, {sum(len(f.content) for f in files.values()) / 1e6:.1f} MB; "
                         f"sessions {len(getattr(media, '_files_by_session_and_coord', {}))}")
            cache = getattr(rt, "_message_cache", None)
            if cache is not None:
                entries = getattr(cache, "_entries", {})
                lines.append(f"forward message cache: {len(entries)}")
            dsm = rt._dataframe_source_mgr
            lines.append(f"dataframe sources: {len(getattr(dsm, '_sources', {}))}")
    except Exception as err:  # noqa: BLE001 - a debugging aid never breaks the server
        lines.append(f"runtime: {err!r}")
    try:
        from streamlit.runtime.caching.cache_data_api import _data_caches
        from streamlit.runtime.caching.cache_resource_api import _resource_caches

        for label, provider in (("cache_data", _data_caches), ("cache_resource", _resource_caches)):
            sizes: dict[str, list[int]] = {}
            for stat in (st_ for family in provider.get_stats().values() for st_ in family):
                sizes.setdefault(stat.cache_name, []).append(stat.byte_length)
            lines.append(f"{label}: " + ", ".join(f"{k} {len(v)} entries {sum(v) / 1e6:.1f} MB"
                                                  for k, v in sizes.items()))
    except Exception as err:  # noqa: BLE001
        lines.append(f"cache_data: {err!r}")
    import pandas as pd

    frames = 0   # (numpy arrays are not tracked by the collector: they are not counted)
    big_bytes: list[int] = []
    types: dict[str, int] = {}
    for obj in gc.get_objects():
        t = type(obj)
        if t is pd.DataFrame:
            frames += 1
        name = t.__name__
        types[name] = types.get(name, 0) + 1
    for obj in gc.get_objects():
        for ref in (gc.get_referents(obj) if isinstance(obj, (dict, list, tuple)) else ()):
            if type(ref) is bytes and len(ref) > 1 << 20:
                big_bytes.append(len(ref))
    lines.append(f"DataFrames {frames}, "
                 f"bytes >1MB referenced from containers: {len(big_bytes)} ({sum(big_bytes) / 1e6:.1f} MB)")
    top = sorted(types.items(), key=lambda kv: -kv[1])[:12]
    lines.append("types: " + ", ".join(f"{k} {v}" for k, v in top))
    threads = threading.enumerate()
    lines.append(f"threads {len(threads)}: " + ", ".join(sorted({t.name.split('-')[0] for t in threads})))
    try:
        import pyarrow as pa

        lines.append(f"arrow pool {pa.default_memory_pool().backend_name}: "
                     f"{pa.default_memory_pool().bytes_allocated() / 1e6:.1f} MB, total {pa.total_allocated_bytes() / 1e6:.1f} MB")
    except Exception as err:  # noqa: BLE001
        lines.append(f"arrow: {err!r}")
    libc = _libc()
    if libc is not None and hasattr(libc, "mallinfo2"):
        class _Mallinfo2(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in
                        ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                         "uordblks", "fordblks", "keepcost")]

        libc.mallinfo2.restype = _Mallinfo2
        mi = libc.mallinfo2()
        lines.append(f"glibc: arena {mi.arena / 1e6:.1f} MB, mmapped {mi.hblkhd / 1e6:.1f} MB ({mi.hblks}), "
                     f"in use {mi.uordblks / 1e6:.1f} MB, free {mi.fordblks / 1e6:.1f} MB")
    try:
        import tracemalloc

        if tracemalloc.is_tracing():
            snap = tracemalloc.take_snapshot()
            for stat in snap.statistics("lineno")[:15]:
                lines.append(f"  {stat}")
    except Exception as err:  # noqa: BLE001
        lines.append(f"tracemalloc: {err!r}")
    lines.append(_smaps_summary())
    sys._debugmallocstats()   # Python's own allocator (obmalloc arenas), to stderr
    for line in open("/proc/self/status"):
        if line.startswith(("VmRSS", "RssAnon", "RssFile")):
            lines.append(line.strip())
    del sys
    return "\n".join(lines)


def _smaps_summary() -> str:
    """Resident anonymous memory by kind of mapping: the main heap, glibc's other arenas (64 MB
    heaps), and the other anonymous mappings by size."""
    kinds: dict[str, list[int]] = {}
    current = None
    try:
        with open("/proc/self/smaps") as f:
            for line in f:
                parts = line.split()
                if "-" in parts[0] and len(parts) >= 5 and not parts[0].endswith(":"):
                    start, end = (int(x, 16) for x in parts[0].split("-"))
                    size = end - start
                    name = parts[5] if len(parts) > 5 else ""
                    if name == "[heap]":
                        current = "heap"
                    elif name:
                        current = None
                    elif size <= (64 << 20) and start % (64 << 20) == 0:
                        current = "arena-heap"
                    elif size <= (1 << 20) + 4096:
                        current = "anon<=1MB"
                    elif size <= (16 << 20):
                        current = "anon<=16MB"
                    else:
                        current = "anon>16MB"
                elif parts[0] == "Rss:" and current is not None:
                    kinds.setdefault(current, []).append(int(parts[1]))
    except OSError as err:
        return f"smaps: {err!r}"
    return "rss by mapping: " + ", ".join(f"{k} {len(v)} maps {sum(v) / 1024:.1f} MB"
                                          for k, v in sorted(kinds.items()))
