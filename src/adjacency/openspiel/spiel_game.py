"""Adjacency as an OpenSpiel Python game, registered as ``"adjacency"``.

``pyspiel.load_game("adjacency(rows=6,cols=6,rounds=10,first=o)")`` builds it;
the parameters and their defaults are those of
:meth:`adjacency.core.Position.start`. Player 0 is X and player 1 is O whoever
moves first; an action is a square index (``rank * cols + file``, the core's
layout); returns are +1/-1/0 at the end (zero-sum, terminal rewards). Every
state holds a core :class:`~adjacency.core.Position` and every move is
:meth:`~adjacency.core.Position.play`: the rules live only in the core.

Tensors (``float32``, OpenSpiel's ``(plane, row, col)`` order; row ``r`` is rank
``r + 1``):

- observation, 4 planes: the observing player's pieces, the opponent's pieces,
  the empty squares, and the plies left divided by the game's plies;
- information state (perfect recall): those 4 planes, then one plane per ply of
  the game marking the square played at that ply (zero for plies not yet
  played), since different move orders reach the same board.

The observation string is the board diagram; the information state string is
the moves played so far (square names), which identifies the history.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..core import Color, Position
from ..core.board import Board, iter_squares
from ..core.errors import InvalidPositionError, InvalidSettingsError
from ..core.text import quote

SHORT_NAME = "adjacency"
PLAYERS: tuple[Color, Color] = ("x", "o")
"""Player ids: 0 is X, 1 is O."""
PLANES = 4
DEFAULTS: dict[str, Any] = {"rows": 8, "cols": 8, "rounds": 28, "first": "x"}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Adjacency Strategy Game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def player_of(color: Color) -> int:
    """The OpenSpiel player of ``color``: 0 for X, 1 for O."""
    return PLAYERS.index(color)


class AdjacencyGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one setting of rows, cols, rounds and first mover."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULTS, **(params or {})}
        # Position.start checks every parameter and raises InvalidSettingsError quoting it.
        self.start = Position.start(
            values["rows"], values["cols"], values["rounds"], values["first"]
        )
        geometry = self.start.board
        info = pyspiel.GameInfo(
            num_distinct_actions=geometry.size,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.start.plies_left,
        )
        super().__init__(GAME_TYPE, info, values)

    def new_initial_state(self, position: Position | None = None) -> AdjacencyState:
        """The start position, or any ``position`` of this board size (then the
        state's history is empty: serialising it replays from the start)."""
        return AdjacencyState(self, position)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BoardObserver:
        """OpenSpiel's observer of this game: a :class:`BoardObserver` of its board, with the
        move planes when ``iig_obs_type`` asks for perfect recall. Observation ``params`` are not
        supported (:class:`InvalidSettingsError`)."""
        if params:
            raise InvalidSettingsError(
                f"observation parameters are not supported, got {quote(params)}"
            )
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return BoardObserver(self.start.board, self.start.plies_left, perfect_recall)


class AdjacencyState(pyspiel.State):  # type: ignore[misc]
    """A game state: a core Position plus the moves that reached it."""

    def __init__(self, game: AdjacencyGame, position: Position | None = None) -> None:
        super().__init__(game)
        if position is not None and position.board != game.start.board:
            raise InvalidPositionError(
                f"position {quote(position.fen())} is not on the game's "
                f"{game.start.board.dimensions} board"
            )
        self.position = position or game.start
        self.total_plies = game.start.plies_left
        self.moves: list[int] = []

    def current_player(self) -> int:
        if self.position.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return player_of(self.position.turn)

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.legal_squares()

    def _apply_action(self, action: int) -> None:
        self.position = self.position.play(int(action))
        self.moves.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.board.name(int(action))

    def is_terminal(self) -> bool:
        return self.position.is_over

    def returns(self) -> list[float]:
        if not self.position.is_over:
            return [0.0, 0.0]
        margin = self.position.margin("x")
        value = float((margin > 0) - (margin < 0))
        return [value, -value]

    def __str__(self) -> str:
        return str(self.position)


class BoardObserver:
    """OpenSpiel's PyObserver for both tensors (see the module notes)."""

    def __init__(self, geometry: Board, total_plies: int, perfect_recall: bool) -> None:
        self.geometry = geometry
        self.total_plies = total_plies
        self.perfect_recall = perfect_recall
        planes = PLANES + (total_plies if perfect_recall else 0)
        shape = (planes, geometry.rows, geometry.cols)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: AdjacencyState, player: int) -> None:
        """Fill the tensor with ``state`` as ``player`` sees it (see the module notes)."""
        planes = self.dict["observation"]
        planes.fill(0.0)
        position = state.position
        own, opp = (position.x, position.o) if player == 0 else (position.o, position.x)
        cols = self.geometry.cols
        for plane, bitboard in ((0, own), (1, opp), (2, position.empty)):
            for square in iter_squares(bitboard):
                planes[plane, square // cols, square % cols] = 1.0
        planes[3] = position.plies_left / self.total_plies if self.total_plies else 0.0
        if self.perfect_recall:
            for ply, square in enumerate(state.moves):
                planes[PLANES + ply, square // cols, square % cols] = 1.0

    def string_from(self, state: AdjacencyState, player: int) -> str:
        """With perfect recall, the player and the moves played so far (the information state);
        otherwise the board diagram."""
        if self.perfect_recall:
            names = [self.geometry.name(square) for square in state.moves]
            return f"{PLAYERS[player]} {' '.join(names)}".rstrip()
        return str(state.position)


def register() -> None:
    """Register the game with pyspiel (once; importing :mod:`adjacency.openspiel` does it)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, AdjacencyGame)


def load(rows: int = 8, cols: int = 8, rounds: int = 28, first: Color = "x") -> Any:
    """``pyspiel.load_game`` of the registered game with these parameters."""
    register()
    return pyspiel.load_game(
        SHORT_NAME, {"rows": rows, "cols": cols, "rounds": rounds, "first": first}
    )
