"""A full disk, through a real uvicorn league server with a bot on a
WebSocket: the server's own SQLite connection is capped with ``PRAGMA
max_page_count`` (SQLite then fails writes with "database or disk is full", as on a
full filesystem). Then

* the league turns *degraded* on ``/api/league/health`` (503, the store's reason) and
  stops pairing; the failure is logged once, without a traceback;
* no client is told a result that was not stored: every result the bot heard is the
  stored one; a game whose end could not be stored is reported aborted, and stored as
  aborted once writes work again;
* when writes work again the league is ``ok`` and pairs again by itself, and the
  teacher's log, which could not be written meanwhile, has the lines logged while the
  disk was full (its writer kept them and went on).
"""

from __future__ import annotations

import json
import logging
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from adjacency.core import Position
from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.log_rows import LogRepo
from league_helpers import add_member, make_league, request, wait_until
from web_helpers import uvicorn_thread

GUARD = 60.0
"""Seconds any one wait may take (a guard against hangs only)."""


class Bot:
    """A bot on the league's WebSocket that plays random legal moves and keeps every
    ``game_start`` and ``game_end`` it hears."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.replace("http://", "ws://") + "/api/league/connect"
        self.token = token
        self.heard: list[dict[str, Any]] = []
        self.stop = threading.Event()
        self.hold = threading.Event()
        """While set, the bot keeps the turns it is given (:attr:`held`) unanswered."""
        self.held: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        rng = random.Random(7)
        headers = {"Authorization": f"Bearer {self.token}"}
        with connect(self.url, additional_headers=headers) as socket:
            while not self.stop.is_set():
                try:
                    message = json.loads(socket.recv(timeout=0.2))
                except TimeoutError:
                    message = {"type": "nothing"}
                if message["type"] in ("game_start", "game_end"):
                    self.heard.append(message)
                elif message["type"] == "your_turn":
                    self.held.append(message)
                while self.held and not self.hold.is_set():
                    turn = self.held.pop(0)
                    move = rng.choice(Position.from_fen(turn["fen"]).legal_moves())
                    socket.send(json.dumps({"type": "move", "game": turn["game"], "move": move}))

    def ends(self) -> list[dict[str, Any]]:
        return [m for m in self.heard if m["type"] == "game_end"]

    def starts(self) -> int:
        return sum(m["type"] == "game_start" for m in self.heard)


def health(url: str) -> tuple[int, dict[str, Any]]:
    answer = request(f"{url}/api/league/health")
    return answer.status, answer.body


def cap(app: Any, pages: int | None) -> None:
    """Cap the server's database at ``pages`` pages (``None``: its current size, so it
    cannot grow), on the server's own connection under its lock."""
    store = app.state.store
    with store.database.lock:
        if pages is None:
            pages = int(store.db.execute("PRAGMA page_count").fetchone()[0])
        store.db.execute(f"PRAGMA max_page_count = {int(pages)}")


def test_a_full_disk_degrades_the_league_loses_no_result_and_it_recovers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "tester")
    add_member(db, "house-random", "house", "random")
    app = create_app(db, limits=LeagueLimits(limit_loopback=False))
    caplog.set_level(logging.DEBUG, logger="adjacency.league")
    with uvicorn_thread(app, "the league", ws="websockets-sansio") as url:
        assert health(url) == (
            200,
            {"status": "ok", "reason": None, "since": None, "pairing": True, "unstored": 0},
        )
        bot = Bot(url, token)
        wait_until(lambda: len(bot.ends()) >= 2, GUARD, "two games to end")

        cap(app, None)  # the disk is full
        _, body = wait_until(
            lambda: (answer := health(url))[0] == 503 and answer, GUARD, "the league to degrade"
        )
        assert body["status"] == "degraded" and not body["pairing"]
        assert "database or disk is full" in body["reason"]
        # pairing stops: once the game in play (if any) ended, none starts
        wait_until(lambda: request(f"{url}/api/league/live").body == [], GUARD, "no game in play")
        started = bot.starts()

        def retries() -> int:  # the degraded scheduler's tries to write, one per pass due
            return sum(r.getMessage().startswith("writes still fail") for r in caplog.records)

        seen = retries()
        wait_until(lambda: retries() >= seen + 2, GUARD, "two more tries to write")
        assert bot.starts() == started  # the scheduler ran all the while and paired nobody
        assert health(url)[0] == 503
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1, [r.getMessage() for r in errors]
        assert "degraded" in errors[0].getMessage() and errors[0].exc_info is None

        cap(app, 1 << 30)  # space again: the league resumes by itself
        wait_until(lambda: health(url)[0] == 200, GUARD, "the league to recover")
        app.state.recent_log.flush()
        with LeagueStore(db, create=False) as store:
            kept = [line.message for line in LogRepo(store.database).lines(most=500)]
        assert any("the league is degraded" in m for m in kept), kept[-5:]
        resumed = len(bot.ends())
        wait_until(lambda: len(bot.ends()) >= resumed + 2, GUARD, "games after the recovery")
        bot.stop.set()
        bot.thread.join(GUARD)
    # one error line for the whole failure spell, one warning when writes work again,
    # no traceback anywhere
    loud = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records if r.levelno >= 30]
    assert [level for level, _, _ in loud] == ["ERROR", "WARNING"], loud
    assert "work again" in loud[1][1] and all(info is None for _, _, info in loud), loud
    with LeagueStore(db, create=False) as store:
        for end in bot.ends():
            stored = store.games.game(end["game"])
            assert stored is not None
            if end["termination"] == "aborted":  # not stored while it ended: aborted now
                assert stored.status == "aborted" and stored.result is None, end
            else:  # every result told is the stored one
                assert stored.status == "finished", end
                assert (stored.result, stored.termination) == (end["result"], end["termination"])


def test_a_result_that_cannot_be_stored_is_reported_aborted_and_stored_so_later(
    tmp_path: Path,
) -> None:
    """The end of a game in play meets a store that refuses every write (the server's
    connection made read-only with ``PRAGMA query_only``): the bot hears the game
    aborted, not its result; once writes work, the game is stored aborted with the
    moves it had."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    token = add_member(db, "tester")
    add_member(db, "house-random", "house", "random")
    app = create_app(db, limits=LeagueLimits(limit_loopback=False))
    store = app.state.store
    with uvicorn_thread(app, "the league", ws="websockets-sansio") as url:
        bot = Bot(url, token)
        bot.hold.set()  # the bot sits on its first turn ...
        wait_until(lambda: bot.held, GUARD, "the bot's first turn")
        game_id = bot.held[0]["game"]
        with store.database.lock:  # ... while the store stops taking writes
            store.db.execute("PRAGMA query_only = ON")
        bot.hold.clear()  # the game plays on to its end, which cannot be stored
        end = wait_until(
            lambda: next((m for m in bot.ends() if m["game"] == game_id), None),
            GUARD,
            "the game's end",
        )
        assert end["termination"] == "aborted" and end["result"] is None
        assert "could not store the result" in end["detail"]
        status, body = health(url)
        assert status == 503 and "readonly" in body["reason"] and body["unstored"] == 1
        with store.database.lock:
            store.db.execute("PRAGMA query_only = OFF")
        wait_until(lambda: health(url)[0] == 200, GUARD, "the league to recover")
        bot.stop.set()
        bot.thread.join(GUARD)
    with LeagueStore(db, create=False) as stored:
        game = stored.games.game(game_id)
        assert game is not None and game.status == "aborted" and game.result is None
        assert game.plies > 0 and game.record is not None and game.record.count(".") > 0
