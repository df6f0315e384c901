"""What a game's listeners are told of a transition: its happenings as events.

Every change of a game in play is a transition of the round room, which answers what
happened (:data:`adjacency.round.state.Happening`: a move played, the game ended, moves
taken back). The session sends each as an event of the game's stream, in the order it
happened, just before the ``state`` event of the same change; a page or a client that
follows the stream learns *what* changed without comparing two states.

The events (data is JSON; ``version`` is that of the ``state`` event that follows):

* ``moved``: ``{"side", "square", "seconds", "ply", "version"}``, the ``ply``-th move
  (from 1) of the game, ``square`` as the board names it.
* ``ended``: ``{"result", "termination", "termination_detail", "detail_code",
  "detail_params", "version"}``, the same fields as the game's state gives its end.
* ``took_back``: ``{"plies", "moves", "version"}``, ``plies`` moves taken back,
  ``moves`` left.
"""

from __future__ import annotations

import json
from typing import Any

from ..round.state import Ended, Happening, Moved, Round
from ..serving.details import detail_fields, english
from .view import side

MOVED = "moved"
ENDED = "ended"
TOOK_BACK = "took_back"


def events(happened: tuple[Happening, ...], after: Round, version: int) -> list[tuple[str, str]]:
    """The ``(event name, JSON data)`` of each of ``happened``, the transition that left
    the game ``after`` at ``version``."""
    found: list[tuple[str, str]] = []
    plies = len(after.moves)
    for happening in happened:
        data: dict[str, Any]
        if isinstance(happening, Moved):
            name = MOVED
            data = {
                "side": side(happening.color),
                "square": happening.square,
                "seconds": round(happening.seconds, 3),
                "ply": plies,  # a transition plays at most one move, the last of ``after``
            }
        elif isinstance(happening, Ended):
            name = ENDED
            data = {
                "result": happening.result,
                "termination": happening.termination.value,
                "termination_detail": english(happening.detail),
                **detail_fields(happening.detail),
            }
        else:
            name = TOOK_BACK
            data = {"plies": happening.plies, "moves": plies}
        found.append((name, json.dumps({**data, "version": version})))
    return found
