"""Games between devices: seat tokens, who may move, what each browser sees, rate limits."""

from __future__ import annotations

import base64
import http.client
import json
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi.testclient import TestClient

from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from adjacency.web.seats import SEAT_HEADER
from web_helpers import SMALL, live_server

PERSON = {"kind": "human"}
INVITE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


BROWSERS = ("creator", "x", "o", "watcher")
"""The browsers of this module's tests (tests/web/conftest.py)."""


def invite(client: TestClient, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/invites", json={**INVITE, **SMALL, **settings})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_seat_tokens_have_128_random_bits_and_differ() -> None:
    with TestClient(create_app(":memory:")) as client:
        seen = set()
        for _ in range(5):
            tokens = invite(client)["tokens"]
            for token in tokens.values():
                assert len(base64.urlsafe_b64decode(token + "==")) >= 16
                seen.add(token)
        assert len(seen) == 10


def test_only_the_seat_holder_moves_and_refusals_change_nothing(
    browsers: dict[str, TestClient],
) -> None:
    made = invite(browsers["creator"])
    game_id, tokens = made["game"]["id"], made["tokens"]
    path = f"/api/games/{game_id}/moves"
    move = {"square": "a3"}
    stranger = browsers["watcher"]
    refusals = [
        (stranger, {}),  # no token
        (stranger, {SEAT_HEADER: "A" * 22}),  # a wrong token
        (stranger, {SEAT_HEADER: tokens["o"]}),  # the other seat's token
        (browsers["creator"], {}),  # the creator holds no seat of an invitation
    ]
    for client, headers in refusals:
        response = client.post(path, json=move, headers=headers)
        assert response.status_code == 403, (headers, response.text)
        assert "seat" in response.json()["detail"]
    assert stranger.get(f"/api/games/{game_id}").json()["moves"] == []
    assert stranger.get(f"/api/games/{game_id}/me").json()["seats"] == []
    # X claims with its link, then plays by its cookie alone (a reload keeps the seat)
    x, o = browsers["x"], browsers["o"]
    assert x.post(f"/api/games/{game_id}/seats", headers={SEAT_HEADER: tokens["x"]}).json()[
        "seats"
    ] == ["x"]
    assert x.post(path, json=move).status_code == 200
    assert x.post(path, json={"square": "b3"}).status_code == 409  # O's turn now
    assert o.post(path, json={"square": "d2"}).status_code == 403  # O has not claimed
    assert (
        o.post(path, json={"square": "d2"}, headers={SEAT_HEADER: tokens["o"]}).status_code == 200
    )
    assert [m["square"] for m in o.get(f"/api/games/{game_id}").json()["moves"]] == ["a3", "d2"]
    for headers in ({}, {SEAT_HEADER: "B" * 22}):
        claim = browsers["watcher"].post(f"/api/games/{game_id}/seats", headers=headers)
        assert claim.status_code == 403 and "not valid" in claim.json()["detail"]


def test_watchers_read_but_cannot_act(browsers: dict[str, TestClient]) -> None:
    game_id = invite(browsers["creator"])["game"]["id"]
    watcher = browsers["watcher"]
    assert watcher.get(f"/api/games/{game_id}").status_code == 200
    assert watcher.get(f"/api/games/{game_id}/me").json() == {
        "seats": [],
        "owner": False,
        "invite": True,
    }
    refusals = {  # hints are off between devices and a takeback is an offer, for everyone
        "undo": (
            409,
            "between devices a takeback is an offer the other player answers: "
            'POST /offers with {"kind": "takeback"}',
        ),
        "hint": (409, "hints are off in games between devices"),
        "move-now": (403, "only the game's creator or its players may hurry a bot"),
    }
    for action, (status, detail) in refusals.items():
        response = watcher.post(f"/api/games/{game_id}/{action}")
        assert (response.status_code, response.json()["detail"]) == (status, detail), action
    assert watcher.delete(f"/api/games/{game_id}").status_code == 403
    assert watcher.post(f"/api/games/{game_id}/rematch").status_code == 403


def test_person_vs_bot_games_are_watchable_but_only_the_creator_plays(
    browsers: dict[str, TestClient],
) -> None:
    creator, watcher = browsers["creator"], browsers["watcher"]
    body = {"x": PERSON, "o": {"kind": "bot", "level": 1}, **SMALL}
    game_id = creator.post("/api/games", json=body).json()["id"]
    assert watcher.post(f"/api/games/{game_id}/moves", json={"square": "a3"}).status_code == 403
    assert watcher.get(f"/api/games/{game_id}").status_code == 200
    assert creator.post(f"/api/games/{game_id}/moves", json={"square": "a3"}).status_code == 200


def test_game_lists_show_only_this_browsers_games(browsers: dict[str, TestClient]) -> None:
    made = invite(browsers["creator"])
    game_id = made["game"]["id"]
    local = browsers["o"].post("/api/games", json={"x": PERSON, "o": PERSON, **SMALL}).json()

    def ids(client: TestClient) -> list[str]:
        return [g["id"] for g in client.get("/api/games").json()]

    assert ids(browsers["creator"]) == [game_id]
    assert ids(browsers["watcher"]) == []
    assert ids(browsers["o"]) == [local["id"]]
    browsers["x"].post(f"/api/games/{game_id}/seats", headers={SEAT_HEADER: made["tokens"]["x"]})
    assert ids(browsers["x"]) == [game_id]


def test_tokens_never_appear_in_lists_records_events_or_the_store(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with live_server(db) as url:
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        body = json.dumps({**INVITE, **SMALL})
        connection.request("POST", "/api/invites", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        cookie = response.getheader("set-cookie", "").split(";")[0]
        made = json.loads(response.read())
        game_id, tokens = made["game"]["id"], made["tokens"]
        headers = {"Cookie": cookie, "Content-Type": "application/json"}
        connection.request(
            "POST",
            f"/api/games/{game_id}/moves",
            json.dumps({"square": "a3"}),
            {**headers, SEAT_HEADER: tokens["x"]},
        )
        assert connection.getresponse().read() and True
        seen = []
        for path in (
            "/api/games",
            f"/api/games/{game_id}",
            f"/api/games/{game_id}/record",
            f"/api/games/{game_id}/record?format=json",
            f"/api/games/{game_id}/me",
        ):
            connection.request("GET", path, headers=headers)
            seen.append(connection.getresponse().read().decode())
        connection.request("GET", f"/api/games/{game_id}/events", headers=headers)
        stream = connection.getresponse()
        first = b""
        while b"\n\n" not in first:
            first += stream.read1(4096)
        seen.append(first.decode())
        connection.close()
    with sqlite3.connect(db) as raw:
        seen.extend(str(row) for row in raw.execute("SELECT * FROM games"))
    assert "a3" in seen[1] and "event: state" in seen[-2]
    for text in seen:
        for token in tokens.values():
            assert token not in text


def test_an_invitation_is_for_two_people(browsers: dict[str, TestClient]) -> None:
    body = {"x": PERSON, "o": {"kind": "bot", "level": 1}, **SMALL}
    response = browsers["creator"].post("/api/invites", json=body)
    assert response.status_code == 400 and "two people" in response.json()["detail"]


def test_rate_limits_answer_429(tmp_path: Path) -> None:
    limits = Limits(limit_loopback=True, burst=3, creates_per_minute=1, moves_per_minute=1)
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=limits)) as client:
        body = {"x": PERSON, "o": PERSON, **SMALL}
        codes = [client.post("/api/games", json=body).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        assert "too many new games" in client.post("/api/games", json=body).json()["detail"]
        game_id = client.get("/api/games").json()[0]["id"]
        moves = [
            client.post(f"/api/games/{game_id}/moves", json={"square": sq}).status_code
            for sq in ("a3", "d2", "b3", "c2")
        ]
        assert moves == [200, 200, 200, 429]
        assert client.get(f"/api/games/{game_id}").status_code == 200  # reading is not limited
        assert len(client.get(f"/api/games/{game_id}").json()["moves"]) == 3


def test_a_rematch_between_devices_keeps_each_player_on_a_swapped_seat(
    browsers: dict[str, TestClient],
) -> None:
    made = invite(browsers["creator"], rounds=1)
    game_id, tokens = made["game"]["id"], made["tokens"]
    x, o = browsers["x"], browsers["o"]
    x.post(f"/api/games/{game_id}/seats", headers={SEAT_HEADER: tokens["x"]})
    o.post(f"/api/games/{game_id}/seats", headers={SEAT_HEADER: tokens["o"]})
    x.post(f"/api/games/{game_id}/moves", json={"square": "a3"})
    assert o.post(f"/api/games/{game_id}/moves", json={"square": "d2"}).json()["status"] == "over"
    assert x.post(f"/api/games/{game_id}/offers", json={"kind": "rematch"}).status_code == 200
    again = o.post(f"/api/games/{game_id}/offers/answer", json={"accept": True})  # consent
    assert again.status_code == 200
    new_id = again.json()["id"]
    assert x.get(f"/api/games/{new_id}/me").json()["seats"] == ["o"]
    assert o.get(f"/api/games/{new_id}/me").json()["seats"] == ["x"]
    assert new_id in [g["id"] for g in o.get("/api/games").json()]  # the friend finds it
    assert browsers["watcher"].get(f"/api/games/{new_id}/me").json()["seats"] == []
    move = {"square": "a3"}
    assert x.post(f"/api/games/{new_id}/moves", json=move).status_code == 409  # O now
    assert o.post(f"/api/games/{new_id}/moves", json=move).status_code == 200
