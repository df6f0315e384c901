"""A version's digest is made in a worker process with its own CPU budget
(:mod:`adjacency.league.grading.digest_worker`), off the threads that answer requests.

- Its CPU is the worker's, not the server's: the calling thread only waits.
- Past its budget, the rest is shown plain: within the digest's budget, each file left
  is one plain token; a worker the kernel stops at its CPU limit (SIGXCPU, sent here
  as the kernel sends it) gives the digest with every file plain.
- A stopping server ends a digest in hand: its caller hears it was not made.
"""

from __future__ import annotations

import html
import json
import os
import re
import resource
import signal
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

import pytest

from adjacency.hosting.java_build import kit_sources
from adjacency.league.grading import digest_worker
from adjacency.league.grading.digest_worker import DigestStopped, made_apart, make
from adjacency.league.grading.fingerprints import unpack
from adjacency.league.league_file import LeagueError
from hosted_helpers import files_zip
from load_helpers import no_collection

MIB = 1 << 20
ENGINE = "import sys\nfor line in sys.stdin:\n    print('aepok', flush=True)\n"
ATTACK = {"engine.py": ENGINE, "src/A.java": "<a" * (MIB // 2)}


def _files(code: bytes) -> dict[str, list[str]]:
    """The highlighted lines of each file in a packed code digest."""
    files = json.loads(zlib.decompress(code).decode().partition("\n")[2])
    return {f["path"]: f["lines"] for f in files}


def _plain(lines: list[str], text: str) -> bool:
    """Whether ``lines`` show ``text`` uncoloured: no span but the unread one's."""
    classes = {c for line in lines for c in re.findall(r'class="([^"]*)"', line)}
    shown = "\n".join(html.unescape(re.sub(r"<[^>]*>", "", line)) for line in lines)
    return classes <= {" -Unread"} and shown == text.rstrip("\n")


def _apart(data: bytes) -> tuple[threading.Thread, list[Any], int]:
    """:func:`made_apart` of ``data`` in a thread: the thread, its outcome (the digest or
    the exception, once it ends) and its worker's pid."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(made_apart(data))
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30.0
    while not digest_worker.running() and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    [pid] = digest_worker.running()
    return thread, outcome, pid


def test_a_digest_is_made_by_a_worker_whose_cpu_is_its_own() -> None:
    data = files_zip(ATTACK)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    mine = time.thread_time()
    apart = made_apart(data)
    spent = time.thread_time() - mine
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    worker = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert spent < worker, (spent, worker)  # the digest's CPU was the worker's
    with no_collection():  # as in the worker, a fresh process: no long collection cuts it
        here = make(data)
    assert apart == here  # the same digest as made here
    assert "src/A.java" in unpack(apart[0])


def test_a_digest_past_its_budget_shows_the_rest_plain() -> None:
    kit = [path.read_text(encoding="utf-8") for path in sorted(kit_sources().rglob("*.java"))]
    long_java = "\n".join(kit * 8)  # lexed for longer than the budget below
    files = {"engine.py": ENGINE, "src/A.java": long_java, "src/B.java": "class B { }\n"}
    prints, code = make(files_zip(files), seconds=0.02)
    shown = _files(code)
    assert any("<span" in line for line in shown["src/A.java"])  # coloured at first
    assert _plain(shown["src/A.java"][-3:], "\n".join(long_java.splitlines()[-3:]))
    assert _plain(shown["src/B.java"], files["src/B.java"])  # never lexed
    assert unpack(prints) == {}  # nothing was left to fingerprint with


def _stopped_by_its_cpu_limit(pid: int) -> None:
    os.kill(pid, signal.SIGXCPU)  # what the kernel sends at the worker's RLIMIT_CPU


@pytest.mark.parametrize("end", [_stopped_by_its_cpu_limit, lambda _: digest_worker.stop_all()])
def test_a_worker_ended_gives_a_plain_digest_or_none(end: Callable[[int], object]) -> None:
    data = files_zip({**ATTACK, "src/B.java": "class B { int x = 1; }\n"})
    thread, outcome, pid = _apart(data)
    os.kill(pid, signal.SIGSTOP)  # in hand until it is ended
    end(pid)
    os.kill(pid, signal.SIGCONT)
    thread.join(30.0)
    [made] = outcome
    assert not digest_worker.running()
    if end is _stopped_by_its_cpu_limit:
        assert made == make(data, seconds=0.0)
        assert _plain(_files(made[1])["src/B.java"], "class B { int x = 1; }")
    else:
        assert isinstance(made, DigestStopped)
        assert "the server is stopping" in str(made)


def test_a_zip_the_intake_refuses_is_refused_by_the_worker_with_its_reason() -> None:
    too_long = files_zip({"engine.py": ENGINE, "src/A.java": "a" * (MIB + 1)})
    with pytest.raises(LeagueError, match=r"^version 7 cannot be read: rule '"):
        made_apart(too_long, "version 7")
    assert not digest_worker.running()
