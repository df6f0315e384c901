"""Teams' code through the real league server: a version's kept files highlighted, a diff
of two versions, a version's zip as uploaded, an event's similarity report; the teacher
reads every team's, a team its own only, and nobody else anything."""

from __future__ import annotations

import io
import urllib.request
import zipfile
from pathlib import Path

from adjacency.league.league_file import LeagueStore
from code_projects import GREEDY, MINIMAX, SKELETON, disguised
from league_helpers import ADMIN, add_member, request


def project(files: dict[str, str], extra: dict[str, bytes] | None = None) -> bytes:
    """A zip of ``files`` (and ``extra`` entries, never read by the server)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def keep(db: Path, team: str, data: bytes, accepted: bool = True) -> int:
    """Store ``data`` as ``team``'s next version, decided; its version number."""
    with LeagueStore(db) as store:
        member = store.members.member_named(team)
        submission, _ = store.submissions.add(member.id, data, "team.zip")
        store.submissions.decide(submission.id, accepted, "" if accepted else "no bot")
    return submission.version


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


def test_an_events_similarity_report_flags_the_disguised_copy(league: tuple[str, Path]) -> None:
    url, db = league
    for team in ("alpha", "beta", "gamma", "delta", "template"):
        add_member(db, team)
    keep(db, "alpha", project({"M.java": MINIMAX, "Board.java": SKELETON}))
    keep(db, "beta", project({"Agent.java": disguised(MINIMAX)}))
    keep(db, "gamma", project({"G.java": GREEDY, "Board.java": SKELETON}))
    keep(db, "delta", project({"D.java": "class D {}\n"}), accepted=False)
    keep(db, "template", project({"Board.java": SKELETON}))
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["alpha", "beta", "gamma", "delta"])
    api = url + "/api/league/admin/events/cup/similarity"
    report = request(api, token=ADMIN)
    assert report.status == 200, report
    body = report.body
    assert body["teams"] == ["alpha", "beta", "gamma"] and body["without_code"] == ["delta"]
    assert [(p["a"], p["b"]) for p in body["pairs"]] == [("alpha", "beta")]
    pair = body["pairs"][0]
    assert pair["b_share"] > 0.8 and pair["passages"] and pair["a_version"] == 1
    assert body["below"] == 2
    # two teams alike only in the skeleton (two of three teams: not "most") are no pair
    # once the teacher marks it
    strict = request(api + "?threshold=0.05", token=ADMIN).body
    assert ("alpha", "gamma") in [(p["a"], p["b"]) for p in strict["pairs"]]
    marked = request(api + "?threshold=0.05&template=template", token=ADMIN).body
    assert marked["template"] == "template"
    assert ("alpha", "gamma") not in [(p["a"], p["b"]) for p in marked["pairs"]]
    assert request(api, token=add_member(db, "team9")).status == 403
    assert request(url + "/api/league/admin/events/nope/similarity", token=ADMIN).status == 404
    assert request(api + "?threshold=2", token=ADMIN).status == 422
