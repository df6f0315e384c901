"""A free loopback port for a benchmark's own server: the one helper the benchmarks share
for it (this folder is on a benchmark's path, as for ``position_sets``)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port of 127.0.0.1 that no socket holds now. Another process may take it
    before the caller's server binds it; a server that says its own port (``--port 0``)
    needs none."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
