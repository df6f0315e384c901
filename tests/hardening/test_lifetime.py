"""Children end when their parent is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from protocol_helpers import running

# The middle process starts the child, prints its pid and waits to be killed; the
# child shares the middle's standard output and says when its watch runs.
MIDDLE = textwrap.dedent(
    """
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdin=subprocess.DEVNULL)
    print(child.pid, flush=True)
    time.sleep(60)
    """
)

CHILD = textwrap.dedent(
    """
    import time
    from adjacency.system.lifetime import exit_with_parent
    exit_with_parent(kernel_signal={kernel}, interval=0.1)
    print("watching", flush=True)
    time.sleep(60)
    """
)


def wait_gone(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not running(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("kernel", [True, False], ids=["pdeathsig", "parent-watch"])
def test_child_ends_when_parent_is_killed(kernel: bool) -> None:
    middle = subprocess.Popen(
        [sys.executable, "-c", MIDDLE, CHILD.format(kernel=kernel)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert middle.stdout is not None
    child = int(middle.stdout.readline())
    try:
        assert middle.stdout.readline().strip() == "watching"
        middle.kill()
        middle.wait()
        assert wait_gone(child), f"child {child} outlived its killed parent"
    finally:
        if running(child):
            os.kill(child, signal.SIGKILL)


# The child says each time its watch reads its parent's id.
COUNTED = textwrap.dedent(
    """
    import os, time
    from adjacency.system.lifetime import exit_with_parent
    real = os.getppid
    def counted():
        print("poll", flush=True)
        return real()
    os.getppid = counted
    exit_with_parent(kernel_signal=True, interval=0.1)
    time.sleep(60)
    """
)


def test_a_child_whose_parent_lives_keeps_running() -> None:
    child = subprocess.Popen([sys.executable, "-c", COUNTED], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        polls = [child.stdout.readline().strip() for _ in range(8)]  # the watch's polls
        assert polls == ["poll"] * 8  # a child that ended would have closed its output
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()


# The middle process starts `adjacency engine` on a pipe that the test also holds
# open, so the engine sees no end of input when the middle dies: only its parent
# watch can end it.
ENGINE_MIDDLE = textwrap.dedent(
    """
    import subprocess, sys, time
    engine = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "engine", "--bot", "random"],
        stdin=int(sys.argv[1]), pass_fds=(int(sys.argv[1]),),
    )
    print(engine.pid, flush=True)
    time.sleep(60)
    """
)


def test_engine_ends_when_its_controller_is_killed_mid_search() -> None:
    read_end, write_end = os.pipe()
    middle = subprocess.Popen(
        [sys.executable, "-c", ENGINE_MIDDLE, str(read_end)],
        stdout=subprocess.PIPE,
        text=True,
        pass_fds=(read_end,),
    )
    os.close(read_end)
    assert middle.stdout is not None
    engine = int(middle.stdout.readline())
    try:
        # Its answers go to the middle's stdout, which is our pipe: wait for them.
        os.write(write_end, b"isready\ngo infinite\n")
        assert middle.stdout.readline().strip() == "readyok"
        middle.kill()
        middle.wait()
        assert wait_gone(engine), f"engine {engine} outlived its killed controller"
    finally:
        os.close(write_end)
        if running(engine):
            os.kill(engine, signal.SIGKILL)
