"""Replays that end (:mod:`adjacency.league.play.replays`), through the league's games
and scheduler: a hosted move the machine starved (the seat's ``ABANDONED`` answer, as
:func:`adjacency.hosting.move_clock.blame` gives it) abandons its game; its pair is not
started again at once: the others are paired first, its members with other opponents,
until its back-off has passed and the machine is no longer loaded past its cores;
however often a leg is starved, it is replayed, never decided (no draw, no result)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

from adjacency.core.game import Termination
from adjacency.hosting.seat import Answer
from adjacency.league.league_file import LeagueStore
from adjacency.league.pairing import key
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.live import LiveGame
from adjacency.league.play.replays import BACKOFF, LONGEST_BACKOFF, Replays
from adjacency.serving.details import ended
from hall_helpers import connect, run

STARVED = Answer(
    None,
    0.8,
    3.6,
    (Termination.ABANDONED, "used 0.80 s of CPU in 3.60 s of wall time, 1.90 s of them taken"),
)
"""A hosted move's answer the machine starved."""


def _starve(hall: Hall, live: LiveGame) -> None:
    """The side to move's hosted move comes back starved (the server sides' own path)."""
    hall.games.sides._hosted_answer(live, STARVED, 5.0, None)  # type: ignore[arg-type]


def _first_game_starved(store: LeagueStore, hall: Hall) -> LiveGame:
    """Two bots connected, their first game paired and starved: that game."""
    for name in ("a", "b"):
        connect(hall, store.members.add_member(name, "bot")[0])
    (starved,) = hall.scheduler.pair()
    _starve(hall, starved)
    return starved


def _play_out(hall: Hall, live: LiveGame) -> None:
    while live.id in hall.games.live:
        position = live.game.position
        hall.actions.move(live.member(position.turn), live.id, position.legal_moves()[0])


def test_a_starved_pair_waits_its_back_off_and_its_leg_is_replayed_again(
    tmp_path: Path,
) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        now = [1000.0]
        loaded = [False]
        hall.games.replays = Replays(loaded=lambda: loaded[0], clock=lambda: now[0])
        bots = [store.members.add_member(name, "bot")[0] for name in ("a", "b", "c", "d")]
        for bot in bots:
            connect(hall, bot)
        first = hall.scheduler.pair()
        assert len(first) == 2
        starved, other = first
        pair, leg = starved.pair_id, starved.leg
        both = key(starved.x.id, starved.o.id)
        _starve(hall, starved)
        assert starved.id not in hall.games.live
        (stored,) = [g for g in store.games.games(status="aborted") if g.id == starved.id]
        assert stored.result is None and "too busy" in stored.detail
        _play_out(hall, other)

        # At once: its members are paired with others, not with each other again.
        again = hall.scheduler.pair()
        assert again and all(key(g.x.id, g.o.id) != both for g in again)
        for live in again:
            _play_out(hall, live)
        # Its time passed, the machine still loaded past its cores: it still waits.
        now[0] += BACKOFF + 1
        loaded[0] = True
        assert all(key(g.x.id, g.o.id) != both for g in hall.scheduler.pair())
        for live in list(hall.games.live.values()):
            _play_out(hall, live)
        # The load gone: its leg is played again; starved again, it is abandoned again,
        # never decided, and told so.
        loaded[0] = False
        replayed = next(g for g in hall.scheduler.pair() if key(g.x.id, g.o.id) == both)
        assert (replayed.pair_id, replayed.leg) == (pair, leg)
        _starve(hall, replayed)
        assert replayed.id not in hall.games.live
        assert sorted(g.id for g in store.games.games(status="aborted")) == [
            starved.id,
            replayed.id,
        ]
        assert all(
            g.id not in (starved.id, replayed.id) for g in store.games.games(status="finished")
        )
        assert hall.games.replays.legs_starved(pair or 0, leg) == 2
        # Backed off again, for twice as long.
        for live in list(hall.games.live.values()):
            _play_out(hall, live)
        now[0] += BACKOFF + 1
        assert hall.games.replays.waiting(pair or 0)
        now[0] += BACKOFF
        assert not hall.games.replays.waiting(pair or 0)

    run(scenario, tmp_path)


def test_the_back_off_doubles_up_to_its_longest_and_a_leg_is_never_decided() -> None:
    now = [0.0]
    replays = Replays(loaded=lambda: False, clock=lambda: now[0])
    waits = []
    for times in range(1, 9):
        assert replays.starved(3, 1) == times
        start = now[0]
        while replays.waiting(3):
            now[0] += 1.0
        waits.append(now[0] - start)
    assert waits == [min(BACKOFF * 2**k, LONGEST_BACKOFF) for k in range(8)]
    assert replays.starved(None, 0) == 0  # a challenge is only abandoned


def test_a_leg_starved_before_a_restart_backs_off_as_long_after_it(
    tmp_path: Path,
) -> None:
    """The count of a leg's starved games is the store's: a server started again after
    a leg's first starved game backs the pair off for twice as long at its second, as
    the first server would have, and decides nothing."""
    seen: dict[str, object] = {}

    async def before(store: LeagueStore, hall: Hall) -> None:
        starved = _first_game_starved(store, hall)
        seen.update(pair=starved.pair_id, leg=starved.leg)
        assert hall.games.replays.legs_starved(starved.pair_id or 0, starved.leg) == 1

    run(before, tmp_path)

    async def after() -> None:
        store = LeagueStore(tmp_path / "league.db")
        hall = Hall(store, HousePlayers())
        try:
            pair, leg = cast(int, seen["pair"]), cast(int, seen["leg"])
            assert hall.games.replays.legs_starved(pair, leg) == 1
            for member in store.members.members():
                connect(hall, member)
            (replayed,) = hall.scheduler.pair()
            assert (replayed.pair_id, replayed.leg) == (pair, leg)
            now = [5000.0]
            hall.games.replays.clock = lambda: now[0]
            _starve(hall, replayed)
            assert {g.id for g in store.games.games(status="aborted")} >= {replayed.id}
            assert not any(g.id == replayed.id for g in store.games.games(status="finished"))
            assert hall.games.replays.legs_starved(pair, leg) == 2
            now[0] += 2 * BACKOFF - 1
            assert hall.games.replays.waiting(pair)
            now[0] += 2
            assert not hall.games.replays.waiting(pair) or hall.games.replays.loaded()
        finally:
            await hall.stop()
            store.close()

    asyncio.run(after())


def test_only_the_starved_games_of_legs_still_to_play_are_counted(tmp_path: Path) -> None:
    """A leg played since its starved game, and an abort of another kind, count for
    nothing at the next start."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        first = _first_game_starved(store, hall)
        assert store.games.starved_legs() == {(first.pair_id, first.leg): 1}
        hall.games.replays = Replays(loaded=lambda: False, clock=lambda: 1e9)
        (again,) = hall.scheduler.pair()
        assert (again.pair_id, again.leg) == (first.pair_id, first.leg)
        _play_out(hall, again)  # the leg is played: its starved game no longer counts
        assert store.games.starved_legs() == {}
        (second,) = hall.scheduler.pair()
        hall.games.stop_game(second, ended("aborted", player="x"))
        assert store.games.starved_legs() == {}

    run(scenario, tmp_path)


def test_an_events_starved_game_is_replayed_in_its_round_after_its_back_off(
    tmp_path: Path,
) -> None:
    """An event's board whose game the machine starved waits out its back-off (nothing
    else pairs its members meanwhile), is then played again in its round, and the event
    counts only the replayed game."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        now = [1000.0]
        hall.games.replays = Replays(loaded=lambda: False, clock=lambda: now[0])
        for name in ("a", "b"):
            connect(hall, store.members.add_member(name, "bot")[0])
        store.events.create("final", "round-robin", None, ["a", "b"])
        store.events.start("final")
        (first,) = hall.scheduler.pair()
        _starve(hall, first)
        assert hall.scheduler.pair() == []  # its board waits, no ladder game meanwhile
        now[0] += BACKOFF + 1
        (replayed,) = hall.scheduler.pair()
        assert (replayed.pair_id, replayed.leg) == (first.pair_id, first.leg)
        _play_out(hall, replayed)
        while store.events.named("final").status != "finished":
            for live in hall.scheduler.pair():
                _play_out(hall, live)
        event = store.events.named("final")
        played = store.events.games(event.id)
        assert len(played) == 2 and not any(g.forfeit for g in played)
        assert first.id not in store.events.game_ids(event.id)
        assert replayed.id in store.events.game_ids(event.id)

    run(scenario, tmp_path)
