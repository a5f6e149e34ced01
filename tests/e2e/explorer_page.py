"""What the explorer's browser tests share (issue 32, item 2): a count of the script runs the
browser asks the server for."""

from __future__ import annotations

from google.protobuf.message import DecodeError
from streamlit.proto.BackMsg_pb2 import BackMsg


class RunRequests:
    """Counts the script runs the page asks the server for: each ``rerun_script`` BackMsg the
    browser sends over Streamlit's websocket (read with the installed streamlit's own protobuf),
    a whole page's or a fragment's. Made before the page opens its websocket (before ``goto``).
    The page's DOM is no witness: a short run can start and end between two of its renders."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0
        page.on("websocket", lambda socket: socket.on("framesent", self._sent))

    def _sent(self, payload) -> None:
        if not isinstance(payload, (bytes, bytearray)):
            return
        message = BackMsg()
        try:
            message.ParseFromString(bytes(payload))
        except DecodeError:
            return
        if message.WhichOneof("type") == "rerun_script":
            self.count += 1

    def reset(self) -> None:
        self.count = 0

    def wait_for(self, runs: int, *, seconds: float = 15.0) -> None:
        """Until at least ``runs`` runs were asked for since the last reset (or fail)."""
        for _ in range(int(seconds * 10)):
            if self.count >= runs:
                return
            self.page.wait_for_timeout(100)
        assert self.count >= runs, f"{self.count} script runs asked for in {seconds} s, expected {runs}"
