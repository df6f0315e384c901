"""Hosted bots on a Ray cluster: with ``--executor ray`` a team's accepted version plays
its rated games on a worker node of a real local cluster (a head and two worker nodes,
tests/conftest.py), in the same sandbox, the game's hosted side in one actor there; the
games end on the board, record the version, and leave no process of the bot and no
actor (its process) behind (a Python program: nothing there depends on the kind). A
worker node killed in the middle of a hosted game of two Java course bots ends that game
by disconnection with the reason, and the server plays on: the course bots' next games
end on the board on the node left, so a Java course bot plays on a node too."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from hosted_helpers import FAILING, REPO, accepted, finished_games, new_league, served, zipped
from league_helpers import add_member, make_league, upload, wait_until
from sandbox_helpers import own_sandboxes

pytestmark = pytest.mark.jvm  # in the Ray cluster's xdist group (tests/groups.py)


def minimal_program() -> bytes:
    """The minimal Python engine-protocol program, zipped (a hosted kind other than Java)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.write(REPO / "examples" / "engines" / "minimal_engine.py", "minimal_engine.py")
    return buffer.getvalue()


def test_a_hosted_game_plays_on_a_worker_node_and_leaves_nothing(
    ray_cluster: Any, folder: Path
) -> None:
    import ray

    # A clock no correct player comes near: the house bot's moves go through the cluster
    # too, and beside other leagues (a load of 10-30) greedy lost its 5 s on the way.
    league = new_league(folder, base=120.0)
    token = add_member(league, "team1")
    here = ray.get_runtime_context().get_node_id()  # the head node: this process's
    nodes = ray.nodes()  # type: ignore[no-untyped-call]
    workers = {n["NodeID"] for n in nodes if n["Alive"] and n["NodeID"] != here}
    with served(league, executor="ray") as (url, app):
        hosted = app.state.hosted
        assert upload(url, minimal_program(), token).status == 201
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


SLOW = FAILING.replace("if (!isX && roundsLeft < 4) { FAIL }", "Thread.sleep(350);")
"""A course bot that sleeps 0.35 s before each move (a game of two is seconds long: the
node is killed within a poll of the game's placement, before its end; its clock is
charged CPU time, not the sleep)."""


def test_a_worker_node_killed_mid_game_ends_that_game_with_the_reason_and_play_goes_on(
    ray_cluster: Any, folder: Path
) -> None:
    """Two hosted teams (no house bot), so every game has both sides in one actor on one
    node; that node is killed (its raylet and workers, SIGKILL) while a game is in play:
    the game ends by disconnection naming the lost node, the sandbox of both sides goes
    with the node, the node's slots are gone at once (while Ray's table still lists it
    for a while, no game is placed there to be lost), and the next games play to their
    end on the node that is left. A fresh node takes the killed one's place for the
    session's other Ray tests."""
    import ray

    league = folder / "league.db"
    make_league(league, rows=6, cols=6, rounds=4, base=5.0, increment=0.0)
    tokens = [add_member(league, name) for name in ("team1", "team2")]
    with served(league, executor="ray") as (url, app):
        remote = app.state.hosted.remote
        assert remote is not None
        for token in tokens:
            assert upload(url, zipped(SLOW), token).status == 201
        for token in tokens:
            accepted(url, token)

        def in_play() -> tuple[int, Any] | None:  # a game placed on a node, with moves left
            for game_id in list(remote.hosts):
                where = remote.placement(game_id)
                if where is not None:
                    return game_id, where
            return None

        game_id, where = wait_until(in_play, 55, "a hosted game on a node")
        (node,) = [n for n in ray_cluster.worker_nodes if n.node_id == where.node]
        ray_cluster.remove_node(node, allow_graceful=False)
        try:

            def ended() -> StoredGame | None:
                with LeagueStore(league, create=False) as store:
                    game = store.games.game(game_id)
                return game if game is not None and game.status == "finished" else None

            game = wait_until(ended, 55, "the killed node's game to end")
            assert game.termination == "disconnection", (game.termination, game.detail)
            assert "node" in game.detail and ("lost" in game.detail or "failed" in game.detail)
            assert game.detail.startswith(("team1 ", "team2 ")), game.detail
            assert where.node not in remote.nodes  # its slots gone with its game

            # The server plays on: a later game ends on the board, on the node left, and
            # none before it is lost on the dead node.
            def next_games() -> list[StoredGame] | None:
                with LeagueStore(league, create=False) as store:
                    later = [g for g in store.games.games(status="finished") if g.id > game_id]
                return later if any(g.termination == "normal" for g in later) else None

            later = wait_until(next_games, 55, "a later game to end on the board")
            assert all(g.termination == "normal" for g in later), [
                (g.id, g.termination, g.detail) for g in later
            ]
        finally:
            ray_cluster.add_node(num_cpus=1, object_store_memory=80 * 1024 * 1024)
            ray_cluster.wait_for_nodes()
    assert ray.is_initialized()
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
