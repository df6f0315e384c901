"""Teams' code through the real league server: a version's kept files highlighted, a diff
of two versions, a version's zip as uploaded, an event's similarity report; the teacher
reads every team's, a team its own only, and nobody else anything."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from adjacency.league.league_file import LeagueStore
from code_projects import GREEDY, MINIMAX, SKELETON
from league_helpers import ADMIN, add_member, keep, project, request
from similarity_class import PLANTED, STATE, course_class, template


def fetch(url: str, token: str | None) -> tuple[int, bytes]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


OLD = 'class Bot {\n  int depth = 2;\n  String s = "<b>";\n}\n'
NEW = 'class Bot {\n  int depth = 4;\n  String s = "<b>";\n}\n'


def test_the_teacher_reads_a_version_highlighted_a_diff_and_the_zip(
    league: tuple[str, Path],
) -> None:
    url, db = league
    add_member(db, "team1")
    first = project({"src/Bot.java": OLD}, {"lib/javafx.jar": b"\x00jar"})
    keep(db, "team1", first)
    keep(db, "team1", project({"src/Bot.java": NEW, "adjacency-bot.json": '{"language":"java"}'}))
    api = url + "/api/league/admin/members/team1"
    code = request(api + "/versions/1/code", token=ADMIN)
    assert code.status == 200, code
    assert [f["path"] for f in code.body["files"]] == ["src/Bot.java"]
    assert code.body["left_out"] == ["lib/javafx.jar"]  # named, never read
    lines = code.body["files"][0]["lines"]
    assert len(lines) == 4
    assert '<span class="k' in lines[0]  # coloured by the lexer
    assert "&lt;b&gt;" in lines[2] and "<b>" not in lines[2]  # the team's text escaped
    changed = request(api + "/diff?a=1&b=2", token=ADMIN)
    assert changed.status == 200, changed
    files = {f["path"]: f for f in changed.body["files"]}
    assert files["adjacency-bot.json"]["status"] == "added"
    bot = files["src/Bot.java"]
    assert bot["status"] == "changed"
    ops = [(line["op"], line["a"], line["b"]) for line in bot["hunks"][0]]
    assert ("-", 2, None) in ops and ("+", None, 2) in ops and (" ", 1, 1) in ops
    assert "4" in bot["hunks"][0][ops.index(("+", None, 2))]["html"]
    status, data = fetch(api + "/versions/1/zip", ADMIN)
    assert status == 200 and data == first  # byte for byte as uploaded
    assert request(api + "/versions/3/code", token=ADMIN).status == 404
    assert (
        request(url + "/api/league/admin/members/nobody/versions/1/code", token=ADMIN).status == 404
    )


def test_a_team_reads_its_own_code_and_never_another_teams(league: tuple[str, Path]) -> None:
    url, db = league
    one, two = add_member(db, "team1"), add_member(db, "team2")
    keep(db, "team1", project({"One.java": "class One { int secretOfTeamOne; }\n"}))
    keep(db, "team2", project({"Two.java": "class Two { }\n"}))
    own = request(url + "/api/league/submissions/1/code", token=two)
    assert own.status == 200
    assert [f["path"] for f in own.body["files"]] == ["Two.java"]
    assert "secretOfTeamOne" not in str(own.body)
    for path in ("/versions/1/code", "/versions/1/zip", "/diff?a=1&b=1"):
        for token, status in ((two, 403), (None, 401), ("not-a-token", 401)):
            answer = fetch(url + "/api/league/admin/members/team1" + path, token)
            assert answer[0] == status, (path, token, answer)
            assert b"secretOfTeamOne" not in answer[1]
    assert fetch(url + "/api/league/submissions/1/zip", one)[1].startswith(b"PK")
    assert fetch(url + "/api/league/submissions/1/code", None)[0] == 401
    assert fetch(url + "/api/league/submissions/1/code", ADMIN)[0] == 403  # the team's own route
    assert request(url + "/api/league/submissions/2/code", token=two).status == 404


def upload(url: str, data: bytes, token: str | None = ADMIN, method: str = "PUT") -> int:
    """Send the zip ``data`` as a body; the answer's status."""
    headers = {"Content-Type": "application/zip"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    asked = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(asked, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_the_planted_copies_are_the_reports_top_file_pairs(league: tuple[str, Path]) -> None:
    """A class of course-shaped projects through the real server: the teacher uploads the
    course's skeleton once and last year's project of alpha; the report lists the two
    planted copies as their pairs' top file pairs, and alpha's copy of last year."""
    url, db = league
    teams = course_class()
    for team, files in teams.items():
        add_member(db, team)
        keep(db, team, project(files))
    add_member(db, "late")
    keep(db, "late", project({"D.java": "class D {}\n"}), accepted=False)
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, [*teams, "late"])
    admin = url + "/api/league/admin/similarity"
    assert upload(admin + "/template", project(template())) == 204
    assert upload(admin + "/template", project(template()), token=None) == 401
    earlier = project(teams["alpha"])
    assert upload(admin + "/corpus?name=2025/alpha", earlier, method="POST") == 204
    assert upload(admin + "/corpus?name=2025/alpha", earlier, method="POST") == 400  # kept
    assert upload(admin + "/corpus?name=..%0a", earlier, method="POST") == 422
    listed = request(admin + "/corpus", token=ADMIN).body
    assert listed == [
        {"name": "template", "kind": "template"},
        {"name": "2025/alpha", "kind": "earlier"},
    ]
    api = url + "/api/league/admin/events/cup/similarity"
    report = request(api, token=ADMIN)
    assert report.status == 200, report
    body = report.body
    assert body["template"] == "league" and body["without_code"] == ["late"]
    assert body["corpus"] == ["2025/alpha"]
    pairs = {(p["a"], p["b"]): p for p in body["pairs"]}
    assert set(pairs) == {*PLANTED, ("alpha", "2025/alpha"), ("delta", "2025/alpha")}
    minimax = pairs["alpha", "delta"]["files"][0]
    assert (minimax["a_file"], minimax["b_file"]) == (
        "src/adjacency/MinimaxBot.java",
        "src/ai/SmartAgent.java",
    )
    state = pairs["epsilon", "zeta"]["files"][0]
    assert (state["a_file"], state["b_file"]) == (
        "src/engine/GameState.java",
        "src/core/GameState.java",
    )
    assert state["passages"][0]["a_text"] in STATE
    assert (
        pairs["delta", "2025/alpha"]["corpus"] and pairs["delta", "2025/alpha"]["b_version"] is None
    )
    assert body["below"] == len(teams) * (len(teams) - 1) // 2 + len(teams) - len(pairs)
    # the prints were made once and kept: the report reads them, never the zips' texts
    # of pairs it does not list
    with LeagueStore(db) as store:
        kept = {store.digests.prints(s.id) is not None for t in teams for s in
                store.submissions.versions(store.members.member_named(t).id)}  # fmt: skip
    assert kept == {True}
    assert (
        request(
            url + "/api/league/admin/similarity/corpus/2025/alpha", "DELETE", token=ADMIN
        ).status
        == 204
    )
    again = request(api, token=ADMIN).body
    assert again["corpus"] == [] and {(p["a"], p["b"]) for p in again["pairs"]} == PLANTED
    assert request(api, token=add_member(db, "team9")).status == 403
    assert request(url + "/api/league/admin/events/nope/similarity", token=ADMIN).status == 404
    assert request(api + "?threshold=2", token=ADMIN).status == 422


def test_a_team_may_template_marks_the_skeleton(league: tuple[str, Path]) -> None:
    """``?template=MEMBER``: a member's latest upload is the skeleton instead."""
    url, db = league
    for team in ("alpha", "gamma", "template"):
        add_member(db, team)
    keep(db, "alpha", project({"M.java": MINIMAX, "Board.java": SKELETON}))
    keep(db, "gamma", project({"G.java": GREEDY, "Board.java": SKELETON}))
    keep(db, "template", project({"Board.java": SKELETON}))
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["alpha", "gamma"])
    api = url + "/api/league/admin/events/cup/similarity"
    plain = request(api, token=ADMIN).body  # two teams: the board is not "most" of them
    assert [(p["a"], p["b"]) for p in plain["pairs"]] == [("alpha", "gamma")]
    assert plain["pairs"][0]["files"][0]["a_file"] == "Board.java"
    marked = request(api + "?template=template", token=ADMIN).body
    assert marked["template"] == "template" and marked["pairs"] == []
