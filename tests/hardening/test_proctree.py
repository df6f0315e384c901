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


def test_a_subtree_is_the_tree_the_whole_table_gives_and_its_root() -> None:
    """The children lists give the same tree as the parents of every process."""
    # "ready" comes from the subshell once it has forked its sleep, after the outer
    # shell forked its two: all four are there when it is read.
    program = "sleep 60 & sleep 60 & (sleep 60 & echo ready; wait) & wait"
    with subprocess.Popen(["/bin/sh", "-c", program], stdout=subprocess.PIPE, text=True) as shell:
        assert shell.stdout is not None
        assert shell.stdout.readline() == "ready\n"
        try:
            below = proctree.subtree(shell.pid)
            assert below is not None  # this kernel lists children
            # Grandchildren included: the subshell's sleep is found as its parent's child.
            whole = proctree.tree(proctree.snapshot(), shell.pid)
            assert sorted(below) == sorted([shell.pid, *whole]) and len(whole) >= 4
            assert all(info.uid == proctree.UNREAD for info in below.values())
            assert proctree.tree(below, shell.pid) == proctree.tree(
                {pid: proctree.snapshot()[pid] for pid in below}, shell.pid
            )
        finally:
            for pid in proctree.tree(proctree.snapshot(), shell.pid):
                os.kill(pid, 9)
            shell.kill()
    assert proctree.subtree(shell.pid) == {}


def test_a_process_read_without_its_owner_reads_the_same_times() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", BUSY + "import sys\nprint('done', flush=True)\nsys.stdin.read()\n"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as busy:
        assert busy.stdout is not None and busy.stdin is not None
        assert busy.stdout.readline() == "done\n"
        with_owner, without = proctree.read(busy.pid), proctree.read(busy.pid, owner=False)
        assert with_owner is not None and without is not None
        assert with_owner.uid == os.geteuid() and without.uid == proctree.UNREAD
        assert without.cpu_ticks == with_owner.cpu_ticks >= 0.29 * proctree.TICKS
        assert proctree.snapshot(owners=False)[busy.pid].uid == proctree.UNREAD
        busy.stdin.close()


def test_a_process_began_between_the_moments_around_its_fork() -> None:
    """:func:`proctree.began` reads the kernel's record of a process's fork on the
    monotonic clock: between the moments just before and just after it was started, a
    clock tick early at most."""
    import time

    before = time.monotonic()
    with subprocess.Popen(["/bin/sh", "-c", "sleep 60"]) as child:
        after = time.monotonic()
        try:
            info = proctree.read(child.pid, owner=False)
            assert info is not None
            began = proctree.began(info)
            assert before - 1 / proctree.TICKS <= began <= after, (before, began, after)
        finally:
            child.kill()
