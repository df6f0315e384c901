"""Standings and statistics of a league, from its stored games.

Two ratings are shown side by side (docs/league.md explains them):

* **Glicko-2** (:mod:`adjacency.ratings.glicko`), updated online after every game: what
  a member's rating is now, with its deviation; marked *provisional* until the member has
  :data:`PROVISIONAL_GAMES` rated games or while its deviation is above
  :data:`PROVISIONAL_RD` (lichess's rule of thumb).
* **Bradley-Terry Elo** with its 95% Wald interval over the rated games
  (:func:`adjacency.ratings.bradley_terry.fit_totals`, the arena's maximum-likelihood fit;
  the Wald interval, :data:`~adjacency.ratings.bradley_terry.WALD`, because the
  leaderboard is refitted after every game over every member, where the arena's
  likelihood-ratio interval costs a few profile fits per member):
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

import asyncio
import contextlib
import math
import multiprocessing
import os
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core.details import Detail
from ..ratings.bradley_terry import WALD, fit_totals
from ..ratings.glicko import Glicko
from ..ratings.margin import estimate as margin_estimate
from ..ratings.margin import pair_mean
from ..ratings.stats import los, pentanomial, trinomial
from ..serving.details import detail_fields, english, public
from .league_file import LeagueStore, Member, StoredGame
from .rules import PROVISIONAL_RD

PROVISIONAL_GAMES = 10
"""Rated games below which a rating is marked provisional."""


def _finite(value: float, digits: int = 1) -> float | None:
    return round(value, digits) if math.isfinite(value) else None


def has_both(counts: Counter[str]) -> bool:
    """Whether a member scored above 0 and below 100% (a win and a loss, draws counting
    half of each): only such members have a finite Bradley-Terry estimate."""
    return bool(counts["wins"] + counts["draws"] and counts["losses"] + counts["draws"])


def standings(store: LeagueStore, online: set[int] | None = None) -> list[dict[str, Any]]:
    """The members a leaderboard lists (:meth:`~.store.members.MembersRepo.listed_members`: every
    bot and house bot but the removed ones, the people who have played or are
    ``online``; a removed member's games still count in its opponents' records and
    ratings, not in the Bradley-Terry fit, which is over the listed members), the established
    ones first, each part by best Glicko-2 rating: ``name``, ``kind``, ``rating``, ``rd``,
    ``provisional``, ``games``, ``wins``, ``draws``, ``losses``, ``elo`` and its 95%
    interval ``elo_low``/``elo_high`` (``None`` unless the member has both a win and a
    loss), ``online``.

    Read from the aggregate tables (:mod:`.store.schema`), never from every stored game: the
    rated W/D/L per member and per pair of members (the Bradley-Terry fit needs only
    each pair's points and games), and each member's latest rating."""
    online = online or set()
    members = store.members.listed_members(online)
    current = store.ratings.current_ratings()
    totals = store.ratings.rated_totals()
    record: dict[int, Counter[str]] = defaultdict(Counter)
    for member_id, (wins, draws, losses) in totals.items():
        record[member_id].update({"wins": wins, "draws": draws, "losses": losses})
    names = {m.id: m.name for m in members}
    fitted = {m.id for m in members if has_both(record[m.id])}
    among = [
        (names[a], names[b], points, games)
        for a, b, points, games in store.ratings.rated_results()
        if a in fitted and b in fitted
    ]
    fit = [m.name for m in members if m.id in fitted]
    fitted_elo = fit_totals(fit, among, centre="games", interval=WALD) if len(fit) >= 2 else []
    elo = {r.player: r for r in fitted_elo}
    rows: list[dict[str, Any]] = []
    for member in members:
        glicko = current.get(member.id, Glicko())
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
                "elo_low": None if bt is None else _finite(bt.low),
                "elo_high": None if bt is None else _finite(bt.high),
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
    games = store.games.rated_games_between(a.id, b.id)
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


HISTORY_POINTS = 500
"""The most rating-history points a member's page gets (evenly spaced, the latest last):
a bot with ten thousand rated games would otherwise send them all on every view."""

RECENT_PAGE = 20
"""How many of a member's games one page of its recent games lists."""


def member_page(
    store: LeagueStore,
    member: Member,
    recent: int = RECENT_PAGE,
    offset: int = 0,
    told: Callable[[Detail], Detail] = public,
) -> dict[str, Any]:
    """What a member's page shows: rating history (at most :data:`HISTORY_POINTS`),
    score against each opponent, one page of its games, newest first (``recent`` of
    them from the ``offset``-th, and how many there are in all, to page through them),
    time use per move, and failures (losses that were not on the board), over its
    finished games, rated or not.

    The scores, time use and failures come from the aggregate tables (:mod:`.store.schema`),
    the page of games through the players' indexes: the cost does not grow with the
    member's games (only with how deep one pages)."""
    games = store.games.games(member_id=member.id, limit=recent, offset=offset)
    names = store.members.names({g.x_id for g in games} | {g.o_id for g in games})
    opponents = store.ratings.opponents(member.id)
    moves = sum(row[3] for row in opponents)
    seconds = sum(row[4] for row in opponents) / 1000
    history, rated = store.ratings.rated_history(member.id, HISTORY_POINTS)
    return {
        "name": member.name,
        "kind": member.kind,
        "spec": member.spec if member.kind == "house" else None,
        "revoked": member.revoked,
        "history": [
            {"game": g, "rating": round(r, 1), "rd": round(d, 1), "at": t} for g, r, d, t in history
        ],
        "opponents": [
            {"name": name, "games": count, "points": points2 / 2}
            for name, count, points2, _, _ in opponents
        ],
        "recent": [game_summary(g, names, told) for g in games],
        "recent_offset": offset,
        "recent_total": store.games.game_count(member.id),
        "rated_games": rated,
        "seconds_per_move": round(seconds / moves, 3) if moves else None,
        "failures": store.ratings.failures(member.id),
    }


def game_summary(
    game: StoredGame, names: dict[int, str], told: Callable[[Detail], Detail] = public
) -> dict[str, Any]:
    """One stored game as the API lists it, its end as ``told`` gives it to the asker:
    as anyone may read it (:func:`~adjacency.serving.details.public`, the default), or
    whole with a failed program's own output (its own team, the teacher:
    :func:`~adjacency.league.http.auth.details_for`)."""
    detail = told(game.end_detail())
    return {
        "id": game.id,
        "x": names.get(game.x_id, "?"),
        "o": names.get(game.o_id, "?"),
        "status": game.status,
        "result": game.result,
        "termination": game.termination,
        "detail": english(detail),
        **detail_fields(detail),
        "score": None if game.x_score is None else [game.x_score, game.o_score],
        "plies": game.plies,
        "pair": game.pair_id,
        "rated": game.rated_seq is not None,
        "started": game.started,
        "ended": game.ended,
    }


# ------------------------------------------------------- the fit off the server's GIL

WORKER_STORES = 4
"""League files a standings worker keeps open (one server has one; a test process many)."""

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
_stores: dict[str, LeagueStore] = {}
"""The worker process's open leagues, by path (the oldest closed beyond :data:`WORKER_STORES`)."""


ORPHAN_CHECK = 2.0
"""Seconds between a worker's checks that its server still runs."""


def _start_worker(parent: int) -> None:
    """The worker's initializer: it yields the processor to the server's games, and
    ends itself once its server process is gone (killed, or ended without
    :func:`stop_worker`), so no worker outlives its server."""
    with contextlib.suppress(OSError):
        os.nice(5)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def stop_worker() -> None:
    """End the worker process, if one was started (the server's stop): its next use
    starts another."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _standings_in_worker(path: str, online: frozenset[int]) -> list[dict[str, Any]]:
    """:func:`standings` in the worker process, on its own read connection to ``path``."""
    store = _stores.get(path)
    if store is None:
        while len(_stores) >= WORKER_STORES:
            _stores.pop(next(iter(_stores))).close()
        store = _stores[path] = LeagueStore(path, create=False)
    return standings(store, set(online))


BIG = 300
"""Members with a rating from which a league's standings are fitted in the worker
process (:func:`standings_elsewhere`), not a thread: about 50 ms of fit at this size,
seconds at a thousand (a class's league stays in a thread and starts no process)."""


async def standings_off_loop(store: LeagueStore, online: set[int]) -> list[dict[str, Any]]:
    """:func:`standings` off the event loop: in a worker thread on ``store`` (the
    readers' connection) for a league with fewer than :data:`BIG` rated members, else
    in the worker process (:func:`standings_elsewhere`). The server's first fit (its
    start) and every later one take this one way."""
    rated = await asyncio.to_thread(store.ratings.rated_count)
    if rated >= BIG:
        return await standings_elsewhere(str(store.path), online)
    return await asyncio.to_thread(standings, store, online)


async def standings_elsewhere(path: str, online: set[int]) -> list[dict[str, Any]]:
    """:func:`standings` of the league at ``path``, computed in a worker process (one per
    server process, started on first use, at a lower priority).

    Why: on a big league the Bradley-Terry fit is seconds of pure Python (3.2 s on the
    200,000-game benchmark league); in a worker thread of the server it holds the GIL
    meanwhile, and every request and bot message waits its turn (the play page's
    ``/me`` p95 was 639 ms with 20 viewers and 20 play pages). Its reads are a few
    aggregate tables (about 50 ms), so a process of its own costs little. A worker
    that died is replaced at the next call (this one raises)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")  # never fork a threaded server
            _pool = ProcessPoolExecutor(
                1, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        pool = _pool
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool, _standings_in_worker, path, frozenset(online))
    except BrokenProcessPool:
        with _pool_lock:
            if _pool is pool:
                _pool = None
        raise
