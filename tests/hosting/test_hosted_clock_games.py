"""A hosted bot's wall cap is its own, in the league's real games (a real league server,
its builder, javac, the JVM in the sandbox): a bot that sleeps past its own time, still
under the wall cap, loses on time; a bot that computes but is starved of a CPU by load
the test makes is not lost: its game is abandoned without a result."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from hosted_helpers import FAILING, accepted, new_league, served, zipped
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import own_sandboxes

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

SLEEPS = "Thread.sleep(5500);"
"""5.5 s of sleep on a 2 s clock: under its wall cap (3 x 2 + 1 s), past its own 4 s."""

STARVED = (
    'new ProcessBuilder("/usr/bin/taskset", "-a", "-cp", "0",'
    " Long.toString(ProcessHandle.current().pid())).start().waitFor();"
    " java.lang.management.ThreadMXBean mx ="
    " java.lang.management.ManagementFactory.getThreadMXBean();"
    " long end = mx.getCurrentThreadCpuTime() + 1_500_000_000L;"
    " while (mx.getCurrentThreadCpuTime() < end) Math.sqrt(7);"
)
"""On core 0 only (where the test's load runs), 1.5 s of CPU: within its 2 s clock."""


def _game_as_o(db: Path, status: str) -> StoredGame:
    def found() -> StoredGame | None:
        with LeagueStore(db, create=False) as store:
            member = store.members.member_named("team1")
            assert member is not None
            games = store.games.games(member_id=member.id, status=status)
        return next((g for g in games if g.o_id == member.id), None)

    game: StoredGame = wait_until(found, 55, f"a game of team1 as O, {status}")
    return game


@contextlib.contextmanager
def _load_on_core_zero(burners: int = 8) -> Iterator[None]:
    """Busy loops on core 0, each in a session of its own (the scheduler shares a core
    between sessions' groups), so a bot there gets at most a ninth of it."""
    started = [
        subprocess.Popen(
            ["taskset", "-c", "0", "sh", "-c", "while :; do :; done"], start_new_session=True
        )
        for _ in range(burners)
    ]
    try:
        yield
    finally:
        for process in started:
            process.kill()
            process.wait()


def test_a_hosted_bot_sleeping_past_its_own_time_loses_under_the_wall_cap(
    folder: Path,
) -> None:
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, zipped(FAILING.replace("FAIL", SLEEPS)), token).status == 201
        accepted(url, token)
        game = _game_as_o(league, "finished")
        assert game.result == "x" and game.termination == "time forfeit", game
        assert "of wall time of its own" in game.detail, game.detail
        assert "a bot that sleeps or waits loses on time" in game.detail
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_a_hosted_bot_starved_of_a_cpu_has_its_game_abandoned_not_lost(folder: Path) -> None:
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, zipped(FAILING.replace("FAIL", STARVED)), token).status == 201
        accepted(url, token)
        with _load_on_core_zero():
            game = _game_as_o(league, "aborted")
    assert game.result is None, game
    assert "waited" in game.detail and "for a CPU" in game.detail, game.detail
    assert "the server was too busy" in game.detail
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
