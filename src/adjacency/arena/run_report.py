"""The arena report: a markdown (or HTML) page with tables, plots and a board picture.

:func:`write_report` writes ``report.md`` (or ``report.html``) into a directory
together with its plots (``score-by-rounds``, ``elo-ladder``, ``margins``) and
``final-position.svg`` (the final position of the game with the widest margin,
drawn by :mod:`adjacency.core.svg`). Without matplotlib (the optional ``plots``
extra) the report keeps its tables and board picture and says, in place of the
plots, how to get them (:data:`SKIPPED_NOTE`). :func:`report_markdown` returns the text
so other documents (docs/experiments.md) can embed it.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.record import game_from_text
from ..core.svg import position_svg
from ..plotting import INSTALL, plots_available
from ..ratings.stats import INTERVAL_METHOD
from ..system.provenance import describe, provenance
from . import charts as plots
from .sequential import SequentialTest, trajectory
from .store import GameRow
from .summary import by_node, players_of, ranking_groups, summarize
from .tables import (
    NODE_COLUMNS,
    PAIRING_COLUMNS,
    RANKING_COLUMNS,
    group_title,
    node_row,
    rating_row,
    sprt_text,
    summary_row,
)

Table = tuple[Sequence[str], list[list[str]]]

Origins = Mapping[int, Mapping[str, Any] | None]
"""The provenance record of each run, by run id (``None`` for a run stored without one)."""

SKIPPED_NOTE = f"Plots skipped: matplotlib is not installed (`{INSTALL}`)."
"""What the report says in place of its plots without the ``plots`` extra."""


@dataclass(frozen=True)
class SprtTrace:
    """A sequential test as it went (the Elo or the margin test): its settings and the LLR
    after each completed pair."""

    sprt: SequentialTest
    points: list[tuple[int, float]]
    """``(games played, LLR)`` after each completed colour-swapped pair."""

    @classmethod
    def of(cls, sprt: SequentialTest, ended: Sequence[GameRow]) -> SprtTrace:
        """The trace of ``sprt`` over a match's games in the order they ended."""
        return cls(sprt, trajectory(sprt, ended))

    @property
    def verdict_at(self) -> int | None:
        """Games played when the LLR first reached a bound (the test's verdict), if it did."""
        return next((n for n, v in self.points if self.sprt.verdict(v) is not None), None)

    def lines(self) -> list[str]:
        """The test's result in words: the final LLR and when a bound was reached."""
        final = self.points[-1][1] if self.points else None
        verdict = None if final is None else self.sprt.verdict(final)
        text = [sprt_text(self.sprt, final, verdict) + "."]
        at = self.verdict_at
        games = self.points[-1][0] if self.points else 0
        text.append(
            f"The LLR reached a bound after {at} games."
            if at is not None
            else f"No bound reached in {games} games."
        )
        return text


def default_report_dir(db: Path) -> Path:
    """Where ``adjacency report DB`` writes without ``--out``: beside the database, named
    after it without its suffix (``runs/tour.db`` -> ``runs/tour-report``)."""
    return db.with_name(db.stem + "-report")


def markdown_table(header: Sequence[str], rows: list[list[str]]) -> str:
    """A Markdown table of ``header`` and ``rows`` (a ``|`` in a cell is escaped)."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def html_table(header: Sequence[str], rows: list[list[str]]) -> str:
    """An HTML ``<table>`` of ``header`` and ``rows``, every cell escaped."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def result_tables(games: Sequence[GameRow]) -> tuple[Table, list[tuple[str, Table]]]:
    """The pairing table and (with three or more players) the ranking tables, one per group
    of players connected by games, each with its heading (:func:`ranking_sections`)."""
    summaries = summarize(games)
    several = len({g.rounds for g in games}) > 1
    rows = [summary_row(s) for s in summaries if several or s.rounds is not None]
    pairing = (PAIRING_COLUMNS, rows)
    ranking = ranking_sections(games) if len(players_of(games)) > 2 else []
    return pairing, ranking


def ranking_sections(
    games: Sequence[GameRow], rounds: int | None = None, base: str = "Ranking"
) -> list[tuple[str, Table]]:
    """``(heading, table)`` for each group of players connected by games: ranks and Elo
    within a group only, never across groups that did not play each other."""
    groups = ranking_groups(games, rounds)
    return [
        (
            group_title(group, len(groups), base),
            (RANKING_COLUMNS, [rating_row(i, r) for i, r in enumerate(group.ratings, 1)]),
        )
        for group in groups
    ]


def node_rows(games: Sequence[GameRow]) -> Table:
    """The games-per-node table (Ray node id prefix or ``local``, host, games)."""
    return NODE_COLUMNS, [node_row(load) for load in by_node(games)]


def _distributed(games: Sequence[GameRow]) -> bool:
    """True if games were played on Ray nodes (the report then shows where)."""
    return any(g.node not in ("", "local") for g in games)


def write_plots(
    games: Sequence[GameRow], out: Path, fmt: str = "png", prefix: str = ""
) -> list[Path]:
    """Write the three plots into ``out``; return their paths.

    Raises :class:`~.plotting.PlotsUnavailableError` without matplotlib.
    """
    out.mkdir(parents=True, exist_ok=True)
    return [
        plots.score_by_rounds(summarize(games), out / f"{prefix}score-by-rounds.{fmt}"),
        plots.elo_ladder(ranking_groups(games), out / f"{prefix}elo-ladder.{fmt}"),
        plots.margin_histogram(games, out / f"{prefix}margins.{fmt}"),
    ]


def widest_game_svg(games: Sequence[GameRow], path: Path) -> tuple[Path, GameRow]:
    """Draw the final position of the game with the widest margin (its last move marked)."""
    game_row = max(games, key=lambda g: (abs(g.x_score - g.o_score), -g.idx))
    game = game_from_text(game_row.record)
    last = game.moves[-1].square if game.moves else None
    converted: list[str] = []
    if len(game.positions) > 1 and last is not None:
        converted = game.positions[-2].flips(last)
    path.write_text(position_svg(game.position, last=last, converted=converted), encoding="utf-8")
    return path, game_row


def provenance_lines(origins: Origins) -> list[str]:
    """What the report says about where its numbers come from: the provenance of each run
    (:func:`adjacency.system.provenance.describe`) and of the code writing the report."""
    lines = []
    for run_id, record in sorted(origins.items()):
        lines += [f"Run {run_id}:"] + [f"  {line}" for line in describe(record)]
    mine = provenance()
    lines += ["This report:"] + [f"  {line}" for line in describe(mine)]
    return lines


def report_markdown(
    games: Sequence[GameRow],
    out: Path,
    title: str,
    fmt: str = "png",
    link_prefix: str = "",
    trace: SprtTrace | None = None,
    origins: Origins | None = None,
) -> str:
    """The report as markdown; plots and the board picture are written into ``out``.
    With ``trace`` (a match run as a sequential test) a section shows the test's LLR
    as the games came in; with ``origins`` a last section gives each run's provenance
    and the report's own."""
    pairing, ranking = result_tables(games)
    images = write_plots(games, out, fmt) if plots_available() else []
    if trace is not None and trace.points and plots_available():
        images.append(plots.sprt_trajectory(trace.points, trace.sprt, out / f"sprt.{fmt}"))
    board, row = widest_game_svg(games, out / "final-position.svg")
    parts = [
        f"# {title}",
        "",
        _overview(games),
        "",
        "## Results per pairing and rounds setting",
        "",
    ]
    parts += [markdown_table(*pairing), "", _legend(), ""]
    for heading, table in ranking:
        parts += [f"## {heading}", "", markdown_table(*table), ""]
    settings = sorted({g.rounds for g in games})
    for rounds in settings if ranking and len(settings) > 1 else []:
        for heading, table in ranking_sections(games, rounds, f"Ranking at {rounds} rounds"):
            parts += [f"### {heading}", "", markdown_table(*table), ""]
    if _distributed(games):
        parts += ["## Games per node", "", markdown_table(*node_rows(games)), ""]
    if trace is not None:
        parts += ["## Sequential test", "", " ".join(trace.lines()), ""]
    parts += ["## Plots", ""]
    parts += [f"![{p.stem}]({link_prefix}{p.name})" for p in images] or [SKIPPED_NOTE]
    parts += [
        "",
        "## Widest win",
        "",
        f"Final position of game {row.idx} (run {row.run_id}): {row.x} (X) vs {row.o} (O), "
        f"{row.rounds} rounds, X {row.x_score} - O {row.o_score}. The last move is outlined; "
        "the squares it converted carry a dot.",
        "",
        f"![final position]({link_prefix}{board.name})",
        "",
    ]
    if origins is not None:
        parts += ["## Provenance", "", "```text", *provenance_lines(origins), "```", ""]
    return "\n".join(parts)


def write_report(
    games: Sequence[GameRow], out: Path, title: str = "Arena report", html: bool = False,
    fmt: str = "png", trace: SprtTrace | None = None, origins: Origins | None = None,
) -> Path:  # fmt: skip
    """Write ``report.md`` (or ``report.html``) and its pictures into ``out``; return its path.
    ``trace``: the run's sequential test, drawn and described (:class:`SprtTrace`);
    ``origins``: each run's provenance, written in a last section with the report's own."""
    out.mkdir(parents=True, exist_ok=True)
    text = report_markdown(games, out, title, fmt, trace=trace, origins=origins)
    if not html:
        path = out / "report.md"
        path.write_text(text, encoding="utf-8")
        return path
    path = out / "report.html"
    path.write_text(_html_page(games, out, title, fmt, trace, origins), encoding="utf-8")
    return path


def _html_page(
    games: Sequence[GameRow], out: Path, title: str, fmt: str, trace: SprtTrace | None = None,
    origins: Origins | None = None,
) -> str:  # fmt: skip
    pairing, ranking = result_tables(games)
    body = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(_overview(games))}</p>"]
    body += ["<h2>Results per pairing and rounds setting</h2>", html_table(*pairing)]
    body.append(f"<p>{html.escape(_legend())}</p>")
    for heading, table in ranking:
        body += [f"<h2>{html.escape(heading)}</h2>", html_table(*table)]
    if _distributed(games):
        body += ["<h2>Games per node</h2>", html_table(*node_rows(games))]
    if trace is not None:
        body += ["<h2>Sequential test</h2>", f"<p>{html.escape(' '.join(trace.lines()))}</p>"]
    body.append("<h2>Plots</h2>")
    if plots_available():
        names = ["score-by-rounds", "elo-ladder", "margins"]
        names += ["sprt"] if trace is not None and trace.points else []
        for name in names:
            body.append(f'<p><img src="{name}.{fmt}" alt="{name}"></p>')
    else:
        body.append(f"<p>{html.escape(SKIPPED_NOTE)}</p>")
    body += ["<h2>Widest win</h2>", '<p><img src="final-position.svg" alt="final position"></p>']
    if origins is not None:
        text = html.escape("\n".join(provenance_lines(origins)))
        body += ["<h2>Provenance</h2>", f"<pre>{text}</pre>"]
    style = (
        "body{font-family:sans-serif;max-width:72em;margin:auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
        "text-align:right}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


def _overview(games: Sequence[GameRow]) -> str:
    runs = sorted({g.run_id for g in games})
    rounds = sorted({g.rounds for g in games})
    plies = sum(g.plies for g in games)
    seconds = sum(sum(g.move_times) for g in games)
    faults = sum(g.termination != "normal" for g in games)
    per_move = seconds / plies if plies else 0.0
    return (
        f"{len(games)} games from run(s) {', '.join(map(str, runs))}; rounds settings "
        f"{', '.join(map(str, rounds))}; {len(players_of(games))} players; "
        f"mean thinking time {per_move:.3f} s per move; {faults} game(s) ended by a forfeit."
    )


def _legend() -> str:
    return (
        "W-D-L, score and Elo are from A's point of view. Elo [low, high] is the 95% "
        f"{INTERVAL_METHOD} interval of the score, mapped to Elo, computed from "
        "colour-swapped game pairs (pentanomial outcomes, as fishtest counts them); it stays "
        "bounded on one side at 0% and 100% and is asymmetric in Elo. "
        "Margin is A's squares minus B's per game: the mean over colour-swapped pairs of each "
        "pair's margin sum / 2, ± the half width of its 95% interval from those pairs (the "
        "normal interval of a mean, which is its likelihood-ratio interval under a normal "
        "model; from "
        "single games when there are fewer than two pairs; games outside complete pairs are "
        "left out). "
        "LOS is the likelihood of superiority Phi((W-L)/sqrt(W+L)). Time/illegal/crash are "
        "forfeit losses of A/B. Pairs LL-LD-DD-WD-WW count pairs scoring 0, 0.5, 1, 1.5, 2 "
        "points for A (DD includes one win and one loss). Rankings are Bradley-Terry Elo "
        f"(mean 0) [low, high], the 95% profile {INTERVAL_METHOD} interval of each rating "
        "(the pairing table's method, on the fit's likelihood), "
        "within each group of players connected by games; groups that never met, "
        "directly or through common opponents, are ranked apart."
    )
