"""A team learns why it lost, through the real league server: each version's games with
their results and, where the team's own program failed, the reason whole (the exception
with the team's file and line), to the team alone; a refused version is built again on
request, an accepted one is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.cli import main
from hosted_helpers import FAILING, accepted, decided, finished_games, new_league, served, zipped
from league_helpers import add_member, request, upload, wait_until
from sandbox_helpers import reachable_folder

pytestmark = [pytest.mark.jvm]

CRASH = 'throw new IllegalStateException("no square left to think about");'


def test_a_teams_version_lists_its_games_with_its_own_failures_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adjacency.sandbox import check

    check()
    with reachable_folder("adjacency-team-games-") as folder:
        league = new_league(folder)
        token = add_member(league, "garuda")
        other = add_member(league, "elang")
        with served(league) as (url, _):
            assert upload(url, zipped(FAILING.replace("FAIL", CRASH)), token).status == 201
            accepted(url, token)
            finished = finished_games(league, "garuda", 2)
            answer = request(url + "/api/league/submissions/1/games", token=token)
            assert answer.status == 200, answer
            listed = {g["id"]: g for g in answer.body}
            assert {g.id for g in finished} <= set(listed)
            as_o = [g for g in finished if g.o_id != g.x_id and listed[g.id]["o"] == "garuda"]
            assert as_o, "no game of garuda as O finished"
            lost = listed[as_o[0].id]
            assert lost["result"] == "x" and lost["termination"] != "normal", lost
            assert "IllegalStateException" in lost["detail"] and "Bot.java:" in lost["detail"]
            public = request(url + "/api/league/games?member=garuda").body
            told = next(g for g in public if g["id"] == lost["id"])
            assert "Bot.java:" not in told["detail"]  # the program's output is the team's
            assert request(url + "/api/league/submissions/1/games", token=other).status == 404
            again = request(url + "/api/league/submissions/1/build", "POST", token=token)
            assert again.status == 409 and "accepted" in again.body["detail"]
            (tmp_path / "token").write_text(token)
            capsys.readouterr()
            assert (
                main(["league", "submit", url, "--list", "--token-file", str(tmp_path / "token")])
                == 0
            )
            out = capsys.readouterr().out
            assert f"game {lost['id']} as O vs greedy: lost" in out
            assert "IllegalStateException" in out


def test_a_refused_version_is_built_again_on_request(tmp_path: Path) -> None:
    from adjacency.sandbox import check

    check()
    with reachable_folder("adjacency-build-again-") as folder:
        league = new_league(folder)
        token = add_member(league, "garuda")
        with served(league, hosted_games=False) as (url, _):
            broken = zipped("public class Bot { public int[] move( }\n")
            assert upload(url, broken, token).status == 201
            first = decided(url, token, 1)
            assert first["status"] == "refused" and "Bot.java" in first["detail"]
            again = request(url + "/api/league/submissions/1/build", "POST", token=token)
            assert again.status == 200, again
            assert again.body["submission"]["status"] == "received"
            assert again.body["submission"]["detail"] == ""

            def built_again() -> dict[str, object] | None:
                version = decided(url, token, 1)
                return version if version["decided"] and version["detail"] else None

            second = wait_until(built_again, 55, "the second verdict")
            assert second["status"] == "refused" and second["detail"] == first["detail"]
            assert (
                request(url + "/api/league/submissions/9/build", "POST", token=token).status == 409
            )
