"""No team holds the builder (the real league server, its builder, the sandbox): while
one team's versions take the longest a build may (a bot that uses its whole time on
every checked position), another team's upload is built beside it, not after it, and
the first team's newer upload replaces its own version still waiting.

The claim is an order of events, never a wall-clock bound: the other team's version
leaves the queue while the hog's build running then (at least 12 s of sleep in its check) is
still building, and no other version of the hog's is building beside it."""

from __future__ import annotations

from pathlib import Path

from hosted_helpers import decided, files_zip, first_empty_sleeper
from league_helpers import add_member, make_league, request, thread_server, upload, wait_until

HOG_PAUSE = 3.0
"""A hog's move in the check (5 s a move on this league): 3 s of sleep, within its own
time, on each of the four positions: some 13 s a build, accepted in the end."""


def _zip(pause: float, tag: str) -> bytes:
    return files_zip({"engine.py": first_empty_sleeper("fairness", pause) + f"# {tag}\n"})


def test_another_teams_upload_is_built_beside_a_hogs_build(folder: Path) -> None:
    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=60.0, increment=0.0)
    hog, victim = add_member(db, "hog"), add_member(db, "victim")
    with thread_server(db, house_games=False, builds=True, hosted_games=False, build_jobs=2) as url:
        for tag in ("one", "two", "three"):
            assert upload(url, _zip(HOG_PAUSE, tag), hog).status == 201

        def statuses(token: str) -> dict[int, str]:
            listed = request(url + "/api/league/submissions", token=token).body["submissions"]
            return {v["version"]: v["status"] for v in listed}

        def hog_building() -> int | None:
            return next((v for v, s in statuses(hog).items() if s == "building"), None)

        building = wait_until(hog_building, 20, "the hog's first build to start")
        assert upload(url, _zip(0.0, "victim"), victim).status == 201
        wait_until(lambda: statuses(victim)[1] != "received", 30, "the victim's build to start")
        now = statuses(hog)
        assert now[building] == "building", now  # the victim did not wait for the hog
        assert list(now.values()).count("building") == 1, now  # never two of one team
        verdict = decided(url, victim)
        assert verdict["status"] == "accepted", verdict["detail"]
        versions = request(url + "/api/league/submissions", token=hog).body["submissions"]
        second = next(v for v in versions if v["version"] == 2)
        assert second["status"] == "refused"
        assert second["detail"] == "replaced by version 3, uploaded before it was built"
        decided(url, hog, version=3)  # the hog's builds end with the test's server
