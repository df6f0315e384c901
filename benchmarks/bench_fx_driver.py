"""A team's own JavaFX program played through its window: what one driven game costs.

Builds one course-shaped program of tests/fx_course_projects.py (``--shape``: its bot
answers at once on the JavaFX thread, so what is measured is the driver, the program's
window and the display, not a search), then plays ``--games`` games of ``--rounds``
rounds on 8x8 against ``greedy`` (colours alternating), each in a sandbox of its own
(:func:`adjacency.hosting.fx_run.command_line`: bubblewrap, a private Xvfb, the JVM with
the driver), talking the engine protocol to it directly. Per game:

- start to first move: the sandbox, the display, the JVM and the program's input window
  (the handshake), then the form filled, Play pressed, the game window open and the bot's
  first answer; wall seconds and the CPU seconds of the sandbox's whole process tree;
- the driver's own CPU per move (its thread's CPU time over a move, as the driver reports
  it in ``info string driver cpu``) and the tree's CPU per later move (the program, its
  drawing, the X server and the driver together);
- the tree's peak resident memory over the game (the sandbox's accounting);
- the handshake alone (``aep`` to ``aepok``: the display, the JVM, the input window),
  wall and CPU, what a driven program's start allowance must hold;
- each later move's wall time: a bot that answers at once, so it is the driver's own
  work (the opponent's move clicked in and shown, the bot's mark read from the board
  once it holds still), the grace a move judged by its wall time is given.

Targets: start under 3 s of CPU, the driver under 20 ms of CPU a move, under 400 MB a game.
Figures are medians and maxima, with the load average before and after.

    python benchmarks/bench_fx_driver.py --games 4
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.hosting.fx_build import build_fx
from adjacency.hosting.fx_recipe import recipe_for
from adjacency.hosting.fx_run import FX_BINDS, FX_ENV, FX_LIMITS, command_line, dry_run
from adjacency.sandbox import SandboxedProcess

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the tests' course-shaped JavaFX programs


def read_until(process: SandboxedProcess, prefix: str, seconds: float) -> list[str]:
    """Lines up to the first that starts with ``prefix``."""
    lines = []
    deadline = time.monotonic() + seconds
    while True:
        line = process.read_line(max(0.01, deadline - time.monotonic()))
        if line is None:
            tail = "\n".join(process.stderr_tail(3.0))
            raise SystemExit(f"no {prefix!r} within {seconds} s: {process.describe_exit()}\n{tail}")
        lines.append(line)
        if line.startswith(prefix):
            return lines


@dataclass(frozen=True)
class Figures:
    """One game's figures (seconds, milliseconds, MB)."""

    first_wall: float
    first_cpu: float
    driver_ms: list[float]
    later_cpu_ms: list[float]
    peak_mb: float
    game_cpu: float
    handshake: tuple[float, float]
    later_wall_ms: list[float]


def one_game(argv: list[str], folder: Path, colour: str, rounds: int) -> Figures:
    """One game of the program as ``colour`` against greedy; its figures."""
    greedy = make_bot("greedy", 1)
    process = SandboxedProcess(
        argv, submission=folder, limits=FX_LIMITS, binds=FX_BINDS, env=FX_ENV
    )
    began = time.monotonic()
    process.start()
    position = Position.start(8, 8, rounds)
    moves: list[str] = []
    driver_us: list[int] = []
    later_cpu: list[float] = []
    later_wall: list[float] = []
    first_wall = first_cpu = 0.0
    try:
        process.send_line("aep")
        read_until(process, "aepok", 60)
        handshake = (time.monotonic() - began, process.cpu_seconds())
        while not position.is_over:
            if position.turn == colour:
                cpu, asked = process.cpu_seconds(), time.monotonic()
                process.send_line(
                    f"position startpos rows 8 cols 8 rounds {rounds} moves {' '.join(moves)}"
                )
                process.send_line("go movetime 20000")
                lines = read_until(process, "bestmove", 60)
                for line in lines:
                    if line.startswith("info string driver cpu"):
                        driver_us.append(int(line.split()[4]))
                move = lines[-1].split()[1]
                if not first_wall:
                    first_wall, first_cpu = time.monotonic() - began, process.cpu_seconds()
                else:
                    later_cpu.append(process.cpu_seconds() - cpu)
                    later_wall.append(time.monotonic() - asked)
            else:
                move = greedy.choose_move(position, Limit(depth=1))
            moves.append(move)
            position = position.play(move)
        process.send_line("quit")
        process.wait(10)
    finally:
        outcome = process.end()
    return Figures(
        first_wall,
        first_cpu,
        [us / 1000 for us in driver_us],
        [seconds * 1000 for seconds in later_cpu],
        outcome.memory_peak / (1 << 20),
        outcome.cpu_seconds,
        handshake,
        [seconds * 1000 for seconds in later_wall],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--shape", default="per-side")
    args = parser.parse_args()
    import fx_course_projects

    shape = next(s for s in fx_course_projects.SHAPES if s.name == args.shape)
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench-fx-") as where:
        base = Path(where)
        base.chmod(0o755)
        project = fx_course_projects.write(shape, base / "projects")
        began = time.monotonic()
        build = build_fx(project, base / "build")
        print(f"build (javac in the sandbox): {time.monotonic() - began:.2f} s wall")
        began = time.monotonic()
        seen = dry_run(build, base / "dry")
        print(f"dry run (form and picture): {time.monotonic() - began:.2f} s wall")
        recipe = recipe_for(seen.form)
        argv = command_line(build.main, recipe.driver_args())
        games = [
            one_game(argv, build.folder, "x" if i % 2 == 0 else "o", args.rounds)
            for i in range(args.games)
        ]
    first_wall = [g.first_wall for g in games]
    first_cpu = [g.first_cpu for g in games]
    driver = [ms for g in games for ms in g.driver_ms]
    later = [ms for g in games for ms in g.later_cpu_ms]
    peak = [g.peak_mb for g in games]
    game_cpu = [g.game_cpu for g in games]
    print(f"games: {len(games)} of {args.rounds} rounds, shape {shape.name}")
    print(
        f"start to first move: wall median {statistics.median(first_wall):.2f} s"
        f" (max {max(first_wall):.2f}), CPU median {statistics.median(first_cpu):.2f} s"
        f" (max {max(first_cpu):.2f}); target under 3 s of CPU"
    )
    print(
        f"driver's own CPU a move: median {statistics.median(driver):.1f} ms"
        f" (max {max(driver):.1f}); target under 20 ms"
    )
    print(
        f"the sandbox tree's CPU a later move (program, drawing, X server, driver): median"
        f" {statistics.median(later):.1f} ms (max {max(later):.1f})"
    )
    print(
        f"peak memory a game: median {statistics.median(peak):.0f} MB (max {max(peak):.0f});"
        " target under 400 MB"
    )
    shakes = [g.handshake for g in games]
    print(
        f"handshake (aep to aepok): wall median {statistics.median(w for w, _ in shakes):.2f} s"
        f" (max {max(w for w, _ in shakes):.2f}), CPU median"
        f" {statistics.median(c for _, c in shakes):.2f} s (max {max(c for _, c in shakes):.2f})"
    )
    walls = sorted(ms for g in games for ms in g.later_wall_ms)
    print(
        f"a later move's wall time, the bot answering at once (the driver's own work): median"
        f" {statistics.median(walls):.0f} ms, p95 {walls[int(0.95 * (len(walls) - 1))]:.0f} ms"
        f" (max {max(walls):.0f})"
    )
    per_game = statistics.median(game_cpu)
    print(
        f"CPU a whole game: median {per_game:.2f} s, so about {60 / per_game:.1f} games a minute"
        " a core for the driven side alone"
    )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
