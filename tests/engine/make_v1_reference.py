"""Write ``data/v1_reference.json``: the moves the engine of version one chose at fixed depth.

Run once, before the engine's second version changed anything (commit 7a2ab10)::

    .venv/bin/python tests/engine/make_v1_reference.py > tests/engine/data/v1_reference.json

``test_profiles.py`` replays every position with ``engine:profile=v1`` and requires the
same move and value, so the frozen reference keeps playing like the first engine.
The node counts are recorded for information only (a faster table or kernel may
visit a different number of nodes and still choose identically).
"""

from __future__ import annotations

import json
import random
import sys

from adjacency.core import Position
from adjacency.engine import Engine

DEPTH = 6
TT_MB = 4
SEED = 16

SHAPES = (
    # (rows, cols, rounds, positions, most random plies from the start)
    (8, 8, 28, 16, 50),
    (8, 8, 8, 8, 12),
    (8, 8, 16, 6, 26),
    (6, 6, 14, 6, 24),
    (5, 7, 10, 4, 16),
)


def positions(rng: random.Random) -> list[Position]:
    found = []
    for rows, cols, rounds, count, most in SHAPES:
        for _ in range(count):
            position = Position.start(rows, cols, rounds)
            for _ in range(rng.randint(0, most)):
                position = position.play(rng.choice(position.legal_squares()))
            found.append(position)
    return found


def main() -> None:
    rng = random.Random(SEED)
    rows = []
    for position in positions(rng):
        engine = Engine(tt_mb=TT_MB)
        result = engine.search(position, depth=DEPTH)
        rows.append(
            {
                "fen": position.fen(),
                "move": result.move,
                "value": result.value,
                "depth": result.depth,
                "nodes": result.nodes,
            }
        )
    json.dump(
        {
            "command": "python tests/engine/make_v1_reference.py",
            "commit": "7a2ab10",
            "engine": f"Engine(tt_mb={TT_MB}) defaults, search(position, depth={DEPTH})",
            "positions": rows,
        },
        sys.stdout,
        indent=1,
    )
    print()


if __name__ == "__main__":
    main()
