"""Real engines in the sandbox: the starter kits (Python, JavaScript on Node, Java built
with javac inside the sandbox) play a move through the engine protocol's client over the
sandbox's pipes, and are charged CPU time; compiler errors come back verbatim; a JVM's
``System.exit`` mid-game is reported."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from adjacency import sandbox
from adjacency.core.position import Position
from adjacency.hosting.java_build import kit_sources
from adjacency.protocol.client import EngineClient
from adjacency.protocol.wire import BestMove, Go
from kit_helpers import NODE_KIT, PYTHON_KIT
from sandbox_helpers import GUARD, PYTHON, reachable_folder

JAVA = ["/usr/bin/java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
"""A JVM sized for the sandbox's memory limit (its heap well under RLIMIT_DATA)."""


def copy_kit(kit: Path, box: Path, suffix: str) -> None:
    for source in kit.glob(f"*{suffix}"):
        shutil.copy(source, box / source.name)
        (box / source.name).chmod(0o644)


def plays_a_move(process: sandbox.SandboxedProcess) -> str:
    """Drive ``process`` with the protocol's client: handshake, one move from the start."""
    client = EngineClient(process)
    client.start()
    try:
        client.handshake(GUARD)
        client.new_game()
        start = Position.start()
        client.position(start)
        client.go(Go(movetime=200))
        while True:
            message = client.read_message(GUARD)
            assert message is not None, "no answer within the guard"
            if isinstance(message, BestMove):
                assert message.move in start.legal_moves(), message
                used = process.cpu_seconds()
                assert used > 0, "the move's CPU time is charged"
                return message.move
    finally:
        client.close()


def javac(sources: Path, classes: Path, *files: str) -> sandbox.Outcome:
    """``javac`` in the sandbox: ``files`` of the submission ``sources`` into ``classes``."""
    return sandbox.run(
        ["/usr/bin/javac", "-proc:none", "-d", sandbox.OUTPUT, *files],
        submission=sources,
        output=classes,
    )


def test_the_python_kit_plays_in_the_sandbox(sandbox_box: Path) -> None:
    copy_kit(PYTHON_KIT, sandbox_box, ".py")
    process = sandbox.SandboxedProcess(
        [PYTHON, "-E", "-s", "-S", "engine.py", "greedy"], submission=sandbox_box
    )
    plays_a_move(process)
    outcome = process.end()  # the client said quit: it exited by itself
    assert outcome.reason is sandbox.Reason.EXITED and outcome.returncode == 0, outcome


@pytest.mark.node
def test_the_javascript_kit_plays_on_node_in_the_sandbox(sandbox_box: Path) -> None:
    copy_kit(NODE_KIT, sandbox_box, ".js")
    process = sandbox.SandboxedProcess(
        ["/usr/bin/node", "engine.js", "greedy"], submission=sandbox_box
    )
    plays_a_move(process)


@pytest.mark.jvm
def test_the_java_kit_is_built_with_javac_in_the_sandbox_and_plays(sandbox_box: Path) -> None:
    kit = kit_sources()  # the package's copy: adjacency.kit and the JavaFX stand-ins
    sources = []
    for source in sorted(kit.rglob("*.java")):
        target = sandbox_box / source.relative_to(kit)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.parent.chmod(0o755)
        shutil.copy(source, target)
        target.chmod(0o644)
        sources.append(source.relative_to(kit).as_posix())
    with reachable_folder() as classes:
        built = javac(sandbox_box, classes, *sources)
        assert built.reason is sandbox.Reason.EXITED and built.returncode == 0, built
        assert built.cpu_seconds > 0
        assert (classes / "adjacency" / "kit" / "Main.class").is_file()
        process = sandbox.SandboxedProcess(
            [*JAVA, "-cp", ".", "adjacency.kit.Main", "greedy"], submission=classes
        )
        plays_a_move(process)


@pytest.mark.jvm
def test_compiler_errors_come_back_verbatim(sandbox_box: Path) -> None:
    (sandbox_box / "Broken.java").write_text("public class Broken { int x = ; }\n")
    (sandbox_box / "Broken.java").chmod(0o644)
    with reachable_folder() as classes:
        built = javac(sandbox_box, classes, "Broken.java")
        assert os.listdir(classes) == []
    assert built.returncode == 1, built
    assert b"Broken.java:1: error: illegal start of expression" in built.stderr


QUITTER = """\
import java.io.*;
public class Quitter {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null;) {
            if (line.startsWith("go")) System.exit(7);
            System.out.println("seen " + line);
        }
    }
}
"""


@pytest.mark.jvm
def test_a_jvm_exiting_mid_game_is_reported(sandbox_box: Path) -> None:
    (sandbox_box / "Quitter.java").write_text(QUITTER)
    (sandbox_box / "Quitter.java").chmod(0o644)
    with reachable_folder() as classes:
        built = javac(sandbox_box, classes, "Quitter.java")
        assert built.returncode == 0, built
        process = sandbox.SandboxedProcess([*JAVA, "-cp", ".", "Quitter"], submission=classes)
        process.start()
        try:
            process.send_line("position startpos")
            assert process.read_line(GUARD) == "seen position startpos"
            process.send_line("go movetime 100")
            assert process.wait(GUARD) == 7
            assert process.describe_exit() == "exited with status 7"
        finally:
            outcome = process.end()
    assert outcome.reason is sandbox.Reason.EXITED and outcome.returncode == 7
