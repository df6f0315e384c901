"""The hall's rules without a network: pairing (colour-swapped pairs from one opening,
fewest games between two first, never self-play, the concurrency cap), move refusals,
an illegal answer, and the statistics of a pair and of a member page."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from adjacency.core import Position
from adjacency.league.league_file import LeagueStore
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import WorkerError
from adjacency.league.play.live import LiveGame
from adjacency.league.standings import member_page, pair_stats
from adjacency.serving.errors import Forbidden, GameNotFound, NotNow
from hall_helpers import connect, run


def finish(hall: Hall, live: LiveGame) -> None:
    """Play the game out with each side's first legal move."""
    while live.id in hall.games.live:
        position = live.game.position
        hall.actions.move(live.member(position.turn), live.id, position.legal_moves()[0])


def test_pairs_are_colour_swapped_from_one_opening_and_new_opponents_come_first(
    tmp_path: Path,
) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        a = store.members.add_member("a", "bot")[0]
        b = store.members.add_member("b", "bot")[0]
        inbox_a = connect(hall, a)
        assert hall.scheduler.pair() == []  # alone: never against itself
        inbox_b = connect(hall, b)
        (first,) = hall.scheduler.pair()
        assert (first.x.name, first.o.name) == ("a", "b")
        await asyncio.sleep(0)
        assert inbox_a.of("game_start")[0]["color"] == "x"
        assert inbox_a.of("your_turn")[0]["fen"] == first.game.position.fen()
        assert inbox_b.of("game_start")[0]["color"] == "o" and not inbox_b.of("your_turn")
        assert hall.scheduler.pair() == []  # both busy (cap 1)
        finish(hall, first)
        (second,) = hall.scheduler.pair()
        assert (second.x.name, second.o.name) == ("b", "a")  # the pair's other game
        assert second.game.start == first.game.start and second.pair_id == first.pair_id
        finish(hall, second)
        c = store.members.add_member("c", "bot")[0]
        connect(hall, c)
        (third,) = hall.scheduler.pair()
        assert "c" in (third.x.name, third.o.name)  # a and b have met twice already
        stats = pair_stats(store, a, b)
        assert stats["games"] == 2 and stats["pairs"] == 1 and sum(stats["pentanomial"]) == 1
        margins = [  # a's final piece margin in each stored game, from the rows themselves
            (g.x_score or 0) - (g.o_score or 0)
            if g.x_id == a.id
            else (g.o_score or 0) - (g.x_score or 0)
            for g in store.games.games()
            if {g.x_id, g.o_id} == {a.id, b.id}
        ]
        assert len(margins) == 2 and stats["margin_unit"] == "game"  # one pair: per game
        assert stats["margin"] == round(sum(margins) / 2, 2)
        page = member_page(store, a)
        assert len(page["history"]) == 2 and page["opponents"][0]["games"] == 2
        assert page["opponents"][0]["name"] == "b"

    run(scenario, tmp_path)


def test_moves_are_refused_unless_it_is_the_members_turn_in_its_own_game(
    tmp_path: Path,
) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        a = store.members.add_member("a", "bot")[0]
        b = store.members.add_member("b", "bot")[0]
        c = store.members.add_member("c", "bot", concurrency=2)[0]
        for member in (a, b):
            connect(hall, member)
        (live,) = hall.scheduler.pair()
        before = live.game.position
        with pytest.raises(Forbidden):
            hall.actions.move(c, live.id, "c3")
        with pytest.raises(NotNow):
            hall.actions.move(b, live.id, "c3")
        with pytest.raises(GameNotFound):
            hall.actions.move(a, live.id + 100, "c3")
        assert live.game.position == before and live.id in hall.games.live
        occupied = next(s for s in ("a1", "b1", "a2", "b2") if before.piece_at(s))
        hall.actions.move(a, live.id, occupied)  # a bot's illegal answer loses the game
        stored = store.games.game(live.id)
        assert stored is not None and stored.termination == "illegal move"
        assert stored.result == "o" and "a answered" in stored.detail
        assert Position.from_fen(stored.opening) == before

    run(scenario, tmp_path)


MOVE_TIME = 2.0


def test_seconds_per_move_resets_each_move_and_a_silent_bot_loses_on_time(
    tmp_path: Path,
) -> None:
    """(2 s a move: long enough that a's own first move is never late on a loaded machine,
    which with 0.5 s made a's clock, not b's, run out now and then.)"""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        a = store.members.add_member("a", "bot")[0]
        b = store.members.add_member("b", "bot")[0]
        inboxes = [connect(hall, m) for m in (a, b)]
        (live,) = hall.scheduler.pair()
        await asyncio.sleep(0)
        assert inboxes[0].of("your_turn")[0]["budget"] < MOVE_TIME
        hall.actions.move(a, live.id, live.game.position.legal_moves()[0])
        assert live.clock.remaining["x"] == MOVE_TIME  # a fresh budget for the next move
        while live.id in hall.games.live:  # b never answers
            await asyncio.sleep(0.05)
        stored = store.games.game(live.id)
        assert stored is not None and stored.termination == "time forfeit"
        assert stored.detail == "b did not move within its clock (connected)"
        assert stored.result == "x" and stored.plies == 1
        end = inboxes[1].of("game_end")[0]
        assert end["termination"] == "time forfeit"
        # the WebSocket message names the detail's sentence for pages in other languages
        assert (end["detail_code"], end["detail_params"]) == ("clock-connected", {"player": "b"})

    run(scenario, tmp_path, move_time=MOVE_TIME)


def test_an_account_may_play_several_games_at_once_only_if_it_allows_it(tmp_path: Path) -> None:
    async def scenario(store: LeagueStore, hall: Hall) -> None:
        wide = store.members.add_member("wide", "bot", concurrency=2)[0]
        b = store.members.add_member("b", "bot")[0]
        c = store.members.add_member("c", "bot")[0]
        for member in (wide, b, c):
            connect(hall, member)
        first = hall.scheduler.pair()
        second = hall.scheduler.pair()
        assert len(first) == len(second) == 1
        assert {first[0].x.name, first[0].o.name} == {"wide", "b"}
        assert {second[0].x.name, second[0].o.name} == {"wide", "c"}
        assert hall.games.busy[wide.id] == 2 and hall.scheduler.pair() == []

    run(scenario, tmp_path)


def test_a_stopping_server_starts_no_game_and_asks_for_no_house_worker(tmp_path: Path) -> None:
    """Once the server stops (:meth:`Hall.stop`), a pass or a challenge starts no game (one
    started then stayed in play behind the abort of the others), and a house move asked
    for afterwards fails at once instead of starting a fresh pool (whose workers, started
    under load, held a stopping server past its 30 s in a CI run)."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        a = store.members.add_member("a", "bot")[0]
        b = store.members.add_member("b", "bot")[0]
        connect(hall, a)
        connect(hall, b)
        await hall.stop()
        assert hall.scheduler.pair() == []
        with pytest.raises(NotNow, match="stopping"):
            hall.games.start_game(a, b, 0)
        assert store.games.games(status="playing") == []
        hall.games.house.stop()
        with pytest.raises(WorkerError, match="stopping"):
            hall.games.house.start()

    run(scenario, tmp_path)


@pytest.mark.parametrize("steps", range(6))
def test_the_scheduler_stops_even_when_woken_as_the_stop_begins(tmp_path: Path, steps: int) -> None:
    """A wake-up in the loop steps just before the stop must not swallow the scheduler's
    cancellation (Python 3.11's ``asyncio.wait_for`` returned the finished wait instead of
    raising it, so the loop ran on and ``league serve`` never ended after SIGTERM)."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        await hall.start()
        await asyncio.sleep(0.05)  # the scheduler waits for its next wake-up
        hall.wake()
        for _ in range(steps):
            await asyncio.sleep(0)
        stopping = asyncio.get_running_loop().create_task(hall.stop())
        done, _ = await asyncio.wait({stopping}, timeout=10)  # a hang, not a slow stop
        if not done:
            for task in (stopping, hall._task):
                if task is not None:
                    task.cancel()
            await asyncio.wait({stopping}, timeout=10)
        assert done, "the scheduler ran on after the hall's stop"
        assert hall._task is None

    run(scenario, tmp_path)


def test_a_connected_bot_is_not_charged_the_server_s_waits_for_a_cpu(tmp_path: Path) -> None:
    """On a 1 s clock a move, the server's loop (which reads a connected bot's move and
    looks at its flag) waits for a CPU all but 0.2 s of a's think, as on a loaded machine:
    a answers after 1.5 s of wall time, in time, charged those 0.2 s. Then the loop waits
    no more: b, silent, loses on time as ever."""

    async def scenario(store: LeagueStore, hall: Hall) -> None:
        a = store.members.add_member("a", "bot")[0]
        b = store.members.add_member("b", "bot")[0]
        for member in (a, b):
            connect(hall, member)
        began = time.monotonic()
        hall.games.loop_waits = lambda: max(0.0, time.monotonic() - began - 0.2)
        (live,) = hall.scheduler.pair()
        await asyncio.sleep(1.5)
        assert live.id in hall.games.live, store.games.game(live.id)  # a's flag did not fall
        hall.actions.move(a, live.id, live.game.position.legal_moves()[0])
        charged = live.used["x"]
        stilled = hall.games.loop_waits()
        hall.games.loop_waits = lambda: stilled  # the machine frees
        while live.id in hall.games.live:  # b never answers
            await asyncio.sleep(0.05)
        stored = store.games.game(live.id)
        assert stored is not None and stored.termination == "time forfeit", stored
        assert stored.result == "x" and stored.plies == 1
        assert stored.detail == "b did not move within its clock (connected)"
        # the 0.2 s the loop did not wait, less the moment between the fake's start and a's ask
        assert 0.1 < charged <= 0.2 + 1e-6, charged

    run(scenario, tmp_path, move_time=1.0)
