"""The Lab tab's JSON API: the traces of adjacency.lab over HTTP, its bounds and cancellation."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from fastapi.testclient import TestClient

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.lab import Cancel, search_tree
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from adjacency.web.routers import lab as lab_router
from web_helpers import uvicorn_thread, wait_until

MIDGAME = Position.start(8, 8, rounds=28)
for _square in ("c3", "f6", "d3", "e6", "c4", "f5"):
    MIDGAME = MIDGAME.play(_square)
SMALL = Position.start(5, 5, rounds=6).play("c1")


def _get(client: TestClient, path: str, fen: str, **params: Any) -> Any:
    query = "&".join(f"{k}={quote(str(v))}" for k, v in params.items())
    return client.get(f"/api/lab/{path}?fen={quote(fen)}&{query}")


def test_the_tree_over_http_is_the_lab_tree_and_the_bots_answer(client: TestClient) -> None:
    response = _get(client, "tree", MIDGAME.fen(), depth=3, algorithm="alphabeta", cap=20000)
    assert response.status_code == 200
    data = response.json()
    expected = search_tree(MIDGAME, 3, "alphabeta").to_dict()
    data.pop("seconds"), expected.pop("seconds")
    assert data == expected
    bot = make_bot("alphabeta:depth=3,table=false")
    assert data["move"] == bot.choose_move(MIDGAME, Limit(time=None))
    assert bot.report is not None and data["value"] == bot.report.score


def test_the_tree_counts_textbook_alpha_beta_in_the_order_asked(client: TestClient) -> None:
    """The lab tutorial's 6x6 position at depth 4: textbook alpha-beta visits 9,046
    positions in reading order and 1,971 with the moves converting the most first."""
    fen = "4oo/4oo/3o2/2x3/xx4/xx4 x 14"
    reading = _get(client, "tree", fen, depth=4, reading="true").json()
    flips = _get(client, "tree", fen, depth=4, order="false").json()
    for tree, is_reading, visited in ((reading, True, 9046), (flips, False, 1971)):
        assert tree["reading"] is is_reading
        assert tree["search_nodes"] == len(tree["nodes"]) == visited
    assert reading["value"] == flips["value"] == 0


def test_every_panel_answers_on_a_small_position(client: TestClient) -> None:
    fen = SMALL.fen()
    compare = _get(client, "compare", fen, depth=4).json()
    assert [row["technique"] for row in compare["rows"]] == [
        "minimax",
        "reading",
        "alphabeta",
        "ordered",
        "table",
        "bulk",
    ]
    climb = _get(client, "climb", fen, spec="hill:variant=sideways", seed=4).json()
    assert climb["seed"] == 4 and climb["move"] in SMALL.legal_moves()
    assert climb == _get(client, "climb", fen, spec="hill:variant=sideways", seed=4).json()
    evolution = _get(client, "evolution", fen, spec="gatree:generations=3", seed=2).json()
    assert evolution["chromosome"][0] == evolution["move"]
    assert len(evolution["generations"]) == 4
    deepening = _get(client, "deepening", fen, seconds=0.5).json()
    assert [run["searcher"] for run in deepening["runs"]] == ["alphabeta", "engine"]
    engine = _get(client, "engine", fen, seconds=0.5).json()
    assert engine["move"] in SMALL.legal_moves()


@pytest.mark.parametrize(
    ("path", "params", "message"),
    [
        ("tree", {"depth": 5}, "depth must be a whole number from 1 to 4, got 5"),
        ("tree", {"depth": 3, "cap": 20001}, "node cap must be a whole number from 1 to 20000"),
        ("tree", {"algorithm": "negascout"}, "algorithm must be one of minimax, alphabeta"),
        ("compare", {"depth": 9}, "depth must be a whole number from 1 to 4"),
        ("climb", {"spec": "greedy"}, "not a local-search bot"),
        ("climb", {"spec": "hill", "seed": -1}, "seed must be a whole number from 0"),
        ("evolution", {"spec": "genetic:population=5000"}, "above this server's limit of 1000"),
        ("evolution", {"spec": "genetic:population=500"}, "at most population=200"),
        ("evolution", {"spec": "x" * 300}, "bot spec too long"),
        ("deepening", {"seconds": 60}, "seconds must be a number from 0.1 to 6"),
        ("engine", {"seconds": 0}, "seconds must be a number from 0.1 to 5"),
    ],
)
def test_requests_beyond_the_bounds_get_400_with_the_range(
    client: TestClient, path: str, params: dict[str, Any], message: str
) -> None:
    response = _get(client, path, MIDGAME.fen(), **params)
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_a_finished_position_gets_a_clear_message(client: TestClient) -> None:
    over = Position.start(4, 4, rounds=1).play("c1").play("a4")
    response = _get(client, "tree", over.fen(), depth=1)
    assert response.status_code == 400
    assert "the game is over" in response.json()["detail"]


def test_lab_searches_beyond_the_hint_cap_are_429(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(hints=1))
    with TestClient(app) as client:
        app.state.lab_slots.take(1)  # one lab search running: the cap of one is reached
        response = _get(client, "tree", SMALL.fen(), depth=2)
        assert response.status_code == 429 and "lab searches" in response.json()["detail"]
        app.state.lab_slots.give()
        assert _get(client, "tree", SMALL.fen(), depth=2).status_code == 200


def test_a_search_is_cancelled_when_its_page_goes_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a real server: the client closes its connection mid-search, the server
    cancels the search and its slot comes back."""
    started, cancelled = threading.Event(), threading.Event()

    def endless(position: Position, spec: str, seed: int, cancel: Cancel) -> Any:
        started.set()
        if cancel.event.wait(60):
            cancelled.set()
        raise AssertionError("the search ran on after its page went away")

    monkeypatch.setattr(lab_router, "climb_trace", endless)
    app = create_app(tmp_path / "g.sqlite3")
    with uvicorn_thread(app) as url:
        address = urlsplit(url)
        with socket.create_connection((address.hostname, address.port)) as sock:
            target = f"/api/lab/climb?fen={quote(SMALL.fen())}&spec=hill"
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {address.netloc}\r\n\r\n".encode("ascii"))
            wait_until(started.is_set, 30, "the lab search to start")
            assert app.state.lab_slots.running == 1
        wait_until(cancelled.is_set, 30, "the search to be cancelled")
        wait_until(lambda: app.state.lab_slots.running == 0, 30, "the slot to come back")


def test_one_client_address_runs_one_lab_search_at_a_time(tmp_path: Path) -> None:
    """A page (or a script) at one address cannot take every lab slot: its second search
    at once is 429, while another address still gets one."""
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(hints=2, limit_loopback=True))
    with TestClient(app) as client:
        app.state.lab_slots.take(2, "lab searches", ("address testclient",), 1)  # its search
        response = _get(client, "tree", SMALL.fen(), depth=2)
        assert response.status_code == 429
        assert "your address already runs 1 lab searches" in response.json()["detail"]
        app.state.lab_slots.take(2, "lab searches", ("address 203.0.113.9",), 1)  # another
        app.state.lab_slots.give(("address testclient",))
        app.state.lab_slots.give(("address 203.0.113.9",))
        assert app.state.lab_slots.running == 0
        assert _get(client, "tree", SMALL.fen(), depth=2).status_code == 200


def test_a_lab_search_over_its_time_budget_is_stopped_and_answered_incomplete(
    tmp_path: Path,
) -> None:
    """The server's lab budget (Limits.lab_seconds) stops a search that would run for
    minutes (an annealing that cools by 0.9999 a step down to 0.0001) and answers the
    trace as it stands, marked incomplete; its slot comes back."""
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(lab_seconds=0.5))
    with TestClient(app) as client:
        spec = "anneal:cooling=0.9999,tmin=0.0001"
        response = _get(client, "climb", MIDGAME.fen(), spec=spec, seed=1)
        assert response.status_code == 200, response.text
        assert response.json()["complete"] is False
        assert app.state.lab_slots.running == 0
