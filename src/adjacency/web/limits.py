"""The server's caps: what one request or one client may ask of the machine.

Each value is a bound a page never needs to reach in normal play, chosen so a
few hostile or careless requests cannot take the memory or the CPU of a small
machine (two cores, a few GB). Over a cap the API answers 400 (a setting out
of range) or 429 (too much at once: try again later), and the page stays
responsive because no request waits for a slot. The slots are counted here too:
:class:`BotSlots` for the games' bots, :class:`Slots` for the analyses and the lab's
searches (taken by the analysis router and the lab alike).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from ..serving.errors import TooMany
from .analysis import SOLVE_SECONDS
from .timers import SCHEDULER

LAB_SECONDS = 15.0
"""The default of :attr:`Limits.lab_seconds`: the lab's longest view (iterative deepening,
6 s for the classic search and 6 s for the engine) fits."""


@dataclass
class Limits:
    """Per-server caps (defaults suit a 2-core machine; tests and load runs change them)."""

    bot_games: int = 8
    """Games whose bots may run at once (:class:`BotSlots`): a new bot game beyond it is
    429; a reopened game beyond it waits for a free slot."""
    hints: int = 2
    """Hints computed at once over all games (each holds a server thread and a bot up to
    3 s; the manager's hint pool keeps this many bots per spec, so no admitted hint
    waits for a bot: one more is 429 at once)."""
    analyses: int = 2
    """Live analyses and game reviews running at once (each keeps one core busy)."""
    analyses_per_client: int = 1
    """Live analyses and reviews one client address may run at once."""
    lab_per_client: int = 1
    """Lab searches one client address may run at once."""
    lab_seconds: float = LAB_SECONDS
    """Wall seconds a lab search may run before it is stopped and answered as it stands
    (marked incomplete): one core at most, so its CPU time is bounded too."""
    solve_seconds: float = SOLVE_SECONDS
    """The live analysis's budget for the exact result (tests on a loaded machine raise
    it, since they check the result, not the speed)."""
    hints_per_game: int = 1
    """Hints pending for one game (a second click while one is computed: 429)."""
    creates_per_minute: float = 30.0
    """New games (create, import, rematch) per client address per minute."""
    moves_per_minute: float = 240.0
    """Moves and other game commands per client address per minute."""
    burst: int = 20
    """Requests of one kind a client may make at once before the rate applies."""
    puzzle_tries_per_minute: float = 60.0
    """Puzzle moves, hints and give-ups per browser (its client cookie) per minute, on
    every address: a person thinks before each; a script guessing moves gets 429."""
    puzzle_burst: int = 30
    """Puzzle tries a browser may make at once before that rate applies."""
    puzzle_player_age: float = 86400.0
    """Seconds since the server issued a browser's cookie before its puzzle attempts move
    ratings (a *long-lived* player; a cookie costs nothing, so a fresh one is not
    trusted with the puzzles' ratings; tests turn it to 0)."""
    puzzle_ratings_per_hour: float = 12.0
    """Rating changes one puzzle may take per hour (after a burst of as many): a crowd of
    players, however made, moves a puzzle's rating by at most this many games an hour;
    first attempts beyond it are recorded unrated."""
    limit_loopback: bool = False
    """Whether the rates apply to clients on this machine too (off: the machine's own
    user is not throttled; tests and load runs turn it on)."""


class BotSlots:
    """The server's cap on games whose bots run at once: one slot per running bot worker.

    Contract (thread-safe; a reusable piece: the web's games and the league share it):

    * :meth:`take` gives ``key`` (a game) a slot if one is free, or if it holds one
      already, and answers ``True``; otherwise it queues ``retry`` and answers
      ``False``. However a bot is (re)started (a new game, a page reopening it, a
      resume), it runs only with a slot, so the cap holds for running bots, not
      only at creation.
    * :meth:`give` returns ``key``'s slot (a no-op if it holds none) and has every
      queued ``retry`` called on the timer thread (:mod:`.timers`), so a waiting
      game can take it; :meth:`give` may be called with a game's lock held.
    * ``retry`` callbacks may take their game's lock and call :meth:`take` again;
      the slots' own lock is always taken last, never held while calling out.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._holders: set[str] = set()
        self._waiting: dict[str, Callable[[], None]] = {}
        self._lock = threading.Lock()

    def take(self, key: str, retry: Callable[[], None]) -> bool:
        """A slot for ``key`` (``True``), or ``False`` with ``retry`` queued."""
        with self._lock:
            if key in self._holders:
                return True
            if len(self._holders) < self.cap:
                self._holders.add(key)
                self._waiting.pop(key, None)
                return True
            self._waiting[key] = retry
            return False

    def give(self, key: str) -> None:
        """Return ``key``'s slot (if it holds one) and let the waiting games try again."""
        with self._lock:
            if key not in self._holders:
                self._waiting.pop(key, None)
                return
            self._holders.discard(key)
            waiting, self._waiting = list(self._waiting.values()), {}
        for retry in waiting:
            SCHEDULER.call_later(0.0, retry)

    def busy(self) -> int:
        """Slots held now."""
        with self._lock:
            return len(self._holders)

    def full(self) -> bool:
        """Whether no slot is free."""
        with self._lock:
            return len(self._holders) >= self.cap


class Slots:
    """A count of running analyses with a cap for the server and one per client (thread-safe).

    The server's cap keeps the machine's cores for the games; the client's keeps one page
    (or one address's scripts) from taking every slot, so a second visitor still gets one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running = 0
        self._by_client: dict[str, int] = {}

    def take(
        self, cap: int, what: str = "analyses", client: str | None = None, per_client: int = 1
    ) -> None:
        """Take a slot; :class:`TooMany` (HTTP 429) if ``cap`` of them (``what``: analyses,
        lab searches) are running already, or ``per_client`` of them for ``client`` (an
        address; ``None``: not limited per client, the machine's own user)."""
        with self._lock:
            if self.running >= cap:
                raise TooMany(
                    f"{self.running} {what} are running on this server, its limit; "
                    "stop one or try again shortly"
                )
            mine = self._by_client.get(client, 0) if client is not None else 0
            if client is not None and mine >= per_client:
                raise TooMany(
                    f"your address already runs {mine} {what}, the most one client may run "
                    "at once; wait for it or stop it"
                )
            self.running += 1
            if client is not None:
                self._by_client[client] = mine + 1

    def give(self, client: str | None = None) -> None:
        """Give back a slot taken by :meth:`take` (for the same ``client``)."""
        with self._lock:
            self.running -= 1
            if client is not None:
                left = self._by_client.pop(client, 1) - 1
                if left > 0:
                    self._by_client[client] = left
