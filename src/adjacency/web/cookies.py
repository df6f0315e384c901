"""The browser's client cookie, made and signed by the server (:func:`issue`, :func:`read`).

A cookie is ``ID.ISSUED.MAC``: the client id (128 random bits, :func:`.seats.new_secret`),
the Unix second the server issued it, and an HMAC-SHA256 of both under the server's key
(kept in the games database, :meth:`.store.GameStore.secret`), so a client cannot
choose its id's age: what makes a puzzle player *long-lived* (:mod:`.puzzle_records`)
is a cookie the server issued long enough ago. A cookie that is not the server's
(another key, altered, any string the client picked) is not read: the browser gets a
new one. The client key kept in the games (its seats) is the SHA-256 of the id alone.

A cookie of the format before the signature (a bare id) is signed again with its id
kept and issued now: the browser keeps its games, and its age starts then.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

MAC_CHARS = 22
"""Characters of the signature kept (base64url: 132 bits)."""
MAX_COOKIE = 128
"""The longest cookie looked at."""


@dataclass(frozen=True)
class Signed:
    """A client cookie the server issued: its id and when (Unix seconds)."""

    id: str
    issued: int


def _mac(key: bytes, client_id: str, issued: int) -> str:
    digest = hmac.new(key, f"{client_id}.{issued}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:MAC_CHARS]


def issue(key: bytes, client_id: str, issued: int) -> str:
    """The cookie naming ``client_id`` issued at ``issued``, signed with ``key``."""
    return f"{client_id}.{issued}.{_mac(key, client_id, issued)}"


def read(key: bytes, text: str | None) -> Signed | None:
    """The id and issue time of ``text`` if the server signed it with ``key``, else
    ``None`` (compared in constant time)."""
    if text is None or len(text) > MAX_COOKIE or not text.isascii():
        return None
    parts = text.split(".")
    if len(parts) != 3 or not parts[0] or not parts[1].isdigit() or len(parts[1]) > 12:
        return None
    client_id, issued = parts[0], int(parts[1])
    if not hmac.compare_digest(parts[2], _mac(key, client_id, issued)):
        return None
    return Signed(client_id, issued)
