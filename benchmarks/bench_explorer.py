"""What the opening explorer's request costs on a league of many games (200,000 by default).

Makes a league database with the league's own store and schema (two members, 8x8, 28
rounds) holding ``--games`` finished games, written as a league server writes them
(the record in the text format, the result and scores); the games are played from the
start with a skewed random choice (at each ply the legal moves ranked by a fixed order of
the squares for that ply, the k-th taken with a probability falling geometrically), so
openings repeat as they do among bots and people and the games part ways later. Then:

1. the explorer reads the league into a games store through the real path
   (:class:`adjacency.web.explorer_index.LeagueFeed`, steps of ``--step`` games): games a second;
2. the cost of a request: ``GET /api/explorer`` through the web app (FastAPI's client, the
   league read in step on every request as the server does) for positions the games
   passed (the start, and positions 1 to 20 plies in), median, 99th percentile and
   slowest, and the same for the index's query alone (:func:`moves_from`);
3. the query plan (one search of the primary key) and the files' sizes.

    python benchmarks/bench_explorer.py                    # 200,000 games in a temp folder
    python benchmarks/bench_explorer.py --games 20000 --keep /tmp/explorer

Wall times depend on the machine's load: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import LeagueSettings

PLIES = 56
SEED = 2026


def orders(seed: int) -> list[list[int]]:
    """For each ply, a fixed preference order of the 64 squares."""
    rng = random.Random(seed)
    out = []
    for _ in range(PLIES):
        squares = list(range(64))
        rng.shuffle(squares)
        out.append(squares)
    return out


def make_games(task: tuple[int, int, int]) -> list[tuple[str, str | None, int, int]]:
    """``count`` games from ``seed``: (record text, result, X's squares, O's squares)."""
    seed, count, order_seed = task
    rng = random.Random(seed)
    ranks = [{square: rank for rank, square in enumerate(order)} for order in orders(order_seed)]
    start = Position.start()
    names = [start.board.square_names(1 << i)[0] for i in range(64)]
    out = []
    for _ in range(count):
        game = Game(start, "alpha", "beta", event="League game")
        ply = 0
        while not game.position.is_over:
            empty = game.position.empty
            legal = sorted((i for i in range(64) if empty >> i & 1), key=ranks[ply].__getitem__)
            pick = min(int(rng.expovariate(1.0)), len(legal) - 1)
            game.play(names[legal[pick]])
            ply += 1
        x, o = game.position.score
        out.append((game_to_text(game), game.result, x, o))
    return out


def build_league(path: Path, games: int, workers: int) -> float:
    """The league file with ``games`` finished games; seconds it took."""
    began = time.perf_counter()
    with LeagueStore(path) as store:
        store.meta.create(LeagueSettings(rows=8, cols=8, rounds=28), "adjl_bench-admin-token")
        alpha, _ = store.members.add_member("alpha", "bot", None)
        beta, _ = store.members.add_member("beta", "bot", None)
    chunk = 2000
    tasks = [(SEED + n, min(chunk, games - n * chunk), SEED) for n in range(-(-games // chunk))]
    import sqlite3

    db = sqlite3.connect(path)
    now = time.time()
    with Pool(workers) as pool:
        for made in pool.imap(make_games, tasks):
            db.executemany(
                "INSERT INTO games (x_id, o_id, opening, status, result, termination, record, "
                "x_score, o_score, plies, started, ended, limited) "
                "VALUES (?, ?, '', 'finished', ?, 'normal', ?, ?, ?, ?, ?, ?, 1)",
                [(alpha.id, beta.id, result, text, x, o, PLIES, now, now)
                 for text, result, x, o in made],
            )  # fmt: skip
            db.commit()
            print(f"  league: {db.execute('SELECT COUNT(*) FROM games').fetchone()[0]} games",
                  file=sys.stderr, flush=True)  # fmt: skip
    db.close()
    return time.perf_counter() - began


def sample_positions(count: int) -> list[Position]:
    """Positions the games passed: the start and ``count`` more 1 to 20 plies in."""
    rng = random.Random(7)
    made = make_games((SEED + 1, count, SEED))  # the first games of the second chunk
    from adjacency.core.record import game_from_text

    out = [Position.start()]
    for text, _, _, _ in made:
        game = game_from_text(text)
        out.append(game.positions[rng.randint(1, 20)])
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--step", type=int, default=5000, help="league games a feed step reads")
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    parser.add_argument("--keep", type=Path, help="a folder to keep the files in")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-explorer-"))
    folder.mkdir(parents=True, exist_ok=True)
    league, games_db = folder / "league.sqlite3", folder / "games.sqlite3"
    for stale in (league, games_db):
        stale.unlink(missing_ok=True)
    print(f"making {args.games} league games in {league} ...", file=sys.stderr)
    made = build_league(league, args.games, args.workers)

    from fastapi.testclient import TestClient

    from adjacency.web.app import create_app
    from adjacency.web.explorer_index import LeagueFeed, moves_from, position_key
    from adjacency.web.store import GameStore

    began = time.perf_counter()
    with GameStore(games_db) as store:
        feed = LeagueFeed(league)
        read = 0
        while True:
            with store._transaction() as db:
                step = feed.catch_up(db, step=args.step)
            read += step
            if step == 0:
                break
            print(f"  indexed {read}", file=sys.stderr, flush=True)
        feed.close()
        indexed = time.perf_counter() - began
        rows = store.db.execute("SELECT COUNT(*) FROM explorer").fetchone()[0]
        plan = store.db.execute(
            "EXPLAIN QUERY PLAN SELECT move, SUM(games) FROM explorer WHERE position = ? "
            "AND source IN (?, ?) GROUP BY move",
            (0, "league", "server"),
        ).fetchall()
        positions = sample_positions(args.queries)
        alone = []
        answers = []
        for position in positions:
            t0 = time.perf_counter()
            found = moves_from(store.db, position)
            alone.append(time.perf_counter() - t0)
            answers.append(sum(m.games for m in found))
        assert position_key(positions[0]) != position_key(positions[1])
    http = []
    with TestClient(create_app(games_db, league_db=league)) as client:
        client.get("/api/explorer", params={"fen": positions[0].fen()})  # the book loaded
        for position in positions:
            t0 = time.perf_counter()
            answer = client.get("/api/explorer", params={"fen": position.fen()})
            http.append(time.perf_counter() - t0)
            assert answer.status_code == 200, answer.text
    start_games = answers[0]
    load = os.getloadavg()

    def ms(values: list[float]) -> str:
        return (f"median {statistics.median(values) * 1000:.2f} ms, "
                f"p99 {percentile(values, 0.99) * 1000:.2f} ms, "
                f"slowest {max(values) * 1000:.2f} ms")  # fmt: skip

    print(f"league: {args.games} finished games, {league.stat().st_size / 1e6:.0f} MB, "
          f"made in {made:.0f} s ({args.workers} processes)")  # fmt: skip
    print(f"index: {rows} rows (position, source, move), games store "
          f"{games_db.stat().st_size / 1e6:.0f} MB; read in steps of {args.step}: "
          f"{indexed:.0f} s, {args.games / indexed:.0f} games/s")  # fmt: skip
    print(f"query plan: {' | '.join(str(row[-1]) for row in plan)}")
    print(f"positions asked: {len(positions)} (the start: {start_games} games; median "
          f"{statistics.median(answers):.0f} games a position)")  # fmt: skip
    print(f"index query alone: {ms(alone)}")
    print(f"GET /api/explorer (league step included, book looked up): {ms(http)}")
    print(f"load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} CPUs")  # fmt: skip
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    raise SystemExit(main())
