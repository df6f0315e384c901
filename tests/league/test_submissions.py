"""A team's submitted code through the real league server: every upload packed as the
team's machine packs it (its kept files alone), content-hashed and numbered; who may
upload; the size limit before the body is read whole; the events' upload deadlines; and
the league file of the version before."""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import sqlite3
import time
import zipfile
from pathlib import Path
from typing import Any

from adjacency.client.wire import MAX_UPLOAD
from adjacency.hosting.packing import pack
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.schema import STORE_SCHEMA, SUBMISSIONS
from league_helpers import ADMIN, Response, add_member, join, request, upload


def project_zip(marker: str) -> bytes:
    """A small zip of a Java project, its bytes told apart by ``marker``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot/src/Bot.java", f"public class Bot {{ /* {marker} */ }}\n")
    return buffer.getvalue()


def packed(data: bytes, tmp: Path) -> bytes:
    """What the league keeps of the uploaded zip ``data``: its kept files, packed."""
    path = tmp / "given.zip"
    path.write_bytes(data)
    return pack(path).data


def declare_upload(url: str, size: int, token: str) -> Response:
    """Headers declaring an upload of ``size`` bytes, and no body: the server's answer
    (it must answer without waiting for a body it will refuse)."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.putrequest("POST", "/api/league/submissions")
    connection.putheader("Content-Type", "application/zip")
    connection.putheader("Content-Length", str(size))
    connection.putheader("Authorization", f"Bearer {token}")
    connection.endheaders()
    answer = connection.getresponse()
    body = json.loads(answer.read())
    connection.close()
    return Response(answer.status, body)


def versions(db: Path, name: str) -> list[Any]:
    with LeagueStore(db) as store:
        member = store.members.member_named(name)
        assert member is not None
        return store.submissions.versions(member.id)


def test_every_upload_is_kept_numbered_and_hashed_and_the_same_bytes_are_that_version(
    league: tuple[str, Path], tmp_path: Path
) -> None:
    url, db = league
    token = add_member(db, "team1")
    first, second = project_zip("one"), project_zip("two")
    kept_first, kept_second = packed(first, tmp_path), packed(second, tmp_path)
    answer = upload(url, first, token, filename="../../etc/passwd team1.zip")
    assert answer.status == 201, answer
    assert answer.body["new"] is True
    kept = answer.body["submission"]
    assert (kept["version"], kept["status"], kept["size"]) == (1, "received", len(kept_first))
    assert kept["sha256"] == hashlib.sha256(kept_first).hexdigest()
    assert "/" not in kept["filename"]  # a plain name is kept, never a path
    again = upload(url, first, token)
    assert again.status == 201 and again.body["new"] is False
    assert again.body["submission"]["version"] == 1
    assert upload(url, second, token).body["submission"]["version"] == 2
    listed = request(url + "/api/league/submissions", token=token)
    assert listed.status == 200
    assert [s["version"] for s in listed.body["submissions"]] == [2, 1]
    with LeagueStore(db) as store:
        stored = {s.version: store.submissions.data(s.id) for s in versions(db, "team1")}
    assert stored == {1: kept_first, 2: kept_second}  # the kept files, packed


def test_who_may_upload_and_what_is_refused_leaves_nothing_stored(
    league: tuple[str, Path],
) -> None:
    url, db = league
    token = add_member(db, "team1")
    add_member(db, "house1", "house", "greedy")
    person = join(url, "Ana")
    data = project_zip("x")
    assert upload(url, data, None).status == 401
    assert upload(url, data, "adjl_not-a-token").status == 401
    assert upload(url, data, person).status == 403  # a person's secret
    assert upload(url, data, ADMIN).status == 403  # the admin uses the team's admin route
    refused = upload(url, data, token, kind="application/json")
    assert refused.status == 400 and "application/zip" in refused.body["detail"]
    assert upload(url, b"", token).status == 400
    too_big = declare_upload(url, MAX_UPLOAD + 1, token)
    assert too_big.status == 413, too_big
    assert f"at most {MAX_UPLOAD}" in too_big.body["detail"]
    house = upload(url, data, ADMIN, path="/api/league/admin/members/house1/submissions")
    assert house.status == 400 and "house bot" in house.body["detail"]
    assert versions(db, "team1") == [] and versions(db, "house1") == []
    # Every other route keeps its small body limit.
    assert request(url + "/api/league/people", "POST", {"name": "x" * 9000}).status == 413


def test_the_teacher_uploads_for_a_team_and_lists_its_versions(
    league: tuple[str, Path],
) -> None:
    url, db = league
    token = add_member(db, "team1")
    path = "/api/league/admin/members/team1/submissions"
    assert upload(url, project_zip("t"), token, path=path).status == 403  # a team's token
    answer = upload(url, project_zip("t"), ADMIN, path=path)
    assert answer.status == 201 and answer.body["submission"]["version"] == 1
    listed = request(url + path, token=ADMIN)
    assert listed.status == 200 and [s["version"] for s in listed.body["submissions"]] == [1]
    assert request(url + path, token=token).status == 403
    assert request(url + "/api/league/admin/members/nobody/submissions", token=ADMIN).status == 404


def test_an_events_deadline_closes_uploads_of_its_teams_until_it_finishes(
    league: tuple[str, Path],
) -> None:
    url, db = league
    entered, other = add_member(db, "team1"), add_member(db, "team2")
    add_member(db, "team3")
    with LeagueStore(db) as store:
        store.events.create("final", "round-robin", None, ["team1", "team3"])
        deadline = time.time() - 60
        store.submissions.set_deadline("final", deadline)
    closed = upload(url, project_zip("late"), entered)
    assert closed.status == 409, closed
    assert "final" in closed.body["detail"] and "deadline" in closed.body["detail"]
    said = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline))  # its day, not today's
    assert said in closed.body["detail"], closed.body["detail"]
    assert versions(db, "team1") == []
    assert upload(url, project_zip("free"), other).status == 201  # not in the event
    with LeagueStore(db) as store:
        store.submissions.set_deadline("final", time.time() + 3600)
    assert upload(url, project_zip("early"), entered).status == 201  # before the deadline


def test_the_teacher_sets_and_clears_an_events_deadline_through_the_admin_route(
    league: tuple[str, Path],
) -> None:
    url, db = league
    entered = add_member(db, "team1")
    add_member(db, "team2")
    with LeagueStore(db) as store:
        store.events.create("final", "round-robin", None, ["team1", "team2"])
    path = url + "/api/league/admin/events/final/deadline"
    past = time.time() - 60
    assert request(path, "PUT", {"deadline": past}).status == 401  # no token
    assert request(path, "PUT", {"deadline": past}, token=entered).status == 403  # a team's
    for bad in ({"deadline": -1}, {"deadline": "soon"}, {"deadline": 2.0**40}, {}):
        assert request(path, "PUT", bad, token=ADMIN).status == 422, bad
    missing = request(url + "/api/league/admin/events/nothing/deadline", "PUT", {"deadline": 1.0},
                      token=ADMIN)  # fmt: skip
    assert missing.status == 404
    with LeagueStore(db) as store:  # nothing refused above changed anything
        assert store.submissions.deadlines() == {}
    done = request(path, "PUT", {"deadline": past}, token=ADMIN)
    assert done.status == 200 and done.body == {"name": "final", "deadline": past}
    overview = request(url + "/api/league/admin/overview", token=ADMIN)
    [event] = overview.body["events"]
    assert event["deadline"] == past
    closed = upload(url, project_zip("late"), entered)
    assert closed.status == 409 and "closed at its deadline" in closed.body["detail"]
    cleared = request(path, "PUT", {"deadline": None}, token=ADMIN)
    assert cleared.status == 200 and cleared.body["deadline"] is None
    assert (
        request(url + "/api/league/admin/overview", token=ADMIN).body["events"][0]["deadline"]
        is None
    )
    assert upload(url, project_zip("late"), entered).status == 201
    with LeagueStore(db) as store, store.submissions.db.transaction() as sql:  # as it ends
        sql.execute("UPDATE events SET status = 'finished' WHERE name = 'final'")
    finished = request(path, "PUT", {"deadline": past}, token=ADMIN)
    assert finished.status == 400 and "has finished" in finished.body["detail"]


def test_an_event_plays_the_last_version_accepted_before_its_deadline(tmp_path: Path) -> None:
    from league_helpers import make_league

    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "team1")
    with LeagueStore(db) as store:
        team = store.members.member_named("team1")
        assert team is not None
        repo = store.submissions
        one, _ = repo.add(team.id, project_zip("1"), "a.zip", now=100.0)
        assert repo.playing(team.id) is None  # nothing accepted yet
        claimed = repo.claim()
        assert claimed is not None and (claimed.id, claimed.status) == (one.id, "building")
        two, _ = repo.add(team.id, project_zip("2"), "b.zip", now=200.0)
        assert repo.claim() is None  # never two builds of one team at once
        repo.decide(one.id, True, "built")
        assert repo.claim() is not None and repo.claim() is None
        repo.decide(two.id, False, "Bot.java:3: error: ';' expected")
        three, _ = repo.add(team.id, project_zip("3"), "c.zip", now=300.0)
        assert repo.claim() is not None
        repo.decide(three.id, True, "built")
        playing = repo.playing(team.id)
        assert playing is not None and playing.version == 3
        before = repo.playing(team.id, deadline=250.0)
        assert before is not None and before.version == 1  # 2 was refused, 3 came after
        assert repo.playing(team.id, deadline=50.0) is None


def test_a_teams_newer_upload_replaces_its_version_still_waiting(tmp_path: Path) -> None:
    from league_helpers import make_league

    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "team1")
    add_member(db, "team2")
    with LeagueStore(db) as store:
        one_team, other_team = (store.members.member_named(n) for n in ("team1", "team2"))
        assert one_team is not None and other_team is not None
        repo = store.submissions
        first, _ = repo.add(one_team.id, project_zip("1"), "a.zip")
        other, _ = repo.add(other_team.id, project_zip("x"), "x.zip")
        second, _ = repo.add(one_team.id, project_zip("2"), "b.zip")
        replaced = repo.get(first.id)
        assert (replaced.status, replaced.detail) == (
            "refused",
            "replaced by version 2, uploaded before it was built",
        )
        claimed = [repo.claim(), repo.claim()]  # in turn: the other team's first
        assert [c.id for c in claimed if c is not None] == [other.id, second.id]


def test_a_build_a_stopped_server_left_is_handed_back(tmp_path: Path) -> None:
    from league_helpers import make_league

    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "team1")
    with LeagueStore(db) as store:
        team = store.members.member_named("team1")
        assert team is not None
        added, _ = store.submissions.add(team.id, project_zip("1"), "a.zip")
        assert store.submissions.claim() is not None
    with LeagueStore(db) as store:  # the next start
        assert store.submissions.requeue() == 1
        claimed = store.submissions.claim()
        assert claimed is not None and claimed.id == added.id


def test_a_league_file_of_the_version_before_opens_with_no_submissions(tmp_path: Path) -> None:
    """A file as the version before submitted code wrote it (no ``submissions`` table, no
    deadline or version columns) opens, is upgraded, and takes uploads."""
    from league_helpers import make_league

    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "team1")
    step = next(n for n, s in enumerate(STORE_SCHEMA.steps) if s.sql == SUBMISSIONS)
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE submissions")
        for table, column, _ in STORE_SCHEMA.steps[step].columns:
            raw.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        raw.execute(f"PRAGMA user_version = {step}")
    raw.close()
    with LeagueStore(db) as store:
        team = store.members.member_named("team1")
        assert team is not None
        assert store.submissions.versions(team.id) == []
        added, new = store.submissions.add(team.id, project_zip("1"), "a.zip")
        assert new and added.version == 1
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA.version
    raw.close()
