"""A game in play on the league server, and the messages and views made from it.

:class:`LiveGame` holds what the server knows of a game while it is played: the
record so far, the server's clock (:class:`~adjacency.round.clock.Clock`), who
plays which side and as what kind of player (:func:`seat_kind`, the round room's
:class:`~adjacency.round.player_kinds.Kind`), and the timer and version that let late
callbacks (a timer that fired, a house move that arrived after the game ended)
recognise they are stale. The functions below build the protocol's messages about a
game (docs/league.md, "The protocol"), the state a page shows, the words for a bot's
answer that ends its game (:func:`answer_details`, :func:`describe_answer`) and the
records not yet written (:func:`unsaved`); they read a game and change nothing (but
:func:`unsaved` marks what it returns as written).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...client.wire import ABORTED
from ...core import COLORS, Color
from ...core.details import Detail
from ...core.errors import AdjacencyError, IllegalMoveError
from ...core.game import Game, Termination
from ...core.record import game_to_text
from ...core.text import quote
from ...round.clock import SAFETY, Clock, move_budget
from ...round.moves import Refusal
from ...round.player_kinds import Kind
from ...round.state import Round, snapshot
from ...serving.details import detail_fields, ended, english, public, refused
from ..league_file import Member

MOVE_CAP = 60.0
"""The most a bot is told to think about one move, whatever its clock."""


class InvalidMove(AdjacencyError):
    """A move message whose square is not text (malformed)."""


ANSWER_CHARS = 40
"""Characters of a malformed answer that a game's detail repeats at most."""


def describe_answer(answer: object) -> str:
    """A bot's malformed answer for a loss's detail: a string quoted, anything else as
    the JSON it came as with its JSON type (``44 (a number)``, ``null``), cut short."""
    if isinstance(answer, str):
        return quote(answer, ANSWER_CHARS)
    try:
        text = json.dumps(answer)
    except (ValueError, RecursionError):  # nested about as deep as the parser allows
        text = "[" * ANSWER_CHARS
    if len(text) > ANSWER_CHARS:
        text = f"{text[:ANSWER_CHARS]}... ({len(text)} characters)"
    if answer is None:
        return "null"
    kinds = {bool: "a boolean", int: "a number", float: "a number", list: "an array"}
    return f"{text} ({kinds.get(type(answer), 'an object')})"


def seat_kind(member: Member, hosted: bool = False) -> Kind:
    """The round room's kind of player (:mod:`adjacency.round.player_kinds`, whose rules the
    league takes) for ``member``: a person, a house bot, or a team's bot, hosted when
    ``hosted`` (the server plays its accepted version) and connected otherwise."""
    if member.kind == "person":
        return Kind.PERSON
    if member.kind == "house":
        return Kind.HOUSE
    return Kind.HOSTED if hosted else Kind.CONNECTED


def answer_details(name: str) -> tuple[Detail, Callable[[object], Detail], Refusal]:
    """The league's words for the ends a bot ``name``'s answer may bring
    (:func:`adjacency.round.moves.answer`): too late, not a square (its answer quoted:
    :func:`describe_answer`), refused by the position (the refusal's own code)."""

    def not_a_square(reply: object) -> Detail:
        return ended("not-a-square", player=name, move=describe_answer(reply))

    def refusal(exc: AdjacencyError) -> Detail:
        if isinstance(exc, IllegalMoveError):  # occupied, off the board, not a square name
            return refused(exc, name)
        return Detail(f"{name} answered: {exc}")

    return ended("late", player=name), not_a_square, refusal


@dataclass
class LiveGame:
    """A game in play: the record so far, the clock and who plays which side."""

    id: int
    x: Member
    o: Member
    game: Game
    clock: Clock
    pair_id: int | None
    leg: int
    move_time: float | None
    used: dict[str, float] = field(default_factory=lambda: {"x": 0.0, "o": 0.0})
    timer: asyncio.TimerHandle | None = None
    asked: float = 0.0
    """When the side to move was asked (``time.monotonic``)."""
    loop_waited: float = 0.0
    """The server's loop's waits for a CPU when the side to move's clock last took them
    off (:meth:`~adjacency.league.play.games.Games.excuse_loop_waits`)."""
    started: float = field(default_factory=time.monotonic)
    """When the game started (``time.monotonic``): the league's shortest game counts from it."""
    version: int = 0
    saved: int = 0
    """Plies of the record written to the store so far
    (:meth:`~adjacency.league.play.games.Games.save_progress`)."""
    pace: dict[str, float] = field(default_factory=lambda: {"x": 0.0, "o": 0.0})
    """Each side's pace: the least seconds between being asked and its move being played
    (0: at once). A move that comes sooner is held until then, its clock stopped."""
    held: bool = False
    """Whether the side to move's move is in and held for the pace."""
    stand_in: bool = False
    """Whether the move in (being played) is a stand-in, its bot's client said so: noted in
    the record's ``StandIns`` tag as it is played (:mod:`adjacency.core.stand_ins`)."""
    kinds: dict[Color, Kind] = field(default_factory=dict)
    """Each side's kind of player (:func:`seat_kind`): a team's bot is connected until
    the server seats its accepted version (:meth:`.server_sides.ServerSides.seat`)."""

    def __post_init__(self) -> None:
        for color in COLORS:
            self.kinds.setdefault(color, seat_kind(self.member(color)))

    def kind(self, color: Color) -> Kind:
        """The kind of player playing ``color``."""
        return self.kinds[color]

    def member(self, color: Color) -> Member:
        """The member playing ``color``."""
        return self.x if color == "x" else self.o

    def color_of(self, member_id: int) -> Color | None:
        """The colour the member ``member_id`` plays here, or ``None`` if it does not play."""
        if member_id == self.x.id:
            return "x"
        if member_id == self.o.id:
            return "o"
        return None

    def budget(self) -> float:
        """Seconds the side to move should think (what it is told in ``your_turn``)."""
        position = self.game.position
        left = self.clock.left(position.turn)
        if self.move_time is not None:
            return max(0.05, min(MOVE_CAP, left - SAFETY))
        return move_budget(left, self.clock.increment, position.plies_left, MOVE_CAP)


def unsaved(games: Iterable[LiveGame]) -> list[tuple[int, str, int]]:
    """The records of ``games`` that gained moves since they were last written, ``(id,
    record, plies)``; marks them written (:meth:`.games.Games.save_progress` writes them)."""
    changed = []
    for live in games:
        plies = len(live.game.moves)
        if plies != live.saved:
            changed.append((live.id, game_to_text(live.game), plies))
            live.saved = plies
    return changed


def start_line(live: LiveGame) -> tuple[str, dict[str, object]]:
    """The server log's line for a game that starts, as :func:`~adjacency.serving.logs.say`
    takes it (code, params): who plays which side, on what clock."""
    clock = live.game.tags.get("TimeControl", "")
    return "game-started", {"game": live.id, "x": live.x.name, "o": live.o.name, "clock": clock}


def end_line(live: LiveGame) -> tuple[str, dict[str, object]]:
    """The server log's line for a game that ended (or was aborted), as
    :func:`~adjacency.serving.logs.say` takes it (code, params): the outcome, how it
    ended (``termination``) and why (``detail``, with its ``detail_code`` and
    ``detail_params`` when it has a code), the score on the board and the plies played
    (``count``)."""
    game = live.game
    x, o = game.position.score
    params: dict[str, object] = {
        "game": live.id, "x": live.x.name, "o": live.o.name, "x_score": x, "o_score": o,
        "count": len(game.moves), "termination": game.termination.value,
    }  # fmt: skip
    if game.termination == Termination.ABANDONED or game.result is None:
        outcome = "aborted"
    elif game.result == "draw":
        outcome = "drawn"
    else:
        outcome = "won"
        params |= {"winner": live.member(game.result).name, "side": game.result}
    why = english(game.detail)
    if not why:
        return f"game-{outcome}", params
    params["detail"] = why
    if game.detail.code is not None:
        params |= {"detail_code": game.detail.code.value,
                   "detail_params": json.dumps(dict(game.detail.params))}  # fmt: skip
    return f"game-{outcome}-why", params


def game_start(live: LiveGame, color: Color, opponent: str, time_control: str) -> dict[str, Any]:
    """The ``game_start`` message for the member playing ``color`` (sent at the start,
    and again when the member reconnects: ``moves`` are the moves so far)."""
    return {
        "type": "game_start",
        "game": live.id,
        "color": color,
        "opponent": opponent,
        "start": live.game.start.fen(),
        "moves": [m.square for m in live.game.moves],
        "time_control": time_control,
    }


def your_turn(live: LiveGame) -> dict[str, Any]:
    """The ``your_turn`` message for the side to move: position, clocks, its budget."""
    return {
        "type": "your_turn",
        "game": live.id,
        "fen": live.game.position.fen(),
        "ply": len(live.game.moves),
        "clock": {"x": round(live.clock.left("x"), 3), "o": round(live.clock.left("o"), 3)},
        "increment": live.clock.increment,
        "budget": round(live.budget(), 3),
    }


def game_end(live: LiveGame) -> dict[str, Any]:
    """The ``game_end`` message of a finished (or aborted) game, sent to both players:
    its end as anyone may read it (:func:`~adjacency.serving.details.public`), so one
    team never reads the other's error output (a failed bot's own client has its
    output already: it sent it), nor of an aborted game (a hosted bot that could not
    start)."""
    detail = public(live.game.detail)
    if live.game.termination == Termination.ABANDONED:
        return game_aborted(live.id, detail)
    return {
        "type": "game_end",
        "game": live.id,
        "result": live.game.result,
        "termination": live.game.termination.value,
        "detail": english(detail),
        **detail_fields(detail),
    }


def game_aborted(game_id: int, detail: Detail) -> dict[str, Any]:
    """The ``game_end`` message of an aborted game (termination :data:`ABORTED`)."""
    return {
        "type": "game_end",
        "game": game_id,
        "result": None,
        "termination": ABORTED,
        "detail": english(detail),
        **detail_fields(detail),
    }


def state(live: LiveGame) -> dict[str, Any]:
    """What a page shows of a live game (cells in a1, b1, ... order), filled from the
    round's snapshot of it now, with the seconds each side thought and its clock's name
    (:meth:`.games.Games.state` adds the players' ratings)."""
    now = snapshot(Round.of(live.game, live.clock.value()), time.monotonic())
    position = live.game.position
    assert now.clock is not None  # a league game always has its clock
    return {
        "id": live.id,
        "status": "playing",
        "x": live.x.name,
        "o": live.o.name,
        "rows": position.rows,
        "cols": position.cols,
        "start": now.start,
        "fen": now.fen,
        "turn": now.turn,
        "moves": list(now.moves),
        "score": list(now.score),
        "clock": {c: round(left, 2) for c, left in now.clock.items()},
        "result": None,
        "termination": None,
        "detail": "",
        **detail_fields(Detail()),
        "used": {c: round(live.used[c], 2) for c in COLORS},
        "time_control": live.game.tags.get("TimeControl", ""),
    }
