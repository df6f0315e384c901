"""The kits' alpha-beta bots on the league's clock, on a loaded machine: do they lose on
time with time left?

A real ``adjacency league serve`` process plays a double round robin of the starter
kits' alpha-beta bots (the Java, Python and Node kits' engine runners, each through
``adjacency connect 'cmd:...'`` as a student's bot connects; the Java kit twice, so that
four members play 24 games), while ``--load N`` processes spin on the CPU beside them
(the machine's own load counts too: it is printed). The server's clock decides: a game
lost on time is the server's flag when the loser's clock ran out. A time loss **with
time left** is one where the loser had not used its clock (its thinking time, as the
server charged it, short of its base plus increments by more than ``--slack`` seconds):
its client or kit cut it short, the defect this measures.

Prints one JSON object (also written to ``--out``): games, time losses, time losses
with time left (each with its game, loser, clock used and allowed), the load before and
after. Exit status 0 when every game ended and none was a time loss with time left.

    python benchmarks/bench_kit_clock.py                     # 24 games, 8x8, 12 rounds, 5+0.1
    python benchmarks/bench_kit_clock.py --load 2 --time 10+0.1 --rounds 28
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_event import (
    ADJACENCY,
    Processes,
    _wait,
    add_java_option,
    build_java,
    get,
    kit_spec,
    new_league,
)

REPO = Path(__file__).resolve().parents[1]
EVENT = "clock"
ROSTER = [
    ("java-ab", "java"),
    ("python-ab", "python"),
    ("node-ab", "node"),
    ("java-ab-2", "java"),
]
"""The event's members: a name and the kit whose ``alphabeta`` bot it runs."""


def spin(stop: Any) -> None:
    """Burn a CPU until ``stop`` is set (one ``--load`` process)."""
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12, help="rounds of each game")
    parser.add_argument("--size", type=int, default=8, help="the board's side")
    parser.add_argument("--time", default="5+0.1", help="each side's clock, BASE+INCREMENT s")
    parser.add_argument("--load", type=int, default=0, help="CPU-spinning processes beside")
    parser.add_argument("--slack", type=float, default=0.5, help="seconds of clock unused")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds for it all")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    add_java_option(parser)
    args = parser.parse_args()

    sys.path.insert(0, str(REPO / "src"))
    from adjacency.league.league_file import LeagueStore
    from adjacency.league.settings import LeagueSettings, parse_clock

    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=spin, args=(stop,)) for _ in range(args.load)]
    for burner in burners:
        burner.start()
    load_before = os.getloadavg()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        db = folder / "league.db"
        base, increment = parse_clock(args.time)
        settings = LeagueSettings(
            rows=args.size, cols=args.size, rounds=args.rounds, base=base, increment=increment
        )
        tokens = new_league(db, settings, [(name, "bot", None) for name, _ in ROSTER])
        with LeagueStore(db) as store:
            store.events.create(EVENT, "double-round-robin", None, [n for n, _ in ROSTER])
        processes = Processes(folder)
        try:
            java = args.java or build_java(folder / "java")
            url = processes.serve(db)
            for name, kit in ROSTER:
                spec = kit_spec(kit, "alphabeta", java)
                processes.spawn([*ADJACENCY, "connect", url, spec], f"{name}.log", tokens[name])
            names = {name for name, _ in ROSTER}
            _wait(
                lambda: names <= {r["name"] for r in get(f"{url}/api/league/standings")
                                  if r["online"]},
                "the kits to connect",
            )  # fmt: skip
            with LeagueStore(db) as store:
                store.events.start(EVENT)

            def finished() -> bool:
                with LeagueStore(db) as store:
                    return store.events.named(EVENT).status == "finished"

            _wait(finished, "the event to finish", timeout=args.timeout, poll=1.0)
        finally:
            processes.stop()
            stop.set()
            for burner in burners:
                burner.join(10)
        with LeagueStore(db) as store:
            event = store.events.named(EVENT)
            names_by_id = {m.id: m.name for m in store.members.members()}
            games = [store.games.game(i) for i in store.events.game_ids(event.id)]
    losses, with_time_left = [], []
    for game in games:
        assert game is not None
        if game.termination != "time forfeit":
            continue
        loser_x = game.result == "o"
        moves = (game.plies + (1 if loser_x else 0)) // 2  # the loser's moves played
        allowed = base + increment * moves
        used = game.x_time if loser_x else game.o_time
        entry = {
            "game": game.id,
            "loser": names_by_id[game.x_id if loser_x else game.o_id],
            "detail": game.detail,
            "used_s": round(used, 3),
            "allowed_s": round(allowed, 3),
        }
        losses.append(entry)
        if used < allowed - args.slack:
            with_time_left.append(entry)
    result = {
        "games": len(games),
        "setting": f"{args.size}x{args.size}, {args.rounds} rounds, clock {args.time}",
        "load_processes": args.load,
        "time_losses": losses,
        "time_losses_with_time_left": with_time_left,
        "seconds": round(time.monotonic() - began, 1),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    text = json.dumps(result, indent=2)
    if args.out is not None:
        args.out.write_text(text + "\n")
    print(text)
    sys.exit(0 if games and not with_time_left else 1)


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
