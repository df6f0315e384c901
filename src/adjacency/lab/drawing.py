"""The lab's traces as SVG and HTML for Jupyter (``_repr_svg_`` / ``_repr_html_``).

Plain string building with escaped text, no plotting library: a notebook shows
each trace without extras. Board pictures (the local search's heat map) are the
core's (:func:`adjacency.core.svg.position_svg`). Trees draw at most :data:`TREE_DRAWN` nodes (the
first ones the search visited, shallow levels first) so a big trace stays a
readable picture; the data (``to_dict``) always has them all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from ..core import Position
from ..core.svg import position_svg

if TYPE_CHECKING:
    from .climb import ClimbTrace, HeatMap
    from .compare import Comparison
    from .deepening import DeepeningTrace
    from .engine_view import EngineView
    from .generations import EvolutionTrace
    from .tree import SearchTree

TREE_DRAWN = 300
"""Most tree nodes one picture draws."""
WIDTH, HEIGHT = 640, 260
"""The charts' size in pixels."""


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


def _chart(
    title: str,
    series: Sequence[tuple[str, str, Sequence[tuple[float, float]]]],
    log_y: bool = False,
    x_label: str = "",
    y_label: str = "",
    marks: Sequence[tuple[float, str]] = (),
) -> str:
    """A line chart: each series ``(name, colour, points)``; ``marks`` vertical lines at x."""
    points = [p for _, _, pts in series for p in pts]
    left, right, top, bottom = 50, 20, 24, 36
    if not points:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="40">'
            f'<text x="10" y="24">{escape(title)}: no data</text></svg>'
        )

    def fy(v: float) -> float:
        return math.log10(max(v, 1e-9)) if log_y else v

    xs = [p[0] for p in points]
    ys = [fy(p[1]) for p in points]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y0, y1 = min(ys), max(ys) if max(ys) > min(ys) else min(ys) + 1

    def sx(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * (WIDTH - left - right)

    def sy(v: float) -> float:
        return HEIGHT - bottom - (fy(v) - y0) / (y1 - y0) * (HEIGHT - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="14">{escape(title)}</text>',
        f'<line x1="{left}" y1="{HEIGHT - bottom}" x2="{WIDTH - right}" y2="{HEIGHT - bottom}" '
        'stroke="#333"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{HEIGHT - bottom}" stroke="#333"/>',
        f'<text x="{WIDTH - right}" y="{HEIGHT - 6}" text-anchor="end">{escape(x_label)}</text>',
        f'<text x="4" y="{top - 6}">{escape(y_label)}</text>',
        f'<text x="{left - 4}" y="{top + 4}" text-anchor="end">{escape(_tick(y1, log_y))}</text>',
        f'<text x="{left - 4}" y="{HEIGHT - bottom}" text-anchor="end">'
        f"{escape(_tick(y0, log_y))}</text>",
        f'<text x="{left}" y="{HEIGHT - bottom + 14}">{x0:g}</text>',
        f'<text x="{WIDTH - right}" y="{HEIGHT - bottom + 14}" text-anchor="end">{x1:g}</text>',
    ]
    for x, label in marks:
        parts.append(
            f'<line x1="{sx(x):.1f}" y1="{top}" x2="{sx(x):.1f}" y2="{HEIGHT - bottom}" '
            f'stroke="#c62828" stroke-dasharray="4 3"/><text x="{sx(x) + 3:.1f}" y="{top + 10}" '
            f'fill="#c62828">{escape(label)}</text>'
        )
    for index, (name, colour, pts) in enumerate(series):
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(
            f'<text x="{WIDTH - right - 4}" y="{top + 14 * (index + 1)}" text-anchor="end" '
            f'fill="{colour}">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _tick(value: float, log_y: bool) -> str:
    return f"{10**value:.3g}" if log_y else f"{value:.3g}"


def climb_svg(trace: ClimbTrace) -> str:
    """The value of the state after each step (restarts and sideways steps are in the data)."""
    points = [
        (float(step.index), float(step.chosen_value))
        for step in trace.steps
        if step.chosen_value is not None
    ]
    return _chart(
        f"{trace.spec} (seed {trace.seed}): value after each step; played {trace.move}",
        [("value", "#1565c0", points)],
        x_label="step",
        y_label="objective",
    )


def heat_map_svg(heat: HeatMap) -> str:
    """The position with each candidate square tinted by its value and the chosen move
    outlined: the board picture of :func:`adjacency.core.svg.position_svg`."""
    position = Position.from_fen(heat.fen)
    return position_svg(position, last=heat.chosen, heat=heat.values, title=heat.title)


def evolution_svg(trace: EvolutionTrace) -> str:
    """Best and mean fitness per generation."""
    best = [(float(g.generation), float(g.best)) for g in trace.generations]
    mean = [(float(g.generation), g.mean) for g in trace.generations]
    return _chart(
        f"{trace.spec} (seed {trace.seed}): fitness per generation; played {trace.move}",
        [("best", "#c62828", best), ("mean", "#1565c0", mean)],
        x_label="generation",
        y_label="fitness",
    )


def deepening_svg(trace: DeepeningTrace) -> str:
    """Seconds against depth on a log axis, one line per searcher, the depth each finished
    within the trace's budget marked (the budget stated)."""
    colours = ("#1565c0", "#c62828")
    series = [
        (
            run.searcher,
            colours[i % 2],
            [(float(r.depth), max(r.seconds, 1e-6)) for r in run.iterations],
        )
        for i, run in enumerate(trace.runs)
    ]
    marks = [
        (
            float(run.limit_depth),
            f"{run.searcher}: depth {run.limit_depth} within {trace.budget:g} s",
        )
        for run in trace.runs
        if run.limit_depth is not None
    ]
    return _chart("seconds by depth (log axis)", series, True, "depth", "seconds", marks[:1])


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def comparison_html(comparison: Comparison) -> str:
    """The side-by-side counts as an HTML table (``nodes``: at the full depth; ``nodes with
    deepening``: every iteration; a row the cap cut shows ``> total``)."""
    return _table(
        (
            "technique",
            f"nodes at depth {comparison.depth}",
            "nodes with deepening",
            "seconds",
            "value",
            "move",
            "saved vs previous",
            "saved vs minimax",
        ),
        [
            (
                r.technique,
                "" if r.nodes is None else r.nodes,
                r.total_nodes if r.complete else f"> {r.total_nodes} (cap)",
                f"{r.seconds:.3f}",
                r.value,
                r.move,
                r.saved_vs_previous,
                r.saved_vs_minimax,
            )
            for r in comparison.rows
        ],
    )


def engine_html(view: EngineView) -> str:
    """The engine's reports and (within reach) every move's exact value."""
    reports = _table(
        ("depth", "value", "nodes", "seconds", "line", "exact", "table hits", "solver nodes"),
        [
            (
                i.depth,
                i.value,
                i.nodes,
                f"{i.seconds:.3f}",
                " ".join(i.line),
                i.exact,
                _ratio(i.tt_hits, i.tt_probes),
                _ratio(i.solver_nodes, i.nodes),
            )
            for i in view.iterations
        ],
    )
    shares = (
        f"<p>table hit rate {_percent(view.table_hit_rate)}, "
        f"solver share of the nodes {_percent(view.solver_share)}</p>"
    )
    moves = _table(
        ("move", "exact value", "engine's choice"),
        [(m.move, m.value, "yes" if m.move == view.move else "") for m in view.moves],
    )
    return reports + shares + (moves if view.moves else "")


def _percent(share: float | None) -> str:
    return "unknown" if share is None else f"{100 * share:.1f}%"


def _ratio(part: int | None, whole: int | None) -> str:
    """``part`` as a percentage of ``whole`` ("" when either is unknown or ``whole`` is 0)."""
    return "" if part is None or not whole else _percent(part / whole)
