"""New games wait in the pairing while the machine cannot give the hosted moves their
cores (:meth:`~adjacency.league.play.hosted.HostedPlayers.room`), and start again once
the machine can: a move says so, the machine's own reading has been calm for
:data:`~adjacency.league.play.hosted.CALM_SPAN`, or no recent move says otherwise."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from adjacency.core.errors import AdjacencyError
from adjacency.league.play.hosted import (
    CALM_SPAN,
    SHARE_FLOOR,
    SHARE_FLOOR_ENV,
    SHARE_WINDOW,
    HostedPlayers,
)
from adjacency.league.play.machine_time import MachineClock
from cli_helpers import run


@pytest.fixture(autouse=True)
def product_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The product's floor, not the suite's (tests/conftest.py sets none for its servers)."""
    monkeypatch.delenv(SHARE_FLOOR_ENV, raising=False)


def test_games_wait_while_the_latest_moves_had_too_little_of_their_cores() -> None:
    hosted = HostedPlayers(None, jobs=2)
    assert hosted.share_floor == SHARE_FLOOR
    now = time.monotonic()
    assert hosted.core_share(now) is None and hosted.room() == 2  # nothing measured yet
    hosted.shares.append((now - 5.0, 0.9, 0.1))  # a move that had its core
    assert hosted.core_share(now) == 0.9 and not hosted.held(now)
    hosted.shares.append((now - 1.0, 0.3, 2.7))  # one the machine kept waiting
    share = hosted.core_share(now)
    assert share is not None and share < SHARE_FLOOR
    assert hosted.held(now) and hosted.room() == 0  # the pairing holds new games
    later = now + SHARE_WINDOW + 1.0  # no move since: the machine may be free again
    assert hosted.core_share(later) is None and not hosted.held(later)
    hosted.shares.append((time.monotonic(), 2.0, 0.1))  # and a move says it is
    assert not hosted.held() and hosted.room() == 2


class Machine:
    """A fake machine's clock and stalled seconds (PSI), moved on by the test."""

    def __init__(self, stall: float | None = 100.0) -> None:
        self.now, self.stall = 1000.0, stall

    def step(self, wall: float, stalled: float = 0.0) -> None:
        self.now += wall
        if self.stall is not None:
            self.stall += stalled


def test_a_hold_ends_once_the_machine_has_been_calm_for_its_span() -> None:
    """A starved move holds new games; while the machine's work still waits for a CPU
    the hold stays, and once the machine has run everything ready to run for
    CALM_SPAN seconds the games start again, long before the move leaves the window."""
    hosted = HostedPlayers(None, jobs=2)
    machine = Machine()
    clock = MachineClock(lambda: machine.stall, lambda: machine.now)
    clock.mark()
    hosted.shares.append((time.monotonic(), 0.3, 2.7))  # a tenth of its core
    for _ in range(8):  # the load goes on: four seconds in five stalled
        machine.step(1.0, 0.8)
        assert hosted.held(machine=clock) and hosted.room(clock) == 0
    for _ in range(int(CALM_SPAN) - 1):  # calm, but for less than the span
        machine.step(1.0, 0.02)
        assert hosted.room(clock) == 0
    machine.step(1.5, 0.02)
    assert not hosted.held(machine=clock) and hosted.room(clock) == 2
    assert hosted.held()  # the moves alone still say starved: the reading ended it
    machine.step(1.0, 1.0)  # the load is back: held again
    assert hosted.room(clock) == 0


def test_without_pressure_a_hold_lasts_its_window() -> None:
    hosted = HostedPlayers(None, jobs=1)
    machine = Machine(stall=None)
    clock = MachineClock(lambda: machine.stall, lambda: machine.now)
    clock.mark()
    now = time.monotonic()
    hosted.shares.append((now, 0.3, 2.7))
    machine.step(SHARE_WINDOW - 1.0)
    assert hosted.held(now + SHARE_WINDOW - 1.0, clock)
    assert not hosted.held(now + SHARE_WINDOW + 1.0, clock)


def test_moves_that_neither_computed_nor_waited_say_nothing() -> None:
    hosted = HostedPlayers(None, jobs=1)
    now = time.monotonic()
    hosted.shares.extend([(now, 0.001, 0.0), (now, 0.0, 0.002)])  # answered at once
    assert hosted.core_share(now) is None and hosted.room() == 1


def test_a_server_s_floor_comes_from_its_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    now = time.monotonic()
    starved = (now - 1.0, 0.3, 2.7)  # a tenth of its core
    monkeypatch.setenv(SHARE_FLOOR_ENV, "0")  # as the suite's servers run: never held
    never = HostedPlayers(None, jobs=1)
    never.shares.append(starved)
    assert never.core_share(now) == pytest.approx(0.1)
    assert not never.held(now) and never.room() == 1
    monkeypatch.setenv(SHARE_FLOOR_ENV, " 0.05 ")
    lower = HostedPlayers(None, jobs=1)
    lower.shares.append(starved)
    assert lower.share_floor == 0.05 and not lower.held(now)
    lower.shares.append((now - 0.5, 0.0, 6.0))  # another move that got nothing: 0.03
    assert lower.held(now) and lower.room() == 0


@pytest.mark.parametrize("text", ["half", "1.5", "-0.1", "nan", "inf"])
def test_a_floor_that_is_not_a_share_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    monkeypatch.setenv(SHARE_FLOOR_ENV, text)
    with pytest.raises(AdjacencyError, match=rf"{SHARE_FLOOR_ENV}='{text}' is not a share"):
        HostedPlayers(None, jobs=1)


def test_league_serve_refuses_a_bad_floor_before_the_file_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(SHARE_FLOOR_ENV, "half")
    db = tmp_path / "class.db"
    status, out, err = run(capsys, "league", "serve", "--db", str(db), "--port", "0")
    assert status == 2 and out == ""
    assert err.startswith(f"adjacency league: error: {SHARE_FLOOR_ENV}='half' is not a share")
    assert not db.exists()
