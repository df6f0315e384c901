"""How a hosted move is judged: by its wall time, as the course judges it
(:func:`blame`, :func:`charge`), shared by the games and the check.

A hosted program thinks on a core of its own: its sandbox is held to one core
(:mod:`adjacency.sandbox.cgroup`) and the league lets no more sides compute at once than
it has cores for (``--hosted-jobs``; on a Ray cluster, each node's own slots). So its
wall time is its thinking time, as on the course's machines, where a program is given
5 s a move by the wall clock and many cut their own search by it. A move is judged so:

- it may take its clock's seconds plus :data:`GRACE` of wall time of its own
  (:func:`wall_cap`): the grace is the driver's own work at each move of a program
  played through its window (the opponent's move clicked in and shown, the bot's mark
  read from the board once it holds still) and the pipes, measured; its clock is
  charged its own wall time less the grace (:func:`charge`), or the CPU its sandbox used
  since its previous move ended where that is more (thinking on the opponent's time is
  on its own clock);
- past the cap it loses on time, whatever it did meanwhile (slept, waited, computed on
  threads of lowered priority: the sandbox denies those);
- its own time is the wall time less what was the server's: where the machine could
  not give it its core, its processes waited for a CPU (its group's figure, which a
  program may inflate) *and* the machine's other processes took that share of its core
  (measured outside the sandbox, :class:`~adjacency.sandbox.CoreWatch`, which it cannot
  inflate); the lesser of the two is the server's (:attr:`MoveTime.excused`). A move is
  waited for up to :func:`ceiling` (three times its cap); one that has not answered by then
  though its own time is within its cap was starved by the server: ``ABANDONED``, no
  result.

With the league's slots no more than its cores, the machine's other work is the only
way a move is excused: a server of its own abandons nothing. The CPU a move used is
kept in every account (the record of a loss or an abandoned game), beside the wall time
it was judged by.
"""

from __future__ import annotations

import time as clock
from dataclasses import dataclass

from ..core.game import Termination
from ..sandbox import CoreWatch, SandboxedProcess
from .kinds import KINDS

GRACE = 0.5
"""Wall seconds a move may take beyond its clock's: the driver's own work at a move of a
program played through its window, measured (``benchmarks/bench_fx_driver.py``, a bot
answering at once) at 86 ms median, 129 ms at p95 and 358 ms at most at a load of 12 on
2 cores; a program of the engine protocol needs a few milliseconds of it."""


def start_allowance(kind: str) -> float:
    """The free seconds of a start of a program of ``kind``: its entry's
    (:attr:`~.kinds.ProgramKind.start`; a kind is in the table or it is no kind)."""
    return KINDS[kind].start


def opening_allowance(kind: str) -> float:
    """The free seconds of the first move of a program of ``kind``: the opening of its
    game before its bot thinks, its entry's (:attr:`~.kinds.ProgramKind.opening`)."""
    return KINDS[kind].opening


def start_charge(time: MoveTime, kind: str) -> float:
    """The seconds of a program's start beyond its kind's allowance, charged to its first
    move by the same clock as its moves (its own wall time, or its CPU where more): a
    program that computes before it answers the handshake (a book of first moves) pays
    for it."""
    return max(0.0, max(time.own, time.cpu) - start_allowance(kind))


class StartWatch:
    """A program's start as it passes, from just before its sandbox starts to its answer
    to the handshake: :meth:`over` is what its kind's allowance leaves to charge to its
    first move (:func:`start_charge`), in a game and in the check alike."""

    def __init__(self) -> None:
        self.core = CoreWatch()
        self.started = clock.monotonic()

    def over(self, process: SandboxedProcess, kind: str) -> float:
        """What its first move's clock is short, now that ``process`` has answered the
        handshake: the start's seconds beyond ``kind``'s allowance (:func:`start_charge`),
        less the opening of its game (:func:`opening_allowance`): negative where its
        first move has seconds more."""
        cpu = process.cpu_seconds()
        took = MoveTime(
            cpu, clock.monotonic() - self.started, process.waited_seconds(), self.core.denied(cpu)
        )
        return start_charge(took, kind) - opening_allowance(kind)


def started_words(extra: float) -> str:
    """What a time loss adds when a start's excess (``extra`` seconds) was charged to the
    move."""
    return (
        f"its start took {extra:.2f} s more than its runtime's allowance, charged to its first move"
    )


def wall_cap(left: float) -> float:
    """The most wall seconds of its own a hosted move may take with ``left`` seconds on
    its clock: those seconds plus :data:`GRACE` (none where its start's charge left it
    less than none, :func:`start_charge`)."""
    return max(0.0, left + GRACE)


CEILING_FACTOR = 3.0
"""How many times its cap a move is waited for (:func:`ceiling`)."""


def ceiling(left: float) -> float:
    """The most wall seconds a hosted move is waited for: :data:`CEILING_FACTOR` times
    :func:`wall_cap` (its own time within the cap, the rest the server's), at least the
    grace."""
    return max(GRACE, CEILING_FACTOR * wall_cap(left))


@dataclass(frozen=True)
class MoveTime:
    """One move's seconds: CPU its sandbox used (since its previous move ended), the
    wall time it took, what its processes waited for a CPU (its group's figure) and
    what of its core the machine's other processes took (measured outside it)."""

    cpu: float
    wall: float
    waited: float = 0.0
    denied: float = 0.0

    @property
    def excused(self) -> float:
        """The wall seconds that were the server's: its processes waited for a CPU and
        the machine's others took its core, the lesser of the two."""
        return max(0.0, min(self.waited, self.denied, self.wall))

    @property
    def own(self) -> float:
        """The wall seconds that were the move's own (:attr:`excused` taken off)."""
        return self.wall - self.excused

    def account(self) -> str:
        """``used X s of CPU in Y s of wall time`` (and what the machine took of its
        core, where it took any)."""
        said = f"used {self.cpu:.2f} s of CPU in {self.wall:.2f} s of wall time"
        if self.excused >= 0.005:
            said += f", {self.excused:.2f} s of them taken from its core by the machine"
        return said


def charge(time: MoveTime) -> float:
    """The seconds a move's clock is charged: its own wall time less :data:`GRACE`, or
    its CPU time (what it thought on the opponent's time included) where that is more,
    less the part of the grace its own wall time spans.

    The grace is the driver's and the pipes' work at the move, which its CPU time counts
    as its wall time does: a program that thinks by the course's rule until its own 5 s
    timer fires (5.04 s of wall time, 5.04 s of CPU on its one core) is in time, as
    its wall time says. What it computed on the opponent's time is charged whole: a bot
    that answers at once (its own wall time near 0) is charged all its CPU since.

    >>> round(charge(MoveTime(cpu=5.04, wall=5.04)), 2)
    4.54
    >>> round(charge(MoveTime(cpu=2.0, wall=0.01)), 2)
    1.99
    """
    return max(0.0, time.own - GRACE, time.cpu - min(GRACE, time.own))


def blame(time: MoveTime, left: float, answered: bool = True) -> tuple[Termination, str] | None:
    """``None`` for a move whose own time is within :func:`wall_cap`; else
    ``(TIME_FORFEIT, why)``; or ``(ABANDONED, account)`` for a move that did not answer
    (``answered`` false) that was waited for to :func:`ceiling` though its own time was
    within its cap (the server starved it: no result). A move that gave up before the
    ceiling without answering (its program ended, or said it had no move) was not kept
    waiting by anyone: ``None``, its own failure stands."""
    cap = wall_cap(left)
    if time.own <= cap:
        if answered or time.wall + GRACE < ceiling(left):
            return None
        return (Termination.ABANDONED, time.account())
    return (
        Termination.TIME_FORFEIT,
        f"took {time.own:.2f} s of wall time of its own, more than its {cap:.2f} s (its "
        f"clock's {left:.2f} s and the grace of {GRACE:g} s; {time.account()})",
    )


class MoveWatch:
    """One move's seconds as they pass (:meth:`stop` reads them): ``process``'s CPU
    beyond ``charged`` (the CPU charged before: what it used since then is this move's),
    its group's waits and what the machine took of its core meanwhile; without a
    sandbox, its wall time alone."""

    def __init__(self, process: SandboxedProcess | None, charged: float = 0.0) -> None:
        self.process = process
        self.charged = charged
        self.cpu = process.cpu_seconds() if process is not None else 0.0
        self.waited = process.waited_seconds() if process is not None else 0.0
        self.core = CoreWatch()
        self.started = clock.monotonic()

    def stop(self, answered: bool = True) -> MoveTime:
        """The move's :class:`MoveTime` now: ``answered``, its wall time ends when its
        sandbox's output last said something (the answer's arrival, not the server's
        threads acting on it, which are the server's time)."""
        now = clock.monotonic()
        process = self.process
        if process is None:
            return MoveTime(now - self.started, now - self.started)
        heard = process.heard_at
        wall = (heard if answered and self.started <= heard <= now else now) - self.started
        used = process.cpu_seconds()
        return MoveTime(
            max(0.0, used - self.charged),
            wall,
            max(0.0, process.waited_seconds() - self.waited),
            self.core.denied(used - self.cpu),
        )
