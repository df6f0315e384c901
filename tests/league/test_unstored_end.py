"""A game whose end could not be stored (a full disk) is kept as aborted with all its
moves, and stays readable and replayable (docs/records.md: an ``abandoned`` record
with no result may end on a finished board): its page answers 200 with its moves,
and ``adjacency replay`` loads its record."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from adjacency.core import Position
from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from league_helpers import (
    add_member,
    assert_replays,
    challenge,
    join,
    make_league,
    request,
    wait_until,
)
from web_helpers import uvicorn_thread


def state(url: str, game: int) -> dict[str, Any]:
    answer = request(f"{url}/api/league/games/{game}")
    assert answer.status == 200, answer
    return dict(answer.body)


def turn_or_end(url: str, game: int) -> dict[str, Any] | None:
    """The live game at X's (ada's) turn, ``{"status": "over"}`` once it is not in play
    (its end may not be stored yet), else ``None``."""
    live = {g["id"]: g for g in request(f"{url}/api/league/live").body}
    if game not in live:
        return {"status": "over"}
    return dict(live[game]) if live[game]["turn"] == "x" else None


def test_a_game_whose_end_was_not_stored_reads_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    add_member(db, "house-random", "house", "random")
    app = create_app(db, limits=LeagueLimits(limit_loopback=False), house_games=False)
    store = app.state.store
    with uvicorn_thread(app, "the league", ws="websockets-sansio") as url:
        ada = join(url, "ada")
        started = challenge(url, ada, "house-random")
        assert started.status == 201 and started.body["color"] == "x", started
        game = started.body["game"]
        written = True
        while True:
            now = wait_until(functools.partial(turn_or_end, url, game), 60, "ada's turn")
            if now["status"] != "playing":
                break
            position = Position.from_fen(now["fen"])
            if position.plies_left <= 2 and written:  # the store stops taking writes
                with store.database.lock:
                    store.db.execute("PRAGMA query_only = ON")
                written = False
            move = position.legal_moves()[0]
            played = request(
                f"{url}/api/league/games/{game}/move", "POST", {"move": move}, token=ada
            )
            assert played.status == 200, played
        with store.database.lock:
            store.db.execute("PRAGMA query_only = OFF")
        wait_until(lambda: request(f"{url}/api/league/health").status == 200, 60, "writes to work")
        shown = state(url, game)  # before the rule: 400, "result '*' contradicts ..."
        assert shown["status"] == "aborted" and shown["result"] is None, shown
        assert Position.from_fen(shown["fen"]).is_over  # its end was reached, not kept
        record = request(f"{url}/api/league/games/{game}/record", raw=True)
        assert record.status == 200 and '[Termination "abandoned"]' in record.body
    with LeagueStore(db, create=False) as stored:
        kept = stored.games.game(game)
        assert kept is not None and kept.status == "aborted"
        assert kept.plies == len(shown["moves"]) > 0
        assert_replays(kept)
        assert kept.record is not None
        path = tmp_path / "game.txt"
        path.write_text(kept.record)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0, capsys.readouterr()
