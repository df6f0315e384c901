"""A connection's outgoing side: messages to one member go out in order, through one task.

Contract: :meth:`Outbox.post` never blocks and never raises. After
:meth:`Outbox.close`, messages already queued still go out and later ones are
dropped; the reader of the connection waits for :attr:`Outbox.task` (at most
:data:`DRAIN` seconds) before closing the socket, so a last error or game end reaches
the client. A client that does not read its messages (more than :data:`OUTBOX`
queued, for example a burst of pings answered faster than it reads the pongs) is
disconnected at once rather than buffered without bound: the queued messages are
dropped, the writer task ends and :attr:`Outbox.overflowed` tells the reader to close
the socket with :data:`OVERFLOW_CODE`; its games go on (its clock runs).

The writer always ends: the end marker has a place of its own in the queue (so
:meth:`Outbox.close` never fails to queue it), and an overflow cancels the writer outright.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..league_file import Member

OUTBOX = 64
"""Messages queued for one connection at most; a client that stops reading past this
is disconnected (its games go on; its clock runs)."""
OVERFLOW_CODE = 1008
"""The WebSocket close code of a connection whose client did not read its messages."""
OVERFLOW_REASON = f"more than {OUTBOX} messages unread: read what the server sends"
DRAIN = 5.0
"""Seconds the messages queued before a close may take to go out; a client that reads
none of them meanwhile is cut off."""


class Outbox:
    """A connection's side of the hall: messages go out in order through one writer task."""

    def __init__(
        self, member: Member, send: Callable[[dict[str, Any]], Any], token_hash: str = ""
    ) -> None:
        self.member = member
        self.token_hash = token_hash
        """The hash of the token this connection authenticated with ("" for none): a token
        revoked or replaced later (``adjacency league revoke|rotate``) closes it."""
        self._send = send
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX + 1)
        self.closed = asyncio.Event()
        self.overflowed = False
        """Whether the outbox closed because the client did not read (:data:`OVERFLOW_CODE`)."""
        self.leaving = False
        """Whether the client said it is leaving (``leaving``): the hall starts no new
        ladder game or challenge for it; its games in play and its events' go on."""
        self.task = asyncio.get_running_loop().create_task(self._write())

    def post(self, message: dict[str, Any]) -> None:
        """Queue a message; a full queue (the client does not read) closes the outbox at
        once, dropping what is queued (:attr:`overflowed`)."""
        if self.closed.is_set():
            return
        if self.queue.qsize() >= OUTBOX:
            self.overflowed = True
            self.closed.set()
            self.task.cancel()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        """Stop sending: messages already queued still go out, later ones are dropped
        (:meth:`post` ignores them). Idempotent."""
        if not self.closed.is_set():
            self.closed.set()
            self.queue.put_nowait(None)  # the place kept for it (OUTBOX + 1) is free

    async def drained(self) -> None:
        """Wait until the writer has ended: the queued messages sent (at most :data:`DRAIN`
        seconds, then the rest are dropped) or dropped by an overflow."""
        if not self.task.done():
            done, _ = await asyncio.wait({self.task}, timeout=DRAIN)
            if not done:
                self.task.cancel()

    async def _write(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            try:
                await self._send(message)
            except Exception:  # the socket went away: the reader notices and detaches
                self.close()
                return
