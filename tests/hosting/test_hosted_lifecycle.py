"""A hosted bot's games from their start to their end, through the real league server
(HTTP, WebSocket, its builder, bubblewrap, Debian's python3), with small Python protocol
programs (quick to build): a person challenges a hosted bot and plays it to the end
through the API, the game recorded with the hosted version, while the team's own
connected client is refused (403, with why); thinking after an answer (pondering) is
never charged to the bot's clock, as on the course's wall clock; a build folder that is
gone is built again from the kept zip and played (one that cannot be built again is not
played, the log saying why); a build that cannot start loses with the reason; a failure
of the server's own (its move's machinery raising, no sandbox at the bot's start)
abandons the game, the other side told; and nothing of any bot is left running."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.core.errors import AdjacencyRuntimeError
from adjacency.core.record import game_from_text
from adjacency.hosting.player import CHOICE
from adjacency.hosting.seat import BotSeat
from adjacency.league.builder import version_folder
from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.sandbox import SandboxUnavailable
from hosted_helpers import ENGINES, accepted, files_zip, served
from league_helpers import (
    add_member,
    challenge,
    join,
    make_league,
    receive,
    request,
    upload,
    wait_until,
    ws_connect,
)
from sandbox_helpers import host_pids_with, own_sandboxes

MINIMAL = (ENGINES / "minimal_engine.py").read_text(encoding="utf-8")
"""The minimal Python engine: a protocol program of one file."""

BURN = 1.0
"""CPU seconds the pondering bot burns after each answer."""

TICKS = os.sysconf("SC_CLK_TCK")
"""The clock ticks a second of ``/proc/PID/stat``'s CPU times."""

PONDERING = f"""import sys, time

import minimal_engine as engine

grid, side, _ = engine.start_position()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "aep":
        print("id name ponderer\\naepok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        moves = words[words.index("moves") + 1 :] if "moves" in words else []
        head = words[1 : words.index("moves")] if "moves" in words else words[1:]
        if head[0] == "fen":
            grid, side, _ = engine.parse_fen(head[1:4])
        else:
            named = dict(zip(head[1::2], head[2::2]))
            grid, side, _ = engine.start_position(
                int(named.get("rows", 8)), int(named.get("cols", 8)),
                int(named["rounds"]) if "rounds" in named else None, named.get("first", "x"),
            )
        for move in moves:
            side = engine.play(grid, side, move)
    elif words[0] == "go":
        print(f"bestmove {{engine.choose(grid, side)[0]}}", flush=True)
        end = time.process_time() + {BURN}  # thinks on: the opponent's time, not its clock
        while time.process_time() < end:
            pass
    elif words[0] == "quit":
        break
"""
"""A protocol program that answers at once, then burns :data:`BURN` s of CPU before it
reads on: on its opponent's time, never charged to its next move."""


def program(main: str = MINIMAL, args: list[str] | None = None) -> bytes:
    """A one-program Python project (``main`` over the minimal engine, with ``args``),
    its manifest naming it."""
    manifest = json.dumps({"language": "python", "main": "bot.py", "args": args or []})
    return files_zip(
        {"bot/bot.py": main, "bot/minimal_engine.py": MINIMAL, "bot/adjacency-bot.json": manifest}
    )


@pytest.fixture
def league(folder: Path) -> Path:
    """A 6x6, 4-round league (20 s a side) with no house bot: a team plays only whom it
    is paired with by the test."""
    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=20.0, increment=0.0)
    return db


@pytest.fixture
def hosted(league: Path) -> Iterator[tuple[str, Any, str]]:
    """The league served with ``team1``'s minimal program accepted: its URL, the app and
    the team's token."""
    token = add_member(league, "team1")
    with served(league) as (url, app):
        assert upload(url, program(), token).status == 201
        accepted(url, token)
        yield url, app, token
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


def game_state(url: str, game: int, secret: str | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = request(f"{url}/api/league/games/{game}", token=secret).body
    return answer


def version_id(db: Path, name: str) -> int:
    """The id of ``name``'s one version."""
    with LeagueStore(db, create=False) as store:
        (version,) = store.submissions.versions(store.members.member_named(name).id)
    return version.id


def test_a_person_plays_a_hosted_bot_to_the_end_and_its_own_client_is_refused(
    league: Path, hosted: tuple[str, Any, str]
) -> None:
    url, _, token = hosted
    ada = join(url, "ada")
    # The scheduler's next pass finds the team hosted: from then on it may be challenged.
    started = wait_until(
        lambda: made if (made := challenge(url, ada, "team1")).status != 409 else None,
        10,
        "the hosted team to be there",
    )
    assert started.status == 201 and started.body["status"] == "started", started
    number = started.body["challenge"]

    def game_of_challenge() -> int | None:
        state = request(f"{url}/api/league/challenges/{number}", token=ada).body
        return state["game"] if state["game"] else None

    game: int = wait_until(game_of_challenge, 30, "the challenge's game to start")
    assert game_state(url, game)["x"] == "ada"  # the challenger moves first
    # The team's own client, connected meanwhile, has no say in the game the server plays.
    with ws_connect(url, token) as client:
        assert receive(client, "welcome")["name"] == "team1"
        client.send(json.dumps({"type": "move", "game": game, "move": "c3"}))
        refused = receive(client, "error")
        assert refused["status"] == 403 and refused["game"] == game
        assert refused["detail"] == (
            f"game {game}: the server plays team1's accepted version; "
            "a client's moves are not taken"
        )
        failing = {"type": "failed", "game": game, "termination": "disconnection", "detail": "x"}
        client.send(json.dumps(failing))
        assert receive(client, "error")["status"] == 403
    while (state := game_state(url, game, ada))["status"] == "playing":
        if state["turn"] == "x":
            move = Position.from_fen(state["fen"]).legal_moves()[0]
            moved = request(f"{url}/api/league/games/{game}/move", "POST", {"move": move}, ada)
            assert moved.status == 200, moved
        else:
            wait_until(lambda: game_state(url, game)["turn"] != "o", 30, "the hosted bot's move")
    assert state["status"] == "finished" and state["termination"] == "normal", state
    with LeagueStore(league, create=False) as store:
        stored = store.games.game(game)
        assert stored is not None and stored.record is not None
        assert stored.plies == Position.from_fen(stored.opening).plies_left  # to the end
        assert store.submissions.played(game) == (None, version_id(league, "team1"))


def play_out(
    client: Any, game: int, before_move: Callable[[int], None] = lambda plies: None
) -> dict[str, Any]:
    """Play ``game`` to its end from the rival's ``client`` (its first legal move each
    turn, after ``before_move`` of the plies played): the game's end message."""
    while True:
        message: dict[str, Any] = json.loads(client.recv(timeout=30))
        if message["type"] == "your_turn" and message["game"] == game:
            before_move(message["ply"])
            move = Position.from_fen(message["fen"]).legal_moves()[0]
            client.send(json.dumps({"type": "move", "game": game, "move": move}))
        elif message["type"] == "game_end" and message["game"] == game:
            return message


def pondered(marker: str, burnt: float) -> bool:
    """Whether the pondering bot's process (its command line holds ``marker``) is back
    at reading its input after burning ``burnt`` CPU seconds in all: blocked (``S``),
    with at least that CPU time used (read from the host's ``/proc``)."""
    found = []
    for pid in host_pids_with(marker):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if command[0].endswith(b"python3"):  # not bubblewrap or prlimit around it
            found.append((fields[0], (int(fields[11]) + int(fields[12])) / TICKS))
    assert len(found) <= 1, found  # one game at a time
    return bool(found) and found[0][0] == "S" and found[0][1] >= burnt


def test_thinking_after_an_answer_is_never_charged_to_the_next_move(league: Path) -> None:
    """The bot answers at once and then burns CPU; its opponent, a client of the test,
    answers only once that burn is over (seen in ``/proc``), so the burn falls wholly
    between two of the bot's moves, on its opponent's time: as on the course's wall
    clock, none of its moves is charged it (the record's move times are the clock's
    charges), though its sandbox did use that CPU."""
    marker = "ponderer-of-the-test"
    team = add_member(league, "team1")
    rival = add_member(league, "rival")
    with served(league) as (url, _):
        assert upload(url, program(PONDERING, [marker]), team).status == 201
        accepted(url, team)
        with ws_connect(url, rival) as client:  # the ladder pairs the two
            start = receive(client, "game_start")
            game, own = start["game"], start["color"]
            first = Position.from_fen(start["start"]).turn

            def after_the_burn(plies: int) -> None:  # the bot moved every other ply
                answers = sum(1 for i in range(plies) if (i % 2 == 0) == (first != own))
                burnt = answers * BURN
                wait_until(partial(pondered, marker, burnt), 20, "the bot's burn")

            message = play_out(client, game, after_the_burn)
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    assert message["termination"] == "normal", message
    with LeagueStore(league, create=False) as store:
        stored = store.games.game(game)
    assert stored is not None and stored.record is not None
    side = "o" if own == "x" else "x"
    moves = game_from_text(stored.record).moves[0 if first == side else 1 :: 2]
    charged = [move.seconds for move in moves]
    assert len(charged) >= 2 and all(seconds is not None for seconds in charged), charged
    head, *later = (seconds or 0.0 for seconds in charged)
    # The server reads the bot's CPU time at each move's start and end: a burn begun
    # just before an answer arrived adds a few ticks to that move at most, never a burn.
    rounding = 0.01 * len(charged)  # the record's move times, to the hundredth
    assert all(seconds < BURN / 2 for seconds in [head, *later]), charged
    used = stored.x_time if side == "x" else stored.o_time
    assert used <= sum([head, *later]) + rounding + 0.05 * len(charged), (used, charged)


def stop_between(league: Path, token: str) -> tuple[Path, int]:
    """Serve ``league`` until ``team1``'s minimal program is accepted, then stop: its
    build folder and its version's id."""
    with served(league) as (url, _):
        assert upload(url, program(), token).status == 201
        accepted(url, token)
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    with LeagueStore(league, create=False) as store:
        team = store.members.member_named("team1")
        (version,) = store.submissions.versions(team.id)
    return version_folder(league, team.id, version.version), version.id


def games_after(league: Path, first: int) -> list[StoredGame]:
    """``team1``'s finished games whose id is ``first`` or later, oldest first."""
    with LeagueStore(league, create=False) as store:
        team = store.members.member_named("team1")
        done = store.games.games(member_id=team.id, status="finished")
    return sorted((g for g in done if g.id >= first), key=lambda g: g.id)


def next_game_id(league: Path) -> int:
    with LeagueStore(league, create=False) as store:
        return max((g.id for g in store.games.games()), default=0) + 1


def test_a_version_whose_build_is_gone_is_built_again_and_plays(folder: Path) -> None:
    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=5.0, increment=0.0)
    add_member(db, "greedy", "house", "greedy")
    token = add_member(db, "team1")
    build, version = stop_between(db, token)
    shutil.rmtree(build)  # as a league file restored on another machine
    first = next_game_id(db)
    with served(db) as (_, app):
        games = wait_until(lambda: games_after(db, first) or None, 55, "a game after the build")
        assert (build / CHOICE).is_file()  # built again from the kept zip
        assert not app.state.hosted.unbuildable
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    with LeagueStore(db, create=False) as store:
        for game in games:  # never played as an absent client while it was being built
            assert game.termination == "normal", game.detail
            assert version in store.submissions.played(game.id)


def test_a_build_that_cannot_start_loses_with_the_reason_and_leaves_nothing(
    folder: Path,
) -> None:
    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=5.0, increment=0.0)
    add_member(db, "greedy", "house", "greedy")
    token = add_member(db, "team1")
    build, version = stop_between(db, token)
    kept = json.loads((build / CHOICE).read_text(encoding="utf-8"))
    (build / kept["classes"] / kept["bot"]).unlink()  # its program is gone, its choice kept
    first = next_game_id(db)
    with served(db) as (_, app):
        game, *_ = wait_until(lambda: games_after(db, first) or None, 55, "a game to end")
        ended = wait_until(
            lambda: [e for e in app.state.hosted.ended if e[0] == game.id] or None,
            20,
            "the game's hosted side to end",
        )
    assert game.termination == "disconnection", game.detail
    assert game.detail.startswith("team1 could not start: "), game.detail
    assert "can't open file" in game.detail and "bot.py" in game.detail, game.detail
    with LeagueStore(db, create=False) as store:
        assert version in store.submissions.played(game.id)
    assert all(outcome is None or outcome.leftovers == 0 for *_, outcome in ended)
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")


MOVE_FAILED = "the server failed while playing team1's hosted bot: the game was abandoned"
NO_SANDBOX = "the sandbox cannot start: bubblewrap is gone; fix: apt-get install bubblewrap"


def broken_move(self: BotSeat, fen: str, left: float, cap: float) -> Any:
    raise RuntimeError("the seat's machinery broke")


def no_sandbox(*args: Any, **kwargs: Any) -> Any:
    raise SandboxUnavailable(NO_SANDBOX)


@pytest.mark.parametrize(
    ("broken", "code", "told", "stored"),
    [
        ((BotSeat, "move", broken_move), "hosted-server-failed", MOVE_FAILED, MOVE_FAILED),
        (
            ("adjacency.hosting.player.SandboxedProcess", no_sandbox),
            "could-not-start",
            "team1 could not start",  # the opponent is not told the server's own words
            f"team1 could not start: {NO_SANDBOX}",
        ),
    ],
    ids=["its move's machinery raises", "its sandbox cannot start"],
)
def test_a_server_failure_abandons_a_hosted_game_and_tells_the_other_side(
    league: Path,
    monkeypatch: pytest.MonkeyPatch,
    broken: tuple[Any, ...],
    code: str,
    told: str,
    stored: str,
) -> None:
    team = add_member(league, "team1")
    rival = add_member(league, "rival")
    with served(league) as (url, app):
        assert upload(url, program(), team).status == 201
        accepted(url, team)
        monkeypatch.setattr(*broken)  # from the games on (the check has passed)
        with ws_connect(url, rival) as client:  # the ladder pairs the two
            game = receive(client, "game_start")["game"]
            message = play_out(client, game)
        assert message["result"] is None and message["termination"] == "aborted", message
        assert message["detail"] == told and message["detail_code"].startswith(code)
        assert game_state(url, game)["status"] == "aborted"
        wait_until(
            lambda: [e for e in app.state.hosted.ended if e[0] == game] or None,
            20,
            "the game's hosted side to end",
        )
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
    with LeagueStore(league, create=False) as store:
        kept = store.games.game(game)
        assert kept is not None and kept.status == "aborted" and kept.result is None
        assert kept.detail == stored


def test_a_version_that_cannot_be_built_again_is_not_played_and_says_why(
    folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_jdk(db: Path, submission: Any) -> Any:
        raise AdjacencyRuntimeError("javac is not installed here")

    db = folder / "league.db"
    make_league(db, rows=6, cols=6, rounds=4, base=5.0, increment=0.0)
    token = add_member(db, "team1")
    build, version = stop_between(db, token)
    shutil.rmtree(build)
    monkeypatch.setattr("adjacency.league.play.hosted.rebuild", no_jdk)
    with served(db) as (url, app):
        hosted = app.state.hosted
        wait_until(lambda: hosted.unbuildable, 20, "the build to be tried again")
        assert hosted.unbuildable == {version: "javac is not installed here"}
        said = [r.getMessage() for r in caplog.records if "could not be built again" in r.message]
        assert said == [
            "version 1 of team1 could not be built again here, so it is not played: "
            "javac is not installed here"
        ]
        refused = challenge(url, join(url, "ada"), "team1")  # not there: never a lost game
        assert refused.status == 409 and "team1 is not connected now" in refused.body["detail"]
        listed = request(url + "/api/league/submissions", token=token).body["submissions"]
        assert [v["status"] for v in listed] == ["accepted"]  # its verdict stands
