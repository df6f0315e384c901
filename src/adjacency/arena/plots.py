"""Plots of arena results with matplotlib (Agg backend; PNG or SVG files).

- :func:`score_by_rounds`: each pairing's score (A's view) per rounds setting,
  with 95% error bars (pentanomial when pairs are complete).
- :func:`elo_ladder`: every player's rating with its 95% interval.
- :func:`margin_histogram`: final margins (A's pieces minus B's) per pairing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .stats import Z95, Rating
from .store import GameRow
from .summary import Summary


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)
    return path


def score_by_rounds(summaries: Sequence[Summary], path: Path) -> Path:
    """Score % by rounds setting, one line per pairing, 95% error bars."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    pairings: dict[tuple[str, str], list[Summary]] = {}
    for s in summaries:
        if s.rounds is not None:
            pairings.setdefault((s.a, s.b), []).append(s)
    settings = sorted({s.rounds for s in summaries if s.rounds is not None})
    spread = 0.12 * (len(pairings) - 1)
    for k, ((a, b), rows) in enumerate(pairings.items()):
        xs, ys, errs = [], [], []
        for s in sorted(rows, key=lambda r: r.rounds or 0):
            est = s.estimate
            half = Z95 * est.stdev / math.sqrt(est.samples) if est.samples else 0.0
            xs.append(settings.index(s.rounds or 0) + (k * 0.12 - spread / 2 if spread else 0.0))
            ys.append(100 * s.score)
            errs.append(100 * (0.0 if math.isnan(half) else half))
        ax.errorbar(xs, ys, yerr=errs, marker="o", capsize=4, label=f"{a} vs {b}")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(settings)), [str(r) for r in settings])
    ax.set_xlabel("rounds")
    ax.set_ylabel("score of A, % (95% interval)")
    ax.set_ylim(-5, 105)
    ax.set_title("Score by rounds setting")
    ax.legend(fontsize="small", loc="best")
    return _save(fig, path)


def elo_ladder(ratings: Sequence[Rating], path: Path) -> Path:
    """Horizontal bars of Elo ± 95%, best at the top."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(ratings) + 1.5))
    ordered = list(reversed(ratings))
    ys = range(len(ordered))
    ax.errorbar(
        [r.elo for r in ordered], list(ys), xerr=[r.error for r in ordered],
        fmt="o", capsize=4, color="#1565c0",
    )  # fmt: skip
    ax.set_yticks(list(ys), [r.player for r in ordered])
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("Elo (mean 0), 95% interval")
    ax.set_title("Elo ladder (Bradley-Terry)")
    return _save(fig, path)


def margin_histogram(games: Sequence[GameRow], path: Path) -> Path:
    """Histogram of final margins from A's point of view, one step outline per pairing."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    groups: dict[tuple[str, str], list[int]] = {}
    for g in games:
        groups.setdefault((g.a, g.b), []).append(g.a_margin)
    low = min(min(v) for v in groups.values())
    high = max(max(v) for v in groups.values())
    bins = [x - 0.5 for x in range(low, high + 2)]
    if len(bins) > 60:
        bins = [low + (high - low + 1) * i / 40 - 0.5 for i in range(41)]
    for (a, b), margins in groups.items():
        ax.hist(margins, bins=bins, histtype="step", linewidth=1.6, label=f"{a} vs {b}")
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("final margin (A's squares minus B's)")
    ax.set_ylabel("games")
    ax.set_title("Final margins")
    ax.legend(fontsize="small", loc="best")
    return _save(fig, path)
