"""The league's scheduler: who plays whom, and when (:class:`Scheduler`).

At every wake-up (a game ended, a member connected or was added) or tick, a pass
(:meth:`Scheduler.pair`) starts every game free members can play now, in this order:

1. the running events' games (:mod:`.event_runner`), their members' other games in
   play stopped first (:meth:`Scheduler.stop_for_events`; the members the ladder leaves
   alone: :func:`.event_runner.off_the_ladder`);
2. the challenges queued for bots that are free now (:mod:`.challenge_desk`);
3. the ladder (:func:`.pairing.plan`, the rule of docs/league.md): open pairs first,
   then new colour-swapped pairs, each taking the league's next opening in turn.

A game with a hosted side starts only while the games with one in play are fewer than
the slots (:meth:`.hosted.HostedPlayers.room`: the server's, or on a Ray cluster the
free ones of its nodes, each node its own): its program is judged by its wall time on a
core of its own, so a game past the slots waits in the pairing rather than start and
wait for a core. The events' games take the slots first: while one of them waits for a
slot, the ladder starts no game with a hosted side, and ladder games holding slots are
stopped to free them (:meth:`Scheduler.make_room`), the newest first.

Contract, in the server's event loop (one thread, no locks): a pass reads only the
members it may pair (never every member: a league with 25,000 people must not cost
25,000 rows four times a second); one failing pass is logged and the next runs; while
the store refuses writes (:attr:`~..http.write_health.WriteHealth.failure`) nobody is paired and a
write is tried every :data:`RETRY_EVERY` seconds. It starts and stops games only
through the games in play it holds (:class:`~.games.Games`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Literal

from ...core.errors import StoreError
from ...core.fen import Color
from ...serving.details import ended
from ...serving.logs import say
from ..league_file import LeagueStore, Member
from ..pairing import Entrant, OpenPair, key, plan
from .challenge_desk import LADDER_WAIT, ChallengeDesk
from .event_runner import EventRunner, EventStart
from .games import Games
from .live import LiveGame, seat_kind
from .presence import Presence

log = logging.getLogger(__name__)

TICK = 0.25
"""Seconds between scheduler passes when nothing wakes it earlier."""

RETRY_EVERY = 2.0
"""Seconds between tries to write again while the store refuses writes (degraded)."""

BACKED_OFF = 1000
"""Games counted between a backed-off pair's members for a pass's new pairs, so the
pairing gives each of them another opponent (:mod:`.replays`)."""

RECONNECT_GRACE = 10.0
"""Seconds after the server starts during which an event game waits for its bots to
connect (they reconnect after a restart); later, a bot not connected at its game's
start loses it at once. Counted only in the time the machine could run things (the
wall time less the time its work waited for a CPU, :mod:`.machine_time`): on a loaded
machine the clients reconnecting and the server answering them wait for a CPU, and the
load must not decide an absence. Wall time alone where the machine's stall cannot be
read (no PSI); over after :data:`~.machine_time.WAIT_CAP` of wall time however
stalled the machine was."""

REFUSED_WAIT = 60.0
"""Seconds after the league last refused a bot's connection by its own limits (a rate,
its connection caps, its reserved places) during which that bot's event game waits for
it instead of being lost by its absence: a refusal the league made never becomes a
forfeit (the client tries again within seconds, and each refusal starts the wait
again). A connection refused before its bot was known (the connection guard's) holds
every absent bot's game so. Counted as :data:`RECONNECT_GRACE` is: only the time the
machine could run things (:meth:`.presence.Presence.held`)."""


class Scheduler:
    """Pairs the free members of one league server: events, queued challenges, ladder."""

    def __init__(
        self,
        store: LeagueStore,
        games: Games,
        presence: Presence,
        desk: ChallengeDesk,
        tick: float = TICK,
        house_games: bool = True,
    ) -> None:
        self.store = store
        self.games = games
        self.presence = presence
        self.desk = desk
        self.tick = tick
        self.house_games = house_games
        """Whether house bots play each other (off: they only play remote bots and people)."""
        self.events = EventRunner(store)
        """The league's events: their games start first in each pass
        (:mod:`.event_runner`)."""
        self.idle_since: dict[int, float] = {}
        """Since when each member has been free (monotonic): the longest wait goes first."""
        self.up_since = presence.machine.mark()
        """When the server started (:attr:`.presence.Presence.machine`'s time;
        :data:`RECONNECT_GRACE` counts from it)."""
        self._wake: asyncio.Event | None = None

    def arm(self) -> None:
        """Make :meth:`wake` effective (called as the server starts, in its loop)."""
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """Run the scheduler's next pass now rather than at its next tick (a member became
        free or was added); does nothing before :meth:`arm`."""
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """Pair whoever is free, at every wake-up or tick (the server runs it as a task
        from its start to its stop); while the store refuses writes
        (:attr:`~..http.write_health.WriteHealth.failure`), pair nobody and try writing every
        :data:`RETRY_EVERY` s."""
        assert self._wake is not None
        retry = 0.0
        while True:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns a wait that
            # finished as the task was cancelled, swallowing the cancellation, and the
            # loop then ran on after the server's stop (league serve hung after SIGTERM).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.tick):
                    await self._wake.wait()
            self._wake.clear()
            if self.games.writes.failure is not None:
                if time.monotonic() < retry:
                    continue
                retry = time.monotonic() + RETRY_EVERY
                if not self.games.writes.retry():
                    continue
            try:
                self.pair()
            except StoreError as exc:  # a full disk: degraded, said once
                self.games.writes.failed("a scheduler pass's games", exc)
            except Exception:  # never let one bad pass stop the league
                log.exception("scheduler pass failed")

    def pair(self) -> list[LiveGame]:
        """Start every game that free members can play now; return them.

        A pass reads only the members it may pair: the house bots, the connected bots and
        the bots that events or queued challenges name (never every member and token hash:
        a league with 25,000 people must not cost 25,000 rows four times a second).
        Connections whose token was revoked or replaced meanwhile are closed first
        (:meth:`.presence.Presence.sweep_revoked`), then the people queued for a bot
        that is free now are served (:meth:`.challenge_desk.ChallengeDesk.serve_queues`).
        Who plays whom next is :func:`.pairing.plan` (the rule of docs/league.md): open
        pairs first, then new pairs; a new pair is recorded here and takes the league's
        next opening in turn.
        """
        if self.games.stopping:
            return []
        self.presence.hosted_now = frozenset(self.games.hosted.members(self.store))
        events = self.events.plan(self.presence.bots_there(), people=self.presence.present())
        wanted = set(self.presence.connections) | set(self.desk.challenges.queued_bots())
        wanted |= set(events.members)
        wanted |= self.presence.hosted_now
        wanted |= {m for start in events.starts for m in (start.x, start.o)}
        found = self.store.members.pairable(wanted)  # house bots and these bots, no one else
        members = {member_id: member for member_id, (member, _) in found.items()}
        people = self.store.members.people_in(
            {m for start in events.starts for m in (start.x, start.o)} - set(members)
        )  # the people of events open to people: their event games only, never the ladder
        self.presence.sweep_revoked(
            members, {member_id: digest for member_id, (_, digest) in found.items()}
        )
        self.games.unrated_pairs = events.unrated
        self.desk.in_events = frozenset(events.members)
        self.desk.cancel_for_events(self.desk.in_events)
        self.stop_for_events(events.members, events.pairs)
        started, short = self.pair_events({**members, **people}, events.starts, events.pairs)
        before = set(self.games.live)
        # people who waited for a bot go before the ladder; bots in an event keep them waiting
        self.desk.serve_queues(members, frozenset(events.members))
        started += [self.games.live[i] for i in sorted(set(self.games.live) - before)]
        ratings = self.games.ratings.current()
        now = time.monotonic()
        entrants = []
        kept_out = self.store.members.kept_out()  # a template or sparring account: no ladder
        for m in members.values():
            slots = (
                0 if m.id in events.members or m.id in kept_out else self.games.slots(m)
            )  # the ladder pauses for them
            if slots == 0:
                self.idle_since.pop(m.id, None)
            # Of the bots, only a connected one can be absent (the round room's kinds).
            kind = seat_kind(m, m.id in self.presence.hosted_now)
            there = kind.always_present or m.id in self.presence.connections
            present = not m.revoked and there
            waiting = now - self.idle_since.setdefault(m.id, now) if slots else 0.0
            entrants.append(
                Entrant(m.id, slots, ratings[m.id].rating, m.kind == "house", present, waiting)
            )
        open_pairs = [
            OpenPair(*row) for row in self.store.games.open_pairs() if row[0] not in events.pairs
        ]
        # A pair whose game the machine starved waits (:mod:`.replays`); its members play
        # others meanwhile: their count of games together is made high for this pass.
        backed = {key(p.a, p.b) for p in open_pairs if self.games.replays.waiting(p.pair)}
        open_pairs = [p for p in open_pairs if key(p.a, p.b) not in backed]
        played = dict(self.games.ratings.between())
        for both in backed:
            played[both] = played.get(both, 0) + BACKED_OFF
        ladder: set[int] = set()
        room = 0 if short else self.games.hosted.room(self.presence.machine)  # events first
        for game in plan(entrants, open_pairs, played, self.house_games):
            if key(game.x, game.o) in backed:
                continue
            if {game.x, game.o} & self.presence.hosted_now:
                if room <= 0:  # no core for it now: it waits in the pairing
                    continue
                room -= 1
            ladder |= {game.x, game.o}
            pair_id, opening = game.pair, game.opening
            if pair_id is None or opening is None:
                opening = self.store.games.pair_count() % len(self.games.settings.openings)
                pair_id = self.store.games.new_pair(game.x, game.o, opening)
            x, o = members[game.x], members[game.o]
            started.append(self.games.start_game(x, o, opening, pair_id=pair_id, leg=game.leg))
        # A bot the ladder paired, or waited for LADDER_WAIT seconds, or that has no
        # present opponent to wait for, serves its queue from the next pass on: the ladder
        # gets the game after a challenge game when an opponent comes free within that
        # wait, never more.
        around = {e.id for e in entrants if e.present}
        self.desk.ladder_owed = {
            bot: since
            for bot, since in self.desk.ladder_owed.items()
            if bot in members
            and bot not in ladder
            and now - since < LADDER_WAIT
            and bool(around - {bot})
        }
        return started

    def stop_for_events(self, members: set[int], pairs: set[int]) -> None:
        """Stop the games in play of events' ``members`` (those the ladder leaves alone:
        :func:`.event_runner.off_the_ladder`) that are not their events' own (``pairs``):
        ladder and challenge games still in play when an event started, or its ladder
        was turned off.
        The event's games come first and would wait for them on a league clock of
        minutes; each is aborted (a ladder pair's leg is played again later), its
        players told why (detail ``event-started``), the stop logged."""
        for live in list(self.games.live.values()):
            if live.pair_id in pairs or not {live.x.id, live.o.id} & members:
                continue
            say(log, logging.INFO, "game-stopped-for-event", game=live.id)
            self.games.stop_game(live, ended("event-started"))

    def make_room(self, wanted: int, pairs: set[int]) -> None:
        """Free up to ``wanted`` slots for the events' games that wait for one: stop the
        ladder games in play with a hosted side (not an event's ``pairs``, nor a person's
        challenge), the newest first (they lose the least play; a ladder pair's leg is
        played again later), their players told why (detail ``event-needs-slot``), each
        stop logged; the next pass, woken now, starts the events' games."""
        holding = self.games.hosted.games()
        ladder = [
            live
            for live in self.games.live.values()
            if live.id in holding and live.pair_id is not None and live.pair_id not in pairs
        ]
        for live in sorted(ladder, key=lambda g: g.started, reverse=True)[:wanted]:
            say(log, logging.INFO, "game-stopped-for-event-slot", game=live.id)
            self.games.stop_game(live, ended("event-needs-slot"))
        if ladder:
            self.wake()

    def pair_events(
        self, members: Mapping[int, Member], starts: Sequence[EventStart], pairs: set[int]
    ) -> tuple[list[LiveGame], int]:
        """Start the events' games ``starts`` (:meth:`.event_runner.EventRunner.plan`):
        each as soon as both members are below their concurrency cap, connected or not
        (a bot that is not connected, a person whose play page is not open
        (:meth:`.presence.Presence.present`), nor hosted with a version accepted before the
        event's deadline, its opponent there, loses the game at once; both absent, both
        lose it at once; during the :data:`RECONNECT_GRACE` after the server starts, and
        within :data:`REFUSED_WAIT` of the league refusing an absent bot's connection, both
        counted in the time the machine could run things (:mod:`.machine_time`), the
        game waits for them instead; a board whose game the machine starved waits out its
        back-off, :mod:`.replays`). A game that waits for a slot for a hosted side
        has ladder games stopped for it (:meth:`make_room`; ``pairs``: the events').
        Returns the games started and how many of ``starts`` wait for a slot."""
        started: list[LiveGame] = []
        short = 0
        grace = not self.presence.machine.over(self.up_since, RECONNECT_GRACE)
        room = self.games.hosted.room(self.presence.machine)
        waiting = self.games.replays.waiting  # a board the machine starved waits
        for start in starts:
            x, o = members.get(start.x), members.get(start.o)
            if x is None or o is None or x.revoked or o.revoked or waiting(start.pair):
                continue
            if self.games.busy[x.id] >= x.concurrency or self.games.busy[o.id] >= o.concurrency:
                continue
            house = {m.id for m in (x, o) if m.kind == "house"}
            deadline = self.store.submissions.deadline(start.event)
            hosted = {  # a version accepted before the event's deadline plays it
                m.id
                for m in (x, o)
                if m.id in self.presence.hosted_now
                and self.games.hosted.version(self.store, m, deadline)
            }
            if hosted:
                if room <= 0:  # no core for it now: it waits for the next pass
                    short += 1
                    continue
                room -= 1
            there = set(self.presence.connections) | self.presence.present()  # a page open
            absent = {x.id, o.id} - there - house - hosted
            if absent and (grace or self.presence.held(absent, REFUSED_WAIT)):
                continue  # it waits for them: they reconnect, or the league refused them
            gone: Color | Literal["both"] | None = None  # its loss at once, nobody waits
            if len(absent) == 1:
                gone = "x" if x.id in absent else "o"
            elif absent:
                gone = "both"
            started.append(
                self.games.start_game(
                    x,
                    o,
                    start.opening,
                    start.pair,
                    start.leg,
                    start.clock,
                    start.pace,
                    gone,
                    event=start.event,
                )
            )
        if short:
            self.make_room(short, pairs)
        return started, short
