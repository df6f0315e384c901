"""Short seat codes: six characters that stand for a seat link, to type on another
device instead of following a link or scanning a code.

A code is made for a seat whose token the asker presents (the creator of a game between
devices has both). The server keeps the code with the game and the token **in memory
only**, for :data:`CODE_SECONDS`: never in its store, a log or a list, as the seat
links' tokens themselves. A code names the seat it was made for; typed on the main
page, it gives that seat's link back, whose token then claims the seat as the link
would.

Codes use :data:`ALPHABET`: capital letters and digits without the ones people confuse
(``0``/``O``, ``1``/``I``/``L``); what is typed is read in either case, with spaces and
dashes ignored. Six of them make 31**6 (about 887 million) codes; with guesses bounded
per address (:data:`TRIES_PER_MINUTE`) and on the whole server, however many addresses
guess (:data:`SERVER_TRIES_PER_MINUTE`: at most 1,800 guesses in a code's 30 minutes,
each finding one of a hundred live codes with odds of 1 in 8.9 million), finding a live
code by chance is out of reach.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field

from ..core import AdjacencyError, Color

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""The characters of a code: no 0, O, 1, I or L."""
LENGTH = 6
CODE_SECONDS = 30 * 60.0
"""How long a code stands for its seat (a code asked for again later is a fresh one)."""
MAX_CODES = 10_000
"""Codes kept at most: beyond it the oldest are forgotten first."""
TRIES_PER_MINUTE = 6.0
"""Codes an address may look up a minute (after a burst of :data:`TRIES_BURST`)."""
TRIES_BURST = 10
SERVER_TRIES_PER_MINUTE = 60.0
"""Codes all addresses together may look up a minute (after a burst of
:data:`SERVER_TRIES_BURST`): guessing from many addresses at once (81 a second were
unthrottled) is bounded too. A class typing its codes at once fits the burst; beyond
it look-ups wait (429), the seat links and their QR codes still work."""
SERVER_TRIES_BURST = 60


class BadCode(AdjacencyError):
    """Typed text that cannot be a code (its length or characters): bad input (400)."""


def normalize(text: str) -> str:
    """The code in ``text`` (upper case, spaces and dashes removed), or :class:`BadCode`
    saying what is allowed."""
    code = "".join(text.split()).replace("-", "").upper() if isinstance(text, str) else ""
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        raise BadCode(
            f"a seat code is {LENGTH} letters and digits (no 0, O, 1, I or L), got {text!r:.40}"
        )
    return code


@dataclass(frozen=True)
class SeatCode:
    """What a code stands for: a game's seat, its token, until when (monotonic)."""

    game: str
    color: Color
    token: str
    until: float


@dataclass
class SeatCodes:
    """The live codes of one server (thread-safe)."""

    seconds: float = CODE_SECONDS
    _codes: dict[str, SeatCode] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def make(
        self, game: str, color: Color, token: str, now: float | None = None
    ) -> tuple[str, float]:
        """A code for the seat ``color`` of ``game`` opened by ``token`` and when it
        expires (monotonic): the live one if the seat has one (asking again gives the
        same code), else a fresh one."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._forget(now)
            for code, seat in self._codes.items():
                if (seat.game, seat.color, seat.token) == (game, color, token):
                    return code, seat.until
            while True:
                code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
                if code not in self._codes:
                    break
            self._codes[code] = SeatCode(game, color, token, now + self.seconds)
            while len(self._codes) > MAX_CODES:
                del self._codes[next(iter(self._codes))]
            return code, now + self.seconds

    def find(self, code: str, now: float | None = None) -> SeatCode | None:
        """The seat of a live ``code`` (already normalized), or ``None``."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._forget(now)
            return self._codes.get(code)

    def _forget(self, now: float) -> None:
        for code in [c for c, seat in self._codes.items() if seat.until <= now]:
            del self._codes[code]
