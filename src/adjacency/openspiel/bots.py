"""Bots across the OpenSpiel boundary, both ways.

- ``openspiel:...`` (:class:`OpenSpielBot`): an OpenSpiel algorithm as a bot of
  our registry, so it plays in the arena, the web UI and over the engine
  protocol. ``algo=mcts`` is OpenSpiel's ``MCTSBot`` (UCT with random
  rollouts; ``solve`` backs proven wins and losses up the tree), the Python
  one: the C++ ``pyspiel.MCTSBot`` crashes (segmentation fault) on every
  Python-implemented game in open-spiel 2.0.2, its own tic-tac-toe included.
  ``algo=random`` is OpenSpiel's uniform random bot.
- :class:`SpielBot`: any bot of ours as a ``pyspiel.Bot``, so it plays inside
  OpenSpiel's evaluation loops (``pyspiel.evaluate_bots``) and tools.

The registry (:mod:`adjacency.bots.registry`) knows the name ``openspiel`` from the
package's entry point (group ``adjacency.bots`` in ``pyproject.toml``) and imports this
module only when a spec asks for it, so the bots layer never imports upward and works
without the ``openspiel`` extra.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from ..bots import Bot, Limit, Search, Thinking, make_bot
from ..bots.registry import Option, register
from ..core import Position
from .spiel_game import AdjacencyState, load


class _Stopped(Exception):
    """Raised inside OpenSpiel's search loop when the move's time is up or it was stopped."""


class TimedMCTS(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python MCTS, stopped at the move's deadline or on :meth:`Bot.stop`.

    OpenSpiel's search has no clock: it always runs its simulation count (100,000 of
    them take minutes). Before each simulation this bot checks ``search.should_stop()``
    and, once the root has children to choose from, ends the search there and answers
    from the tree as it stands: a move within its time, and no search left running
    once its game is gone (the web's games stop their bots when deleted or left).
    """

    def __init__(self, search: Search, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.search = search
        self.root: Any = None
        """The tree of the latest search (its ``explore_count``: the simulations run)."""

    def mcts_search(self, state: Any) -> Any:
        try:
            return super().mcts_search(state)
        except _Stopped:
            return self.root

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self.root = root
        if root.children and self.search.should_stop():
            raise _Stopped
        return super()._apply_tree_policy(root, state)


@cache
def game_for(rows: int, cols: int) -> Any:
    """One loaded game per board size; states of any position are made from it."""
    rounds = (rows * cols - 8) // 2
    return load(rows, cols, rounds)


def state_of(position: Position) -> AdjacencyState:
    """An OpenSpiel state holding ``position`` (with an empty history)."""
    game = game_for(position.rows, position.cols)
    state: AdjacencyState = game.new_initial_state(position)
    return state


@register(
    "openspiel",
    "an OpenSpiel algorithm through the adjacency OpenSpiel game: MCTS with random "
    "rollouts, or uniform random (needs the openspiel extra)",
    "openspiel",
    options=(
        Option("algo", "mcts", "OpenSpiel algorithm", choices=("mcts", "random")),
        Option("simulations", 1000, "MCTS simulations per move", minimum=1, cap=100_000),
        Option("rollouts", 1, "random rollouts per MCTS leaf", minimum=1, maximum=1000),
        Option("uct_c", 2.0, "MCTS exploration constant", minimum=0.0, cap=100.0),
        Option("solve", True, "MCTS backs up proven results (MCTS-Solver)"),
    ),
)
class OpenSpielBot(Bot):
    """An OpenSpiel bot behind our Bot interface. ``Limit.nodes`` caps MCTS simulations."""

    def __init__(
        self,
        rng: random.Random,
        algo: str = "mcts",
        simulations: int = 1000,
        rollouts: int = 1,
        uct_c: float = 2.0,
        solve: bool = True,
    ) -> None:
        super().__init__()
        self.rng = rng
        self.algo = algo
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = uct_c
        self.solve = solve

    def _spiel_bot(self, game: Any, player: int, search: Search) -> Any:
        seed = self.rng.getrandbits(31)
        if self.algo == "random":
            return pyspiel.make_uniform_random_bot(player, seed)
        simulations = min(self.simulations, search.limit.nodes or self.simulations)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed))
        return TimedMCTS(
            search,
            game,
            self.uct_c,
            simulations,
            evaluator,
            solve=self.solve,
            random_state=np.random.RandomState(seed + 1),
        )

    def _choose(self, position: Position, search: Search) -> str:
        state = state_of(position)
        bot = self._spiel_bot(
            game_for(position.rows, position.cols), state.current_player(), search
        )
        action = bot.step(state)
        move = position.board.name(int(action))
        root = getattr(bot, "root", None)
        search.publish(
            Thinking(
                pv=(move,),
                seconds=search.elapsed(),
                nodes=None if root is None else int(root.explore_count),
                text=f"openspiel {self.algo}",
            )
        )
        return move


class SpielBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (a spec or a :class:`Bot`) as a ``pyspiel.Bot`` for the adjacency game.

    Each step asks the bot for a move in the state's position under ``limit``
    and returns the square index as the action.
    """

    def __init__(self, bot: str | Bot, limit: Limit | None = None, seed: int | None = None) -> None:
        super().__init__()
        self.bot = make_bot(bot, seed=seed) if isinstance(bot, str) else bot
        self.limit = limit or Limit(time=1.0)

    def step(self, state: AdjacencyState) -> int:
        position = state.position
        return position.board.square(self.bot.choose_move(position, self.limit))

    def restart_at(self, state: AdjacencyState) -> None:
        self.bot.new_game()

    def inform_action(self, state: AdjacencyState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False
