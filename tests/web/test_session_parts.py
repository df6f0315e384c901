"""The browser game's session parts on their own: the clock's flag timer
(:class:`~adjacency.web.game_clock.GameClock`) and the audience
(:class:`~adjacency.web.audience.Audience`), on a scheduler and a moment the test moves."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjacency.round.clock import Clock
from adjacency.web.audience import Audience
from adjacency.web.game_clock import GameClock
from adjacency.web.timers import Timer


class Moments:
    """A scheduler and a clock on the test's time: :meth:`advance` runs what falls due."""

    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[Timer] = []

    def read(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(self.now + max(0.0, delay), callback)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [t for t in self.timers if t.due <= self.now]
        self.timers = [t for t in self.timers if t.due > self.now]
        for timer in due:
            if not timer.cancelled:
                timer.callback()


def test_the_flag_timer_is_one_armed_for_the_running_side_and_names_its_moves() -> None:
    moments = Moments()
    flags: list[int] = []
    clock = Clock(10.0, 0.0)
    timing = GameClock(clock, flags.append, moments, moments.read)
    timing.run("x", 1)
    assert clock.running == "x"
    moments.advance(4.0)
    timing.run("o", 2)  # x moved: its timer is disarmed, o's armed
    assert clock.value().running == "o"
    assert clock.left("x", moments.now) == pytest.approx(6.0, abs=0.01)
    moments.advance(9.0)
    assert flags == []  # x's old timer (due at 110) was disarmed; o has 1 s left
    moments.advance(1.1)
    assert flags == [2]
    timing.run(None, 2)  # the game ended: the clock stops, no timer is left armed
    assert clock.running is None
    assert all(t.cancelled for t in moments.timers)


def test_a_game_without_clock_arms_no_flag_timer() -> None:
    moments = Moments()
    timing = GameClock(None, lambda plies: None, moments, moments.read)
    timing.run("x", 0)
    assert moments.timers == [] and timing.value() is None


def test_the_audience_survives_a_broken_listener_and_looks_after_its_grace() -> None:
    moments = Moments()
    left: list[bool] = []
    audience = Audience(5.0, lambda: left.append(audience.attended()), moments, moments.read)
    got: list[tuple[str, str]] = []

    def broken(event: str, data: str) -> None:
        raise RuntimeError("a page that went away")

    def page(event: str, data: str) -> None:
        got.append((event, data))

    audience.add(broken)
    audience.add(page)
    audience.send("state", "{}")
    assert got == [("state", "{}")]  # the broken listener did not stop the next one
    audience.remove(broken)
    moments.advance(60.0)
    assert left == [] and audience.attended()  # one listener is left: no look scheduled
    audience.remove(page)
    moments.advance(4.0)
    audience.touch()  # an API call within the grace extends it
    moments.advance(1.1)
    assert left == [True]  # the look came after the grace, and found the game attended
    moments.advance(5.0)
    assert not audience.attended()
