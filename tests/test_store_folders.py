"""The upload store's folder after its process dies (issue 31, item 9): a kill -9 or the
out-of-memory killer leaves the folder behind; the next store made in the same place removes
it, and never the folder of a process that still runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A store made in a child process: it prints its folder, then waits for stdin (a live server),
# or kills itself with SIGKILL (a server killed by kill -9 or the OOM killer: no clean-up runs).
_CHILD = """
import os, signal, sys
from ui.remember import FileStore
store = FileStore(folder=sys.argv[1])
store.keep("a" * 64, b"kept bytes")
print(store.folder, flush=True)
if sys.argv[2] == "die":
    os.kill(os.getpid(), signal.SIGKILL)
sys.stdin.read()
"""


def _store_in_child(folder: Path, fate: str) -> tuple[subprocess.Popen, str]:
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(folder), fate], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return child, child.stdout.readline().strip()


def test_a_new_store_removes_the_folder_of_a_killed_server_and_keeps_a_live_servers(tmp_path):
    from ui.remember import FileStore

    live, live_folder = _store_in_child(tmp_path, "live")
    try:
        killed, killed_folder = _store_in_child(tmp_path, "die")
        assert killed.wait(timeout=60) == -signal.SIGKILL
        assert os.path.isdir(killed_folder) and os.path.isdir(live_folder)
        other = tmp_path / "not_a_store"
        other.mkdir()
        store = FileStore(folder=str(tmp_path))
        assert not os.path.exists(killed_folder), "the killed server's folder is removed at the next start"
        assert os.listdir(live_folder) and os.path.isdir(live_folder), "a live server's folder is never touched"
        assert other.is_dir()
        assert sorted(os.listdir(tmp_path)) == sorted([os.path.basename(live_folder), os.path.basename(store.folder),
                                                       "not_a_store"])
        store.close()
    finally:
        live.stdin.close()
        live.wait(timeout=60)


def test_a_store_folder_without_an_owner_file_is_left_alone_however_old(tmp_path):
    from ui.remember import STORE_PREFIX, remove_stale_stores

    unowned = tmp_path / (STORE_PREFIX + "older_version")   # being born, or a running store of an older version
    unowned.mkdir()
    os.utime(unowned, (0, 0))
    assert remove_stale_stores(str(tmp_path)) == []
    assert unowned.is_dir()


def test_a_link_named_like_a_store_is_not_followed(tmp_path):
    from ui.remember import OWNER_FILE, STORE_PREFIX, remove_stale_stores

    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / OWNER_FILE).write_text("1\n")          # unlocked: it would be removed, were links followed
    (tmp_path / (STORE_PREFIX + "link")).symlink_to(target)
    assert remove_stale_stores(str(tmp_path)) == []
    assert (target / OWNER_FILE).exists()


def test_a_closed_store_removes_its_folder_and_lets_go_of_its_owner_lock(tmp_path):
    from ui.remember import OWNER_FILE, FileStore

    store = FileStore(folder=str(tmp_path))
    with open(os.path.join(store.folder, OWNER_FILE)) as owner:
        assert owner.read().strip() == str(os.getpid())
    store.close()
    assert os.listdir(tmp_path) == []
