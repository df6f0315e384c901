"""Game clocks kept by the server: a base time plus an increment per move (Fischer).

The server's clock is the only one that counts; pages show a copy that ticks
between state events. Rules:

* A side's clock runs while it is to move, from the first move of the game on
  (the first mover's first move is untimed, so a game between devices does not
  start ticking before the friend arrives), and not while a bot-vs-bot game is
  paused.
* A move deducts the time since the turn began; if that leaves the clock below
  zero the side has lost on time, else the increment is added.
* A side whose clock reaches zero without moving loses on time at that moment
  (a timer fires then; no request is needed), whatever the score.
* A bot thinks for :func:`move_budget` of its remaining time, so it plays
  within its clock.
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

    def to_dict(self) -> dict[str, float]:
        return {
            "base": self.base,
            "increment": self.increment,
            "x": self.left("x"),
            "o": self.left("o"),
        }

    @classmethod
    def from_dict(cls, data: object) -> Clock | None:
        """A stored clock (stopped; the session restarts it), or ``None``."""
        if not isinstance(data, dict):
            return None
        clock = cls(float(data["base"]), float(data["increment"]))
        clock.remaining = {"x": float(data["x"]), "o": float(data["o"])}
        return clock


def move_budget(left: float, increment: float, plies_left: int, cap: float) -> float:
    """Seconds a bot may think on a move: an even share of what is left over the moves it
    still has to make, plus most of the increment, never more than ``left`` minus a
    reserve and never more than ``cap``."""
    moves = max(1, math.ceil(plies_left / 2))
    share = (left - SAFETY) / moves + 0.8 * increment
    return max(MIN_BUDGET, min(share, left - SAFETY, cap))
