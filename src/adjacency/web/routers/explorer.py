"""The opening explorer: the moves played from a position in the stored games
(:mod:`adjacency.web.explorer_index`), with the proven book's value where it holds the position.

One request is one seek of the index (and, with a league's file, one bounded step of
reading it), so it costs the same on a store of any size and starts no engine work; it
counts against the address's moves per minute, as a move does.
"""

from __future__ import annotations

from fastapi import APIRouter

from ...core import InvalidPositionError, Position
from ...lab.review import x_view
from ...serving.errors import quote
from ..deps import Manager, rate_limited
from ..explorer_index import OPENING_PLIES
from ..models import MAX_FEN, ExplorerAnswer, ExplorerMove
from . import ERRORS

router = APIRouter(tags=["analysis"], responses=ERRORS)


@router.get("/api/explorer", response_model=ExplorerAnswer, dependencies=[rate_limited("move")])
def explore(fen: str, manager: Manager) -> ExplorerAnswer:
    """The moves played from the position ``fen`` in this server's finished games (and a
    league's, when the server reads one), most played first, each with its games, wins,
    draws and average margin (X − O); the book's exact value where it has one. 400 for a
    position text that does not parse."""
    if len(fen) > MAX_FEN:
        raise InvalidPositionError(f"position text too long: {quote(fen[:40] + '...')}")
    position = Position.from_fen(fen)
    from ...engine.book import lookup

    hit = lookup(position)
    book = None if hit is None else int(x_view(hit.value, position.turn))
    best = set() if hit is None else set(hit.moves)
    moves = [
        ExplorerMove(
            move=m.move,
            games=m.games,
            x_wins=m.x_wins,
            o_wins=m.o_wins,
            draws=m.draws,
            margin=m.margin,
            book=book if m.move in best else None,
        )
        for m in manager.store.explore(position)
    ]
    return ExplorerAnswer(
        fen=position.fen(),
        games=sum(m.games for m in moves),
        moves=moves,
        book=book,
        book_moves=sorted(best),
        plies=OPENING_PLIES,
    )
