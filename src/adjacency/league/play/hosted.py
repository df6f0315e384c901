"""Hosted bots: the teams whose code the league plays itself (:class:`HostedPlayers`).

A team (a member of kind ``bot``) with an accepted version (:mod:`.store.submission_rows`)
needs no client: the server plays its games with that version, as it plays house bots
(:mod:`.house`), but in the sandbox. A game's hosted side is one :class:`HostedSide`: the built
bot (:func:`adjacency.hosting.player.hosted_bot`) in one
:class:`~adjacency.sandbox.SandboxedProcess`, started when the game starts and ended when
it ends (:meth:`HostedPlayers.close`: everything it started is killed, so nothing
outlives the game). Which version plays: the latest accepted one, or in an event's game
the latest accepted before the event's deadline
(:meth:`~.store.submission_rows.SubmissionsRepo.playing`).

The clock (:mod:`adjacency.hosting.move_clock`): a hosted side thinks on a core of its
own (its sandbox held to one core, at most ``jobs`` sides computing at once:
:attr:`HostedPlayers.slots`, or on a Ray cluster its game's node's own slots,
:mod:`adjacency.hosting.ray_seats`; a move waiting for its slot is off the clock), so a move is
judged by its own wall time, its clock's seconds plus a grace, and charged that less the
grace, or the CPU its sandbox used in the move where that is more (thinking on the
opponent's time is never charged, as on the course's wall clock). The sandbox's monitor ends a
program whose CPU time passes what its clock has left
(:meth:`~adjacency.sandbox.SandboxedProcess.cap_cpu`). Nothing stands in for a hosted
bot: late is a loss on time, a crash or an illegal answer a loss with the program's
reason (:class:`Answer`).

A version is played from its build folder (:func:`.builder.version_folder`); one whose
build is not there (removed, or a league file restored on another machine) is built
again from its kept zip when it is next needed (:meth:`HostedPlayers.rebuild`), in the
same sandbox and under the same limits, and its team is not paired until then.

Seats run in threads of the players' own pool (:attr:`HostedPlayers.pool`), never in the
event loop: a move blocks its thread on the bot's pipe for up to its wall cap.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...core import Color
from ...core.errors import AdjacencyError
from ...hosting.player import Choice, load_choice
from ...hosting.ray_seats import RaySeats
from ...hosting.seat import Answer as Answer  # re-exported: the league's games read it here
from ...hosting.seat import BotSeat, Seat
from ...hosting.slots import Slots, default_slots
from ...sandbox import Outcome, SandboxedProcess, StopScope
from ...sandbox import check as sandbox_check
from ...serving.logs import say
from ..builder import rebuild, version_folder
from ..league_file import LeagueStore, Member
from ..store.submission_rows import Submission
from .machine_time import MachineClock

log = logging.getLogger(__name__)

ENDED_KEPT = 256
"""How many ended seats :attr:`HostedPlayers.ended` remembers (the latest)."""

TIMINGS_KEPT = 4096
"""How many hosted moves' seconds :attr:`HostedPlayers.timings` remembers (the latest)."""

SHARE_FLOOR = 0.5
"""The share of a core the latest hosted moves had while they were ready to run below
which no new game with a hosted side starts (:meth:`HostedPlayers.room`): while the
machine cannot give its games their cores, a new game waits in the pairing rather than
start only to be slowed (what it is not given is never charged, but its game drags)."""

SHARE_FLOOR_ENV = "ADJACENCY_SHARE_FLOOR"
"""The environment variable that sets a server's floor in place of :data:`SHARE_FLOOR`
(a share of a core from 0 to 1; ``0``: no game is held for the machine's load, as the
test suite's servers run, whose two workers keep two cores busy themselves)."""

SHARE_WINDOW = 30.0
"""Seconds of hosted moves :meth:`HostedPlayers.core_share` reads (the latest): once
none is that recent, games start again (the machine may have freed its cores)."""

CALM_SPAN = 5.0
"""Seconds for which the whole machine must have run what was ready to run
(:meth:`~.machine_time.MachineClock.calm`) for held games to start again before
:data:`SHARE_WINDOW` has passed: the moves that were starved then say what the machine
did, a calm reading since says what it does now."""

THREADS = 64
"""Threads of the seats' pool: each game's hosted sides block one while they start,
move or end (most of that time waiting on a pipe, not computing)."""


def share_floor() -> float:
    """The floor in force: :data:`SHARE_FLOOR_ENV`'s share where set, else
    :data:`SHARE_FLOOR`; a value that is not a share from 0 to 1 is refused, naming it."""
    text = os.environ.get(SHARE_FLOOR_ENV, "").strip()
    if not text:
        return SHARE_FLOOR
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise AdjacencyError(
            f"{SHARE_FLOOR_ENV}={text!r} is not a share of a core from 0 to 1 (the share "
            "of their cores the latest hosted moves had below which new games wait)"
        )
    return value


@dataclass(frozen=True)
class Version:
    """The version a hosted side plays: its submission and its build's choice."""

    submission: Submission
    choice: Choice


class HostedSide:
    """One hosted side of one game in the league: the version it plays and its
    :class:`~adjacency.hosting.seat.Seat` (here, or on a Ray cluster's node), whose
    :meth:`open`, :meth:`move` and :meth:`close` block (each called in a worker thread),
    the :attr:`slots` its start and moves hold while they compute, and when its bot is
    ready (:attr:`opened`)."""

    def __init__(self, version: Version, runner: Seat, slots: Slots) -> None:
        self.version = version
        self.runner = runner
        self.slots = slots
        """The slots of the machine it computes on: the server's (``--hosted-jobs``), or
        its game's node's on a Ray cluster (:class:`~adjacency.hosting.ray_seats.NodeSlots`)."""
        self.opened: asyncio.Future[None] | None = None
        """Done once the bot has started and shaken hands (its exception if it could not:
        :class:`~adjacency.bots.BotError` for the bot's own failure)."""

    @property
    def closed(self) -> bool:
        """Whether the game has ended for this seat (set first, then :meth:`close`)."""
        return self.runner.closed

    @closed.setter
    def closed(self, value: bool) -> None:
        self.runner.closed = value

    @property
    def process(self) -> SandboxedProcess | None:
        """Its sandboxed process when it runs here and has started (on a Ray node: none)."""
        return self.runner.process

    def open(self) -> None:
        """Start the bot in its sandbox and shake hands (off the clock)."""
        self.runner.open()

    def move(self, fen: str, left: float, cap: float) -> Answer:
        """The bot's move (:meth:`~adjacency.hosting.seat.BotSeat.move`)."""
        return self.runner.move(fen, left, cap)

    def close(self) -> Outcome | None:
        """End its process and everything it started (idempotent); how it ended."""
        return self.runner.close()


class HostedPlayers:
    """The league's hosted sides: their versions, seats, threads and the move slots."""

    def __init__(self, db: Path | None, jobs: int | None = None, executor: str = "local") -> None:
        self.db = None if db is None else Path(db)
        self.executor = executor
        self.remote: RaySeats | None = None
        """The games' actors on the Ray cluster (``executor`` ``ray``, once started)."""
        self.jobs_count = max(1, jobs or default_slots())
        self.share_floor = share_floor()
        """The share of a core below which new games wait (:meth:`held`)."""
        self.slots = Slots(self.jobs_count)
        """The server's slots of computing sides (:class:`~adjacency.hosting.slots.Slots`):
        hosted moves and starts here, and the builder's builds and checks (on a Ray
        cluster a game's sides compute in its node's own slots instead)."""
        self.pool = concurrent.futures.ThreadPoolExecutor(THREADS, "hosted")
        self.seats: dict[tuple[int, Color], HostedSide] = {}
        self.available = False
        """Whether the sandbox starts here (:meth:`start`): without it nobody is hosted."""
        self.computing = 0
        """Hosted moves and starts computing now (at most :attr:`jobs_count`, or on a Ray
        cluster the nodes' slots together)."""
        self.most_computing = 0
        """The most that ever computed at once (what ``--hosted-jobs`` bounds)."""
        self.most_games = 0
        """The most games with a hosted side that were ever in play at once."""
        self.timings: collections.deque[tuple[float, float, float]] = collections.deque(
            maxlen=TIMINGS_KEPT
        )
        """The latest hosted moves' ``(wall, own wall, CPU)`` seconds (what the
        benchmark and the tests read of the slots' effect)."""
        self.shares: collections.deque[tuple[float, float, float]] = collections.deque(
            maxlen=TIMINGS_KEPT
        )
        """The latest hosted moves' ``(when, CPU, waited for a CPU)`` seconds
        (:meth:`core_share`)."""
        self.ended: collections.deque[tuple[int, Color, int | None, Outcome | None]] = (
            collections.deque(maxlen=ENDED_KEPT)
        )
        """The latest seats ended: ``(game, colour, bubblewrap's pid, outcome)``, once
        their processes are gone (the outcome counts any that would not die)."""
        self.rebuilding: set[int] = set()
        """The versions being built again here now (:meth:`rebuild`)."""
        self.unbuildable: dict[int, str] = {}
        """The versions that could not be built again here, with why (until a restart)."""
        self._rebuilds = threading.Lock()
        self._halt = StopScope()
        """The rebuilds' sandboxes, ended at once by :meth:`stop`."""

    def games_in_play(self) -> int:
        """The games with a hosted side in play now."""
        return len(self.games())

    def games(self) -> set[int]:
        """The ids of the games with a hosted side in play now (each holds a slot)."""
        return {game for game, _ in self.seats}

    def room(self, machine: MachineClock | None = None) -> int:
        """How many more games with a hosted side may start now: one a slot, so that a
        game's side whose move is due finds a core without waiting on other games'
        (the scheduler leaves the others in the pairing); none while :meth:`held` (by
        ``machine``'s readings). The server's slots, or on a Ray cluster the nodes' own
        (:meth:`~adjacency.hosting.ray_seats.RaySeats.room`)."""
        if self.held(machine=machine):
            return 0
        if self.remote is not None:
            return self.remote.room()
        return max(0, self.jobs_count - self.games_in_play())

    def core_share(self, now: float | None = None) -> float | None:
        """The share of a core the hosted moves of the last :data:`SHARE_WINDOW` seconds
        had while they were ready to run (their CPU over their CPU and their waits for
        a CPU); ``None`` when none waited or computed then."""
        since = (time.monotonic() if now is None else now) - SHARE_WINDOW
        cpu = waited = 0.0
        for when, used, held in reversed(self.shares):
            if when < since:
                break
            cpu, waited = cpu + used, waited + held
        ready = cpu + waited
        return None if ready < 0.05 else cpu / ready

    def held(self, now: float | None = None, machine: MachineClock | None = None) -> bool:
        """Whether new games with a hosted side wait in the pairing: the machine gave
        the latest hosted moves less than :attr:`share_floor` of their cores
        (:data:`SHARE_FLOOR` unless :data:`SHARE_FLOOR_ENV` says otherwise), and
        ``machine`` (the league's :class:`~.machine_time.MachineClock`; ``None``: not
        read) has not been calm for the last :data:`CALM_SPAN` seconds. Without a
        calm reading (no PSI, the machine still busy) the hold lasts until a move
        shows the cores given again, or :data:`SHARE_WINDOW` passes without one."""
        share = self.core_share(now)
        if share is None or share >= self.share_floor:
            return False
        return machine is None or not machine.calm(CALM_SPAN)

    def start(self) -> None:
        """Check that the sandbox starts here; where it does not, no member is hosted
        (said once in the log with the fix) and nothing is ever run unsandboxed."""
        if self.db is None:
            return
        try:
            sandbox_check()
        except Exception as exc:
            say(log, logging.WARNING, "hosted-off", reason=exc)
            return
        if self.executor == "ray":  # the games' hosted sides on the cluster's nodes
            self.remote = RaySeats()
        self.available = True

    def members(self, store: LeagueStore) -> set[int]:
        """The members the league plays itself now: those whose latest accepted version
        is built here (none where the sandbox cannot start). A version whose build is
        not here is built again from its kept zip (:meth:`rebuild`); its team is not
        played, nor paired, until that is done."""
        if not self.available:
            return set()
        latest = store.submissions.latest_accepted()
        names = store.members.names(latest)
        return {m for m, submission in latest.items() if self._built(submission, names[m])}

    def _built(self, submission: Submission, team: str) -> bool:
        """Whether ``submission``'s build is here (its choice file read at each pass, a
        small file: a folder removed while the server runs is seen before the team's next
        game); if not, it is built again (:meth:`rebuild`)."""
        assert self.db is not None
        folder = version_folder(self.db, submission.member_id, submission.version)
        if load_choice(folder) is None:
            self.rebuild(submission, team)
            return False
        return True

    def rebuild(self, submission: Submission, team: str) -> None:
        """Build the accepted ``submission`` again from its kept zip, in a thread, under
        the same sandbox and limits as its first build (:func:`.builder.rebuild`), one
        at a time; once done its team is played again. A version that cannot be built
        again (the machine lacks its tools) is said once in the log with the reason and
        not tried again until the server restarts: its team is not hosted meanwhile."""
        if self.db is None or submission.id in self.rebuilding | set(self.unbuildable):
            return
        self.rebuilding.add(submission.id)
        said = {"team": team, "version": submission.version}
        say(log, logging.WARNING, "version-rebuilding", **said)
        self.pool.submit(self._rebuild, self.db, submission, said)

    def _rebuild(self, db: Path, submission: Submission, said: dict[str, object]) -> None:
        """:meth:`rebuild`'s work, in a thread of :attr:`pool`. One that a stopping
        server ended (:meth:`stop`) is no failure of the version: it is built again
        at the next start (its build folder holds no choice yet)."""
        try:
            if self._halt.stopped:  # the server stops: built at the next start
                return
            with self._rebuilds, self._halt.inside():
                rebuild(db, submission)
            say(log, logging.INFO, "version-rebuilt", **said)
        except Exception as exc:
            if self._halt.stopped:
                return
            self.unbuildable[submission.id] = str(exc)
            say(log, logging.ERROR, "version-not-rebuilt", **said, reason=exc)
        finally:
            self.rebuilding.discard(submission.id)

    def version(
        self, store: LeagueStore, member: Member, deadline: float | None = None
    ) -> Version | None:
        """The version ``member`` plays (before ``deadline``, an event's), built on this
        server; ``None`` if it is not hosted."""
        if not self.available or self.db is None or member.kind != "bot":
            return None
        submission = store.submissions.playing(member.id, deadline)
        if submission is None:
            return None
        folder = version_folder(self.db, member.id, submission.version)
        choice = load_choice(folder)
        if choice is None:  # gone: built again, and played once it is
            self.rebuild(submission, member.name)
            return None
        return Version(submission, choice)

    def seat(self, game_id: int, color: Color) -> HostedSide | None:
        """The hosted seat of ``color`` in ``game_id``, if that side is hosted."""
        return self.seats.get((game_id, color))

    def sit(self, game_id: int, color: Color, version: Version) -> HostedSide:
        """Seat ``version`` at ``color`` of ``game_id`` and start its bot now, in a
        thread within a slot (:attr:`HostedSide.opened` says when it is ready); on a Ray
        cluster, on its game's node, in that node's slots."""
        if self.remote is None:
            seat = HostedSide(version, BotSeat(version.choice), self.slots)
        else:
            runner = self.remote.seat(game_id, color, version.choice)
            seat = HostedSide(version, runner, runner.slots)
        self.seats[(game_id, color)] = seat
        self.most_games = max(self.most_games, len({game for game, _ in self.seats}))
        seat.opened = asyncio.ensure_future(self._compute(seat.slots, seat.open))
        seat.opened.add_done_callback(_quiet)
        return seat

    def start_move(
        self, seat: HostedSide, fen: str, left: float, cap: float
    ) -> concurrent.futures.Future[Answer]:
        """``seat``'s move, set computing in a thread (its slot already held): its
        future, done as soon as the thread came back, whenever the loop hears of it."""
        return self.pool.submit(seat.move, fen, left, cap)

    async def move(self, work: concurrent.futures.Future[Answer]) -> Answer:
        """The answer of a move :meth:`start_move` set computing, once it is in."""
        answer = await asyncio.wrap_future(work)
        self.timings.append((answer.wall, answer.own, answer.cpu))
        self.shares.append((time.monotonic(), answer.cpu, max(0.0, answer.wall - answer.own)))
        return answer

    async def _compute(self, slots: Slots, work: Callable[[], None]) -> None:
        """Run ``work`` (a seat's start) in a thread within a slot of ``slots``."""
        async with slots:
            self.enter()
            try:
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(self.pool, work)
            finally:
                self.leave()

    def enter(self) -> None:
        """A hosted computation holds a slot now (counted for :attr:`most_computing`)."""
        self.computing += 1
        self.most_computing = max(self.most_computing, self.computing)

    def leave(self) -> None:
        """A hosted computation gave its slot back."""
        self.computing -= 1

    def close(self, game_id: int) -> None:
        """The game ended: end its hosted sides' processes (in threads, not waited for
        here)."""
        colors: tuple[Color, Color] = ("x", "o")
        for color in colors:
            seat = self.seats.pop((game_id, color), None)
            if seat is not None:
                seat.closed = True
                self.pool.submit(self._end, game_id, color, seat)

    def _end(self, game_id: int, color: Color, seat: HostedSide) -> None:
        """End ``seat`` (in a thread) and remember how (:attr:`ended`)."""
        process = seat.process
        pid = process.pid if process is not None else None
        self.ended.append((game_id, color, pid, seat.close()))

    def stop(self) -> None:
        """The server stops: end every rebuild's sandbox (its version is built again at
        the next start, as are those not begun) and every seat's process, and wait
        until the pool's threads have unwound (moments: nothing they wait on runs any
        more), never for a build to finish."""
        self._halt.stop()
        seats = list(self.seats.values())
        self.seats.clear()
        for seat in seats:
            seat.close()
        if self.remote is not None:
            self.remote.stop()
        self.pool.shutdown(wait=True)  # the ends asked for already run too


def _quiet(future: asyncio.Future[None]) -> None:
    """Mark a start's exception retrieved: the seat's first move reads and tells it."""
    if not future.cancelled():
        future.exception()
