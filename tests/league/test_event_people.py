"""People in a class event, through the real server: the teacher opens an event of two
house bots to people, a person joins it from the API their play page uses (and leaves
and joins again), the event starts, the person's event games appear in ``/me`` as any
game of theirs does and are played to the end by their moves, on the event's clock,
and the event's table counts them; a person who joined and never opens the play page
loses each game by absence at once; joining after the start, joining an event closed
to people and leaving an event one is not in are refused with their codes, changing
nothing. Without a page a person is never taken into the ladder, and while in a running
event they challenge nobody (its games come first)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.league.events.event_standings import BYE_POINTS
from adjacency.league.events.event_store import MAX_PEOPLE, EntryRefused
from adjacency.league.league_file import LeagueStore
from adjacency.league.play import scheduler as scheduler_module
from adjacency.league.play.hall import Hall
from adjacency.league.store.schema import EVENT_PEOPLE, STORE_SCHEMA
from adjacency.serving.details import render
from adjacency.serving.errors import NotNow
from cli_helpers import run
from hall_helpers import run as run_hall
from league_helpers import (
    ADMIN,
    add_member,
    challenge,
    join,
    make_league,
    me,
    request,
    wait_until,
)
from store_helpers import undo_league_steps

LEAGUE = {"base": 60.0, "increment": 0.0, "rounds": 4}
"""Short games (4 rounds a side) on a clock nobody runs out of."""

WAIT = 50.0
"""Seconds any one wait may take (a guard against hangs only)."""


def _event(url: str, name: str, people: bool = True, clock: str = "40+0") -> None:
    body = {"name": name, "format": "round-robin", "members": ["h1", "h2"], "people": people,
            "clock": clock}  # fmt: skip
    answer = request(f"{url}/api/league/admin/events", "POST", body, ADMIN)
    assert answer.status == 201, answer


def _entry(url: str, name: str, action: str, secret: str) -> Any:
    return request(f"{url}/api/league/events/{name}/{action}", "POST", {}, token=secret)


def _table(url: str, name: str) -> dict[str, Any]:
    answer = request(f"{url}/api/league/events/{name}")
    assert answer.status == 200, answer
    return dict(answer.body)


def test_a_person_joins_an_event_and_plays_its_games_to_the_end(
    league: tuple[str, Path],
) -> None:
    url, db = league
    add_member(db, "h1", "house", "random")
    add_member(db, "h2", "house", "greedy")
    ada = join(url, "ada")
    _event(url, "open")
    _event(url, "bots", people=False)
    closed = _entry(url, "bots", "join", ada)
    assert closed.status == 409 and closed.body["code"] == "event_closed", closed
    assert _entry(url, "open", "leave", ada).body["code"] == "event_not_joined"
    seen = request(f"{url}/api/league/events/open/entry", token=ada).body
    assert (seen["people"], seen["joined"], seen["status"]) == (True, False, "scheduled")
    joined = _entry(url, "open", "join", ada)
    assert joined.status == 200 and joined.body["joined"] and joined.body["people_joined"] == 1
    assert _entry(url, "open", "join", ada).body["people_joined"] == 1  # twice: still one
    assert not _entry(url, "open", "leave", ada).body["joined"]
    assert _entry(url, "open", "join", ada).body["joined"]
    info = wait_until(lambda: _table(url, "open")["event"], WAIT, "the table")
    assert info["people"] and info["people_joined"] in (0, 1)  # shared for half a second
    assert me(url, ada)["games"] == []  # ada's play page is open: she is there
    started = request(f"{url}/api/league/admin/events/open/start", "POST", {}, ADMIN)
    assert started.status == 200, started
    late = _entry(url, "open", "join", join(url, "bob"))
    assert late.status == 409 and late.body["code"] == "event_started", late
    assert _entry(url, "open", "leave", ada).body["code"] == "event_started"
    wait_until(  # three members, the person among them: three rounds (the table is
        lambda: _table(url, "open")["event"]["rounds"] == 3, WAIT, "three rounds"
    )  # shared for half a second)

    played: set[int] = set()

    def play() -> bool:
        """Play ada's move in each of her games where it is her turn; whether the event
        finished."""
        for game in me(url, ada)["games"]:
            played.add(game)
            state = request(f"{url}/api/league/games/{game}").body
            assert state["time_control"] == "40+0"  # the event's own clock
            color = "x" if state["x"] == "ada" else "o"
            if state["status"] == "playing" and state["turn"] == color:
                # While ada plays here she challenges nobody: asked before her move, as
                # her own move may end the event's last game (and the event with it).
                refused = challenge(url, ada, "h1")
                assert refused.status == 409, refused
                assert refused.body["code"] in ("in_event", "playing_already"), refused
                move = Position.from_fen(state["fen"]).legal_moves()[0]
                answer = request(f"{url}/api/league/games/{game}/move", "POST", {"move": move},
                                 token=ada)  # fmt: skip
                assert answer.status in (200, 409), answer  # 409: her game ended meanwhile
        return bool(_table(url, "open")["event"]["status"] == "finished")

    wait_until(play, WAIT, "ada's event games to be played to the end")
    assert len(played) == 4  # two boards against the two bots, both colours each
    table = _table(url, "open")
    rows = {r["name"]: r for r in table["standings"]}
    assert set(rows) == {"h1", "h2", "ada"}
    assert all(rows[name]["games"] == 4 for name in rows)
    assert all(rows[name]["byes"] == 1 for name in rows)  # three members: a bye a round
    total = sum(r["points"] for r in rows.values())
    assert total == pytest.approx(6.0 + 3 * BYE_POINTS)  # 6 games decided, 3 byes
    with LeagueStore(db) as store:
        event = store.events.named("open")
        games = [store.games.game(i) for i in store.events.game_ids(event.id)]
        person = store.members.member_named("ada").id
    mine = [g for g in games if g is not None and person in (g.x_id, g.o_id)]
    assert len(mine) == 4 and all(g.termination == "normal" and g.plies > 0 for g in mine)


def test_a_person_who_never_opens_the_page_loses_by_absence(
    league: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ghost joins from another page's secret and never asks ``/me``: each of its four
    games ends at once as its loss (detail ``absent-page-closed``: their play page was
    not open, not a bot's "not connected"; no move), told so by the game's API and
    record, and the bots' games are played."""
    monkeypatch.setattr(scheduler_module, "RECONNECT_GRACE", 0.0)  # nobody reconnects here
    url, db = league
    add_member(db, "h1", "house", "random")
    add_member(db, "h2", "house", "greedy")
    ghost = join(url, "ghost")
    _event(url, "cup")
    assert _entry(url, "cup", "join", ghost).status == 200
    assert request(f"{url}/api/league/admin/events/cup/start", "POST", {}, ADMIN).status == 200
    wait_until(lambda: _table(url, "cup")["event"]["status"] == "finished", WAIT, "the end")
    rows = {r["name"]: r for r in _table(url, "cup")["standings"]}
    # its four forfeits lost, and no points for its bye: it was absent from every game
    assert rows["ghost"]["points"] == 0.0
    assert (rows["ghost"]["games"], rows["ghost"]["unplayed"]) == (0, 4)
    with LeagueStore(db) as store:
        event = store.events.named("cup")
        games = [store.games.game(i) for i in store.events.game_ids(event.id)]
        person = store.members.member_named("ghost").id
    lost = [g for g in games if g is not None and person in (g.x_id, g.o_id)]
    assert len(lost) == 4
    for game in lost:
        assert game.plies == 0 and game.termination == "time forfeit"
        assert game.detail_code == "absent-page-closed"  # not a bot's "not connected"
        assert game.end_detail().params == {"player": "ghost"}
    told = request(f"{url}/api/league/games/{lost[0].id}").body
    said = "ghost's play page was not open when the game was to start: a forfeit"
    assert (told["detail"], told["detail_code"]) == (said, "absent-page-closed"), told
    record = request(f"{url}/api/league/games/{lost[0].id}/record", raw=True).body
    assert f'[TerminationDetail "{said}"]' in record
    assert render("absent-page-closed", {"player": "ghost"}, "id") == (
        "halaman bermain ghost tidak terbuka saat permainan akan dimulai: kalah tanpa bermain"
    )
    cross = _table(url, "cup")["crosstable"]  # still games an absence decided
    g = cross["names"].index("ghost")
    assert [cross["absent"][g][b] for b in range(3) if b != g] == [2, 2]


def test_two_absent_people_both_lose_their_game_in_words_that_fit_people(
    league: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ghost and shade join and never open the play page: their game against each other
    is lost by both (detail ``absent-both``), said in words that fit people as well as
    bots (not only "was connected"), in English through the API and in Indonesian."""
    monkeypatch.setattr(scheduler_module, "RECONNECT_GRACE", 0.0)  # nobody reconnects here
    url, db = league
    add_member(db, "h1", "house", "random")
    add_member(db, "h2", "house", "greedy")
    _event(url, "cup")
    for name in ("ghost", "shade"):
        assert _entry(url, "cup", "join", join(url, name)).status == 200
    assert request(f"{url}/api/league/admin/events/cup/start", "POST", {}, ADMIN).status == 200
    wait_until(lambda: _table(url, "cup")["event"]["status"] == "finished", WAIT, "the end")
    games = request(f"{url}/api/league/games?member=ghost").body
    both = [g for g in games if {g["x"], g["o"]} == {"ghost", "shade"}]
    assert len(both) == 2, games  # both legs
    for game in both:
        assert game["detail_code"] == "absent-both", game
        x, o = game["x"], game["o"]
        assert game["detail"] == (
            f"neither {x} nor {o} was there when the game was to start "
            "(not connected, or their play page not open): both lose"
        )
        assert render("absent-both", {"x": x, "o": o}, "id") == (
            f"{x} maupun {o} tidak hadir saat permainan akan dimulai "
            "(tidak terhubung, atau halaman bermainnya tidak terbuka): keduanya kalah"
        )


def test_the_store_refuses_a_full_event_keeps_its_people_through_an_edit_and_closes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Created open on the command line (``--people``, said by ``event show``); the
    41st person is refused (``event_full``), nothing changed; an edit naming the bots
    again keeps the people who joined (seeded after the bots), and one that closes the
    event takes them out."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    status, out, _ = run(capsys, "league", "event", "create", "--db", str(db), "cls",
                         "--format", "round-robin", "--members", "h1,h2", "--people")  # fmt: skip
    assert status == 0 and "people may join it" in out, out
    with LeagueStore(db) as store:
        events = store.events
        people = [store.members.add_member(f"p{i}", "person")[0] for i in range(MAX_PEOPLE + 1)]
        for person in people[:MAX_PEOPLE]:
            events.join("cls", person)
        with pytest.raises(EntryRefused) as refused:
            events.join("cls", people[-1])
        assert refused.value.code == "event_full" and refused.value.status == 409
        event = events.named("cls")
        assert events.people_in(event.id) == MAX_PEOPLE
        events.edit("cls", "cls", "round-robin", None, ["h2", "h1", "p0"], people=None)
        ids = events.members(event.id)
        assert ids[:2] == [store.members.member_named(n).id for n in ("h2", "h1")]
        assert ids[2:] == [p.id for p in people[:MAX_PEOPLE]]
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "cls")
    assert status == 0 and f"open to people ({MAX_PEOPLE} joined)" in out, out
    with LeagueStore(db) as store:
        events = store.events
        closed = events.edit("cls", "cls", "round-robin", None, ["h1", "h2"], people=False)
        assert not closed.people and events.members(closed.id) == [1, 2]
        with pytest.raises(EntryRefused) as refused:
            events.join("cls", people[0])
        assert refused.value.code == "event_closed"


def test_a_league_file_of_the_version_before_keeps_its_events_for_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file as the version before events open to people wrote it (no ``people``
    column, ``user_version`` before its step) opens, is upgraded, and its event is for
    bots only: a person's join is refused (``event_closed``)."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("old", "round-robin", None, ["h1", "h2"])
        person = store.members.add_member("ada", "person")[0]
    undo_league_steps(db, EVENT_PEOPLE)  # its step and every later one undone
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "old")
    assert status == 0 and "open to people" not in out, out
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA.version
    raw.close()
    with LeagueStore(db) as store:
        assert not store.events.named("old").people
        with pytest.raises(EntryRefused) as refused:
            store.events.join("old", person)
        assert refused.value.code == "event_closed"


def test_a_person_in_a_running_event_challenges_nobody_and_nobody_challenges_them(
    tmp_path: Path,
) -> None:
    """Paused as soon as it started, the event starts no game, yet its person is one of
    its members: their challenge is refused (``in_event``), and so is another person's
    challenge of them (``opponent_busy``); the ladder pairs nobody with them."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        for name in ("h1", "h2", "h3"):
            store.members.add_member(name, "house", "random")
        ada, bob = (store.members.add_member(n, "person")[0] for n in ("ada", "bob"))
        h3 = store.members.member_named("h3")
        events = store.events
        events.create("cup", "round-robin", None, ["h1", "h2"], people=True)
        events.join("cup", ada)
        events.start("cup")
        events.pause("cup")
        for person in (ada, bob):
            hall.presence.see(person)
        assert hall.scheduler.pair() == []  # paused: no game of it, none of the ladder's
        assert ada.id in hall.desk.in_events
        with pytest.raises(NotNow) as refused:
            hall.desk.challenge(ada, h3)
        assert refused.value.code == "in_event"
        with pytest.raises(NotNow) as busy:
            hall.desk.challenge(bob, ada)
        assert busy.value.code == "opponent_busy"
        events.resume("cup")
        started = hall.scheduler.pair()
        assert started and all(g.pair_id is not None for g in started)  # the event's only

    run_hall(scenario, tmp_path)


def test_a_person_in_an_event_is_not_expired_nor_deleted(tmp_path: Path) -> None:
    """A person who joined an event and never played keeps their account when the
    people who never played expire, and a removal keeps them as removed (their place in
    the event is a row of theirs); a person in no event expires."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("cls", "round-robin", None, ["h1", "h2"], people=True)
        ada, bob = (store.members.add_member(n, "person")[0] for n in ("ada", "bob"))
        store.events.join("cls", ada)
        assert store.members.expire_people(time.time() + 60) == ["bob"]
        assert store.members.remove("ada")[1] is False  # kept, as removed
        assert store.events.members(store.events.named("cls").id) == [1, 2, ada.id]
        assert bob.id not in store.members.names([bob.id])


def test_a_persons_queued_challenge_is_cancelled_when_their_event_starts(
    league: tuple[str, Path],
) -> None:
    """ada waits in the queue of h1 (busy with bob's game); her event starts: her
    challenge ends at once, cancelled, saying why (``challenger-in-event``), though h1
    is still busy; bob's game and place are untouched."""
    url, db = league
    for name in ("h1", "h2", "h3"):
        add_member(db, name, "house", "random")
    ada, bob = join(url, "ada"), join(url, "bob")
    body = {"name": "cup", "format": "round-robin", "members": ["h2", "h3"], "people": True,
            "clock": "40+0"}  # fmt: skip
    assert request(f"{url}/api/league/admin/events", "POST", body, ADMIN).status == 201
    assert _entry(url, "cup", "join", ada).status == 200
    busy = challenge(url, bob, "h1")
    assert busy.status == 201 and busy.body["status"] == "started", busy
    queued = challenge(url, ada, "h1")
    assert queued.status == 202 and queued.body["status"] == "queued", queued
    number = queued.body["challenge"]

    def seen() -> dict[str, Any]:
        me(url, ada)  # her play page asks as it does while open
        answer = request(f"{url}/api/league/challenges/{number}", token=ada)
        assert answer.status == 200, answer
        return dict(answer.body)

    assert seen()["status"] == "queued"  # before the start she keeps her place
    assert request(f"{url}/api/league/admin/events/cup/start", "POST", {}, ADMIN).status == 200
    ended = wait_until(lambda: s if (s := seen())["status"] != "queued" else None, WAIT, "the end")
    assert ended["status"] == "cancelled", ended
    assert (ended["detail_code"], ended["detail"]) == (
        "challenger-in-event",
        "your event started: its games come first; challenge again after it",
    ), ended
    live = request(f"{url}/api/league/live").body
    assert ("bob", "h1") in {(g["x"], g["o"]) for g in live} | {(g["o"], g["x"]) for g in live}
