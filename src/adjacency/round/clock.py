"""The game clock: a base time plus an increment per move (Fischer), and a bot's budget.

The server's clock is the only one that counts; pages and bots are shown a copy. The
clock itself only counts: *when* it runs is each server's rule, which it keeps with its
driver (the browser game's in :mod:`adjacency.web.session`, the league's in
:mod:`adjacency.league.play.games`). Its contract:

* :meth:`Clock.start` runs one side's clock from a moment; :meth:`Clock.stop` keeps
  what it used (a pause, or the end of the game).
* A move (:meth:`Clock.moved`) deducts the time since the turn began; if that leaves
  the clock below zero the side has lost on time (its clock shows 0), else the
  increment is added.
* Every method takes the moment ``now`` (``time.monotonic``), default the present, so
  a test or a replay drives the clock without waiting.
* A bot thinks for :func:`move_budget` of its remaining time, so it plays within its
  clock.
* A hosted bot (a team's program the server runs, on a core of its own) is charged
  what its league's judge says of each move (:meth:`Clock.charge`: its own wall time
  less a grace, :mod:`adjacency.hosting.move_clock`), not the time since its turn
  began as the server saw it.
* The stored clock (:meth:`Clock.to_dict`) keeps when the running side's turn began
  (wall time), so after a crash and restart the time since then is charged, downtime
  included (the server cannot tell thinking from downtime).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

from ..core import Color

SAFETY = 0.15
"""Seconds a bot keeps in reserve for the server's own work around its move."""
MIN_BUDGET = 0.05
"""The least a bot is given to think, even in time trouble."""


@dataclass(frozen=True)
class Clocks:
    """Both sides' clocks as one immutable value: the arithmetic of the clock, as pure
    functions of the moment ``now`` (``time.monotonic`` seconds). :class:`Clock` is the
    servers' mutable holder of one; a game in play (:mod:`.state`) keeps this value."""

    base: float
    increment: float
    x: float
    o: float
    running: Color | None = None
    since: float = 0.0
    """When the running side's turn began."""

    @classmethod
    def full(cls, base: float, increment: float) -> Clocks:
        """Both sides at ``base`` seconds, neither running."""
        return cls(base, increment, base, base)

    def remaining(self, color: Color) -> float:
        """``color``'s seconds at the start of its turn (or now, if it is not running)."""
        return self.x if color == "x" else self.o

    def left(self, color: Color, now: float) -> float:
        """``color``'s remaining seconds at ``now`` (the running side's clock counts down)."""
        left = self.remaining(color)
        if self.running == color:
            left -= now - self.since
        return left

    def _set(self, color: Color, seconds: float) -> Clocks:
        return replace(self, x=seconds) if color == "x" else replace(self, o=seconds)

    def flagged(self, color: Color) -> Clocks:
        """``color``'s flag fell: its clock at 0, no clock running."""
        return replace(self._set(color, 0.0), running=None)

    def started(self, color: Color, now: float) -> Clocks:
        """``color`` is to move: its clock runs from ``now`` (a running one stops first)."""
        return replace(self.stopped(now), running=color, since=now)

    def stopped(self, now: float) -> Clocks:
        """The running clock stopped at ``now``, keeping what it used."""
        if self.running is None:
            return self
        return replace(self._set(self.running, self.left(self.running, now)), running=None)

    def moved(self, color: Color, now: float) -> tuple[Clocks, bool]:
        """``color`` moved at ``now``: its time deducted and, in time, the increment added;
        ``False`` (its clock at 0) if its flag fell first. A side whose clock was not
        running moves untimed."""
        if self.running != color:
            return self, True
        left = self.left(color, now)
        if left < 0:
            return self.flagged(color), False
        return replace(self._set(color, left + self.increment), running=None), True


@dataclass
class Clock:
    """Both sides' remaining seconds; ``since`` is when the running side's turn began.

    The servers' mutable clock: every change is the arithmetic of :class:`Clocks`
    (:meth:`value`, then the new value written back)."""

    base: float
    increment: float
    remaining: dict[str, float] = field(default_factory=dict)
    running: Color | None = None
    since: float = 0.0

    def __post_init__(self) -> None:
        for color in ("x", "o"):
            self.remaining.setdefault(color, self.base)

    def value(self) -> Clocks:
        """The clock now, as the immutable :class:`Clocks`."""
        remaining = self.remaining
        return Clocks(
            self.base, self.increment, remaining["x"], remaining["o"], self.running, self.since
        )

    def set(self, value: Clocks) -> None:
        """Make this clock ``value`` (a game in play's new clocks)."""
        self.base, self.increment = value.base, value.increment
        self.remaining = {"x": value.x, "o": value.o}
        self.running, self.since = value.running, value.since

    def left(self, color: Color, now: float | None = None) -> float:
        """``color``'s remaining seconds now (the running side's clock counts down)."""
        return self.value().left(color, time.monotonic() if now is None else now)

    def start(self, color: Color, now: float | None = None) -> None:
        """``color`` is to move: its clock runs from now."""
        value = self.value()
        moment = time.monotonic() if now is None else now
        self.set(replace(value, running=color, since=moment))

    def stop(self, now: float | None = None) -> None:
        """Stop the running clock, keeping what it used (pause, or the game ended)."""
        self.set(self.value().stopped(time.monotonic() if now is None else now))

    def charge(self, color: Color, seconds: float, now: float | None = None) -> None:
        """``color`` is to move and is charged ``seconds`` as of ``now`` instead of the
        time since its turn began (a hosted bot's CPU time for the move): its clock runs as
        if its turn began ``seconds`` before ``now``, so what follows (:meth:`moved`, a
        flag, a stop) deducts exactly that."""
        moment = time.monotonic() if now is None else now
        self.start(color, moment - seconds)

    def moved(self, color: Color, now: float | None = None) -> bool:
        """``color`` moved now: deduct its time; ``False`` if its flag fell first, else
        add the increment."""
        value, in_time = self.value().moved(color, time.monotonic() if now is None else now)
        self.set(value)
        return in_time

    def to_dict(self) -> dict[str, object]:
        """The stored clock: each side's time at the start of its turn, and the running
        side with when (wall time, seconds since the epoch) its clock started."""
        started = None
        if self.running is not None:
            started = time.time() - (time.monotonic() - self.since)
        return {
            "base": self.base,
            "increment": self.increment,
            "x": self.remaining["x"],
            "o": self.remaining["o"],
            "running": self.running,
            "started": started,
        }

    @classmethod
    def from_dict(cls, data: object, now: float | None = None) -> Clock | None:
        """A stored clock, or ``None``. It comes back stopped (the session restarts it),
        with the time since the running side's clock started (wall time ``now``,
        default the present) charged to that side, never below zero."""
        if not isinstance(data, dict):
            return None
        clock = cls(float(data["base"]), float(data["increment"]))
        clock.remaining = {"x": float(data["x"]), "o": float(data["o"])}
        running, started = data.get("running"), data.get("started")
        if running in ("x", "o") and isinstance(started, int | float):
            elapsed = max(0.0, (time.time() if now is None else now) - float(started))
            clock.remaining[running] = max(0.0, clock.remaining[running] - elapsed)
        return clock


def move_budget(left: float, increment: float, plies_left: int, cap: float) -> float:
    """Seconds a bot may think on a move: an even share of what is left over the moves it
    still has to make, plus most of the increment, never more than ``left`` minus a
    reserve and never more than ``cap``."""
    moves = max(1, math.ceil(plies_left / 2))
    share = (left - SAFETY) / moves + 0.8 * increment
    return max(MIN_BUDGET, min(share, left - SAFETY, cap))
