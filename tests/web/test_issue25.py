"""Issue 25's web defects, each reproduced: what a newcomer and a hostile client hit."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from adjacency.bots import BotError
from adjacency.bots.registry import Option, entries, entry, register
from adjacency.web.app import create_app
from adjacency.web.limits import check_option_caps

HUMAN = {"kind": "human", "name": "Ann"}
SMALL = {"rows": 4, "cols": 4, "rounds": 2}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as test_client:
        yield test_client


# ------------------------------------------------ item 1: every memory option capped


def capped_options() -> list[tuple[str, Option]]:
    """Every numeric option of every bot the page can start, with its shared cap."""
    return [(e.name, o) for e in entries() if not e.raw for o in e.options if o.numeric]


@pytest.mark.parametrize("spec", ["mcts:tree=4096", "engine:tt=4096", "genetic:population=10000"])
def test_memory_sizing_options_are_refused_above_their_cap(client: TestClient, spec: str) -> None:
    body = {"x": HUMAN, "o": {"kind": "bot", "spec": spec}, **SMALL}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert spec.split(":")[1] in response.json()["detail"]
    assert "limit" in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_every_capped_option_of_every_bot_is_refused_just_above_its_cap() -> None:
    checked = 0
    for bot, option in capped_options():
        cap = option.shared_cap
        assert cap is not None and math.isfinite(cap)
        above = int(cap) + 1 if isinstance(option.default, int) else cap * 1.5 + 1
        with pytest.raises(BotError, match="limit"):
            check_option_caps(bot, {option.name: above})
        check_option_caps(bot, {option.name: type(option.default)(cap)})  # the cap itself passes
        checked += 1
    assert checked >= 5
    assert entry("mcts").option("tree").shared_cap == 256
    assert entry("engine").option("tt").shared_cap == 256


def test_a_bot_cannot_register_an_unbounded_numeric_option() -> None:
    with pytest.raises(RuntimeError, match="needs a maximum or a cap"):
        register("unbounded-test", "x", "test", options=(Option("size", 1, "MB"),))(object)
    with pytest.raises(RuntimeError, match="cap"):
        register("overcap-test", "x", "test", options=(Option("n", 5, "n", 0, 10, cap=11),))(object)
    assert "unbounded-test" not in {e.name for e in entries()}


def test_the_config_shows_each_options_cap(client: TestClient) -> None:
    bots = {b["name"]: b for b in client.get("/api/config").json()["bots"]}
    tree = next(o for o in bots["mcts"]["options"] if o["name"] == "tree")
    assert tree["cap"] == 256 and tree["maximum"] == 4096
