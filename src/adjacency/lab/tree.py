"""The game tree of ``minimax`` / ``alphabeta`` on one position, captured from the real search.

:func:`search_tree` runs the bots' own searcher (:class:`adjacency.bots.minimax.Negamax`)
with iterative deepening as :class:`~adjacency.bots.minimax.MinimaxBot` does and
attaches a :class:`TreeRecorder` (a :class:`~adjacency.bots.minimax.SearchObserver`) to
the last iteration only, so the tree is the search at that depth, move ordering from
the shallower iterations included, and not a second implementation. By default the
searcher runs without the bots' bulk-leaves shortcut (``bulk=False``): the tree and its
counts are textbook minimax / alpha-beta, every horizon position a node and cut-offs one
ply above the horizon included, so a student's own implementation with the same move
order gets the same tree. The moves are tried most conversions first (ties by square
index, a1, b1, ...) and with ``order`` the previous iteration's best move first; with
``reading`` in reading order (a8, b8, ..., h1: the top rank first), the order a
first implementation scanning the board row by row uses (:class:`.compare.ReadingOrder`).
``bulk=True`` shows the bots' own search instead.

Values and windows are given from the **root mover's view** (the classic MAX/MIN
picture): a node at an even ply is a MAX node, at an odd ply a MIN node. The negamax
search keeps them for the side to move; :func:`root_view` converts. ``alpha`` / ``beta``
are the window a node was entered with (``None``: minus / plus infinity); ``bound``
says whether the (fail-soft) value is exact or only a bound: ``lower`` means the true
value is at least ``value``. A node the search valued in bulk (depth 1 above the
horizon: every child valued by its conversions at once, see the searcher's docstring)
carries ``leaves``, the horizon positions counted there, and ``best``, the child it
found best; those children are not separate tree nodes (only with ``bulk=True``). A
node that failed high lists the moves it never searched in ``pruned``.

The tree keeps at most ``node_cap`` nodes: the recorder stops the search when the
cap is reached and ``complete`` is then false (values of nodes still open are
``None``). ``events`` is the visiting order for step mode: ``(ENTER, id)``,
``(CUT, id)`` (only a cut that left moves unsearched) and ``(LEAVE, id)`` in the
order the search did them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..bots import Limit
from ..bots.base import Search
from ..bots.minimax import INFINITY, Negamax, SearchStopped, deepen
from ..core import Position
from .compare import ReadingOrder
from .limits import NODE_CAP, LabError, check_depth, check_position, check_whole
from .running import Cancel

ENTER, CUT, LEAVE = 0, 1, 2
"""Event kinds of :attr:`SearchTree.events`."""
ALGORITHMS = ("minimax", "alphabeta")


class _TreeFull(Exception):
    """Raised by :class:`TreeRecorder` inside the search when the node cap is reached."""


def root_view(value: int, ply: int) -> int:
    """A negamax value at ``ply`` (the side to move's view) from the root mover's view."""
    return value if ply % 2 == 0 else -value


def _bound(value: int) -> int | None:
    return None if abs(value) >= INFINITY else value


@dataclass(slots=True)
class TreeNode:
    """One position the search visited (see the module docstring for the conventions)."""

    id: int
    parent: int
    """The parent's id; -1 for the root."""
    move: str | None
    """The move that led here from the parent; ``None`` at the root."""
    ply: int
    depth: int
    """Plies left to search below this node."""
    alpha: int | None
    beta: int | None
    value: int | None = None
    bound: str | None = None
    how: str | None = None
    """``searched``, ``bulk``, ``horizon``, ``end`` or ``table`` (see SearchObserver.leave)."""
    leaves: int = 0
    best: str | None = None
    pruned: tuple[str, ...] = ()
    children: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {
            "id": self.id,
            "parent": self.parent,
            "move": self.move,
            "ply": self.ply,
            "depth": self.depth,
            "alpha": self.alpha,
            "beta": self.beta,
            "value": self.value,
            "bound": self.bound,
            "how": self.how,
            "leaves": self.leaves,
            "best": self.best,
            "pruned": list(self.pruned),
            "children": list(self.children),
        }


class TreeRecorder:
    """A :class:`~adjacency.bots.minimax.SearchObserver` that builds the tree of one search."""

    def __init__(self, position: Position, cap: int) -> None:
        self.board = position.board
        self.geometry = Negamax(position, prune=False).geometry
        self.cap = cap
        self.nodes: list[TreeNode] = []
        self.events: list[tuple[int, int]] = []
        self._open: list[tuple[TreeNode, int, int, int, int, int]] = []
        """The path of nodes entered and not left: (node, empty, opponent bits, negamax
        alpha, beta, best child's negamax value so far)."""

    def enter(self, me: int, opp: int, empty: int, depth: int, alpha: int, beta: int) -> None:
        """Open a node (the root first), a child of the node open last; :class:`_TreeFull`
        at the cap."""
        if len(self.nodes) >= self.cap:
            raise _TreeFull
        if self._open:
            parent = self._open[-1][0]
            square = self._open[-1][1] ^ empty
            move: str | None = self.board.name(square.bit_length() - 1)
            ply, parent_id = parent.ply + 1, parent.id
            parent.children.append(len(self.nodes))
        else:
            move, ply, parent_id = None, 0, -1
        low, high = (alpha, beta) if ply % 2 == 0 else (-beta, -alpha)
        node = TreeNode(len(self.nodes), parent_id, move, ply, depth, _bound(low), _bound(high))
        self.nodes.append(node)
        self.events.append((ENTER, node.id))
        self._open.append((node, empty, opp, alpha, beta, -INFINITY - 1))

    def cut(self, pruned: list[int]) -> None:
        """Record the moves the node open last never searched."""
        if not pruned:
            return  # the last move failed high: nothing was left to cut
        node = self._open[-1][0]
        node.pruned = tuple(self.board.name(sq) for sq in pruned)
        self.events.append((CUT, node.id))

    def leave(self, value: int, how: str) -> None:
        """Close the node open last with its value, bound and (bulk) best horizon move."""
        node, empty, opp, alpha, beta, _ = self._open.pop()
        node.value = root_view(value, node.ply)
        node.how = how
        # A searched node (fail-soft) or a table entry is a bound when outside the window
        # it was entered with (a window the table narrowed only sharpens the result).
        if how in ("searched", "table") and not alpha < value < beta:
            fail_high = value >= beta  # negamax: at least value for the side to move
            node.bound = "lower" if fail_high == (node.ply % 2 == 0) else "upper"
        else:
            node.bound = "exact"
        if how == "bulk":
            node.leaves = empty.bit_count()
            square = self.geometry.squares_by_flips(empty, opp)[0][0]
            node.best = self.board.name(square)
        self.events.append((LEAVE, node.id))
        if self._open:
            parent_entry = self._open[-1]
            if -value > parent_entry[5]:  # the first child of the best value, as the search
                parent_entry[0].best = node.move
                self._open[-1] = (*parent_entry[:5], -value)


@dataclass
class SearchTree:
    """The traced tree of one search and its outcome (see the module docstring)."""

    fen: str
    algorithm: str
    depth: int
    order: bool
    table: bool
    nodes: list[TreeNode]
    events: list[tuple[int, int]]
    complete: bool
    node_cap: int
    value: int | None
    """The root's value (root mover's view); ``None`` if the cap cut the search."""
    move: str | None
    pv: tuple[str, ...]
    """The bot's principal variation (read from its best-move table, as the bot reports it)."""
    search_nodes: int
    """Positions the traced iteration (the full depth) visited: the tree's nodes, and with
    ``bulk`` every bulk node's leaves."""
    total_nodes: int
    """Positions of the whole iterative deepening up to this depth (every iteration summed)."""
    seconds: float
    bulk: bool = False
    """Whether the search used the bots' bulk-leaves shortcut (see the module docstring)."""
    reading: bool = False
    """Whether the moves were tried in reading order (see the module docstring)."""

    @property
    def root(self) -> TreeNode:
        """The root node (the position searched)."""
        return self.nodes[0]

    def tree_line(self) -> tuple[str, ...]:
        """The line read from the tree: from the root, each node's best child (a bulk node's
        best horizon move last)."""
        line: list[str] = []
        node = self.root
        while node.best is not None:
            line.append(node.best)
            following = [self.nodes[c] for c in node.children if self.nodes[c].move == node.best]
            if not following:
                break
            node = following[0]
        return tuple(line)

    def counted_nodes(self) -> int:
        """Search nodes counted from the tree: each node once, plus every bulk node's leaves."""
        return sum(1 + node.leaves for node in self.nodes)

    def position_of(self, node_id: int) -> Position:
        """The position at a node: the root position with the moves leading to it played."""
        moves: list[str] = []
        node = self.nodes[node_id]
        while node.move is not None:
            moves.append(node.move)
            node = self.nodes[node.parent]
        position = Position.from_fen(self.fen)
        for move in reversed(moves):
            position = position.play(move)
        return position

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): the tree as a flat list of nodes and the event list."""
        return {
            "fen": self.fen,
            "algorithm": self.algorithm,
            "depth": self.depth,
            "order": self.order,
            "reading": self.reading,
            "table": self.table,
            "bulk": self.bulk,
            "complete": self.complete,
            "node_cap": self.node_cap,
            "value": self.value,
            "move": self.move,
            "pv": list(self.pv),
            "search_nodes": self.search_nodes,
            "total_nodes": self.total_nodes,
            "seconds": round(self.seconds, 6),
            "nodes": [node.to_dict() for node in self.nodes],
            "events": [list(event) for event in self.events],
        }

    def _repr_svg_(self) -> str:
        return tree_svg(self)


def searcher_for(
    position: Position,
    algorithm: str,
    order: bool = True,
    table: bool = False,
    cancel: Cancel | None = None,
    bulk: bool = False,
    reading: bool = False,
) -> Negamax:
    """The searcher the ``minimax`` / ``alphabeta`` bot builds for ``position``, with no
    clock; ``cancel`` (optional) stops it (it polls every thousand nodes or so); ``bulk``:
    with the bots' bulk-leaves shortcut (else textbook counting); ``reading``: the moves
    in reading order (then no best-move-first ordering)."""
    if algorithm not in ALGORITHMS:
        raise LabError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    prune = algorithm == "alphabeta"
    search = None if cancel is None else Search(Limit(time=None), cancel.event)
    if reading:
        return ReadingOrder(position, prune, False, search, None, table and prune, bulk=bulk)
    return Negamax(position, prune, order and prune, search, None, table and prune, bulk=bulk)


def search_tree(
    position: Position,
    depth: int,
    algorithm: str = "alphabeta",
    order: bool = True,
    table: bool = False,
    node_cap: int = NODE_CAP,
    cancel: Cancel | None = None,
    bulk: bool = False,
    reading: bool = False,
) -> SearchTree:
    """The tree of the ``algorithm`` bot's search of ``position`` to ``depth`` plies.

    Iterative deepening runs as in the bot (depth 1, 2, ...; cut to the plies
    left); the last iteration is traced. Textbook counting unless ``bulk``; the moves in
    reading order with ``reading`` (the module docstring). A ``cancel`` ends the search
    early, as the node cap does (``complete`` false). Raises
    :class:`~adjacency.lab.limits.LabError` for a depth or cap out of range or a
    position that is over.
    """
    check_position(position)
    depth = check_depth(position, depth)
    node_cap = check_whole("node cap", node_cap, 1, NODE_CAP)
    searcher = searcher_for(position, algorithm, order, table, cancel, bulk, reading)
    last = min(depth, position.plies_left)
    recorder = TreeRecorder(position, node_cap)
    started = time.perf_counter()
    before = 0
    value: int | None = None
    move: str | None = None
    pv: tuple[str, ...] = ()
    complete = True
    if last == 1:
        searcher.observer = recorder
    iterations = deepen(searcher, position, last)
    try:
        for result in iterations:
            if result.depth == last:
                value, move, pv = result.score, position.board.name(result.square), result.pv
            elif result.depth == last - 1:
                before = result.nodes
                searcher.observer = recorder
    except (_TreeFull, SearchStopped):
        complete = False
        value, move, pv = None, None, ()
    seconds = time.perf_counter() - started
    return SearchTree(
        fen=position.fen(),
        algorithm=algorithm,
        depth=last,
        order=searcher.order,
        table=searcher.use_table,
        nodes=recorder.nodes,
        events=recorder.events,
        complete=complete,
        node_cap=node_cap,
        value=value,
        move=move,
        pv=pv,
        search_nodes=searcher.nodes - before,
        total_nodes=searcher.nodes,
        seconds=seconds,
        bulk=bulk,
        reading=reading,
    )


TREE_DRAWN = 300
"""Most tree nodes one picture draws."""


def _value(value: int | None) -> str:
    return "?" if value is None else f"{value:+d}"


def tree_svg(tree: SearchTree, limit: int = TREE_DRAWN) -> str:
    """The tree's first ``limit`` nodes by ply (breadth first), the principal line in
    orange, cut moves listed in grey under the node that cut them."""
    shown: list[int] = []
    queue = [0] if tree.nodes else []
    while queue and len(shown) < limit:
        node_id = queue.pop(0)
        shown.append(node_id)
        queue.extend(tree.nodes[node_id].children)
    kept = set(shown)
    line = set()
    node = tree.nodes[0] if tree.nodes else None
    while node is not None and node.best is not None:
        line.add(node.id)
        nxt = [c for c in node.children if tree.nodes[c].move == node.best]
        node = tree.nodes[nxt[0]] if nxt else None
        if node is not None:
            line.add(node.id)
    x_of: dict[int, float] = {}
    column = 0

    def place(node_id: int) -> float:
        nonlocal column
        children = [c for c in tree.nodes[node_id].children if c in kept]
        if not children:
            x_of[node_id] = column
            column += 1
        else:
            xs = [place(c) for c in children]
            x_of[node_id] = (xs[0] + xs[-1]) / 2
        return x_of[node_id]

    if shown:
        place(0)
    step_x, step_y = 46, 70
    depth = max((tree.nodes[i].ply for i in shown), default=0)
    width, height = max(1, column) * step_x + 40, (depth + 1) * step_y + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(tree.algorithm)} depth {tree.depth}: {len(tree.nodes)} nodes"
        f"{'' if tree.complete else ' (cut by the node cap)'}</title>",
    ]
    for node_id in shown:
        item = tree.nodes[node_id]
        x, y = 20 + x_of[node_id] * step_x + step_x / 2, 30 + item.ply * step_y
        if item.parent >= 0:
            px = 20 + x_of[item.parent] * step_x + step_x / 2
            py = 30 + (item.ply - 1) * step_y
            colour = "#f57c00" if node_id in line and item.parent in line else "#999"
            parts.append(
                f'<line x1="{px:.1f}" y1="{py + 12:.1f}" x2="{x:.1f}" y2="{y - 12:.1f}" '
                f'stroke="{colour}"/>'
            )
    for node_id in shown:
        item = tree.nodes[node_id]
        x, y = 20 + x_of[node_id] * step_x + step_x / 2, 30 + item.ply * step_y
        fill = "#ffe0b2" if node_id in line else "#fff"
        shape = (
            f'<rect x="{x - 16:.1f}" y="{y - 12:.1f}" width="32" height="24" '
            if item.ply % 2 == 0
            else f'<rect x="{x - 16:.1f}" y="{y - 12:.1f}" width="32" height="24" rx="12" '
        )
        parts.append(shape + f'fill="{fill}" stroke="#333"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle">'
            f"{escape(_value(item.value))}</text>"
        )
        if item.move:
            parts.append(
                f'<text x="{x:.1f}" y="{y - 15:.1f}" text-anchor="middle" fill="#555">'
                f"{escape(item.move)}</text>"
            )
        if item.pruned:
            label = "cut: " + " ".join(item.pruned[:3]) + ("…" if len(item.pruned) > 3 else "")
            parts.append(
                f'<text x="{x:.1f}" y="{y + 24:.1f}" text-anchor="middle" fill="#aaa">'
                f"{escape(label)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)
