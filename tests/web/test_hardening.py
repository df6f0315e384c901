"""Web defects, each reproduced: hostile input, foreign hosts and origins,
requests that would take the machine, and the OpenAPI contract (schemathesis)."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_json, game_to_text
from adjacency.serving.binding import allowed_hosts_for, exposure_lines
from adjacency.web import hints as hints_module
from adjacency.web import turns as turns_module
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from web_helpers import HUMAN, SMALL, PatientBot, live_server, wait_until


def a_record() -> Game:
    game = Game(Position.start(4, 4, 2), "a", "b")
    game.play("a3")
    return game


def bad_records() -> list[str]:
    text = game_to_text(a_record())
    data = json.loads(game_to_json(a_record()))
    data["result"] = [1]
    return [
        text.replace('[Rounds "2"]', '[Rounds "²"]'),
        text.replace('[Rounds "2"]', '[Rounds "' + "9" * 5000 + '"]'),
        json.dumps(data),
        '{"format": "adjacency-game/1", "x": ' + "[" * 990 + "]" * 990 + "}",
    ]


# ------------------------------------------------------------- defect 2: import


@pytest.mark.parametrize(
    "record", bad_records(), ids=["superscript", "5000-digits", "list", "deep"]
)
def test_damaged_imports_are_400_and_change_nothing(client: TestClient, record: str) -> None:
    response = client.post("/api/games/import", json={"record": record})
    assert response.status_code == 400, response.text
    assert len(response.json()["detail"]) <= 400
    assert client.get("/api/games").json() == []


def test_a_keep_alive_connection_survives_bad_imports(tmp_path: Path) -> None:
    with live_server(tmp_path / "games.sqlite3") as url:
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        try:
            for record in bad_records():
                body = json.dumps({"record": record})
                connection.request(
                    "POST", "/api/games/import", body, {"Content-Type": "application/json"}
                )
                response = connection.getresponse()
                response.read()
                assert response.status == 400
                connection.request("GET", "/api/config")  # same connection
                after = connection.getresponse()
                after.read()
                assert after.status == 200
        finally:
            connection.close()


def test_nested_json_bodies_are_422_as_documented(client: TestClient) -> None:
    body = '{"record": ' + "[" * 990 + "]" * 990 + "}"
    response = client.post(
        "/api/games/import", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert "nested" in response.json()["detail"]


def test_a_damaged_row_shows_as_damaged_and_the_list_still_works(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as first:
        good = first.post("/api/games", json={"x": HUMAN, "o": HUMAN, **SMALL}).json()["id"]
        bad = first.post("/api/games", json={"x": HUMAN, "o": HUMAN, **SMALL}).json()["id"]
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET record = '{broken' WHERE id = ?", (bad,))
    with TestClient(create_app(db), cookies=first.cookies) as client:
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[good]["status"] == "playing"
        assert listed[bad]["status"] == "damaged"
        response = client.get(f"/api/games/{bad}")
        assert response.status_code == 404 and "damaged" in response.json()["detail"]
        assert client.delete(f"/api/games/{bad}").status_code == 204
        assert [g["id"] for g in client.get("/api/games").json()] == [good]


def test_error_messages_quote_a_bounded_part_of_the_input(client: TestClient) -> None:
    record = '[Rows "4"]\n[Cols "4"]\n[Rounds "2"]\n\n1. ' + "z9 " * 60_000
    response = client.post("/api/games/import", json={"record": record})
    assert response.status_code == 400
    assert len(response.content) < 1000
    missing = client.get("/api/games/" + "a" * 5000)
    assert missing.status_code == 404 and len(missing.content) < 400


# ------------------------------------------------------- defect 6: host, origin


@pytest.mark.parametrize("bound", ["::1", "127.0.0.1", "localhost"])
def test_the_host_allow_list_covers_loopback_and_the_bound_host(bound: str, tmp_path: Path) -> None:
    allowed = allowed_hosts_for(bound)
    app = create_app(tmp_path / "games.sqlite3", allowed_hosts=allowed)
    with TestClient(app, base_url="http://testserver") as client:
        for host in (
            "[::1]:8765",
            "127.0.0.1:8765",
            "localhost",
            bound if ":" not in bound else "[::1]",
        ):
            assert client.get("/api/config", headers={"Host": host}).status_code == 200, host
        for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example", ""):
            response = client.get("/api/config", headers={"Host": host})
            assert response.status_code == 400, host


def test_a_wildcard_server_answers_its_own_names_only(tmp_path: Path) -> None:
    allowed = allowed_hosts_for("0.0.0.0")
    assert "127.0.0.1" in allowed and "::1" in allowed
    with TestClient(create_app(tmp_path / "g.sqlite3", allowed_hosts=allowed)) as client:
        assert client.get("/api/config", headers={"Host": "attacker.example"}).status_code == 400
        assert client.get("/api/config", headers={"Host": f"{allowed[-1]}"}).status_code == 200


def test_state_changing_requests_from_another_origin_are_refused(client: TestClient) -> None:
    body = {"x": HUMAN, "o": HUMAN, **SMALL}
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://testserver:9999"},
        {"Sec-Fetch-Site": "cross-site"},
    ):
        response = client.post("/api/games", json=body, headers=headers)
        assert response.status_code == 403, headers
        assert "refused" in response.json()["detail"]
    assert client.get("/api/games").json() == []
    same = client.post("/api/games", json=body, headers={"Origin": "http://testserver"})
    assert same.status_code == 201
    game_id = same.json()["id"]
    move = client.post(
        f"/api/games/{game_id}/moves", json={"square": "a3"}, headers={"Origin": "http://x.test"}
    )
    assert move.status_code == 403
    assert client.get(f"/api/games/{game_id}").json()["moves"] == []
    # reading is not state-changing: a cross-origin GET is answered (CORS keeps it unreadable)
    assert client.get("/api/config", headers={"Origin": "http://evil.example"}).status_code == 200


# ------------------------------------------------------------ defect 7: caps


def test_the_engine_table_size_is_capped_from_the_web(client: TestClient) -> None:
    body = {"x": HUMAN, "o": {"kind": "bot", "spec": "engine:tt=4096"}, **SMALL}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert "tt=4096" in response.json()["detail"] and "limit" in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_concurrent_bot_games_are_capped_with_429(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(bot_games=2))
    body = {"x": {"kind": "bot", "level": 1}, "o": {"kind": "bot", "level": 1}, **SMALL}
    with TestClient(app) as client:
        created = [client.post("/api/games", json=body) for _ in range(2)]
        assert all(r.status_code == 201 for r in created)
        third = client.post("/api/games", json=body)
        assert third.status_code == 429 and "limit" in third.json()["detail"]
        people = client.post("/api/games", json={"x": HUMAN, "o": HUMAN, **SMALL})
        assert people.status_code == 201  # a game without bots takes no search slot
        client.delete(f"/api/games/{created[0].json()['id']}")
        assert client.post("/api/games", json=body).status_code == 201


def test_a_second_pending_hint_for_a_game_is_429_and_the_server_stays_responsive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    PatientBot.instances.clear()
    monkeypatch.setattr(hints_module, "build_bot", lambda spec, seed=None: PatientBot())
    app = create_app(tmp_path / "g.sqlite3")
    with TestClient(app) as client:
        body = {"x": HUMAN, "o": HUMAN, **SMALL, "time": 30}
        game_id = client.post("/api/games", json=body).json()["id"]
        first: dict[str, Any] = {}
        thread = threading.Thread(
            target=lambda: first.update(r=client.post(f"/api/games/{game_id}/hint"))
        )
        thread.start()
        wait_until(lambda: PatientBot.instances and PatientBot.instances[0].started.is_set())
        second = client.post(f"/api/games/{game_id}/hint")
        assert second.status_code == 429 and "being computed" in second.json()["detail"]
        assert client.get("/api/config").status_code == 200  # an unrelated GET is answered
        PatientBot.instances[0].stop()
        thread.join(30)
        assert first["r"].status_code == 200


def test_serving_beyond_loopback_prints_the_addresses_and_a_warning() -> None:
    assert exposure_lines("127.0.0.1", 8765) == []
    assert exposure_lines("::1", 8765) == []
    lines = exposure_lines("0.0.0.0", 8765)
    assert lines[-1].startswith("Warning: this server is reachable from other machines")
    for line in lines[:-1]:
        assert line.strip().startswith("others on your network can open http://")
        assert line.rstrip().endswith(":8765/")
    assert exposure_lines("192.0.2.7", 9000)[0].endswith("http://192.0.2.7:9000/")
