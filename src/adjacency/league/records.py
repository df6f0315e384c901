"""The league's rows as plain data, its names and its tokens (stored only as hashes)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from ..core.errors import AdjacencyError
from ..core.text import quote

KINDS = ("bot", "house", "person")
"""Member kinds: a remote bot (token, ``adjacency connect``), a house bot (a spec the
server plays itself) and a person (a browser-held secret)."""
MAX_NAME = 32
"""The longest member name."""
TOKEN_PREFIX = "adjl_"
MAX_CONCURRENCY = 16


class LeagueError(AdjacencyError):
    """Bad input to the league: a name, a member, settings that differ from the league's."""


def new_token() -> str:
    """A fresh secret: :data:`TOKEN_PREFIX` and 128 random bits (URL-safe base64)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """The SHA-256 hex digest stored in place of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_name(name: str) -> str:
    """A member name: 1 to :data:`MAX_NAME` printable ASCII letters, digits, ``-_.``
    (no spaces, so names stay unambiguous on the command line and in records)."""
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    if not 1 <= len(name) <= MAX_NAME or not set(name) <= allowed:
        raise LeagueError(
            f"member name {quote(name)} is not allowed: 1 to {MAX_NAME} characters from "
            "A-Z a-z 0-9 - _ ."
        )
    return name


@dataclass(frozen=True)
class Member:
    """A league member as stored (the token's hash never leaves the store)."""

    id: int
    name: str
    kind: str
    spec: str | None
    revoked: bool
    concurrency: int


@dataclass(frozen=True)
class StoredGame:
    """One row of ``games``."""

    id: int
    pair_id: int | None
    leg: int
    x_id: int
    o_id: int
    opening: str
    status: str
    result: str | None
    termination: str | None
    detail: str
    record: str | None
    x_score: int | None
    o_score: int | None
    plies: int
    x_time: float
    o_time: float
    started: float
    ended: float | None
    rated_seq: int | None

    def points(self, member_id: int) -> float:
        """Points ``member_id`` scored in this finished game (1, 0.5, 0)."""
        if self.result == "draw" or self.result is None:
            return 0.5
        won = (self.result == "x") == (member_id == self.x_id)
        return 1.0 if won else 0.0


GAME_COLUMNS = (
    "id, pair_id, leg, x_id, o_id, opening, status, result, termination, detail, record, "
    "x_score, o_score, plies, x_time, o_time, started, ended, rated_seq"
)
LIGHT_COLUMNS = GAME_COLUMNS.replace("record,", "NULL,")
"""The columns of a listing: the records (a kilobyte each) are left out."""
