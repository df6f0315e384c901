"""A hosted move lost by its CPU says why, through the league's games (the server sides'
own path, :meth:`~adjacency.league.play.server_sides.ServerSides._hosted_answer`): a move
in time by its wall time whose CPU in the move passed its clock loses on time
saying its clock, its charge, its CPU and its own wall time (``hosted-late``); a move
stopped at its CPU cap says its CPU, its wall time and its clock (``hosted-cpu``). The
seat's figures are :mod:`adjacency.hosting.move_clock`'s (its own tests: a real
sandboxed bot that thinks on its opponent's time is not charged it)."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import pytest

from adjacency.core.game import Termination
from adjacency.hosting.seat import Answer
from adjacency.league.league_file import LeagueStore
from adjacency.league.play.hall import Hall
from hall_helpers import connect, run


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (
            Answer("?", cpu=5.13, wall=5.13, charged=4.63 + 0.5 + 0.01, own=0.01),
            "moved after its time was up: its clock had 5.00 s and it was charged 5.14 s for "
            "its CPU time (5.13 s: what it computed in this move; 0.01 s of wall time of its "
            "own)",
        ),
        (
            Answer(None, cpu=5.52, wall=5.60, out_of_cpu=True, charged=5.52, own=5.55),
            "did not move within its clock: it was stopped at 5.52 s of CPU (what it computed "
            "in this move), in 5.55 s of wall time of its own; its clock had 5.00 s",
        ),
    ],
    ids=["late-by-its-cpu", "stopped-at-its-cpu-cap"],
)
def test_a_move_lost_by_its_cpu_says_its_clock_cpu_and_wall(
    tmp_path: Path, answer: Answer, words: str
) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        for name in ("a", "b"):
            connect(hall, store.members.add_member(name, "bot")[0])
        (live,) = hall.scheduler.pair()
        mover = live.member(live.game.position.turn).name
        legal = live.game.position.legal_moves()[0]
        given = Answer(
            legal if answer.move else None,
            answer.cpu,
            answer.wall,
            out_of_cpu=answer.out_of_cpu,
            charged=answer.charged,
            own=answer.own,
        )
        hall.games.sides._hosted_answer(live, given, 5.0, None)  # type: ignore[arg-type]
        assert live.id not in hall.games.live
        (stored,) = [g for g in store.games.games(status="finished") if g.id == live.id]
        assert stored.termination == Termination.TIME_FORFEIT.value, stored
        assert stored.detail == f"{mover} {words}", stored.detail

    run(scenario, tmp_path, base=5.0)


@pytest.mark.parametrize("came_back", [False, True], ids=["thread-hung", "loop-late"])
def test_the_overrun_backstop_forfeits_only_a_move_whose_thread_has_not_come_back(
    tmp_path: Path, came_back: bool
) -> None:
    """The backstop past a hosted move's ceiling
    (:meth:`~adjacency.league.play.server_sides.ServerSides._hosted_overrun`) ends the
    game on time when the move's thread is still out; a thread that came back before
    the loop ran the timer (the loop was held up, and runs a due timer before the move's
    own wake-up) leaves the game to be judged by its answer."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        for name in ("a", "b"):
            connect(hall, store.members.add_member(name, "bot")[0])
        (live,) = hall.scheduler.pair()
        mover = live.member(live.game.position.turn).name
        work: concurrent.futures.Future[Answer] = concurrent.futures.Future()
        if came_back:
            work.set_result(Answer(live.game.position.legal_moves()[0], 0.1, 3.6))
        hall.games.sides._hosted_overrun(live.id, live.version, 7.5, work)
        if came_back:
            assert hall.games.live.get(live.id) is live
            return
        assert live.id not in hall.games.live
        (stored,) = [g for g in store.games.games(status="finished") if g.id == live.id]
        assert stored.termination == Termination.TIME_FORFEIT.value, stored
        assert stored.detail == f"{mover} failed: no answer within the cap of 7.5 s of wall time"

    run(scenario, tmp_path, base=5.0)
