"""Helpers of the starter-kit tests: building the Java kit, the command line of each kit's
runner, and an engine process driven over pipes line by line."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from adjacency.hosting.java_build import kit_sources

REPO = Path(__file__).resolve().parents[1]
KITS = REPO / "examples" / "engines"
NODE_KIT = KITS / "javascript"
PYTHON_KIT = KITS / "python"

PROTOCOL_LINE = re.compile(
    r"(id (name|author) .+|aepok|readyok|info( \S.*)?|bestmove ([a-h][1-9][0-9]?|\(none\)))"
)
"""Every line an engine may write on standard output (docs/protocol.md)."""

GUARD = 60.0
"""Seconds any one answer may take before a test fails: a guard against hangs only."""


def tool(name: str) -> str:
    """The path of a program the kits need (javac, java, node); CI installs them all."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: the starter kits' tests need it (JDK 17, Node 20)")
    return path


def build_java(folder: Path) -> Path:
    """Compile the Java kit (its runner, bots, course adapter and stand-ins, shipped in the
    package) into ``folder`` with every lint warning an error; return ``folder``."""
    sources = sorted(str(p) for p in kit_sources().rglob("*.java"))
    command = [tool("javac"), "-Xlint:all", "-Werror", "-parameters", "-d", str(folder), *sources]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def kit_command(kit: str, bot: str, java_build: Path) -> list[str]:
    """The command line that runs ``bot`` with ``kit``'s protocol runner."""
    if kit == "java":
        return [tool("java"), "-cp", str(java_build), "adjacency.kit.Main", bot]
    if kit == "javascript":
        return [tool("node"), str(NODE_KIT / "engine.js"), bot]
    # -E -s -S: no PYTHONPATH, no site-packages: the template needs nothing but the stdlib.
    return [sys.executable, "-E", "-s", "-S", str(PYTHON_KIT / "engine.py"), bot]


class Engine:
    """An engine process driven over pipes; every line it writes is kept in ``lines``."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr.append(line)

    @property
    def stderr(self) -> str:
        return "".join(self._stderr)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def read(self) -> str:
        """The next line the engine writes (fails if it ends its output, or after GUARD)."""
        try:
            line = self._queue.get(timeout=GUARD)
        except queue.Empty:
            pytest.fail(f"no answer within {GUARD} s; so far {self.lines}; stderr {self.stderr}")
        assert line is not None, f"the engine ended its output; stderr: {self.stderr[-3000:]}"
        self.lines.append(line)
        return line

    def until(self, prefix: str) -> list[str]:
        """Lines up to and including the first that starts with ``prefix``."""
        seen = [self.read()]
        while not seen[-1].startswith(prefix):
            seen.append(self.read())
        return seen

    def close(self) -> int:
        """Send ``quit``; return the exit status (the process group is killed if it hangs).
        Its standard error is then read to its end: what it wrote before it ended is in
        :attr:`stderr`, however late the reading thread ran."""
        try:
            self.send("quit")
            return self.process.wait(GUARD)
        except (OSError, subprocess.TimeoutExpired):
            return -1
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self._stderr_reader.join(GUARD)
