"""Property-based tests over random games on random board sizes."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Game, Position
from adjacency.core import Color
from adjacency.core.record import game_from_json, game_from_text, game_to_json, game_to_text
from core_strategies import positions, settings


@hsettings(max_examples=150, deadline=None)
@given(settings(), st.integers(0, 2**32 - 1))
def test_every_move_obeys_the_conservation_laws(
    config: tuple[int, int, int, Color], seed: int
) -> None:
    rows, cols, rounds, first = config
    rng = random.Random(seed)
    pos = Position.start(rows, cols, rounds, first)
    played = 0
    while not pos.is_over:
        assert pos.plies_left == 2 * rounds - played
        move = rng.choice(pos.legal_moves())
        flips = pos.flips(move)
        mover, enemy = (0, 1) if pos.turn == "x" else (1, 0)
        nxt = pos.play(move)
        played += 1
        # The mover gains exactly 1 + flips; the opponent loses exactly the flips.
        assert nxt.score[mover] == pos.score[mover] + 1 + len(flips)
        assert nxt.score[enemy] == pos.score[enemy] - len(flips)
        assert sum(nxt.score) == 8 + played
        # Only the placed square and its orthogonal neighbours may change.
        index = pos.board.square(move)
        changed = (pos.x ^ nxt.x) | (pos.o ^ nxt.o)
        assert changed & ~(pos.board.neighbours[index] | 1 << index) == 0
        assert nxt.turn != pos.turn
        assert Position.from_fen(nxt.fen()) == nxt
        pos = nxt
    assert pos.plies_left == 0 and played == 2 * rounds
    assert pos.legal_moves() == []


@hsettings(max_examples=200, deadline=None)
@given(positions())
def test_fen_round_trips(pos: Position) -> None:
    assert Position.from_fen(pos.fen()) == pos
    assert Position.from_fen(pos.fen()).fen() == pos.fen()


@hsettings(max_examples=200, deadline=None)
@given(positions())
def test_legal_moves_are_exactly_the_empty_squares(pos: Position) -> None:
    if pos.is_over:
        assert pos.legal_moves() == []
    else:
        assert pos.board.bitboard(pos.legal_moves()) == pos.empty
        assert len(pos.legal_moves()) == pos.board.size - sum(pos.score)


@hsettings(max_examples=100, deadline=None)
@given(settings(), st.integers(0, 2**32 - 1), st.booleans())
def test_records_round_trip(config: tuple[int, int, int, Color], seed: int, finish: bool) -> None:
    rows, cols, rounds, first = config
    rng = random.Random(seed)
    game = Game.new(rows, cols, rounds, first, x_name="Ann", o_name='B "b" \\ c')
    plies = 2 * rounds if finish else rng.randrange(2 * rounds)
    for _ in range(plies):
        game.play(rng.choice(game.position.legal_moves()), rng.random() * 5)
    text = game_to_text(game)
    again = game_from_text(text)
    assert game_to_text(again) == text
    assert again.positions == game.positions
    assert again.result == game.result
    assert game_to_json(game_from_json(game_to_json(game))) == game_to_json(game)
    assert [m.seconds for m in again.moves] == [m.seconds for m in game.moves]
