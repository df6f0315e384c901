"""The live league: connected members, presence and the scheduler, over the games in
play (:class:`~adjacency.league.games.Games`, which :class:`Hall` extends).

Everything here runs in the server's event loop (one thread), so the live state
needs no locks; the store is written synchronously (a SQLite transaction per
game start and end, milliseconds) and house moves run in worker processes
(:mod:`.house`).

Rules the hall and its games (:mod:`.games`) enforce (docs/league.md says them to players):

* A game's clock is the server's (:class:`adjacency.round.clock.Clock`): the side to
  move's time runs from the moment the server asks for its move; a move that
  arrives after its time is up, or no move before it is up, loses on time,
  whether the bot is connected or not (a disconnected bot's clock keeps running;
  a bot that reconnects in time is sent the game again and plays on).
* An illegal answer from a bot (occupied, off the board, malformed square) loses
  the game by illegal move; a move in a game the member does not play in, or out
  of turn, is refused and changes nothing.
* A house bot that crashes loses by disconnection, with the error in the record.
* A team with an accepted version is played by the server (:mod:`.hosted`): it counts
  as present like a house bot, needs no client, and is paired like any bot.
* Games come in colour-swapped pairs from one opening (:meth:`Hall.pair`, who plays
  whom: :mod:`.pairing`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from collections.abc import Mapping, Sequence
from typing import Literal

from ..core.errors import StoreError
from ..core.fen import Color
from ..serving.details import ended
from ..serving.errors import Forbidden, GameNotFound, NotNow
from .challenges import COOLDOWN, MAX_INCOMING, NEWCOMERS, PER_ADDRESS, Challenge, Challenges
from .event_runner import EventRunner, EventStart
from .games import PROGRESS_EVERY, Games
from .hosted import HostedPlayers
from .house import HousePlayers
from .live import LiveGame, game_aborted
from .outbox import Outbox
from .pairing import Entrant, OpenPair, plan
from .rules import Progress
from .store import LeagueStore, Member

log = logging.getLogger(__name__)

TICK = 0.25
"""Seconds between scheduler passes when nothing wakes it earlier."""

RETRY_EVERY = 2.0
"""Seconds between tries to write again while the store refuses writes (degraded)."""

LADDER_WAIT = 60.0
"""Seconds a bot, after a challenge game, waits for the ladder to pair it before its
queued challenges are served: puppets keeping every bot in challenge games otherwise
met bots that were never free together, and a bot played 10 of 10 games against them."""

PRESENCE = 10.0
"""Seconds a person counts as present after their page last asked ``/me`` (it asks every
few seconds while it is open): only a present person can be challenged by another."""


EXPIRE_EVERY = 600.0
"""Seconds between two deletions of the people who never played (the rules'
``people_expire_days``)."""

ESTABLISHED_AGE = 10.0
"""Seconds the hall keeps what it read of a person's establishment (``/me`` asks every
second): forgotten sooner when one of the person's games ends or the admin approves
someone through this server; an approval by ``adjacency league approve`` beside a
running server shows within this time."""

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
        pace: float = 0.0,
        hosted: HostedPlayers | None = None,
    ) -> None:
        super().__init__(store, house, pause, pace, hosted)
        self.house_games = house_games
        """Whether house bots play each other (off: they only play remote bots and people)."""
        self.tick = tick
        self.seen: dict[int, float] = {}
        """When each person's page last asked ``/me`` (monotonic): their presence."""
        self.idle_since: dict[int, float] = {}
        """Since when each member has been free (monotonic): the longest wait goes first."""
        self.challenges = Challenges()
        """People's challenges: waiting for a person's answer, or queued for a busy bot."""
        self.unheard: dict[int, list[int]] = {}
        """Games aborted at this start (in flight at a crash), by player: each is told
        (``game_end``, ``aborted``) when it connects, so its client drops the engine."""
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._saver: asyncio.Task[None] | None = None
        self.events = EventRunner(store)
        """The league's events: their games start first in each pass (:mod:`.event_runner`)."""
        self.up_since = time.monotonic()
        """When the scheduler started (:data:`RECONNECT_GRACE` counts from it)."""
        self.in_events: frozenset[int] = frozenset()
        """The members of the running events at the last pass: a challenge to one of them
        is queued until its event is over, never started at once."""
        self.challenge_games: dict[int, tuple[int, int]] = {}
        """The challenge games with a bot in play: ``game: (person, bot)``."""
        self._established: dict[int, tuple[float, int, tuple[bool, Progress]]] = {}
        self._established_gen: collections.Counter[int] = collections.Counter()
        self.hosted_now: frozenset[int] = frozenset()
        """The members the server plays itself (an accepted version), at the last pass:
        present and pairable without a connection."""
        self.ladder_owed: dict[int, float] = {}
        """Bots whose last game was a challenge game, and when it ended: the ladder may have
        their next game before their queue is served, waiting up to :data:`LADDER_WAIT`
        for an opponent while one is present (puppets cannot keep a bot playing only them)."""

    # ----------------------------------------------------------- lifetime

    async def start(self) -> None:
        """Abort games left in flight by a crash, start the house bots' worker (if the
        league has house bots) and the scheduler."""
        flown = self.store.games.games(status="playing")
        aborted = self.store.games.abort_in_flight()
        if aborted:
            log.warning("%d games in flight at the last stop were marked aborted", aborted)
        for game in flown:  # each player hears it when it connects again (attach)
            for member_id in (game.x_id, game.o_id):
                self.unheard.setdefault(member_id, []).append(game.id)
        self._wake = asyncio.Event()
        await asyncio.to_thread(self.hosted.start)
        self.up_since = time.monotonic()
        loop = asyncio.get_running_loop()
        house = [m for m in self.store.members.members() if m.kind == "house" and not m.revoked]
        if house:  # before the first game, so its first house move is not the slow one
            await self.house.warm_up(house[0].spec or "random")
        self._task = loop.create_task(self._schedule_loop())
        self._saver = loop.create_task(self._progress_loop())

    async def stop(self) -> None:
        """Stop scheduling; games in play are aborted (unrated, their moves kept) and their
        players told (``game_end``, termination ``aborted``); connections are closed once
        that went out (bounded by :data:`~.outbox.DRAIN`). Idempotent: the server calls it
        before closing its connections, and the app's lifespan again."""
        self.stopping = True  # a request or a connection's message still served starts none
        tasks = {task for task in (self._task, self._saver) if task is not None}
        for task in tasks:
            task.cancel()
        if tasks:  # asyncio.wait: their cancellation is not raised here, but this one's is
            await asyncio.wait(tasks)
        self._task = self._saver = None
        self.abort_all(ended("server-stopped"))
        outboxes = list(self.connections.values())
        for outbox in outboxes:
            outbox.close()
        await asyncio.gather(*(outbox.drained() for outbox in outboxes))

    async def _progress_loop(self) -> None:
        expired_at = -math.inf
        while True:
            if time.monotonic() - expired_at >= EXPIRE_EVERY:
                expired_at = time.monotonic()
                try:
                    await self.expire_people()
                except Exception:  # they expire at the next try; the games go on
                    log.exception("could not delete the people who never played")
            await asyncio.sleep(PROGRESS_EVERY)
            try:
                await self.save_progress()
            except StoreError as exc:  # a full disk: degraded, said once; the games go on
                self.write_failed("the moves of the games in play", exc)
            except Exception:  # a crash then loses these moves; the games go on
                log.exception("could not write the moves of the games in play")

    async def expire_people(self) -> list[str]:
        """Delete the people who joined more than the rules' ``people_expire_days`` ago
        and never played, unless their page is open now
        (:meth:`~adjacency.league.members.MembersRepo.expire_people`); runs at the start
        and every :data:`EXPIRE_EVERY` seconds, in a worker thread (it reads every
        person: on a league with thousands that is no work for the games' event loop)."""
        days = self.rules.people_expire_days
        if days <= 0:
            return []
        cutoff, keep = time.time() - days * 86400, self.present()
        gone = await asyncio.to_thread(self.store.members.expire_people, cutoff, keep)
        if gone:
            log.info("%d people who never played expired after %g days", len(gone), days)
        return gone

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
        for game_id in self.unheard.pop(member.id, []):
            outbox.post(game_aborted(game_id, ended("server-stopped-during")))
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
        """Members that can be challenged now: connected and hosted bots and present
        people."""
        return set(self.connections) | self.present() | self.hosted_now

    def slots(self, member: Member) -> int:
        """Games ``member`` may start now: its concurrency cap minus its games in play;
        0 when it is revoked, resting, or a bot that is not connected or is leaving (house
        bots and hosted bots always are; people are free while they ask)."""
        if member.revoked or self.resting.get(member.id, 0.0) > time.monotonic():
            return 0
        outbox = self.connections.get(member.id)
        remote = member.kind not in ("house", "person") and member.id not in self.hosted_now
        if remote and (outbox is None or outbox.leaving):
            return 0
        return max(0, member.concurrency - self.busy[member.id])

    def is_free(self, member: Member) -> bool:
        """Whether ``member`` can start a game now (:meth:`slots` is not 0)."""
        return self.slots(member) > 0

    # --------------------------------------------------------- challenges

    def challenge(
        self,
        person: Member,
        opponent: Member,
        address: str | None = None,
        established: bool = True,
    ) -> Challenge:
        """A person's challenge (:mod:`.challenges`): a free bot or house bot with nobody
        queued plays at once (``started``); a busy or resting one, one in a running event
        (the event's games come first) or one whose last game was a challenge game (the
        ladder may have the next) is ``queued`` and served when the scheduler gets to it;
        a person must accept (``waiting``). Raises :class:`NotNow` (409), changing
        nothing, for oneself, while the challenger plays, for a revoked member, a bot
        that is not connected or that the person played less than
        :data:`~.challenges.COOLDOWN` seconds ago, a member with
        :data:`~.challenges.PER_ADDRESS` open challenges from the challenger's
        ``address`` already (``None``: no such limit) or, for a challenger not
        ``established``, :data:`~.challenges.NEWCOMERS` from such people, or a person who is absent,
        playing, or has :data:`~.challenges.MAX_INCOMING` challenges to answer; raises
        :class:`StoreError` (503) while the store refuses writes."""
        now = time.monotonic()
        if self.write_failure is not None:
            raise StoreError("the league cannot store games now (its database refuses writes)")
        if opponent.id == person.id:
            raise NotNow("you cannot play yourself: choose another member", code="play_yourself")
        if not self.is_free(person):
            raise NotNow("you are playing a game already", code="playing_already")
        if opponent.revoked:
            raise NotNow(
                f"{opponent.name} is revoked: choose another member",
                code="opponent_revoked",
                params={"name": opponent.name},
            )
        self.challenges.expire(now)  # an unanswered challenge past its time is not open
        if self.challenges.from_address(opponent.id, address, person.id) >= PER_ADDRESS:
            raise NotNow(
                f"{PER_ADDRESS} challenges to {opponent.name} come from your address already: "
                "try later or choose another member",
                code="opponent_crowded",
                params={"name": opponent.name, "count": PER_ADDRESS},
            )
        if not established and self.challenges.from_newcomers(opponent.id, person.id) >= NEWCOMERS:
            raise NotNow(
                f"{NEWCOMERS} challenges to {opponent.name} come from people whose games are "
                "not rated yet: try later or choose another member",
                code="opponent_newcomers",
                params={"name": opponent.name, "count": NEWCOMERS},
            )
        if opponent.kind == "person":
            if opponent.id not in self.present() or not self.is_free(opponent):
                raise NotNow(
                    f"{opponent.name} is not here or is playing now: try later",
                    code="opponent_busy",
                    params={"name": opponent.name},
                )
            if len(self.challenges.incoming(opponent.id, now)) >= MAX_INCOMING:
                raise NotNow(
                    f"{opponent.name} has {MAX_INCOMING} challenges to answer already",
                    code="opponent_full",
                    params={"name": opponent.name, "count": MAX_INCOMING},
                )
            return self.challenges.add(person, opponent, "waiting", now, address, established)
        if opponent.kind == "bot" and opponent.id not in set(self.connections) | self.hosted_now:
            raise NotNow(
                f"{opponent.name} is not connected now: try another member",
                code="opponent_offline",
                params={"name": opponent.name},
            )
        wait = self.challenges.cooldown(person.id, opponent.id, now)
        if wait > 0:
            seconds = math.ceil(wait)
            raise NotNow(
                f"you played {opponent.name} a moment ago: challenge it again in {seconds} s, "
                "or choose another member",
                code="challenge_cooldown",
                params={"name": opponent.name, "seconds": seconds},
            )
        ahead = self.challenges.queue(opponent.id)
        challenge = self.challenges.add(person, opponent, "queued", now, address, established)
        later = opponent.id in self.in_events or opponent.id in self.ladder_owed
        if not ahead and not later and self.is_free(opponent):
            self._start_challenge(challenge, now)
        else:
            self.wake()
        return challenge

    def answer(self, person: Member, challenge_id: int, accept: bool) -> Challenge:
        """The challenged person accepts (the game starts, if the challenger is still here
        and free; else the challenge is cancelled) or declines. :class:`GameNotFound` (404)
        for a challenge that is not the person's, :class:`Forbidden` (403) for the
        challenger, :class:`NotNow` (409) for one no longer waiting or while playing."""
        now = time.monotonic()
        self.challenges.expire(now)
        challenge = self.challenges.by_id.get(challenge_id)
        if challenge is None or person.id not in (challenge.challenger.id, challenge.opponent.id):
            raise GameNotFound(f"no challenge {challenge_id} for {person.name}")
        if challenge.opponent.id != person.id:
            raise Forbidden("only the challenged person answers a challenge")
        if challenge.status != "waiting":
            raise NotNow(f"challenge {challenge_id} is {challenge.status}: {challenge.detail.text}")
        if not accept:
            self.challenges.end(challenge, "declined", ended("declined", player=person.name), now)
            return challenge
        if not self.is_free(person):
            raise NotNow("you are playing a game already: finish it first", code="playing_already")
        challenger = challenge.challenger
        if challenger.id not in self.present() or not self.is_free(challenger):
            detail = ended("challenger-left", player=challenger.name)
            self.challenges.end(challenge, "cancelled", detail, now)
            return challenge
        self._start_challenge(challenge, now)
        return challenge

    def _start_challenge(self, challenge: Challenge, now: float) -> None:
        """Start a challenge's game: the challenger plays X and O alternately (X first)."""
        person, opponent = challenge.challenger, challenge.opponent
        played = self.store.games.game_count(person.id, aborted=False)
        x, o = (person, opponent) if played % 2 == 0 else (opponent, person)
        opening = self.store.games.pair_count() % len(self.settings.openings)
        live = self.start_game(x, o, opening)
        challenge.game = live.id
        if opponent.kind != "person":
            self.challenge_games[live.id] = (person.id, opponent.id)
        self.challenges.end(challenge, "started", f"game {live.id}", now)

    async def establishment(self, person: Member, reader: LeagueStore) -> tuple[bool, Progress]:
        """Whether ``person``'s games are rated now, and the sentence saying so: what the
        hall read within :data:`ESTABLISHED_AGE` seconds, unless a game of the person
        ended or an approval was made since; else read from ``reader`` (the readers'
        connection) in a worker thread: a few rows, never the games
        (:meth:`~adjacency.league.members.MembersRepo.established`)."""
        now = time.monotonic()
        approvals = self.store.members.approvals
        known = self._established.get(person.id)
        if known is not None and now - known[0] < ESTABLISHED_AGE and known[1] == approvals:
            return known[2]
        generation, rules = self._established_gen[person.id], self.rules
        answer = await asyncio.to_thread(reader.members.established, person.id, rules)
        if self._established_gen[person.id] == generation:  # no game ended meanwhile
            if len(self._established) > 100_000:  # bounded by the people who asked lately
                self._established.clear()
            self._established[person.id] = (now, approvals, answer)
        return answer

    def _end(self, live: LiveGame) -> None:
        """:meth:`.games.Games._end`, and after a challenge game with a bot: the person
        waits :data:`~.challenges.COOLDOWN` seconds before challenging that bot again,
        and the ladder may have the bot's next game (:attr:`ladder_owed`)."""
        for member in (live.x, live.o):  # its end may establish a person
            self._established.pop(member.id, None)
            self._established_gen[member.id] += 1
        played = self.challenge_games.pop(live.id, None)
        if played is not None:
            person_id, bot_id = played
            self.challenges.cool(person_id, bot_id, time.monotonic() + COOLDOWN)
            self.ladder_owed[bot_id] = time.monotonic()
        super()._end(live)

    def _serve_queues(
        self, members: Mapping[int, Member], paused: frozenset[int] = frozenset()
    ) -> None:
        """Start the queued challenges of the bots that are free now, oldest first; a
        challenger whose page stopped asking, or who plays meanwhile, loses its place.
        Bots in ``paused`` (playing an event) keep their queues for later, and so do
        those the ladder may have first (:attr:`ladder_owed`)."""
        now = time.monotonic()
        present = self.present()
        for bot_id in self.challenges.queued_bots():
            if bot_id in paused or bot_id in self.ladder_owed:
                continue
            for challenge in self.challenges.queue(bot_id):
                bot = members.get(bot_id)
                if bot is None or bot.revoked:
                    self.challenges.end(challenge, "cancelled", ended("bot-revoked"), now)
                    continue
                if not self.is_free(bot):
                    break
                person = challenge.challenger
                if person.id not in present:
                    detail = ended("page-stopped")
                    self.challenges.end(challenge, "expired", detail, now)
                elif not self.is_free(person):
                    detail = ended("playing-other")
                    self.challenges.end(challenge, "cancelled", detail, now)
                else:
                    self._start_challenge(challenge, now)

    # ---------------------------------------------------------- scheduler

    async def _schedule_loop(self) -> None:
        """Pair whoever is free, at every wake-up or tick; while the store refuses writes
        (:attr:`write_failure`), pair nobody and try writing every :data:`RETRY_EVERY` s."""
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
            if self.write_failure is not None:
                if time.monotonic() < retry:
                    continue
                retry = time.monotonic() + RETRY_EVERY
                if not self.retry_writes():
                    continue
            try:
                self.pair()
            except StoreError as exc:  # a full disk: degraded, said once
                self.write_failed("a scheduler pass's games", exc)
            except Exception:  # never let one bad pass stop the league
                log.exception("scheduler pass failed")

    def pair(self) -> list[LiveGame]:
        """Start every game that free members can play now; return them.

        A pass reads only the members it may pair: the house bots, the connected bots and
        the bots that events or queued challenges name (never every member and token hash:
        a league with 25,000 people must not cost 25,000 rows four times a second).
        Connections whose token was revoked or replaced meanwhile are closed first
        (:meth:`sweep_revoked`), then the people queued for a bot that is free now are
        served (:meth:`_serve_queues`). Who plays whom next is :func:`.pairing.plan` (the
        rule of docs/league.md): open pairs first, then new pairs; a new pair is
        recorded here and takes the league's next opening in turn.
        """
        if self.stopping:
            return []
        self.hosted_now = frozenset(self.hosted.members(self.store))
        events = self.events.plan(set(self.connections) | self.hosted_now)
        wanted = set(self.connections) | set(self.challenges.queued_bots()) | set(events.members)
        wanted |= self.hosted_now
        wanted |= {m for start in events.starts for m in (start.x, start.o)}
        found = self.store.members.pairable(wanted)  # house bots and these bots, no one else
        members = {member_id: member for member_id, (member, _) in found.items()}
        self.sweep_revoked(members, {member_id: digest for member_id, (_, digest) in found.items()})
        self.unrated_pairs = events.unrated
        self.in_events = frozenset(events.members)
        self.stop_for_events(events.members, events.pairs)
        started: list[LiveGame] = self.pair_events(members, events.starts)  # events first
        before = set(self.live)
        # people who waited for a bot go before the ladder; bots in an event keep them waiting
        self._serve_queues(members, frozenset(events.members))
        started += [self.live[i] for i in sorted(set(self.live) - before)]
        ratings = self._ratings()
        now = time.monotonic()
        entrants = []
        for m in members.values():
            slots = 0 if m.id in events.members else self.slots(m)  # the ladder pauses for them
            if slots == 0:
                self.idle_since.pop(m.id, None)
            there = m.kind == "house" or m.id in self.connections or m.id in self.hosted_now
            present = not m.revoked and there
            waiting = now - self.idle_since.setdefault(m.id, now) if slots else 0.0
            entrants.append(
                Entrant(m.id, slots, ratings[m.id].rating, m.kind == "house", present, waiting)
            )
        open_pairs = [
            OpenPair(*row) for row in self.store.games.open_pairs() if row[0] not in events.pairs
        ]
        ladder: set[int] = set()
        for game in plan(entrants, open_pairs, self._between(), self.house_games):
            ladder |= {game.x, game.o}
            pair_id, opening = game.pair, game.opening
            if pair_id is None or opening is None:
                opening = self.store.games.pair_count() % len(self.settings.openings)
                pair_id = self.store.games.new_pair(game.x, game.o, opening)
            x, o = members[game.x], members[game.o]
            started.append(self.start_game(x, o, opening, pair_id=pair_id, leg=game.leg))
        # A bot the ladder paired, or waited for LADDER_WAIT seconds, or that has no
        # present opponent to wait for, serves its queue from the next pass on: the ladder
        # gets the game after a challenge game when an opponent comes free within that
        # wait, never more.
        around = {e.id for e in entrants if e.present}
        self.ladder_owed = {
            bot: since
            for bot, since in self.ladder_owed.items()
            if bot in members
            and bot not in ladder
            and now - since < LADDER_WAIT
            and bool(around - {bot})
        }
        return started

    def stop_for_events(self, members: set[int], pairs: set[int]) -> None:
        """Stop the games in play of events' ``members`` that are not their events' own
        (``pairs``): ladder and challenge games still in play when an event started.
        The event's games come first and would wait for them on a league clock of
        minutes; each is aborted (a ladder pair's leg is played again later), its
        players told why (detail ``event-started``), the stop logged."""
        for live in list(self.live.values()):
            if live.pair_id in pairs or not {live.x.id, live.o.id} & members:
                continue
            log.info("game %d stopped: an event of its players started", live.id)
            self.stop_game(live, ended("event-started"))

    def pair_events(
        self, members: Mapping[int, Member], starts: Sequence[EventStart]
    ) -> list[LiveGame]:
        """Start the events' games ``starts`` (:meth:`.event_runner.EventRunner.plan`):
        each as soon as both members are below their concurrency cap, connected or not
        (a bot that is not connected, nor hosted with a version accepted before the
        event's deadline, its opponent there, loses the game at once; both absent, both
        lose it at once; during the :data:`RECONNECT_GRACE` after the server starts, the
        game waits for them instead)."""
        started: list[LiveGame] = []
        grace = time.monotonic() - self.up_since < RECONNECT_GRACE
        for start in starts:
            x, o = members.get(start.x), members.get(start.o)
            if x is None or o is None or x.revoked or o.revoked:
                continue
            if self.busy[x.id] >= x.concurrency or self.busy[o.id] >= o.concurrency:
                continue
            house = {m.id for m in (x, o) if m.kind == "house"}
            deadline = self.store.submissions.deadline(start.event)
            hosted = {  # a version accepted before the event's deadline plays it
                m.id
                for m in (x, o)
                if m.id in self.hosted_now and self.hosted.version(self.store, m, deadline)
            }
            absent = {x.id, o.id} - set(self.connections) - house - hosted
            if grace and absent:
                continue
            gone: Color | Literal["both"] | None = None  # its loss at once, nobody waits
            if len(absent) == 1:
                gone = "x" if x.id in absent else "o"
            elif absent:
                gone = "both"
            started.append(
                self.start_game(
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
        return started

    def sweep_revoked(
        self, members: Mapping[int, Member], hashes: Mapping[int, str | None]
    ) -> None:
        """Close the connections whose member is gone or revoked, or whose token was
        replaced (``adjacency league revoke|rotate`` write the file directly, so the
        server learns it here); ``members`` are the league's bots and house bots (the
        connected ones at least), ``hashes`` their token hashes."""
        for member_id, outbox in list(self.connections.items()):
            revoked = member_id not in members or members[member_id].revoked
            if revoked or (outbox.token_hash and hashes.get(member_id) != outbox.token_hash):
                outbox.post({"type": "error", "detail": "this token was revoked or replaced"})
                outbox.close()
