"""Position sets for the engine's benchmarks: the fixed suite, and sets nobody tuned on.

A benchmark measured only on the positions the engine was tuned against can flatter it:
the solver and strength figures of one release held on the project's own suite and not
on fresh game positions. So every position benchmark (``bench_engine_solve.py``,
``bench_engine_perfect.py``) takes ``--set`` and ``--seed``:

- ``suite``: the reproducible suite the docs' older figures used: a 28-round self-play
  game of the frozen v1 profile at depth 4 after 4 random plies, stopped at the wanted
  plies left (:func:`suite_position`; the seed is the position's index).
- ``games``: positions from games played at run time between two fixed bots of different
  kinds, the default engine searching 3 plies and the classic ``alphabeta`` at depth 2,
  after 2 to 6 random opening plies; which bot plays X and the openings follow the seed
  (:func:`game_position`).
- ``random``: uniformly random play to the wanted plies left (:func:`random_position`).

``--seed`` defaults to the current time and is printed with the results, so a fresh set
is drawn at every run and any run can be repeated exactly. Depth-limited searches (not
timed ones) keep a seed's positions the same on every machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.engine import Engine

SETS = ("suite", "games", "random")
"""The position sets, in the order the docs list them."""


def default_seed() -> int:
    """The current time in seconds: a new set at every run unless ``--seed`` is given."""
    return int(time.time())


def suite_position(rounds: int, plies_left: int, index: int) -> Position:
    """The fixed suite's position ``index``: v1 self-play at depth 4 after 4 random plies."""
    rng = random.Random(f"solve:{rounds}:{plies_left}:{index}")
    engine = Engine(tt_mb=8, profile="v1")
    position = Position.start(rounds=rounds)
    for _ in range(4):
        position = position.play(rng.choice(position.legal_squares()))
    while position.plies_left > plies_left:
        position = position.play(engine.search(position, depth=4).move)
    return position


def game_position(rounds: int, plies_left: int, seed: int) -> Position:
    """A position of a game between the default engine (3 plies) and ``alphabeta:depth=2``,
    after 2-6 random plies, with ``plies_left`` plies left; colours follow the seed."""
    rng = random.Random(f"games:{rounds}:{plies_left}:{seed}")
    engine = Engine(tt_mb=8)
    classic = make_bot("alphabeta:depth=2", seed=seed)
    engine_plays = rng.choice(("x", "o"))
    position = Position.start(rounds=rounds)
    for _ in range(rng.randint(2, 6)):
        position = position.play(rng.choice(position.legal_squares()))
    while position.plies_left > plies_left:
        if position.turn == engine_plays:
            move = engine.search(position, depth=3).move
        else:
            move = classic.choose_move(position, Limit(time=None))
        position = position.play(move)
    return position


def random_position(rounds: int, plies_left: int, seed: int) -> Position:
    """Uniformly random play to ``plies_left`` plies left."""
    rng = random.Random(f"random:{rounds}:{plies_left}:{seed}")
    position = Position.start(rounds=rounds)
    while position.plies_left > plies_left:
        position = position.play(rng.choice(position.legal_squares()))
    return position


def generator(name: str) -> Callable[[int, int, int], Position]:
    """The set's position function ``(rounds, plies_left, seed) -> Position``."""
    return {"suite": suite_position, "games": game_position, "random": random_position}[name]


def draw(name: str, rounds: int, plies_left: int, count: int, seed: int) -> list[Position]:
    """``count`` positions of set ``name``; the suite's are its first ``count`` (no seed)."""
    make = generator(name)
    if name == "suite":
        return [make(rounds, plies_left, index) for index in range(count)]
    return [make(rounds, plies_left, seed * 1_000 + index) for index in range(count)]


def describe(name: str, seed: int) -> str:
    """The lines a benchmark prints so that its figures say which positions they came from
    and which code, libraries and machine measured them (the provenance record,
    :mod:`adjacency.system.provenance`)."""
    from adjacency.system.provenance import describe as origin
    from adjacency.system.provenance import provenance

    if name == "suite":
        line = "position set: suite (the fixed self-play suite; no seed)"
    else:
        line = f"position set: {name}, seed {seed} (--seed {seed} draws it again)"
    record = provenance({"position set": name}, seeds=None if name == "suite" else seed)
    return "\n".join([line, *origin(record)[:3]])
