"""Hosted bots play the league's games: through a real league server (HTTP, its builder,
bubblewrap, javac, the JVM), a course project uploaded as a team has it is built,
accepted and then played by the server itself in rated games against a house bot, each
game recording the version that played; a hosted bot past its clock loses on time
(its CPU, or its wall time of its own); ``--hosted-jobs`` bounds how many hosted moves
compute at once and how many games with a hosted side are in play. (A bot that sleeps
for ever or exits mid-game, and the sandbox it leaves, are
tests/hosting/test_hostile_games.py's, among the attacks played in live games.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.ratings.glicko import Glicko
from hosted_helpers import (
    FAILING,
    accepted,
    course_project,
    decided,
    finished_games,
    new_league,
    served,
    zipped,
)
from league_helpers import ADMIN, add_member, request, upload, wait_until
from sandbox_helpers import own_sandboxes

pytestmark = pytest.mark.jvm

BUSY = (
    "for (int t = 0; t < 8; t++) new Thread(() -> { while (b != null) Math.sqrt(7); }).start();"
    " while (roundsLeft > 0) { Math.sqrt(7); }"
)
"""Nine busy threads: 2 s of CPU as soon as the machine gives them."""


def first_game_as_o(db: Path, name: str = "team1") -> StoredGame:
    """Wait until ``name`` has finished a game as O (where the failing bots fail); it."""

    def played_as_o() -> StoredGame | None:
        with LeagueStore(db, create=False) as store:
            member = store.members.member_named(name)
            done = store.games.games(member_id=member.id, status="finished")
        return next((g for g in done if g.o_id == member.id), None)

    game: StoredGame = wait_until(played_as_o, 55, f"a game of {name} as O")
    return game


def test_a_course_project_goes_from_upload_to_rated_games_on_the_board(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    token_file = tmp_path / "team1.token"
    token_file.write_text(token)
    project = course_project(tmp_path / "tubes")
    with served(league) as (url, _):
        command = ["league", "submit", url, str(project), "--token-file", str(token_file)]
        assert main(command) == 0
        assert "version 1 (a new version)" in capsys.readouterr().out
        accepted(url, token)
        games = finished_games(league, "team1", 2)  # a colour-swapped pair, no client
        with LeagueStore(league, create=False) as store:
            team = store.members.member_named("team1")
            (version,) = store.submissions.versions(team.id)
            for game in games[:2]:
                assert game.termination == "normal", game.detail  # ended on the board
                hosted_side = "x" if game.x_id == team.id else "o"
                played = store.submissions.played(game.id)
                assert played == ((version.id, None) if hosted_side == "x" else (None, version.id))
            assert {g.x_id for g in games[:2]} == {team.id, store.members.member_named("greedy").id}
            after = store.ratings.current_ratings()[team.id]
        assert after.rd < Glicko().rd  # rated: its deviation shrank from the start's
        # The team's page data and the teacher's list the version's games and points.
        own = request(url + "/api/league/submissions", token=token).body["submissions"][0]
        teacher = request(url + "/api/league/admin/members/team1/submissions", token=ADMIN)
        assert own["games"] >= 2 and 0 <= own["points"] <= own["games"]
        assert teacher.body["submissions"][0]["games"] >= 2
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_hosted_jobs_bounds_the_moves_computing_at_once(folder: Path) -> None:
    league = new_league(folder)
    add_member(league, "house2", "house", "random")
    with LeagueStore(league, create=False) as store:
        _, token = store.members.add_member("team1", "bot", None, concurrency=2)
    assert token is not None
    with served(league, hosted_jobs=1) as (url, app):
        assert upload(url, zipped(FAILING.replace("FAIL", "")), token).status == 201
        accepted(url, token)
        finished_games(league, "team1", 2)
        hosted = app.state.hosted
        # Free for two games at once, it played one at a time: the other waited in the
        # pairing rather than start past the one slot; nothing computed beside it.
        assert hosted.most_games == 1
        assert hosted.most_computing == 1
    # The same league with two jobs: its two games' bots start together.
    with served(league, hosted_jobs=2) as (url, app):
        hosted = app.state.hosted
        wait_until(lambda: hosted.most_computing == 2, 55, "two hosted bots computing at once")
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


SLEEPS_THEN_BURNS = (
    "Thread.sleep(1500);"
    " var cpu = java.lang.management.ManagementFactory.getThreadMXBean();"
    " long begun = cpu.getCurrentThreadCpuTime();"
    " while (cpu.getCurrentThreadCpuTime() - begun < 250_000_000L) Math.sqrt(7);"
)
"""1.5 s asleep, then 0.25 s of its thread's CPU time (however long the machine takes to
give it), on each move as O after its first."""


def test_a_hosted_bot_is_charged_its_wall_time_not_only_its_cpu(folder: Path) -> None:
    """O sleeps 1.5 s and then burns 0.25 s of CPU on each of its moves after the first
    (:data:`SLEEPS_THEN_BURNS`): little CPU, but on a core of its own its wall time is
    its thinking time, as the course judges it, so its clock is charged that time less
    the grace (about 1.25 s a move) and a 2 s clock runs out at its third move: a loss on
    time that names its own wall time (a clock charged only CPU would show 0.5 s and
    end the game on the board)."""
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        code = zipped(FAILING.replace("FAIL", SLEEPS_THEN_BURNS))
        assert upload(url, code, token).status == 201
        accepted(url, token)

        game = first_game_as_o(league)
        assert game.termination == "time forfeit", game.detail
        assert game.result == "x", game
        assert "of wall time of its own" in game.detail, game.detail
        assert game.o_time >= 1.0, game.o_time  # more than the CPU it burned
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_an_event_plays_the_version_accepted_before_its_deadline(folder: Path) -> None:
    league = new_league(folder)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        for number, extra in ((1, ""), (2, "int unused = 2;")):
            assert upload(url, zipped(FAILING.replace("FAIL", extra)), token).status == 201
            assert decided(url, token, number)["status"] == "accepted"
        with LeagueStore(league, create=False) as store:
            team = store.members.member_named("team1")
            second, first = store.submissions.versions(team.id)
            store.events.create("final", "round-robin", None, ["team1", "greedy"])
            store.submissions.set_deadline("final", (first.created + second.created) / 2)
            store.events.start("final")
            assert store.submissions.playing(team.id) == second  # the ladder's version

        def event_games() -> list[int] | None:
            with LeagueStore(league, create=False) as store:
                event = store.events.named("final")
                return store.events.game_ids(event.id) if event.status == "finished" else None

        games = wait_until(event_games, 55, "the event to finish")
        with LeagueStore(league, create=False) as store:
            played = [store.submissions.played(game) for game in games]
        assert len(played) == 2
        assert sorted(played, key=lambda p: p[0] is None) == [(first.id, None), (None, first.id)]
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def test_a_hosted_bot_past_its_cpu_clock_loses_on_time(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy bot's program is ended once its CPU time passes what its clock has left,
    and the game is lost on time. The wall cap is set out of the way here (a starved
    machine can give a busy bot less CPU than a third of its wall time, and the cap
    would end it first: the sleeper's test)."""
    monkeypatch.setattr("adjacency.league.play.server_sides.ceiling", lambda left: 50.0)
    league = new_league(folder, base=2.0)
    token = add_member(league, "team1")
    with served(league) as (url, _):
        assert upload(url, zipped(FAILING.replace("FAIL", BUSY)), token).status == 201
        accepted(url, token)
        game = first_game_as_o(league)
        assert game.result == "x" and game.termination == "time forfeit", game
        said = re.fullmatch(
            r"team1 did not move within its clock: it was stopped at ([\d.]+) s of CPU \(what "
            r"it computed in this move\), in ([\d.]+) s of "
            r"wall time of its own; its clock had ([\d.]+) s",
            game.detail or "",
        )
        assert said is not None, game.detail
        cpu, wall, clock = (float(n) for n in said.groups())
        assert clock <= 2.0 and clock < cpu and wall > 0, game.detail  # past what it had
        assert game.o_time >= 2.0  # charged the CPU it used, past its 2 s
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
