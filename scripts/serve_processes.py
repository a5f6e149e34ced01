"""Several app processes behind HAProxy, for a class (issue 32, item 5).

    bash scripts/run_app.sh --processes 2 [--port 8501] [--address 0.0.0.0] [streamlit options]

One Streamlit server process runs a page at a time per core's worth of work (Python's
interpreter lock); a class of sixty clicking at once queues behind it. This starts N processes of
`streamlit run app.py` on 127.0.0.1 (ports --first-port, +1, ...) and Debian's HAProxy in front on
--address:--port, which keeps each browser on one process with a cookie (NBAPP_PROCESS) it
inserts, so a session's uploads and its websocket reach the process that holds the session.
What the processes share:

- the folder of kept files (NBAPP_FILE_STORE_DIR, a folder of this run unless set): each process
  keeps its own store in it and reads the others', so a link or a reload opens the same work on
  any process (ui.remember.FileStore);
- one cookie secret (server.cookieSecret), so the XSRF token one process issued is good on the
  others.

It runs until stopped (Ctrl-C or SIGTERM), then stops the proxy and the processes. The proxy's
configuration is written to the run's folder; HAProxy checks each process's /_stcore/health.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
COOKIE = "NBAPP_PROCESS"


def haproxy_config(address: str, port: int, backends: list[int]) -> str:
    """The proxy: HTTP mode (websocket upgrades pass through), sticky by an inserted cookie, long
    tunnels for the websockets, each process checked by its health endpoint."""
    servers = "\n".join(f"    server p{i + 1} 127.0.0.1:{p} check cookie p{i + 1}" for i, p in enumerate(backends))
    return f"""global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout http-request 30s

frontend nbapp
    bind {address}:{port}
    default_backend processes

backend processes
    balance leastconn
    cookie {COOKIE} insert indirect nocache httponly
    option httpchk GET /_stcore/health
{servers}
"""


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{url}: the process exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{url} did not answer within {timeout:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="N app processes behind HAProxy (see the module docstring).")
    parser.add_argument("--processes", type=int, required=True)
    parser.add_argument("--port", type=int, default=8501, help="the proxy's port (what the class opens)")
    parser.add_argument("--address", default="127.0.0.1", help="the proxy's address (0.0.0.0: the network)")
    parser.add_argument("--first-port", type=int, default=8601, help="the first process's port on 127.0.0.1")
    parser.add_argument("--ports", help="the processes' ports, comma-separated (instead of --first-port's run)")
    args, streamlit_options = parser.parse_known_args(argv)
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    if not os.path.exists(HAPROXY):
        raise SystemExit("HAProxy is missing: apt-get install haproxy (scripts/run_app.sh installs it).")
    run = Path(tempfile.mkdtemp(prefix="nbapp_processes_"))
    store = os.environ.get("NBAPP_FILE_STORE_DIR") or str(run / "kept")
    os.makedirs(store, mode=0o700, exist_ok=True)
    # Streamlit takes the cookie secret from its environment, not from the command line
    env = {**os.environ, "NBAPP_FILE_STORE_DIR": store, "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)}
    ports = ([int(p) for p in args.ports.split(",")] if args.ports else
             [args.first_port + i for i in range(args.processes)])
    if len(ports) != args.processes:
        parser.error(f"--ports names {len(ports)} ports for {args.processes} processes")
    children: list[subprocess.Popen] = []

    def stop(*_: object) -> None:
        for child in reversed(children):
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(run, ignore_errors=True)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        for port in ports:
            children.append(subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app.py", *streamlit_options, "--server.address=127.0.0.1",
                 f"--server.port={port}", "--server.headless=true"],
                cwd=ROOT, env=env))
        for port, child in zip(ports, children):
            wait_healthy(f"http://127.0.0.1:{port}", child)
        config = run / "haproxy.cfg"
        config.write_text(haproxy_config(args.address, args.port, ports))
        proxy = subprocess.Popen([HAPROXY, "-f", str(config), "-db"])
        children.append(proxy)
        print(f"nbapp: {args.processes} processes (127.0.0.1:{ports[0]}-{ports[-1]}) behind HAProxy at "
              f"http://{args.address}:{args.port}; kept files in {store}", flush=True)
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        return 1                      # a process or the proxy ended by itself
    except KeyboardInterrupt:
        return 0
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
