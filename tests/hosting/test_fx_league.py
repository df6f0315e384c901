"""A course project's own JavaFX program through the real league server (HTTP, its
builder, bubblewrap, ``javac`` against OpenJFX, Xvfb): its Download ZIP, sent by
``adjacency league submit --choose`` with the team's choice of bot in its window, goes to
accepted (its check a short game with each colour) and to rated games against the house
bot that end on the board, every move of its side its chosen bot's own. Every other shape
goes the same way with its form's defaults (``--program``, or unedited), and hostile
programs (a mark on an occupied square, a crash followed by another exception), two
teams of one league built and checked side by side, are refused at their check with the
reason. The manifest the CLI writes is the one a team may put in its zip for the team
page. (How each form is read and played, and each hostile program's check, are
``test_fx_programs.py``'s, through the driver.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from adjacency.cli import main
from adjacency.core import Position
from adjacency.core.record import game_from_text
from adjacency.hosting.fx_kind import DRY_RUN, NO_CHOICE_PLAYS, fx_choices
from adjacency.hosting.fx_recipe import MOVES_FIRST, NO_FIRST
from adjacency.hosting.manifest import ManifestError
from adjacency.hosting.newer_jdk import NEWER_JAVA_ENV
from adjacency.league.builder import build_folder
from adjacency.league.league_file import LeagueStore, StoredGame
from fx_course_projects import (
    CRASHES_TWICE,
    FLOODS,
    FORMS,
    HOSTILE,
    LATE_CRASH,
    NEEDS_JAVA_19,
    SHAPES,
    Shape,
    assert_board_picture,
    bot_move,
    download_zip,
    main_class,
)
from fx_forms import assert_recorded
from hosted_helpers import accepted, decided, served
from league_helpers import ADMIN, add_member, make_league, wait_until
from sandbox_helpers import own_sandboxes

pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("fx-programs")]


def test_a_course_program_goes_from_its_zip_to_rated_games(
    folder: Path, tmp_path: Path, fx_tools: None, capsys: pytest.CaptureFixture[str]
) -> None:
    db = folder / "league.db"
    # A program's window starts a game only from its start: the league's one opening.
    create = ["league", "create", "--db", str(db), "--rows", "8", "--cols", "8"]
    assert main([*create, "--rounds", "4", "--clock", "30+0", "--from-start"]) == 0
    with LeagueStore(db, create=False) as store:
        assert store.meta.settings().openings == (Position.start(8, 8, 4).fen(),)
    add_member(db, "greedy", "house", "greedy")
    token = add_member(db, "team1")
    shape = SHAPES[1]  # one bot-type box: Minimax (the default) or Local Search
    project = download_zip(shape, tmp_path / "p.zip", sdk_bytes=8 << 20)  # over 5 MB
    token_file = tmp_path / "team1.token"
    token_file.write_text(token)
    with served(db) as (url, _):
        command = ["league", "submit", url, str(project), "--token-file", str(token_file)]
        assert main([*command, "--choose", "Bot=Local Search"]) == 0
        assert "version 1 (a new version)" in capsys.readouterr().out
        version = accepted(url, token)
        assert version["detail"].startswith(
            "program game.Main, plays Local Search as O: played 2 rounds with each colour"
        ), version["detail"]
        # Local Search scans from the bottom-right
        rated_games_by_its_bot(db, "team1", from_top=False)
    assert_forms_recorded(db, shape)
    wait_until(lambda: not own_sandboxes(), 20, "every driven program's sandbox to end")


def rated_games_by_its_bot(db: Path, name: str, from_top: bool, turned: bool = True) -> None:
    """``name``'s rated games end on the board, with each colour among them (waited
    for), and every move of its side is its bot's (scanning from the window's top-left,
    or from its bottom-right), on the board as its window draws it (O in the window, else
    where not ``turned``: the league's colour). Its opponent may be the house bot or
    another team's program."""

    def with_each_colour() -> list[StoredGame] | None:
        with LeagueStore(db, create=False) as store:
            member = store.members.member_named(name)
            done = store.games.games(member_id=member.id, status="finished")
        return done if {g.x_id == member.id for g in done} == {True, False} else None

    games = wait_until(with_each_colour, 55, f"rated games of {name} with each colour")
    with LeagueStore(db, create=False) as store:
        team = store.members.member_named(name)
        stored = [store.games.game(g.id) for g in games]
    for game in stored:
        assert game is not None and game.record is not None, name
        assert game.termination == "normal", (name, game.detail)
        colour = "x" if game.x_id == team.id else "o"
        record = game_from_text(game.record)
        position = record.start
        for move in record.moves:
            if position.turn == colour:
                expected = bot_move(position, from_top, half_turn=turned and colour == "x")
                assert move.square == expected, (name, game.record)
            position = position.play(move.square)


def program_league(db: Path, clock: str = "30+0") -> str:
    """An 8x8 league of 2 rounds from the start (30 s a side, or ``clock``) with the
    house bot greedy and one team: the team's token."""
    return teams_league(db, ("team1",), clock)["team1"]


def teams_league(db: Path, teams: tuple[str, ...], clock: str = "30+0") -> dict[str, str]:
    """:func:`program_league` with ``teams``: each team's token by its name."""
    create = ["league", "create", "--db", str(db), "--rows", "8", "--cols", "8"]
    assert main([*create, "--rounds", "2", "--clock", clock, "--from-start"]) == 0
    add_member(db, "greedy", "house", "greedy")
    return {team: add_member(db, team) for team in teams}


def assert_forms_recorded(db: Path, shape: Shape, name: str = "team1") -> None:
    """Every form the league's dry runs of ``shape`` (team ``name``'s) kept is one the
    recordings hold (:func:`fx_forms.assert_recorded`): the unit tests' windows are this
    driver's."""
    with LeagueStore(db, create=False) as store:
        member = store.members.member_named(name).id
    kept = [
        p for p in build_folder(db).glob(f"{member}-*/**/form.json") if p.parent.name == DRY_RUN
    ]
    assert kept, f"no form kept of {name}"
    for path in kept:
        assert_recorded(shape, json.loads(path.read_text(encoding="utf-8")))


def submit_program(
    url: str, project: Path, token: str, tmp_path: Path, asked: bool = True, name: str = "team1"
) -> None:
    """``league submit --program`` (or plain ``league submit`` where not ``asked``) by
    team ``name``: the project played through its window, every choice its form's
    default."""
    token_file = tmp_path / f"{name}.token"
    token_file.write_text(token)
    command = ["league", "submit", url, str(project), "--token-file", str(token_file)]
    assert main([*command, *(["--program"] if asked else [])]) == 0


@pytest.mark.parametrize(
    ("shape", "asked"),
    [(SHAPES[0], True), (SHAPES[2], False), (SHAPES[3], False)],
    ids=lambda v: v.name if isinstance(v, Shape) else ("--program" if v else "unedited"),
)
def test_every_shape_plays_rated_games_with_its_default_choice(
    folder: Path, tmp_path: Path, fx_tools: None, shape: Shape, asked: bool
) -> None:
    """Each other shape of course project (a type per side with a person option, a game
    mode box, a fixed bot; first mover by check box and by combo box; FXML beside the
    sources, in a folder, in a resources root; the bot on the JavaFX thread, from a thread,
    from a timeline), from its Download ZIP to rated games with each colour through the
    real server, with its form's default: its bot is its first bot option (Minimax, from
    the top-left), as O in its window. Asked for with ``--program``, or sent unedited
    with a plain ``league submit``: a league of 8x8 games from the start plays a course
    program through its window unasked."""
    db = folder / "league.db"
    token = program_league(db)
    project = download_zip(shape, tmp_path / f"{shape.name}-main.zip", sdk_bytes=8 << 20)
    with served(db) as (url, _):
        submit_program(url, project, token, tmp_path, asked)
        version = accepted(url, token)
        assert "plays " in version["detail"] and " as O" in version["detail"]
        assert ": played 2 rounds" in version["detail"], version["detail"]
        assert version["detail"].startswith(f"program {main_class(shape)}, plays ")
        rated_games_by_its_bot(db, "team1", from_top=True)
    assert_forms_recorded(db, shape)
    wait_until(lambda: not own_sandboxes(), 20, "every driven program's sandbox to end")


def side_by_side(teams: int) -> dict[str, int]:
    """:func:`hosted_helpers.served`'s options for a league whose ``teams`` uploads are
    built, dry-run and checked at once: a slot of computing sides and a builder's thread
    for each (a two-core machine's default keeps one slot, so they would wait for each
    other)."""
    return {"hosted_jobs": teams, "build_jobs": teams}


def test_a_program_that_floods_its_output_plays_its_games(
    folder: Path, tmp_path: Path, fx_tools: None
) -> None:
    """A program whose bot prints megabytes of stack traces a move (every square it tries)
    is accepted and plays rated games with each colour to their end through the real
    server: its prints are drained, never counted, and never end its game."""
    db = folder / "league.db"
    token = program_league(db)
    project = download_zip(FLOODS, tmp_path / "floods-main.zip", sdk_bytes=1 << 20)
    with served(db) as (url, _):
        submit_program(url, project, token, tmp_path, asked=False)
        version = accepted(url, token)
        assert ": played 2 rounds" in version["detail"], version["detail"]
        rated_games_by_its_bot(db, "team1", from_top=True)  # its form's default bot, Minimax
    wait_until(lambda: not own_sandboxes(), 20, "every driven program's sandbox to end")


def test_a_program_that_needs_java_19_is_refused_saying_which_feature(
    folder: Path, tmp_path: Path, fx_tools: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program written for a later JDK than the server's (an ``ExecutorService`` in
    try-with-resources), on a server without the newer Java, is refused through the real
    server, first saying which file and line needs which Java, then ``javac``'s own
    words."""
    monkeypatch.setenv(NEWER_JAVA_ENV, str(tmp_path / "no-newer-java"))  # Java 17 alone
    db = folder / "league.db"
    token = program_league(db)
    project = download_zip(NEEDS_JAVA_19, tmp_path / "java19-main.zip", sdk_bytes=1 << 10)
    with served(db) as (url, _):
        submit_program(url, project, token, tmp_path, asked=False)
        version = decided(url, token)
    detail = version["detail"]
    assert version["status"] == "refused", detail
    assert detail.startswith(
        "its own window cannot be played: its sources need Java 19 or newer, and this server "
        "builds and runs them with Java 17: Bot.java:"
    ), detail
    assert ": an ExecutorService in try-with-resources (AutoCloseable from Java 19)." in detail
    assert "javac failed:" in detail and "try-with-resources not applicable" in detail


def test_a_refused_program_keeps_its_form_and_its_team_names_who_moves_first(
    folder: Path, tmp_path: Path, fx_tools: None
) -> None:
    """A program whose check box that lets its bot move first says so in words the
    reading does not know (``AI starts``) is refused at its dry run; its refused version
    keeps its form, offering who moves first among its check boxes and boxes, so its
    team names that box without uploading (the page's API), and the new version is
    accepted: its check played a game with each colour to the end, its bot moving first
    in one. A choice of what cannot say who moves first
    is refused in the form's words and keeps nothing."""
    db = folder / "league.db"
    token = program_league(db)
    project = download_zip(FORMS[6], tmp_path / "unread-first-main.zip", sdk_bytes=1 << 20)
    auth = {"Authorization": f"Bearer {token}"}
    with served(db) as (url, _):
        submit_program(url, project, token, tmp_path, asked=False)
        refused = decided(url, token)
        assert refused["status"] == "refused", refused["detail"]
        assert "has no control that says who moves first" in refused["detail"]
        assert refused["program"] and refused["window"], refused
        with httpx.Client(base_url=f"{url}/api/league", headers=auth, timeout=30) as api:
            form = api.get("/submissions/1/form").json()
            assert form["choice"] == NO_CHOICE_PLAYS
            offered = {c["name"]: (c["options"], c["chosen"]) for c in form["controls"]}
            # labels, never control ids; never a control the league does not play
            assert offered[MOVES_FIRST] == ([NO_FIRST, "AI starts"], NO_FIRST)
            assert offered["aiStarts"] == (["true", "false"], "false")
            assert "allBotMode" not in offered  # "Bot vs Bot?": the program plays itself
            window = api.get("/submissions/1/window.png")
            assert window.content[:8] == b"\x89PNG\r\n\x1a\n"
            wrong = api.post("/submissions/1/choice", json={"choose": {MOVES_FIRST: "Start"}})
            assert wrong.status_code == 400, wrong.text
            assert "names a check box or box of the form" in wrong.text
            assert [v["version"] for v in api.get("/submissions").json()["submissions"]] == [1]
            chose = api.post("/submissions/1/choice", json={"choose": {MOVES_FIRST: "AI starts"}})
            assert chose.status_code == 201, chose.text
            assert chose.json()["submission"]["version"] == 2
            version = accepted(url, token)
            assert version["detail"].startswith(
                "program Main, plays Minimax as O: played 2 rounds"
            ), version["detail"]
            again = api.get("/submissions/2/form").json()
            chooser = [c for c in again["controls"] if c["name"] == MOVES_FIRST]
            assert [c["chosen"] for c in chooser] == ["AI starts"]
    assert_forms_recorded(db, FORMS[6])
    wait_until(lambda: not own_sandboxes(), 20, "every driven program's sandbox to end")


BREAKS = (HOSTILE[2], CRASHES_TWICE)
"""The programs that break at their check, each a team of one league (each hostile
program's check, its words and its picture, is ``test_fx_programs.py``'s, through the
driver)."""


def test_a_program_that_breaks_is_refused_at_its_check_with_the_reason(
    folder: Path, tmp_path: Path, fx_tools: None
) -> None:
    """A program that marks an occupied square, and one whose crash is followed by a
    second exception of its window, each a team of one league (the league's builder
    judging them side by side, a slot for each: :func:`side_by_side`), are refused
    through the real server at their check game, the move and the reason in their words;
    neither plays a game. Their checks move on the league's clock, 2 s a move here."""
    db = folder / "league.db"
    teams = teams_league(db, tuple(shape.name for shape in BREAKS), clock="2+0")
    with served(db, **side_by_side(len(teams))) as (url, _):
        for shape in BREAKS:
            project = download_zip(shape, tmp_path / f"{shape.name}-main.zip", sdk_bytes=1 << 20)
            submit_program(url, project, teams[shape.name], tmp_path, name=shape.name)
        for token in teams.values():  # both builds share the machine: a longer guard
            decided(url, token, guard=120)
        refused_with_its_board(url, teams[HOSTILE[2].name])
        told_by_its_cause(url, teams[CRASHES_TWICE.name])
    with LeagueStore(db, create=False) as store:
        for shape in BREAKS:
            member = store.members.member_named(shape.name).id
            assert store.games.games(member_id=member) == [], shape.name
    wait_until(lambda: not own_sandboxes(), 20, "every driven program's sandbox to end")


def refused_with_its_board(url: str, token: str) -> None:
    """A program that marks an occupied square at its bot's second move is refused at
    its check, the move and the reason in its words, never invited to choose another
    bot; its window as its dry run drew it and its board at the failed move are kept
    for its team, though its build is not."""
    version = decided(url, token)
    detail = version["detail"]
    assert version["status"] == "refused", detail
    for words in ("as X, at move 3 (", "your bot chose ", ", which is occupied"):
        assert words in detail, (words, detail)
    # what it played, never an invitation to choose another bot: its refusal says why
    assert detail.startswith("program Main, plays Bot Minimax as O: as X, "), detail
    assert "choose on your page" not in detail, detail
    assert version["window"] and version["board"], version
    with httpx.Client(base_url=f"{url}/api/league", headers=bearer(token)) as api:
        window = api.get("/submissions/1/window.png")
        assert window.status_code == 200 and window.content.startswith(b"\x89PNG")
        board = api.get("/submissions/1/board.png")
        assert board.headers["content-type"] == "image/png"
        assert_board_picture(board.content)


def told_by_its_cause(url: str, token: str) -> None:
    """A program whose bot's exception is followed by a second one of its window is
    refused in its team's words: one line saying at which move and with which choice,
    then the cause (the first exception with the team's frames, its file and line), then
    the board; no command line, no folder of the server's, and not the exception that
    followed. Its whole last output is kept for the team beside the verdict."""
    version = decided(url, token)
    with httpx.Client(base_url=f"{url}/api/league", headers=bearer(token)) as api:
        listed = api.get("/submissions").json()["submissions"][0]
        output = api.get("/submissions/1/output.txt")
    with httpx.Client(base_url=f"{url}/api/league") as api:
        unsigned = api.get("/submissions/1/output.txt")
    # Its last output is kept for the team: all it printed, the exception that followed too.
    assert listed["output"] is True and unsigned.status_code == 401
    assert output.status_code == 200, output.text
    assert output.headers["content-type"] == "text/plain; charset=utf-8"
    assert output.headers["x-content-type-options"] == "nosniff"
    assert "java.lang.IllegalStateException: the bot lost its way" in output.text
    assert "NullPointerException" in output.text
    detail = version["detail"]
    assert version["status"] == "refused", detail
    first, cause, *rest = detail.split("\n")
    assert first.startswith("program Main, plays Bot Minimax as O"), detail
    assert ": as X, at move 3 (" in first, detail
    assert cause == (
        "its cause: java.lang.IllegalStateException: the bot lost its way, at Bot.java:12"
    ), detail
    assert rest[0] == "    at Bot.move(Bot.java:12)", detail
    assert "its board as its window shows it, top row first:" in rest, detail
    for never in ("NullPointerException", "/bin/sh", "/box", "java -", "fxdriver", "engine '"):
        assert never not in detail, (never, detail)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_loss_in_a_rated_game_keeps_a_picture_of_its_board(
    folder: Path, tmp_path: Path, fx_tools: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program whose bot throws at its third move passes its check (two moves a game)
    and loses its rated games of four rounds there, through the real server: each lost
    game names the exception with the team's file and line and keeps a picture of the
    board as the program's window drew it then and the program's last output (its trace
    whole), which its team and the teacher read and another team cannot; ``league submit
    --list`` says where each is."""
    db = folder / "league.db"
    start = Position.start(8, 8, 4).fen()
    make_league(db, rows=8, cols=8, rounds=4, base=30.0, increment=0.0, openings=(start,))
    add_member(db, "greedy", "house", "greedy")
    token, other = add_member(db, "team1"), add_member(db, "team2")
    project = download_zip(LATE_CRASH, tmp_path / "late-main.zip", sdk_bytes=1 << 20)
    with served(db) as (url, _):
        submit_program(url, project, token, tmp_path)
        accepted(url, token)
        with httpx.Client(base_url=f"{url}/api/league", headers=bearer(token)) as api:

            def lost() -> dict[str, Any] | None:
                games = api.get("/submissions/1/games").json()
                return next((g for g in games if g["board"]), None)

            game = wait_until(lost, 55, "a rated game lost with a picture of its board")
            assert game["termination"] == "disconnection", game
            assert "the bot lost its way" in game["detail"] and "Bot.java:" in game["detail"]
            picture = api.get(f"/submissions/1/games/{game['id']}/board.png")
            assert picture.headers["content-type"] == "image/png"
            assert_board_picture(picture.content)
            printed = wait_until(
                lambda: next(
                    (g for g in api.get("/submissions/1/games").json() if g["output"]), None
                ),
                10,
                "the lost game's output kept",
            )
            output = api.get(f"/submissions/1/games/{printed['id']}/output.txt")
            assert output.headers["content-type"] == "text/plain; charset=utf-8"
            assert "java.lang.IllegalStateException: the bot lost its way" in output.text
            assert api.get("/submissions/1/output.txt").status_code == 404  # not its check's
        listed = ["league", "submit", url, "--list", "--token-file", str(tmp_path / "team1.token")]
        capsys.readouterr()
        assert main(listed) == 0
        where = f"GET /api/league/submissions/1/games/{game['id']}/board.png"
        out = capsys.readouterr().out
        assert f"its board then, as its window drew it: on the team page, or {where}" in out
        where = f"GET /api/league/submissions/1/games/{printed['id']}/output.txt"
        assert f"what it printed last: on the team page, or {where}" in out
        with httpx.Client(base_url=f"{url}/api/league", headers=bearer(other)) as api:
            assert api.get(f"/submissions/1/games/{game['id']}/board.png").status_code == 404
            assert api.get(f"/submissions/1/games/{printed['id']}/output.txt").status_code == 404
        with httpx.Client(base_url=f"{url}/api/league", headers=bearer(ADMIN)) as api:
            teacher = api.get(f"/admin/members/team1/submissions/1/games/{game['id']}/board.png")
            assert teacher.content == picture.content  # the teacher reads it too
            read = api.get(f"/admin/members/team1/submissions/1/games/{printed['id']}/output.txt")
            assert read.text == output.text
    wait_until(lambda: not own_sandboxes(), 20, "every driven program's sandbox to end")


def test_a_zip_with_the_manifest_asks_for_its_program(tmp_path: Path) -> None:
    """The team page's route: the manifest in the zip itself chooses the program and the
    team's choice; a zip without it takes the other kinds' route."""
    manifest: dict[str, object] = {"language": "javafx", "choose": {"Bot": "Local Search"}}
    with_manifest = download_zip(SHAPES[1], tmp_path / "a.zip", 1 << 10, manifest=manifest)
    assert fx_choices(with_manifest) == {"Bot": "Local Search"}
    assert fx_choices(download_zip(SHAPES[1], tmp_path / "b.zip", 1 << 10)) is None
    wrong: dict[str, object] = {"language": "javafx", "bot": "Minimax"}
    with pytest.raises(ManifestError, match="unknown keys"):
        fx_choices(download_zip(SHAPES[1], tmp_path / "c.zip", 1 << 10, manifest=wrong))
