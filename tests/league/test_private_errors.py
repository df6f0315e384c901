"""A bot's failure keeps its error output (its stderr, its files' paths) for its own
team and the teacher: every public surface of a real league server (the game listing,
a game's state, its record, a member's page, the event's table, page and downloads, the
opponent's ``game_end``, the watch page in a real browser, English and Indonesian) tells
the same end without it ("team-red's bot failed"), while the team's own token and the
admin token read it whole, as does the teacher's export on the server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from adjacency.league.event_results.event_views import exports
from adjacency.league.league_file import LeagueStore
from browser_helpers import UNDER_TEST, axe_violations, goto
from league_helpers import (
    ADMIN,
    add_member,
    make_league,
    receive,
    request,
    thread_server,
    wait_until,
)

pytestmark = pytest.mark.xdist_group("league-private-errors")

SECRET = "/home/team-red/secret-folder/bot.py"
ERROR = f'Traceback (most recent call last):\n  File "{SECRET}", line 3\nValueError: boom'
GUARD = 30.0


def fail_one_game(url: str, token: str) -> tuple[int, dict[str, Any]]:
    """Start the event, connect as the team, answer its first turn (its event game: the
    event runs, so no ladder game) with a failure whose words hold :data:`SECRET`; the
    game's id and the team's ``game_end``."""
    started = request(f"{url}/api/league/admin/events/friday/start", "POST", {}, ADMIN)
    assert started.status == 200, started
    ws_url = url.replace("http://", "ws://") + "/api/league/connect"
    with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        turn = receive(ws, "your_turn")
        ws.send(json.dumps({"type": "failed", "game": turn["game"],
                            "termination": "disconnection", "detail": ERROR}))  # fmt: skip
        return int(turn["game"]), receive(ws, "game_end")


def text(url: str, token: str | None = None) -> str:
    answer = request(url, token=token, raw=True)
    assert answer.status == 200, (url, answer)
    return str(answer.body)


def test_public_surfaces_tell_a_failure_without_its_output_its_team_and_teacher_read_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=600.0, increment=0.0)
    add_member(db, "h1", "house", "random")
    red = add_member(db, "team-red")
    blue = add_member(db, "team-blue")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["team-red", "h1"])
    with thread_server(db, house_games=False) as url:
        api = f"{url}/api/league"
        game_id, told_red = fail_one_game(url, red)
        wait_until(
            lambda: request(f"{api}/games/{game_id}").body["status"] == "finished",
            GUARD,
            "the game to be stored",
        )
        games_txt = text(f"{api}/events/friday/games.txt")
        assert '[Round "1"]' in games_txt and "team-red's bot failed" in games_txt
        assert told_red["detail"] == "team-red's bot failed", told_red
        assert told_red["detail_code"] == "bot-failed-public"
        assert told_red["detail_params"] == {"player": "team-red"}
        public = {
            "listing": f"{api}/games",
            "red's listing": f"{api}/games?member=team-red",
            "state": f"{api}/games/{game_id}",
            "record": f"{api}/games/{game_id}/record",
            "member page": f"{api}/members/team-red",
            "event table": f"{api}/events/friday",
            "event page": f"{url}/event/friday",
            **{name: f"{api}/events/friday/{name}" for name in exports_of(db)},
        }
        for what, address in public.items():
            for token in (None, blue, "adjl_not-a-token"):  # anyone, another team, junk
                body = text(address, token)
                assert SECRET not in body and "boom" not in body, (what, token, body[:500])
        state = request(f"{api}/games/{game_id}").body
        assert state["detail"] == "team-red's bot failed"
        assert (state["detail_code"], state["detail_params"]) == (
            "bot-failed-public",
            {"player": "team-red"},
        )
        record = text(f"{api}/games/{game_id}/record")
        assert '[TerminationDetail "team-red\'s bot failed"]' in record
        assert '[DetailCode "bot-failed-public"]' in record
        for token in (red, ADMIN):  # the team itself and the teacher read it whole
            for what in ("state", "record", "member page", "red's listing"):
                body = text(public[what], token)
                assert SECRET in body and "boom" in body, (what, token, body[:500])
            whole = request(public["state"], token=token).body
            assert whole["detail_code"] == "bot-failed"
            assert whole["detail_params"]["error"] == ERROR
    with LeagueStore(db) as store:  # the teacher's export on the server: whole
        event = store.events.named("friday")
        assert game_id in dict(store.events.game_rounds(event.id))  # the event's game
        whole_files = exports(store, event, whole=True)
    assert SECRET in whole_files["games.txt"]


@pytest.mark.browser
@pytest.mark.parametrize(
    ("locale", "words"), [("en-US", "team-red's bot failed"), ("id-ID", "Bot team-red gagal")]
)
def test_the_watch_page_tells_a_failure_without_its_output(
    browser: Any, tmp_path: Path, locale: str, words: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=600.0, increment=0.0)
    add_member(db, "h1", "house", "random")
    red = add_member(db, "team-red")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["team-red", "h1"])
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        game_id, _ = fail_one_game(url, red)
        context = browser.new_context(**UNDER_TEST, locale=locale)
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        goto(page, f"{url}/watch/{game_id}")
        status = page.locator("#status")
        status.wait_for()
        page.wait_for_function(
            "words => document.querySelector('#status').textContent.includes(words)", arg=words
        )
        shown = page.evaluate("document.body.innerText")
        assert SECRET not in shown and "boom" not in shown, shown
        assert axe_violations(page) == []
        context.close()
    assert errors == [], errors


def exports_of(db: Path) -> list[str]:
    with LeagueStore(db) as store:
        return list(exports(store, store.events.named("friday")))
