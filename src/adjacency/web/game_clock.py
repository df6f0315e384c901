"""A browser game's clock and its flag timer, held for the session.

The session (:class:`~.session.GameSession`) decides *which* side's clock runs
(:func:`.clock_rules.running_side`); :class:`GameClock` makes the clock run that side
and keeps one flag timer armed for it, an entry of the shared scheduler
(:mod:`.timers`), so a side whose time runs out with no request coming still loses on
time. The session's flag check is handed in (``on_flag``): this class knows nothing of
the game it times.

Contract (every method called with the session's lock held):

* :meth:`GameClock.run` stops the clock when no side runs, else runs ``turn`` from now
  (a side already running keeps its start), and arms the flag timer for ``turn``'s time
  left and :data:`~.clock_rules.FLAG_MARGIN`; the timer calls ``on_flag(plies)`` with
  the number of moves when it was armed, so a check for an older position does nothing.
* Any earlier flag timer is disarmed first: at most one is armed.
* A game without clock (``clock`` ``None``) does nothing, and arms no timer.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import Color
from ..round.clock import Clock, Clocks
from . import clock_rules
from .timers import Schedules, Timer


class GameClock:
    """One game's clock (``None``: a game without clock) and its flag timer."""

    def __init__(
        self,
        clock: Clock | None,
        on_flag: Callable[[int], None],
        scheduler: Schedules,
        now: Callable[[], float],
    ) -> None:
        self.clock = clock
        self._on_flag = on_flag
        self._scheduler = scheduler
        self._now = now
        self._flag_timer: Timer | None = None
        """The armed flag timer of the side whose clock runs (:meth:`run`)."""

    def value(self) -> Clocks | None:
        """The clocks as the round room's value (``None``: no clock)."""
        return None if self.clock is None else self.clock.value()

    def set(self, clocks: Clocks | None) -> None:
        """The clock becomes ``clocks`` (a transition's; nothing for a game without clock)."""
        if self.clock is not None and clocks is not None:
            self.clock.set(clocks)

    def run(self, turn: Color | None, plies: int) -> None:
        """Run ``turn``'s clock (``None``: stop it) and arm its flag timer; see the module
        docstring."""
        clock = self.clock
        if clock is None:
            return
        self.disarm()
        if turn is None:
            clock.stop(self._now())
            return
        if clock.running != turn:
            now = self._now()
            clock.stop(now)
            clock.start(turn, now)
        wait = clock_rules.flag_wait(clock, turn, self._now())
        self._flag_timer = self._scheduler.call_later(wait, lambda: self._on_flag(plies))

    def disarm(self) -> None:
        """Disarm the flag timer (the game changed, or it is closed)."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
