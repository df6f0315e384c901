"""Absent teams and ladder games at an event's start, through the hall itself
(adjacency.league.play.hall, no HTTP): a team that missed its last two event games and is
still away is paired with nobody in the Swiss's next round (no game, no bye) until its
bot is back; an event that starts while its members play ladder games stops those games
(aborted, detail ``event-started``, both players told) and starts its own at once,
rather than waiting for them on the league's clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

from adjacency.league.league_file import LeagueStore
from adjacency.league.play.event_runner import EventRunner
from adjacency.league.play.hall import Hall
from adjacency.league.play.scheduler import RECONNECT_GRACE
from hall_helpers import connect, run


async def play_until(store: LeagueStore, hall: Hall, name: str, rounds: int = 0) -> None:
    """Pass after pass, every connected side to move plays its first legal square, until
    event ``name`` has paired round ``rounds`` + 1 (its first ``rounds`` rounds played) or
    has finished (a guard of 500 passes against a hang). No game may wait for a team
    that is not there."""
    event = store.events.named(name)
    for _ in range(500):
        current = max((b.round for b in store.events.boards(event.id)), default=-1)
        if (rounds and current >= rounds) or store.events.named(name).status == "finished":
            return
        hall.scheduler.pair()
        for live in list(hall.games.live.values()):
            while live.id in hall.games.live:
                mover = live.member(live.game.position.turn)
                assert mover.id in hall.presence.connections, "a game waits for an absent team"
                hall.actions.move(mover, live.id, live.game.position.legal_moves()[0])
        await asyncio.sleep(0)
    raise AssertionError(f"event {name} did not get that far")


def test_a_team_away_for_two_games_is_paired_with_nobody_until_it_returns(
    tmp_path: Path,
) -> None:
    async def test(store: LeagueStore, hall: Hall) -> None:
        names = ["ghost", "shade", "red", "blue", "gold"]  # the first bye: gold, the last
        for name in names:
            store.members.add_member(name, "bot")
        for name in ("red", "blue", "gold"):
            connect(hall, store.members.member_named(name))
        hall.scheduler.up_since -= RECONNECT_GRACE  # past the wait for bots after a start
        store.events.create("cup", "swiss", 3, names)
        event = store.events.start("cup")
        ghost, shade = (
            store.members.member_named("ghost").id,
            store.members.member_named("shade").id,
        )
        await play_until(store, hall, event.name, 1)  # round 1 played, round 2 paired
        assert store.events.absentees(event.id) == {ghost, shade}
        runner = EventRunner(store)
        assert runner.paused_members(event, set(hall.presence.connections)) == {ghost, shade}
        second = [b for b in store.events.boards(event.id) if b.round == 1]
        assert {m for b in second for m in (b.a, b.b)} & {ghost, shade} == set()
        assert len(second) == 2 and sum(b.b is None for b in second) == 1  # 3 present
        shade_inbox = connect(hall, store.members.member_named("shade"))  # shade's bot is back
        assert runner.paused_members(event, set(hall.presence.connections)) == {ghost}
        await play_until(store, hall, event.name)
        third = [b for b in store.events.boards(event.id) if b.round == 2]
        assert any(shade in (b.a, b.b) for b in third)
        assert all(ghost not in (b.a, b.b) for b in third)
        assert shade_inbox.of("game_start")

    run(test, tmp_path)


def test_an_events_start_stops_its_members_ladder_games(tmp_path: Path) -> None:
    async def test(store: LeagueStore, hall: Hall) -> None:
        for name in ("red", "blue"):
            store.members.add_member(name, "bot")
        red, blue = store.members.member_named("red"), store.members.member_named("blue")
        inboxes = {name: connect(hall, m) for name, m in (("red", red), ("blue", blue))}
        ladder = hall.scheduler.pair()
        assert len(ladder) == 1 and ladder[0].pair_id is not None  # a ladder game, 60 s a side
        store.events.create("now", "round-robin", None, ["red", "blue"])
        store.events.start("now")
        started = hall.scheduler.pair()
        stopped = store.games.game(ladder[0].id)
        assert stopped is not None and stopped.status == "aborted"
        assert stopped.detail_code == "event-started"
        assert ladder[0].id not in hall.games.live
        event_pairs = store.events.event_pairs()
        assert len(started) == 1 and started[0].pair_id in event_pairs
        for inbox in inboxes.values():  # told, once the outbox's writer has run
            for _ in range(500):
                ends = [m for m in inbox.of("game_end") if m["game"] == ladder[0].id]
                if ends:
                    break
                await asyncio.sleep(0.01)
            assert ends and ends[0]["detail"].startswith("stopped: an event of one of its")

    run(test, tmp_path)
