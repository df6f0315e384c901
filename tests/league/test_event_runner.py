"""The event runner over a real league file, without a server
(adjacency.league.play.event_runner): rounds advance when their pairs are played, a Swiss
is paired from the stored results without repeats, a withdrawn member plays no later
board, a scheduled event starts at its time with the connected bots, and an event
finishes exactly once."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from adjacency.league.play.event_runner import EventPass, EventRunner
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.outbox import Outbox
from adjacency.league.play.scheduler import RECONNECT_GRACE
from hall_helpers import Inbox
from league_helpers import add_member, make_league


def league(tmp_path: Path, names: list[str]) -> LeagueStore:
    db = tmp_path / "league.db"
    make_league(db)
    for name in names:
        add_member(db, name)
    return LeagueStore(db)


def play(store: LeagueStore, step: EventPass, x_wins: bool = True) -> int:
    """Play every game the pass starts (X wins, or O with ``x_wins`` false)."""
    for start in step.starts:
        game_id = store.games.start_game(start.x, start.o, "6/6/6/6/6/6 x 4", start.pair, start.leg)
        store.games.finish_game(
            game_id, "x" if x_wins else "o", "normal", "", "", (5, 3), 8, (0, 0)
        )
    return len(step.starts)


def test_a_swiss_runs_its_rounds_without_repeats_and_finishes_once(tmp_path: Path) -> None:
    names = ["a", "b", "c", "d", "e"]
    with league(tmp_path, names) as store:
        events = store.events
        events.create("sw", "swiss", 3, names)
        runner = EventRunner(store)
        assert runner.plan(set()).starts == []  # scheduled: nothing plays
        events.start("sw")
        met: set[frozenset[int]] = set()
        finished: list[str] = []
        for _ in range(20):
            step = runner.plan(set())
            finished += step.finished
            assert step.members == (
                {m.id for m in store.members.members()} if not finished else set()
            )
            if not step.starts:
                # both legs of a pair are started one pass after the other
                if events.named("sw").status == "finished":
                    break
                continue
            for start in step.starts:
                if start.leg == 0:
                    assert frozenset((start.x, start.o)) not in met
            for start in step.starts:
                met.add(frozenset((start.x, start.o)))
            play(store, step)
        event = events.named("sw")
        assert event.status == "finished" and finished == ["sw"]
        assert {b.round for b in events.boards(event.id)} == {0, 1, 2}
        assert sum(b.b is None for b in events.boards(event.id)) == 3  # one bye a round
        assert len({b.a for b in events.boards(event.id) if b.b is None}) == 3
        assert len(events.games(event.id)) == 3 * 2 * 2
        assert runner.plan(set()).finished == []  # finished once only
        assert not events.finish(event.id)


def event_openings(store: LeagueStore, ladder_pairs: int) -> list[tuple[int, int]]:
    """A round robin of four played to its end after ``ladder_pairs`` ladder pairs: each
    board's round and its pair's opening, in the order the boards were stored."""
    ids = [m.id for m in store.members.members()]
    for n in range(ladder_pairs):
        store.games.new_pair(ids[n % 2], ids[2 + n % 2], n)
    store.events.create("rr", "round-robin", None, [m.name for m in store.members.members()])
    store.events.start("rr")
    runner = EventRunner(store)
    for _ in range(20):
        play(store, runner.plan(set()))
    event = store.events.named("rr")
    assert event.status == "finished"
    opening = dict(store.database.query("SELECT id, opening FROM pairs"))
    return [(b.round, opening[b.pair_id]) for b in store.events.boards(event.id) if b.pair_id]


def test_an_event_takes_its_own_openings_whatever_the_ladder_played(tmp_path: Path) -> None:
    """The event's boards take the book's openings in order from its first, so the same
    event plays the same positions after no ladder game or after many (in a league
    whose pairings, and so its ladder, followed the order its versions were accepted)."""
    names = ["a", "b", "c", "d"]
    (tmp_path / "fresh").mkdir()
    (tmp_path / "busy").mkdir()
    with league(tmp_path / "fresh", names) as fresh:
        alone = event_openings(fresh, 0)
    with league(tmp_path / "busy", names) as busy:
        after_ladder = event_openings(busy, 7)
    assert alone == after_ladder
    assert [opening for _, opening in alone] == list(range(6))  # 3 rounds of 2 boards


def test_a_withdrawn_member_plays_no_later_board(tmp_path: Path) -> None:
    names = ["a", "b", "c", "d"]
    with league(tmp_path, names) as store:
        events = store.events
        events.create("rr", "round-robin", None, names)
        events.start("rr")
        runner = EventRunner(store)
        play(store, runner.plan(set()))  # round 1, leg 0
        events.withdraw("rr", "d")
        d = store.members.member_named("d").id
        while events.named("rr").status != "finished":
            step = runner.plan(set())
            assert all(d not in (s.x, s.o) for s in step.starts)
            # withdrawn, still off the ladder (events first) until the event is over
            assert (d in step.members) != bool(step.finished)
            play(store, step, x_wins=False)
        games = events.games(events.named("rr").id)
        played = [g for g in games if not g.forfeit]
        # d played only round 1's first leg; a, b, c played each other fully
        assert sum(d in (g.a, g.b) for g in played) == 1
        assert len(played) == 1 + 3 * 2
        # the second leg of d's round-1 pair was never played: its opponent's forfeit win
        (unplayed,) = [g for g in games if g.forfeit]
        assert unplayed.round == 0 and unplayed.leg == 1 and d in (unplayed.a, unplayed.b)
        other = unplayed.b if unplayed.a == d else unplayed.a
        assert unplayed.points(other) == 1.0 and unplayed.points(d) == 0.0


def test_an_all_connected_event_starts_at_its_time_with_the_connected_bots(
    tmp_path: Path,
) -> None:
    with league(tmp_path, ["a", "b", "c"]) as store:
        events = store.events
        event = events.create("later", "round-robin", None, None, start=1e12, now=1e12 - 60)
        runner = EventRunner(store)
        connected = {store.members.member_named("a").id, store.members.member_named("c").id}
        assert runner.plan(connected, now=1e12 - 1).starts == []
        step = runner.plan(connected, now=1e12)
        assert {(s.x, s.o) for s in step.starts} == {tuple(sorted(connected))}
        event = events.named("later")
        assert event.status == "running" and event.rounds == 1
        assert events.members(event.id) == sorted(connected)


def test_an_unrated_events_games_change_no_rating(tmp_path: Path) -> None:
    """Through the hall: the event's games start and are stored, but an unrated event's
    rate nobody while a rated event's do."""

    async def main() -> None:
        with league(tmp_path, ["a", "b", "c", "d"]) as store:
            events = store.events
            events.create("casual", "round-robin", None, ["a", "b"], rated=False)
            events.create("rated", "round-robin", None, ["c", "d"])
            events.start("casual")
            events.start("rated")
            hall = Hall(store, HousePlayers())
            try:
                assert hall.scheduler.pair() == []  # the first seconds wait for the bots to connect
                for name in ("a", "b", "c", "d"):  # then they do (absent both, both lose),
                    outbox = Outbox(store.members.member_named(name), Inbox().send)
                    outbox.leaving = True  # for their events only: no ladder game
                    hall.attach(outbox)
                hall.scheduler.up_since -= RECONNECT_GRACE
                for _ in range(4):  # two pairs, two legs each
                    for live in hall.scheduler.pair():
                        while live.id in hall.games.live:
                            position = live.game.position
                            hall.actions.move(live.member(position.turn), live.id,
                                      position.legal_moves()[0])  # fmt: skip
            finally:
                await hall.stop()
            assert [e.status for e in events.events()] == ["finished", "finished"]
            rated = {g.x_id for g in store.games.rated_games()} | {
                g.o_id for g in store.games.rated_games()
            }
            names = {store.members.member(m).name for m in rated}
            assert names == {"c", "d"} and len(store.games.rated_games()) == 2
            assert len(events.games(events.named("casual").id)) == 2
            assert store.ratings.history(store.members.member_named("a").id) == []
            assert store.ratings.ratings() == store.ratings.recompute_ratings()

    asyncio.run(main())


def test_each_step_of_an_event_is_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # What `league serve` writes at INFO for the teacher: each round paired (its boards
    # by name), a pause and a resume once each however many passes see them, the end.
    caplog.set_level(logging.INFO, logger="adjacency.league.play.event_runner")
    with league(tmp_path, ["red", "blue", "gold"]) as store:
        events = store.events
        events.create("friday", "round-robin", None, ["red", "blue", "gold"])
        events.start("friday")
        runner = EventRunner(store)
        step = runner.plan(set())
        events.pause("friday")
        for _ in range(3):
            assert runner.plan(set()).starts == []
        events.resume("friday")
        for _ in range(30):
            play(store, step)
            step = runner.plan(set())
            if events.named("friday").status == "finished":
                break
        runner.plan(set())  # a pass after the end logs nothing more
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    rounds = [line for line in lines if ": round " in line]
    assert rounds == [f"event friday: round {n} of 3 paired: {boards}" for n, boards in
                      ((1, "blue-gold, bye: red"), (2, "gold-red, bye: blue"),
                       (3, "red-blue, bye: gold"))], lines  # fmt: skip
    assert lines.count("event friday paused: no game of it starts") == 1
    assert lines.count("event friday resumed") == 1
    assert lines[-1] == "event friday finished" and lines.count("event friday finished") == 1
