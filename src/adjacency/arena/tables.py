"""Rich tables of results: per pairing and rounds setting, the ranking, the SPRT line.

Formatting helpers here are shared with the markdown report, so the terminal
and the report show the same numbers the same way.

The tables fit the width they are printed at (:class:`FittedTable`): a player's
name is never cut and no cell is broken over lines; when the whole table is
wider than the terminal, the least needed columns are left out, and the caption
names them. A console without a width limit (output to a file or a pipe, see
:func:`adjacency.cli.terminal.make_console`) gets every column.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions
from rich.table import Table

from ..ratings.bradley_terry import Rating
from ..ratings.margin import MarginEstimate
from ..ratings.stats import INTERVAL_METHOD, Estimate
from .sequential import SequentialTest
from .summary import NodeLoad, RankingGroup, Summary

PAIRING_COLUMNS = (
    "A", "B", "rounds", "games", "W-D-L", "score", "Elo [95%]", "margin ± 95%", "LOS",
    "time", "illegal", "crash", "stand-in", "pairs LL-LD-DD-WD-WW",
)  # fmt: skip
RANKING_COLUMNS = ("rank", "player", "Elo [95%]", "games", "points", "score")
"""The ranking's columns: its Elo interval is the pairing table's method
(:data:`~adjacency.ratings.stats.INTERVAL_METHOD`), named in each table's caption."""


def fmt_elo(value: float) -> str:
    """An Elo difference as a signed whole number (``+12``, ``+0``, never ``-0``); ``+inf`` or
    ``-inf`` for an infinity and ``n/a`` for NaN."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "n/a"
    return f"{round(value) + 0:+d}"  # no "-0"


def fmt_estimate(est: Estimate) -> str:
    """``+35 [+14, +57]``: the Elo and the ends of its 95% interval, which is asymmetric on
    the Elo scale (:data:`~adjacency.ratings.stats.INTERVAL_METHOD`), so never written as
    a ``±`` half width; ``+inf [+399, +inf]`` for a sweep; ``n/a`` without games."""
    if not est.samples:
        return "n/a"
    return f"{fmt_elo(est.elo)} [{fmt_elo(est.low)}, {fmt_elo(est.high)}]"


def fmt_margin(est: MarginEstimate) -> str:
    """A mean margin per game as the Elo column shows Elo: ``+0.32 ± 0.16`` (two decimals,
    never ``-0.00``), ``+2.00 ± inf`` when the sample cannot bound the interval (no spread
    observed), ``n/a`` without games."""
    if not est.samples:
        return "n/a"
    mean = f"{round(est.mean, 2) + 0.0:+.2f}"
    return f"{mean} ± inf" if not est.bounded else f"{mean} ± {est.error:.2f}"


def summary_row(s: Summary) -> list[str]:
    """The cells of one pairing row, in :data:`PAIRING_COLUMNS` order."""
    return [
        s.a,
        s.b,
        "all" if s.rounds is None else str(s.rounds),
        str(s.games),
        f"{s.wins}-{s.draws}-{s.losses}",
        f"{100 * s.score:.1f}%",
        fmt_estimate(s.estimate),
        fmt_margin(s.margin),
        f"{100 * s.los:.1f}%",
        s.fault_text("time"),
        s.fault_text("illegal"),
        s.fault_text("crash"),
        f"{s.stand_ins_a}/{s.stand_ins_b}",
        "-".join(str(c) for c in s.penta),
    ]


def rating_row(rank: int, r: Rating) -> list[str]:
    """The cells of ``r`` in the ranking table: ``rank``, player, Elo and the ends of its 95%
    likelihood-ratio interval (as :func:`fmt_estimate` writes a pairing's), games, points
    and score."""
    return [
        str(rank),
        r.player,
        f"{fmt_elo(r.elo)} [{fmt_elo(r.low)}, {fmt_elo(r.high)}]",
        str(r.games),
        f"{r.points:g}",
        f"{100 * r.score:.1f}%",
    ]


_NATURAL = 100_000
"""A width at which a table's measurement is its natural (unwrapped) width."""


@dataclass(frozen=True)
class Column:
    """A column of a :class:`FittedTable`.

    ``drop``: 0 keeps the column at any width; otherwise columns are left out
    highest ``drop`` first until the table fits. ``name`` columns hold player
    names: left-justified and, if even the kept columns do not fit, folded over
    lines (every character shown) rather than cut; the others never wrap.
    """

    header: str
    drop: int = 0
    name: bool = False


@dataclass(frozen=True)
class Row:
    cells: Sequence[str]
    style: str | None = None
    end_section: bool = False


class FittedTable:
    """A rich renderable: a table with as many of its columns as fit the printing width.

    Rich hands the width to :meth:`__rich_console__`, so the same object prints
    whole to a file and narrowed on an 80-column terminal: columns are left out
    (highest :attr:`Column.drop` first), then the outer border, and only if the
    kept columns still do not fit do the names fold over lines.
    """

    def __init__(
        self, title: str, caption: str, columns: Sequence[Column], rows: Sequence[Row]
    ) -> None:
        self.title = title
        self.caption = caption
        self.columns = list(columns)
        self.rows = list(rows)

    def table(self, shown: Sequence[int], compact: bool = False, fold: bool = False) -> Table:
        """The table with the columns at ``shown`` (indices); ``compact`` leaves out the
        outer border and its padding, ``fold`` lets names fold over lines."""
        hidden = [c.header for i, c in enumerate(self.columns) if i not in shown]
        caption = self.caption
        if hidden:
            caption += f". Hidden at this width: {', '.join(hidden)} (a wider terminal or a "
            caption += "file shows them)"
        table = Table(
            title=self.title, caption=caption, show_edge=not compact, pad_edge=not compact
        )
        for i in shown:
            column = self.columns[i]
            table.add_column(
                column.header,
                justify="left" if column.name else "right",
                no_wrap=not (column.name and fold),
                overflow="fold",
            )
        for row in self.rows:
            table.add_row(
                *(row.cells[i] for i in shown), style=row.style, end_section=row.end_section
            )
        return table

    def fitted(self, console: Console, options: ConsoleOptions) -> Table:
        """The table with the most columns whose natural width fits ``options.max_width``."""
        unlimited = options.update_width(max(options.max_width, _NATURAL))

        def fits(table: Table) -> bool:
            return console.measure(table, options=unlimited).maximum <= options.max_width

        shown = list(range(len(self.columns)))
        droppable = sorted(
            (i for i, c in enumerate(self.columns) if c.drop), key=lambda i: -self.columns[i].drop
        )
        table = self.table(shown)
        for index in droppable:
            if fits(table):
                return table
            shown.remove(index)
            table = self.table(shown)
        if fits(table):
            return table
        table = self.table(shown, compact=True)
        return table if fits(table) else self.table(shown, compact=True, fold=True)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        yield self.fitted(console, options)


PAIRING_DROP = {
    "stand-in": 10, "pairs LL-LD-DD-WD-WW": 9, "illegal": 8, "crash": 7, "time": 6, "LOS": 5,
    "games": 4, "score": 3, "W-D-L": 2, "margin ± 95%": 1,
}  # fmt: skip
"""The order in which the pairing table leaves out columns on a narrow terminal."""


def pairing_table(summaries: Sequence[Summary], title: str = "Results") -> FittedTable:
    """Per pairing and rounds setting (plus an ``all`` row per pairing), A's point of view."""
    columns = [
        Column(name, drop=PAIRING_DROP.get(name, 0), name=name in ("A", "B"))
        for name in PAIRING_COLUMNS
    ]
    several = len({s.rounds for s in summaries if s.rounds is not None}) > 1
    rows = [
        Row(
            summary_row(s), style="bold" if s.rounds is None else None, end_section=s.rounds is None
        )
        for s in summaries
        if s.rounds is not None or several
    ]
    caption = (
        f"A's view; Elo [95% {INTERVAL_METHOD} interval] from game pairs (pentanomial); "
        "margin: A's squares minus B's per game, ± 95% from game pairs; time/illegal/crash: "
        "forfeits of A/B; stand-in: moves of "
        "A/B their engine said were not their bot's own"
    )
    return FittedTable(title, caption, columns, rows)


def ranking_table(ratings: Sequence[Rating], title: str = "Ranking") -> FittedTable:
    """The Bradley-Terry ranking of ``ratings``, in their order, as a :class:`FittedTable` (on a
    narrow terminal, points, score and games are left out in that order)."""
    drop = {"points": 3, "score": 2, "games": 1}
    columns = [Column(n, drop=drop.get(n, 0), name=n == "player") for n in RANKING_COLUMNS]
    rows = [Row(rating_row(rank, rating)) for rank, rating in enumerate(ratings, 1)]
    caption = f"Bradley-Terry Elo (mean 0) [95% {INTERVAL_METHOD} interval]"
    return FittedTable(title, caption, columns, rows)


def group_title(group: RankingGroup, count: int, base: str = "Ranking") -> str:
    """The heading of one group's ranking: ``Ranking`` when every player is in one group,
    else ``Ranking, group 2 of 3 (not connected to the others by games): a, b``."""
    if count == 1:
        return base
    members = ", ".join(sorted(group.players))
    return f"{base}, {group.name} of {count} (not connected to the others by games): {members}"


def ranking_tables(groups: Sequence[RankingGroup]) -> list[FittedTable]:
    """One :func:`ranking_table` per group of players connected by games, each titled by
    :func:`group_title` (ranks and Elo are within the group only)."""
    return [ranking_table(g.ratings, group_title(g, len(groups))) for g in groups]


def sprt_text(sprt: SequentialTest, llr: float | None, verdict: str | None) -> str:
    """One line: ``SPRT elo0=0 elo1=10 ...: LLR 1.23 [-2.94, 2.94], H1 accepted`` (or
    ``SPRT stat=margin m0=0 m1=0.5 ...: ...`` for the margin test)."""
    state = {"H1": "H1 accepted", "H0": "H0 accepted", None: "continue"}[verdict]
    value = "n/a" if llr is None else f"{round(llr, 2) + 0.0:.2f}"  # no "-0.00"
    return f"SPRT {sprt.describe()}: LLR {value} [{sprt.lower:.2f}, {sprt.upper:.2f}], {state}"


def sprt_outcome(verdict: str | None, games: int, cap: int) -> str:
    """How an SPRT match ended: ``SPRT: accepted H1 after 314 games``, or at its cap
    ``SPRT: stopped at the cap of 10000 games without a verdict``, or cut short."""
    if verdict is not None:
        return f"SPRT: accepted {verdict} after {games} games"
    if games >= cap:
        return f"SPRT: stopped at the cap of {cap} games without a verdict"
    return f"SPRT: no verdict yet after {games} of at most {cap} games (--resume continues)"


NODE_COLUMNS = ("node", "host", "games", "processes", "s/game")


def node_row(load: NodeLoad) -> list[str]:
    """The cells of one node in the node table: its id (12 characters), host, games, processes
    and seconds per game."""
    return [
        load.node[:12] or "(not recorded)",
        load.host or "-",
        str(load.games),
        str(load.processes),
        f"{load.mean_seconds:.2f}",
    ]


def node_table(loads: Sequence[NodeLoad], title: str = "Games per node") -> FittedTable:
    """Where the games were played: per Ray node (id prefix) or ``local``, with its host."""
    drop = {"processes": 2, "s/game": 1}
    columns = [Column(n, drop=drop.get(n, 0), name=n in ("node", "host")) for n in NODE_COLUMNS]
    rows = [Row(node_row(load)) for load in loads]
    return FittedTable(title, "node: Ray node id (first 12 digits) or local", columns, rows)
