"""The process table read from /proc (adjacency.system.proctree): parents, owners, trees,
CPU time of living processes and of the children they reaped, resident memory."""

from __future__ import annotations

import os
import subprocess
import sys

from adjacency.system import proctree

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
"""A program that uses 0.3 s of CPU time."""


def test_this_process_is_seen_with_its_parent_owner_and_memory() -> None:
    me = proctree.snapshot()[os.getpid()]
    assert me.ppid == os.getppid() and me.uid == os.geteuid()
    assert me.threads >= 1 and me.rss > 1 << 20 and me.state in "RS"


def test_a_tree_holds_children_and_grandchildren_children_first() -> None:
    with subprocess.Popen(
        ["/bin/sh", "-c", "sleep 60 & echo $!; wait"], stdout=subprocess.PIPE, text=True
    ) as shell:
        assert shell.stdout is not None
        grandchild = int(shell.stdout.readline())
        try:
            found = proctree.tree(proctree.snapshot(), shell.pid)
            assert found == [grandchild]
            mine = proctree.tree(proctree.snapshot(), os.getpid())
            assert mine.index(shell.pid) < mine.index(grandchild)
        finally:
            shell.kill()
            os.kill(grandchild, 9)


def test_cpu_time_counts_a_running_process_and_the_children_it_reaped() -> None:
    program = (
        "import subprocess, sys, time\n"
        f"subprocess.run([sys.executable, '-c', {BUSY!r}])\n"
        f"exec({BUSY!r})\n"
        "print('done', flush=True)\n"
        "sys.stdin.read()\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as parent:
        assert parent.stdout is not None and parent.stdin is not None
        assert parent.stdout.readline() == "done\n"
        info = proctree.read(parent.pid)
        assert info is not None
        assert info.reaped_ticks / proctree.TICKS >= 0.29  # the child it waited for
        assert info.cpu_ticks / proctree.TICKS >= 0.29  # its own loop
        assert proctree.cpu_seconds([info]) >= 0.58
        parent.stdin.close()
    assert proctree.read(parent.pid) is None
