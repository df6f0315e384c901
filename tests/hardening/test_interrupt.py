"""Ctrl-C stops engine work at once, and a hopeless solve says so up front.

Python runs a SIGINT handler only between bytecodes of the main thread, so before
the fix a compiled solve or search ignored Ctrl-C until it finished (for the
position below: never). The child reports when the compiled call has started,
gets SIGINT, and must end with KeyboardInterrupt instead of running on.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

from adjacency.cli import main
from cli_helpers import computing_for

HOPELESS = "x7/8/8/8/8/8/8/7o x 60"
"""60 plies with 62 empty squares: no solver finishes this."""

CHILD = textwrap.dedent(
    """
    import signal, sys
    from adjacency.core import Position
    from adjacency.engine import Engine, warmup

    # As in a terminal, whatever the test runner's workers do with SIGINT; SIGTERM as
    # the arena's runner treats it (adjacency.system.signals.sigterm_as_interrupt).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    warmup()
    engine = Engine(tt_mb=4, threads=int(sys.argv[3]))
    position = Position.from_fen(sys.argv[2])
    print("started", flush=True)
    try:
        if sys.argv[1] == "solve":
            engine.solve(position, wld=True)
        else:
            engine.search(position, seconds=3600)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
    print("finished", flush=True)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("work", "signum", "threads"),
    [
        ("solve", signal.SIGINT, 1),
        ("search", signal.SIGINT, 1),
        ("solve", signal.SIGTERM, 1),
        ("solve", signal.SIGINT, 2),
    ],
    ids=["solve-sigint", "search-sigint", "solve-sigterm", "split-solve-sigint"],
)
def test_ctrl_c_stops_a_compiled_solve_or_search(work: str, signum: int, threads: int) -> None:
    # With 2 threads the solver's split points (Python, engine/parallel_solve.py) stop too.
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, work, HOPELESS, str(threads)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "started"
        computing_for(child.pid, 0.5)  # inside the compiled call (its import is done)
        child.send_signal(signum)
        # Without the fix the call never returns; with it, it unwinds in microseconds.
        assert child.wait(timeout=60) == 130
        assert child.stdout.read().strip() == "interrupted"
    finally:
        child.kill()
        child.wait()


def test_a_hopeless_solve_warns_before_it_starts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import adjacency.engine as engine

    def interrupted() -> None:  # stands in for the first thing the solve does after the warning
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "warmup", interrupted)
    assert main(["solve", HOPELESS]) == 130
    err = capsys.readouterr().err
    assert "warning: 60 plies with 62 empty squares may take about 10^" in err
    assert "Ctrl-C stops it, --time bounds it" in err


def test_a_quick_solve_does_not_warn(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox1oooxx/ooxoxxxx/oooox1xo/xoxoo2o x 14"
    assert main(["solve", fen, "--wld"]) == 0
    assert "warning" not in capsys.readouterr().err
