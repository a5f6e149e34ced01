"""A real PostgreSQL server for the tests: Debian's binaries (``apt-get install postgresql``,
which scripts/test.sh does when they are missing), a cluster made by ``initdb`` in a temporary
folder, started by ``pg_ctl`` on a free port of 127.0.0.1, stopped and deleted at the end.

PostgreSQL refuses to run as root, and CI runs as root: the server then runs as the
unprivileged user ``nobody``, which owns the cluster's folder (``subprocess``'s ``user=``).
Anyone else runs it as themselves. Authentication is ``trust`` for the one local user
``nbapp``; the server listens on 127.0.0.1 only and its socket lives in the same folder.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

USER = "nbapp"
DATABASE = "nbapp"


@dataclass(frozen=True)
class Server:
    url: str
    folder: Path


def binaries() -> Path:
    """The folder of initdb / pg_ctl: the newest /usr/lib/postgresql/*/bin, else the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError("PostgreSQL's initdb is not installed; scripts/test.sh installs Debian's postgresql "
                       "(apt-get install postgresql).")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_server_user() -> dict:
    """subprocess arguments that run a command as the server's user (nobody when we are root)."""
    if os.geteuid() != 0:
        return {}
    return {"user": "nobody", "group": "nogroup", "extra_groups": []}


def start() -> Server:
    """initdb + pg_ctl start; the database ``nbapp`` exists and accepts ``nbapp`` without a password."""
    bin_dir = binaries()
    folder = Path(tempfile.mkdtemp(prefix="nbapp-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody", "nogroup")
    run = _as_server_user()
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "TZ": "UTC"}
    subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "--encoding=UTF8",
                    "--no-sync"], check=True, capture_output=True, env=env, cwd=folder, **run)
    port = _free_port()
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c full_page_writes=off"
    subprocess.run([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"), "-o", options,
                    "-w", "-t", "120", "start"], check=True, capture_output=True, env=env, cwd=folder, **run)
    subprocess.run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", USER, DATABASE],
                   check=True, capture_output=True, env=env, cwd=folder, **run)
    return Server(f"postgresql://{USER}@127.0.0.1:{port}/{DATABASE}", folder)


def stop(server: Server) -> None:
    subprocess.run([str(binaries() / "pg_ctl"), "-D", str(server.folder / "data"), "-m", "immediate", "-w", "stop"],
                   capture_output=True, cwd=server.folder, **_as_server_user())
    shutil.rmtree(server.folder, ignore_errors=True)
