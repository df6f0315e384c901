"""What a member may do in its games in play, checked before anything changes
(:class:`PlayerActions`): a bot's move or its own failure, a person's move, resignation
or abort; the games (:class:`~.games.Games`) then play it.

Contract: a request the member may not make raises and changes nothing:
:class:`GameNotFound` (no such game in play), :class:`Forbidden` (not the member's
game; a hosted side, which only the server plays; a bot resigning or aborting),
:class:`NotNow` (not its turn, or its move is held for the pace; an abort after the
person's first move or in a scheduled pair). A bot's answer that is not a legal move is
not refused: it loses the game, as the arena scores a bot.
"""

from __future__ import annotations

import time

from ...core.fen import Color
from ...core.game import Termination
from ...core.text import quote
from ...round.moves import MAX_MOVE_CHARS
from ...serving.details import ended
from ...serving.errors import Forbidden, GameNotFound, NotNow
from ..league_file import Member
from .games import Games
from .live import InvalidMove, LiveGame, seat_kind


class PlayerActions:
    """The members' requests about their games in play, checked, then played."""

    def __init__(self, games: Games) -> None:
        self.games = games

    def move(
        self, member: Member, game_id: int, square: object, stand_in: bool = False
    ) -> LiveGame:
        """A member's move in a game. Raises :class:`GameNotFound` (no such game in play),
        :class:`Forbidden` (not the member's game), :class:`NotNow` (not its turn). A
        bot's answer that is not a legal move loses the game by illegal move, whatever it
        is (an occupied square, ``z9``, 10 KB of text, ``44``, ``["d4"]``, ``null``),
        with the answer quoted (cut short) in the detail, as the arena scores a bot; a
        person's is refused with :class:`IllegalMoveError` or :class:`InvalidMove` and
        changes nothing (the page offers legal squares only). ``stand_in``: the bot's
        client says the move is not its bot's own (noted in the record as it is played)."""
        live, color = self._own_game(member, game_id)
        self._not_hosted(live, color)
        if live.game.position.turn != color or live.held:
            raise NotNow(f"game {game_id}: it is not {member.name}'s turn")
        kind = live.kind(color)
        if not kind.illegal_forfeits:  # a person's: refused, nothing changes
            if not isinstance(square, str) or len(square) > MAX_MOVE_CHARS:
                raise InvalidMove(f"a move is a square name like 'c3', got {quote(square)}")
            live.game.position.play(square)  # IllegalMoveError (400): nothing changes
        self.games.round_trips.append(time.monotonic() - live.asked)
        live.stand_in = stand_in and not kind.is_person
        self.games.arrive(live, square)
        return live

    def awaits(self, member: Member, game_id: object) -> bool:
        """Whether the server waits for ``member``'s move in ``game_id`` (its game in
        play, its turn): such a move was asked for, so no rate limit refuses it."""
        live = self.games.live.get(game_id) if isinstance(game_id, int) else None
        if live is None or live.game.position.turn != live.color_of(member.id):
            return False
        return not live.kind(live.game.position.turn).server_plays

    def fail(self, member: Member, game_id: int, termination: Termination, detail: str) -> LiveGame:
        """A bot says it cannot move in ``game_id`` (its program crashed, answered junk or
        overran its budget: ``termination``, ``detail`` in its own words): the game ends
        at once as its loss with that termination, the detail saying so
        (``bot-failed``), rather than on time after its whole clock. Raises as
        :meth:`move`; only a bot's own failure, at its turn, ends a game this way."""
        live, color = self._own_game(member, game_id)
        self._not_hosted(live, color)
        if live.game.position.turn != color or live.held:
            raise NotNow(f"game {game_id}: it is not {member.name}'s turn")
        self.games.spend_clock(live)
        self.games.forfeit(live, termination, ended("bot-failed", player=member.name, error=detail))
        return live

    def was_stopped(self, game_id: int) -> bool:
        """Whether the server stopped ``game_id`` lately (:attr:`.games.Games.stopped`): a
        bot's move for it was sent before the bot heard of the stop, and is dropped, not
        refused."""
        return game_id in self.games.stopped and game_id not in self.games.live

    def resign(self, member: Member, game_id: int) -> LiveGame:
        """A person gives up ``game_id``: the opponent wins by resignation, stored and
        rated as any finished game (under the league's rules for people). Raises as
        :meth:`_own_person_game`."""
        live, color = self._own_person_game(member, game_id, "resign")
        self.games.end_by_resignation(live, color, ended("resigned", player=member.name))
        return live

    def abort(self, member: Member, game_id: int) -> LiveGame:
        """A person stops ``game_id`` before their first move: stored as aborted (no
        result, unrated, not counted anywhere), both sides told. Raises
        :class:`NotNow` once the person has moved, and for a ladder or event game (its
        pair would be replayed: resign instead); else as :meth:`_own_person_game`."""
        live, color = self._own_person_game(member, game_id, "abort")
        if live.pair_id is not None:
            raise NotNow(f"game {game_id} belongs to a scheduled pair: resign instead")
        if live.game.has_moved(color):
            raise NotNow(
                f"{member.name} has moved already: a game can be aborted only before "
                "your first move; resign instead"
            )
        self.games.end_by_abort(live, color, ended("aborted", player=member.name))
        return live

    def _not_hosted(self, live: LiveGame, color: Color) -> None:
        """:class:`Forbidden` when ``color`` is a hosted side of ``live``: the server plays
        the team's accepted version there, and a client of the team has no say."""
        if live.kind(color).server_plays:
            name = live.member(color).name
            raise Forbidden(
                f"game {live.id}: the server plays {name}'s accepted version; "
                "a client's moves are not taken"
            )

    def _own_game(self, member: Member, game_id: int) -> tuple[LiveGame, Color]:
        """The game in play ``game_id`` and ``member``'s colour in it. Raises
        :class:`GameNotFound` (no such game in play) or :class:`Forbidden` (not the
        member's game)."""
        live = self.games.live.get(game_id)
        if live is None:
            raise GameNotFound(f"game {game_id} is not in play")
        color = live.color_of(member.id)
        if color is None:
            raise Forbidden(f"game {game_id} is not yours: {member.name} does not play in it")
        return live, color

    def _own_person_game(self, member: Member, game_id: int, action: str) -> tuple[LiveGame, Color]:
        """:meth:`_own_game` for a person's resign or abort; a bot gets :class:`Forbidden`
        (its games end by its moves and its clock: the engine protocol has no resign)."""
        if not seat_kind(member).chooses_end:
            raise Forbidden(
                f"only people {action} in the league; a bot's game ends by its moves and clock"
            )
        return self._own_game(member, game_id)
