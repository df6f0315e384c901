"""The league's rows as plain data, its names and its tokens (stored only as hashes)."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass

from ...core.details import Detail, coded
from ...core.errors import AdjacencyError
from ...serving.errors import WebError
from . import names
from .names import MAX_NAME as MAX_NAME  # re-exported: the models' field bound

KINDS = ("bot", "house", "person")
"""Member kinds: a remote bot (token, ``adjacency connect``), a house bot (a spec the
server plays itself) and a person (a browser-held secret)."""
TOKEN_PREFIX = "adjl_"
MAX_CONCURRENCY = 16
REMOVED = 2
"""The ``revoked`` column's value for a removed member (0: active, 1: revoked)."""


class LeagueError(AdjacencyError):
    """Bad input to the league: a name, a member, settings that differ from the league's."""


def new_token() -> str:
    """A fresh secret: :data:`TOKEN_PREFIX` and 128 random bits (URL-safe base64)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """The SHA-256 hex digest stored in place of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_name(name: str) -> str:
    """``name`` if its form is allowed (:func:`.names.check_name`; members and events),
    else :class:`LeagueError`."""
    return names.check_name(name, LeagueError)


class NameTaken(WebError, LeagueError):
    """A new member's name that a member has already, or that cannot be told apart from
    one (:mod:`.names`): 409 over HTTP, status 2 on the command line."""

    status = 409


@dataclass(frozen=True)
class Member:
    """A league member as stored (the token's hash never leaves the store)."""

    id: int
    name: str
    kind: str
    spec: str | None
    revoked: bool
    concurrency: int
    removed: bool = False
    """Removed by the admin (``league remove``): revoked for good, token dropped, not
    listed in the standings; its stored games stay, under its name. Stored as
    :data:`REMOVED` in the ``revoked`` column, so no schema change was needed."""


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
    detail_code: str | None = None
    """The code of :attr:`detail` (``NULL``: words of no code, :mod:`adjacency.core.details`)."""
    detail_params: str | None = None
    """The code's params, a JSON object."""

    def end_detail(self) -> Detail:
        """How the game ended: its detail with its code and params (a row whose code
        does not read, written by hand, keeps its words)."""
        if self.detail_code is None:
            return Detail(self.detail)
        try:
            code, params = coded(self.detail_code, json.loads(self.detail_params or "{}"))
        except (ValueError, RecursionError):  # InvalidRecordError is a ValueError
            return Detail(self.detail)
        return Detail(self.detail, code, params)

    def points(self, member_id: int) -> float:
        """Points ``member_id`` scored in this finished game (1, 0.5, 0)."""
        if self.result == "draw" or self.result is None:
            return 0.5
        won = (self.result == "x") == (member_id == self.x_id)
        return 1.0 if won else 0.0


GAME_COLUMNS = (
    "id, pair_id, leg, x_id, o_id, opening, status, result, termination, detail, record, "
    "x_score, o_score, plies, x_time, o_time, started, ended, rated_seq, detail_code, "
    "detail_params"
)
LIGHT_COLUMNS = GAME_COLUMNS.replace("record,", "NULL,")
"""The columns of a listing: the records (a kilobyte each) are left out."""


def detail_row(detail: str | Detail) -> tuple[str, str | None, str | None]:
    """The ``games`` columns ``detail``, ``detail_code`` and ``detail_params`` (JSON) of
    a game's end (text alone: no code)."""
    if isinstance(detail, str):
        return detail, None, None
    if detail.code is None:
        return detail.text, None, None
    return detail.text, detail.code.value, json.dumps(dict(detail.params), ensure_ascii=False)
