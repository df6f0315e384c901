"""The lab's drawing primitives: a line chart (:func:`chart`) and an HTML table
(:func:`html_table`), plain string building with escaped text, no plotting library, so
a notebook shows each trace without extras.

Each trace draws itself with them in its own module (``_repr_svg_`` / ``_repr_html_``:
:func:`~.climb.climb_svg`, :func:`~.tree.tree_svg` ...), so the traces import this
module and it imports none of them. Board pictures (the local search's heat map) are the
core's (:func:`adjacency.core.svg.position_svg`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 640, 260
"""The charts' size in pixels."""


def chart(
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
        f'<text x="{left - 4}" y="{top + 4}" text-anchor="end">{escape(tick(y1, log_y))}</text>',
        f'<text x="{left - 4}" y="{HEIGHT - bottom}" text-anchor="end">'
        f"{escape(tick(y0, log_y))}</text>",
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


def tick(value: float, log_y: bool) -> str:
    """An axis label: ``value`` (its power of ten on a log axis) to three figures."""
    return f"{10**value:.3g}" if log_y else f"{value:.3g}"


def html_table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """An HTML table of ``head`` and ``rows``, every cell's text escaped."""
    cells = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def percent(share: float | None) -> str:
    """``share`` (0..1) as ``12.5%``; ``unknown`` for ``None``."""
    return "unknown" if share is None else f"{100 * share:.1f}%"


def ratio(part: int | None, whole: int | None) -> str:
    """``part`` as a percentage of ``whole`` ("" when either is unknown or ``whole`` is 0)."""
    return "" if part is None or not whole else percent(part / whole)
