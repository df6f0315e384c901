"""Positions as SVG pictures: the board pictures of reports, docs and the web.

The picture follows the printed-diagram conventions of chess software: rank 1
at the bottom, files ``a``.. left to right, coordinates outside the grid. X and
O differ by *shape* (a cross and a ring) as well as by colour, so the picture
reads in greyscale and for colour-blind readers. Optional marks: the last move
(a thick square outline), the squares it converted (a dot in the corner) and a
heat map (a number per square, written on it over a tint from cool to warm).
Pure core: it needs only what :class:`Drawable` names, which a
:class:`~adjacency.core.position.Position` has (a position draws itself with this
module, so this module never imports it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Protocol

from .board import Board
from .errors import InvalidSettingsError
from .fen import Color
from .text import quote


class Drawable(Protocol):
    """What a picture reads of a position: its board, score, text and pieces."""

    @property
    def board(self) -> Board:
        """The board's geometry: its size and square names."""
        ...

    @property
    def score(self) -> tuple[int, int]:
        """X's and O's pieces."""
        ...

    def fen(self) -> str:
        """The position's text (the picture's default title)."""
        ...

    def piece_at(self, square: str | int) -> Color | None:
        """The piece on ``square`` (a name or an index), ``None`` when empty."""
        ...


X_COLOR = "#c62828"
O_COLOR = "#1565c0"
LIGHT = "#f3efe6"
DARK = "#e4dccb"
MARK = "#f9a825"


def position_svg(
    position: Drawable,
    last: str | int | None = None,
    converted: Iterable[str | int] = (),
    square: int = 48,
    coordinates: bool = True,
    title: str | None = None,
    heat: Mapping[str, float] | Mapping[int, float] | None = None,
) -> str:
    """An SVG document of ``position`` (``square`` pixels per square).

    ``heat`` maps squares to numbers (a search's value of each move, say): each such
    square is tinted from cool (the lowest number) to warm (the highest) and shows
    its number. ``last``, ``converted`` and ``heat``'s keys are square names or
    indices; they are checked against the board (an off-board name raises
    :class:`~adjacency.core.errors.InvalidSquareError`); a ``square`` that is not a
    whole number from 8 raises :class:`~adjacency.core.errors.InvalidSettingsError`.
    """
    if not isinstance(square, int) or square < 8:
        raise InvalidSettingsError(
            f"square size must be a whole number of pixels >= 8, got {quote(square)}"
        )
    geometry = position.board
    pad = square // 2 if coordinates else 0
    width = geometry.cols * square + 2 * pad
    height = geometry.rows * square + 2 * pad
    marked = {geometry.index(s) for s in converted}
    hot = {geometry.index(s): float(v) for s, v in (heat or {}).items()}
    low, high = min(hot.values(), default=0.0), max(hot.values(), default=0.0)
    last_index = None if last is None else geometry.index(last)
    x_count, o_count = position.score
    label = title or f"{position.fen()} (X {x_count}, O {o_count})"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    font = max(8, square // 4)
    for index in range(geometry.size):
        rank, file = divmod(index, geometry.cols)
        left = pad + file * square
        top = pad + (geometry.rows - 1 - rank) * square
        fill = DARK if (rank + file) % 2 == 0 else LIGHT
        parts.append(
            f'<rect x="{left}" y="{top}" width="{square}" height="{square}" fill="{fill}" '
            f'stroke="#b8ad96" stroke-width="1"/>'
        )
        if index in hot:
            share = 0.5 if high == low else (hot[index] - low) / (high - low)
            parts.append(_heat(left, top, square, hot[index], share))
        piece = position.piece_at(index)
        if piece == "x":
            parts.append(_cross(left, top, square))
        elif piece == "o":
            parts.append(_ring(left, top, square))
        if index in marked:
            r = max(2, square // 10)
            parts.append(
                f'<circle cx="{left + square - 2 * r}" cy="{top + 2 * r}" r="{r}" fill="{MARK}" '
                f'stroke="#5d4037" stroke-width="1"><title>converted</title></circle>'
            )
        if index == last_index:
            w = max(2, square // 14)
            parts.append(
                f'<rect x="{left + w / 2}" y="{top + w / 2}" width="{square - w}" '
                f'height="{square - w}" fill="none" stroke="{MARK}" stroke-width="{w}">'
                f"<title>last move</title></rect>"
            )
    if coordinates:
        for file in range(geometry.cols):
            cx = pad + file * square + square / 2
            for cy in (pad / 2, height - pad / 2):
                parts.append(_text(cx, cy, "abcdefgh"[file], font))
        for rank in range(geometry.rows):
            cy = pad + (geometry.rows - 1 - rank) * square + square / 2
            for cx in (pad / 2, width - pad / 2):
                parts.append(_text(cx, cy, str(rank + 1), font))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _cross(left: float, top: float, size: int) -> str:
    m = size * 0.22
    w = max(2.0, size * 0.12)
    return (
        f'<path d="M{left + m} {top + m} L{left + size - m} {top + size - m} '
        f'M{left + size - m} {top + m} L{left + m} {top + size - m}" stroke="{X_COLOR}" '
        f'stroke-width="{w:.1f}" stroke-linecap="round"><title>X</title></path>'
    )


def _ring(left: float, top: float, size: int) -> str:
    w = max(2.0, size * 0.11)
    return (
        f'<circle cx="{left + size / 2}" cy="{top + size / 2}" r="{size * 0.3:.1f}" '
        f'fill="none" stroke="{O_COLOR}" stroke-width="{w:.1f}"><title>O</title></circle>'
    )


def _heat(left: float, top: float, size: int, value: float, share: float) -> str:
    """A square's tint for ``share`` (0: the coolest, 1: the warmest) and its ``value``."""
    cool, warm = (144, 202, 249), (239, 108, 0)
    r, g, b = (round(c + (w - c) * share) for c, w in zip(cool, warm, strict=True))
    number = f"{value:g}"
    font = max(8, size // 3)
    return (
        f'<rect x="{left + 1}" y="{top + 1}" width="{size - 2}" height="{size - 2}" '
        f'fill="rgb({r},{g},{b})" fill-opacity="0.8"><title>{escape(number)}</title></rect>'
        f'<text x="{left + size / 2}" y="{top + size / 2}" font-family="sans-serif" '
        f'font-size="{font}" fill="#212121" text-anchor="middle" '
        f'dominant-baseline="central">{escape(number)}</text>'
    )


def _text(x: float, y: float, text: str, font: int) -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{font}" fill="#555" '
        f'text-anchor="middle" dominant-baseline="central">{escape(text)}</text>'
    )
