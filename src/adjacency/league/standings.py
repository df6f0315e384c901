"""Standings and statistics of a league, from its stored games.

Two ratings are shown side by side (docs/league.md explains them):

* **Glicko-2** (:mod:`adjacency.ratings.glicko`), updated online after every game: what
  a member's rating is now, with its deviation; marked *provisional* until the member has
  :data:`PROVISIONAL_GAMES` rated games or while its deviation is above
  :data:`PROVISIONAL_RD` (lichess's rule of thumb).
* **Bradley-Terry Elo** with a 95% interval over the rated games
  (:func:`adjacency.ratings.bradley_terry.ratings`, the arena's maximum-likelihood fit):
  order-free, so it does not depend on who played when. Only members with both a win
  and a loss (draws count half of each) are fitted (a perfect or a zero score has no
  finite estimate, and its huge interval would widen everyone's); the others have no
  Elo. The zero point is the games-weighted mean, so each interval reflects the
  member's own games and narrows as they grow.

Provisional members (the Glicko-2 rule above) are listed after the established ones:
a member with one lucky game does not rank above a bot with two thousand.

For any two members the arena's pentanomial statistics of their completed
colour-swapped pairs are available (:func:`pair_stats`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

from ..ratings.bradley_terry import ratings
from ..ratings.margin import estimate as margin_estimate
from ..ratings.margin import pair_mean
from ..ratings.stats import los, pentanomial, trinomial
from .rules import PROVISIONAL_RD
from .store import LeagueStore, Member, StoredGame

PROVISIONAL_GAMES = 10
"""Rated games below which a rating is marked provisional."""


def _finite(value: float, digits: int = 1) -> float | None:
    return round(value, digits) if math.isfinite(value) else None


def has_both(counts: Counter[str]) -> bool:
    """Whether a member scored above 0 and below 100% (a win and a loss, draws counting
    half of each): only such members have a finite Bradley-Terry estimate."""
    return bool(counts["wins"] + counts["draws"] and counts["losses"] + counts["draws"])


def standings(store: LeagueStore, online: set[int] | None = None) -> list[dict[str, Any]]:
    """Every member, the established ones first, each part by best Glicko-2 rating:
    ``name``, ``kind``, ``rating``, ``rd``, ``provisional``, ``games``, ``wins``,
    ``draws``, ``losses``, ``elo`` and its 95% interval ``elo_low``/``elo_high``
    (``None`` unless the member has both a win and a loss), ``online``."""
    members = store.members()
    current = store.ratings()
    games = store.rated_games()
    names = {m.id: m.name for m in members}
    record: dict[int, Counter[str]] = defaultdict(Counter)
    results = []
    for game in games:
        results.append((names[game.x_id], names[game.o_id], game.points(game.x_id)))
        for member_id in (game.x_id, game.o_id):
            points = game.points(member_id)
            record[member_id]["wins" if points == 1 else "losses" if points == 0 else "draws"] += 1
    fitted = {m.name for m in members if has_both(record[m.id])}
    among = [r for r in results if r[0] in fitted and r[1] in fitted]
    fit = [m.name for m in members if m.name in fitted]
    elo = {r.player: r for r in ratings(fit, among, centre="games")} if len(fit) >= 2 else {}
    online = online or set()
    rows: list[dict[str, Any]] = []
    for member in members:
        glicko = current[member.id]
        count = sum(record[member.id].values())
        bt = elo.get(member.name)
        rows.append(
            {
                "name": member.name,
                "kind": member.kind,
                "rating": round(glicko.rating, 1),
                "rd": round(glicko.rd, 1),
                "provisional": count < PROVISIONAL_GAMES or glicko.rd > PROVISIONAL_RD,
                "games": count,
                "wins": record[member.id]["wins"],
                "draws": record[member.id]["draws"],
                "losses": record[member.id]["losses"],
                "elo": None if bt is None else _finite(bt.elo),
                "elo_low": None if bt is None else _finite(bt.elo - bt.error),
                "elo_high": None if bt is None else _finite(bt.elo + bt.error),
                "online": member.kind == "house" or member.id in online,
                "revoked": member.revoked,
            }
        )
    rows.sort(key=lambda row: (row["provisional"], -row["rating"], row["name"]))
    return rows


def pair_stats(store: LeagueStore, a: Member, b: Member) -> dict[str, Any]:
    """The arena's statistics of ``a`` against ``b``: per-game W/D/L with Elo, the
    pentanomial counts of their completed colour-swapped pairs with Elo and LOS, and the
    mean piece margin per game of ``a`` with its 95% interval (from the pairs' means when
    two pairs are complete, else per game: :func:`adjacency.ratings.margin.estimate`)."""
    games = store.rated_games_between(a.id, b.id)
    wins = sum(1 for g in games if g.points(a.id) == 1)
    losses = sum(1 for g in games if g.points(a.id) == 0)
    draws = len(games) - wins - losses
    by_pair: dict[int, list[StoredGame]] = defaultdict(list)
    for game in games:
        if game.pair_id is not None:
            by_pair[game.pair_id].append(game)
    penta = [0, 0, 0, 0, 0]
    pair_means: list[float] = []
    for pair_games in by_pair.values():
        if len(pair_games) == 2:
            points = sum(g.points(a.id) for g in pair_games)
            penta[round(points * 2)] += 1
            pair_means.append(pair_mean(*(_margin(g, a.id) for g in pair_games)))
    per_game = trinomial(wins, draws, losses)
    per_pair = pentanomial(penta)
    margin = margin_estimate(pair_means, [_margin(g, a.id) for g in games])
    return {
        "a": a.name,
        "b": b.name,
        "games": len(games),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "elo": _finite(per_game.elo),
        "elo_low": _finite(per_game.low),
        "elo_high": _finite(per_game.high),
        "pentanomial": penta,
        "pairs": sum(penta),
        "pair_elo": _finite(per_pair.elo),
        "pair_elo_low": _finite(per_pair.low),
        "pair_elo_high": _finite(per_pair.high),
        "los": round(los(wins, losses), 4),
        "margin": _finite(margin.mean, 2),
        "margin_low": _finite(margin.low, 2),
        "margin_high": _finite(margin.high, 2),
        "margin_unit": margin.unit,
    }


def _margin(game: StoredGame, member_id: int) -> float:
    """The final piece margin of ``game`` from ``member_id``'s side (0 without a score)."""
    x, o = game.x_score or 0, game.o_score or 0
    return float(x - o if game.x_id == member_id else o - x)


RECENT_PAGE = 20
"""How many of a member's games one page of its recent games lists."""


def member_page(
    store: LeagueStore, member: Member, recent: int = RECENT_PAGE, offset: int = 0
) -> dict[str, Any]:
    """What a member's page shows: rating history, score against each opponent, one page
    of its games, newest first (``recent`` of them from the ``offset``-th; how many there
    are in all, to page through them), time use per move, and failures (losses that were
    not on the board)."""
    names = {m.id: m.name for m in store.members()}
    games = store.games(member_id=member.id)
    finished = [g for g in games if g.status == "finished"]
    opponents: dict[str, Counter[str]] = defaultdict(Counter)
    failures: Counter[str] = Counter()
    seconds = 0.0
    moves = 0
    for game in finished:
        opponent = names[game.o_id if game.x_id == member.id else game.x_id]
        points = game.points(member.id)
        opponents[opponent]["games"] += 1
        opponents[opponent]["points2"] += int(points * 2)
        if points == 0 and game.termination not in (None, "normal"):
            failures[game.termination] += 1
        mine = (game.plies + (0 if game.x_id == member.id else -1) + 1) // 2
        moves += max(0, mine)
        seconds += game.x_time if game.x_id == member.id else game.o_time
    return {
        "name": member.name,
        "kind": member.kind,
        "spec": member.spec if member.kind == "house" else None,
        "revoked": member.revoked,
        "history": [
            {"game": g, "rating": round(r, 1), "rd": round(d, 1), "at": t}
            for g, r, d, t in store.history(member.id)
        ],
        "opponents": [
            {"name": name, "games": c["games"], "points": c["points2"] / 2}
            for name, c in sorted(opponents.items())
        ],
        "recent": [game_summary(g, names) for g in games[offset : offset + recent]],
        "recent_offset": offset,
        "recent_total": len(games),
        "seconds_per_move": round(seconds / moves, 3) if moves else None,
        "failures": dict(failures),
    }


def game_summary(game: StoredGame, names: dict[int, str]) -> dict[str, Any]:
    """One stored game as the API lists it."""
    return {
        "id": game.id,
        "x": names.get(game.x_id, "?"),
        "o": names.get(game.o_id, "?"),
        "status": game.status,
        "result": game.result,
        "termination": game.termination,
        "detail": game.detail,
        "score": None if game.x_score is None else [game.x_score, game.o_score],
        "plies": game.plies,
        "pair": game.pair_id,
        "rated": game.rated_seq is not None,
        "started": game.started,
        "ended": game.ended,
    }
