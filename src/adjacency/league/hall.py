"""The live league: connected members, presence and the scheduler, over the games in
play (:class:`~adjacency.league.games.Games`, which :class:`Hall` extends).

Everything here runs in the server's event loop (one thread), so the live state
needs no locks; the store is written synchronously (a SQLite transaction per
game start and end, milliseconds) and house moves run in worker processes
(:mod:`.house`).

Rules the hall and its games (:mod:`.games`) enforce (docs/league.md says them to players):

* A game's clock is the server's (:class:`adjacency.serving.clock.Clock`): the side to
  move's time runs from the moment the server asks for its move; a move that
  arrives after its time is up, or no move before it is up, loses on time,
  whether the bot is connected or not (a disconnected bot's clock keeps running;
  a bot that reconnects in time is sent the game again and plays on).
* An illegal answer from a bot (occupied, off the board, malformed square) loses
  the game by illegal move; a move in a game the member does not play in, or out
  of turn, is refused and changes nothing.
* A house bot that crashes loses by disconnection, with the error in the record.
* Games come in colour-swapped pairs from one opening (:meth:`Hall.pair`, who plays
  whom: :mod:`.pairing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping, Sequence

from .event_runner import EventRunner, EventStart
from .games import Games
from .house import HousePlayers
from .live import LiveGame
from .outbox import Outbox
from .pairing import Entrant, OpenPair, plan
from .store import LeagueStore, Member

log = logging.getLogger(__name__)

TICK = 0.25
"""Seconds between scheduler passes when nothing wakes it earlier."""

PRESENCE = 10.0
"""Seconds a person counts as present after their page last asked ``/me`` (it asks every
few seconds while it is open): only a present person can be challenged by another."""


RECONNECT_GRACE = 10.0
"""Seconds after the server starts during which an event game waits for its bots to
connect (they reconnect after a restart); later, a bot not connected at its game's
start loses it on time."""


class Hall(Games):
    """Connected members, presence and the scheduler of one league server, over its
    live games (:class:`~.games.Games`)."""

    def __init__(
        self,
        store: LeagueStore,
        house: HousePlayers,
        tick: float = TICK,
        house_games: bool = True,
        pause: float = 0.0,
    ) -> None:
        super().__init__(store, house, pause)
        self.house_games = house_games
        """Whether house bots play each other (off: they only play remote bots and people)."""
        self.tick = tick
        self.seen: dict[int, float] = {}
        """When each person's page last asked ``/me`` (monotonic): their presence."""
        self.events = EventRunner(store)
        """The league's events: their games start first in each pass (:mod:`.event_runner`)."""
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.up_since = time.monotonic()
        """When the scheduler started (:data:`RECONNECT_GRACE` counts from it)."""

    # ----------------------------------------------------------- lifetime

    async def start(self) -> None:
        """Abort games left in flight by a crash, start the house bots' worker (if the
        league has house bots) and the scheduler."""
        aborted = self.store.abort_in_flight()
        if aborted:
            log.warning("%d games in flight at the last stop were marked aborted", aborted)
        self._wake = asyncio.Event()
        self.up_since = time.monotonic()
        loop = asyncio.get_running_loop()
        house = [m for m in self.store.members() if m.kind == "house" and not m.revoked]
        if house:  # before the first game, so its first house move is not the slow one
            await self.house.warm_up(house[0].spec or "random")
        self._task = loop.create_task(self._schedule_loop())

    async def stop(self) -> None:
        """Stop scheduling; games in play are aborted (unrated) and their players told."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.abort_all("the server stopped")
        for outbox in list(self.connections.values()):
            outbox.close()

    def wake(self) -> None:
        """Run the scheduler's next pass now rather than at its next tick (a member became
        free or was added); does nothing before :meth:`start`."""
        if self._wake is not None:
            self._wake.set()

    # -------------------------------------------------------- connections

    def attach(self, outbox: Outbox) -> None:
        """A member connected: replace its previous connection, resend its games."""
        member = outbox.member
        old = self.connections.get(member.id)
        if old is not None:
            old.post({"type": "error", "detail": "replaced by a new connection"})
            old.close()
        self.connections[member.id] = outbox
        for live in self.live.values():
            if live.color_of(member.id) is not None:
                self._announce(live, member.id)
        self.wake()

    def detach(self, outbox: Outbox) -> None:
        """A connection ended (its games go on; their clocks run)."""
        outbox.close()
        if self.connections.get(outbox.member.id) is outbox:
            del self.connections[outbox.member.id]

    def see(self, person: Member) -> None:
        """Note that ``person``'s page is open now (it asked ``/me``)."""
        self.seen[person.id] = time.monotonic()

    def present(self) -> set[int]:
        """The people whose page asked within :data:`PRESENCE` seconds."""
        now = time.monotonic()
        return {pid for pid, at in self.seen.items() if now - at <= PRESENCE}

    def online(self) -> set[int]:
        """Members that can be challenged now: connected bots and present people."""
        return set(self.connections) | self.present()

    def slots(self, member: Member) -> int:
        """Games ``member`` may start now: its concurrency cap minus its games in play;
        0 when it is revoked, resting, or a bot that is not connected (house bots always
        are; people are free while they ask)."""
        if member.revoked or self.resting.get(member.id, 0.0) > time.monotonic():
            return 0
        if member.kind not in ("house", "person") and member.id not in self.connections:
            return 0
        return max(0, member.concurrency - self.busy[member.id])

    def is_free(self, member: Member) -> bool:
        """Whether ``member`` can start a game now (:meth:`slots` is not 0)."""
        return self.slots(member) > 0

    # ---------------------------------------------------------- scheduler

    async def _schedule_loop(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.tick)
            self._wake.clear()
            try:
                self.pair()
            except Exception:  # never let one bad pass stop the league
                log.exception("scheduler pass failed")

    def pair(self) -> list[LiveGame]:
        """Start every game that free members can play now; return them.

        Connections whose token was revoked or replaced meanwhile are closed first
        (:meth:`sweep_revoked`). Who plays whom is :func:`.pairing.plan` (the rule of
        docs/league.md): open pairs first, then new pairs cheapest first; a new pair is
        recorded here and takes the league's next opening in turn.
        """
        members = {m.id: m for m in self.store.members() if m.kind != "person"}
        self.sweep_revoked(members)
        events = self.events.plan(set(self.connections))
        self.unrated_pairs = events.unrated
        started = self.pair_events(members, events.starts)  # event games first
        ratings = self._ratings()
        entrants = [
            Entrant(m.id, 0 if m.id in events.members else self.slots(m),
                    ratings[m.id].rating, m.kind == "house")
            for m in members.values()
        ]  # fmt: skip
        open_pairs = [
            OpenPair(*row) for row in self.store.open_pairs() if row[0] not in events.pairs
        ]
        for game in plan(entrants, open_pairs, self._between(), self.house_games):
            pair_id, opening = game.pair, game.opening
            if pair_id is None or opening is None:
                opening = self.store.pair_count() % len(self.settings.openings)
                pair_id = self.store.new_pair(game.x, game.o, opening)
            x, o = members[game.x], members[game.o]
            started.append(self.start_game(x, o, opening, pair_id=pair_id, leg=game.leg))
        return started

    def pair_events(
        self, members: Mapping[int, Member], starts: Sequence[EventStart]
    ) -> list[LiveGame]:
        """Start the events' games ``starts`` (:meth:`.event_runner.EventRunner.plan`):
        each as soon as both members are below their concurrency cap, connected or not
        (a bot that is not connected loses on time; during the :data:`RECONNECT_GRACE`
        after the server starts, the game waits for it instead)."""
        started: list[LiveGame] = []
        grace = time.monotonic() - self.up_since < RECONNECT_GRACE
        for start in starts:
            x, o = members.get(start.x), members.get(start.o)
            if x is None or o is None or x.revoked or o.revoked:
                continue
            if self.busy[x.id] >= x.concurrency or self.busy[o.id] >= o.concurrency:
                continue
            absent = (
                {x.id, o.id} - set(self.connections) - {m.id for m in (x, o) if m.kind == "house"}
            )
            if grace and absent:
                continue
            started.append(self.start_game(x, o, start.opening, pair_id=start.pair, leg=start.leg))
        return started

    def sweep_revoked(self, members: Mapping[int, Member]) -> None:
        """Close the connections whose member is gone or revoked, or whose token was
        replaced (``adjacency league revoke|rotate`` write the file directly, so the
        server learns it here); ``members`` are the league's bots and house bots."""
        hashes = self.store.token_hashes()
        for member_id, outbox in list(self.connections.items()):
            revoked = member_id not in members or members[member_id].revoked
            if revoked or (outbox.token_hash and hashes.get(member_id) != outbox.token_hash):
                outbox.post({"type": "error", "detail": "this token was revoked or replaced"})
                outbox.close()
