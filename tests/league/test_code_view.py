"""Teams' code through the real league server: a version's kept files highlighted, a diff
of two versions, a version's zip as uploaded, an event's similarity report; the teacher
reads every team's, a team its own only, and nobody else anything."""

from __future__ import annotations

import hashlib
import urllib.request
from pathlib import Path

from adjacency.league.grading.version_digest import make
from adjacency.league.league_file import LeagueStore
from code_projects import GREEDY, MINIMAX, SKELETON
from league_helpers import ADMIN, add_member, keep, project, request, upload
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
    admin = "/api/league/admin/similarity"
    assert upload(url, project(template()), ADMIN, admin + "/template").status == 201
    assert upload(url, project(template()), None, admin + "/template").status == 401
    earlier = project(teams["alpha"])
    assert upload(url, earlier, ADMIN, admin + "/corpus?name=2025/alpha").status == 201
    assert upload(url, earlier, ADMIN, admin + "/corpus?name=2025/alpha").status == 400  # kept
    assert upload(url, earlier, ADMIN, admin + "/corpus?name=..%0a").status == 422
    listed = request(url + admin + "/corpus", token=ADMIN).body
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
    dropped = request(url + "/api/league/admin/similarity/corpus/2025/alpha", "DELETE", token=ADMIN)
    assert dropped.status == 200 and dropped.body == {"name": "2025/alpha", "dropped": True}
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


def test_the_code_view_shows_every_kept_file_and_names_what_the_upload_left_out(
    league: tuple[str, Path],
) -> None:
    """An upload through the server of a course project with its FXML, CSS, properties,
    a picture, and the JavaFX SDK's jars and DLLs: the view shows every kept text file,
    names the picture, and counts and sizes what was left out, by kind."""
    url, db = league
    add_member(db, "team1")
    sdk = {
        "lib/javafx-sdk/lib/javafx.controls.jar": b"\x00" * 3_000_000,
        "lib/javafx-sdk/lib/javafx.graphics.jar": b"\x00" * 2_000_000,
        "lib/javafx-sdk/bin/glass.dll": b"\x00" * 500_000,
        "doc/report.pdf": b"%PDF" + b"\x00" * 1000,
    }
    files = {
        "src/Bot.java": OLD,
        "src/Main.java": 'class Main { Object s = getClass().getResource("style.css"); }\n',
        "src/InputFrame.fxml": "<?xml version='1.0'?>\n<AnchorPane/>\n",
        "src/style.css": ".root { -fx-background-image: url('board.png'); }\n",
        "src/app.properties": "rounds=8\n",
    }
    picture = {"src/board.png": b"\x89PNG\r\n\x1a\n picture"}
    data = project(files, {**sdk, **picture})
    sent = upload(url, data, ADMIN, "/api/league/admin/members/team1/submissions")
    assert sent.status == 201, sent
    with LeagueStore(db) as store:
        submission = store.submissions.versions(store.members.member_named("team1").id)[0]
        store.digests.keep(submission.id, *make(store.submissions.data(submission.id)))
        store.submissions.decide(submission.id, True, "")  # as the builder accepts it
    code = request(url + "/api/league/admin/members/team1/versions/1/code", token=ADMIN).body
    assert [f["path"] for f in code["files"]] == sorted(files)  # FXML, CSS, properties too
    assert code["pictures"] == ["src/board.png"]
    assert set(code["left_out"]) == set(sdk)
    kinds = {k["kind"]: (k["count"], k["bytes"]) for k in code["left_out_kinds"]}
    assert kinds == {
        "jar": (2, 5_000_000),
        "native library": (1, 500_000),
        "other": (1, 1004),
    }
    # the kept zip is the upload repacked: both hashes listed, the download the kept one
    (listed,) = request(url + "/api/league/admin/members/team1/submissions", token=ADMIN).body[
        "submissions"
    ]
    kept = fetch(url + "/api/league/admin/members/team1/versions/1/zip", ADMIN)[1]
    assert listed["sha256"] == hashlib.sha256(kept).hexdigest() and listed["size"] == len(kept)
    assert listed["uploaded_sha256"] == hashlib.sha256(data).hexdigest() != listed["sha256"]
    assert listed["uploaded_size"] == len(data)
    # the same zip again: the same bytes; another zip keeping the same files: not
    api = "/api/league/admin/members/team1/submissions"
    again = upload(url, data, ADMIN, api)
    assert again.status == 201 and not again.body["new"] and again.body["same_bytes"]
    repacked = project(files, {**sdk, **picture, "lib/javafx-sdk/lib/extra.jar": b"\x00" * 10})
    other = upload(url, repacked, ADMIN, api)
    assert not other.body["new"] and other.body["same_bytes"] is False
    assert other.body["submission"]["version"] == 1


def test_a_diff_names_every_kept_file_fxml_css_and_pictures(league: tuple[str, Path]) -> None:
    """Between two versions of a JavaFX course project the FXML, the CSS and a picture
    changed beside the Java: the diff shows the text files' lines, names the picture,
    and names every other kept file added, removed or unchanged."""
    url, db = league
    add_member(db, "team1")
    main = 'class Main { Object s = getClass().getResource("style.css"); }\n'
    before = {
        "src/Bot.java": OLD,
        "src/Main.java": main,
        "src/InputFrame.fxml": "<?xml version='1.0'?>\n<AnchorPane>\n</AnchorPane>\n",
        "src/style.css": ".root { -fx-background-image: url('board.png'); }\n",
        "src/old.properties": "rounds=8\n",
    }
    after = {
        **{k: v for k, v in before.items() if k != "src/old.properties"},
        "src/InputFrame.fxml": "<?xml version='1.0'?>\n<AnchorPane>\n  <Button/>\n</AnchorPane>\n",
        "src/style.css": ".root { -fx-background-image: url('board.png'); -fx-padding: 4; }\n",
        "src/new.properties": "rounds=9\n",
    }
    keep(db, "team1", project(before, {"src/board.png": b"\x89PNG\r\n\x1a\n one"}))
    keep(db, "team1", project(after, {"src/board.png": b"\x89PNG\r\n\x1a\n two"}))
    answer = request(url + "/api/league/admin/members/team1/diff?a=1&b=2", token=ADMIN)
    assert answer.status == 200, answer
    files = {f["path"]: f for f in answer.body["files"]}
    assert {path: f["status"] for path, f in files.items()} == {
        "src/Bot.java": "same",
        "src/Main.java": "same",
        "src/InputFrame.fxml": "changed",
        "src/style.css": "changed",
        "src/board.png": "changed",
        "src/old.properties": "removed",
        "src/new.properties": "added",
    }
    fxml = [(line["op"], line["b"]) for line in files["src/InputFrame.fxml"]["hunks"][0]]
    assert ("+", 3) in fxml
    css = files["src/style.css"]["hunks"][0]
    assert [line["op"] for line in css] == ["-", "+"] and "padding" in css[1]["html"]
    assert files["src/board.png"]["picture"] and files["src/board.png"]["hunks"] == []
    assert not files["src/style.css"]["picture"]
