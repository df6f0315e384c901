"""Two absent teams, through a real ``adjacency league serve`` process and a real
``adjacency connect`` client: in a round robin of ``red`` (connected) and ``ghost`` and
``shade`` (never connected), each game of ghost against shade ends at once as a loss
for both (stored aborted with detail ``absent-both``: no result, no rating, no points in
the league's totals), not as a 1-1 split decided by whose clock ran first. Every game
an absence decided is a forfeit: unrated (ghost's and shade's losses to red too), and
in the event's table (HTTP, text of ``event show``) scored but not played (no games,
wins or losses; counted ``unplayed``), the pair both were absent for scoring nothing,
and marked both as an absence's and as unplayed. The teacher's overview says who is
paused for missing its last two games while its bot is away.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.league.event_results.event_views import render_text, table
from adjacency.league.league_file import LeagueStore
from adjacency.sandbox.pressure import PRESSURE_ENV
from league_helpers import (
    ADMIN,
    add_member,
    make_league,
    paused_after_double_absence,
    request,
    start_client,
    start_server,
    thread_server,
    wait_until,
)

pytestmark = pytest.mark.slow

WAIT = 45.0
"""Seconds any one wait may take (a guard against hangs only)."""


def test_two_absent_teams_both_lose_at_once_and_score_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PRESSURE_ENV, "none")  # a quiet machine's grace: 10 s of wall time
    db = tmp_path / "league.db"
    make_league(db, base=60.0)  # the clock that decided the 1-1 split before is long
    token = add_member(db, "red")
    add_member(db, "ghost")
    add_member(db, "shade")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["red", "ghost", "shade"])
        store.events.start("friday")
    server = start_server(db, 0, tmp_path / "server.log")
    url = server.url
    client = start_client(url, token, "greedy", tmp_path / "red.log")
    try:

        def finished() -> bool:
            with LeagueStore(db) as store:
                return store.events.named("friday").status == "finished"

        wait_until(finished, WAIT, "the event to finish")
        data = request(f"{url}/api/league/events/friday").body
    finally:
        client.stop()
        server.stop()

    with LeagueStore(db) as store:
        ghost, shade = (
            store.members.member_named("ghost").id,
            store.members.member_named("shade").id,
        )
        event = store.events.named("friday")
        both = [
            g
            for g in store.games.games(status="aborted")
            if {g.x_id, g.o_id} == {ghost, shade} and g.detail_code == "absent-both"
        ]
        assert len(both) == 2  # both legs of their pair, nobody asked to move
        for game in both:
            assert game.plies == 0 and game.result is None and game.rated_seq is None
            x, o = store.members.member(game.x_id), store.members.member(game.o_id)
            assert game.detail == (
                f"neither {x.name} nor {o.name} was there when the game was to start "
                f"(not connected, or their play page not open): both lose"
            )
        played = [store.games.game(i) for i in store.events.game_ids(event.id)]
        assert all(g is not None and {g.x_id, g.o_id} != {ghost, shade} for g in played)
        # forfeits rate nobody: not the losses to red either
        assert not [h for m in (ghost, shade) for h in store.ratings.history(m)]
        assert len(played) == 4 and all(g is not None and g.rated_seq is None for g in played)
        text = render_text(table(store, event))

    rows = {r["name"]: r for r in data["standings"]}
    # three in a round robin: a bye each (2 points), the rest from games
    # three in a round robin: a bye each, the rest from forfeits, no game played; the
    # bye of a team never there scores nothing (red's scores 2)
    assert rows["red"]["points"] == 4 + 2 and rows["red"]["unplayed"] == 4
    assert (rows["red"]["games"], rows["red"]["wins"]) == (0, 0)
    for name in ("ghost", "shade"):
        assert rows[name]["points"] == 0 and rows[name]["unplayed"] == 4
        assert rows[name]["byes"] == 1
        assert (rows[name]["games"], rows[name]["wins"], rows[name]["losses"]) == (0, 0, 0)
    cross = data["crosstable"]
    at = {name: i for i, name in enumerate(cross["names"])}
    g, s, r = at["ghost"], at["shade"], at["red"]
    assert cross["cells"][g][s] == [0, 2] and cross["cells"][s][g] == [0, 2]
    assert cross["absent"][g][s] == 2 and cross["absent"][g][r] == 2
    assert cross["absent"][r][g] == 2 and cross["absent"][r][r] == 0
    assert cross["unplayed"][g][s] == 2 and cross["unplayed"][r][g] == 2
    crosstable = text[text.index("Crosstable") :]
    line = next(x for x in crosstable.splitlines() if " ghost " in x)
    assert line.count(" 0/2 abs ff") == 2  # against red and against shade, spaced
    assert cross["byes"][g] == 0 and cross["byes"][r] == 2

    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log


def test_the_overview_names_the_teams_paused_for_their_absence(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    assert set(paused_after_double_absence(db)) == {"ghost", "shade"}  # red has the bye
    with thread_server(db) as url:
        listed = request(f"{url}/api/league/admin/overview", token=ADMIN).body["events"]
        data = request(f"{url}/api/league/events/cup").body
    members = {m["name"]: m["absent"] for m in listed[0]["members"]}
    assert members == {"red": False, "ghost": True, "shade": True}
    cross = data["crosstable"]
    at = {name: i for i, name in enumerate(cross["names"])}
    assert cross["cells"][at["ghost"]][at["shade"]] == [0, 2]
    assert cross["absent"][at["shade"]][at["ghost"]] == 2
    assert [b["games"] for b in data["rounds"][0] if b["b"]] == [[None, None]]
