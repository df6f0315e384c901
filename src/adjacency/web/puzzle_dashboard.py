"""A browser's puzzle dashboard: its first tries' success per theme, per phase of the
game and per length, as SVG charts the server draws (no chart library, no script: the
page places the markup as it is).

Contract: :func:`success_per_theme` counts, for each group of the tried puzzles (a theme,
a phase, a length), the puzzles tried and those solved at the first try (a puzzle counts
once for each of its groups); :func:`theme_chart` draws those counts as one bar a group,
the share solved filled, most tried first. A group's label carries its catalogue key
when it has one (``data-i18n="puzzle.theme.NAME"``, the English name as its text), so
the page's catalogue (i18n.js ``translate``) words it in the reader's language; a length
is a number. Everything drawn is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

ROW = 36
"""The height of a theme's row (px): its name, then its bar under it (a long name in
any language never runs into the bar)."""
BAR = 320
"""The width of a whole bar, 100% tried (px)."""
WIDTH = BAR + 64
"""The chart's width: the bar, then "solved/tried"."""


@dataclass(frozen=True)
class ThemeSuccess:
    """One theme's first tries: ``tried`` puzzles, ``won`` solved at the first try."""

    theme: str
    tried: int
    won: int


def success_per_theme(tries: Iterable[tuple[Iterable[str], bool]]) -> list[ThemeSuccess]:
    """Each theme's counts from ``tries`` (a tried puzzle's themes, and whether its first
    try solved it), the most tried first, then by name."""
    tried: dict[str, int] = {}
    won: dict[str, int] = {}
    for themes, win in tries:
        for theme in set(themes):
            tried[theme] = tried.get(theme, 0) + 1
            won[theme] = won.get(theme, 0) + int(win)
    return [
        ThemeSuccess(theme, tried[theme], won[theme])
        for theme in sorted(tried, key=lambda name: (-tried[name], name))
    ]


def theme_chart(rows: list[ThemeSuccess], key: str | None = "puzzle.theme") -> str:
    """The SVG markup of ``rows``: a bar a group, its first-try successes filled; each
    label is its catalogue key ``key.NAME`` (``None``: the name as it is, a number)."""
    height = max(1, len(rows)) * ROW + 8
    parts = [
        f'<svg class="theme-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} '
        f'{height}" width="{WIDTH}" height="{height}" role="img" '
        'aria-labelledby="dashboard-title">'
    ]
    for i, row in enumerate(rows):
        y = 4 + i * ROW
        share = row.won / row.tried if row.tried else 0.0
        name = escape(row.theme, quote=True)
        parts.append(
            f'<g class="theme-row" data-theme="{name}" data-tried="{row.tried}" '
            f'data-won="{row.won}">'
            f'<text x="0" y="{y + 12}"{_key(key, name)}>{name}</text>'
            f'<rect class="bar-tried" x="0" y="{y + 17}" width="{BAR}" height="12" rx="3"/>'
            f'<rect class="bar-won" x="0" y="{y + 17}" width="{round(BAR * share, 1)}" '
            f'height="12" rx="3"/>'
            f'<text x="{BAR + 8}" y="{y + 28}">{row.won}/{row.tried}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _key(key: str | None, name: str) -> str:
    """The label's catalogue attribute (``name`` is escaped already), or none."""
    return f' data-i18n="{escape(key, quote=True)}.{name}"' if key else ""
