"""An absent team is not waited for, through a real ``adjacency league serve`` process
and a real ``adjacency connect`` client: in an event whose member ``ghost`` never
connects, each of its games ends as its loss as soon as the game is to start (time
forfeit, detail ``absent``, no move played, nobody asked to move), not after its whole
clock has run; the team that is there wins and is never asked for a move it could not
send. Such a game is a forfeit, as FIDE scores one: unrated, and in the event's table,
crosstable and exports scored as a win for red but never played."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from adjacency.sandbox.pressure import PRESSURE_ENV
from league_helpers import (
    add_member,
    make_league,
    request,
    start_client,
    start_server,
    wait_until,
)

pytestmark = pytest.mark.slow

WAIT = 45.0
"""Seconds any one wait may take (a guard against hangs only: less than the two games'
clocks, which an absent team's games took to end before)."""


def test_an_absent_members_event_games_are_its_losses_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PRESSURE_ENV, "none")  # a quiet machine's grace: 10 s of wall time
    db = tmp_path / "league.db"
    make_league(db, base=60.0)  # waiting out one clock alone would pass the guard
    token = add_member(db, "red")
    add_member(db, "ghost")  # never connects
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["red", "ghost"])
        store.events.start("friday")
    server = start_server(db, 0, tmp_path / "server.log")
    client = start_client(server.url, token, "greedy", tmp_path / "red.log")
    try:

        def finished() -> bool:
            with LeagueStore(db) as store:
                return store.events.named("friday").status == "finished"

        wait_until(finished, WAIT, "the event to finish")
        wait_until(lambda: client.text().count(" ended: ") == 2, WAIT, "red to hear both ends")
        api = f"{server.url}/api/league/events/friday"
        data = request(api).body
        files = {n: request(f"{api}/{n}", raw=True).body for n in ("table.json", "crosstable.csv")}
        page = request(f"{server.url}/event/friday", raw=True).body
    finally:
        client.stop()
        server.stop()

    with LeagueStore(db) as store:
        red, ghost = store.members.member_named("red").id, store.members.member_named("ghost").id
        event = store.events.named("friday")
        games = [store.games.game(i) for i in store.events.game_ids(event.id)]
    assert len(games) == 2
    for game in games:
        assert game is not None and game.plies == 0
        assert game.termination == "time forfeit" and game.points(red) == 1
        assert game.points(ghost) == 0 and (game.x_time, game.o_time) == (0.0, 0.0)
        assert game.detail_code == "absent"
        assert game.detail == "ghost was not connected when the game was to start: a forfeit"
        assert game.rated_seq is None  # a forfeit rates nobody
    text = client.text()
    assert "server:" not in text and "Traceback" not in text  # no move refused, no error
    assert text.count("(time forfeit) ghost was not connected when the game was to start") == 2
    log = (tmp_path / "server.log").read_text()
    assert log.count("won (time forfeit: ghost was not connected") == 2, log

    # the event scores both games as forfeits: red's wins, never played
    rows = {r["name"]: r for r in data["standings"]}
    assert (rows["red"]["points"], rows["red"]["unplayed"], rows["red"]["games"]) == (2, 2, 0)
    assert (rows["ghost"]["points"], rows["ghost"]["unplayed"], rows["ghost"]["losses"]) == (
        0, 2, 0,
    )  # fmt: skip
    cross = data["crosstable"]
    r, g = cross["names"].index("red"), cross["names"].index("ghost")
    assert cross["cells"][r][g] == [2, 2] and cross["unplayed"][r][g] == 2
    assert cross["absent"][r][g] == 2
    assert [b["unplayed"] for b in data["rounds"][0]] == [[True, True]]
    unplayed = json.loads(files["table.json"])["unplayed"]
    assert sorted(u["result"] for u in unplayed) == ["0-1", "1-0"]
    for u in unplayed:
        assert u["termination"] == "unplayed"
        assert u["detail"] == "forfeit: ghost was absent when the game was to start"
        assert u["result"] == ("1-0" if u["x"] == "red" else "0-1")
    crossed = list(csv.reader(io.StringIO(files["crosstable.csv"])))
    header, by_name = crossed[0], {row[0]: row for row in crossed[1:]}
    assert by_name["red"][header.index("unplayed")] == "2"
    assert "2–0 abs ff" in page and "0–2 abs ff" in page  # the page without JavaScript
