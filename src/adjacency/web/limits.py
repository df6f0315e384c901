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

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from ..serving.cpu_budget import CpuBudget
from ..serving.errors import TooMany
from ..serving.room import HoldLimits
from .analysis import SOLVE_SECONDS
from .table_budget import machine_tables_mb
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
    bot_games_per_client: int = 2
    """Bot slots the games of one client may hold at once, counted per address and per
    browser (its signed client cookie) alike: a quarter of :attr:`bot_games` by
    default, so one visitor, however many addresses it uses, or one address, however
    many cookies it makes, leaves the other slots to others (the clients the rates
    do not limit, this machine's own user, are not counted)."""
    bot_tables_mb: int = field(default_factory=machine_tables_mb)
    """Megabytes of search tables (the engine's ``tt``, MCTS's ``tree``) the bots of all
    games may hold at once (:class:`~.table_budget.TableBudget`): an eighth of the machine's
    memory, 128 to 512 MB, so the app stays under 1 GB whoever plays; a new game beyond
    it is 429."""
    bot_tables_mb_per_client: int | None = None
    """Of those, what the games of one client (address or browser) may hold; ``None``:
    half of :attr:`bot_tables_mb`."""
    hints: int = 2
    """Hints computed at once over all games (each holds a server thread and a bot up to
    3 s; the manager's hint pool keeps this many bots per spec, so no admitted hint
    waits for a bot: one more is 429 at once)."""
    analyses: int = 2
    """Live analyses and game reviews running at once (each keeps one core busy)."""
    analyses_per_client: int = 1
    """Live analyses and reviews one client may run at once, per address and per browser
    alike (half the default :attr:`analyses`: one visitor on two addresses, or two
    browsers on one address, hold one slot, never both)."""
    lab_per_client: int = 1
    """Lab searches one client may run at once, per address and per browser alike."""
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
    puzzle_reveal_seconds: float = 3600.0
    """Seconds after a give-up or a hint in one browser during which a first attempt of
    that puzzle in any other browser, wherever, is not rated (:mod:`.puzzle_shown`):
    giving up in a throwaway browser on another address, then solving in the main
    one, buys nothing."""
    puzzle_ratings_per_hour: float = 12.0
    """Rating changes one puzzle may take per hour (after a burst of as many): a crowd of
    players, however made, moves a puzzle's rating by at most this many games an hour;
    first attempts beyond it are recorded unrated."""
    engine_cores: int = field(default_factory=lambda: max(4, 2 * (os.cpu_count() or 1)))
    """Pieces of engine work (bot moves, analyses, reviews, judgements, hints, lab
    searches) that search at once (:class:`~adjacency.serving.cpu_budget.CpuBudget`):
    twice the machine's cores, at least 4 (a search often waits on its page); the
    others wait, the least-charged visitor's first. An address runs at most half of
    them at once and a browser a quarter, so a second visitor finds one free."""
    cpu_window: float = 300.0
    """The seconds over which engine work is charged to its visitor."""
    cpu_per_browser: float | None = None
    """CPU seconds one browser's engine work may take a window; ``None``: half the
    window (half a core, whatever the machine)."""
    cpu_per_address: float | None = None
    """CPU seconds one address's engine work may take a window (a school behind one
    address: its browsers share it); ``None``: half of the machine's cores over the
    window. Over either budget a new analysis, hint, lab search or game with bots is
    429 and a bot's move waits behind every other visitor's work (it runs when no one
    else waits)."""
    connections: HoldLimits = field(default_factory=HoldLimits)
    """Requests (event streams, pages being answered) the server and each client may hold
    open at once, the last places kept for new visitors
    (:class:`~adjacency.serving.room.Holdings`): 4,096 in all, 128 per address, 8 per
    browser; past three quarters of them, a client holding 2 or more is refused."""
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
    * Fair shares: :meth:`assign` names the clients a game counts for (its address and
      its browser, see :func:`holders`); a game whose client holds ``share`` slots
      already waits as if every slot were taken, so no client holds more than
      ``share`` of the ``cap`` slots, and :meth:`room_for` tells a new game's creator
      whether it would run at once.
    """

    def __init__(self, cap: int, share: int | None = None, engine: CpuBudget | None = None) -> None:
        self.cap = cap
        self.share = cap if share is None else share
        self.engine = engine
        """The server's CPU budget, in whose fair queue each bot move waits for a core
        (``None``: the bots search as soon as they hold a slot)."""
        self._holders: set[str] = set()
        self._clients: dict[str, tuple[str, ...]] = {}
        self._held: dict[str, int] = {}
        self._waiting: dict[str, Callable[[], None]] = {}
        self._lock = threading.Lock()

    def assign(self, key: str, clients: tuple[str, ...]) -> None:
        """Count ``key``'s slot for ``clients`` (before its first :meth:`take`; kept
        until :meth:`forget`)."""
        with self._lock:
            self._clients[key] = clients

    def clients_of(self, key: str) -> tuple[str, ...]:
        """The clients ``key``'s work counts for (what :meth:`assign` kept)."""
        with self._lock:
            return self._clients.get(key, ())

    def forget(self, key: str) -> None:
        """Drop what :meth:`assign` kept for ``key`` (its game is gone)."""
        self.give(key)
        with self._lock:
            self._clients.pop(key, None)

    def take(self, key: str, retry: Callable[[], None]) -> bool:
        """A slot for ``key`` (``True``), or ``False`` with ``retry`` queued."""
        with self._lock:
            if key in self._holders:
                return True
            clients = self._clients.get(key, ())
            if len(self._holders) < self.cap and self._has_share(clients):
                self._holders.add(key)
                for client in clients:
                    self._held[client] = self._held.get(client, 0) + 1
                self._waiting.pop(key, None)
                return True
            self._waiting[key] = retry
            return False

    def room_for(self, clients: tuple[str, ...]) -> str | None:
        """Why a new game of ``clients`` could not run now (``None``: it could)."""
        with self._lock:
            if len(self._holders) >= self.cap:
                return (
                    f"{len(self._holders)} games with bots are being played on this "
                    "server, its limit; finish or leave one, or try again later"
                )
            for client in clients:
                if self._held.get(client, 0) >= self.share:
                    kind = client.split(" ", 1)[0]
                    return (
                        f"your {kind} already has {self.share} games with bots being "
                        "played, the most one client may have at once; finish or leave "
                        "one first"
                    )
            return None

    def _has_share(self, clients: tuple[str, ...]) -> bool:
        return all(self._held.get(c, 0) < self.share for c in clients)

    def give(self, key: str) -> None:
        """Return ``key``'s slot (if it holds one) and let the waiting games try again."""
        with self._lock:
            if key not in self._holders:
                self._waiting.pop(key, None)
                return
            self._holders.discard(key)
            for client in self._clients.get(key, ()):
                left = self._held.pop(client, 1) - 1
                if left > 0:
                    self._held[client] = left
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


def cpu_budget(limits: Limits) -> CpuBudget:
    """The server's CPU budget for ``limits`` (defaults filled in: see :class:`Limits`)."""
    cores = max(1, limits.engine_cores)
    per_browser = limits.cpu_per_browser
    per_address = limits.cpu_per_address
    return CpuBudget(
        cores,
        limits.cpu_window,
        limits.cpu_window / 2 if per_browser is None else per_browser,
        limits.cpu_window * cores / 2 if per_address is None else per_address,
    )


def holders(address: str | None, visitor: str | None) -> tuple[str, ...]:
    """The clients a request's work counts for: its address and its browser (the
    digest of its signed client cookie), each when known; none for a client the
    server does not limit (``address`` ``None``: this machine's own user)."""
    if address is None:
        return ()
    return (f"address {address}",) + (() if visitor is None else (f"browser {visitor}",))


class Slots:
    """A count of running analyses with a cap for the server and one per client (thread-safe).

    The server's cap keeps the machine's cores for the games; the client's keeps one page
    (or one address's scripts, or one browser on several addresses) from taking every
    slot, so a second visitor still gets one. A slot counts for each of its clients
    (:func:`holders`: its address and its browser).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running = 0
        self._by_client: dict[str, int] = {}

    def take(
        self,
        cap: int,
        what: str = "analyses",
        clients: tuple[str, ...] = (),
        per_client: int = 1,
    ) -> None:
        """Take a slot; :class:`TooMany` (HTTP 429) if ``cap`` of them (``what``: analyses,
        lab searches) are running already, or ``per_client`` of them for one of
        ``clients`` (see :func:`holders`; none: not limited per client)."""
        with self._lock:
            if self.running >= cap:
                raise TooMany(
                    f"{self.running} {what} are running on this server, its limit; "
                    "stop one or try again shortly"
                )
            for client in clients:
                mine = self._by_client.get(client, 0)
                if mine >= per_client:
                    kind = client.split(" ", 1)[0]
                    raise TooMany(
                        f"your {kind} already runs {mine} {what}, the most one client may "
                        "run at once; wait for it or stop it"
                    )
            self.running += 1
            for client in clients:
                self._by_client[client] = self._by_client.get(client, 0) + 1

    def give(self, clients: tuple[str, ...] = ()) -> None:
        """Give back a slot taken by :meth:`take` (for the same ``clients``)."""
        with self._lock:
            self.running -= 1
            for client in clients:
                left = self._by_client.pop(client, 1) - 1
                if left > 0:
                    self._by_client[client] = left
