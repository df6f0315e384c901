"""The sides the server plays itself in the games in play (:class:`ServerSides`): house
bots, whose moves are computed in worker processes (:mod:`.house`), and hosted bots,
the teams' accepted versions, whose moves are computed in the sandbox (:mod:`.hosted`).

Each move is computed off the event loop and handed to the games as any bot's answer
(:meth:`Referee.arrive`), or ends the game as that side's loss. Contract:

* every answer that comes back late (the game moved on or ended meanwhile:
  :meth:`Referee.current`) changes nothing;
* a house bot's move is charged the CPU time its worker used to choose it (its search
  stops at its own budget), never the executor's dispatch or the machine's load; its
  flag is a backstop at :func:`~adjacency.hosting.move_clock.ceiling` of its clock and
  :data:`OVERRUN` more (a worker that never answers); one that crashes loses by
  disconnection, with the error in the record;
* a hosted side's clock runs only once its bot has started and a slot of its seat's
  (:attr:`.hosted.HostedSide.slots`: ``--hosted-jobs``, or on a Ray cluster its game's
  node's own) is free, a core of its own; each move is judged by its own wall
  time and charged it less a grace, or its CPU time less the grace where that is more
  (:mod:`adjacency.hosting.move_clock`, :meth:`~adjacency.round.clock.Clock.charge`);
  it is waited for up to :func:`~adjacency.hosting.move_clock.ceiling`, and past that
  and :data:`OVERRUN` more seconds the side loses on time if its thread has not come
  back (one that came back is judged by its answer, however late the loop hears it);
  a bot that could not start loses by disconnection, and a failure of the server's own
  (no sandbox at the bot's start, its machinery raising during a move) abandons the game
  without a result, both sides told (``hosted-server-failed`` during a move);
* :meth:`ServerSides.cancel` cancels the moves being computed (the server stops).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Coroutine
from typing import Protocol

from ...bots import BotError, BotFailure, BotStarved
from ...core.details import Detail
from ...core.fen import Color
from ...core.game import Termination
from ...core.text import quote
from ...hosting.move_clock import ceiling
from ...round.player_kinds import Kind
from ...serving.details import ended
from ...serving.logs import say
from ..league_file import LeagueStore
from ..store.move_time_rows import MoveSeconds
from .hosted import Answer, HostedPlayers, HostedSide
from .house import HouseMove, HousePlayers
from .live import LiveGame
from .replays import Replays

log = logging.getLogger(__name__)

HOUSE_OVERHEAD = 0.1
"""Seconds a house move keeps in reserve for the executor's dispatch (on top of the
clock's own reserve)."""

OVERRUN = 2.0
"""Seconds past a hosted move's wall cap after which the server ends the game on time
whatever its bot's thread does (the bot itself is stopped and killed at the cap)."""


class Referee(Protocol):
    """What the server's sides need of the games in play (:class:`~.games.Games`)."""

    live: dict[int, LiveGame]

    def current(self, live: LiveGame, version: int) -> bool:
        """Whether ``live`` is still in play at ``version`` (no move or end since)."""
        ...

    def arrive(self, live: LiveGame, square: object) -> None:
        """The side to move's answer is in."""
        ...

    def forfeit(self, live: LiveGame, termination: Termination, detail: str | Detail) -> None:
        """The side to move loses with ``termination``."""
        ...

    def lose_on_time(self, live: LiveGame, now: float, detail: Detail) -> None:
        """The side to move's time is up at ``now``."""
        ...

    def stop_game(self, live: LiveGame, reason: Detail) -> None:
        """End the game as aborted (no result)."""
        ...

    @property
    def replays(self) -> Replays:
        """The pairs whose games the machine starved (:mod:`.replays`)."""
        ...


def seconds(**figures: float) -> dict[str, str]:
    """Figures in seconds as a detail's params, to the hundredth (``clock="5.00"``)."""
    return {name: f"{value:.2f}" for name, value in figures.items()}


class ServerSides:
    """Computes the moves of the sides the server plays, one task per move."""

    def __init__(
        self,
        games: Referee,
        store: LeagueStore,
        house: HousePlayers,
        hosted: HostedPlayers,
    ) -> None:
        self.games = games
        self.store = store
        self.house = house
        self.hosted = hosted
        self._tasks: set[asyncio.Task[object]] = set()

    def play_hosted(self, live: LiveGame) -> None:
        """Start computing the hosted side to move's move (its clock starts once the
        move may compute: :meth:`_hosted_move`; a seat no longer hosted: nothing)."""
        seat = self.hosted.seat(live.id, live.game.position.turn)
        if seat is not None:
            self._spawn(self._hosted_move(live, live.version, seat))

    def play_house(self, live: LiveGame) -> None:
        """Start computing the house bot's move (the side to move; its clock runs)."""
        self._spawn(self._house_move(live, live.version))

    def cancel(self) -> None:
        """Cancel every move being computed."""
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, work: Coroutine[object, object, object]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def seat(self, live: LiveGame, event: int | None) -> None:
        """Seat the hosted sides of a new game and record their versions (none: nothing)."""
        deadline = None if event is None else self.store.submissions.deadline(event)
        colors: tuple[Color, Color] = ("x", "o")
        versions = {c: self.hosted.version(self.store, live.member(c), deadline) for c in colors}
        if not any(versions.values()):
            return
        ids = {c: v.submission.id if v is not None else None for c, v in versions.items()}
        self.store.submissions.set_versions(live.id, ids["x"], ids["o"])
        for color, version in versions.items():
            if version is not None:
                self.hosted.sit(live.id, color, version)
                live.kinds[color] = Kind.HOSTED

    async def _house_move(self, live: LiveGame, version: int) -> None:
        """A house bot's move, computed in a worker process within its clock's budget and
        charged the CPU time it took there (:class:`~.house.HouseAnswer`); a crash loses by
        disconnection, with the error in the record."""
        mover = live.member(live.game.position.turn)
        item = HouseMove(
            mover.spec or "random",
            live.id * 1000 + len(live.game.moves),
            live.game.position.fen(),
            max(0.05, live.budget() - HOUSE_OVERHEAD),
        )
        try:
            answer = await self.house.choose(item)
        except asyncio.CancelledError:
            raise
        except BotFailure as failure:
            if self.games.current(live, version):
                self.games.forfeit(live, failure.termination, failure.detail)
            return
        except Exception as exc:
            if self.games.current(live, version):
                self.games.forfeit(
                    live,
                    Termination.DISCONNECTION,
                    ended(
                        "house-crashed",
                        player=mover.name,
                        spec=mover.spec,
                        error=f"{type(exc).__name__}: {quote(str(exc))}",
                    ),
                )
            return
        if self.games.current(live, version):
            # Charged its thinking, its CPU in its worker: the executor's dispatch and the
            # worker's waits for a CPU are the machine's (its own limit ends its search).
            live.clock.charge(live.game.position.turn, answer.cpu, time.monotonic())
            self.games.arrive(live, answer.move)

    async def _hosted_move(self, live: LiveGame, version: int, seat: HostedSide) -> None:
        """A hosted side's move: once its bot has started and a slot of its seat's
        (:attr:`.hosted.HostedSide.slots`) is free (off the clock until then), its clock
        runs, the move is computed in the sandbox and charged (:meth:`_hosted_answer`).
        A bot that could not start loses by disconnection with its reason; a failure of
        the server's own (no sandbox; the move's machinery raising) abandons the game
        without a result."""
        color = live.game.position.turn
        mover = live.member(color)
        if not await self._opened(live, version, seat, mover.name):
            return
        async with seat.slots:
            if not self.games.current(live, version):
                return
            self.hosted.enter()
            try:
                now = time.monotonic()
                live.clock.start(color, now)
                live.asked = now
                left = live.clock.left(color, now)
                cap = ceiling(left)
                work = self.hosted.start_move(seat, live.game.position.fen(), left, cap)
                live.timer = asyncio.get_running_loop().call_later(
                    cap + OVERRUN, self._hosted_overrun, live.id, version, cap, work
                )
                answer = await self.hosted.move(work)
            except Exception:
                # The server's own machinery failed (the seat's thread, the sandbox's
                # accounting), not the bot: no side is to blame, so no result.
                log.exception("hosted bot %s: the server failed during its move", mover.name)
                if self.games.current(live, version):
                    self.games.stop_game(live, ended("hosted-server-failed", player=mover.name))
                return
            finally:
                self.hosted.leave()
        if self.games.current(live, version):
            self._hosted_answer(live, answer, left, seat)

    def _hosted_answer(self, live: LiveGame, answer: Answer, left: float, seat: HostedSide) -> None:
        """A hosted move is in: its side's clock is charged what
        :func:`~adjacency.hosting.move_clock.charge` says (its own wall time less the
        grace, or its CPU time; :meth:`~adjacency.round.clock.Clock.charge`), then the
        move is played as any bot's; a move charged past its clock loses on time with its
        figures (``hosted-late``), as does a program ended for its CPU time
        (``hosted-cpu``); a move the machine starved (its own time within its
        cap, no answer by the ceiling) abandons the game without a result
        (``hosted-starved``); any other failure (a crash, an illegal answer, its own wall
        time past its cap) loses with its reason. A lost move's picture of its board (a
        program played through its window) and its program's last output are kept for
        its team, in worker threads, and so are the move's CPU, idle and waited seconds
        (:mod:`adjacency.league.store.move_time_rows`)."""
        color = live.game.position.turn
        name = live.member(color).name
        if answer.picture is not None or answer.output:
            member, submission = live.member(color).id, seat.version.submission.id
            if answer.picture is not None:
                keep = self.store.pictures.keep
                self._spawn(
                    asyncio.to_thread(keep, member, submission, "game", answer.picture, live.id)
                )
            if answer.output:
                printed = self.store.outputs.keep
                self._spawn(asyncio.to_thread(printed, member, submission, answer.output, live.id))
        figures = MoveSeconds(
            ply=len(live.game.moves),
            member_id=live.member(color).id,
            cpu=round(answer.cpu, 3),
            idle=round(max(0.0, answer.own - answer.cpu), 3),
            waited=round(max(0.0, answer.wall - answer.own), 3),
            charged=round(answer.charged, 3),
        )
        self._spawn(asyncio.to_thread(self.store.move_times.keep, live.id, figures))
        now = time.monotonic()
        if live.timer is not None:
            live.timer.cancel()
        if answer.out_of_cpu:
            live.clock.charge(color, max(answer.charged, left), now)
            live.used[color] += answer.charged
            words = seconds(clock=left, cpu=answer.cpu, wall=answer.own)
            self.games.lose_on_time(live, now, ended("hosted-cpu", player=name, **words))
            return
        if answer.failure is not None and answer.failure[0] is Termination.ABANDONED:
            # Starved by the machine's other work, measured outside its sandbox: not the
            # bot's fault, so no result; the pair is played again later (:mod:`.replays`),
            # and a leg starved twice is drawn by that rule.
            self._starved(live, name, answer.failure[1])
            return
        live.clock.charge(color, answer.charged, now)
        if answer.failure is not None or answer.move is None:
            termination, reason = answer.failure or (Termination.DISCONNECTION, "no move")
            live.used[color] += answer.charged
            self.games.forfeit(live, termination, ended("bot-failed", player=name, error=reason))
            return
        if answer.charged > left:  # in time by its wall time, its CPU past its clock
            live.used[color] += answer.charged
            words = seconds(clock=left, charged=answer.charged, cpu=answer.cpu, wall=answer.own)
            self.games.lose_on_time(live, now, ended("hosted-late", player=name, **words))
            return
        self.games.arrive(live, answer.move)

    async def _opened(self, live: LiveGame, version: int, seat: HostedSide, name: str) -> bool:
        """Wait for a hosted side's bot to have started; True once it has. Else its game
        is decided here: a bot that could not start loses by disconnection with its
        reason; one the machine kept from starting (:class:`~adjacency.bots.BotStarved`),
        or a failure of the server's own, ends it without a result."""
        assert seat.opened is not None
        try:
            await asyncio.shield(seat.opened)
        except asyncio.CancelledError:
            raise
        except BotStarved as exc:  # the machine kept it from starting: no result
            if self.games.current(live, version):
                self._starved(live, name, str(exc))
            return False
        except BotError as exc:
            if self.games.current(live, version):
                detail = ended("could-not-start", player=name, error=str(exc))
                self.games.forfeit(live, Termination.DISCONNECTION, detail)
            return False
        except Exception as exc:
            if self.games.current(live, version):
                say(log, logging.ERROR, "hosted-not-started", team=name, reason=exc)
                self.games.stop_game(live, ended("could-not-start", player=name, error=str(exc)))
            return False
        return True

    def _starved(self, live: LiveGame, name: str, account: str) -> None:
        """A hosted side the machine did not run (at its start, or at a move): not the
        bot's fault, so no result, however often it happens; the pair's leg is played
        again once its back-off has passed (:mod:`.replays`), an event's in its round."""
        times = self.games.replays.starved(live.pair_id, live.leg)
        say(
            log,
            logging.WARNING,
            "game-replayed-starved",
            game=live.id,
            player=name,
            times=max(times, 1),
        )
        self.games.stop_game(live, ended("hosted-starved", player=name, account=account))

    def _hosted_overrun(
        self, game_id: int, version: int, cap: float, work: concurrent.futures.Future[Answer]
    ) -> None:
        """A hosted move's thread has not come back :data:`OVERRUN` s past its wall cap
        (its bot is killed at the cap): the side loses on time all the same. A thread
        that came back (``work`` done) is judged by its answer, however late the loop is
        to hear of it: a loop held up past the timer runs it before the move's own
        wake-up, and the answer's own account says whether the bot was late."""
        live = self.games.live.get(game_id)
        if live is None or not self.games.current(live, version) or work.done():
            return
        name = live.member(live.game.position.turn).name
        reason = f"no answer within the cap of {cap:.1f} s of wall time"
        detail = ended("bot-failed", player=name, error=reason)
        self.games.forfeit(live, Termination.TIME_FORFEIT, detail)
