"""The browser game's clocks: both shown, the first move untimed, a flag falling as a loss
on time without a request, bots within their clock (the clock itself: tests/round)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.core.record import game_from_text
from web_helpers import SMALL, wait_until

PERSON = {"kind": "human"}


def test_the_state_shows_both_clocks_and_the_first_move_starts_them(client: TestClient) -> None:
    body = {"x": PERSON, "o": PERSON, **SMALL, "clock": {"base": 60, "increment": 2}}
    state = client.post("/api/games", json=body).json()
    assert state["clock"] == {"base": 60.0, "increment": 2.0, "x": 60.0, "o": 60.0, "running": None}
    state = client.post(f"/api/games/{state['id']}/moves", json={"square": "a3"}).json()
    assert state["clock"]["running"] == "o"
    assert state["clock"]["x"] == 60.0  # the first move is untimed
    state = client.post(f"/api/games/{state['id']}/moves", json={"square": "d2"}).json()
    assert state["clock"]["running"] == "x"
    assert 60.0 < state["clock"]["o"] <= 62.0  # O used a little and gained 2 s


def test_a_flag_falls_without_any_request_and_the_record_says_so(client: TestClient) -> None:
    body = {"x": PERSON, "o": PERSON, **SMALL, "clock": {"base": 1, "increment": 0}}
    game_id = client.post("/api/games", json=body).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"square": "a3"})

    def over() -> dict[str, Any] | None:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        return state if state["status"] == "over" else None

    state = wait_until(over, what="O's flag to fall")
    assert state["result"] == "x" and state["termination"] == "time forfeit"
    assert state["clock"]["o"] == 0 and state["clock"]["running"] is None
    assert "ran out of time" in state["termination_detail"]
    assert state["detail_code"] == "out-of-time" and state["detail_params"]["player"]
    late = client.post(f"/api/games/{game_id}/moves", json={"square": "d2"})
    assert late.status_code == 409
    record = game_from_text(client.get(f"/api/games/{game_id}/record").text)
    assert record.result == "x" and record.termination.value == "time forfeit"


@pytest.mark.slow
def test_bots_play_a_whole_game_within_their_clocks(client: TestClient) -> None:
    bots = {"x": {"kind": "bot", "spec": "alphabeta"}, "o": {"kind": "bot", "spec": "alphabeta"}}
    body = {**bots, "rows": 5, "cols": 5, "rounds": 6, "clock": {"base": 8, "increment": 0.2}}
    game_id = client.post("/api/games", json=body).json()["id"]

    def over() -> dict[str, Any] | None:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        return state if state["status"] == "over" else None

    state = wait_until(over, timeout=120, what="the bot game to end")
    assert state["termination"] == "normal", state["termination_detail"]
    assert state["clock"]["x"] > 0 and state["clock"]["o"] > 0
    assert len(state["moves"]) == 12
