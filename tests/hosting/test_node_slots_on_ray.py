"""Each node of a Ray cluster has its own slots for computing sides: with ``--executor
ray`` the games with a hosted side are placed by the nodes' slots (a node of N CPUs
has N - 1, at least one), not by the server's ``--hosted-jobs``; no more of a node's
sides compute at once than its slots, a game past them waits in the pairing, and a node
that joins adds its slots, one that leaves takes them away. Through the real local
cluster of tests/conftest.py (a head without CPUs and two one-CPU worker nodes: one slot
each), read from what the server records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjacency.hosting.player import Choice
from adjacency.hosting.ray_seats import RaySeats
from adjacency.hosting.slots import default_slots
from adjacency.league.league_file import LeagueStore
from adjacency.workers.ray_cluster import cpu_nodes
from hosted_helpers import accepted, files_zip, finished_games, first_empty_program, served
from league_helpers import make_league, upload, wait_until
from sandbox_helpers import own_sandboxes

CONCURRENCY = 3
"""Games each team may play at once: the two teams want three games, past the
cluster's two slots."""

COMPUTES = first_empty_program(
    "computes",
    """\
def think():
    end = time.process_time() + 0.05  # a little CPU a move, whatever the machine's load
    while time.process_time() < end:
        pass
""",
)


def worker_nodes(cluster: Any) -> set[str]:
    """The ids of ``cluster``'s worker nodes, once Ray's node table lists them and no other
    node with CPUs as alive (a node killed by another test is listed for a while)."""
    import ray

    workers = {node.node_id for node in cluster.worker_nodes}

    def listed() -> bool:
        return {n["NodeID"] for n in cpu_nodes(ray)} == workers

    wait_until(listed, 30, "Ray's node table to list the worker nodes alone")
    return workers


def test_each_node_bounds_its_own_computing_sides_and_more_games_wait_in_the_pairing(
    ray_cluster: Any, folder: Path
) -> None:
    """Two hosted teams that may play three games at once, on a server whose own slots
    are one: the cluster's two worker nodes hold a game each (two at once, past the
    server's one slot), never two on one node, never two sides of one node computing at
    once (a game's two sides start one after the other on its node), and the third game
    waits in the pairing."""
    league = folder / "league.db"
    make_league(league, rows=6, cols=6, rounds=4, base=10.0, increment=0.0)
    with LeagueStore(league) as store:
        tokens = [
            store.members.add_member(name, "bot", concurrency=CONCURRENCY)[1] or ""
            for name in ("team1", "team2")
        ]
    workers = worker_nodes(ray_cluster)
    with served(league, executor="ray", hosted_jobs=1) as (url, app):
        hosted = app.state.hosted
        for token in tokens:
            assert upload(url, files_zip({"engine.py": COMPUTES}), token).status == 201
        for token in tokens:
            accepted(url, token)
        remote = hosted.remote
        assert remote is not None
        wait_until(lambda: hosted.most_games >= 2, 40, "two hosted games at once")
        games = finished_games(league, "team1", 2)
        nodes = list(remote.nodes.values())
        assert {node.node for node in nodes} == workers, nodes  # not the head: no CPU there
        for node in nodes:
            assert node.slots.count == default_slots(node.cpus) == 1, node
            assert node.most_games <= 1, node  # a game a slot
            assert node.slots.most == 1, node  # its sides computing at once: one
        assert {node.most_games for node in nodes} == {1}, nodes  # both nodes took a game
        # Two at once: the nodes' slots, not the server's one; and never the third game
        # the teams could play.
        assert hosted.most_games == 2, hosted.most_games
        assert hosted.most_computing <= 2, hosted.most_computing
        for game in games[:2]:
            assert game.termination == "normal", game.detail
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_a_node_that_joins_adds_its_slots_and_one_that_leaves_takes_them(
    ray_cluster: Any, folder: Path
) -> None:
    """A node of three CPUs joins: two more slots, and the next game goes to it (it has
    the most free); the game's end frees its slot; the node leaves: its slots are gone."""
    workers = worker_nodes(ray_cluster)
    seats = RaySeats()
    before = seats.room()
    assert before == len(workers)  # a slot each
    node = ray_cluster.add_node(num_cpus=3, object_store_memory=80 * 1024 * 1024)
    try:
        ray_cluster.wait_for_nodes()
        wait_until(lambda: seats.room() == before + 2, 30, "the joined node's two slots")
        joined = seats.nodes[node.node_id]
        assert joined.slots.count == 2
        seat = seats.seat(1, "x", Choice(folder, "bot", [], "python"))
        assert seat.slots is joined.slots
        assert joined.games == {1} and seats.room() == before + 1
        where = wait_until(lambda: seats.placement(1), 40, "the game's actor")
        assert where.node == node.node_id
        seat.close()
        assert joined.games == set() and seats.room() == before + 2
    finally:
        ray_cluster.remove_node(node)
    try:
        wait_until(lambda: seats.room() == before, 30, "the left node's slots gone")
        assert node.node_id not in seats.nodes
    finally:
        seats.stop()
