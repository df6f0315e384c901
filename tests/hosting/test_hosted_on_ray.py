"""Hosted bots on a Ray cluster: with ``--executor ray`` a team's accepted version plays
its rated games on a worker node of a real local cluster (a head and two worker nodes,
tests/conftest.py), in the same sandbox, the game's hosted side in one actor there; the
games end on the board, record the version, and leave no process of the bot and no
actor (its process) behind."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.store import LeagueStore
from hosted_helpers import FAILING, accepted, finished_games, new_league, served, zipped
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import own_sandboxes

pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("ray")]


def test_a_hosted_game_plays_on_a_worker_node_and_leaves_nothing(
    ray_cluster: Any, folder: Path
) -> None:
    import ray

    league = new_league(folder)
    token = add_member(league, "team1")
    here = ray.get_runtime_context().get_node_id()  # the head node: this process's
    nodes = ray.nodes()  # type: ignore[no-untyped-call]
    workers = {n["NodeID"] for n in nodes if n["Alive"] and n["NodeID"] != here}
    with served(league, executor="ray") as (url, app):
        hosted = app.state.hosted
        assert upload(url, zipped(FAILING.replace("FAIL", "")), token).status == 201
        accepted(url, token)
        remote = hosted.remote
        assert remote is not None
        placements = []

        def placed() -> bool:
            for game_id in list(remote.hosts):
                where = remote.placement(game_id)
                if where is not None:
                    placements.append(where)
            return bool(placements)

        wait_until(placed, 55, "a hosted game on the cluster")
        games = finished_games(league, "team1", 2)
        with LeagueStore(league, create=False) as store:
            team = store.members.member_named("team1")
            (version,) = store.submissions.versions(team.id)
            for game in games[:2]:
                assert game.termination == "normal", game.detail
                played = store.submissions.played(game.id)
                assert version.id in played
        assert {p.node for p in placements} <= workers, (placements, workers)
        finished = {game.id for game in games[:2]}
        wait_until(lambda: not finished & set(remote.hosts), 30, "the finished games' actors")
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    wait_until(lambda: not any(alive(p.pid) for p in placements), 30, "the actors' processes")


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (the nodes are this machine's processes)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
