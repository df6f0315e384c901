"""The same game events replayed into both servers' games in play, the browser game's
(:mod:`adjacency.web.session`) and the league's (:mod:`adjacency.league.play.games`): the
record (moves and their times), the end (result, termination) and its detail code must
agree, and both clocks move together.

Events are drawn by hypothesis: moves to the end, people's illegal moves (refused by
both), bots' illegal answers (lost by both), a flag falling (the mover never answers),
a move that comes after its flag, resignations and aborts. Time is a mock clock
(``round_helpers.mock_clock``): no test waits.

Where the servers differ today on purpose, the difference is written here, as data
(:data:`LEAGUE_CODE`) or as its own test, so a change to either server shows:

* the browser game's first move is untimed (a game between devices does not tick
  before the friend arrives) and earns no increment; the league's clock runs from the
  moment the first side is asked;
* the browser game names a player in a detail with its side (``X (Ada)``), the league
  by name alone (``Ada``);
* a loss on time: the browser game says ``out-of-time`` whether the flag fell first or
  the move came late (and answers such a move 409 ``time_ran_out``); the league says
  where the mover was when the flag fell (``clock-page-closed``: a person's page not
  open) or ``late`` for a move that came after it (taken, then lost on time);
* a bot's illegal answer: the league names the bot that answered (``occupied-by``,
  ``player``), the browser game does not (``occupied``); a bot's own failure: the
  browser game keeps the bot's words as the detail (no code), the league wraps them
  (``bot-failed``, ``player`` and ``error``);
* a server that stops: the league aborts its games in play (no result, unrated,
  ``server-stopped``); the browser game keeps them, to go on after a restart;
* a bot: the browser game computes its moves itself (a house bot), the league's
  connects (a connected bot); both seat the round room's kinds of player
  (:mod:`adjacency.round.player_kinds`) and take the rules the two kinds share from there
  (an illegal answer forfeits, a bot never resigns or aborts).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import COLORS, Color, Position, other
from adjacency.core.details import NAMED, DetailCode
from adjacency.core.game import Termination
from adjacency.league.store.records import StoredGame
from adjacency.round.player_kinds import Kind
from round_helpers import (
    NAMES,
    FakeScheduler,
    FakeTime,
    LeagueGame,
    Seen,
    WebGame,
    loop_on,
    mock_clock,
)

T = TypeVar("T")

BASE = 30.0
"""The clock's base seconds in the timed games."""


@dataclass(frozen=True)
class Play:
    """The side to move thinks ``share`` of the least time either server leaves it, then
    plays its ``pick``-th legal move (modulo their number)."""

    pick: int
    share: float


@dataclass(frozen=True)
class Late:
    """The side to move plays its ``pick``-th legal move ``extra`` seconds after its
    flag fell on both servers, before either server's timer ran."""

    pick: int
    extra: float


@dataclass(frozen=True)
class Illegal:
    """The side to move tries a square that is no legal move (``occupied``: one of the
    board's pieces), taking no time."""

    square: str


@dataclass(frozen=True)
class Flag:
    """The side to move never answers: both servers' timers run once its flag fell."""


@dataclass(frozen=True)
class Resign:
    """A person resigns: the side to move (``mover``) or the other one."""

    mover: bool


@dataclass(frozen=True)
class Abort:
    """A person aborts: the side to move (``mover``) or the other one."""

    mover: bool


Event = Play | Late | Illegal | Flag | Resign | Abort

ILLEGAL = ["occupied", "z9", "a0", "g1", "c", "", "3c", "c3c"]
"""Squares that are no legal move on the 6x6 board (``occupied`` is picked from it)."""

KINDS = [Play] * 6 + [Illegal] * 2 + [Late, Flag, Resign, Abort]
"""The events drawn, by kind: most are moves, so games reach their end."""


@st.composite
def people_events(draw: st.DrawFn) -> Event:
    kind = draw(st.sampled_from(KINDS))
    if kind is Play:
        return Play(draw(st.integers(0, 63)), draw(st.floats(0.0, 0.95)))
    if kind is Late:
        return Late(draw(st.integers(0, 63)), draw(st.floats(0.01, 5.0)))
    if kind is Illegal:
        return Illegal(draw(st.sampled_from(ILLEGAL)))
    if kind is Flag:
        return Flag()
    return kind(draw(st.booleans()))  # type: ignore[no-any-return]


LEAGUE_CODE: dict[type, dict[str, str]] = {
    Flag: {"out-of-time": "clock-page-closed"},
    Late: {"out-of-time": "late"},
}
"""The league's detail code for the browser game's, where they differ on purpose (by
the event that ended the game); any other end has one code on both."""


def run(scenario: Callable[[FakeTime, FakeScheduler], Awaitable[T]]) -> T:
    """Run ``scenario`` in an event loop whose timers run on the mock clock; its answer."""

    async def main(clock: FakeTime, scheduler: FakeScheduler) -> T:
        with pytest.MonkeyPatch.context() as patch:
            loop_on(clock, patch)
            return await scenario(clock, scheduler)

    with mock_clock() as (clock, scheduler):
        return asyncio.run(main(clock, scheduler))


def square_of(event: Illegal | Play | Late, web: WebGame) -> str:
    position = web.session.game.position
    if isinstance(event, Illegal):
        if event.square != "occupied":
            return event.square
        return position.board.square_names(position.x | position.o)[0]
    legal = position.legal_moves()
    return legal[event.pick % len(legal)]


def player(color: Color) -> dict[str, str]:
    """The ``player`` param of a detail about ``color``'s player, on each server."""
    name = {"x": "Ada", "o": "Bob"}[color]
    return {"web": f"{color.upper()} ({name})", "league": name}


def assert_same_game(web: Seen, league: Seen) -> None:
    """The record and the end agree (the detail is compared by the caller)."""
    assert web.moves == league.moves
    assert web.seconds == league.seconds  # each move's thinking time, as recorded
    assert web.fen == league.fen
    assert (web.over, web.result, web.termination) == (
        league.over,
        league.result,
        league.termination,
    )


def assert_clocks(web: Seen, league: Seen, first: float | None, increment: float) -> None:
    """O's clock is the same on both; X's differs by its first move (``first`` seconds,
    ``None`` before it), untimed and without increment on the browser game's."""
    assert web.clock is not None and league.clock is not None
    assert web.clock["o"] == pytest.approx(league.clock["o"], abs=1e-6)
    if web.termination == Termination.TIME_FORFEIT.value and web.result == "o":
        assert web.clock["x"] == league.clock["x"] == 0.0
        return
    gap = 0.0 if first is None else first - increment
    assert web.clock["x"] == pytest.approx(league.clock["x"] + gap, abs=1e-6)


async def replay_people(
    events: list[Event], increment: float, clock: FakeTime, scheduler: FakeScheduler
) -> tuple[Seen, Seen]:
    """Replay ``events`` into a person-vs-person game on both servers, comparing after
    each; the events after the end are not played. The last states seen (web, league)."""
    with tempfile.TemporaryDirectory() as folder:
        league = LeagueGame(Path(folder), "person", (BASE, increment))
        web = WebGame(league.live.game.start, "human", (BASE, increment), scheduler)
        try:
            first: float | None = None
            for event in events:
                turn = web.session.game.position.turn
                plies = len(web.session.game.moves)
                if isinstance(event, Late | Flag) and plies == 0:
                    continue  # the first move is untimed on the web: its own test below
                if isinstance(event, Play):
                    seconds = event.share * min(web.left(turn), league.left(turn))
                    clock.advance(seconds)
                    square = square_of(event, web)
                    assert web.play(square) == league.play(square) == "ok"
                    first = seconds if plies == 0 else first
                elif isinstance(event, Late):
                    clock.advance(max(web.left(turn), league.left(turn)) + event.extra)
                    square = square_of(event, web)
                    assert web.play(square) == "NotNow:time_ran_out"  # told at once, 409
                    assert league.play(square) == "ok"  # taken, then lost on time
                elif isinstance(event, Illegal):
                    square = square_of(event, web)
                    assert web.play(square) == league.play(square) == "IllegalMoveError"
                elif isinstance(event, Flag):
                    clock.advance(max(web.left(turn), league.left(turn)) + 0.05)
                    web.timers()
                    await league.timers()
                else:
                    color = turn if event.mover else other(turn)
                    act = "resign" if isinstance(event, Resign) else "abort"
                    said = getattr(web, act)(color)
                    assert said == getattr(league, act)(color)
                    assert said == "ok" or (act == "abort" and said == "NotNow:not_now")
                seen_web, seen_league = web.seen(), league.seen()
                assert_same_game(seen_web, seen_league)
                assert_clocks(seen_web, seen_league, first, increment)
                if seen_web.over:
                    assert_same_end(seen_web, seen_league, event, turn, league)
                    break
            return web.seen(), league.seen()
        finally:
            web.close()
            await league.close()


def assert_same_end(web: Seen, league: Seen, event: Event, turn: Color, game: LeagueGame) -> None:
    """The end's detail agrees, up to the differences stated above, and the league
    stored what it told."""
    assert web.code == (None if web.termination == "normal" else web.code)
    expected = LEAGUE_CODE.get(type(event), {}).get(str(web.code), web.code)
    assert league.code == expected
    if web.code is not None:
        loser = turn if not isinstance(event, Resign | Abort) or event.mover else other(turn)
        names = player(loser)
        assert web.params == {"player": names["web"]}
        assert league.params == {"player": names["league"]}
    stored = game.stored()
    assert stored is not None
    assert (stored.result, stored.termination) == (league.result, league.termination)


@settings(max_examples=60, deadline=None)
@given(
    events=st.lists(people_events(), min_size=3, max_size=24),
    increment=st.sampled_from([0.0, 2.0]),
)
def test_people_games_agree_on_both_servers(events: list[Event], increment: float) -> None:
    web, _ = run(lambda clock, scheduler: replay_people(events, increment, clock, scheduler))
    hypothesis.event(f"{web.termination}: {web.code}" if web.over else "in play")


def test_a_whole_game_of_moves_ends_the_same_on_both_servers() -> None:
    """Every event a move: both play the game to its normal end (8 plies on 6x6, 4
    rounds), with the same score, result and no detail."""
    web, league = run(lambda clock, timers: replay_people([Play(7, 0.1)] * 9, 2.0, clock, timers))
    assert Position.from_fen(web.fen).is_over and web.moves  # played to the last ply
    assert web.termination == league.termination == "normal"
    assert web.result == league.result and web.code is league.code is None


def test_the_first_move_is_untimed_on_the_web_and_timed_in_the_league() -> None:
    """X, to make the first move, lets twice its base time pass: the league's clock ran
    from the start (X loses on time, its page closed); the browser game's had not
    started (the game goes on, X's clock full)."""

    async def scenario(clock: FakeTime, scheduler: FakeScheduler) -> tuple[Seen, Seen]:
        with tempfile.TemporaryDirectory() as folder:
            league = LeagueGame(Path(folder), "person", (BASE, 0.0))
            web = WebGame(league.live.game.start, "human", (BASE, 0.0), scheduler)
            clock.advance(2 * BASE)
            web.timers()
            await league.timers()
            try:
                return web.seen(), league.seen()
            finally:
                web.close()
                await league.close()

    web, league = run(scenario)
    assert not web.over and web.clock == {"x": BASE, "o": BASE}
    assert (league.result, league.termination) == ("o", "time forfeit")
    assert (league.code, league.params) == ("clock-page-closed", {"player": "Ada"})


@dataclass(frozen=True)
class Answer:
    """The bot to move answers a legal move (its ``pick``-th) or, with ``square``, that text."""

    pick: int
    square: str | None


BOT_ANSWERS = st.builds(
    Answer, st.integers(0, 63), st.one_of(st.none(), st.none(), st.sampled_from(ILLEGAL))
)


async def replay_bots(answers: list[Answer], scheduler: FakeScheduler) -> tuple[Seen, Seen]:
    """Replay the bots' ``answers`` into a bot-vs-bot game on both servers (no time
    passes), comparing after each; the last states seen (web, league)."""
    with tempfile.TemporaryDirectory() as folder:
        league = LeagueGame(Path(folder), "bot", (BASE, 0.0))
        web = WebGame(league.live.game.start, "bot", None, scheduler)
        try:
            for answer in answers:
                turn = web.session.game.position.turn
                if answer.square is None:
                    square = square_of(Play(answer.pick, 0.0), web)
                else:
                    square = square_of(Illegal(answer.square), web)
                assert web.answer(square) == league.answer(square) == "ok"
                seen_web, seen_league = web.seen(), league.seen()
                assert_same_game(seen_web, seen_league)
                if not seen_web.over:
                    continue
                if seen_web.termination == "normal":
                    assert seen_web.code is seen_league.code is None
                else:  # the league names the bot that answered; the web game does not
                    assert seen_web.termination == "illegal move" and seen_web.result == other(turn)
                    assert seen_web.code is not None
                    assert seen_league.code == NAMED[DetailCode(seen_web.code)]
                    assert seen_league.params == {"player": NAMES[turn], **seen_web.params}
                break
            return web.seen(), league.seen()
        finally:
            web.close()
            await league.close()


@settings(max_examples=40, deadline=None)
@given(answers=st.lists(BOT_ANSWERS, min_size=1, max_size=8))
def test_bots_answers_end_the_same_on_both_servers(answers: list[Answer]) -> None:
    web, _ = run(lambda clock, scheduler: replay_bots(answers, scheduler))
    hypothesis.event(f"{web.termination}: {web.code}" if web.over else "in play")


@pytest.mark.parametrize("termination", [Termination.DISCONNECTION, Termination.TIME_FORFEIT])
def test_a_bots_own_failure_loses_on_both_servers_in_its_words_or_wrapped(
    termination: Termination,
) -> None:
    """A bot says it cannot move (its program crashed, or overran its budget): it loses
    with that termination on both; the web keeps its words as the detail, the league
    wraps them (``bot-failed``, naming the bot)."""

    async def scenario(clock: FakeTime, scheduler: FakeScheduler) -> tuple[Seen, Seen]:
        with tempfile.TemporaryDirectory() as folder:
            league = LeagueGame(Path(folder), "bot", (BASE, 0.0))
            web = WebGame(league.live.game.start, "bot", None, scheduler)
            try:
                turn = web.session.game.position.turn
                with web.session.lock:
                    web.session.bot_failed(turn, termination, "engine crashed")
                mover = league.members[turn]
                league.hall.actions.fail(mover, league.live.id, termination, "engine crashed")
                return web.seen(), league.seen()
            finally:
                web.close()
                await league.close()

    web, league = run(scenario)
    assert_same_game(web, league)
    assert web.termination == termination.value and web.result == "o"
    assert (web.code, web.params) == (None, {})
    assert league.code == "bot-failed"
    assert league.params == {"player": "Ada", "error": "engine crashed"}


def test_a_server_that_stops_aborts_the_leagues_game_and_keeps_the_webs() -> None:
    """The league aborts its games in play when it stops (no result, ``server-stopped``,
    stored so); the browser game's session closes with its game still in play (stored,
    it goes on after a restart)."""

    async def scenario(
        clock: FakeTime, scheduler: FakeScheduler
    ) -> tuple[Seen, Seen, StoredGame | None]:
        with tempfile.TemporaryDirectory() as folder:
            league = LeagueGame(Path(folder), "person", (BASE, 0.0))
            web = WebGame(league.live.game.start, "human", (BASE, 0.0), scheduler)
            square = square_of(Play(0, 0.0), web)
            assert web.play(square) == league.play(square) == "ok"
            web.close()
            await league.hall.stop()
            stored = league.stored()
            await league.close()
            return web.seen(), league.seen(), stored

    web, league, stored = run(scenario)
    assert web.moves == league.moves and not web.over
    assert (league.result, league.termination, league.code) == (None, "abandoned", "server-stopped")
    assert stored is not None and stored.status == "aborted"


@pytest.mark.parametrize(
    ("web_kind", "league_kind", "kinds"),
    [
        ("human", "person", (Kind.PERSON, Kind.PERSON)),
        ("bot", "bot", (Kind.HOUSE, Kind.CONNECTED)),
    ],
)
def test_both_servers_seat_the_round_rooms_kinds_and_refuse_a_bots_resignation(
    web_kind: str, league_kind: str, kinds: tuple[Kind, Kind]
) -> None:
    """Both servers' seats are the round room's kinds of player (a bot is the web's
    own, the league's connects); a person resigns on both, a bot's resignation or
    abort is refused by both (it chooses no end) and changes nothing."""

    async def scenario(clock: FakeTime, scheduler: FakeScheduler) -> list[tuple[str, str]]:
        with tempfile.TemporaryDirectory() as folder:
            league = LeagueGame(Path(folder), league_kind, (BASE, 0.0))
            web = WebGame(league.live.game.start, web_kind, None, scheduler)
            try:
                assert dict(web.session.kinds) == dict.fromkeys(COLORS, kinds[0])
                assert league.live.kinds == dict.fromkeys(COLORS, kinds[1])
                said = [(web.abort("o"), league.abort("o")), (web.resign("x"), league.resign("x"))]
                seen_web, seen_league = web.seen(), league.seen()
                assert_same_game(seen_web, seen_league)
                assert seen_web.over == kinds[0].chooses_end
                return said
            finally:
                web.close()
                await league.close()

    said = run(scenario)
    if kinds[0].chooses_end:
        assert said == [("ok", "ok"), ("NotNow:not_now", "GameNotFound:not_found")]
    else:
        assert said == [("NotNow:not_now", "Forbidden:forbidden")] * 2
