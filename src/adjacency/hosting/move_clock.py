"""Whose fault a slow hosted move is: :func:`blame`, shared by the games and the check.

A hosted bot's clock is charged CPU time, and a move may take at most a wall cap
(:func:`~adjacency.round.clock.wall_cap`) so that a program that sleeps or waits still
loses on time. On a busy server an honest bot can pass that cap while it computes,
waiting for a core the server gave to others. So the move's wall time is split: the
seconds its processes waited for a CPU while ready to run
(:meth:`~adjacency.sandbox.SandboxedProcess.waited_seconds`), which are the server's,
and the rest, its *own* time (computing, sleeping, waiting on anything else):

- own time past :func:`own_cap` (one and a half times its clock's seconds plus
  :data:`~adjacency.round.clock.WALL_SLACK`): the bot slept or waited, it loses on time;
- the wall cap reached within its own cap: the server starved it; the game is abandoned
  (no result for either side), never lost, and the message says what it used and waited.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.game import Termination
from ..round.clock import WALL_SLACK


@dataclass(frozen=True)
class MoveTime:
    """One move's seconds: CPU used, wall taken, and waited for a CPU within that wall."""

    cpu: float
    wall: float
    waited: float

    @property
    def own(self) -> float:
        """The wall seconds that were the bot's own (not waiting for a CPU)."""
        return max(0.0, self.wall - min(self.waited, self.wall))

    def account(self) -> str:
        """``used X s of CPU and waited Y s for a CPU``."""
        return f"used {self.cpu:.2f} s of CPU and waited {self.waited:.2f} s for a CPU"


OWN_FACTOR = 1.5
"""How many times its clock's seconds a move may take of its own wall time: its own time
also holds what neither its CPU nor its waits for one show (page faults, the pipes, a
JVM's safepoints), measured up to a third of a loop's wall time at a load of 15 on 2
cores; 1.5 leaves that room while a bot sleeping twice its time still loses."""


def own_cap(left: float) -> float:
    """The most wall seconds of its own a move may take with ``left`` on its clock:
    :data:`OWN_FACTOR` times them plus :data:`~adjacency.round.clock.WALL_SLACK`."""
    return OWN_FACTOR * max(0.0, left) + WALL_SLACK


def blame(time: MoveTime, left: float, cap: float) -> tuple[Termination, str] | None:
    """``None`` for a move in time; else ``(TIME_FORFEIT, why)`` when its own time passed
    :func:`own_cap` (it slept or waited: a loss), or ``(ABANDONED, account)`` when it
    passed the wall ``cap`` only by waiting for a CPU (the server's load: no result;
    ``account``: ``used X s of CPU and waited Y s for a CPU in Z s``)."""
    limit = own_cap(left)
    if time.own > limit:
        capped = (
            f"no answer within the cap of {cap:.1f} s of wall time: " if time.wall > cap else ""
        )
        return (
            Termination.TIME_FORFEIT,
            f"{capped}took {time.own:.1f} s of wall time of its own, more than its "
            f"{limit:.1f} s ({time.account()} in {time.wall:.1f} s): a bot that sleeps or "
            "waits loses on time",
        )
    if time.wall > cap:
        return Termination.ABANDONED, f"{time.account()} in {time.wall:.1f} s"
    return None
