"""The Lab tab's JSON API: the search lab's traces of one position (:mod:`adjacency.lab`).

Each endpoint takes the position as its text (``fen``) and answers the trace's
plain data (``to_dict``). Sizes over the lab's bounds or a bot option over the
shared-server cap: 400 naming the allowed range; a finished or impossible
position: 400 saying so; more lab searches at once than the server's hint cap:
429. A search is cancelled when its page goes away (:mod:`adjacency.web.lab`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ...lab import (
    climb_trace,
    compare_techniques,
    deepening_trace,
    engine_view,
    evolution_trace,
    search_tree,
)
from ...lab.limits import NODE_CAP, check_whole
from ...serving.models import ErrorMessage
from ..deps import SAME_SITE
from ..lab import checked_spec, run_lab
from . import ERRORS
from .analysis import analysable_position

LAB_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    429: {"model": ErrorMessage, "description": "as many lab searches as hints are running"},
}
router = APIRouter(tags=["lab"], responses=LAB_ERRORS, dependencies=[SAME_SITE])

Trace = dict[str, Any]
MAX_SEED = 2**31 - 1


def _seed(seed: int) -> int:
    return check_whole("seed", seed, 0, MAX_SEED)


@router.get("/api/lab/tree")
async def tree(
    fen: str,
    request: Request,
    depth: int = 3,
    algorithm: str = "alphabeta",
    order: bool = True,
    table: bool = False,
    cap: int = NODE_CAP,
    reading: bool = False,
) -> Trace:
    """The game tree of ``minimax`` / ``alphabeta`` to ``depth`` plies (1-4 on boards over
    36 squares, 1-6 on smaller ones) under a node cap (1-20000): nodes with their move,
    value and window (root mover's view), pruned moves, the line, and the visiting order;
    textbook minimax / alpha-beta, the moves most conversions first (with ``order`` the
    previous iteration's best first) or with ``reading`` in reading order (a8, b8, ...)."""
    position = analysable_position(fen)
    found = await run_lab(
        request,
        lambda cancel: search_tree(
            position, depth, algorithm, order, table, cap, cancel, reading=reading
        ),
    )
    return found.to_dict()


@router.get("/api/lab/compare")
async def compare(fen: str, request: Request, depth: int = 3) -> Trace:
    """Nodes and seconds of minimax, alpha-beta in reading order, with the bots' move
    generator (most conversions first), with the best move first too, and with the
    transposition table, on the position to ``depth`` plies, and the nodes each saved."""
    position = analysable_position(fen)
    found = await run_lab(
        request, lambda cancel: compare_techniques(position, depth, cancel=cancel)
    )
    return found.to_dict()


@router.get("/api/lab/deepening")
async def deepening(fen: str, request: Request, seconds: float = 6.0) -> Trace:
    """Each depth of iterative deepening for the classic alpha-beta and the engine within
    ``seconds`` (0.1-6): nodes, seconds, branching factor, and the depth within 5 s."""
    position = analysable_position(fen)
    found = await run_lab(request, lambda cancel: deepening_trace(position, seconds, cancel))
    return found.to_dict()


@router.get("/api/lab/climb")
async def climb(fen: str, request: Request, spec: str = "hill", seed: int = 1) -> Trace:
    """Every step of a local-search bot (``hill``, its variants, ``anneal``, the reports'
    local searches) with its candidates' values, and the move it plays (seeded: replayable)."""
    position = analysable_position(fen)
    admitted, seed = checked_spec(spec), _seed(seed)
    found = await run_lab(request, lambda cancel: climb_trace(position, admitted, seed, cancel))
    return found.to_dict()


@router.get("/api/lab/evolution")
async def evolution(fen: str, request: Request, spec: str = "genetic", seed: int = 1) -> Trace:
    """Best and mean fitness and diversity per generation of a genetic bot (``genetic``,
    ``gatree``, the reports' genetic bots), its final chromosome and move (seeded)."""
    position = analysable_position(fen)
    admitted, seed = checked_spec(spec), _seed(seed)
    found = await run_lab(request, lambda cancel: evolution_trace(position, admitted, seed, cancel))
    return found.to_dict()


@router.get("/api/lab/engine")
async def engine(fen: str, request: Request, seconds: float = 2.0) -> Trace:
    """The engine's iteration reports within ``seconds`` (0.1-5) and, when the solver
    reaches the end, every move's exact value beside the engine's choice."""
    position = analysable_position(fen)
    found = await run_lab(request, lambda cancel: engine_view(position, seconds, cancel))
    return found.to_dict()
