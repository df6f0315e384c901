"""``adjacency engine`` ends after ``quit`` and ``adjacency solve`` after Ctrl-C as soon as
their work is done, however loaded the machine: the exit skips the garbage collection of
the compiled kernels' objects (:mod:`adjacency.system.shutdown`), which took over 2 s on a
loaded machine after everything had been said.

The real processes are driven by what they say (``bestmove``, the solve's warning) and
checked by what they do (they exit, with their status); the waits are generous bounds
against a hang, never measurements.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

from protocol_helpers import REPO

HOPELESS = "x7/8/8/8/8/8/8/7o x 60"
"""60 plies with 62 empty squares: no solver finishes this; only Ctrl-C ends it."""

CYCLE_AT_EXIT = textwrap.dedent(
    """
    import os, sys
    from adjacency.cli import main

    class Cycle:
        def __init__(self):
            self.me = self  # garbage only a collection can free
        def __del__(self, write=os.write):
            write(1, b"collected at exit\\n")

    status = main(sys.argv[1:])
    Cycle()
    sys.exit(status)
    """
)

SOLVE = textwrap.dedent(
    """
    import signal, sys
    # As in a terminal, whatever the test runner does with SIGINT.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from adjacency.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def test_a_command_exits_without_the_final_collection() -> None:
    """The mechanism: garbage left at exit is not collected (the collection is what was slow)."""
    done = subprocess.run(
        [sys.executable, "-c", CYCLE_AT_EXIT, "bots"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "collected at exit" not in done.stdout


def test_the_engine_ends_its_search_and_exits_after_quit() -> None:
    engine = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write("aep\nisready\nposition startpos\ngo infinite\n")
        engine.stdin.flush()
        for line in engine.stdout:
            if line.startswith("info"):
                break  # searching
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        rest = engine.stdout.read()  # until the process closes its output
        assert engine.wait(timeout=60) == 0
        assert rest.splitlines()[-1].startswith("bestmove ")  # the search ended with its answer
    finally:
        engine.kill()
        engine.wait()


def test_solve_stops_on_ctrl_c() -> None:
    solve = subprocess.Popen(
        [sys.executable, "-c", SOLVE, "solve", HOPELESS, "--threads", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert solve.stderr is not None
        warning = solve.stderr.readline()
        assert "Ctrl-C stops it" in warning  # the command runs; the solve starts next
        solve.send_signal(signal.SIGINT)
        rest = solve.stderr.read()
        assert solve.wait(timeout=60) == 130
        assert rest.strip() == "interrupted"
    finally:
        solve.kill()
        solve.wait()
