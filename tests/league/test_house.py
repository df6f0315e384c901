"""House bots: moves computed in the executor's worker processes; a worker that dies
costs one move (a loss for that house bot), not the house bots of the rest of the run;
a move is charged the CPU its worker used, not the executor's start."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.bots import BotError
from adjacency.core import Position
from adjacency.league.league_file import LeagueStore
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HouseMove, HousePlayers, WorkerError, check_house_spec
from hall_helpers import run


def test_house_moves_survive_a_dead_worker() -> None:
    start = Position.start(6, 6, 4)
    item = HouseMove("greedy", 1, start.fen(), 1.0)

    async def scenario() -> None:
        house = HousePlayers("local", 1)
        try:
            assert (await house.choose(item)).move in start.legal_moves()
            pool = house._executor._pool  # type: ignore[union-attr]
            for pid in list(pool._processes):  # type: ignore[union-attr]
                os.kill(pid, signal.SIGKILL)
            outcomes = []
            for _ in range(2):
                try:
                    outcomes.append((await house.choose(item)).move)
                except WorkerError:
                    outcomes.append("worker died")
            assert outcomes[-1] in start.legal_moves()
        finally:
            house.close()

    asyncio.run(scenario())


def test_house_bots_are_built_in_specs_only() -> None:
    assert check_house_spec("alphabeta:depth=2") == "alphabeta:depth=2"
    for spec in ("cmd:python3 evil.py", "nonsense", "greedy:depth=x"):
        with pytest.raises(BotError):
            check_house_spec(spec)


@pytest.mark.slow
def test_house_moves_run_on_a_ray_cluster(ray_cluster: Any) -> None:
    """``league serve --executor ray``: house moves are Ray tasks on the session's real
    multi-node cluster (tests/conftest.py; its head has no CPU, so they run on its nodes)."""
    start = Position.start(6, 6, 4)
    after = start.play("c3")

    async def scenario() -> list[str]:
        house = HousePlayers("ray", None)
        try:
            return [
                (await house.choose(HouseMove("greedy", 1, start.fen(), 1.0))).move,
                (await house.choose(HouseMove("alphabeta:depth=2", 2, after.fen(), 1.0))).move,
            ]
        finally:
            house.close()

    first, second = asyncio.run(scenario())
    assert first in start.legal_moves() and second in after.legal_moves()


def test_a_house_move_is_charged_its_thinking_not_its_worker_s_start(tmp_path: Path) -> None:
    """A cold executor: the first house move waits for a worker process to start and
    import the package (a second or more of wall time), far more than its side's 0.4 s
    clock. It is charged the CPU its worker used to choose it, not that wait, so the
    game of two house bots plays on to its end on the board, never on time."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        x = store.members.add_member("house-greedy", "house", "greedy")[0]
        o = store.members.add_member("house-random", "house", "random")[0]
        live = hall.games.start_game(x, o, 0, pace=0.0)
        deadline = time.monotonic() + 50
        while live.id in hall.games.live and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        game = store.games.game(live.id)
        assert game is not None and game.status == "finished", game
        assert game.termination == "normal", (game.termination, game.detail)

    run(scenario, tmp_path, base=0.4)
