"""What bad input gets: a clear refusal, and nothing changes (tokens, other bots' games,
admin endpoints, oversized and malformed frames, rate limits), with a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from adjacency.core import Position
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from league_helpers import (
    ADMIN,
    add_member,
    challenge,
    join,
    make_league,
    me,
    receive,
    request,
    thread_server,
    wait_until,
)

LIMITS = LeagueLimits(
    max_frame=2048,
    max_errors=3,
    limit_loopback=True,
    burst=12,
    messages_per_minute=6.0,
    reads_per_minute=1e6,  # the tests poll game states
)


LEAGUE = {"base": 30.0}
LEAGUE_SERVER = {"limits": LIMITS}
"""The league of :func:`league` (tests/league/conftest.py) and its server's limits."""


def ws_url(url: str) -> str:
    return url.replace("http://", "ws://") + "/api/league/connect"


def open_ws(url: str, token: str | None) -> ClientConnection:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return connect(ws_url(url), additional_headers=headers, open_timeout=10)


def refused_status(url: str, token: str | None) -> int:
    with pytest.raises(InvalidStatus) as caught, open_ws(url, token):
        pass
    status: int = caught.value.response.status_code
    body = caught.value.response.body or b""
    if token is not None:
        assert token.encode() not in body  # a refusal never repeats the secret
    return status


def test_unknown_revoked_and_misplaced_secrets_cannot_connect(league: tuple[str, Path]) -> None:
    url, db = league
    token = add_member(db, "alice")
    assert refused_status(url, None) == 401
    assert refused_status(url, "adjl_" + "A" * 22) == 401
    assert refused_status(url, token + "x") == 401
    assert refused_status(url, ADMIN) == 401  # the admin token is not a bot account
    person = request(f"{url}/api/league/people", "POST", {"name": "pat"}).body["secret"]
    assert refused_status(url, person) == 403
    with open_ws(url, token) as ws:
        assert receive(ws, "welcome")["name"] == "alice"
        with LeagueStore(db) as store:  # as `adjacency league revoke` does, server running
            store.members.revoke("alice")
        assert "revoked" in receive(ws, "error")["detail"]
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=30)
    assert refused_status(url, token) == 401


def test_a_token_rotated_from_the_command_line_closes_its_open_connection(
    league: tuple[str, Path],
) -> None:
    """``adjacency league rotate`` writes the file while the server runs: the connection
    that authenticated with the old token is closed, the old token is refused, the new
    one connects."""
    url, db = league
    token = add_member(db, "carol")
    with open_ws(url, token) as ws:
        assert receive(ws, "welcome")["name"] == "carol"
        with LeagueStore(db) as store:
            new = store.members.rotate("carol")
        assert "replaced" in receive(ws, "error")["detail"]
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=30)
    assert refused_status(url, token) == 401
    with open_ws(url, new) as ws:
        assert receive(ws, "welcome")["name"] == "carol"


def test_a_bot_cannot_move_in_another_bots_game(league: tuple[str, Path]) -> None:
    url, db = league
    tokens = {name: add_member(db, name) for name in ("a", "b")}
    with open_ws(url, tokens["a"]) as a, open_ws(url, tokens["b"]) as b:
        start = receive(a, "game_start")
        game = start["game"]
        mover = a if start["color"] == "x" else b
        turn = receive(mover, "your_turn")
        intruder_token = add_member(db, "c")
        with open_ws(url, intruder_token) as c:
            receive(c, "welcome")
            c.send(json.dumps({"type": "move", "game": game, "move": "c3"}))
            error = receive(c, "error")
            assert error["status"] == 403 and "not yours" in error["detail"]
        waiting = b if mover is a else a
        waiting.send(json.dumps({"type": "move", "game": game, "move": "c3"}))
        assert receive(waiting, "error")["status"] == 409  # not its turn
        state = request(f"{url}/api/league/games/{game}").body
        assert state["moves"] == [] and state["fen"] == turn["fen"]


def test_admin_endpoints_need_the_admin_token(league: tuple[str, Path]) -> None:
    url, db = league
    bot = add_member(db, "bot1")
    new = {"name": "house1", "kind": "house", "spec": "greedy"}
    assert request(f"{url}/api/league/admin/members", "POST", new).status == 401
    assert request(f"{url}/api/league/admin/members", "POST", new, token="adjl_nope").status == 401
    assert request(f"{url}/api/league/admin/members", "POST", new, token=bot).status == 403
    assert request(f"{url}/api/league/admin/members/bot1/revoke", "POST", token=bot).status == 403
    with LeagueStore(db) as store:
        assert [m.name for m in store.members.members()] == ["bot1"]
        assert not store.members.members()[0].revoked
    made = request(f"{url}/api/league/admin/members", "POST", new, token=ADMIN)
    assert made.status == 201 and made.body["token"] is None
    bad = {"name": "house2", "kind": "house", "spec": "cmd:rm -rf /"}
    assert request(f"{url}/api/league/admin/members", "POST", bad, token=ADMIN).status == 400
    rotated = request(f"{url}/api/league/admin/members/bot1/rotate", "POST", token=ADMIN)
    assert rotated.status == 200 and rotated.body["token"] != bot
    assert refused_status(url, bot) == 401
    with open_ws(url, rotated.body["token"]) as ws:
        assert receive(ws, "welcome")["name"] == "bot1"


def test_malformed_and_oversized_frames_are_refused_then_disconnected(
    league: tuple[str, Path],
) -> None:
    url, db = league
    token = add_member(db, "noisy")
    with open_ws(url, token) as ws:
        receive(ws, "welcome")
        for garbage in ("not json", "[1, 2]", json.dumps({"type": "fly"})):
            ws.send(garbage)
            assert receive(ws, "error")["detail"]
        ws.send(json.dumps({"type": "move", "game": "one", "move": "a1"}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    with open_ws(url, token) as ws:
        receive(ws, "welcome")
        ws.send(json.dumps({"type": "ping", "pad": "x" * 10_000}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with open_ws(url, token) as ws:  # the server goes on
        assert receive(ws, "welcome")["name"] == "noisy"


def test_rate_limits_per_token_and_per_address(league: tuple[str, Path]) -> None:
    url, db = league
    token = add_member(db, "fast")
    with open_ws(url, token) as ws:
        receive(ws, "welcome")
        for _ in range(LIMITS.burst + 2):
            ws.send(json.dumps({"type": "ping"}))
        replies = [json.loads(ws.recv(timeout=30)) for _ in range(LIMITS.burst + 2)]
        assert sum(r["type"] == "pong" for r in replies) <= LIMITS.burst
        assert any("rate limit" in r.get("detail", "") for r in replies)
    statuses = []
    for _ in range(LIMITS.burst + 2):
        try:
            with open_ws(url, token):
                pass
            statuses.append(101)
        except InvalidStatus as exc:
            statuses.append(exc.response.status_code)
    assert 429 in statuses


def test_a_person_joins_and_plays_a_rated_game_against_a_house_bot(
    league: tuple[str, Path],
) -> None:
    url, db = league
    add_member(db, "house-random", "house", "random")
    secret = request(f"{url}/api/league/people", "POST", {"name": "ada"}).body["secret"]
    assert request(f"{url}/api/league/people", "POST", {"name": "ADA"}).status == 409
    anonymous = request(f"{url}/api/league/challenge", "POST", {"opponent": "house-random"})
    assert anonymous.status == 401
    approved = f"{url}/api/league/admin/members/ada/approve"
    assert request(approved, "POST", {}, token=ADMIN).status == 200  # ada's games are rated
    started = request(
        f"{url}/api/league/challenge", "POST", {"opponent": "house-random"}, token=secret
    )
    assert started.status == 201 and started.body["color"] == "x"
    game = started.body["game"]
    other = request(f"{url}/api/league/people", "POST", {"name": "eve"}).body["secret"]
    intruding = request(f"{url}/api/league/games/{game}/move", "POST", {"move": "c3"}, token=other)
    assert intruding.status == 403

    def my_turn_or_end() -> dict[str, Any] | None:
        state: dict[str, Any] = request(f"{url}/api/league/games/{game}").body
        return state if state["status"] != "playing" or state["turn"] == "x" else None

    while True:
        state = wait_until(my_turn_or_end, 60, "ada's turn")
        if state["status"] != "playing":
            break
        position = Position.from_fen(state["fen"])
        occupied = next(sq for sq in ("a1", "b1", "a2", "b2") if position.piece_at(sq))
        refused = request(
            f"{url}/api/league/games/{game}/move", "POST", {"move": occupied}, token=secret
        )
        assert refused.status == 400  # a person's illegal click is refused, not a loss
        move = position.legal_moves()[0]
        assert (
            request(
                f"{url}/api/league/games/{game}/move", "POST", {"move": move}, token=secret
            ).status
            == 200
        )
    assert state["termination"] == "normal"
    rows = {r["name"]: r for r in request(f"{url}/api/league/standings").body}
    assert rows["ada"]["kind"] == "person" and rows["ada"]["games"] == 1
    assert rows["ada"]["rating"] != 1500.0


def test_the_openapi_schema_documents_every_endpoint(league: tuple[str, Path]) -> None:
    url, _ = league
    schema = request(f"{url}/openapi.json").body
    paths = set(schema["paths"])
    for path in (
        "/api/league",
        "/api/league/standings",
        "/api/league/members/{name}",
        "/api/league/pairs/{a}/{b}",
        "/api/league/live",
        "/api/league/games",
        "/api/league/games/{game_id}",
        "/api/league/games/{game_id}/record",
        "/api/league/games/{game_id}/move",
        "/api/league/people",
        "/api/league/challenge",
        "/api/league/admin/members",
        "/api/league/admin/members/{name}/revoke",
        "/api/league/admin/members/{name}/rotate",
    ):
        assert path in paths
    schemas = schema["components"]["schemas"]
    assert {"LeagueGameState", "GameSummary", "MemberPage", "PairStats", "LeagueInfo"} <= set(
        schemas
    )
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            answer = operation["responses"].get("200") or operation["responses"].get("201")
            assert answer is not None and answer.get("description"), (method, path)
            if path != "/api/league/games/{game_id}/record":
                assert "schema" in answer["content"]["application/json"], (method, path)
    row = schema["components"]["schemas"]["StandingRow"]["properties"]
    assert {"name", "rating", "games", "elo", "elo_low", "elo_high", "provisional"} <= set(row)
    assert "/api/league/connect" in schema["info"]["description"]


JUNK = [
    ("z9", "illegal move 'z9'"),
    ("x" * 10_000, "illegal move 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (10000 characters)"),
    (44, "illegal move 44 (a number): not a square name"),
    (["d4"], 'illegal move ["d4"] (an array): not a square name'),
    (None, "illegal move null: not a square name"),
    ({"square": "d4"}, 'illegal move {"square": "d4"} (an object): not a square name'),
]  # fmt: skip
"""Answers that are no legal move, and what the loss's detail quotes of each."""


@pytest.fixture
def roomy_league(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A league with the default frame limit (16 KiB), so a 10 KB answer arrives."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    with thread_server(db, house_games=False) as url:
        yield url, db


def test_a_junk_answer_in_turn_loses_by_illegal_move_quoting_it(
    roomy_league: tuple[str, Path],
) -> None:
    """docs/league.md: an answer that is not a legal move loses, quoting it (cut short);
    a move message without a move is refused and changes nothing."""
    url, db = roomy_league
    tokens = {name: add_member(db, name) for name in ("a", "b")}
    with open_ws(url, tokens["a"]) as a, open_ws(url, tokens["b"]) as b:
        names = {id(a): "a", id(b): "b"}
        for junk, quoted in JUNK:
            start = receive(a, "game_start")
            receive(b, "game_start")
            to_move = Position.from_fen(start["start"]).turn
            mover = a if start["color"] == to_move else b
            turn = receive(mover, "your_turn")
            mover.send(json.dumps({"type": "move", "game": start["game"]}))
            refused = receive(mover, "error")
            assert refused["status"] == 400 and "a move needs 'move'" in refused["detail"]
            mover.send(json.dumps({"type": "move", "game": start["game"], "move": junk}))
            ends = [receive(side, "game_end") for side in (a, b)]
            assert ends[0] == ends[1]
            end = ends[0]
            assert end["termination"] == "illegal move"
            assert end["result"] == ("o" if to_move == "x" else "x")
            assert end["detail"].startswith(f"{names[id(mover)]} answered: ")
            assert quoted in end["detail"] and len(end["detail"]) < 300
            stored = request(f"{url}/api/league/games/{start['game']}").body
            assert stored["status"] == "finished" and stored["moves"] == []
            assert stored["fen"] == turn["fen"]
        mover.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))  # over 16 KiB + 1 KiB
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                mover.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_persons_time_loss_says_their_page_was_open(tmp_path: Path) -> None:
    """A person holds no connection: a loss on time with their page open says so, not
    "(not connected)". The person never moves, so the clock's outcome is the same on a
    loaded machine: a 2 s clock only shortens the wait for it."""
    db = tmp_path / "league.db"
    make_league(db, base=2.0, increment=0.0)
    add_member(db, "house-random", "house", "random")
    with thread_server(db, house_games=False) as url:
        secret = join(url, "ada")
        started = challenge(url, secret, "house-random")
        assert started.status == 201 and started.body["color"] == "x", started.body
        game = started.body["game"]

        def lost() -> Any:
            me(url, secret)  # the open play page asks every second or so
            state = request(f"{url}/api/league/games/{game}").body
            return state if state["status"] == "finished" else None

        state = wait_until(lost, 60, "ada's clock to run out")
    assert state["termination"] == "time forfeit"
    assert state["detail"] == "ada did not move within their clock (their play page was open)"
