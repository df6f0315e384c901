"""Reports of the solved-game table: text and markdown tables, the frontier, the cost fit
and the plots (a heat map of values, the growth of nodes with rounds).

Values are the final margin under perfect play from the first mover's view: a
negative value is a win of the second mover (the side that moves last).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import board
from ..core.board import MAX_SIDE, MIN_SIDE
from ..plotting import pyplot, save
from .solved_starts import EntryResult

SIZES = [(r, c) for r in range(MIN_SIDE, MAX_SIDE + 1) for c in range(MIN_SIDE, MAX_SIDE + 1)]
FIT_MIN_NODES = 100_000
"""Entries with fewer nodes are dominated by fixed costs and left out of the growth fit."""


def _by_key(results: list[EntryResult]) -> dict[tuple[int, int, int, str], EntryResult]:
    return {(r.entry.rows, r.entry.cols, r.entry.rounds, r.entry.first): r for r in results}


def _cell(result: EntryResult | None) -> str:
    if result is None:
        return ""
    if result.status == "timeout":
        return "…"
    assert result.value is not None
    return f"{result.value:+d}" if result.value else "0"


def entry_rows(results: list[EntryResult]) -> list[dict[str, Any]]:
    """Every entry as a plain dict (JSON output)."""
    return [
        {
            "rows": r.entry.rows,
            "cols": r.entry.cols,
            "rounds": r.entry.rounds,
            "first": r.entry.first,
            "status": r.status,
            "value": r.value,
            "optimal": list(r.optimal),
            "first_moves": len(r.move_values),
            "move_values": r.move_values,
            "pv": list(r.pv),
            "nodes": r.nodes,
            "seconds": round(r.seconds, 3),
            "budget": r.budget,
            "solves": r.solves,
            "root_moves": r.root_moves,
            "symmetry": r.symmetry,
            "source": r.source,
            "provenance": r.provenance,
        }
        for r in results
    ]


@dataclass(frozen=True)
class Frontier:
    """How far one board size and first mover got: ``solved`` rounds 1..solved, and the
    first timeout (``None`` when every rounds count up to ``max_rounds`` is solved)."""

    rows: int
    cols: int
    first: str
    solved: int
    timeout: EntryResult | None
    max_rounds: int

    def __str__(self) -> str:
        size = f"{self.rows}x{self.cols} {self.first} first"
        if self.solved == self.max_rounds:
            return f"{size}: complete, all {self.max_rounds} rounds counts solved"
        if self.timeout is not None:
            solved = f"solved 1-{self.solved} rounds" if self.solved else "no rounds count solved"
            return (
                f"{size}: {solved}; {self.timeout.entry.rounds} rounds "
                f"not within {self.timeout.budget:g} s (of {self.max_rounds})"
            )
        return f"{size}: solved 1-{self.solved} rounds (of {self.max_rounds}); not run further"


def frontiers(results: list[EntryResult]) -> list[Frontier]:
    """The frontier of every (size, first mover) that has stored entries."""
    table = _by_key(results)
    found = []
    for rows, cols in SIZES:
        for first in ("x", "o"):
            top = board(rows, cols).max_rounds()
            solved = 0
            timeout = None
            for rounds in range(1, top + 1):
                result = table.get((rows, cols, rounds, first))
                if result is None:
                    break
                if result.status == "timeout":
                    timeout = result
                    break
                solved = rounds
            if solved or timeout:
                found.append(Frontier(rows, cols, first, solved, timeout, top))
    return found


LEGEND = (
    "values: the final margin under perfect play from the first mover's view (0: a draw, "
    "-2: the second mover wins by 2 pieces); …: not solved within the entry's budget; "
    "-: longer than the board allows; blank: not attempted"
)
"""What the cells of the values table mean (the same words as docs/solutions.md)."""


def text_tables(
    results: list[EntryResult], markdown: bool = False, plain: list[EntryResult] | None = None
) -> str:
    """Every section of ``adjacency solutions show``: the values table (size x rounds, X
    first, or O first when only O-first entries are stored) and its legend, how the first
    mover changes the values, where each size's value turns, the frontier, the cost growth
    with its extrapolation, what symmetry saved (with the ``plain`` rows of
    ``--no-symmetry`` runs) and, in markdown, the cost of every computed entry. A section
    with nothing to say is left out, heading and all."""
    table = _by_key(results)
    first = "x" if any(f == "x" for (_, _, _, f) in table) else "o"
    top = max((r.entry.rounds for r in results), default=0)
    lines = [] if markdown else [f"values, {first.upper()} first (columns: rounds):"]
    header = ["size", *(str(n) for n in range(1, top + 1))]
    if markdown:
        lines.append("| " + " | ".join(header) + " |")
        lines.append("| --- |" + " ---: |" * top)
    else:
        lines.append(" ".join(f"{h:>5}" for h in header))
    for rows, cols in SIZES:
        cells = []
        for rounds in range(1, top + 1):
            cell = _cell(table.get((rows, cols, rounds, first)))
            cells.append(cell if rounds <= board(rows, cols).max_rounds() else "-")
        if all(c in ("", "-") for c in cells):
            continue
        name = f"{rows}x{cols}"
        if markdown:
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        else:
            lines.append(" ".join(f"{c:>5}" for c in [name, *cells]).rstrip())
    lines += ["", LEGEND if markdown else textwrap.fill(LEGEND, 79)]
    bullet = "- " if markdown else ""

    def section(title: str, body: list[str], wrap: bool = False) -> None:
        if body and wrap and not markdown:
            body = [textwrap.fill(line, 79, subsequent_indent="  ") for line in body]
        if body:
            lines.extend(["", title, *(bullet + line for line in body)])

    section("first mover (X first against O first):", first_mover(results), wrap=True)
    section(f"where the value turns ({first.upper()} first):", turning_points(results, first))
    section("frontier:", [str(f) for f in frontiers(results) if f.first == first])
    section(
        "cost growth (nodes per extra round, fit over the last three solved):",
        growth_lines(results),
    )
    if plain:
        section(
            "symmetry (root-move pruning) against the plain solve:",
            symmetry_lines(results, plain),
        )
    section("provenance (solutions show --json: each row's record):", provenance_lines(results))
    if markdown:
        lines += ["", cost_table(results)]
    return "\n".join(lines)


def first_mover(results: list[EntryResult]) -> list[str]:
    """Whether moving first changes the value, over the entries stored for both first
    movers, and how many O-first entries are colour-swapped images (not solved on their
    own). Empty when no entry is stored for both."""
    table = _by_key(results)
    known, open_, differs = 0, 0, []
    for (rows, cols, rounds, first), o in table.items():
        x = table.get((rows, cols, rounds, "x"))
        if first != "o" or x is None:
            continue
        if x.value is None or o.value is None:
            open_ += 1
        elif x.value != o.value:
            differs.append(f"{rows}x{cols} {rounds} rounds: X first {_cell(x)}, O first {_cell(o)}")
        known += 1 if x.value is not None and o.value is not None else 0
    if not known and not open_:
        return []
    lines = []
    if known:
        same = (
            f"the same in {known - len(differs)}, different in {len(differs)}: "
            + "; ".join(differs)
            if differs
            else f"the same in all {known}"
        )
        lines.append(
            f"{known} entries (a size and a number of rounds) have a value with X first "
            f"and with O first: {same}"
        )
    if open_:
        lines.append(f"{open_} more were not solved within the budget")
    swapped = sum(1 for r in results if "colour swap" in r.source)
    if swapped:
        lines.append(
            f"{swapped} O-first entries were derived, not solved: each is the colour-swapped "
            "image of an X-first entry (docs/solutions.md, Symmetry)"
        )
    return lines


def turning_points(results: list[EntryResult], first: str = "x") -> list[str]:
    """Per size: the rounds counts drawn, and from which one a side wins (and by how much)."""
    table = _by_key(results)
    found = []
    for rows, cols in SIZES:
        values = []
        for rounds in range(1, board(rows, cols).max_rounds() + 1):
            result = table.get((rows, cols, rounds, first))
            if result is None or result.status == "timeout" or result.value is None:
                break
            values.append(result.value)
        if not values:
            continue
        runs: list[tuple[int, int, int]] = []  # (value, first rounds, last rounds)
        for rounds, value in enumerate(values, start=1):
            if runs and runs[-1][0] == value:
                runs[-1] = (value, runs[-1][1], rounds)
            else:
                runs.append((value, rounds, rounds))
        parts = [
            f"{'draw' if v == 0 else f'{v:+d}'} at {a}" + (f"-{b}" if b > a else "")
            for v, a, b in runs
        ]
        found.append(f"{rows}x{cols}: " + ", ".join(parts) + " rounds")
    return found


def code_of(result: EntryResult) -> str:
    """Which code computed a row, as far as its record tells: the source hash of a
    recorded row, ``reconstructed`` for every row stored before records were kept (their
    code is unknown). Node counts are comparable only between rows of one code."""
    if result.reconstructed or not result.provenance:
        return "reconstructed"
    return str(result.provenance.get("source", "?"))


def growth_lines(results: list[EntryResult]) -> list[str]:
    """The fit of each square size, and the 8x8 extrapolation to 8, 10 and 28 rounds; a
    fit over rows computed by different code says so."""
    lines = []
    table = _by_key(results)
    for side in range(MIN_SIDE, MAX_SIDE + 1):
        fit = growth(results, side, side)
        if fit is None:
            continue
        codes = {code_of(table[side, side, n, fit.first]) for n in fit.rounds}
        lines.append(
            f"{fit.size}: x{fit.factor:.1f} per round over rounds "
            f"{', '.join(map(str, fit.rounds))} "
            f"({fit.nodes_per_second / 1e6:.0f} M nodes/s at the largest)"
            + (
                f"; its rows were computed by {len(codes)} versions of the code"
                if len(codes) > 1
                else ""
            )
        )
        if side == MAX_SIDE:
            for rounds in sorted(
                {fit.rounds[-1] + 1, 8, 9, 10, 28} - set(range(fit.rounds[-1] + 1))
            ):
                lines.append(
                    f"{fit.size} {rounds} rounds, extrapolated: {fit.nodes(rounds):.2g} nodes, "
                    f"{fit.seconds(rounds) / 3600:.3g} hours at that rate (the largest entry's)"
                )
    return lines


def symmetry_lines(symmetric: list[EntryResult], plain: list[EntryResult]) -> list[str]:
    """Nodes of the symmetric and plain solves of the entries solved both ways (square
    boards, at least :data:`FIT_MIN_NODES` nodes in the plain solve) by the same code
    (:func:`code_of`); the entries whose two solves ran different code are named, not
    compared."""
    other = _by_key([r for r in plain if r.status == "solved"])
    lines = []
    apart = []
    total_s = total_p = 0
    for r in symmetric:
        key = (r.entry.rows, r.entry.cols, r.entry.rounds, r.entry.first)
        p = other.get(key)
        if r.status != "solved" or r.source or p is None or p.nodes < FIT_MIN_NODES:
            continue
        if code_of(r) != code_of(p):
            apart.append(str(r.entry))
            continue
        total_s += r.nodes
        total_p += p.nodes
        lines.append(
            f"{r.entry}: {r.root_moves} of {p.root_moves} first moves solved, "
            f"{r.nodes:,} vs {p.nodes:,} nodes ({r.nodes / p.nodes:.2f})"
        )
    if total_p:
        lines.append(f"total: {total_s:,} vs {total_p:,} nodes ({total_s / total_p:.2f})")
    if apart:
        lines.append(f"not compared, their two solves ran different code: {'; '.join(apart)}")
    return lines


def provenance_lines(results: list[EntryResult]) -> list[str]:
    """How the rows' provenance was kept: the rows recorded by the run that computed them,
    grouped by command, commit, day and machine, and the rows whose record was
    reconstructed after the fact (stored before records were kept), the computed ones by
    name, since their figures carry no commit or machine."""
    recorded: dict[tuple[str, str, str, str], int] = {}
    rebuilt = [r for r in results if r.reconstructed]
    for r in results:
        if r.reconstructed or not r.provenance:
            continue
        record = r.provenance
        commit = str(record.get("commit") or "no checkout")[:12]
        if record.get("dirty"):
            commit += " with local changes"
        box = dict(record.get("machine") or {})
        where = f"{box.get('cpu', '?')}, {box.get('cores', '?')} cores"
        command = str(dict(record.get("settings") or {}).get("command", "command not recorded"))
        key = (command, commit, str(record.get("created", "?"))[:10], where)
        recorded[key] = recorded.get(key, 0) + 1
    lines = [
        f"{count} rows recorded by `{command}` at commit {commit} on {day} ({where})"
        for (command, commit, day, where), count in sorted(recorded.items())
    ]
    unrecorded = sum(1 for r in results if not r.provenance)
    if unrecorded:
        lines.append(f"{unrecorded} rows without a record (stored before records were kept)")
    if rebuilt:
        computed = [r for r in rebuilt if not r.source]
        names = ", ".join(
            f"{r.entry}{' (timeout)' if r.status == 'timeout' else ''}" for r in computed
        )
        lines.append(
            f"{len(rebuilt)} rows reconstructed (stored before records were kept: commit, "
            "machine and libraries unknown; `solutions recompute` solves them again), "
            f"{len(rebuilt) - len(computed)} of them derived images"
            + (f"; computed: {names}" if computed else "")
        )
    return lines


def cost_table(results: list[EntryResult]) -> str:
    """Markdown: every computed entry (not derived) with its value, optimal first moves,
    nodes, seconds, solves, principal variation and whether its record was made by the
    run that computed it or reconstructed."""
    lines = [
        "| size | rounds | first | value | optimal / first moves | nodes | seconds "
        "| first moves solved | principal variation | record |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in results:
        if r.source:
            continue
        record = "reconstructed" if r.reconstructed else "recorded"
        if r.status == "timeout":
            lines.append(
                f"| {r.entry.size} | {r.entry.rounds} | {r.entry.first} | over {r.budget:g} s "
                f"| | {r.nodes:,} | {r.seconds:.1f} | | | {record} |"
            )
            continue
        lines.append(
            f"| {r.entry.size} | {r.entry.rounds} | {r.entry.first} | {_cell(r)} "
            f"| {len(r.optimal)} / {len(r.move_values)} | {r.nodes:,} | {r.seconds:.2f} "
            f"| {r.root_moves} | {' '.join(r.pv)} | {record} |"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- cost growth


@dataclass(frozen=True)
class Growth:
    """An exponential fit ``nodes = 10 ** (a + b * rounds)`` over a size's solved entries."""

    size: str
    first: str
    rounds: tuple[int, ...]
    factor: float
    """Nodes multiply by this much per extra round (``10 ** b``)."""
    intercept: float
    nodes_per_second: float
    """Of the largest solved entry (the speed to extrapolate time with)."""

    def nodes(self, rounds: int) -> float:
        """The fitted node count of a game of ``rounds`` rounds."""
        return float(10 ** (self.intercept + math.log10(self.factor) * rounds))

    def seconds(self, rounds: int) -> float:
        """The fitted time of ``rounds`` rounds at the largest solved entry's speed."""
        return self.nodes(rounds) / self.nodes_per_second


def growth(
    results: list[EntryResult], rows: int, cols: int, first: str = "x", last: int = 3
) -> Growth | None:
    """The fit over the ``last`` solved, computed entries of a size with at least
    :data:`FIT_MIN_NODES` nodes (``None`` if fewer than two)."""
    points = [
        r
        for r in results
        if r.entry.rows == rows
        and r.entry.cols == cols
        and r.entry.first == first
        and r.status == "solved"
        and not r.source
        and r.nodes >= FIT_MIN_NODES
    ]
    points.sort(key=lambda r: r.entry.rounds)
    points = points[-last:]
    if len(points) < 2:
        return None
    xs = [p.entry.rounds for p in points]
    ys = [math.log10(p.nodes) for p in points]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    biggest = points[-1]
    return Growth(
        f"{rows}x{cols}",
        first,
        tuple(xs),
        10**slope,
        my - slope * mx,
        biggest.nodes / max(biggest.seconds, 1e-9),
    )


# -------------------------------------------------------------------- plots


def plot_values(results: list[EntryResult], out: Path) -> Path:
    """A heat map: board sizes down, rounds across, colour = value (first mover's view)."""
    plt = pyplot()
    import numpy as np

    table = _by_key(results)
    sizes = [s for s in SIZES if any((s[0], s[1], n, "x") in table for n in range(1, 29))]
    top = max((r.entry.rounds for r in results), default=1)
    grid = np.full((len(sizes), top), np.nan)
    for i, (rows, cols) in enumerate(sizes):
        for rounds in range(1, top + 1):
            result = table.get((rows, cols, rounds, "x"))
            if result is not None and result.value is not None:
                grid[i, rounds - 1] = result.value
    limit = max(2.0, float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 2.0)
    fig, ax = plt.subplots(figsize=(2.5 + 0.55 * top, 1.2 + 0.32 * len(sizes)))
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#dddddd")
    image = ax.imshow(grid, cmap=cmap, vmin=-limit, vmax=limit, aspect="auto")
    for i, (rows, cols) in enumerate(sizes):
        for rounds in range(1, top + 1):
            result = table.get((rows, cols, rounds, "x"))
            text = "" if rounds > board(rows, cols).max_rounds() else _cell(result)
            if text:
                dark = abs(grid[i, rounds - 1]) > limit / 2
                color = "white" if dark else "black"
                ax.text(rounds - 1, i, text, ha="center", va="center", fontsize=8, color=color)
    ax.set_xticks(range(top), [str(n) for n in range(1, top + 1)])
    ax.set_yticks(range(len(sizes)), [f"{r}x{c}" for r, c in sizes])
    ax.set_xlabel("rounds")
    ax.set_ylabel("board (rows x cols)")
    ax.set_title("Perfect-play margin, first mover's view\n(…: not solved within the budget)")
    fig.colorbar(image, ax=ax, label="final margin (pieces)")
    return save(fig, out / "values.png")


def plot_growth(results: list[EntryResult], out: Path) -> Path:
    """Nodes per solved entry against rounds (log scale), square boards, with the fit of
    each and its extrapolation a few rounds on."""
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for side in range(MIN_SIDE, MAX_SIDE + 1):
        points = sorted(
            (r.entry.rounds, r.nodes)
            for r in results
            if r.entry.rows == side
            and r.entry.cols == side
            and r.entry.first == "x"
            and r.status == "solved"
            and not r.source
        )
        if not points:
            continue
        (line,) = ax.semilogy(*zip(*points, strict=True), "o-", label=f"{side}x{side}")
        fit = growth(results, side, side)
        if fit is not None:
            xs = list(
                range(fit.rounds[0], min(fit.rounds[-1] + 3, board(side, side).max_rounds()) + 1)
            )
            ax.semilogy(
                xs,
                [fit.nodes(x) for x in xs],
                "--",
                color=line.get_color(),
                alpha=0.6,
                label=f"fit x{fit.factor:.0f}/round",
            )
    ax.set_xlabel("rounds")
    ax.set_ylabel("nodes (all first moves and the PV)")
    ax.set_title("Cost of solving the start position")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    return save(fig, out / "growth.png")
