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
  in the move where that is more. What it computes on its opponent's time is never
  charged: the course's clock is the wall clock of each move, so a bot may think on (a
  search its own 5 s timer abandoned but did not stop, say), and a charge for it would
  depend on the load, which decides how much of such a search is left;
- past the cap it loses on time, whatever it did meanwhile (slept, waited, computed on
  threads of lowered priority: the sandbox denies those);
- its own time is what the program did: the CPU time of everything in its sandbox (its
  threads, its display server, its children) plus the wall time it spent idle by its
  own choice (sleeping, waiting on its own locks or pipes). Time when something of it
  was ready to run but the machine ran something else is the server's, never its own:
  the kernel counts each of its threads' waits for a CPU, and the wait of the thread
  that waited most held the program up at least that long
  (:meth:`~adjacency.sandbox.SandboxedProcess.thread_waits`; a thread of its own that
  waits while another sleeps holds nothing up, so waits are not added); so does the
  wait of the server's reader of its answer for a CPU, which delays the answer's
  arrival (:attr:`~adjacency.sandbox.SandboxedProcess.heard`), and every wait of its
  pipes' readers while a pipe was full, which held its writes
  (:meth:`~adjacency.sandbox.SandboxedProcess.held_seconds`). The server's share is
  those, at most its wall time less its CPU time; its wall time starts when its
  request to think (``go``) reached it, so the server's waits to read its readiness
  and write the request are never the move's. So its own
  time is never less than its CPU time (:attr:`MoveTime.own`): threads that wait for
  each other on its one core (or that its one-core cap holds back) have had its core,
  and are its own. Where no thread's waits can be read (no ``/proc``), nothing is the
  server's: its wall time is its own. A program played through its window is timed
  inside its JVM too (:attr:`MoveTime.span`). A move is waited for up to
  :func:`ceiling` (three times its cap); one that has not answered by then though its
  own time is within its cap was starved by the server:
  ``ABANDONED``, no result.

Each account gives the three figures side by side: CPU, idle and waited-for-a-CPU
seconds (:meth:`MoveTime.account`), and the share of its core the program had while it
was ready to run.

The games' programs outweigh the league's own work on the machine's cores
(:class:`~adjacency.sandbox.Priority`), so a loaded machine slows a game's wall clock
far less than it slows a build; what it still takes is excused as above.
"""

from __future__ import annotations

import time as clock
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.game import Termination
from ..sandbox import SandboxedProcess, Thread, longest_wait
from .kinds import KINDS

if TYPE_CHECKING:  # the driver's words are read where its lines are heard
    from .fx_run import BotSpan

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
    """A program's start as it passes, from the handshake's write to its answer
    (:meth:`took`): :meth:`over` is what its kind's allowance leaves to charge to its
    first move (:func:`start_charge`), in a game and in the check alike."""

    def __init__(self) -> None:
        self.started = clock.monotonic()

    def took(self, process: SandboxedProcess) -> MoveTime:
        """The start's seconds so far: ``process`` (started after this watch) from the
        first line the server wrote it (the handshake) to the last it said (its answer),
        as a move is timed from its request to its answer: the server's preparation of
        its sandbox, its write of the handshake and its threads' turn to act on the
        answer are the server's (on a loaded machine they took seconds, charged to
        programs that had not begun or had answered). What it computed before the
        handshake reached it is in its CPU time. Its threads' waits began with it."""
        now = clock.monotonic()
        began = max(self.started, process.began or self.started)
        asked = process.said_since(began)
        start = asked if asked is not None and asked <= now else began
        heard = process.heard.at
        end = heard if start <= heard <= now else now
        return MoveTime(process.cpu_seconds(), end - start, process.stalled_seconds() or 0.0)

    def over(self, process: SandboxedProcess, kind: str) -> float:
        """What its first move's clock is short, now that ``process`` has answered the
        handshake: the start's seconds beyond ``kind``'s allowance (:func:`start_charge`),
        less the opening of its game (:func:`opening_allowance`): negative where its
        first move has seconds more."""
        return start_charge(self.took(process), kind) - opening_allowance(kind)


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
    """One move's seconds: CPU its sandbox used (in the move), the
    wall time it took, and ``stalled``: what held it up waiting for a CPU, its
    most-waiting thread's wait and the server's threads' (none where they cannot be
    read).

    >>> took = MoveTime(cpu=0.86, wall=17.59, stalled=16.2)
    >>> round(took.own, 2), round(took.idle, 2), round(took.excused, 2)
    (1.39, 0.53, 16.2)
    >>> MoveTime(cpu=3.0, wall=3.0, stalled=1.5).own  # held back by its cap: its CPU
    3.0
    """

    cpu: float
    wall: float
    stalled: float = 0.0
    span: float | None = None
    """The seconds the program's bot took, timed inside its JVM as the course's window
    times a move: its calls of its team's bot (a program played through its window:
    :data:`~.fx_run.SPAN`), or ``None``."""
    span_waited: float | None = None
    """The seconds of :attr:`span` in which the program was held up waiting for a CPU,
    where its driver measured them inside its sandbox (its longest thread's wait in each
    call of its bot, as ``stalled`` is the move's); ``None``: the move's ``stalled``
    stands for them."""
    lead: float = 0.0
    """The seconds from the server's start of the move to its request's write
    (:data:`REQUEST`; the position and the ready round trip before it): the server's,
    never in :attr:`wall`, but waited through by whoever waits for the answer."""

    @property
    def excused(self) -> float:
        """The wall seconds that were the server's: what held it up waiting for a CPU
        (``stalled``), at most its wall time less its CPU time."""
        return max(0.0, min(self.stalled, self.wall - self.cpu))

    @property
    def own(self) -> float:
        """The wall seconds that were the move's own (:attr:`excused` taken off): its
        CPU time plus its own idle time. Where its bot was timed inside its JVM
        (:attr:`span`), that span with its waits taken off (:attr:`span_waited`, else the
        move's), where less: the window's
        handling of the opponent's click, a pause it makes before it calls its bot and the
        driver's reading are not the bot's; never less than its CPU time, which its
        sandbox's group measures whoever timed the span.

        >>> MoveTime(cpu=0.9, wall=2.0, stalled=0.0, span=1.2).own
        1.2
        >>> MoveTime(cpu=0.9, wall=2.0, stalled=0.0, span=0.1).own  # its CPU bounds it
        0.9
        >>> MoveTime(cpu=0.9, wall=2.0, stalled=0.0, span=5.0).own  # no more than its wall
        2.0
        >>> # the move's waits fell in a pause before its bot's call: the call's own stand
        >>> MoveTime(cpu=0.1, wall=5.0, stalled=1.5, span=2.5, span_waited=0.0).own
        2.5
        """
        own = self.wall - self.excused
        if self.span is None:
            return own
        waited = self.excused if self.span_waited is None else self.span_waited
        timed = self.span - max(0.0, min(waited, self.span - self.cpu))
        return min(own, max(self.cpu, timed))

    @property
    def idle(self) -> float:
        """The wall seconds of its own in which it computed nothing: it slept, or waited
        on its own locks or pipes (or on the server's pipes, within the grace)."""
        return max(0.0, self.own - self.cpu)

    @property
    def share(self) -> float:
        """The share of a core it had while it was ready to run (1.0: its core all
        along): its CPU time over its CPU time and the time it waited for a CPU."""
        ready = self.cpu + self.excused
        return 1.0 if ready <= 0 else self.cpu / ready

    def figures(self) -> dict[str, float]:
        """The three figures a record keeps of the move: ``cpu``, ``idle`` and ``waited``
        (for a CPU the machine gave to other work), in seconds, rounded to milliseconds."""
        return {
            "cpu": round(self.cpu, 3),
            "idle": round(self.idle, 3),
            "waited": round(self.excused, 3),
        }

    def account(self) -> str:
        """``used X s of CPU and was idle Y s in Z s of wall time`` and, where the machine
        kept it waiting, for how long and what share of its core it had."""
        said = (
            f"used {self.cpu:.2f} s of CPU and was idle {self.idle:.2f} s in "
            f"{self.wall:.2f} s of wall time"
        )
        if self.span is not None:
            said += f" (inside its JVM, its bot took {self.span:.2f} s)"
        if self.excused >= 0.005:
            said += (
                f"; it waited {self.excused:.2f} s for a CPU the machine gave to other work "
                f"(it had {self.share:.0%} of its core while it was ready), never "
                "charged to it"
            )
        return said


def charge(time: MoveTime) -> float:
    """The seconds a move's clock is charged: its own wall time less :data:`GRACE`, or
    its CPU time in the move where that is more, less the part of the grace its own wall
    time spans.

    The grace is the driver's and the pipes' work at the move, which its CPU time counts
    as its wall time does: a program that thinks by the course's rule until its own 5 s
    timer fires (5.04 s of wall time, 5.04 s of CPU on its one core) is in time, as
    its wall time says.

    >>> round(charge(MoveTime(cpu=5.04, wall=5.04)), 2)
    4.54
    >>> round(charge(MoveTime(cpu=0.0, wall=3.0)), 2)  # it slept: its own wall time
    2.5
    """
    return max(0.0, time.own - GRACE, time.cpu - min(GRACE, time.own))


def blame(
    time: MoveTime, left: float, answered: bool = True, waited: float | None = None
) -> tuple[Termination, str] | None:
    """``None`` for a move whose own time is within :func:`wall_cap`; else
    ``(TIME_FORFEIT, why)``; or ``(ABANDONED, account)`` for a move that did not answer
    (``answered`` false) that was waited for to its ceiling (from the move's start, its
    :attr:`~MoveTime.lead` included; ``waited``: the wall seconds it was waited for at
    most; :func:`ceiling` of ``left`` by default) though its own
    time was within its cap (the server starved it: no result). A move that gave up
    before that without answering (its program ended, or said it had no move) was not
    kept waiting by anyone: ``None``, its own failure stands. A first move with an
    opening's allowance has more ``left`` than the clock it was waited for by, so its
    ceiling is the clock's (``waited``), and a starved one is abandoned, never refused.

    >>> starved = MoveTime(cpu=0.3, wall=5.0, stalled=4.0)
    >>> blame(starved, 2.0, answered=False)  # not waited to ceiling(2.0), 7.5 s: its own
    >>> blame(starved, 2.0, answered=False, waited=ceiling(1.0))[0].name
    'ABANDONED'
    >>> late_asked = MoveTime(cpu=0.3, wall=5.0, stalled=4.0, lead=2.5)
    >>> blame(late_asked, 2.0, answered=False)[0].name  # waited 7.5 s from the move's start
    'ABANDONED'
    """
    cap = wall_cap(left)
    if time.own <= cap:
        # Waited for from the move's start, the round trip before its request included.
        waited_for = time.lead + time.wall
        if answered or waited_for + GRACE < (ceiling(left) if waited is None else waited):
            return None
        return (Termination.ABANDONED, time.account())
    return (
        Termination.TIME_FORFEIT,
        f"took {time.own:.2f} s of wall time of its own, more than its {cap:.2f} s (its "
        f"clock's {left:.2f} s and the grace of {GRACE:g} s; {time.account()})",
    )


REQUEST = b"go"
"""How the line that asks a program to think begins (the engine protocol's ``go``): a
move's wall time starts when it was written. The lines before it (the position, and
``isready``, whose ``readyok`` the server reads before it asks) are a round trip through
the server's threads, whose waits for a CPU the program only waits out; what the
program computes meanwhile is in its CPU time."""


class MoveWatch:
    """One move's seconds as they pass (:meth:`stop` reads them): ``process``'s CPU
    beyond ``since`` (its CPU at the move's start: what it used after is this move's),
    its threads' waits for a CPU meanwhile, and its readers' while its pipes were full
    (:meth:`~adjacency.sandbox.SandboxedProcess.held_seconds`: a program printing more
    than the server keeps up with waits on the server); without a sandbox, its wall time
    alone."""

    def __init__(self, process: SandboxedProcess | None, since: float = 0.0) -> None:
        self.process = process
        self.since = since
        self.waits = process.thread_waits() if process is not None else {}
        self.held = process.held_seconds() if process is not None else 0.0
        self.started = clock.monotonic()

    def stop(self, answered: bool = True, span: BotSpan | None = None) -> MoveTime:
        """The move's :class:`MoveTime` now: its wall time starts when its request
        reached its sandbox (the write of its :data:`REQUEST` since the watch started,
        else its first write: before that it had nothing to think about, however long
        the server's threads took to get a CPU to read its readiness and write the
        request) and, ``answered``, ends when its sandbox's output last said
        something (the answer's arrival, not the server's threads acting on it, which
        are the server's time); else when its sandbox was stopped in the move (its
        processes' waits are read as it is stopped, and what they take to die is not
        the move's), else now; ``span``: the seconds its window timed its bot
        (:attr:`MoveTime.span`), if it did."""
        now = clock.monotonic()
        process = self.process
        if process is None:
            return MoveTime(now - self.started, now - self.started)
        asked = process.said_since(self.started, REQUEST)
        if asked is None:  # not asked to think (not ready in time, or gone): its first line
            asked = process.said_since(self.started)
        start = asked if asked is not None and asked <= now else self.started
        heard = process.heard
        answer = answered and start <= heard.at <= now
        ended = process.ended_at  # stopped in the move: its wall time ends there
        end = heard.at if answer else ended if ended is not None and start <= ended <= now else now
        timed = span if answered else None
        return MoveTime(
            max(0.0, process.cpu_seconds() - self.since),
            end - start,
            stalled_since(process, self.waits, self.held, heard.waited if answer else None),
            timed.seconds if timed is not None else None,
            timed.waited if timed is not None else None,
            lead=start - self.started,
        )


def stalled_since(
    process: SandboxedProcess, waits: dict[Thread, int], held: float, heard: float | None
) -> float:
    """What held ``process`` up waiting for a CPU since its threads had waited ``waits``
    and its pipes' readers had been held ``held`` seconds: its most-waiting thread's wait
    (:func:`~adjacency.sandbox.longest_wait`); its readers' waits while a pipe was full
    since (:meth:`~adjacency.sandbox.SandboxedProcess.held_seconds`); and ``heard``, the
    seconds the server's reader of its answer waited for a CPU to hear it
    (:attr:`~adjacency.sandbox.SandboxedProcess.heard`; ``None``: no answer came in the
    move). The server's other waits are not the move's: a thread that writes to the
    program waits before the move's wall time starts, or after it ends to act on the
    answer; a reader woken by a line the program wrote before its answer held nothing up
    while the pipe had room for what followed.

    A move answered counts its threads' waits that ended, never one still going on:
    the thread that wrote the answer ran to write it, so every wait that held the answer
    up has ended, and a thread still waiting held nothing up. Such a wait's start is
    only estimated (:func:`~adjacency.sandbox.accounting.pending_delay`: from the last
    reading that saw the thread calm): where the server's readings are sparse (its own
    threads starved), a compiler thread woken by the move's last loop could have a sleep
    of the move read as its wait, excusing seconds the program slept. A move without an
    answer counts a wait still going on: its answer may be waiting for a CPU."""
    return (
        longest_wait(waits, process.thread_waits(pending=heard is None))
        + max(0.0, process.held_seconds() - held)
        + (heard or 0.0)
    )
