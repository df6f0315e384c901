"""Network helpers shared by the tests that start real servers.

A test owns every port it uses, so on a machine shared with other test runs it never
talks to someone else's server. A port is never picked, closed and then handed to a
server to bind again (another process may take it in between); instead:

- a server in this process is handed a socket the test bound on port 0 (uvicorn's
  ``sockets=``, :func:`web_helpers.uvicorn_thread`);
- a server in a child process binds port 0 itself and the test learns the port from the
  line the server prints once it listens (:func:`announced_url`, ``... ready at URL``);
- where the port must be known before the program starts (a server restarted on the
  same port, Caddy's configuration, ``make play PORT=...``), or where a test needs an
  address where nothing listens, the test holds the port (:func:`reserved_port`).
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager

READY = re.compile(r"ready at (https?://\S+?)/?(?:\s|$)", re.M)
"""The line both servers (``adjacency play``, ``adjacency league serve``) print once they
listen: ``... ready at http://127.0.0.1:PORT/  (Ctrl-C stops it)``."""


def announced_url(text: str) -> str:
    """The base address (no final slash) that a server's output ``text`` announced last
    in its ``ready at`` line; ``AssertionError`` showing the output if there is none."""
    found = READY.findall(text)
    assert found, f"no 'ready at' line in the server's output:\n{text[-3000:]}"
    return str(found[-1])


def announced_port(text: str) -> int:
    """The port of :func:`announced_url`."""
    return int(announced_url(text).rsplit(":", 1)[1])


@contextmanager
def reserved_port(host: str = "127.0.0.1") -> Iterator[int]:
    """A port of ``host`` that this test holds while the context lasts: a socket bound
    to it with ``SO_REUSEADDR`` that never listens.

    Nothing listens there until the test's own program does, so a connection is refused
    meanwhile (also between a server's stop and its restart on the same port). Linux
    lets a program listen there only if it binds with ``SO_REUSEADDR`` too, as
    :func:`adjacency.serving.binding.bind`, uvicorn and Go's listeners (Caddy) do; it
    never hands the port to a program binding port 0, and refuses it to one binding
    without ``SO_REUSEADDR``. So no other test run can take the port, unlike a port
    found free, closed and bound again later.
    """
    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind((host, 0))
        yield int(held.getsockname()[1])
