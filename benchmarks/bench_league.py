"""The league server under load: N connected clients (cheap bots) over loopback.

Measures what a league must sustain: games per minute sustained, the move round trip (from
the server's request to the client's answer, measured by the server: it includes
the client's thinking, which for ``random``/``greedy`` is well under a millisecond),
and the server's memory at the end. The server is a real ``adjacency league serve``
process; the clients are :class:`adjacency.client.connect.LeagueClient` threads spread
over a few worker processes (50 Python processes each with the engine loaded would
measure the machine's memory, not the server), each with its own WebSocket
connection and account.

    python benchmarks/bench_league.py --clients 50 --minutes 30      # the issue's run
    python benchmarks/bench_league.py --clients 50 --minutes 1       # a smoke run

Prints one JSON object: the settings, games and games per minute over the measured
window (after ``--warmup`` seconds), round-trip p50/p95/mean in ms over the window's
last 100 000 moves, the server's resident memory (VmRSS) and CPU seconds at the end.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def client_worker(url: str, tokens: list[str], specs: list[str], stop_after: float) -> None:
    """Run one LeagueClient thread per token until ``stop_after`` seconds have passed."""
    from adjacency.client.connect import LeagueClient

    threads = []
    for number, (token, spec) in enumerate(zip(tokens, specs, strict=True)):
        client = LeagueClient(url, token, spec, seed=number, announce=lambda text: None)
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        threads.append(thread)
    time.sleep(stop_after)


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


def proc_figures(pid: int) -> tuple[float, float]:
    """The process's resident memory (MB) and CPU seconds so far (Linux /proc)."""
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds before measuring")
    parser.add_argument("--processes", type=int, default=5, help="client worker processes")
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=28)
    parser.add_argument("--clock", default="60+1")
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()

    sys.path.insert(0, str(REPO / "src"))
    from adjacency.league.league_file import LeagueStore
    from adjacency.league.rules import LeagueRules
    from adjacency.league.settings import LeagueSettings, parse_clock

    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(REPO / "src")
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "league.db"
        base, increment = parse_clock(args.clock)
        settings = LeagueSettings(
            rows=args.rows, cols=args.rows, rounds=args.rounds, base=base, increment=increment
        )
        tokens: list[str] = []
        specs: list[str] = []
        with LeagueStore(db) as store:
            store.meta.create(settings, "adjl_bench-admin-token")
            store.meta.set_rules(LeagueRules(min_game=0.0))  # the server's own limit is measured
            for number in range(args.clients):
                _, token = store.members.add_member(f"bot{number:03d}", "bot")
                assert token is not None
                tokens.append(token)
                specs.append("random" if number % 2 else "greedy")
        log = (Path(folder) / "server.log").open("wb")
        server = subprocess.Popen(
            [sys.executable, "-m", "adjacency", "league", "serve", "--db", str(db),
             "--port", str(args.port), "--no-house-games", "--exempt-loopback"],
            stdout=log, stderr=subprocess.STDOUT, env=environment,
        )  # fmt: skip
        url = f"http://127.0.0.1:{args.port}"
        try:
            for _ in range(300):
                try:
                    get(f"{url}/api/league")
                    break
                except OSError:
                    time.sleep(0.1)
            total = args.warmup + 60 * args.minutes
            context = multiprocessing.get_context("spawn")
            workers = []
            per = -(-args.clients // args.processes)
            for start in range(0, args.clients, per):
                worker = context.Process(
                    target=client_worker,
                    args=(url, tokens[start : start + per], specs[start : start + per], total + 5),
                    daemon=True,
                )
                worker.start()
                workers.append(worker)
            time.sleep(args.warmup)
            first = get(f"{url}/api/league/stats")
            began = time.monotonic()
            time.sleep(60 * args.minutes)
            last = get(f"{url}/api/league/stats")
            minutes = (time.monotonic() - began) / 60
            rss, cpu = proc_figures(server.pid)
            result = {
                "clients": args.clients,
                "settings": f"{args.rows}x{args.rows}, {args.rounds} rounds, {args.clock}",
                "minutes": round(minutes, 2),
                "connected": last["connected"],
                "games": last["finished"] - first["finished"],
                "games_per_minute": round((last["finished"] - first["finished"]) / minutes, 1),
                "round_trip_ms_p50": last["round_trip_ms_p50"],
                "round_trip_ms_p95": last["round_trip_ms_p95"],
                "round_trip_ms_mean": last["round_trip_ms_mean"],
                "server_rss_mb": round(rss, 1),
                "server_cpu_seconds": round(cpu, 1),
                "server_cpu_share": round(cpu / (args.warmup + 60 * minutes), 2),
            }
            with LeagueStore(db) as store:
                ended = store.games.games(status="finished")
            result["terminations"] = dict(Counter(g.termination or "?" for g in ended))
            result["mean_plies"] = round(sum(g.plies for g in ended) / max(1, len(ended)), 1)
            print(json.dumps(result, indent=2))
            for worker in workers:
                worker.terminate()
        finally:
            server.terminate()
            server.wait(30)
            log.close()


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
