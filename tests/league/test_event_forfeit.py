"""A game never played because a team withdrew after its round was paired is a forfeit,
through a real league server (house bots play the event): the team still in scores it
as a win, the withdrawn team as a loss, and every view and export marks it unplayed:
the table (its ``unplayed`` column, no game counted), the crosstable (the points in the
cell, marked ``ff``), the rounds, the page read without JavaScript, ``table.json``'s
``unplayed`` list, ``table.csv`` and ``crosstable.csv``; ``games.txt`` holds only games
that were played."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from adjacency.league.events.event_pairing import round_robin
from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, make_league, request, thread_server, wait_until

pytestmark = pytest.mark.xdist_group("league-teacher")

HOUSE = ("h1", "h2", "h3", "h4")


def paired_league(tmp_path: Path) -> tuple[Path, str]:
    """A round robin of four house bots, started, its first round paired and the event
    paused (so no game of it starts before the withdrawal); returns the league file and
    the member h4 was paired with in round 1."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        events = store.events
        event = events.create("cup", "round-robin", None, list(HOUSE))
        events.start("cup")
        members = events.members(event.id)
        boards = round_robin(members)[0]
        openings = len(store.meta.settings().openings)
        assert events.add_round(event.id, 0, boards, openings, set())
        events.pause("cup")
        h4 = store.members.member_named("h4").id
        (board,) = [b for b in boards if h4 in (b.a, b.b)]
        other = board.b if board.a == h4 else board.a
        assert other is not None
        return db, store.members.member(other).name


def test_a_withdrawal_after_pairing_is_a_forfeit_win_marked_unplayed_everywhere(
    tmp_path: Path,
) -> None:
    db, opponent = paired_league(tmp_path)
    with thread_server(db, house_games=False) as url:
        admin = f"{url}/api/league/admin/events/cup"
        withdrawn = request(f"{admin}/withdraw", "POST", {"member": "h4"}, ADMIN)
        assert withdrawn.status == 200, withdrawn
        assert request(f"{admin}/resume", "POST", {}, ADMIN).status == 200
        api = f"{url}/api/league/events/cup"
        wait_until(lambda: request(api).body["event"]["status"] == "finished", 60, "the end")
        data = request(api).body
        files = {
            name: request(f"{api}/{name}", raw=True).body
            for name in ("table.json", "table.csv", "crosstable.csv", "games.txt")
        }
        page = request(f"{url}/event/cup", raw=True).body

    rows = {r["name"]: r for r in data["standings"]}
    assert rows["h4"]["withdrawn"] and rows["h4"]["games"] == 0
    assert (rows["h4"]["points"], rows["h4"]["unplayed"]) == (0.0, 2)
    assert rows[opponent]["unplayed"] == 2
    # the opponent's points: 2 forfeit wins and its played games' points
    with LeagueStore(db) as store:
        event = store.events.named("cup")
        me = store.members.member_named(opponent).id
        played = [store.games.game(i) for i in store.events.game_ids(event.id)]
    won = sum(g.points(me) for g in played if g is not None and me in (g.x_id, g.o_id))
    assert rows[opponent]["points"] == 2.0 + won
    assert rows[opponent]["games"] == 4  # two in each later round, none against h4
    for name, row in rows.items():
        if name not in ("h4", opponent):
            assert row["unplayed"] == 0 and row["games"] == 4

    cross = data["crosstable"]
    i, j = cross["names"].index(opponent), cross["names"].index("h4")
    assert cross["cells"][i][j] == [2.0, 2] and cross["cells"][j][i] == [0.0, 2]
    assert cross["unplayed"][i][j] == 2 and cross["unplayed"][j][i] == 2
    assert cross["games"][i][j] == [] and cross["absent"][i][j] == 0
    assert sum(map(sum, cross["unplayed"])) == 4  # only that pair's, both ways

    (board,) = [b for b in data["rounds"][0] if "h4" in (b["a"], b["b"])]
    assert board["unplayed"] == [True, True]
    assert board["games"] == ([1.0, 0.0] if board["a"] == opponent else [0.0, 1.0])
    assert all(not any(b["unplayed"]) for r in data["rounds"] for b in r if b is not board)
    assert len(data["rounds"]) == 3 and all(len(r) == 1 for r in data["rounds"][1:])

    exported = json.loads(files["table.json"])
    assert exported["standings"] == data["standings"]
    unplayed = exported["unplayed"]
    assert [(u["round"], u["leg"], u["termination"]) for u in unplayed] == [
        (1, 0, "unplayed"),
        (1, 1, "unplayed"),
    ]
    for u in unplayed:
        assert {u["x"], u["o"]} == {"h4", opponent}
        assert u["result"] == ("1-0" if u["x"] == opponent else "0-1")
        assert "h4 withdrew after the round was paired" in u["detail"]
    assert all("h4" not in (g["x"], g["o"]) for g in exported["games"])
    assert len(exported["games"]) == 6 and files["games.txt"].count('[Round "') == 6
    assert "h4" not in files["games.txt"]

    table = {r["name"]: r for r in csv.DictReader(io.StringIO(files["table.csv"]))}
    assert (table["h4"]["unplayed"], table["h4"]["games"], table["h4"]["withdrawn"]) == (
        "2", "0", "yes",
    )  # fmt: skip
    assert table[opponent]["unplayed"] == "2"
    crossed = list(csv.reader(io.StringIO(files["crosstable.csv"])))
    header = crossed[0]
    by_name = {r[0]: r for r in crossed[1:]}
    assert header[-3:] == ["unplayed", "byes", "versions"]
    assert by_name[opponent][header.index("h4")] == "2"
    assert by_name[opponent][header.index("unplayed")] == "2"
    assert by_name["h4"][header.index("unplayed")] == "2"

    assert "2–0 ff" in page and "0–2 ff" in page  # the page without JavaScript
    assert "a forfeit of a team withdrawn" in page
