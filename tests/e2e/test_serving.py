"""Issue 21 in a real browser and on the socket table: the app started as scripts/run_app.sh starts
it listens on this machine only, and its Data page does not offer "Open a local path" (no
NBAPP_DATA_ROOT: a visitor reaches their own uploads and the built-in examples, nothing else)."""

from __future__ import annotations

import ipaddress
import shlex
import socket
import sys
from pathlib import Path
from typing import Iterator

import pytest
from e2e.conftest import QUIET, ROOT, App, serve
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def run_app_command() -> list[str]:
    """The streamlit command line of scripts/run_app.sh (its `exec` line), with this interpreter
    for the project's .venv/bin/python and no arguments of ours in place of its "$@"."""
    line = next(l for l in (ROOT / "scripts" / "run_app.sh").read_text().splitlines() if l.startswith("exec "))
    words = shlex.split(line)[1:]
    assert words[0] == ".venv/bin/python" and words[-1] == "$@", line
    return [sys.executable, *words[1:-1]]


@pytest.fixture(scope="module")
def default_url() -> Iterator[str]:
    with serve([*run_app_command(), *QUIET], log_name="streamlit-default.log") as url:
        yield url


def _listening(port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """The local addresses with a socket listening on ``port`` (Linux's /proc/net/tcp and tcp6)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state != "0A" or int(hex_port, 16) != port:      # 0A: LISTEN
                continue
            raw = bytes.fromhex(address)
            # the kernel writes each 32-bit word in host (little-endian) order
            words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            found.append(ipaddress.ip_address(words))
    return found


def _other_addresses() -> set[str]:
    """This machine's addresses that are not loopback (those a classroom would reach)."""
    found = set()
    for info in socket.getaddrinfo(socket.gethostname(), None):
        found.add(info[4][0])
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))         # no packet is sent: this only picks the outgoing interface
        found.add(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    return {a for a in found if not ipaddress.ip_address(a.split("%")[0]).is_loopback}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's socket table")
def test_the_app_started_as_run_app_sh_starts_it_listens_on_loopback_only(default_url):
    port = int(default_url.rsplit(":", 1)[1])
    listening = _listening(port)
    assert listening, f"nothing listens on port {port}"
    for address in listening:
        mapped = getattr(address, "ipv4_mapped", None)
        assert (mapped or address).is_loopback, f"listening on {address} (every interface or a network one)"
    for other in _other_addresses():
        with socket.socket(socket.AF_INET6 if ":" in other else socket.AF_INET) as s:
            s.settimeout(2)
            assert s.connect_ex((other, port)) != 0, f"the app answers on the network address {other}"


def test_the_default_data_page_does_not_offer_local_paths(page, default_url):
    app = App(page, default_url)
    app.goto()
    radio = page.get_by_test_id("stRadio").first
    expect(radio.get_by_text("Upload a file")).to_be_visible()
    expect(page.get_by_text("Open a local path")).to_have_count(0)
    expect(page.get_by_text("NBAPP_DATA_ROOT", exact=False)).to_be_visible()
