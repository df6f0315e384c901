"""More programs than cores, through the real server (its builder, the sandbox, the
system's Python): the league starts no more games with a hosted side than it has slots,
computes no more sides at once, and so its moves' charges together (each its own wall
time, the wall time less the share the machine's other work took, measured outside its
sandbox, less the grace for the pipes; or its CPU where more) stay within 1.2 times the
CPU they used, and the median move's own wall time within 1.2 times its CPU: the program
thinks on a core of its own, as the course's clock assumes. Read from the server's own
record of each move, never timed by the test."""

from __future__ import annotations

import statistics
from pathlib import Path

from adjacency.hosting.move_clock import MoveTime, charge
from hosted_helpers import (
    accepted,
    files_zip,
    finished_games,
    first_empty_program,
    new_league,
    served,
)
from league_helpers import add_member, upload, wait_until
from sandbox_helpers import own_sandboxes

TEAMS = 3
"""Programs, against one slot."""

COMPUTES = first_empty_program(
    "computes",
    """\
def think():
    end = time.process_time() + 0.2  # 0.2 s of CPU a move, however long the machine takes
    while time.process_time() < end:
        pass
""",
)


def test_a_league_of_more_programs_than_slots_gives_each_move_its_core(folder: Path) -> None:
    league = new_league(folder, base=10.0)
    tokens = [add_member(league, f"team{number}") for number in range(1, TEAMS + 1)]
    with served(league, hosted_jobs=1) as (url, app):
        for token in tokens:
            assert upload(url, files_zip({"engine.py": COMPUTES}), token).status == 201
        for token in tokens:
            accepted(url, token)
        finished_games(league, "team1", 3)
        hosted = app.state.hosted
        assert hosted.most_games == 1, hosted.most_games  # games waited in the pairing
        assert hosted.most_computing == 1 and hosted.slots.most == 1
        timings = [t for t in hosted.timings if t[2] >= 0.15]  # the moves that computed
        assert len(timings) >= 6, hosted.timings  # two moves a game, three games at least
        # Together, and for the median move: a loaded machine delays the server's own
        # round trips now and then (one move in ten or twenty), which neither the
        # program's waits nor the machine's share show, and the grace absorbs.
        times = [MoveTime(cpu, wall, stalled=wall - own) for wall, own, cpu in timings]
        charged = sum(charge(time) for time in times)  # as the clock charges each
        used = sum(cpu for _, _, cpu in timings)
        said = [
            f"{own:.2f} s own, {cpu:.2f} s CPU, {wall:.2f} s wall" for wall, own, cpu in timings
        ]
        assert charged <= 1.2 * used, said
        assert statistics.median(own / cpu for _, own, cpu in timings) <= 1.2, said
    wait_until(lambda: not own_sandboxes(), 20, "every hosted bot's process to end")
