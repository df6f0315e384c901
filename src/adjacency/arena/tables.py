"""Rich tables of results: per pairing and rounds setting, the ranking, the SPRT line.

Formatting helpers here are shared with the markdown report, so the terminal
and the report show the same numbers the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.table import Table

from .stats import Estimate, Rating, Sprt
from .summary import NodeLoad, Summary

PAIRING_COLUMNS = (
    "A", "B", "rounds", "games", "W-D-L", "score", "Elo ± 95%", "LOS",
    "time", "illegal", "crash", "pairs LL-LD-DD-WD-WW",
)  # fmt: skip
RANKING_COLUMNS = ("rank", "player", "Elo ± 95%", "games", "points", "score")


def fmt_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "n/a"
    return f"{round(value) + 0:+d}"  # no "-0"


def fmt_estimate(est: Estimate) -> str:
    """``+35 ± 21`` (cutechess-style half width); ``-191 ± inf`` when the sample cannot
    bound the interval (no spread observed); the interval ends if one end is infinite."""
    if not est.samples:
        return "n/a"
    if math.isinf(est.elo):
        return fmt_elo(est.elo)
    if not est.bounded:
        return f"{fmt_elo(est.elo)} ± inf"
    if math.isinf(est.low) or math.isinf(est.high):
        return f"{fmt_elo(est.elo)} [{fmt_elo(est.low)}, {fmt_elo(est.high)}]"
    return f"{fmt_elo(est.elo)} ± {est.error:.0f}"


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
        f"{100 * s.los:.1f}%",
        s.fault_text("time"),
        s.fault_text("illegal"),
        s.fault_text("crash"),
        "-".join(str(c) for c in s.penta),
    ]


def rating_row(rank: int, r: Rating) -> list[str]:
    return [
        str(rank),
        r.player,
        f"{fmt_elo(r.elo)} ± {r.error:.0f}",
        str(r.games),
        f"{r.points:g}",
        f"{100 * r.score:.1f}%",
    ]


def pairing_table(summaries: Sequence[Summary], title: str = "Results") -> Table:
    """Per pairing and rounds setting (plus an ``all`` row per pairing), A's point of view."""
    table = Table(
        title=title,
        caption="A's view; Elo ± 95% from game pairs (pentanomial); time/illegal/crash: "
        "forfeits of A/B",
    )
    for name in PAIRING_COLUMNS:
        table.add_column(name, justify="left" if name in ("A", "B") else "right")
    several = len({s.rounds for s in summaries if s.rounds is not None}) > 1
    for s in summaries:
        if s.rounds is None and not several:
            continue
        style = "bold" if s.rounds is None else None
        table.add_row(*summary_row(s), style=style, end_section=s.rounds is None)
    return table


def ranking_table(ratings: Sequence[Rating], title: str = "Ranking") -> Table:
    table = Table(title=title, caption="Bradley-Terry Elo (mean 0) with 95% intervals")
    for name in RANKING_COLUMNS:
        table.add_column(name, justify="left" if name == "player" else "right")
    for rank, rating in enumerate(ratings, 1):
        table.add_row(*rating_row(rank, rating))
    return table


def sprt_text(sprt: Sprt, llr: float | None, verdict: str | None) -> str:
    """One line: ``SPRT elo0=0 elo1=10 ...: LLR 1.23 [-2.94, 2.94], H1 accepted``."""
    state = {"H1": "H1 accepted", "H0": "H0 accepted", None: "continue"}[verdict]
    value = "n/a" if llr is None else f"{llr:.2f}"
    return f"SPRT {sprt.describe()}: LLR {value} [{sprt.lower:.2f}, {sprt.upper:.2f}], {state}"


NODE_COLUMNS = ("node", "host", "games", "processes", "s/game")


def node_row(load: NodeLoad) -> list[str]:
    return [
        load.node[:12] or "(not recorded)",
        load.host or "-",
        str(load.games),
        str(load.processes),
        f"{load.mean_seconds:.2f}",
    ]


def node_table(loads: Sequence[NodeLoad], title: str = "Games per node") -> Table:
    """Where the games were played: per Ray node (id prefix) or ``local``, with its host."""
    table = Table(title=title, caption="node: Ray node id (first 12 digits) or local")
    for name in NODE_COLUMNS:
        table.add_column(name, justify="left" if name in ("node", "host") else "right")
    for load in loads:
        table.add_row(*node_row(load))
    return table
