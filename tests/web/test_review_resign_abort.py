"""Play as on lichess, the server's part: review marks, resign and abort."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.core.record import game_from_text
from adjacency.lab import review as analysis
from adjacency.lab.review import Stopper
from adjacency.web.seats import SEAT_HEADER
from web_helpers import HUMAN, SMALL

# ------------------------------------------- defect 2: the played move named as the best


def review_with_values(
    monkeypatch: pytest.MonkeyPatch, values: list[tuple[float, bool, str | None]], moves: list[str]
) -> list[dict[str, Any]]:
    """Review ``moves`` from the 4x4 start with the engine's search values replaced by
    ``values`` (one per position, the mover's view) and no solver: the ``move`` events."""
    positions = [Position.start(4, 4, 2)]
    for move in moves:
        positions.append(positions[-1].play(move))
    by_position = dict(zip((p.fen() for p in positions), values, strict=True))
    monkeypatch.setattr(analysis, "review_engine", lambda: None)
    monkeypatch.setattr(analysis, "solved_value", lambda _e, _p, _n: None)
    monkeypatch.setattr(analysis, "searched_value", lambda _e, p, _d: by_position[p.fen()][::2])
    emitted: list[tuple[str, dict[str, Any]]] = []
    analysis.review(positions, moves, lambda e, d: emitted.append((e, d)), Stopper())
    assert emitted[-1] == ("done", {"reason": "complete"})
    return sorted((d for e, d in emitted if e == "move"), key=lambda d: d["ply"])


def test_a_played_move_named_the_best_is_not_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    start = Position.start(4, 4, 2)
    first = start.legal_moves()[0]
    second = start.play(first).legal_moves()[0]
    # Searches (not exact): the first move is the engine's best, yet the deeper look at
    # the position after it rates it 5 lower for its mover; the second is not the best.
    values = [(3.0, False, first), (2.0, False, "zz"), (3.0, False, None)]
    moves = review_with_values(monkeypatch, values, [first, second])
    assert moves[0]["best"] == first and moves[0]["loss"] == 0 and moves[0]["mark"] is None
    assert moves[1]["loss"] == 5 and moves[1]["mark"] == "mistake"


# ------------------------------------------------------------- resign and abort

INVITE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


BROWSERS = ("x", "o", "watcher")
"""The browsers of this module's tests (tests/web/conftest.py)."""


def between_devices(browsers: dict[str, TestClient]) -> str:
    """A 4x4 game between the X and O browsers (each holding its seat): its id."""
    made = browsers["x"].post("/api/invites", json={**INVITE, **SMALL}).json()
    game_id = made["game"]["id"]
    for color in ("x", "o"):
        response = browsers[color].post(
            f"/api/games/{game_id}/seats", headers={SEAT_HEADER: made["tokens"][color]}
        )
        assert response.status_code == 200, response.text
    return str(game_id)


def test_resigning_against_a_bot_is_a_recorded_final_loss(client: TestClient) -> None:
    body = {"x": HUMAN, "o": {"kind": "bot", "level": 1}, **SMALL}
    game_id = client.post("/api/games", json=body).json()["id"]
    square = sorted(client.get(f"/api/games/{game_id}").json()["preview"])[0]
    client.post(f"/api/games/{game_id}/moves", json={"square": square})
    response = client.post(f"/api/games/{game_id}/resign")
    assert response.status_code == 200, response.text
    state = response.json()
    assert (state["status"], state["result"], state["termination"]) == (
        "over",
        "o",
        "resignation",
    )
    assert state["termination_detail"] == "X (Ann) resigned"
    assert (state["detail_code"], state["detail_params"]) == ("resigned", {"player": "X (Ann)"})
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[Termination "resignation"]' in record and '[Result "0-1"]' in record
    reloaded = game_from_text(record)
    assert (reloaded.result, reloaded.termination) == ("o", Termination.RESIGNATION)
    for action in ("undo", "resign", "abort"):  # final: nothing reopens or changes it
        refused = client.post(f"/api/games/{game_id}/{action}")
        assert refused.status_code == 409, refused.text
    assert "resign" in client.post(f"/api/games/{game_id}/undo").json()["detail"]
    after = client.get(f"/api/games/{game_id}").json()
    assert after["version"] == state["version"] and after["termination"] == "resignation"


def test_between_devices_each_resigns_only_for_its_own_seat(
    browsers: dict[str, TestClient],
) -> None:
    game_id = between_devices(browsers)
    path = f"/api/games/{game_id}"
    before = browsers["x"].get(path).json()
    watcher = browsers["watcher"].post(f"{path}/resign")
    assert watcher.status_code == 403 and "seat" in watcher.json()["detail"]
    stolen = browsers["o"].post(f"{path}/resign", json={"side": "x"})
    assert stolen.status_code == 403
    bad = browsers["o"].post(f"{path}/resign", json={"side": "z"})
    assert bad.status_code in (400, 422) and "side" in bad.text
    assert browsers["x"].get(path).json()["version"] == before["version"]  # nothing changed
    state = browsers["o"].post(f"{path}/resign").json()
    assert (state["result"], state["termination"]) == ("x", "resignation")
    assert state["termination_detail"] == "O (Bob) resigned"


def test_abort_only_before_the_sides_first_move_and_without_a_result(
    browsers: dict[str, TestClient],
) -> None:
    game_id = between_devices(browsers)
    path = f"/api/games/{game_id}"
    square = sorted(browsers["x"].get(path).json()["preview"])[0]
    moved = browsers["x"].post(f"{path}/moves", json={"square": square}).json()
    refused = browsers["x"].post(f"{path}/abort")
    assert refused.status_code == 409 and "resign instead" in refused.json()["detail"]
    assert browsers["x"].get(path).json()["version"] == moved["version"]
    state = browsers["o"].post(f"{path}/abort").json()  # O has not moved yet
    assert (state["status"], state["result"], state["termination"]) == ("over", None, "abandoned")
    assert "aborted" in state["termination_detail"]
    summaries = browsers["x"].get("/api/games").json()
    assert [g["status"] for g in summaries if g["id"] == game_id] == ["over"]


def test_a_bot_cannot_resign_or_abort(client: TestClient) -> None:
    body = {"x": {"kind": "bot", "level": 1}, "o": {"kind": "bot", "level": 1}, **SMALL}
    game_id = client.post("/api/games", json=body).json()["id"]
    client.post(f"/api/games/{game_id}/control", json={"action": "pause"})
    for action in ("resign", "abort"):
        response = client.post(f"/api/games/{game_id}/{action}")
        assert response.status_code == 409 and "bot vs bot" in response.json()["detail"]
