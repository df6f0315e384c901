"""A finished game's detail is stored as a code with its params, and its text rendered
(through the web app's HTTP API, its store reopened as after a restart): the code
survives a reworded message, a player named like a sentence keeps the code of what
happened, and a game stored before the codes gets its code, read back once from its text
as its file is upgraded."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.serving.details import catalogue, render
from adjacency.serving.legacy_details import explain
from adjacency.web.app import create_app
from adjacency.web.store import STORE_SCHEMA as WEB
from store_helpers import DATA, header
from web_helpers import SMALL


def resigned_game(db: Path, name: str) -> str:
    """A 4x4 game of ``name`` (X) against a bot, resigned after one move: its id."""
    with TestClient(create_app(db)) as client:
        body = {"x": {"kind": "human", "name": name}, "o": {"kind": "bot", "level": 1}, **SMALL}
        game_id = str(client.post("/api/games", json=body).json()["id"])
        square = sorted(client.get(f"/api/games/{game_id}").json()["preview"])[0]
        client.post(f"/api/games/{game_id}/moves", json={"square": square})
        state = client.post(f"/api/games/{game_id}/resign").json()
        assert state["termination"] == "resignation"
    return game_id


def reopened(db: Path, game_id: str) -> tuple[dict[str, Any], str]:
    """The game's state and text record from a new server on ``db`` (a restart)."""
    with TestClient(create_app(db)) as client:
        state = client.get(f"/api/games/{game_id}").json()
        return state, client.get(f"/api/games/{game_id}/record").text


def test_a_stored_code_survives_a_reworded_message(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = resigned_game(db, "Ann")
    monkeypatch.setitem(catalogue("en"), "detail.resigned", "{player} gave the game up")
    state, record = reopened(db, game_id)
    assert (state["detail_code"], state["detail_params"]) == ("resigned", {"player": "X (Ann)"})
    assert state["termination_detail"] == "X (Ann) gave the game up"  # rendered, reworded
    assert state["message"].endswith("resignation. X (Ann) gave the game up")
    assert '[DetailCode "resigned"]' in record  # the record keeps what was written then
    assert '[TerminationDetail "X (Ann) resigned"]' in record
    assert render(state["detail_code"], state["detail_params"], "id") == "X (Ann) menyerah"


def test_a_name_shaped_like_a_sentence_keeps_its_code(db: Path) -> None:
    name = "Ann) could not start: (oops"
    game_id = resigned_game(db, name)
    state, _ = reopened(db, game_id)
    assert (state["detail_code"], state["detail_params"]) == ("resigned", {"player": f"X ({name})"})
    assert state["termination_detail"] == f"X ({name}) resigned"
    # Read back from its text, as the details were before the codes, it is another end.
    assert explain(state["termination_detail"]).code == "could-not-start"


def test_a_game_stored_before_the_codes_gets_its_code(db: Path) -> None:
    shutil.copyfile(DATA / "cb03095" / "web.sqlite3", db)  # a file of the code of before
    game_id = resigned_game(db, "Ann")
    other = resigned_game(db, "Bob")
    with contextlib.closing(sqlite3.connect(db)) as plain, plain:
        records = {}
        for key in (game_id, other):
            (text,) = plain.execute("SELECT record FROM games WHERE id = ?", (key,)).fetchone()
            records[key] = json.loads(text)
        assert (records[game_id]["detail_code"], records[game_id]["detail_params"]) == (
            "resigned",
            {"player": "X (Ann)"},
        )
        # As the code before the codes wrote them, in a file of its version: one detail
        # in its sentences, one in an engine's own words.
        records[other]["termination_detail"] = "engine closed its output (exit status 3)"
        for key, record in records.items():
            del record["detail_code"], record["detail_params"]
            plain.execute("UPDATE games SET record = ? WHERE id = ?", (json.dumps(record), key))
        step = next(n for n, s in enumerate(WEB.steps) if s.does == "each game's detail code")
        later = ("secrets", "puzzle_reveals", "explorer", "explorer_seen", "explorer_feed",
                 "explorer_pending")  # fmt: skip
        for table in later:  # the later steps' tables
            plain.execute(f"DROP TABLE {table}")
        plain.execute(f"PRAGMA user_version = {step}")
    state, record_text = reopened(db, game_id)  # the upgrade reads the texts once
    assert header(db)[1] == WEB.version
    assert (state["detail_code"], state["detail_params"]) == ("resigned", {"player": "X (Ann)"})
    assert state["termination_detail"] == "X (Ann) resigned"
    assert '[DetailCode "resigned"]' in record_text
    with contextlib.closing(sqlite3.connect(db)) as plain:
        (text,) = plain.execute("SELECT record FROM games WHERE id = ?", (other,)).fetchone()
    assert json.loads(text) == records[other]  # words of no code: left as they were
    words, _ = reopened(db, other)
    assert (words["detail_code"], words["detail_params"]) == (None, {})
    assert words["termination_detail"] == "engine closed its output (exit status 3)"
