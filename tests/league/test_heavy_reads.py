"""Heavy reads through the real server: a version's code view is read from the digest
kept for it (made once, never on each request), a team's reads of its own code have a
rate of their own, and they run in a pool of their own threads, never the one the
league's own work uses."""

from __future__ import annotations

import concurrent.futures
import json
import sqlite3
import zlib
from pathlib import Path

from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, keep, make_league, project, request, thread_server

BOT = "class Bot {\n  int depth = 2;\n}\n"


def test_the_code_view_is_read_from_the_digest_kept_for_the_version(
    league: tuple[str, Path],
) -> None:
    url, db = league
    token = add_member(db, "team1")
    keep(db, "team1", project({"src/Bot.java": BOT}))
    first = request(url + "/api/league/submissions/1/code", token=token)
    assert first.status == 200 and first.body["files"][0]["path"] == "src/Bot.java"
    with LeagueStore(db) as store:  # made once, at the first ask for a version of before
        submission = store.submissions.versions(store.members.member_named("team1").id)[0]
        stored = store.digests.code(submission.id)
    assert stored is not None
    head, files = zlib.decompress(stored).decode().split("\n")  # two lines of JSON
    shown = json.loads(files)
    shown[0]["lines"][1] = "kept, not made again"
    changed = head + "\n" + json.dumps(shown)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE digests SET code = ? WHERE submission_id = ?",
            (zlib.compress(changed.encode()), submission.id),
        )
    again = request(url + "/api/league/admin/members/team1/versions/1/code", token=ADMIN)
    assert again.body["files"][0]["lines"][1] == "kept, not made again"


def test_a_teams_reads_of_its_own_code_have_their_own_rate(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    one, two = add_member(db, "team1"), add_member(db, "team2")
    for team in ("team1", "team2"):
        keep(db, team, project({"src/Bot.java": BOT}))
    limits = LeagueLimits(code_reads_per_minute=1.0, code_burst=3)
    with thread_server(db, house_games=False, limits=limits) as url:
        code = url + "/api/league/submissions/1/code"
        # the view made once (the teacher's read, on its own allowance), then kept: the
        # team's six reads at once are served from it or refused by their rate, none of
        # them finding it still being made
        teacher = url + "/api/league/admin/members/team1/versions/1/code"
        assert request(teacher, token=ADMIN).status == 200
        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            statuses = sorted(pool.map(lambda _: request(code, token=one).status, range(6)))
        assert statuses == [200, 200, 200, 429, 429, 429]
        refused = request(url + "/api/league/submissions/diff?a=1&b=1", token=one)
        assert refused.status == 429 and "team1" in refused.body["detail"]
        assert request(code, token=two).status == 200  # another team's allowance is its own
        assert request(url + "/api/league/standings").status == 200  # public reads go on
        threads = request(url + "/api/league/admin/members/team2/versions/1/code", token=ADMIN)
        assert threads.status == 200  # the teacher's reads are not the team's rate
