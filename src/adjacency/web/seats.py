"""Who may act in a game: browsers (clients), seats and the secret tokens that claim them.

Security model (see docs/web.md, "Security model"):

* Every browser gets a **client id**, 128 random bits in an HttpOnly,
  SameSite=Strict cookie (:data:`CLIENT_COOKIE`), signed by the server with the
  time it issued it (:mod:`.cookies`). The server keeps only the id's SHA-256 (the
  *client key*), so the games table reveals no cookie.
* A game records its **owner** (the client that created it) and, per colour
  played by a person, the **seat holders** (client keys) and the SHA-256 of the
  seat's **token** (128 random bits). A local game's creator holds its seats;
  an invitation's tokens are shown once, to its creator, as seat links.
* A seat is claimed by presenting its token (``X-Seat-Token`` header) once; the
  claiming client then holds the seat, so a reload, another tab or a dropped
  connection resumes the game. A request for a seat the client does not hold
  and whose token it does not present is refused with 403.
* Checking (:meth:`Seats.holds`) never changes the seats; only
  :meth:`Seats.claim` adds a holder, and the game claims only for a request
  that succeeds (``/me``, ``/seats``, an accepted move), so a refused request
  changes nothing. A seat keeps its :data:`MAX_HOLDERS` most recent browsers.
* Tokens travel in a header or the URL fragment of a seat link, which the
  browser never sends: they never reach a server log, a list, a record or an
  event.
* Games stored before seats existed (no owner) stay open to every client.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..core import COLORS, Color
from ..serving.errors import Forbidden

CLIENT_COOKIE = "adjacency_client"
"""The cookie holding a browser's client id."""
SEAT_HEADER = "X-Seat-Token"
"""The request header presenting a seat token."""
TOKEN_BYTES = 16
"""Random bytes of a client id or a seat token (128 bits)."""
MAX_HOLDERS = 8
"""Browsers a seat keeps at most: a new claim beyond them drops the longest-held one
(phone, laptop, a few browsers; the stored row stays small however often a token
is presented)."""


def new_secret() -> str:
    """A fresh client id or seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(secret: str) -> str:
    """The SHA-256 (hex) the server stores instead of ``secret``."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def plausible_secret(text: str | None) -> bool:
    """Whether ``text`` has the shape of a client id or seat token (no other is looked at)."""
    return text is not None and 16 <= len(text) <= 64 and text.isascii()


@dataclass(frozen=True)
class Caller:
    """Who sends a request: the client key of its cookie, a seat token it presents, and
    when the server issued its cookie (Unix seconds; ``None`` for a caller made
    without one)."""

    client: str
    token: str | None = None
    since: int | None = None


@dataclass
class Seats:
    """A game's owner, seat holders and seat-token digests (stored in the game's meta)."""

    owner: str | None = None
    holders: dict[str, list[str]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    invite: bool = False

    @property
    def open(self) -> bool:
        """A game from before seats existed: every client may act."""
        return self.owner is None

    def holds(self, caller: Caller, color: Color) -> bool:
        """Whether ``caller`` may act for ``color``: it holds the seat, or presents its
        token (nothing changes; :meth:`claim` records a holder)."""
        if self.open or caller.client in self.holders.get(color, []):
            return True
        return self.token_seat(caller.token) == color

    def token_seat(self, token: str | None) -> Color | None:
        """The colour whose seat ``token`` opens, or ``None``."""
        if not plausible_secret(token):
            return None
        assert token is not None
        presented = digest(token)
        for color in COLORS:
            expected = self.tokens.get(color)
            if expected is not None and hmac.compare_digest(presented, expected):
                return color
        return None

    def claim(self, caller: Caller) -> bool:
        """Record ``caller`` as a holder of the seat its token opens (the most recent;
        at most :data:`MAX_HOLDERS` per seat). ``True`` if the seats changed."""
        color = self.token_seat(caller.token)
        if color is None or self.open:
            return False
        held = self.holders.setdefault(color, [])
        if held and held[-1] == caller.client:
            return False
        if caller.client in held:
            held.remove(caller.client)
        held.append(caller.client)
        del held[:-MAX_HOLDERS]
        return True

    def seats_of(self, caller: Caller) -> list[Color]:
        """The colours ``caller`` may act for (held, or opened by its token)."""
        return [color for color in COLORS if self.holds(caller, color)]

    def require(self, caller: Caller, color: Color, action: str) -> None:
        """Raise :class:`Forbidden` (403) unless ``caller`` holds the seat of ``color``."""
        if not self.holds(caller, color):
            raise Forbidden(
                f"only the player holding the {color.upper()} seat may {action}; "
                "open your seat link to claim it (watchers cannot play)"
            )

    def require_member(self, caller: Caller, action: str) -> None:
        """Raise :class:`Forbidden` unless ``caller`` owns the game or holds a seat."""
        if self.open or caller.client == self.owner or self.seats_of(caller):
            return
        raise Forbidden(f"only the game's creator or its players may {action}")

    def knows(self, caller: Caller) -> bool:
        """Whether the game belongs in ``caller``'s game list."""
        return self.open or caller.client == self.owner or bool(self.seats_of(caller))

    def to_dict(self) -> dict[str, Any]:
        """The seats as stored in the game's meta (read back by :meth:`from_dict`)."""
        return {
            "owner": self.owner,
            "holders": self.holders,
            "tokens": self.tokens,
            "invite": self.invite,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Seats:
        """Seats from stored meta; anything else (older games) gives open seats."""
        if not isinstance(data, dict) or not isinstance(data.get("owner"), str):
            return cls()
        holders = data.get("holders") or {}
        tokens = data.get("tokens") or {}
        return cls(
            data["owner"],
            {
                c: [str(k) for k in holders.get(c, [])][-MAX_HOLDERS:]
                for c in ("x", "o")
                if c in holders
            },
            {c: str(tokens[c]) for c in ("x", "o") if c in tokens},
            bool(data.get("invite", False)),
        )


def new_seats(
    owner: Caller, humans: list[Color], invite: bool = False
) -> tuple[Seats, dict[Color, str]]:
    """Seats for a new game and the tokens of its human seats (to show the creator once).

    The creator holds every human seat of a local game and none of an invitation
    (it claims its own seat with its link, like the friend).
    """
    tokens: dict[Color, str] = {c: new_secret() for c in humans}
    seats = Seats(
        owner=owner.client,
        holders={} if invite else {c: [owner.client] for c in humans},
        tokens={c: digest(t) for c, t in tokens.items()},
        invite=invite,
    )
    return seats, tokens
