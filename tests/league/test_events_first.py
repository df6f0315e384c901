"""Events first: while an event has a round to play its teams, withdrawn ones too, play
no ladder game unless the teacher lets them (then only those whose games of the round
are over); and the event's games take the hosted slots before ladder games. The rule
itself (:func:`adjacency.league.play.event_runner.off_the_ladder`), the scheduler's
passes through the hall (no HTTP), and the teacher's switch through the real server.
Through a real server with hosted programs: tests/hosting/test_events_first_slots.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.league.league_file import LeagueStore
from adjacency.league.play.event_runner import off_the_ladder
from adjacency.league.play.hall import Hall
from adjacency.league.play.live import LiveGame
from cli_helpers import run as run_cli
from hall_helpers import connect, run
from league_helpers import ADMIN, add_member, make_league, request

ids = st.sets(st.integers(1, 12), max_size=12)


@given(members=ids, withdrawn=ids, to_play=ids)
def test_the_ladder_leaves_an_events_teams_alone_unless_the_teacher_says_otherwise(
    members: set[int], withdrawn: set[int], to_play: set[int]
) -> None:
    withdrawn &= members
    to_play &= members
    assert off_the_ladder(False, members, withdrawn, to_play) == members  # withdrawn too
    free = off_the_ladder(True, members, withdrawn, to_play)
    assert free == to_play - withdrawn  # a game of the round still to play, and in it


def players(games: list[LiveGame]) -> set[str]:
    return {live.x.name for live in games} | {live.o.name for live in games}


def ladder_games(hall: Hall, store: LeagueStore) -> list[LiveGame]:
    pairs = store.events.event_pairs()
    return [live for live in hall.games.live.values() if live.pair_id not in pairs]


def test_a_withdrawn_team_plays_no_ladder_game_until_the_teacher_lets_it(tmp_path: Path) -> None:
    """red, blue, gold and teal play an event, pink and plum do not; gold withdraws
    before round 1 is paired (one game of the other three): gold and the team it would
    have met play no ladder game while the round is to play, pink and plum play theirs.
    The teacher lets the event's teams play the ladder: gold (withdrawn) and that team
    (its round over) play it, the two in the event's game do not; turned off again,
    their ladder game is stopped at the next pass, pink and plum's goes on."""

    async def test(store: LeagueStore, hall: Hall) -> None:
        names = ["red", "blue", "gold", "teal"]
        for name in [*names, "pink", "plum"]:
            connect(hall, store.members.add_member(name, "bot")[0])
        store.events.create("cup", "round-robin", None, names)
        event = store.events.start("cup")
        store.events.withdraw("cup", "gold")
        for _ in range(3):
            hall.scheduler.pair()
            await asyncio.sleep(0)
        boards = store.events.boards(event.id)
        paired = {store.members.member(m).name for b in boards for m in (b.a, b.b) if m}
        (resting,) = {"red", "blue", "teal"} - paired  # gold's opponent: no game this round
        playing = paired - {resting}
        assert players(ladder_games(hall, store)) == {"pink", "plum"}  # gold, resting: none
        assert players(list(hall.games.live.values())) == {*playing, "pink", "plum"}

        assert not event.ladder
        assert store.events.set_ladder("cup", True).ladder
        hall.scheduler.pair()
        ladder = ladder_games(hall, store)
        assert players(ladder) == {"pink", "plum", "gold", resting}
        theirs = [live for live in ladder if {live.x.name, live.o.name} == {"gold", resting}]
        assert len(theirs) == 1 and theirs[0].pair_id is not None

        store.events.set_ladder("cup", False)
        hall.scheduler.pair()
        assert players(ladder_games(hall, store)) == {"pink", "plum"}
        stored = store.games.game(theirs[0].id)
        assert stored is not None and stored.status == "aborted"
        assert stored.detail_code == "event-started"

    run(test, tmp_path)


class Seat:
    """A hosted side's seat as :meth:`.hosted.HostedPlayers.close` ends one: no process."""

    closed = False
    process = None

    def close(self) -> None:
        return None


def test_an_events_game_short_of_a_slot_stops_the_newest_ladder_game(tmp_path: Path) -> None:
    """Two ladder games and an event's game hold the slots (each a hosted side); an
    event's game waits for one: the newest ladder game gives its slot up (aborted,
    detail ``event-needs-slot``, its players told), the older one and the event's own
    play on, and the ladder starts no game with a hosted side while one is short."""

    async def test(store: LeagueStore, hall: Hall) -> None:
        for name in ("a", "b", "c", "d", "e", "f"):
            connect(hall, store.members.add_member(name, "bot")[0])
        store.events.create("cup", "round-robin", None, ["e", "f"])
        store.events.start("cup")
        hall.scheduler.pair()  # the event's e-f first, then the ladder's two games
        pairs = store.events.event_pairs()
        event_games = [g for g in hall.games.live.values() if g.pair_id in pairs]
        assert len(event_games) == 1
        ladder = ladder_games(hall, store)
        assert len(ladder) == 2 and players(ladder) == {"a", "b", "c", "d"}
        older, newer = ladder
        older.started = newer.started - 5.0  # started a while before
        for live in (older, newer, event_games[0]):
            hall.games.hosted.seats[(live.id, "x")] = Seat()  # type: ignore[assignment]
        hall.scheduler.make_room(1, store.events.event_pairs())
        stored = store.games.game(newer.id)
        assert stored is not None and stored.status == "aborted"
        assert stored.detail_code == "event-needs-slot"
        assert older.id in hall.games.live and event_games[0].id in hall.games.live
        assert hall.games.hosted.games() == {older.id, event_games[0].id}

    run(test, tmp_path)


def test_the_teacher_lets_an_events_teams_play_the_ladder(league: tuple[str, Path]) -> None:
    """``POST /admin/events/NAME/ladder`` sets it (off when made), the admin token only;
    a finished event is refused, an unknown one 404."""
    url, db = league
    team = add_member(db, "team1")
    add_member(db, "team2")
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["team1", "team2"])
        assert not store.events.named("cup").ladder
    api = url + "/api/league/admin/events/cup/ladder"
    on = request(api, "POST", {"allowed": True}, token=ADMIN)
    assert on.status == 200, on
    assert on.body == {"name": "cup", "status": "scheduled", "ladder": True}
    with LeagueStore(db) as store:
        assert store.events.named("cup").ladder
    assert request(api, "POST", {"allowed": False}, token=ADMIN).body["ladder"] is False
    assert request(api, "POST", {"allowed": True}, token=team).status == 403
    assert request(api, "POST", {"allowed": "maybe"}, token=ADMIN).status == 422
    missing = url + "/api/league/admin/events/nope/ladder"
    assert request(missing, "POST", {"allowed": True}, token=ADMIN).status == 404
    with LeagueStore(db) as store:
        event = store.events.start("cup")
        store.events.finish(event.id)
    refused = request(api, "POST", {"allowed": True}, token=ADMIN)
    assert refused.status == 400 and "finished" in str(refused.body)


def test_the_cli_sets_whether_an_events_teams_play_the_ladder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("team1", "team2"):
        add_member(db, name)
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["team1", "team2"])
    event = ("league", "event", "ladder", "--db", str(db), "cup")
    status, out, _ = run_cli(capsys, *event, "on")
    assert status == 0 and "play ladder games once their games of the round are over" in out
    with LeagueStore(db) as store:
        assert store.events.named("cup").ladder
    status, out, _ = run_cli(capsys, *event, "off")
    assert status == 0 and "play no ladder game until it is over" in out
    with pytest.raises(SystemExit) as refused:  # argparse's own refusal, one line
        run_cli(capsys, *event, "maybe")
    assert refused.value.code == 2 and "invalid choice" in capsys.readouterr().err
    with LeagueStore(db) as store:
        store.events.finish(store.events.start("cup").id)
    status, _, err = run_cli(capsys, *event, "on")
    assert status == 2 and "is finished" in err and "Traceback" not in err
