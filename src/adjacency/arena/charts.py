"""Plots of arena results with matplotlib (Agg backend; PNG or SVG files).

matplotlib is the optional ``plots`` extra, reached through :mod:`adjacency.plotting`.

- :func:`score_by_rounds`: each pairing's score (A's view) per rounds setting,
  with 95% error bars (pentanomial when pairs are complete), one panel per pairing.
- :func:`elo_ladder`: every player's rating with its 95% interval, one panel per group of
  players connected by games (groups that never met share no scale).
- :func:`margin_histogram`: final margins (A's pieces minus B's) per pairing.
- :func:`sprt_trajectory`: a sequential test's log-likelihood ratio as the games
  came in, between its two bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from ..plotting import pyplot, save
from ..ratings.stats import INTERVAL_METHOD
from .sequential import SequentialTest, hypotheses, sample_name
from .store import GameRow
from .summary import RankingGroup, Summary


def score_by_rounds(summaries: Sequence[Summary], path: Path) -> Path:
    """Score % by rounds setting with 95% error bars (the estimate's own interval, asymmetric):
    one small panel per pairing."""
    plt = pyplot()
    pairings: dict[tuple[str, str], list[Summary]] = {}
    for s in summaries:
        if s.rounds is not None:
            pairings.setdefault((s.a, s.b), []).append(s)
    settings = sorted({s.rounds for s in summaries if s.rounds is not None})
    cols = min(4, len(pairings))
    rows = math.ceil(len(pairings) / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(3.2 * cols, 2.5 * rows + 0.6), sharey=True, squeeze=False
    )
    for ax, ((a, b), group) in zip(axes.flat, pairings.items(), strict=False):
        xs, ys, below, above = [], [], [], []
        for s in sorted(group, key=lambda r: r.rounds or 0):
            est = s.estimate
            xs.append(settings.index(s.rounds or 0))
            ys.append(100 * s.score)
            below.append(100 * max(s.score - est.score_low, 0.0))
            above.append(100 * max(est.score_high - s.score, 0.0))
        ax.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=4, color="#1565c0")
        ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(settings)), [str(r) for r in settings])
        ax.set_xlim(-0.5, len(settings) - 0.5)
        ax.set_ylim(-5, 105)
        ax.set_title(f"{a} vs {b}", fontsize="small")
    for ax in list(axes.flat)[len(pairings) :]:
        ax.set_visible(False)
    fig.supxlabel("rounds")
    fig.supylabel(f"score of A, % (95% {INTERVAL_METHOD} interval)")
    return save(fig, path)


def elo_ladder(groups: Sequence[RankingGroup], path: Path) -> Path:
    """Horizontal bars of Elo ± 95%, best at the top: one panel per group of players
    connected by games, each named and with its own mean 0 (no shared axis)."""
    plt = pyplot()
    heights = [0.5 * len(g.ratings) + 1.0 for g in groups]
    fig, axes = plt.subplots(
        len(groups), 1, figsize=(7.5, sum(heights) + 0.5), squeeze=False,
        gridspec_kw={"height_ratios": heights},
    )  # fmt: skip
    for ax, group in zip(axes.flat, groups, strict=True):
        ordered = list(reversed(group.ratings))
        ys = range(len(ordered))
        ax.errorbar(
            [r.elo for r in ordered], list(ys),
            xerr=[[r.elo - r.low for r in ordered], [r.high - r.elo for r in ordered]],
            fmt="o", capsize=4, color="#1565c0",
        )  # fmt: skip
        ax.set_yticks(list(ys), [r.player for r in ordered])
        ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlabel(f"Elo (mean 0 within the group), 95% {INTERVAL_METHOD} interval")
        name = "" if len(groups) == 1 else f": {group.name}"
        ax.set_title(f"Elo ladder (Bradley-Terry){name}")
    fig.tight_layout()
    return save(fig, path)


def margin_histogram(games: Sequence[GameRow], path: Path) -> Path:
    """Histograms of final margins from A's point of view: one small panel per pairing."""
    plt = pyplot()
    groups: dict[tuple[str, str], list[int]] = {}
    for g in games:
        groups.setdefault((g.a, g.b), []).append(g.a_margin)
    low = min(min(v) for v in groups.values())
    high = max(max(v) for v in groups.values())
    bins = [x - 0.5 for x in range(low, high + 2)]
    cols = min(3, len(groups))
    rows = math.ceil(len(groups) / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(3.6 * cols, 2.4 * rows + 0.6), sharex=True, squeeze=False
    )
    for ax, ((a, b), margins) in zip(axes.flat, groups.items(), strict=False):
        split = [[m for m in margins if m > 0], [m for m in margins if m == 0]]
        split.append([m for m in margins if m < 0])
        ax.hist(split, bins=bins, stacked=True, color=["#2e7d32", "#9e9e9e", "#c62828"])
        ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_title(f"{a} vs {b}", fontsize="small")
    for ax in list(axes.flat)[len(groups) :]:
        ax.set_visible(False)
    fig.supxlabel("final margin: A's squares minus B's (green: A ahead, grey: level, red: B ahead)")
    fig.supylabel("games")
    return save(fig, path)


def sprt_trajectory(
    points: Sequence[tuple[int, float]], sprt: SequentialTest, path: Path, title: str = ""
) -> Path:
    """The LLR after each completed pair (``(games played, llr)``) against games, with the
    bounds that accept H1 (above) and H0 (below); the Elo or the margin test alike."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    games = [0] + [g for g, _ in points]
    values = [0.0] + [v for _, v in points]
    ax.plot(games, values, color="#1565c0", linewidth=1.2)
    ax.axhline(sprt.upper, color="#2e7d32", linestyle="--", linewidth=0.9)
    ax.axhline(sprt.lower, color="#c62828", linestyle="--", linewidth=0.9)
    h0, h1 = hypotheses(sprt)
    ax.text(0, sprt.upper, f" accept H1 ({h1})", va="bottom", fontsize="small")
    ax.text(0, sprt.lower, f" accept H0 ({h0})", va="top", fontsize="small")
    ax.set_ylim(min(sprt.lower, *values) - 0.5, max(sprt.upper, *values) + 0.5)
    ax.set_xlabel("games")
    ax.set_ylabel(f"LLR ({sample_name(sprt)})")
    ax.set_title(title or f"SPRT {sprt.describe()}", fontsize="small")
    return save(fig, path)
