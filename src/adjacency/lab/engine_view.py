"""The engine's view of one position, through the ``engine`` bot's public interface.

:func:`engine_view` asks the ``engine`` bot for a move within a time budget and
keeps its iteration reports (depth, value, nodes, seconds, line; the last one is
``exact`` when the solver proved it). When the root was solved exactly, the
position is within the solver's reach, so every legal move is solved too (each
child position by the same bot, its exact value negated to the mover's view) and
shown beside the engine's choice; otherwise ``moves`` is empty.

Every report carries the engine's own counters (:class:`~adjacency.bots.Thinking`):
the transposition table's probes and hits, and the nodes the exact solver visited.
The view's ``table_hit_rate`` (hits over probes) and ``solver_share`` (solver nodes
over all nodes) are those of the last report, which counts the whole move (the
short search and the solve, when the bot solved); ``None`` when the engine
reported no counts (a move from the book, or no probe at all for the hit rate).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..bots import Bot, Limit, Thinking
from ..core import Position
from .drawing import html_table, percent, ratio
from .limits import LabError, check_position
from .running import Cancel, build

MAX_SECONDS = 5.0
"""The most seconds the engine may think about the root."""
MOVE_SECONDS = 0.5
"""Seconds for each move's exact solve (positions within reach solve far faster)."""


@dataclass(frozen=True)
class Iteration:
    """One of the engine's reports."""

    depth: int | None
    value: float | None
    nodes: int | None
    seconds: float
    line: tuple[str, ...]
    exact: bool
    text: str
    tt_probes: int | None = None
    """Table look-ups so far (``tt_hits <= tt_probes``; ``None``: not counted)."""
    tt_hits: int | None = None
    solver_nodes: int | None = None
    """Nodes of ``nodes`` that the exact solver visited (``solver_nodes <= nodes``)."""


@dataclass(frozen=True)
class MoveValue:
    """A legal move's exact value for the mover (``None``: not solved within its budget)."""

    move: str
    value: int | None


@dataclass(frozen=True)
class EngineView:
    """The engine's reports on one position and, within reach, every move's exact value."""

    fen: str
    move: str
    iterations: tuple[Iteration, ...]
    moves: tuple[MoveValue, ...]
    exact: bool
    table_hit_rate: float | None = None
    """Table hits over probes for the whole move (module docstring)."""
    solver_share: float | None = None
    """The share of the move's nodes that the exact solver visited (module docstring)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return asdict(self)

    def _repr_html_(self) -> str:
        return engine_html(self)


def _think(
    bot: Bot, position: Position, seconds: float, cancel: Cancel | None
) -> tuple[str, list[Thinking]]:
    """The bot's move on ``position`` within ``seconds`` and every report it published."""
    reports: list[Thinking] = []
    if cancel is not None and cancel.cancelled:
        return position.legal_moves()[0], reports
    move = bot.choose_move(position, Limit(time=seconds), reports.append)
    return move, reports


def _mover_margin(position: Position, child: Position) -> int:
    x, o = child.score
    return x - o if position.turn == "x" else o - x


def engine_view(
    position: Position, seconds: float = 2.0, cancel: Cancel | None = None
) -> EngineView:
    """The engine's view of ``position`` within ``seconds`` (see the module docstring)."""
    check_position(position)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise LabError(f"seconds must be a number from 0.1 to {MAX_SECONDS:g}, got {seconds!r}")
    if not 0.1 <= seconds <= MAX_SECONDS:
        raise LabError(f"seconds must be a number from 0.1 to {MAX_SECONDS:g}, got {seconds!r}")
    bot = build("engine", 1, (object,), "the engine")
    if cancel is not None:
        cancel.watch(bot)
    moves: list[MoveValue] = []
    try:
        move, reports = _think(bot, position, float(seconds), cancel)
        exact = bool(reports) and reports[-1].exact
        for candidate in position.legal_moves() if exact else []:
            if cancel is not None and cancel.cancelled:
                break
            child = position.play(candidate)
            if child.is_over:
                moves.append(MoveValue(candidate, _mover_margin(position, child)))
                continue
            _, answers = _think(bot, child, MOVE_SECONDS, cancel)
            final = answers[-1] if answers else None
            value = None
            if final is not None and final.exact and final.score is not None:
                value = -int(final.score)
            moves.append(MoveValue(candidate, value))
    finally:
        bot.close()
    iterations = tuple(
        Iteration(
            r.depth,
            r.score,
            r.nodes,
            r.seconds,
            r.pv,
            r.exact,
            r.text,
            r.tt_probes,
            r.tt_hits,
            r.solver_nodes,
        )
        for r in reports
    )
    hit_rate, solver_share = _shares(iterations[-1] if iterations else None)
    return EngineView(position.fen(), move, iterations, tuple(moves), exact, hit_rate, solver_share)


def _shares(last: Iteration | None) -> tuple[float | None, float | None]:
    """``(table hits / probes, solver nodes / nodes)`` of the report ``last`` (``None``
    where a count is missing or would divide by zero)."""
    if last is None:
        return None, None
    hit_rate = None
    if last.tt_probes and last.tt_hits is not None:
        hit_rate = last.tt_hits / last.tt_probes
    solver_share = None
    if last.nodes and last.solver_nodes is not None:
        solver_share = last.solver_nodes / last.nodes
    return hit_rate, solver_share


def engine_html(view: EngineView) -> str:
    """The engine's reports and (within reach) every move's exact value."""
    reports = html_table(
        ("depth", "value", "nodes", "seconds", "line", "exact", "table hits", "solver nodes"),
        [
            (
                i.depth,
                i.value,
                i.nodes,
                f"{i.seconds:.3f}",
                " ".join(i.line),
                i.exact,
                ratio(i.tt_hits, i.tt_probes),
                ratio(i.solver_nodes, i.nodes),
            )
            for i in view.iterations
        ],
    )
    shares = (
        f"<p>table hit rate {percent(view.table_hit_rate)}, "
        f"solver share of the nodes {percent(view.solver_share)}</p>"
    )
    moves = html_table(
        ("move", "exact value", "engine's choice"),
        [(m.move, m.value, "yes" if m.move == view.move else "") for m in view.moves],
    )
    return reports + shares + (moves if view.moves else "")
