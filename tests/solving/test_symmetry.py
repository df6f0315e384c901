"""Board symmetries: found from the positions, sound for values, and what the solve uses."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjacency.core import Position, board
from adjacency.engine import Engine
from adjacency.engine.symmetry import (
    TRANSFORM_NAMES,
    automorphisms,
    canonical,
    equivalent_starts,
    move_orbits,
    stabiliser,
    transforms,
)
from adjacency.solving.solved_starts import Entry, plan_lanes, solve_entry

SIDES = range(4, 9)


@pytest.mark.parametrize("rows", SIDES)
@pytest.mark.parametrize("cols", SIDES)
def test_transforms_are_bijections_that_keep_adjacency(rows: int, cols: int) -> None:
    geometry = board(rows, cols)
    found = transforms(geometry)
    assert [t.name for t in found] == list(TRANSFORM_NAMES)
    assert len(automorphisms(geometry)) == (8 if rows == cols else 4)
    for t in found:
        assert sorted(t.squares) == list(range(geometry.size))
        for square in range(geometry.size):
            image = t.target.neighbours[t.square(square)]
            assert image == t.bitboard(geometry.neighbours[square])
        back = t.inverse()
        assert all(back.square(t.square(s)) == s for s in range(geometry.size))


@pytest.mark.parametrize("rows", SIDES)
@pytest.mark.parametrize("cols", SIDES)
@pytest.mark.parametrize("first", ["x", "o"])
def test_the_symmetries_of_start_positions(rows: int, cols: int, first: str) -> None:
    start = Position.start(rows, cols, 3, first)  # type: ignore[arg-type]
    names = {t.name for t in stabiliser(start)}
    # Square boards: the a1-h8 reflection; other boards: nothing but the identity.
    assert names == ({"identity", "transpose"} if rows == cols else {"identity"})
    images = {
        (e.image.rows, e.image.cols, e.image.turn, e.transform.name, e.swap)
        for e in equivalent_starts(start)
    }
    other = "o" if first == "x" else "x"
    # The half turn with a colour swap gives the other first mover, on every board;
    # the diagonal reflection gives the transposed board.
    assert (rows, cols, other, "half-turn", True) in images
    assert (cols, rows, first, "transpose", False) in images
    assert (cols, rows, other, "anti-transpose", True) in images
    # No transform gives the same board with the same first mover but the identity
    # (and, on square boards, the stabiliser's transpose).
    same = {name for r, c, t, name, swap in images if (r, c, t) == (rows, cols, first)}
    assert same == names


def test_orbits_of_the_8x8_start() -> None:
    orbits = move_orbits(Position.start(8, 8, 5))
    assert sum(len(o) for o in orbits) == 56
    assert len(orbits) == 30  # 26 mirrored pairs + c3, d4, e5, f6 on the diagonal
    assert sorted(o[0] for o in orbits if len(o) == 1) == [18, 27, 36, 45]


def test_lanes_group_mirror_images() -> None:
    lanes = plan_lanes([(r, c) for r in SIDES for c in SIDES])
    assert len(lanes) == 15  # 5 square sizes and 10 pairs R x C / C x R
    members = [(lane.rows, lane.cols, lane.first) for lane in lanes]
    members += [m for lane in lanes for m in lane.followers]
    assert len(members) == len(set(members)) == 50
    plain = plan_lanes([(4, 5), (5, 4)], derive_images=False)
    assert [(lane.name, lane.followers) for lane in plain] == [
        ("4x5 x", ()),
        ("4x5 o", ()),
        ("5x4 x", ()),
        ("5x4 o", ()),
    ]


# Every entry of up to 3 rounds on every board, and 4 rounds on the smaller ones:
# the symmetric solve (one first move per orbit) equals the plain one (every move).
BUDGET_ENTRIES = [
    *(Entry(r, c, n) for r in SIDES for c in SIDES if c >= r for n in (2, 3)),
    *(Entry(r, c, 4) for r, c in ((4, 4), (4, 5), (5, 5), (4, 6), (6, 6))),
]


@pytest.mark.slow
def test_symmetric_solve_equals_plain_solve() -> None:
    saved = []
    for entry in BUDGET_ENTRIES:
        symmetric = solve_entry(entry, symmetry=True, tt_mb=4)
        plain = solve_entry(entry, symmetry=False, tt_mb=4)
        assert symmetric.value == plain.value, entry
        assert symmetric.move_values == plain.move_values, entry
        assert symmetric.optimal == plain.optimal, entry
        if entry.rows == entry.cols:
            assert symmetric.root_moves < plain.root_moves
            saved.append(symmetric.nodes < plain.nodes)
        else:
            assert symmetric.root_moves == plain.root_moves
    assert sum(saved) >= len(saved) - 2  # the pruning saves work (bar tiny entries)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rows = draw(st.integers(4, 8))
    cols = draw(st.integers(4, 8))
    rounds = draw(st.integers(2, min(5, board(rows, cols).max_rounds())))
    position = Position.start(rows, cols, rounds, draw(st.sampled_from(["x", "o"])))
    # At most 6 plies left: solves of a few milliseconds.
    for _ in range(draw(st.integers(max(0, 2 * rounds - 6), 2 * rounds - 1))):
        position = position.play(draw(st.sampled_from(position.legal_squares())))
    return position


@settings(max_examples=40, deadline=None)
@given(positions(), st.data())
def test_mirrored_positions_have_equal_values(position: Position, data: st.DataObject) -> None:
    transform = data.draw(st.sampled_from(transforms(position.board)))
    swap = data.draw(st.booleans())
    image = transform.position(position, swap)
    engine = Engine(tt_mb=4)
    assert engine.solve(image).value == engine.solve(position).value
    key, to_key = canonical(position)
    if image.board == position.board:
        assert canonical(image)[0] == key
    framed = to_key.position(position)
    assert (framed.mover, framed.opponent, framed.plies_left) == key


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=st.integers(4, 5), cols=st.integers(4, 5), rounds=st.integers(1, 2), data=st.data())
def test_mirrored_positions_equal_brute_force(
    rows: int,
    cols: int,
    rounds: int,
    data: st.DataObject,
    brute: Callable[[Position], int],
) -> None:
    position = Position.start(rows, cols, rounds)
    position = position.play(data.draw(st.sampled_from(position.legal_squares())))
    value = brute(position)
    for transform in transforms(position.board):
        assert brute(transform.position(position, swap=True)) == value
