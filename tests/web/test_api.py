"""The web API through FastAPI's TestClient: every endpoint, good and bad input."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.bots import entries, parse_spec
from adjacency.core import Position
from adjacency.core.record import game_from_json, game_from_text
from adjacency.web import turns as turns_module
from adjacency.web.app import MAX_BODY, create_app
from adjacency.web.models import MAX_RECORD_CHARS
from web_helpers import HUMAN, PatientBot, wait_until


def bot(level: int = 1) -> dict[str, Any]:
    return {"kind": "bot", "level": level}


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> type[PatientBot]:
    """Every bot the sessions build is a PatientBot (answers only when stopped)."""
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    return PatientBot


def create(client: TestClient, **settings: Any) -> dict[str, Any]:
    body = {"x": HUMAN, "o": bot(), "rows": 4, "cols": 4, "rounds": 2, **settings}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def result_of(score: list[int]) -> str:
    """The result the rules give a finished game with this ``[x, o]`` score."""
    x, o = score
    return "x" if x > o else "o" if o > x else "draw"


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def wait_plies(client: TestClient, game_id: str, plies: int) -> dict[str, Any]:
    return wait_until(  # type: ignore[no-any-return]
        lambda: (
            (s := state(client, game_id)) and len(s["moves"]) >= plies and not s["thinking"] and s
        ),
        what=f"{plies} plies",
    )


def error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    return detail  # type: ignore[no-any-return]


# ------------------------------------------------------------------- config


def test_config_lists_levels_from_the_registry(client: TestClient) -> None:
    config = client.get("/api/config").json()
    levels = config["levels"]
    assert [lv["number"] for lv in levels] == list(range(1, len(levels) + 1))
    assert levels[0]["spec"] == "random" and levels[1]["spec"] == "greedy"
    for level in levels:
        parse_spec(level["spec"])
    names = {b["name"] for b in config["bots"]}
    assert {"random", "greedy"} <= names
    assert 1 <= config["default_level"] <= len(levels)
    assert config["default_time"] == 5.0
    assert (config["min_side"], config["max_side"]) == (4, 8)


def test_openapi_documents_the_endpoints(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/config",
        "/api/games",
        "/api/games/import",
        "/api/games/{game_id}",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/move-now",
        "/api/games/{game_id}/control",
        "/api/games/{game_id}/rematch",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/events",
    ):
        assert path in paths


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    assert "<title>Adjacency</title>" in client.get("/").text
    assert "Rules and how to play" in client.get("/rules").text
    for name in (
        "style.css",
        "js/main.js",
        "js/live.js",
        "js/panels/moves.js",
        "js/dialogs/games.js",
        "js/board.js",
        "js/graph.js",
        "js/api.js",
        "js/docs.js",
        "favicon.svg",
    ):
        assert client.get(f"/static/{name}").status_code == 200, name


SVG_NAMESPACE = "http://www.w3.org/2000/svg"
"""An XML namespace name, not a resource: browsers never fetch it."""


def test_docs_is_a_self_hosted_page_with_no_external_url(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "API reference" in page and 'href="/openapi.json"' in page
    # The page and everything it loads are served here: nothing from a CDN.
    local = re.findall(r'(?:src|href)="(/[^"]*)"', page)
    assert "/static/js/docs.js" in local and "/static/style.css" in local
    texts = {"/docs": page}
    for path in local:
        loaded = client.get(path)
        assert loaded.status_code == 200, path
        texts[path] = loaded.text
    for path, text in texts.items():
        external = re.findall(r"https?://[^\s\"'<>)]*", text.replace(SVG_NAMESPACE, ""))
        assert external == [], f"{path} references {external}"
    assert not re.search(r"(?:src|href)=\"(?!/|#)", page)  # only same-site links


def test_no_cdn_docs_pages_and_openapi_unchanged(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404
    assert client.get("/docs/oauth2-redirect").status_code == 404
    schema = client.get("/openapi.json").json()
    assert schema["info"]["title"] == "Adjacency"
    assert not any(p in schema["paths"] for p in ("/docs", "/redoc", "/", "/rules"))


# -------------------------------------------------------------------- games


def test_new_game_state(client: TestClient) -> None:
    s = create(client, first="o", o=HUMAN, x={"kind": "human", "name": ""})
    assert s["mode"] == "human-human"
    assert (s["rows"], s["cols"], s["rounds"], s["first"], s["turn"]) == (4, 4, 2, "o", "o")
    assert s["boards"] == ["xx..xx....oo..oo"]
    assert s["score"] == [4, 4] and s["rounds_left"] == 2 and s["plies_left"] == 4
    assert s["x"]["name"] == "Player X" and s["o"]["name"] == "Ann"
    assert s["human_to_move"] and not s["can_undo"] and s["status"] == "playing"
    assert sorted(s["preview"]) == sorted(Position.start(4, 4, 2).legal_moves())


def test_human_vs_bot_game_to_the_end(client: TestClient) -> None:
    s = create(client, o=bot(2))
    assert s["o"]["level_name"] == "Novice" and s["o"]["spec"] == "greedy"
    for _ in range(2):
        square = sorted(s["preview"])[0]
        response = client.post(f"/api/games/{s['id']}/moves", json={"square": square})
        assert response.status_code == 200, response.text
        s = wait_plies(client, s["id"], len(response.json()["moves"]) + 1)
    assert s["status"] == "over" and s["result"] == result_of(s["score"])
    assert s["termination"] == "normal" and s["preview"] == {}
    assert [m["color"] for m in s["moves"]] == ["x", "o", "x", "o"]
    assert s["message"].endswith(f"{s['score'][0]}-{s['score'][1]}.")


@pytest.mark.parametrize("name", [e.name for e in entries() if not e.raw])
def test_every_registered_bot_plays_in_the_web_app(client: TestClient, name: str) -> None:
    s = create(client, o={"kind": "bot", "spec": name}, rows=5, cols=5, rounds=4, time=0.5)
    client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
    s = wait_plies(client, s["id"], 2)
    assert s["moves"][1]["color"] == "o" and s["human_to_move"] and s["status"] == "playing"


def test_bots_are_released_when_the_game_ends(client: TestClient) -> None:
    s = create(client, o=bot(2), rounds=1)
    client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
    assert wait_plies(client, s["id"], 2)["status"] == "over"
    turns = client.app.state.manager.get(s["id"]).turns  # type: ignore[attr-defined]
    wait_until(lambda: not turns._busy and not turns._bots, what="the bots to be released")


def test_bot_moves_first_when_it_is_first(client: TestClient) -> None:
    s = create(client, x=bot(1), o=HUMAN)
    s = wait_plies(client, s["id"], 1)
    assert s["turn"] == "o" and s["human_to_move"]


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"rows": 9}, 422, "rows"),
        ({"cols": 3}, 422, "cols"),
        ({"rounds": 5}, 400, "rounds must be a whole number from 1 to 4"),
        ({"rounds": 0}, 422, "rounds"),
        ({"first": "z"}, 422, "first"),
        ({"time": 0}, 422, "time"),
        ({"time": 1000}, 422, "time"),
        ({"o": {"kind": "bot", "level": 99}}, 400, "level must be from 1 to"),
        ({"o": {"kind": "bot", "spec": "nosuchbot"}}, 400, "unknown bot 'nosuchbot'"),
        ({"o": {"kind": "bot", "spec": "greedy:depth=3"}}, 400, "no option 'depth'"),
        ({"o": {"kind": "bot", "spec": "cmd:rm -rf /"}}, 400, "cannot be started by a page"),
        ({"o": {"kind": "bot", "spec": "py:/tmp/x.py:Bot"}}, 400, "cannot be started by a page"),
        ({"o": {"kind": "robot"}}, 422, "o.kind"),
        ({"o": {"kind": "human", "name": "n" * 41}}, 422, "o.name"),
        ({"colour": "x"}, 422, "colour"),
    ],
)
def test_new_game_rejects_bad_settings(
    client: TestClient, change: dict[str, Any], status: int, words: str
) -> None:
    body = {"x": HUMAN, "o": bot(), "rows": 4, "cols": 4, "rounds": 2, **change}
    assert words in error(client.post("/api/games", json=body), status)
    assert client.get("/api/games").json() == []


def test_a_bot_with_no_level_or_spec_plays_at_the_default_level(client: TestClient) -> None:
    s = create(client, o={"kind": "bot"})
    assert s["o"]["level"] == client.get("/api/config").json()["default_level"]


def test_malformed_json_is_a_422(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    error(response, 422)
    assert response.json()["errors"] == [{"field": "", "code": "bad_json", "params": {}}]


def test_a_malformed_request_names_each_fields_problem_with_a_code(client: TestClient) -> None:
    """A 422 says per field what was wrong, in codes pages translate, beside the
    English detail (kept for API users)."""
    body = {
        "x": {"kind": "human", "name": "n" * 41},
        "o": {"kind": "robot"},
        "rows": 2,
        "cols": 9,
        "time": "soon",
        "first": "z",
        "rounds": 2.5,
        "colour": "x",
    }
    response = client.post("/api/games", json=body)
    detail = error(response, 422)
    assert "rows: Input should be greater than or equal to 4 (got 2)" in detail
    errors = {e["field"]: (e["code"], e["params"]) for e in response.json()["errors"]}
    assert errors == {
        "x.name": ("too_long", {"limit": 40}),
        "o.kind": ("not_allowed", {"limit": "'human', 'bot'"}),
        "rows": ("too_small", {"limit": 4}),
        "cols": ("too_big", {"limit": 8}),
        "time": ("not_number", {}),
        "first": ("not_allowed", {"limit": "'x', 'o'"}),
        "rounds": ("not_integer", {}),
        "colour": ("unknown_field", {}),
    }
    missing = client.post("/api/games", json={"x": HUMAN}).json()["errors"]
    assert missing == [{"field": "o", "code": "missing", "params": {}}]
    deep = client.post("/api/games", content=b"[" * 40 + b"]" * 40).json()
    assert deep["errors"] == [{"field": "", "code": "too_deep", "params": {"limit": 32}}]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "", None),
        ("DELETE", "", None),
        ("POST", "/moves", {"square": "a1"}),
        ("POST", "/undo", None),
        ("POST", "/hint", None),
        ("POST", "/move-now", None),
        ("POST", "/control", {"action": "pause"}),
        ("POST", "/rematch", None),
        ("GET", "/record", None),
        ("GET", "/events", None),
    ],
)
def test_unknown_game_is_a_404(
    client: TestClient, method: str, path: str, body: dict[str, str] | None
) -> None:
    for game_id in ("0123456789ab", "../etc", "x" * 100):
        response = client.request(method, f"/api/games/{game_id}{path}", json=body)
        if response.status_code == 404 and response.json()["detail"] == "Not Found":
            continue  # a path that no route matches ("../etc" collapses)
        assert "no game with id" in error(response, 404)


# -------------------------------------------------------------------- moves


def test_bad_moves_change_nothing(client: TestClient) -> None:
    s = create(client, o=HUMAN)
    url = f"/api/games/{s['id']}/moves"
    cases = [
        ({"square": "a1"}, 400, "a1 is occupied by x"),
        ({"square": "z9"}, 400, "malformed square 'z9'"),
        ({"square": "e1"}, 400, "off the 4x4 board"),
        ({"square": ""}, 400, "malformed square"),
        ({"square": "a123456789"}, 422, "square"),
        ({"square": 7}, 422, "square"),
        ({}, 422, "square"),
        ({"square": "c1", "extra": 1}, 422, "extra"),
    ]
    for body, status, words in cases:
        assert words in error(client.post(url, json=body), status), body
    after = state(client, s["id"])
    assert after["moves"] == [] and after["version"] == s["version"]


def test_moves_when_not_allowed_are_409(client: TestClient, patient: type[PatientBot]) -> None:
    s = create(client, x=bot(), o=HUMAN, time=60)
    wait_until(lambda: patient.instances and patient.instances[0].started.is_set(), what="thinking")
    detail = error(client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"}), 409)
    assert "X's turn" in detail and "thinking" in detail
    assert state(client, s["id"])["moves"] == []

    over = create(client, o=HUMAN, rounds=1)
    client.post(f"/api/games/{over['id']}/moves", json={"square": "c1"})
    client.post(f"/api/games/{over['id']}/moves", json={"square": "d2"})
    detail = error(client.post(f"/api/games/{over['id']}/moves", json={"square": "d1"}), 409)
    assert "game is over" in detail


def test_simultaneous_moves_are_serialised(client: TestClient, patient: type[PatientBot]) -> None:
    s = create(client, time=60, rows=8, cols=8, rounds=28)
    squares = ["c1", "d1", "e1", "f1", "c3", "d4", "e5", "f6"]
    barrier = threading.Barrier(len(squares))

    def post(square: str) -> int:
        barrier.wait()
        response = client.post(f"/api/games/{s['id']}/moves", json={"square": square})
        status: int = response.status_code
        return status

    with ThreadPoolExecutor(len(squares)) as pool:
        codes = sorted(pool.map(post, squares))
    assert codes == [200] + [409] * (len(squares) - 1)
    after = state(client, s["id"])
    assert len(after["moves"]) == 1 and after["turn"] == "o"
    record = game_from_text(client.get(f"/api/games/{s['id']}/record").text)
    assert [m.square for m in record.moves] == [after["moves"][0]["square"]]


def test_move_seconds_and_flips_are_recorded(client: TestClient) -> None:
    s = create(client, o=HUMAN)
    s = client.post(f"/api/games/{s['id']}/moves", json={"square": "C1"}).json()
    (move,) = s["moves"]
    assert move["square"] == "c1" and move["color"] == "x" and move["flips"] == []
    assert move["seconds"] >= 0
    s = client.post(f"/api/games/{s['id']}/moves", json={"square": "b3"}).json()
    assert s["moves"][1]["flips"] == ["b2"]
    assert s["boards"][2] == "xxx.xo...ooo..oo"


# --------------------------------------------------------------------- undo


def test_undo_takes_back_your_move_and_the_bot_reply(client: TestClient) -> None:
    s = create(client, o=bot(2))
    detail = error(client.post(f"/api/games/{s['id']}/undo"), 409)
    assert "no move of yours" in detail
    client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
    s = wait_plies(client, s["id"], 2)
    assert s["can_undo"]
    after = client.post(f"/api/games/{s['id']}/undo").json()
    assert after["moves"] == [] and after["turn"] == "x" and after["human_to_move"]
    assert after["boards"] == s["boards"][:1]


def test_undo_while_the_bot_thinks_drops_its_search(
    client: TestClient, patient: type[PatientBot]
) -> None:
    s = create(client, time=60)
    client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
    wait_until(lambda: patient.instances and patient.instances[0].started.is_set(), what="thinking")
    after = client.post(f"/api/games/{s['id']}/undo").json()
    assert after["moves"] == [] and after["thinking"] is None
    assert patient.instances[0].stops >= 1
    wait_until(lambda: not patient.instances[0].started.is_set(), what="the bot to stop")
    assert state(client, s["id"])["moves"] == []  # the dropped answer was not played


def test_undo_between_people_is_one_ply_and_never_reopens_a_finished_game(
    client: TestClient,
) -> None:
    s = create(client, o=HUMAN, rounds=2)
    client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
    s = client.post(f"/api/games/{s['id']}/undo").json()
    assert s["status"] == "playing" and s["moves"] == []  # one ply: the person's own
    for square in ("c1", "d2", "a3", "d1"):
        s = client.post(f"/api/games/{s['id']}/moves", json={"square": square}).json()
    assert s["status"] == "over"
    refused = client.post(f"/api/games/{s['id']}/undo")
    assert "the game is over" in error(refused, 409) and refused.json()["code"] == "game_over"
    again = state(client, s["id"])
    assert again["status"] == "over" and len(again["moves"]) == 4  # the result stands


def test_undo_in_bot_vs_bot_is_refused(client: TestClient) -> None:
    s = create(client, x=bot(), o=bot())
    client.post(f"/api/games/{s['id']}/control", json={"action": "pause"})
    assert "bot vs bot" in error(client.post(f"/api/games/{s['id']}/undo"), 409)


# ---------------------------------------------------------- hint, move now


def test_hint_suggests_a_legal_move(client: TestClient) -> None:
    s = create(client, o=HUMAN)
    hint = client.post(f"/api/games/{s['id']}/hint").json()
    position = Position.start(4, 4, 2)
    assert hint["square"] in position.legal_moves()
    assert hint["flips"] == position.flips(hint["square"])
    parse_spec(hint["bot"])
    assert state(client, s["id"])["moves"] == []  # a hint plays nothing


def test_hint_when_it_is_not_your_turn(client: TestClient, patient: type[PatientBot]) -> None:
    s = create(client, x=bot(), o=HUMAN, time=60)
    assert "not your turn" in error(client.post(f"/api/games/{s['id']}/hint"), 409)


def test_move_now_makes_the_bot_answer(client: TestClient, patient: type[PatientBot]) -> None:
    s = create(client, time=60)
    assert "no bot is thinking" in error(client.post(f"/api/games/{s['id']}/move-now"), 409)
    client.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
    wait_until(lambda: state(client, s["id"])["thinking"], what="thinking")
    thinking = state(client, s["id"])["thinking"]
    assert thinking["color"] == "o" and thinking["depth"] == 1
    assert thinking["score"] == -0.5  # the bot's 0.5 from O's view, shown from X's
    assert client.post(f"/api/games/{s['id']}/move-now").status_code == 200
    s = wait_plies(client, s["id"], 2)
    assert s["moves"][1]["color"] == "o" and s["human_to_move"]


# ------------------------------------------------------------------ control


def test_bot_vs_bot_pause_step_resume(client: TestClient) -> None:
    s = create(client, x=bot(1), o=bot(2), rows=5, cols=5, rounds=8)
    url = f"/api/games/{s['id']}/control"
    paused = client.post(url, json={"action": "pause", "delay": 0}).json()
    assert paused["paused"] and paused["delay"] == 0
    plies = wait_plies(client, s["id"], 0)["moves"]
    stepped = client.post(url, json={"action": "step"}).json()
    assert stepped["paused"]
    s2 = wait_plies(client, s["id"], len(plies) + 1)
    assert len(s2["moves"]) == len(plies) + 1 and s2["paused"]
    client.post(url, json={"action": "resume"})
    end = wait_until(
        lambda: (x := state(client, s["id"]))["status"] == "over" and x, what="the end"
    )
    assert len(end["moves"]) == 16 and end["result"] == result_of(end["score"])
    assert "no move to step" in error(client.post(url, json={"action": "step"}), 409)


def test_several_games_play_at_once(client: TestClient) -> None:
    games = [create(client, x=bot(1), o=bot(2), rows=5, cols=5, rounds=6, time=1) for _ in range(3)]
    for game in games:
        client.post(f"/api/games/{game['id']}/control", json={"delay": 0})
    for game in games:

        def finished(g: dict[str, Any] = game) -> Any:
            current = state(client, g["id"])
            return current["status"] == "over" and current

        end = wait_until(finished, what="every game to end")
        assert len(end["moves"]) == 12


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"action": "jump"}, 422, "action"),
        ({"delay": -1}, 422, "delay"),
        ({"delay": 11}, 422, "delay"),
        ({"delay": "fast"}, 422, "delay"),
    ],
)
def test_control_rejects_bad_input(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    s = create(client, x=bot(), o=bot())
    assert words in error(client.post(f"/api/games/{s['id']}/control", json=body), status)


def test_control_is_for_bot_games(client: TestClient) -> None:
    s = create(client)
    detail = error(client.post(f"/api/games/{s['id']}/control", json={"action": "pause"}), 409)
    assert "bot vs bot" in detail


# ------------------------------------------------------- rematch and lists


def finish(client: TestClient, game_id: str) -> dict[str, Any]:
    """Play the people's moves (the first empty square) until the game is over."""
    while True:
        s = wait_until(
            lambda: (
                (s := state(client, game_id))
                and (s["status"] == "over" or s["human_to_move"])
                and s
            ),
            what="a person's turn or the end",
        )
        if s["status"] == "over":
            return s  # type: ignore[no-any-return]
        square = sorted(s["preview"])[0]
        client.post(f"/api/games/{game_id}/moves", json={"square": square})


def test_rematch_swaps_colours(client: TestClient) -> None:
    s = create(client, o=bot(2), first="o", time=2)
    early = client.post(f"/api/games/{s['id']}/rematch")
    assert "finished game" in error(early, 409)  # not while the game is on
    finish(client, s["id"])
    r = client.post(f"/api/games/{s['id']}/rematch")
    assert r.status_code == 201
    m = r.json()
    assert m["id"] != s["id"]
    assert m["x"]["spec"] == "greedy" and m["o"]["name"] == "Ann"
    assert (m["first"], m["rounds"], m["rows"], m["time"]) == ("o", 2, 4, 2)


def test_rematch_of_a_paused_bot_game_plays_at_the_same_speed(client: TestClient) -> None:
    s = create(client, x=bot(1), o=bot(2), rounds=1)
    client.post(f"/api/games/{s['id']}/control", json={"action": "pause", "delay": 1.5})
    for plies in (1, 2):
        client.post(f"/api/games/{s['id']}/control", json={"action": "step"})
        wait_plies(client, s["id"], plies)
    assert state(client, s["id"])["status"] == "over"
    m = client.post(f"/api/games/{s['id']}/rematch").json()
    assert not m["paused"] and m["delay"] == 1.5
    client.post(f"/api/games/{m['id']}/control", json={"action": "pause"})


def test_list_and_delete_games(client: TestClient) -> None:
    a = create(client)
    b = create(client, x=HUMAN, o=HUMAN, rows=5)
    listed = client.get("/api/games").json()
    assert {g["id"] for g in listed} == {a["id"], b["id"]}
    row = next(g for g in listed if g["id"] == b["id"])
    assert (row["mode"], row["rows"], row["status"], row["plies"]) == (
        "human-human",
        5,
        "playing",
        0,
    )
    assert client.delete(f"/api/games/{a['id']}").status_code == 204
    assert [g["id"] for g in client.get("/api/games").json()] == [b["id"]]
    error(client.get(f"/api/games/{a['id']}"), 404)


# ---------------------------------------------------------- save and load


def test_record_download_replays(client: TestClient) -> None:
    s = create(client, o=HUMAN)
    for square in ("c1", "b3", "d2"):
        client.post(f"/api/games/{s['id']}/moves", json={"square": square})
    response = client.get(f"/api/games/{s['id']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    game = game_from_text(response.text)
    assert [m.square for m in game.moves] == ["c1", "b3", "d2"]
    assert (game.x_name, game.o_name) == ("Ann", "Ann")
    as_json = client.get(f"/api/games/{s['id']}/record?format=json")
    assert [m.square for m in game_from_json(as_json.text).moves] == ["c1", "b3", "d2"]
    assert "format must be" in error(client.get(f"/api/games/{s['id']}/record?format=pdf"), 400)


def test_import_a_record_and_play_on(client: TestClient) -> None:
    s = create(client, o=HUMAN)
    for square in ("c1", "b3"):
        client.post(f"/api/games/{s['id']}/moves", json={"square": square})
    text = client.get(f"/api/games/{s['id']}/record").text
    response = client.post("/api/games/import", json={"record": text})
    assert response.status_code == 201, response.text
    loaded = response.json()
    assert loaded["id"] != s["id"] and loaded["mode"] == "human-human"
    assert [m["square"] for m in loaded["moves"]] == ["c1", "b3"]
    assert loaded["boards"] == state(client, s["id"])["boards"]
    played = client.post(f"/api/games/{loaded['id']}/moves", json={"square": "d1"}).json()
    assert len(played["moves"]) == 3
    as_json = client.get(f"/api/games/{s['id']}/record?format=json").text
    assert client.post("/api/games/import", json={"record": as_json}).status_code == 201


@pytest.mark.parametrize(
    ("record", "status", "words"),
    [
        ("", 422, "record"),
        ("  \n", 400, "empty"),
        ("hello", 400, "before any tag"),
        ('[Rows "4"]\n[Cols "4"]\n[Rounds "2"]\n\n1. a1 *', 400, "occupied"),
        ('[Rows "4"]\n[Cols "9"]\n[Rounds "2"]\n\n*', 400, "cols"),
        ('{"format": "other"}', 400, "unknown format"),
        ("{broken", 400, "not valid JSON"),
        ("x" * (MAX_RECORD_CHARS + 1), 422, "record"),
    ],
)
def test_import_rejects_bad_records(
    client: TestClient, record: str, status: int, words: str
) -> None:
    assert words in error(client.post("/api/games/import", json={"record": record}), status)
    assert client.get("/api/games").json() == []


def test_oversized_bodies_are_413(client: TestClient) -> None:
    big = b'{"record": "' + b"x" * (MAX_BODY + 10) + b'"}'
    response = client.post(
        "/api/games/import", content=big, headers={"Content-Type": "application/json"}
    )
    assert "too large" in error(response, 413)

    def chunks() -> Iterator[bytes]:
        yield b'{"record": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"x" * 1000
        yield b'"}'

    response = client.post(
        "/api/games/import", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert "too large" in error(response, 413)


# ------------------------------------------------------------- persistence


def test_games_survive_a_restart(db: Path) -> None:
    with TestClient(create_app(db)) as first:
        s = create(first, o=bot(2))
        first.post(f"/api/games/{s['id']}/moves", json={"square": "c1"})
        before = wait_plies(first, s["id"], 2)
        other = create(first, x=HUMAN, o=HUMAN)
    with TestClient(create_app(db), cookies=first.cookies) as second:
        listed = {g["id"] for g in second.get("/api/games").json()}
        assert listed == {s["id"], other["id"]}
        after = state(second, s["id"])
        assert after["moves"] == before["moves"] and after["boards"] == before["boards"]
        assert after["version"] > before["version"]  # pages never take new for old
        assert after["o"] == before["o"]
        square = sorted(after["preview"])[0]
        second.post(f"/api/games/{s['id']}/moves", json={"square": square})
        assert wait_plies(second, s["id"], 4)["status"] == "over"


def test_a_bot_game_resumes_after_a_restart(db: Path) -> None:
    with TestClient(create_app(db)) as first:
        s = create(first, x=bot(1), o=bot(1), rows=5, cols=5, rounds=6)
        first.post(f"/api/games/{s['id']}/control", json={"action": "pause", "delay": 0})
        first.post(f"/api/games/{s['id']}/control", json={"action": "step"})
        wait_plies(first, s["id"], 1)
    with TestClient(create_app(db), cookies=first.cookies) as second:
        assert state(second, s["id"])["paused"]
        second.post(f"/api/games/{s['id']}/control", json={"action": "resume"})
        end = wait_until(
            lambda: (x := state(second, s["id"]))["status"] == "over" and x, what="the end"
        )
        assert len(end["moves"]) == 12


def test_config_serves_the_rules_of_every_size(client: TestClient) -> None:
    sizes = client.get("/api/config").json()["sizes"]
    assert len(sizes) == 25
    for size in sizes:
        start = Position.start(size["rows"], size["cols"], 1)
        assert size["max_rounds"] == (size["rows"] * size["cols"] - 8) // 2
        cells = size["start"]
        assert len(cells) == size["rows"] * size["cols"]
        for i, c in enumerate(cells):
            assert c == ("x" if start.x >> i & 1 else "o" if start.o >> i & 1 else ".")
