"""A league game's detail is stored as a code with its params beside its English text
(``games.detail_code``, ``games.detail_params``): the API serves the code and renders the
text through the catalogue's message (a reworded message rewords it, the code stays), a
name shaped like a sentence keeps its code, and a file written before the codes gets
them read back once from its texts as it opens."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from adjacency.core.details import Detail, DetailCode
from adjacency.core.game import Game, Termination
from adjacency.core.record import game_from_text, game_to_text
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.schema import STORE_SCHEMA
from adjacency.serving.details import catalogue, ended
from adjacency.serving.legacy_details import explain
from league_helpers import add_member, get, make_league, thread_server
from store_helpers import DATA, header


def test_a_file_from_before_the_codes_gets_them_as_it_opens(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    shutil.copyfile(DATA / "cb03095" / "league.db", db)  # written by the code of before
    timeout = "alpha did not move within its clock (not connected)"
    words = "engine closed its output (exit status 3)"
    with contextlib.closing(sqlite3.connect(db)) as plain, plain:  # as that code wrote them
        plain.execute("UPDATE games SET detail = ? WHERE id = 1", (timeout,))
        plain.execute("UPDATE games SET detail = ? WHERE id = 2", (words,))
    with LeagueStore(db) as store:
        one, two, three = (store.games.game(n) for n in (1, 2, 3))
        assert one is not None and two is not None and three is not None
        assert one.end_detail() == Detail(
            timeout, DetailCode.CLOCK_NOT_CONNECTED, {"player": "alpha"}
        )
        assert two.end_detail() == Detail(words) and three.end_detail() == Detail("")
    assert header(db)[1] == STORE_SCHEMA.version
    with contextlib.closing(sqlite3.connect(db)) as plain:
        rows = plain.execute("SELECT id, detail_code, detail_params FROM games ORDER BY id")
        assert rows.fetchall() == [
            (1, "clock-not-connected", json.dumps({"player": "alpha"})),
            (2, None, None),
            (3, None, None),
        ]


def test_the_api_serves_the_stored_code_and_renders_a_reworded_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "r1", "house", "random")
    add_member(db, "ada", "bot")
    # A member stored under older, looser name rules: its name reads as another sentence.
    name = "ada) could not start: (oops"
    with LeagueStore(db) as store:
        ids = {m.name: m.id for m in store.members.members()}
        start = store.meta.settings().opening(0)
        game_id = store.games.start_game(ids["ada"], ids["r1"], start.fen())
        game = Game(start, "ada", "r1")
        game.forfeit("x", Termination.RESIGNATION, ended("resigned", player=name))
        store.games.finish_game(
            game_id, "o", "resignation", game.detail, game_to_text(game),
            start.score, 0, (1.0, 0.0),
        )  # fmt: skip
        stored = store.games.game(game_id)
        assert stored is not None and stored.detail == f"{name} resigned"
    assert explain(f"{name} resigned").code == "could-not-start"  # the regex misreads it
    monkeypatch.setitem(catalogue("en"), "detail.resigned", "{player} gave the game up")
    with thread_server(db, house_games=False) as url:
        state = get(f"{url}/api/league/games/{game_id}")
    assert (state["detail_code"], state["detail_params"]) == ("resigned", {"player": name})
    assert state["detail"] == f"{name} gave the game up"
    assert state["termination"] == "resignation"
    # The record keeps the code beside the text written then.
    assert stored.record is not None
    kept = game_from_text(stored.record)
    assert (kept.detail_code, kept.termination_detail) == ("resigned", f"{name} resigned")
