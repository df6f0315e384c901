"""A sanity match (not timed): alpha-beta at depth 4 against random."""

from __future__ import annotations

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.bots.referee import play_game
from adjacency.core.game import Termination


def test_alphabeta_depth_4_scores_at_least_90_percent_against_random() -> None:
    """40 games on 8x8, 8 rounds each (short games keep this quick), colours swapped."""
    points = 0.0
    for game_number in range(40):
        searcher = make_bot("alphabeta:depth=4")
        rival = make_bot("random", seed=game_number)
        searcher_is_x = game_number % 2 == 0
        x_bot, o_bot = (searcher, rival) if searcher_is_x else (rival, searcher)
        game = play_game(x_bot, o_bot, Position.start(8, 8, 8), Limit(time=None))
        assert game.termination is Termination.NORMAL
        mine = "x" if searcher_is_x else "o"
        points += 1.0 if game.result == mine else 0.5 if game.result == "draw" else 0.0
    assert points / 40 >= 0.9, points
