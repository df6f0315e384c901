"""A hosted move is judged by its own wall time, in the league's real games (a real
league server, its builder, javac, the JVM in the sandbox): a bot that sleeps past its
clock and the grace loses on time, on a quiet machine as beside 16 busy loops the test
starts outside the league; a bot that computes within its clock but is starved of its
core by work the test weighs above the games, on the one CPU it holds the bot to, is
not lost: its game is abandoned without
a result, its account saying how long it waited for a CPU."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from hosted_helpers import FAILING, accepted, new_league, served, zipped
from league_helpers import add_member, upload, wait_until
from load_helpers import busy_loops, heavier_load
from sandbox_helpers import own_sandboxes

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

SLEEPS = "Thread.sleep(3500);"
"""3.5 s of sleep on a 2 s clock: past its clock and the grace (2.5 s)."""

STARVED = (
    " java.lang.management.ThreadMXBean mx ="
    " java.lang.management.ManagementFactory.getThreadMXBean();"
    " long end = mx.getCurrentThreadCpuTime() + 1_500_000_000L;"
    " while (mx.getCurrentThreadCpuTime() < end) Math.sqrt(7);"
)
"""1.5 s of CPU: within its 2 s clock, more than the test's load leaves it."""


def _game_as_o(db: Path, status: str) -> StoredGame:
    def found() -> StoredGame | None:
        with LeagueStore(db, create=False) as store:
            member = store.members.member_named("team1")
            assert member is not None
            games = store.games.games(member_id=member.id, status=status)
        return next((g for g in games if g.o_id == member.id), None)

    game: StoredGame = wait_until(found, 55, f"a game of team1 as O, {status}")
    return game


@pytest.mark.parametrize("loaded", [False, True], ids=["quiet", "busy-loops"])
def test_a_hosted_bot_sleeping_past_its_clock_and_the_grace_loses_on_time(
    folder: Path, loaded: bool
) -> None:
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, zipped(FAILING.replace("FAIL", SLEEPS)), token).status == 201
        accepted(url, token)
        with busy_loops(16 if loaded else 0):
            game = _game_as_o(league, "finished")
        assert game.result == "x" and game.termination == "time forfeit", game
        assert "the grace of 0.5 s" in game.detail
        # its cap: the 2 s clock and the grace, less what its start took beyond its
        # runtime's allowance where a slow start did (charged to its first move)
        cap = re.search(r"of wall time of its own, more than its (\d+\.\d\d) s", game.detail)
        late = re.search(r"its start took (\d+\.\d\d) s more than its runtime", game.detail)
        assert cap, game.detail
        expected = 2.5 - (float(late[1]) if late else 0.0)
        assert abs(float(cap[1]) - expected) < 0.015, game.detail
    # its moves' three figures are kept: the last, the sleep, idle past its cap
    with LeagueStore(league, create=False) as store:
        moves = store.move_times.of_game(game.id)
    assert moves and all(move.member_id == game.o_id for move in moves), moves
    last = moves[-1]
    assert last.idle > 2.5 and last.cpu < 1.0, last
    assert last.cpu + last.idle + last.waited >= 3.5, last  # the 3.5 s it slept, at least
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_a_hosted_bot_starved_of_its_core_has_its_game_abandoned_not_lost(folder: Path) -> None:
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    with served(league) as (url, app):
        assert upload(url, zipped(FAILING.replace("FAIL", STARVED)), token).status == 201
        accepted(url, token)
        hosted = app.state.hosted

        def started() -> bool:  # its program has answered the handshake: its moves next
            seats = list(hosted.seats.values())
            return any(s.opened is not None and s.opened.done() for s in seats)

        wait_until(started, 55, "team1's program to have started in its game")
        with heavier_load(own_sandboxes):  # its moves starved, not its start
            game = _game_as_o(league, "aborted")
    assert game.result is None, game
    assert "for a CPU the machine gave to other work" in game.detail, game.detail
    assert "the server was too busy" in game.detail
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
