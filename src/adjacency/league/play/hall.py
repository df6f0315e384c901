"""The live league: the parts of one league server's live state, wired together
(:class:`Hall`), and their lifetime (start, the periodic writes, stop).

The hall holds, rather than is, each part; the routers name the part they use:

* :attr:`Hall.games` (:mod:`.games`): the games in play, their clocks and their ends;
* :attr:`Hall.actions` (:mod:`.player_actions`): what members ask of their games, checked;
* :attr:`Hall.presence` (:mod:`.presence`): who is connected or present;
* :attr:`Hall.desk` (:mod:`.challenge_desk`): people's challenges;
* :attr:`Hall.scheduler` (:mod:`.scheduler`): who plays whom (events, queues, ladder);
* :attr:`Hall.establishment` (:mod:`.established`): people's establishment, cached.

Everything here runs in the server's event loop (one thread), so the live state
needs no locks; the store is written synchronously (a SQLite transaction per
game start and end, milliseconds) and house moves run in worker processes
(:mod:`.house`).

Rules the hall's parts enforce (docs/league.md says them to players):

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
* Games come in colour-swapped pairs from one opening (:meth:`.scheduler.Scheduler.pair`,
  who plays whom: :mod:`.pairing`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time

from ...core.errors import StoreError
from ...serving.details import ended
from ...serving.logs import say
from ..league_file import LeagueStore
from .challenge_desk import ChallengeDesk
from .established import EstablishedCache
from .games import PROGRESS_EVERY, Games
from .hosted import HostedPlayers
from .house import HousePlayers
from .outbox import Outbox
from .player_actions import PlayerActions
from .presence import Presence
from .scheduler import TICK, Scheduler

log = logging.getLogger(__name__)

EXPIRE_EVERY = 600.0
"""Seconds between two deletions of the people who never played (the rules'
``people_expire_days``)."""


class Hall:
    """The live state of one league server: its games in play, who is there, people's
    challenges and the scheduler, each a part held here."""

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
        """``tick``: seconds between the scheduler's passes; ``house_games``: whether house
        bots play each other; ``pause``, ``pace`` and ``hosted``: the games'
        (:class:`~.games.Games`)."""
        self.store = store
        self.presence = Presence()
        """Who is connected or present (:mod:`.presence`)."""
        self.games = Games(store, house, self.presence, pause, pace, hosted)
        """The games in play (:mod:`.games`)."""
        self.actions = PlayerActions(self.games)
        """The members' moves, failures, resignations and aborts, checked
        (:mod:`.player_actions`)."""
        self.desk = ChallengeDesk(store, self.games, self.presence, self.wake)
        """People's challenges (:mod:`.challenge_desk`)."""
        self.scheduler = Scheduler(store, self.games, self.presence, self.desk, tick, house_games)
        """Who plays whom, and when (:mod:`.scheduler`)."""
        self.establishment = EstablishedCache(store, self.games)
        """People's establishment, read off the loop and cached (:mod:`.established`)."""
        # A game's end may establish a person, cools a challenge's pair down and frees
        # its players for the next pass.
        self.games.ended += [self.establishment.forget, self.desk.game_ended, lambda _: self.wake()]
        self._task: asyncio.Task[None] | None = None
        self._saver: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Run the scheduler's next pass now (:meth:`.scheduler.Scheduler.wake`)."""
        self.scheduler.wake()

    # ----------------------------------------------------------- lifetime

    async def start(self) -> None:
        """Abort games left in flight by a crash, start the house bots' worker (if the
        league has house bots) and the scheduler."""
        flown = self.store.games.games(status="playing")
        aborted = self.store.games.abort_in_flight()
        if aborted:
            names = self.store.members.names({m for g in flown for m in (g.x_id, g.o_id)})
            games = ", ".join(f"{g.id} ({names.get(g.x_id)}-{names.get(g.o_id)})" for g in flown)
            say(log, logging.WARNING, "games-aborted-at-start", count=aborted, games=games)
        for game in flown:  # each player hears it when it connects again (attach)
            for member_id in (game.x_id, game.o_id):
                self.presence.unheard.setdefault(member_id, []).append(game.id)
        self.scheduler.arm()
        await asyncio.to_thread(self.games.hosted.start)
        self.scheduler.up_since = self.presence.machine.mark()  # the reconnection grace's start
        loop = asyncio.get_running_loop()
        house = [m for m in self.store.members.members() if m.kind == "house" and not m.revoked]
        if house:  # before the first game, so its first house move is not the slow one
            await self.games.house.warm_up(house[0].spec or "random")
        self._task = loop.create_task(self.scheduler.run())
        self._saver = loop.create_task(self._progress_loop())

    async def stop(self) -> None:
        """Stop scheduling; games in play are aborted (unrated, their moves kept) and their
        players told (``game_end``, termination ``aborted``); connections are closed once
        that went out (bounded by :data:`~.outbox.DRAIN`). Idempotent: the server calls it
        before closing its connections, and the app's lifespan again."""
        self.games.stopping = True  # a request or a connection's message still served starts none
        tasks = {task for task in (self._task, self._saver) if task is not None}
        for task in tasks:
            task.cancel()
        if tasks:  # asyncio.wait: their cancellation is not raised here, but this one's is
            await asyncio.wait(tasks)
        self._task = self._saver = None
        self.games.abort_all(ended("server-stopped"))
        outboxes = list(self.presence.connections.values())
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
                await self.games.save_progress()
            except StoreError as exc:  # a full disk: degraded, said once; the games go on
                self.games.writes.failed("the moves of the games in play", exc)
            except Exception:  # a crash then loses these moves; the games go on
                log.exception("could not write the moves of the games in play")

    async def expire_people(self) -> list[str]:
        """Delete the people who joined more than the rules' ``people_expire_days`` ago
        and never played, unless their page is open now
        (:meth:`~adjacency.league.store.members.MembersRepo.expire_people`); runs at the start
        and every :data:`EXPIRE_EVERY` seconds, in a worker thread (it reads every
        person: on a league with thousands that is no work for the games' event loop)."""
        days = self.games.rules.people_expire_days
        if days <= 0:
            return []
        cutoff, keep = time.time() - days * 86400, self.presence.present()
        gone = await asyncio.to_thread(self.store.members.expire_people, cutoff, keep)
        if gone:
            say(log, logging.INFO, "people-expired", count=len(gone), days=f"{days:g}")
        return gone

    # -------------------------------------------------------- connections

    def attach(self, outbox: Outbox) -> None:
        """A member connected: it replaces its previous connection
        (:meth:`.presence.Presence.attach`), is sent its games in play again, and the
        scheduler runs (it may be paired now)."""
        self.presence.attach(outbox)
        self.games.resend(outbox.member.id)
        self.scheduler.wake()
