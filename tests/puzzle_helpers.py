"""Played games for the puzzle tests: small-board games in a real web games database."""

from __future__ import annotations

import random
from pathlib import Path

from adjacency.core.game import Game
from adjacency.core.record import game_to_dict
from adjacency.puzzles.build import Candidate
from adjacency.puzzles.prove import Rules

RULES = Rules(min_plies=2, max_plies=10, min_moves=2)
"""Small-board rules: every position of the games below with 2 to 10 plies left."""
SHAPES = ((4, 5, 4), (5, 5, 5), (5, 4, 5), (4, 4, 4))


def random_games(count: int, seed: int) -> list[Game]:
    """``count`` finished games of random moves on small boards."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        rows, cols, rounds = rng.choice(SHAPES)
        game = Game.new(rows, cols, rounds, rng.choice(["x", "o"]))
        while not game.position.is_over:
            game.play(rng.choice(game.position.legal_moves()))
        games.append(game)
    return games


def game_candidates(count: int, seed: int) -> list[Candidate]:
    """The positions of ``count`` random games, source ``web``."""
    return [
        Candidate(position.fen(), "web")
        for game in random_games(count, seed)
        for position in game.positions
        if not position.is_over
    ]


def web_database(path: Path, count: int, seed: int) -> Path:
    """A web games database at ``path`` holding ``count`` random games."""
    from adjacency.web.store import GameStore

    store = GameStore(str(path))
    try:
        for number, game in enumerate(random_games(count, seed)):
            store.save(f"g{number:04d}", 1_700_000_000.0 + number, game_to_dict(game), {})
    finally:
        store.close()
    return path
