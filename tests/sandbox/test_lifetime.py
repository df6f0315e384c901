"""A sandbox lives as long as the process that started it, not the thread: it outlives a
short-lived starting thread, and nothing of it outlives a server killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path

from adjacency import sandbox
from sandbox_helpers import GUARD, PYTHON, host_pids_with, wait_until, write_program

ECHO = "import sys\nfor line in sys.stdin:\n    print('echo', line.strip(), flush=True)\n"


def test_a_sandbox_outlives_the_thread_that_started_it(sandbox_box: Path) -> None:
    program = write_program(sandbox_box, "echo.py", ECHO)
    started: list[sandbox.SandboxedProcess] = []
    native: list[int] = []

    def start() -> None:
        native.append(threading.get_native_id())
        process = sandbox.SandboxedProcess([PYTHON, program], submission=sandbox_box)
        process.start()
        started.append(process)
        # Its first answer: bubblewrap's set-up, death signal included, is done.
        process.send_line("before")
        assert process.read_line(GUARD) == "echo before"

    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
    [process] = started
    try:
        # The starting thread is gone from the kernel too (where a death signal tied to
        # it would fire), and the sandbox still answers.
        wait_until(lambda: not Path(f"/proc/self/task/{native[0]}").exists(), "thread gone")
        process.send_line("after")
        assert process.read_line(GUARD) == "echo after"
    finally:
        outcome = process.end()
    assert outcome.reason is sandbox.Reason.ENDED, outcome


SERVER = """\
import sys, time
from pathlib import Path
from adjacency import sandbox
box, program, token = sys.argv[1:]
process = sandbox.SandboxedProcess(
    ["/usr/bin/python3", program, token], submission=Path(box)
)
process.start()
print(process.read_line(50), flush=True)
time.sleep(3600)
"""


def test_nothing_of_a_sandbox_outlives_a_server_killed_with_sigkill(sandbox_box: Path) -> None:
    token = uuid.uuid4().hex
    program = write_program(
        sandbox_box,
        "daemon.py",
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    time.sleep(3600)\n"
        "print('up', flush=True)\n"
        "time.sleep(3600)\n",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with subprocess.Popen(
        [sys.executable, "-c", SERVER, str(sandbox_box), program, token],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    ) as server:
        assert server.stdout is not None
        assert server.stdout.readline() == "up\n"
        assert len(host_pids_with(token)) >= 2  # the program and its daemon
        server.send_signal(signal.SIGKILL)
        server.wait(GUARD)
    wait_until(lambda: not host_pids_with(token), "nothing of the sandbox is left")
