"""A class event past one machine: hosted teams' bots play a round robin on a real local
Ray cluster of two nodes, while a connected client plays beside it.

The cluster is started here with ``ray start`` on loopback (a head node and a second
node joining it, ``--cpus`` CPUs each, in a temporary folder of its own) and stopped
here at the end, by the ids of the processes it started (found by that folder in their
command lines: nothing else on the machine is touched). ``--teams`` teams upload the
Python starter kit (``examples/engines/python``) with a bot of its form that thinks for
80% of each move's time by the wall clock, as course bots do with a timer, then plays
the greedy move (:data:`SPENDER`); a league server in
this process builds and checks them, then a real ``adjacency league serve --executor
ray --ray-address HEAD`` plays the event (``--cycles`` 2: a double round robin) at
``--move-time`` seconds a move, ``--rounds`` rounds a game, each game's hosted sides in
a Ray actor on a node of the cluster. Two ``greedy`` bots connected through ``adjacency
connect`` play beside it: the server's move round trip for a connected client meanwhile.

Figures: games, wall minutes (the first game's start to the last game's end), games per
hour, the share of games decided on the board, the CPU per game: the bots' (the CPU
time the sandboxes charged to both sides' clocks) and the overhead (every process of
the Ray cluster, and the server), and the connected client's move round trip
(p50, p95), with the load average before and after. ``--json`` prints them as one line.

    python benchmarks/bench_class_cluster.py --teams 4 --rounds 6 --move-time 0.5
    python benchmarks/bench_class_cluster.py --teams 30 --rounds 28 --move-time 5  # a class

The second form is the course's: 30 teams, 870 games at 5 s a move; docs/league.md
("A class past one machine") gives the measured figures and what they mean for a lab.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench_hosted import REPO, League, cli, free_port, play_event, proc_figures

RAY = Path(sys.executable).with_name("ray")
"""The ``ray`` command of this Python's environment (extra ``ray``)."""
TOKEN = Path("~/.ray/auth_token")
"""Where ``ray start --head`` finds a saved authentication token (then it requires one)."""


def ray_processes(folder: Path) -> list[int]:
    """The ids of the processes whose command line names ``folder`` (the cluster's)."""
    found = []
    mark = str(folder).encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if mark in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The CPU seconds of ``pids`` so far, their reaped children's included (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks
    return total


@contextlib.contextmanager
def cluster(cpus: int) -> Iterator[tuple[str, Path]]:
    """A Ray cluster of two nodes on loopback (``cpus`` CPUs each): its address and its
    folder; stopped on exit (its processes, by id, then the folder removed)."""
    folder = Path(tempfile.mkdtemp(prefix="rb-", dir="/tmp"))  # short: Ray's socket paths
    port = free_port()
    address = f"127.0.0.1:{port}"
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    common = ["--num-cpus", str(cpus), "--disable-usage-stats"]
    try:
        for command in (
            ["--head", "--port", str(port), "--temp-dir", str(folder), "--include-dashboard=false"],
            ["--address", address],
        ):
            started = subprocess.run(
                [str(RAY), "start", *command, "--node-ip-address", "127.0.0.1", *common],
                env=env, capture_output=True, text=True, timeout=180, check=False,
            )  # fmt: skip
            if started.returncode != 0:
                raise SystemExit(f"ray start {command[0]} failed:\n{started.stderr[-3000:]}")
        yield address, folder
    finally:
        for pid in ray_processes(folder):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while ray_processes(folder) and time.monotonic() < deadline:
            time.sleep(0.5)
        for pid in ray_processes(folder):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def nodes(address: str) -> int:
    """How many nodes the cluster at ``address`` has alive (asked from a new process)."""
    script = (
        f"import ray; ray.init(address={address!r}, logging_level='ERROR');"
        " print(sum(1 for n in ray.nodes() if n['Alive']))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return int(answer.stdout.strip().splitlines()[-1])


SPENDER = """

def spender(board, deadline):
    \"\"\"A course-like bot: it thinks for {share:g} of each move's {seconds:g} s (as course
    bots do with a timer), then plays the greedy move.\"\"\"
    import time

    end = time.monotonic() + {budget!r}
    work = 0
    while time.monotonic() < end:
        work += 1
    return greedy(board, deadline)


BOTS["spender"] = spender
"""
"""The bot every team plays, added to the starter kit's ``bots.py``."""
SHARE = 0.8
"""The share of a move's time the bots think."""


def team_zip(move_time: float, number: int) -> bytes:
    """A team's project: the Python starter kit with :data:`SPENDER` added to its bots
    and chosen by its manifest (a comment of the team's own makes each zip its own
    bytes)."""
    buffer = io.BytesIO()
    kit = REPO / "examples" / "engines" / "python"
    spender = SPENDER.format(share=SHARE, seconds=move_time, budget=SHARE * move_time)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(kit.glob("*.py")):
            text = path.read_text(encoding="utf-8")
            if path.name == "bots.py":
                text += spender + f"# team {number}\n"
            archive.writestr(f"bot/{path.name}", text)
        manifest = {"language": "python", "main": "engine.py", "args": ["spender"]}
        archive.writestr("bot/adjacency-bot.json", json.dumps(manifest))
    return buffer.getvalue()


def thinking(db: Path, event: str) -> list[float]:
    """Each finished game's clock seconds (both sides together) in ``event``."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        rows = connection.execute(
            "SELECT g.x_time + g.o_time FROM games g JOIN event_boards b ON b.pair_id = g.pair_id"
            " JOIN events e ON e.id = b.event_id WHERE e.name = ? AND g.status = 'finished'",
            (event,),
        ).fetchall()
    return [float(row[0]) for row in rows]


def run(args: argparse.Namespace) -> dict[str, Any]:
    from hosted_helpers import served as in_process

    before = os.getloadavg()
    names = [f"team{number:02d}" for number in range(args.teams)]
    with cluster(args.cpus) as (address, folder):
        alive = nodes(address)
        served = League(
            args.rounds, args.move_time, args.hosted_jobs,
            ("--executor", "ray", "--ray-address", address),
        )  # fmt: skip
        try:
            tokens = [served.member(name) for name in names]
            probes = [served.member(f"probe{number}") for number in range(2)]
            own_url = served.url
            with in_process(served.db, hosted_games=False) as (url, _):
                served.url = url  # the builds' server, in this process
                for number, token in enumerate(tokens):
                    served.upload(token, team_zip(args.move_time, number))
                served.verdicts(tokens)
            served.url = own_url
            fmt = "double-round-robin" if args.cycles == 2 else "round-robin"
            cli("league", "event", "create", "--db", str(served.db), "--format", fmt,
                "--members", ",".join(names), "--pace", "0", "class")  # fmt: skip
            cli("league", "event", "start", "--db", str(served.db), "class")
            cluster_cpu = cpu_seconds(ray_processes(folder))
            served.start()
            assert served.server is not None
            _, server_cpu = proc_figures(served.server.pid)
            for token in probes:
                served.connect(token, "greedy")
            figures = play_event(served, "class", args.bound)
            cluster_cpu = cpu_seconds(ray_processes(folder)) - cluster_cpu
            _, server_after = proc_figures(served.server.pid)
            beside = served.stats()
            think = thinking(served.db, "class")
        finally:
            served.stop()
    games = int(figures["games"])
    hours = float(figures["minutes"]) / 60
    overhead = cluster_cpu + (server_after - server_cpu)  # Ray's processes and the server
    bots = sum(think)  # the sandboxes' CPU charge: the games' clocks
    on_board = figures["endings"].get("normal", 0)
    return {
        "settings": vars(args),
        "nodes": alive,
        "games": games,
        "endings": figures["endings"],
        "wall_minutes": round(float(figures["minutes"]), 2),
        "games_per_hour": round(games / hours, 1) if hours else None,
        "decided_on_board": round(on_board / games, 3) if games else None,
        "bot_cpu_s_per_game": round(bots / games, 2) if games else None,
        "overhead_cpu_s_per_game": round(overhead / games, 2) if games else None,
        "cpu_s_per_game": round((bots + overhead) / games, 2) if games else None,
        "cluster_cpu_s": round(cluster_cpu, 1),
        "server_cpu_s": round(server_after - server_cpu, 1),
        "connected_round_trip_ms": {
            "p50": beside["round_trip_ms_p50"],
            "p95": beside["round_trip_ms_p95"],
            "moves": beside["moves"],
        },
        "load_before": [round(x, 2) for x in before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=30, help="hosted teams (default 30)")
    parser.add_argument("--cycles", type=int, choices=(1, 2), default=2,
                        help="1: a round robin, 2: a double round robin (default)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=28, help="rounds a game (default 28)")
    parser.add_argument("--move-time", type=float, default=5.0,
                        help="seconds a move (default 5, the course's)")  # fmt: skip
    parser.add_argument("--cpus", type=int, default=1, help="CPUs each node offers (default 1)")
    parser.add_argument("--hosted-jobs", type=int, default=None,
                        help="the server's own builds and checks at once (default: its "
                        "cores less one); each node has its own slots for games")  # fmt: skip
    parser.add_argument("--bound", type=float, default=7200.0,
                        help="seconds the event may take before the run fails")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = str(REPO / "src")
    if TOKEN.expanduser().exists() or os.environ.get("RAY_AUTH_TOKEN"):
        # `ray start --head` takes token authentication where a token is saved: every
        # node, the server and this script's checks then join in token mode too
        os.environ.setdefault("RAY_AUTH_MODE", "token")
    result = run(args)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
