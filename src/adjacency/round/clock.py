"""The game clock: a base time plus an increment per move (Fischer), and a bot's budget.

The server's clock is the only one that counts; pages and bots are shown a copy. The
clock itself only counts: *when* it runs is each server's rule, which it keeps with its
driver (the browser game's in :mod:`adjacency.web.session`, the league's in
:mod:`adjacency.league.games`). Its contract:

* :meth:`Clock.start` runs one side's clock from a moment; :meth:`Clock.stop` keeps
  what it used (a pause, or the end of the game).
* A move (:meth:`Clock.moved`) deducts the time since the turn began; if that leaves
  the clock below zero the side has lost on time (its clock shows 0), else the
  increment is added.
* Every method takes the moment ``now`` (``time.monotonic``), default the present, so
  a test or a replay drives the clock without waiting.
* A bot thinks for :func:`move_budget` of its remaining time, so it plays within its
  clock.
* The stored clock (:meth:`Clock.to_dict`) keeps when the running side's turn began
  (wall time), so after a crash and restart the time since then is charged, downtime
  included (the server cannot tell thinking from downtime).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..core import Color

SAFETY = 0.15
"""Seconds a bot keeps in reserve for the server's own work around its move."""
MIN_BUDGET = 0.05
"""The least a bot is given to think, even in time trouble."""


@dataclass
class Clock:
    """Both sides' remaining seconds; ``since`` is when the running side's turn began."""

    base: float
    increment: float
    remaining: dict[str, float] = field(default_factory=dict)
    running: Color | None = None
    since: float = 0.0

    def __post_init__(self) -> None:
        for color in ("x", "o"):
            self.remaining.setdefault(color, self.base)

    def left(self, color: Color, now: float | None = None) -> float:
        """``color``'s remaining seconds now (the running side's clock counts down)."""
        left = self.remaining[color]
        if self.running == color:
            left -= (time.monotonic() if now is None else now) - self.since
        return left

    def start(self, color: Color, now: float | None = None) -> None:
        """``color`` is to move: its clock runs from now."""
        self.running = color
        self.since = time.monotonic() if now is None else now

    def stop(self, now: float | None = None) -> None:
        """Stop the running clock, keeping what it used (pause, or the game ended)."""
        if self.running is not None:
            self.remaining[self.running] = self.left(self.running, now)
        self.running = None

    def moved(self, color: Color, now: float | None = None) -> bool:
        """``color`` moved now: deduct its time; ``False`` if its flag fell first, else
        add the increment."""
        if self.running == color:
            self.remaining[color] = self.left(color, now)
            self.running = None
            if self.remaining[color] < 0:
                self.remaining[color] = 0.0
                return False
            self.remaining[color] += self.increment
        return True

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
