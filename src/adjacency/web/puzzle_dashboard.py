"""A browser's puzzle dashboard: its first tries' success and performance per theme, per
phase of the game and per length, and its rating over its rated attempts, as SVG charts
the server draws (no chart library, no script: the page places the markup as it is).

Contract: :func:`success_per_theme` counts, for each group of the tried puzzles (a theme,
a phase, a length), the puzzles tried and those solved at the first try (a puzzle counts
once for each of its groups), and sums their ratings; :func:`theme_chart` draws those
counts as one bar a group, the share solved filled, most tried first, with the group's
performance (:attr:`ThemeSuccess.performance`: the rating at which those first tries
were played, as the puzzle sites reckon it). A group's label carries its catalogue key
when it has one (``data-i18n="puzzle.theme.NAME"``, the English name as its text), so
the page's catalogue (i18n.js ``translate``) words it in the reader's language; a length
is a number. Everything drawn is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

PERIODS = {"day": 86_400.0, "week": 7 * 86_400.0, "month": 30 * 86_400.0}
"""The dashboard's periods (seconds back from now that a first try may be): the last day,
7 days and 30 days; without one, every first try counts."""
ROW = 36
"""The height of a theme's row (px): its name and its performance, then its bar under it
(a long name in any language never runs into the bar)."""
HEAD = 20
"""The height of the chart's head (px): the performance column's title."""
BAR = 320
"""The width of a whole bar, 100% tried (px)."""
WIDTH = BAR + 64
"""The chart's width: the bar, then "solved/tried"."""


@dataclass(frozen=True)
class ThemeSuccess:
    """One theme's first tries: ``tried`` puzzles, ``won`` solved at the first try, and
    the sum of those puzzles' ratings (``ratings``)."""

    theme: str
    tried: int
    won: int
    ratings: float

    @property
    def performance(self) -> int:
        """The rating these first tries were played at: the puzzles' mean rating, less
        500 for none solved, up to plus 500 for all (lichess's puzzle dashboard reckons
        its performance so). A theme tried once moves it by 1,000: a row with few tries
        says little, which its "solved/tried" shows beside it."""
        return round(self.ratings / self.tried - 500 + 1000 * self.won / self.tried)


def success_per_theme(
    tries: Iterable[tuple[Iterable[str], bool, float]], numbers: bool = False
) -> list[ThemeSuccess]:
    """Each theme's counts from ``tries`` (a tried puzzle's themes, whether its first try
    solved it, and its rating), the most tried first, then by name; with ``numbers`` (the
    groups are numbers, such as lengths) in the numbers' order, a scale read as one."""
    tried: dict[str, int] = {}
    won: dict[str, int] = {}
    ratings: dict[str, float] = {}
    for themes, win, rating in tries:
        for theme in set(themes):
            tried[theme] = tried.get(theme, 0) + 1
            won[theme] = won.get(theme, 0) + int(win)
            ratings[theme] = ratings.get(theme, 0.0) + rating
    order = sorted(tried, key=int) if numbers else sorted(tried, key=lambda n: (-tried[n], n))
    return [ThemeSuccess(theme, tried[theme], won[theme], ratings[theme]) for theme in order]


def theme_chart(
    rows: list[ThemeSuccess], key: str | None = "puzzle.theme", named_by: str = "dashboard-title"
) -> str:
    """The SVG markup of ``rows``: a bar a group, its first-try successes filled, its
    performance at the end of its name's line under the column's title (catalogue key
    ``puzzle.performance``); each label is its catalogue key ``key.NAME`` (``None``: the
    name as it is, a number). No rows, no title: an empty chart. ``named_by``: the ids of
    the page's elements that name the chart for a screen reader (each chart its own)."""
    height = max(1, len(rows)) * ROW + 8 + (HEAD if rows else 0)
    parts = [
        f'<svg class="theme-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} '
        f'{height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="{escape(named_by, quote=True)}">'
    ]
    if rows:
        parts.append(
            f'<text class="theme-head" x="{BAR}" y="14" text-anchor="end" '
            'data-i18n="puzzle.performance">performance</text>'
        )
    for i, row in enumerate(rows):
        y = 4 + HEAD + i * ROW
        share = row.won / row.tried if row.tried else 0.0
        name = escape(row.theme, quote=True)
        parts.append(
            f'<g class="theme-row" data-theme="{name}" data-tried="{row.tried}" '
            f'data-won="{row.won}" data-performance="{row.performance}">'
            f'<text x="0" y="{y + 12}"{_key(key, name)}>{name}</text>'
            f'<text class="theme-performance" x="{BAR}" y="{y + 12}" text-anchor="end">'
            f"{row.performance}</text>"
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


PLOT_HEIGHT = 120
"""The height of the rating's plot (px); the chart adds a line of labels under it."""


def rating_chart(ratings: list[float], times: list[float] | None = None) -> str:
    """The SVG markup of a player's puzzle rating after each of its rated attempts
    (``ratings``, oldest first): a line from the first to the last, one step an attempt,
    between the lowest and the highest rating (their values labelled at the left), the
    last rating labelled at the line's end. With ``times`` (each attempt's Unix time),
    the first attempt's day is written under its point and the last one's under its own
    when it is another day: each a ``rating-date`` text whose ``data-at`` the page words
    in the reader's language (its text, the ISO day in UTC, is for a reader without the
    page's script). No rating, no line: an empty chart (``data-points="0"``), which the
    page leaves out."""
    points = ratings
    if times is not None and len(times) != len(ratings):
        raise ValueError(f"{len(times)} times for {len(ratings)} ratings")
    height = PLOT_HEIGHT + 40
    parts = [
        f'<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} '
        f'{height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="rating-title" data-points="{len(points)}"'
    ]
    if not points:
        return parts[0] + "></svg>"
    low, high = min(ratings), max(ratings)
    span = max(high - low, 1.0)
    left, right = 44, BAR + 16
    step = (right - left) / max(1, len(points) - 1)

    def y(rating: float) -> float:
        return round(8 + (high - rating) / span * (PLOT_HEIGHT - 16), 1)

    line = " ".join(f"{round(left + i * step, 1)},{y(r)}" for i, r in enumerate(ratings))
    last = ratings[-1]
    parts[0] += f' data-last="{round(last)}" data-low="{round(low)}" data-high="{round(high)}">'
    parts.append(
        f'<line class="rating-axis" x1="{left}" y1="8" x2="{left}" y2="{PLOT_HEIGHT - 8}"/>'
        f'<text x="0" y="{y(high) + 4}">{round(high)}</text>'
        f'<text x="0" y="{y(low) + 4}">{round(low)}</text>'
        f'<polyline class="rating-line" fill="none" points="{line}"/>'
        f'<text x="{round(left + (len(points) - 1) * step, 1) + 6}" y="{y(last) + 4}">'
        f"{round(last)}</text>"
        + _dates(times or [], left, step)
        + f'<text x="0" y="{PLOT_HEIGHT + 30}" data-i18n="puzzle.rating-axis">'
        "rated attempts, oldest to latest</text></svg>"
    )
    return "".join(parts)


def _dates(times: list[float], left: float, step: float) -> str:
    """The first attempt's day under its point, and the last one's under its own when it
    is another day (at the chart's start and end: two labels never overlap)."""
    if not times:
        return ""

    def day(at: float) -> str:
        return datetime.fromtimestamp(at, UTC).date().isoformat()

    marks = [(0, "start")]
    if day(times[-1]) != day(times[0]):
        marks.append((len(times) - 1, "end"))
    return "".join(
        f'<text class="rating-date" x="{round(left + i * step, 1)}" y="{PLOT_HEIGHT + 8}" '
        f'text-anchor="{anchor}" data-at="{round(times[i])}">{day(times[i])}</text>'
        for i, anchor in marks
    )
