"""Memory that comes back (issue 21): the shared caches are bounded, the file store keeps uploads
on disk within its bound, and a session that has gone is closed and emptied, so nothing of its
data stays referenced. The timing (20 browser sessions, RSS back within 20% in a minute) is
measured by bench/session_memory.py, not here."""

from __future__ import annotations

import asyncio
import threading
import gc
import os
import stat
import tomllib
import weakref
from pathlib import Path

import pandas as pd
import pytest

import ui.session_end as session_end
from apptest_helpers import ROOT, clear_caches, open_page, start, upload  # noqa: F401 (autouse fixture)


def _mixed_csv(rows: int) -> bytes:
    lines = "\n".join(f"{'abc'[r % 3]},{r % 7 + 0.5},{r % 11},{'pq'[r % 2]}" for r in range(rows))
    return f"letter,size,count,label\n{lines}\n".encode()


# -- the shared caches ---------------------------------------------------------------------------


@pytest.mark.parametrize("module, name", [("upload", "_parse"), ("base", "_statistics"), ("base", "_fit"),
                                          ("model_file", "_refit_stats")])
def test_the_shared_caches_of_files_and_models_are_bounded_in_entries_bytes_and_time(module, name):
    import importlib

    info = getattr(importlib.import_module(f"ui.sources.{module}"), name)._info
    assert info.max_entries is not None and info.max_entries <= 32
    assert info.max_size_bytes is not None and info.max_size_bytes <= 64 << 20
    assert info.ttl is not None and pd.Timedelta(info.ttl).total_seconds() <= 3600


def test_an_upload_too_big_for_the_parsing_cache_is_read_without_it(monkeypatch):
    """A pickled frame is about twice its file: a file cached must fit the cache's byte bound
    with room for others, and a larger one never enters the shared cache (read on every call)."""
    from ui.sources import Table, upload

    assert 2.5 * upload.CACHE_MAX_BYTES <= upload._parse._info.max_size_bytes
    reads = []
    read = upload._read
    monkeypatch.setattr(upload, "_read", lambda source: reads.append(source.name) or read(source))
    small = _mixed_csv(50)
    big = _mixed_csv(1000)
    while len(big) <= upload.CACHE_MAX_BYTES:
        big += big[big.index(b"\n") + 1:]
    for _ in range(2):
        upload.parse_upload(Table.of(small, "small.csv"))
        upload.parse_upload(Table.of(big, "big.csv"))
    assert reads == ["small.csv", "big.csv", "big.csv"]


def test_the_config_closes_gone_sessions_within_a_minute_and_bounds_all_cached_data():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]
    assert 5 <= config["disconnectedSessionTTL"] <= 60
    assert config["maxCacheDataSize"].lower().endswith("mb")
    assert int(config["maxCacheDataSize"][:-2]) <= 256


# -- the file store ------------------------------------------------------------------------------


def _digest(i: int) -> str:
    return f"{i:064x}"


def test_the_file_store_keeps_files_on_disk_in_a_private_folder_within_its_bound(tmp_path):
    from ui.remember import OWNER_FILE, FileStore

    store = FileStore(max_bytes=2500, folder=str(tmp_path))
    assert stat.S_IMODE(os.stat(store.folder).st_mode) == 0o700
    files = {_digest(i): bytes([i]) * 1000 for i in range(4)}
    for digest, data in files.items():
        assert store.keep(digest, data)
        on_disk = sorted(os.listdir(store.folder))
        assert sum(os.path.getsize(os.path.join(store.folder, f)) for f in on_disk) <= 2500
    assert sorted(os.listdir(store.folder)) == [OWNER_FILE, _digest(2), _digest(3)], "oldest out first, from disk too"
    assert store.size == 2000
    kept = store.get(_digest(3))
    assert kept == files[_digest(3)] and kept is not files[_digest(3)], "read back from disk"
    assert store.get(_digest(0)) is None
    store.close()
    assert not os.path.exists(store.folder)


def test_the_file_store_writes_only_files_named_by_a_sha256(tmp_path):
    from ui.remember import OWNER_FILE, FileStore

    store = FileStore(max_bytes=1000, folder=str(tmp_path))
    for name in ["../escape", "/etc/passwd", "A" * 64, "0" * 63]:
        assert not store.keep(name, b"x")
    assert os.listdir(store.folder) == [OWNER_FILE] and sorted(os.listdir(tmp_path)) == [os.path.basename(store.folder)]


def test_a_file_pushed_out_of_the_store_is_answered_with_none(tmp_path):
    from ui.remember import OWNER_FILE, FileStore

    store = FileStore(max_bytes=1000, folder=str(tmp_path))
    assert store.keep(_digest(1), b"a" * 600)
    os.remove(os.path.join(store.folder, _digest(1)))            # gone from disk meanwhile
    assert store.get(_digest(1)) is None


# -- a session that has gone ---------------------------------------------------------------------


def test_the_app_registers_every_session_for_its_end(monkeypatch):
    seen = []
    monkeypatch.setattr(session_end, "watch_session", lambda: seen.append(True))
    start()
    assert seen


def test_an_emptied_session_keeps_nothing_of_its_frame_referenced(monkeypatch):
    """What the session-end hook does to a closed session: afterwards its frame and model are
    unreachable although Streamlit still holds the (closed) session itself, as its message loop
    does for the last session it served."""
    watches = []

    class Recorded(session_end._Watch):
        def __init__(self, *args) -> None:
            super().__init__(*args)
            watches.append(self)

    monkeypatch.setattr(session_end, "_Watch", Recorded)
    # Every AppTest is the session "test session id": an earlier test's registration of it
    # (a session-scoped resource) would otherwise still be cached, and this one never made.
    import streamlit as st

    st.cache_resource.clear()
    at = upload(start(), "mixed.csv", _mixed_csv(3000))
    open_page(at, "Model")
    open_page(at, "Explain")                 # its fragment holds the model
    frame = weakref.ref(at.session_state["frame"])
    model = weakref.ref(at.session_state["model"])
    gc.collect()
    assert frame() is not None and model() is not None
    [watch] = watches                        # app.py registered the session once
    session_end._empty(watch)
    gc.collect()
    assert frame() is None, [type(r).__name__ for r in gc.get_referrers(frame())]
    assert model() is None, [type(r).__name__ for r in gc.get_referrers(model())]


class _FakeRuntime:
    """Streamlit's Runtime as the hook sees it: which sessions are connected, and close_session."""

    def __init__(self, active: set[str]) -> None:
        self.active, self.closed = active, []

    def is_active_session(self, session_id: str) -> bool:
        return session_id in self.active

    def close_session(self, session_id: str) -> None:
        self.closed.append(session_id)


class _State:
    def __init__(self) -> None:
        self.values = {"frame": object()}

    def clear(self) -> None:
        self.values.clear()


@pytest.fixture
def fake_runtime(monkeypatch):
    """The hook against a fake Runtime, with no grace period and no real release of memory."""
    from streamlit import runtime

    fake = _FakeRuntime(set())
    monkeypatch.setattr(runtime.Runtime, "exists", classmethod(lambda cls: True))
    monkeypatch.setattr(runtime.Runtime, "instance", classmethod(lambda cls: fake))
    monkeypatch.setattr(session_end, "grace_seconds", lambda: 0.0)
    monkeypatch.setattr(session_end, "_RELEASE_DELAY", 0.0)
    fake.released = []
    monkeypatch.setattr(session_end, "release_memory", lambda: fake.released.append(True))
    fake.checked = []
    close_if_gone = session_end._close_if_gone
    monkeypatch.setattr(session_end, "_close_if_gone",
                        lambda watch, grace: (close_if_gone(watch, grace), fake.checked.append(watch.session_id)))
    return fake


def _leave_and_run(watch, until) -> None:
    """The session leaves on a running event loop, which then runs until ``until()`` (or 10 s)."""
    async def run() -> None:
        session_end._session_left(watch)
        for _ in range(1000):
            if until():
                return
            await asyncio.sleep(0.01)

    _in_a_fresh_thread(lambda: asyncio.run(run()))


def _in_a_fresh_thread(call) -> None:
    """Run ``call`` in a thread of its own: the main thread may hold another event loop
    (Playwright's sync API keeps one running there for the browser tests' session)."""
    errors = []

    def target() -> None:
        try:
            call()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def test_a_session_gone_for_the_grace_period_is_closed_emptied_and_its_memory_released(fake_runtime):
    state = _State()
    _leave_and_run(session_end._Watch("gone", state), lambda: fake_runtime.released)
    assert fake_runtime.closed == ["gone"]
    assert state.values == {}
    assert fake_runtime.released == [True]


def test_a_session_that_came_back_is_left_alone(fake_runtime):
    fake_runtime.active.add("back")
    state = _State()
    _leave_and_run(session_end._Watch("back", state), lambda: fake_runtime.checked)
    assert fake_runtime.checked == ["back"], "the hook looked"
    assert fake_runtime.closed == [] and state.values, "reconnected within the grace period: kept"


def test_a_session_that_left_again_is_closed_a_full_grace_period_after_its_last_departure(monkeypatch):
    from streamlit import runtime

    fake = _FakeRuntime(set())
    monkeypatch.setattr(runtime.Runtime, "exists", classmethod(lambda cls: True))
    monkeypatch.setattr(runtime.Runtime, "instance", classmethod(lambda cls: fake))
    monkeypatch.setattr(session_end, "_release_soon", lambda: None)
    watch = session_end._Watch("twice", _State())
    now = 1000.0                                          # a fixed clock, not the real one
    monkeypatch.setattr(session_end.time, "monotonic", lambda: now)
    session_end._DISCONNECTED["twice"] = now - 10.0       # left again 10 s ago: the call of the
    session_end._close_if_gone(watch, 30.0)               # first departure, 30 s old, is too early
    assert fake.closed == [] and "twice" in session_end._DISCONNECTED
    session_end._DISCONNECTED["twice"] = now - 30.0       # the call of the second departure
    session_end._close_if_gone(watch, 30.0)
    assert fake.closed == ["twice"] and "twice" not in session_end._DISCONNECTED


def test_a_release_outside_the_server_loop_does_nothing(fake_runtime):
    _in_a_fresh_thread(lambda: session_end._session_left(session_end._Watch("apptest", _State())))  # no loop there
    assert fake_runtime.closed == [] and "apptest" not in session_end._DISCONNECTED


def test_release_memory_runs_where_there_is_no_glibc(monkeypatch):
    monkeypatch.setattr(session_end, "_LIBC", False)
    session_end.release_memory()


def test_arrow_allocates_from_the_c_library_whose_free_pages_can_be_given_back():
    import pyarrow as pa

    assert pa.default_memory_pool().backend_name == "system"


_ARENA_TOP_PROBE = r"""
import ctypes, ctypes.util, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "fixed":
    import ui.session_end   # noqa: F401  (sets the allocator's thresholds on import)
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]

def resident_kb():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1])

size = 16 << 20
block = libc.malloc(20 << 20)              # a session's file bytes: mapped on their own, then
ctypes.memset(block, 1, 20 << 20)          # freed (glibc raises its thresholds past 16 MiB)
libc.free(block)
before = resident_kb()
column = libc.malloc(size)                 # a session's column, from the arena's top
ctypes.memset(column, 1, size)
libc.free(column)
print(resident_kb() - before < (size >> 10) // 4)
"""


@pytest.mark.skipif(session_end._libc() is None, reason="glibc's allocator only")
def test_a_freed_block_at_the_top_of_an_arena_goes_back_to_the_system(tmp_path):
    """A 16 MiB block freed at the top of an arena is no longer resident. With glibc's dynamic
    thresholds it stays once a larger block was freed (the probe prints False there: checked here
    too), and in a script thread's arena ``malloc_trim`` would not return it either;
    ui.session_end fixes the trim threshold."""
    import subprocess
    import sys

    probe = tmp_path / "probe.py"
    probe.write_text(_ARENA_TOP_PROBE)
    # glibc's own defaults: no tunables, and none of the MALLOC_* variables that another library
    # may have put into this process's environment (Dask's nanny sets MALLOC_TRIM_THRESHOLD_)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}, "GLIBC_TUNABLES": ""}

    def run(mode: str) -> str:
        return subprocess.run([sys.executable, str(probe), str(ROOT), mode], capture_output=True, text=True,
                              check=True, env=env, cwd=tmp_path, timeout=120).stdout.strip().splitlines()[-1]

    assert run("glibc default") == "False"
    assert run("fixed") == "True"


def test_the_memory_report_names_what_the_process_holds_only_when_asked(monkeypatch):
    """NBAPP_MEMORY_DEBUG=1 logs :func:`memory_report` after each release (a debugging aid)."""
    monkeypatch.delenv("NBAPP_MEMORY_DEBUG", raising=False)
    assert not session_end._debug_enabled()
    monkeypatch.setenv("NBAPP_MEMORY_DEBUG", "1")
    assert session_end._debug_enabled()
    frame = pd.DataFrame({"a": range(3)})  # noqa: F841  (one live frame, counted)
    report = session_end.memory_report()
    frames = int(report.split("DataFrames ")[1].split(",")[0])
    assert frames >= 1 and "cache_data" in report and "VmRSS" in report


def test_a_closed_session_tells_its_long_work_to_stop(fake_runtime):
    watch = session_end._Watch("gone", _State())
    assert not watch.closed.is_set()
    _leave_and_run(watch, lambda: fake_runtime.released)
    assert fake_runtime.closed == ["gone"] and watch.closed.is_set()


def test_a_session_that_came_back_lets_its_work_run_on(fake_runtime):
    fake_runtime.active.add("back")
    watch = session_end._Watch("back", _State())
    _leave_and_run(watch, lambda: fake_runtime.checked)
    assert not watch.closed.is_set()


def test_outside_a_script_run_there_is_no_session_to_stop_for():
    assert session_end.session_stop() is None


def test_a_local_path_is_read_with_its_sessions_stop(tmp_path, monkeypatch):
    import nbapp
    import ui.state
    from nbapp.scale import Stopped, fit_file

    (tmp_path / "a.csv").write_text("x,y\nq,a\nr,b\n")
    monkeypatch.setenv(ui.state.DATA_ROOT_VARIABLE, str(tmp_path))
    closed = threading.Event()
    monkeypatch.setattr(session_end, "session_stop", lambda: closed.is_set)
    sources = ui.state.path_sources("a.csv")
    assert sources.files == (str(tmp_path / "a.csv"),)
    closed.set()                                   # the session is closed before its fit runs
    with pytest.raises(Stopped):
        fit_file(nbapp.NaiveBayes({"x": "categorical"}), ui.state.path_sources(sources.files), "y")
