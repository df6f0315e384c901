"""Nothing searches after its game is gone: a game deleted through the API while its bot
thinks leaves no bot thread behind, even a bot asked for 100,000 MCTS simulations a move
(OpenSpiel's search, which has no clock of its own)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_helpers import HUMAN, api, live_server, wait_until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path / "games.sqlite3") as url:
        yield url


def bot_threads(game_id: str) -> list[threading.Thread]:
    """The live worker threads of ``game_id``'s bots (named ``bot-<game id>``)."""
    return [t for t in threading.enumerate() if t.name == f"bot-{game_id}" and t.is_alive()]


def test_deleting_a_game_mid_search_ends_its_bots_search(server: str) -> None:
    bot = {"kind": "bot", "spec": "openspiel:simulations=100000"}
    game = api(server, "POST", "/api/games", {"x": bot, "o": HUMAN, "time": 60.0})
    wait_until(
        lambda: api(server, "GET", f"/api/games/{game['id']}")["thinking"] is not None,
        what="the bot to think",
    )
    assert bot_threads(game["id"])
    api(server, "DELETE", f"/api/games/{game['id']}")
    # without the stop the search would run on for minutes; stopped, it ends within moments
    wait_until(lambda: not bot_threads(game["id"]), 20.0, "the bot's search to end")
