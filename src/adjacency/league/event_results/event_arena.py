"""An event's games as an arena results database, so that ``adjacency report`` reads
them (tables, Elo and margin per pairing, the report with plots: docs/arena.md).

One run of mode ``round-robin`` whose players are the event's members (by name, in
seeding order); each stored game is a task of the pairing of its two members (``a``
the member seeded first), its colour-swapped pair the league pair it was played in.
"""

from __future__ import annotations

from pathlib import Path

from ...arena.games import GameResult
from ...arena.schedule import GameTask, RunSettings, pairings
from ...arena.store import Store
from ...system.provenance import provenance
from ..events.event_store import Event
from ..league_file import LeagueError, LeagueStore


def write_arena_db(league: LeagueStore, event: Event, path: Path) -> int:
    """Write the event's finished games into a new arena database at ``path``; return
    how many. An existing file is :class:`LeagueError` (nothing is written)."""
    if path.exists():
        raise LeagueError(f"{str(path)!r} exists already: export into a new directory")
    events = league.events
    settings = league.meta.settings()
    names = {m.id: m.name for m in league.members.members()}
    members = [names[m] for m in events.members(event.id)]
    index = {pair: k for k, pair in enumerate(pairings(members, "round-robin"))}
    seed = {name: i for i, name in enumerate(members)}
    tasks: list[GameTask] = []
    results: list[GameResult] = []
    for game_id in events.game_ids(event.id):
        game = league.games.game(game_id)
        if game is None or game.record is None:
            continue
        x, o = names[game.x_id], names[game.o_id]
        a, b = (x, o) if seed[x] < seed[o] else (o, x)
        task = GameTask(
            index=len(tasks), pairing=index[(a, b)], pair=game.pair_id or 0, a=a, b=b,
            x=x, o=o, rows=settings.rows, cols=settings.cols, rounds=settings.rounds,
            opening=game.opening, seed=0, time=None, depth=None, nodes=None, margin=0.0,
            a_is_x=a == x,
        )  # fmt: skip
        tasks.append(task)
        results.append(
            GameResult(
                task,
                game.result,
                game.termination or "normal",
                game.detail,
                game.x_score or 0,
                game.o_score or 0,
                game.plies,
                (),
                game.record,
                game.x_time + game.o_time,
                "league",
            )
        )
    arena = RunSettings(rows=settings.rows, cols=settings.cols, rounds=(settings.rounds,),
                     time=None)  # fmt: skip
    with Store(path) as store:
        command = f"adjacency league event export {event.name}"
        origin = provenance({"event": event.name, **arena.to_dict()}, seeds=arena.seed)
        run = store.create_run("round-robin", members, arena, tasks, command, event.name, origin)
        for result in results:
            store.record(run, result)
        store.set_status(run, "finished" if event.status == "finished" else "stopped")
    return len(results)
