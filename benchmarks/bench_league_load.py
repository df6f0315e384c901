"""The league server with a long history under load: reads, sockets, idle accounts and a flood.

Builds a league database with ``--games`` stored games (200,000) and ``--members``
members (25,000: bots, house bots, and people of whom ``--people-played`` have games),
written directly through the store's own schema (the store creates the file, plain
inserts fill it), serves it with a real ``adjacency league serve`` process and measures

1. every public GET on the idle server: p50/p95/max over ``--requests`` requests each
   (target: p95 under 50 ms);
2. while ``--playing`` bots play, ``--viewers`` viewers poll ``/standings`` and
   ``--people`` people have the play page open (it asks ``/me``) every ``--poll``
   seconds for ``--seconds`` s: a connected bot's WebSocket ping-to-pong time
   (p50/p95/max; target p95 under 50 ms), the viewers' ``/standings`` and the people's
   ``/me`` times, and the games played: counted from the database, only those stored
   *finished* in the phase (a game the server could not store is stored aborted: the
   run says how many and exits with status 1, so a figure from a league that could not
   store its games is never published as one that could);
3. the server's memory (VmRSS) and open files before, at the peak of and after
   ``--abusive`` abusive connections from this machine (a third idle sockets, a third
   slowloris requests sending a header byte a second, a third half-sent WebSocket
   upgrades) held ``--hold`` seconds, and how many of them the server closed itself.

The server runs whatever ``adjacency`` is first on ``PYTHONPATH`` (so the same script
measures a "before" checkout: ``PYTHONPATH=/path/to/before/src``); a GET the code does
not have answers 404 and is reported so.

    python benchmarks/bench_league_load.py                                 # the issue's run
    python benchmarks/bench_league_load.py --games 2000 --members 300 \\
        --requests 5 --seconds 3 --abusive 30 --hold 2                     # a smoke run

Prints a table and writes the figures as JSON (``--out``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ADMIN = "adjl_admin-token-of-the-benchmark"


# ------------------------------------------------------------------- the database


def records(count: int, seed: int) -> list[tuple[str, str, int, int, int]]:
    """``count`` real game records (random legal moves from the league's openings):
    ``(record, result, plies, x score, o score)``, reused by the stored games."""
    from adjacency.core.game import Game
    from adjacency.core.record import game_to_text
    from adjacency.league.settings import LeagueSettings

    rng = random.Random(seed)
    settings = LeagueSettings()
    out = []
    for number in range(count):
        game = Game(settings.opening(number % len(settings.openings)), "a", "b")
        while not game.is_over:
            game.play(rng.choice(game.position.legal_moves()), 0.01)
        x, o = game.position.score
        out.append((game_to_text(game), game.result or "draw", len(game.moves), x, o))
    return out


def build(
    db: Path, games: int, members: int, bots: int, house: int, played: int, seed: int,
    progress: Callable[[str, float], None],
) -> dict[str, str]:  # fmt: skip
    """Write the league; return the bots' tokens by name."""
    import sqlite3

    from adjacency.league.league_file import LeagueStore, new_token, token_hash
    from adjacency.league.rules import LeagueRules
    from adjacency.league.settings import LeagueSettings

    rng = random.Random(seed)
    with LeagueStore(db) as store:
        meta = getattr(store, "meta", store)  # a "before" store forwarded to its repositories
        meta.create(LeagueSettings(), ADMIN)
        # The idle people stay (no expiry): the benchmark measures a league that has them
        # (code from before people expired, a "before" run, has no such rule: TypeError).
        with contextlib.suppress(TypeError):
            meta.set_rules(LeagueRules(people_expire_days=0))
        opening = LeagueSettings().opening(0).fen()
    tokens = {f"bot-{n}": new_token() for n in range(bots)}
    now = time.time() - 86400 * 30
    rows = [(name, "bot", None, token_hash(t), now) for name, t in tokens.items()]
    rows += [(f"house-{n}", "house", "random", None, now) for n in range(house)]
    rows += [
        (f"person-{n}", "person", None, token_hash(f"adjl_person-{n}"), now)
        for n in range(max(0, members - bots - house))
    ]
    texts = records(40, seed)
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA synchronous=OFF")
    with connection:
        connection.executemany(
            "INSERT INTO members (name, kind, spec, token_hash, created) VALUES (?, ?, ?, ?, ?)",
            rows,
        )
    progress("members", 1.0)
    engines = list(range(1, bots + house + 1))
    people = list(range(bots + house + 1, bots + house + 1 + min(played, members - bots - house)))
    strength = {m: rng.gauss(0, 200) for m in engines + people}
    # Ratings as the league computes them (Glicko-2, the league's own step, games in the
    # order they are rated), so they stay in the range real ones take (a few hundred
    # points around 1500); a random walk drifted to +-79,000 over 200,000 games, where
    # the server's rating update divides by zero and no game could be stored.
    try:
        from adjacency.league.rules import rate
    except ImportError:  # code from before the league's rules (a "before" run)
        from adjacency.ratings.glicko import rate_game as rate
    from adjacency.ratings.glicko import Glicko

    rating = {m: Glicko() for m in engines + people}
    batch = 20_000
    seq = 0
    game_id = 0
    pair_id = 0
    while game_id < games:
        pairs, rows, ratings = [], [], []
        for _ in range(min(batch, games - game_id) // 2 or 1):
            pair_id += 1
            if people and rng.random() < 0.05:
                a, b = rng.choice(people), rng.choice(engines)
            else:
                a, b = rng.sample(engines, 2)
            pairs.append((pair_id, a, b, pair_id % 59, now, 2))
            for leg, (x, o) in enumerate(((a, b), (b, a))):
                game_id += 1
                seq += 1
                text, _, plies, xs, os_ = texts[game_id % len(texts)]
                gap = (strength[x] - strength[o]) / 400
                result = "x" if rng.random() < 1 / (1 + 10**-gap) else "o"
                if rng.random() < 0.05:
                    result = "draw"
                when = now + game_id
                rows.append((game_id, pair_id, leg, x, o, opening, result, "normal", text, xs,
                             os_, plies, rng.uniform(1, 20), rng.uniform(1, 20), when - 30,
                             when, seq))  # fmt: skip
                x_points = {"x": 1.0, "o": 0.0}.get(result, 0.5)
                rating[x], rating[o] = rate(rating[x], rating[o], x_points)
                for member in (x, o):
                    now_rated = rating[member]
                    ratings.append((member, game_id, now_rated.rating, now_rated.rd,
                                    now_rated.volatility, when))  # fmt: skip
        with connection:
            connection.executemany(
                "INSERT INTO pairs (id, a_id, b_id, opening, created, finished) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                pairs,
            )
            connection.executemany(
                "INSERT INTO games (id, pair_id, leg, x_id, o_id, opening, status, result, "
                "termination, record, x_score, o_score, plies, x_time, o_time, started, ended, "
                "rated_seq, limited) VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?, ?, 1)",
                rows,
            )
            connection.executemany(
                "INSERT INTO ratings (member_id, game_id, rating, rd, volatility, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                ratings,
            )
        progress("games", min(1.0, game_id / games))
    try:  # who is established, as the league counts it (the games that prove people)
        from adjacency.league.store import members

        replay = getattr(members, "replay_proofs", None)  # a function since the repositories
        if replay is None:
            replay = members.MemberStore.replay_proofs
        proofs = replay(connection, LeagueRules(people_expire_days=0))
    except (ImportError, AttributeError, TypeError):  # code from before the rule
        proofs = {}
    if proofs:
        with connection:
            connection.executemany(
                "INSERT INTO proofs (member_id, opponent_id, games) VALUES (?, ?, ?)",
                [(m, o, n) for (m, o), n in proofs.items()],
            )
    connection.close()
    return tokens


# --------------------------------------------------------------------- the server


def serve(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``adjacency league serve`` (whatever ``adjacency`` PYTHONPATH names), ready."""
    args = [sys.executable, "-m", "adjacency", "league", "serve", "--db", str(db),
            "--port", str(port), "--exempt-loopback", "--no-house-games"]  # fmt: skip
    handle = log.open("wb")
    process = subprocess.Popen(args, stdout=handle, stderr=subprocess.STDOUT)
    handle.close()
    deadline = time.monotonic() + 300
    while "ready at" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.1)
    return process


def fetch(url: str, secret: str | None = None) -> tuple[int, float]:
    """One GET (with a person's ``secret`` as the bearer token, if given): its status and
    seconds."""
    began = time.perf_counter()
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers), timeout=120
        ) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as exc:
        exc.read()
        status = exc.code
    return status, time.perf_counter() - began


def quantiles(seconds: list[float]) -> dict[str, float | None]:
    if not seconds:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None}
    ordered = sorted(seconds)
    at = min(len(ordered) - 1, int(0.95 * len(ordered)))
    return {
        "p50_ms": round(1000 * statistics.median(ordered), 1),
        "p95_ms": round(1000 * ordered[at], 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


def proc(pid: int) -> tuple[float, int]:
    """The process's resident memory (MB) and open files."""
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return round(rss, 1), len(os.listdir(f"/proc/{pid}/fd"))


# -------------------------------------------------------------------- the phases


def gets(base: str, requests: int, advance: Callable[[], None]) -> dict[str, Any]:
    """Every public GET, ``requests`` times each, one at a time."""
    first = json.loads(urllib.request.urlopen(f"{base}/api/league/games?limit=1").read())
    newest = first[0]["id"] if first else 1
    paths = {
        "/api/league": "/api/league",
        "/standings": "/api/league/standings",
        "/members/BOT": "/api/league/members/bot-0",
        "/members/PERSON": "/api/league/members/person-0",
        "/pairs/A/B": "/api/league/pairs/bot-0/bot-1",
        "/live": "/api/league/live",
        "/games": "/api/league/games",
        "/games?member=BOT": "/api/league/games?member=bot-0",
        "/games/ID": f"/api/league/games/{newest}",
        "/games/ID/record": f"/api/league/games/{newest}/record",
        "/stats": "/api/league/stats",
        "/events": "/api/league/events",
        "/health": "/api/league/health",
    }
    out: dict[str, Any] = {}
    for name, path in paths.items():
        times, statuses = [], set()
        for _ in range(requests):
            status, took = fetch(base + path)
            statuses.add(status)
            times.append(took)
            advance()
        out[name] = {"status": sorted(statuses), **quantiles(times)}
    return out


def bot_worker(base: str, tokens: list[str]) -> None:
    """Play with ``greedy`` on each of ``tokens`` (a thread each) until terminated."""
    from adjacency.client.connect import LeagueClient

    threads = []
    for number, token in enumerate(tokens):
        client = LeagueClient(base, token, "greedy", seed=number, announce=lambda _: None)
        threads.append(threading.Thread(target=client.run, daemon=True))
        threads[-1].start()
    for thread in threads:
        thread.join()


def stored(db: Path, since: float, until: float) -> dict[str, int]:
    """The games whose end was stored between ``since`` and ``until`` (epoch seconds), by
    status, read from the database itself (read-only), not from what the server says."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection:
        rows = connection.execute(
            "SELECT status, COUNT(*) FROM games WHERE ended >= ? AND ended <= ? GROUP BY status",
            (since, until),
        ).fetchall()
    return {str(status): int(count) for status, count in rows}


def play(db: Path, base: str, tokens: dict[str, str], bots: int, viewers: int, people: int,
         poll: float, seconds: float) -> dict[str, Any]:  # fmt: skip
    """Bots play, viewers poll ``/standings``, people's play pages ask ``/me``; a bot's
    WebSocket ping-to-pong is timed; the games stored finished meanwhile are counted."""
    from websockets.sync.client import connect

    from adjacency.core import Position

    names = list(tokens)
    stop = threading.Event()
    players = multiprocessing.get_context("spawn").Process(
        target=bot_worker, args=(base, [tokens[n] for n in names[1 : bots + 1]]), daemon=True
    )
    players.start()  # in their own process: the measuring threads here keep the GIL free
    viewed: list[float] = []

    def viewer() -> None:
        while not stop.is_set():
            viewed.append(fetch(f"{base}/api/league/standings")[1])
            stop.wait(poll)

    asked: list[float] = []
    answers: dict[int, int] = {}

    def person(number: int) -> None:  # the play page asks /me once per poll
        secret = f"adjl_person-{number}"  # the people's secrets the build wrote
        while not stop.is_set():
            status, took = fetch(f"{base}/api/league/me", secret)
            asked.append(took)
            answers[status] = answers.get(status, 0) + 1
            stop.wait(poll)

    for _ in range(viewers):
        threading.Thread(target=viewer, daemon=True).start()
    for number in range(people):
        threading.Thread(target=person, args=(number,), daemon=True).start()
    pings: list[float] = []
    url = base.replace("http://", "ws://") + "/api/league/connect"
    rng = random.Random(1)
    with connect(url, additional_headers={"Authorization": f"Bearer {tokens[names[0]]}"}) as ws:

        def answer() -> None:  # the pinging bot plays its games too
            while not stop.is_set():
                try:
                    message = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    continue
                except Exception:
                    return
                if message.get("type") == "your_turn":
                    move = rng.choice(Position.from_fen(message["fen"]).legal_moves())
                    ws.send(json.dumps({"type": "move", "game": message["game"], "move": move}))

        threading.Thread(target=answer, daemon=True).start()
        before = json.loads(urllib.request.urlopen(f"{base}/api/league/stats").read())
        since = time.time()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            began = time.perf_counter()
            if ws.ping().wait(30):
                pings.append(time.perf_counter() - began)
            time.sleep(0.05)
        after = json.loads(urllib.request.urlopen(f"{base}/api/league/stats").read())
        until = time.time()
        health = fetch(f"{base}/api/league/health")[0]
        stop.set()
        players.terminate()
    ended = stored(db, since, until)
    return {
        "ping": quantiles(pings),
        "pings": len(pings),
        "standings_under_load": quantiles(viewed),
        "standings_polls": len(viewed),
        "me_under_load": quantiles(asked),
        "me_polls": len(asked),
        "me_statuses": {str(k): v for k, v in sorted(answers.items())},
        "games_played": ended.get("finished", 0),
        "games_stored_aborted": ended.get("aborted", 0),
        "games_the_server_counted": after["finished"] - before["finished"],
        "health_status": health,
        "move_round_trip_ms_p95": after["round_trip_ms_p95"],
    }


SETTLE = 3.0
"""Seconds the server has, once the abusive sockets are closed, to be back to its open
files before them; its memory and files "after" are read then (or when it is back)."""


def abuse(host: str, port: int, pid: int, count: int, hold: float) -> dict[str, Any]:
    """``count`` abusive connections held ``hold`` s: memory and files before, at the
    peak and after they are gone (:data:`SETTLE`); how many the server closed itself."""
    rss_before, fds_before = proc(pid)
    sockets: list[tuple[str, socket.socket]] = []
    for number in range(count):
        kind = ("idle", "slowloris", "upgrade")[number % 3]
        try:
            s = socket.create_connection((host, port), timeout=5)
        except OSError:
            continue
        s.setblocking(False)
        try:
            if kind == "slowloris":
                s.send(b"GET /api/league HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            elif kind == "upgrade":
                s.send(b"GET /api/league/connect HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       b"Upgrade: websocket\r\nConnection: Upgrade\r\n")  # fmt: skip
        except OSError:
            pass
        sockets.append((kind, s))
    peak_rss, peak_fds = proc(pid)
    closed = set()
    end = time.monotonic() + hold
    while time.monotonic() < end:
        for index, (kind, s) in enumerate(sockets):
            if index in closed:
                continue
            try:
                if s.recv(4096) == b"":
                    closed.add(index)
            except BlockingIOError:
                if kind == "slowloris":
                    try:
                        s.send(b"X")
                    except OSError:
                        closed.add(index)
            except OSError:
                closed.add(index)
        rss, fds = proc(pid)
        peak_rss, peak_fds = max(peak_rss, rss), max(peak_fds, fds)
        time.sleep(1.0)
    for _, s in sockets:
        s.close()
    settled = time.monotonic() + SETTLE
    rss_after, fds_after = proc(pid)
    while fds_after > fds_before and time.monotonic() < settled:
        time.sleep(0.1)  # the server has not let every closed socket go yet
        rss_after, fds_after = proc(pid)
    return {
        "connections": len(sockets),
        "closed_by_server": len(closed),
        "rss_mb": {"before": rss_before, "peak": peak_rss, "after": rss_after},
        "open_files": {"before": fds_before, "peak": peak_fds, "after": fds_after},
    }


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--members", type=int, default=25_000)
    parser.add_argument("--bots", type=int, default=24, help="remote bot accounts")
    parser.add_argument("--house", type=int, default=6, help="house bots")
    parser.add_argument("--people-played", type=int, default=1000, help="people with games")
    parser.add_argument("--requests", type=int, default=30, help="of each GET")
    parser.add_argument("--playing", type=int, default=4, help="bots that play in phase 2")
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--people", type=int, default=20, help="play pages asking /me")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between a viewer's polls")
    parser.add_argument("--seconds", type=float, default=30.0, help="of phase 2")
    parser.add_argument("--abusive", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=15.0, help="seconds abusive sockets stay")
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="keep the database here (default: a temp dir)")
    parser.add_argument("--out", type=Path, default=Path("bench_league_load.json"))
    args = parser.parse_args(argv)
    console = Console(stderr=True)

    import adjacency

    code = str(Path(adjacency.__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as temp:
        db = args.db or Path(temp) / "league.db"
        with Progress(console=console, transient=True) as bar:
            tasks: dict[str, Any] = {}

            def progress(what: str, done: float) -> None:
                if what not in tasks:
                    tasks[what] = bar.add_task(f"writing {what}", total=1.0)
                bar.update(tasks[what], completed=done)

            began = time.monotonic()
            tokens = build(db, args.games, args.members, args.bots, args.house,
                           args.people_played, args.seed, progress)  # fmt: skip
            built = time.monotonic() - began
        console.print(f"built {db} ({db.stat().st_size / 1e6:.0f} MB) in {built:.0f} s")
        server = serve(db, args.port, Path(temp) / "server.log")
        base = f"http://127.0.0.1:{args.port}"
        try:
            with Progress(console=console, transient=True) as bar:
                task = bar.add_task("public GETs", total=13 * args.requests)
                figures = gets(base, args.requests, lambda: bar.advance(task))
            console.print("playing, viewers polling ...")
            load = play(db, base, tokens, args.playing, args.viewers, args.people, args.poll,
                        args.seconds)  # fmt: skip
            console.print(f"{args.abusive} abusive connections ...")
            memory = abuse("127.0.0.1", args.port, server.pid, args.abusive, args.hold)
        finally:
            server.terminate()
            server.wait(60)
    result = {
        "code": code,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average": os.getloadavg(),
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "build_seconds": round(built, 1),
        "gets": figures,
        "play": load,
        "abuse": memory,
    }
    table = Table(title=f"league load: {args.games} games, {args.members} members ({code})")
    for column in ("what", "status", "p50 ms", "p95 ms", "max ms"):
        table.add_column(column)
    for name, row in figures.items():
        table.add_row(name, ",".join(map(str, row["status"])), str(row["p50_ms"]),
                      str(row["p95_ms"]), str(row["max_ms"]))  # fmt: skip
    for name, row, status in (
        ("ping-pong (bots play)", load["ping"], ""),
        ("/standings (viewers)", load["standings_under_load"], ""),
        ("/me (play pages)", load["me_under_load"], ",".join(load["me_statuses"])),
    ):
        table.add_row(name, status, str(row["p50_ms"]), str(row["p95_ms"]), str(row["max_ms"]))
    Console().print(table)
    rss, files = memory["rss_mb"], memory["open_files"]
    print(
        f"games stored finished in {args.seconds:.0f} s: {load['games_played']} "
        f"({load['games_stored_aborted']} stored aborted); "
        f"{memory['connections']} abusive connections ({memory['closed_by_server']} closed by "
        f"the server within {args.hold:.0f} s): RSS {rss['before']} -> {rss['peak']} -> "
        f"{rss['after']} MB, open files {files['before']} -> {files['peak']} -> {files['after']}"
    )
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    if load["games_stored_aborted"] or load["health_status"] != 200:
        print(
            f"NOT A VALID RUN: {load['games_stored_aborted']} games stored aborted, health "
            f"{load['health_status']}: the league could not store its games",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
