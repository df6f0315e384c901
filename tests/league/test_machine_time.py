"""The league's waits by absence count only the time the machine could run things.

An event game waits :data:`RECONNECT_GRACE` seconds after a start for its bots to
reconnect, :data:`REFUSED_WAIT` after the league refused a bot, and a person is present
:data:`PRESENCE` seconds after their page asked; past them, an absent member loses its
event game at once. On a loaded machine the clients and the server wait for a CPU, so
each wait counts its wall time less the machine's stalled time (PSI), within
:data:`WAIT_CAP` of wall time (:mod:`adjacency.league.play.machine_time`). Here the rule
itself (:func:`wait_over`), its clock with a fake pressure reading, the pressure file's
reading, and the scheduler holding an absent bot's event game while the machine stalls.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.league.league_file import LeagueStore
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.machine_time import CALM_STALL, WAIT_CAP, MachineClock, wait_over
from adjacency.league.play.outbox import Outbox
from adjacency.league.play.presence import PRESENCE, Presence
from adjacency.league.play.scheduler import RECONNECT_GRACE, REFUSED_WAIT
from adjacency.sandbox.pressure import PRESSURE_ENV, stall_total, stalled_seconds
from hall_helpers import Inbox
from league_helpers import add_member, make_league

seconds = st.floats(min_value=0.0, max_value=1000.0, allow_nan=False)
waits = st.floats(min_value=0.0, max_value=120.0, allow_nan=False)


class Machine:
    """A fake machine: its clock and its stalled seconds, moved on by the test."""

    def __init__(self) -> None:
        self.now = 5000.0
        self.stall: float | None = 70.0  # any origin: only differences count

    def step(self, wall: float, stalled: float = 0.0) -> None:
        """``wall`` seconds pass, ``stalled`` of them with work waiting for a CPU."""
        self.now += wall
        if self.stall is not None:
            self.stall += stalled

    def clock(self) -> MachineClock:
        return MachineClock(lambda: self.stall, lambda: self.now)


@given(seconds, st.one_of(st.none(), seconds), waits, seconds)
def test_a_wait_ends_no_sooner_than_its_wall_time_and_no_later_than_the_cap(
    wall: float, stalled: float | None, wait: float, cap: float
) -> None:
    over = wait_over(wall, stalled, wait, cap)
    assert not over or wall >= wait  # stalled time never shortens a wait
    assert over or wall < max(cap, wait)  # a machine that never frees still ends it
    if stalled is None:  # no PSI: wall time, as on a quiet machine
        assert over == (wall >= wait)


@given(seconds, seconds, seconds, waits)
def test_more_stalled_time_never_ends_a_wait_sooner(
    wall: float, less: float, more: float, wait: float
) -> None:
    less, more = sorted((less, more))
    assert wait_over(wall, less, wait) or not wait_over(wall, more, wait)


@given(st.lists(st.tuples(st.floats(0.0, 5.0), st.floats(0.0, 1.0)), max_size=80), waits)
def test_the_clock_counts_the_unstalled_time_since_a_marked_start(
    steps: list[tuple[float, float]], wait: float
) -> None:
    """Whatever the load's pattern, a wait begun at a mark is over exactly when its wall
    time less the stall since the mark reaches its length (or the cap is reached)."""
    machine = Machine()
    clock = machine.clock()
    start, base = clock.mark(), machine.stall
    assert base is not None
    for step, share in steps:
        machine.step(step, step * share)
        assert machine.stall is not None
        assert clock.over(start, wait) == wait_over(machine.now - start, machine.stall - base, wait)


def test_a_wait_begun_between_readings_counts_no_stall_from_before_it() -> None:
    machine = Machine()
    clock = machine.clock()
    clock.mark()
    machine.step(0.1, 0.1)  # stalled, but before the wait began
    since = machine.now
    machine.step(10.0)  # ten free seconds
    assert clock.over(since, 10.0)


def test_without_pressure_the_waits_are_wall_time() -> None:
    machine = Machine()
    machine.stall = None
    clock = machine.clock()
    start = clock.mark()
    machine.step(9.9)
    assert not clock.over(start, 10.0)
    machine.step(0.1)
    assert clock.over(start, 10.0)


@given(st.lists(st.tuples(st.floats(0.25, 3.0), st.floats(0.0, 1.0)), max_size=40))
def test_a_span_is_calm_exactly_when_its_stall_is_at_most_a_tenth_of_it(
    steps: list[tuple[float, float]],
) -> None:
    """Whatever the load's pattern, the machine is calm over a span exactly when the
    kept readings reach back that far and the stall since the last reading at or before
    the span's start is at most :data:`CALM_STALL` of the wall time since it."""
    machine = Machine()
    clock = machine.clock()
    readings = [(machine.now, machine.stall)]
    clock.mark()
    span = 5.0
    for step, share in steps:
        machine.step(step, step * share)
        readings.append((machine.now, machine.stall))
        base = [(t, s) for t, s in readings[:-1] if t <= machine.now - span]
        calm = clock.calm(span)
        if not base:
            assert not calm  # too little history to say
        else:
            then, stall_then = base[-1]
            assert machine.stall is not None and stall_then is not None
            wall = machine.now - then
            assert calm == (machine.stall - stall_then <= CALM_STALL * wall)


def test_without_pressure_the_machine_is_never_calm() -> None:
    machine = Machine()
    machine.stall = None
    clock = machine.clock()
    clock.mark()
    machine.step(60.0)
    assert not clock.calm(5.0)


def test_a_refusal_and_a_page_wait_while_the_machine_stalls() -> None:
    """A refused bot is held, and a person whose page asked is present, for their waits
    of free time: a stalled minute adds to them, up to the cap."""
    machine = Machine()
    presence = Presence(machine.clock())
    presence.refuse(7)
    presence.seen[8] = presence.machine.mark()
    machine.step(PRESENCE + 50.0, 50.0)  # all but PRESENCE seconds stalled
    assert presence.held({7}, REFUSED_WAIT) and presence.present() == set()
    presence.seen[8] = presence.machine.mark()
    machine.step(PRESENCE + 1.0, PRESENCE + 1.0)
    assert presence.present() == {8}  # the page's asks could not be served
    machine.step(REFUSED_WAIT - PRESENCE)
    assert not presence.held({7}, REFUSED_WAIT) and presence.present() == set()
    presence.refuse(None)  # whose, unknown: every absent bot is held
    machine.step(WAIT_CAP, WAIT_CAP)
    assert not presence.held({7}, REFUSED_WAIT)  # the cap ends it however stalled


def test_the_pressure_files_some_total_is_read_in_seconds(tmp_path: Path) -> None:
    psi = tmp_path / "cpu.pressure"
    psi.write_text(
        "some avg10=71.68 avg60=28.75 avg300=18.28 total=20128032247\n"
        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    )
    assert stall_total(psi) == 20128.032247
    psi.write_text("full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n")
    assert stall_total(psi) is None  # no "some" line
    assert stall_total(tmp_path / "absent") is None  # no PSI: wall time


def test_the_server_may_name_its_pressure_file_or_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    psi = tmp_path / "cpu.pressure"
    psi.write_text("some avg10=0.00 avg60=0.00 avg300=0.00 total=2500000\n")
    monkeypatch.setenv(PRESSURE_ENV, str(psi))
    assert stalled_seconds() == 2.5
    monkeypatch.setenv(PRESSURE_ENV, "none")
    assert stalled_seconds() is None


def test_an_absent_bots_event_game_waits_while_the_machine_stalls(tmp_path: Path) -> None:
    """After a start, with blue not connected: while the machine is stalled the event
    game waits, however much wall time passes; once RECONNECT_GRACE of free time has
    passed, blue loses it at once by its absence."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("red", "blue"):
        add_member(db, name)
    machine = Machine()

    async def main() -> None:
        with LeagueStore(db) as store:
            store.events.create("cup", "round-robin", None, ["red", "blue"])
            store.events.start("cup")
            hall = Hall(store, HousePlayers())
            try:
                hall.presence.machine = machine.clock()
                hall.scheduler.up_since = hall.presence.machine.mark()  # the server starts
                red = Outbox(store.members.member_named("red"), Inbox().send)
                red.leaving = True  # its event's games only
                hall.attach(red)
                for _ in range(6):  # a minute of wall time, the machine stalled throughout
                    machine.step(RECONNECT_GRACE, RECONNECT_GRACE)
                    assert hall.scheduler.pair() == []
                machine.step(RECONNECT_GRACE - 0.5)  # free, but less than the grace
                assert hall.scheduler.pair() == [] and store.games.games() == []
                machine.step(0.5)
                [live] = hall.scheduler.pair()
                assert live.game.result is not None  # its loss at once, as any absence
                [game] = store.games.games()
                blue = store.members.member_named("blue").id
                assert game.detail_code == "absent" and game.points(blue) == 0
            finally:
                await hall.stop()

    asyncio.run(main())
