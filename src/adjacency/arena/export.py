"""Exports of stored games: CSV (one row per game), JSON (games and summaries), records.

Every game row carries ``pair_margin``, the margin sample of its colour-swapped pair
(:func:`adjacency.ratings.margin.pair_mean`; empty, or ``null`` in JSON, for a game whose
pair is incomplete), so the margin interval of the summaries can be recomputed from the
CSV alone.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.text import spreadsheet_text
from ..ratings.margin import pair_mean
from ..ratings.stats import INTERVAL_METHOD
from ..system.provenance import provenance
from .store import GameRow
from .summary import ranking_groups, summarize

CSV_FIELDS = (
    "run_id", "idx", "pair", "a", "b", "x", "o", "rounds", "result", "a_points", "a_margin",
    "pair_margin", "x_score", "o_score", "plies", "termination", "detail", "seconds",
    "max_move_seconds",
)  # fmt: skip


def pair_margins(games: Sequence[GameRow]) -> dict[tuple[int, int], float]:
    """The margin sample of every complete colour-swapped pair among ``games``, by
    ``(run_id, pair)`` (pairs formed as :func:`adjacency.arena.summary.summarize` forms them)."""
    members: dict[tuple[int, int], list[int]] = {}
    for game in games:
        members.setdefault((game.run_id, game.pair), []).append(game.a_margin)
    return {key: pair_mean(*m) for key, m in members.items() if len(m) == 2}


def game_fields(game: GameRow, pair_margin: float | None = None) -> dict[str, Any]:
    """The flat fields of one game, as written to CSV and JSON; ``pair_margin`` is its
    pair's margin sample (:func:`pair_margins`), ``None`` when its pair is incomplete."""
    return {
        "run_id": game.run_id,
        "idx": game.idx,
        "pair": game.pair,
        "a": game.a,
        "b": game.b,
        "x": game.x,
        "o": game.o,
        "rounds": game.rounds,
        "result": game.result or "",
        "a_points": game.a_points,
        "a_margin": game.a_margin,
        "pair_margin": pair_margin,
        "x_score": game.x_score,
        "o_score": game.o_score,
        "plies": game.plies,
        "termination": game.termination,
        "detail": game.detail,
        "seconds": game.seconds,
        "max_move_seconds": max(game.move_times, default=0.0),
    }


def write_csv(games: Sequence[GameRow], path: Path) -> None:
    """Write ``games`` to ``path`` as CSV: a header of :data:`CSV_FIELDS`, then one row per game
    (:func:`game_fields`); text a spreadsheet would run as a formula (a bot named
    ``=HYPERLINK(...)``) is written as text. Creates the parent folder; replaces the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        samples = pair_margins(games)
        for game in games:
            fields = game_fields(game, samples.get((game.run_id, game.pair)))
            writer.writerow(
                {k: "" if v is None else spreadsheet_text(v) for k, v in fields.items()}
            )


def results_dict(
    games: Sequence[GameRow], origins: Mapping[int, Mapping[str, Any] | None] | None = None
) -> dict[str, Any]:
    """Games, per-pairing summaries and ratings as one JSON-ready dictionary.

    Every number is a JSON number; an end of an interval that is unbounded (the upper
    Elo of a sweep) and an infinite point value are ``null``. ``elo_interval`` names the
    interval's method, the same for the pairings' Elo and the ratings' (``elo_low``,
    ``elo_high``). ``ratings`` are ranked within each group of players connected by
    games (``group``; the groups and their players in ``groups``). ``provenance``: each
    run's record (``origins``, by run id; ``null`` for a run stored without one) and
    the exporting code's, under ``"export"``."""
    summaries = []
    for s in summarize(games):
        est, margin = s.estimate, s.margin
        summaries.append(
            {
                "a": s.a, "b": s.b, "rounds": s.rounds, "games": s.games,
                "wins": s.wins, "draws": s.draws, "losses": s.losses, "score": s.score,
                "elo": _finite(est.elo), "elo_low": _finite(est.low),
                "elo_high": _finite(est.high), "elo_interval": INTERVAL_METHOD,
                "score_low": est.score_low, "score_high": est.score_high,
                "margin": _finite(margin.mean), "margin_low": _finite(margin.low),
                "margin_high": _finite(margin.high), "margin_samples": margin.samples,
                "margin_unit": margin.unit, "margin_unpaired": margin.unpaired,
                "los": s.los, "pentanomial": s.penta,
                "faults_a": s.faults_a, "faults_b": s.faults_b,
            }
        )  # fmt: skip
    groups = ranking_groups(games)
    ratings = [
        {
            "player": r.player, "group": group.name, "elo": r.elo + 0.0,
            "elo_low": r.low + 0.0, "elo_high": r.high + 0.0, "elo_interval": INTERVAL_METHOD,
            "games": r.games, "points": r.points,
        }
        for group in groups
        for r in group.ratings
    ]  # fmt: skip
    samples = pair_margins(games)
    return {
        "games": [game_fields(g, samples.get((g.run_id, g.pair))) for g in games],
        "summaries": summaries,
        "ratings": ratings,
        "groups": [{"name": g.name, "players": g.players} for g in groups],
        "provenance": {
            "runs": {str(k): (dict(v) if v else None) for k, v in sorted((origins or {}).items())},
            "export": provenance(),
        },
    }


def _finite(value: float) -> float | None:
    """JSON has no infinity nor NaN: such a value is ``null``; and ``-0.0`` is written
    ``0.0`` (an even score's Elo is zero, not a negative)."""
    return value + 0.0 if math.isfinite(value) else None


def write_json(
    games: Sequence[GameRow],
    path: Path,
    origins: Mapping[int, Mapping[str, Any] | None] | None = None,
) -> None:
    """Write ``games`` and their summaries (:func:`results_dict`, with the runs' provenance
    ``origins``) to ``path`` as indented JSON. Creates the parent folder; replaces the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(results_dict(games, origins), indent=2, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


def write_records(games: Sequence[GameRow], path: Path) -> None:
    """Every game record in the core's text format, one after another (loadable by
    :func:`adjacency.core.record.games_from_text`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(g.record for g in games), encoding="utf-8")
