"""Stand-in moves in the league, through a real ``adjacency league serve`` process and a
real ``adjacency connect`` client whose engine says one answer of each game is not its
bot's own (``info string stand-in``, docs/protocol.md): the client forwards the mark,
the server notes the ply in the stored record's ``StandIns`` tag, and the event's table
(HTTP and ``table.csv``) counts the team's stand-ins in their own column."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

from adjacency.core.record import game_from_text
from adjacency.core.stand_ins import game_counts
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member, make_league, request, start_client, start_server, wait_until

pytestmark = pytest.mark.slow

ENGINE = Path(__file__).resolve().parents[1] / "stand_in_engine.py"
WAIT = 50.0


def test_a_clients_stand_ins_are_in_the_record_and_the_event_table(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=20.0, increment=0.0)
    token = add_member(db, "red")
    add_member(db, "gold", "house", "greedy")
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["red", "gold"])
        store.events.start("cup")
    server = start_server(db, 0, tmp_path / "server.log")
    url = server.url
    client = start_client(url, token, f"cmd:{sys.executable} {ENGINE}", tmp_path / "red.log")
    try:

        def finished() -> bool:
            with LeagueStore(db) as store:
                return store.events.named("cup").status == "finished"

        wait_until(finished, WAIT, "the event to finish")
        data = request(f"{url}/api/league/events/cup").body
        table = request(f"{url}/api/league/events/cup/table.csv", raw=True).body
    finally:
        client.stop()
        server.stop()
    with LeagueStore(db) as store:
        red = store.members.member_named("red").id
        games = [store.games.game(i) for i in store.events.game_ids(store.events.named("cup").id)]
    assert len(games) == 2
    for game in games:
        assert game is not None and game.record is not None and game.termination == "normal"
        x, o = game_counts(game_from_text(game.record))
        assert (x, o) == ((1, 0) if game.x_id == red else (0, 1)), game.record
    rows = {r["name"]: r for r in data["standings"]}
    assert rows["red"]["stand_ins"] == 2 and rows["gold"]["stand_ins"] == 0
    counted = {r["name"]: r["stand_ins"] for r in csv.DictReader(io.StringIO(table))}
    assert counted == {"red": "2", "gold": "0"}
    told = [
        x for x in client.text().splitlines() if x.endswith("is a stand-in, not the bot's own move")
    ]
    for game in games:  # the client says so too (after the event, the ladder may go on)
        assert game is not None and sum(x.startswith(f"game {game.id}: ") for x in told) == 1
