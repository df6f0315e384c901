"""A connection's outgoing side: messages to one member go out in order, through one task.

Contract: :meth:`Outbox.post` never blocks and never raises; a client that stops
reading (more than :data:`OUTBOX` messages queued) is disconnected rather than
buffered without bound, and its games go on (its clock runs). After
:meth:`Outbox.close`, messages already queued still go out and later ones are
dropped; the reader of the connection waits for :attr:`Outbox.task` before
closing the socket, so a last error or game end reaches the client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from .store import Member

OUTBOX = 64
"""Messages queued for one connection at most; a client that stops reading past this
is disconnected (its games go on; its clock runs)."""


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
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX)
        self.closed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._write())

    def post(self, message: dict[str, Any]) -> None:
        """Queue a message; a full queue (the client stopped reading) closes the outbox."""
        if self.closed.is_set():
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Stop sending: messages already queued still go out, later ones are dropped
        (:meth:`post` ignores them). Idempotent."""
        if not self.closed.is_set():
            self.closed.set()
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

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
